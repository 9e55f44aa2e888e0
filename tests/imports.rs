//! No import circles: in `src/` and `cli/src/`, the modules of each folder
//! (its files and subfolders, the folder's own `mod.rs`, `lib.rs` or
//! `main.rs` aside) must not import each other in a circle.
//!
//! Every `use` and every path written out in code that starts with
//! `crate::`, `super::` or `self::` is an import; it goes from the file it
//! is written in to the file or folder it names. Two modules of one folder
//! are in a circle when each reaches the other through such imports
//! between the folder's modules (a strongly connected component of more
//! than one). A name the folder's own file (`mod.rs`, `lib.rs`) imports
//! from one of its modules is followed there (`crate::Token` is
//! `src/token.rs`); glob imports are not followed.
//!
//! [`KNOWN_CIRCLES`] lists the circles there are today, each with who
//! removes it. It may only shrink: a circle not in it fails the test, and
//! so does an entry whose circle no longer exists (delete it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Today's circles, by folder and modules (files without `.rs`), each to
/// be removed by issue 44's work; delete an entry when its circle goes.
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

#[test]
fn no_import_circles_but_the_known_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
    for (crate_dir, crate_root) in [("src", "lib.rs"), ("cli/src", "main.rs")] {
        let krate = Crate::read(&root.join(crate_dir), crate_root);
        for (folder, circle) in krate.circles() {
            let folder = if folder.is_empty() {
                crate_dir.to_string()
            } else {
                format!("{crate_dir}/{folder}")
            };
            found.insert((folder, circle));
        }
    }
    let known: BTreeSet<(String, Vec<String>)> = KNOWN_CIRCLES
        .iter()
        .map(|(folder, modules)| {
            let mut modules: Vec<String> = modules.iter().map(|m| m.to_string()).collect();
            modules.sort();
            (folder.to_string(), modules)
        })
        .collect();
    let show =
        |(folder, modules): &(String, Vec<String>)| format!("{folder}: {}", modules.join(" <-> "));
    let new: Vec<String> = found.difference(&known).map(show).collect();
    let gone: Vec<String> = known.difference(&found).map(show).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import circles not in KNOWN_CIRCLES (tests/imports.rs): {new:#?}\n\
         KNOWN_CIRCLES entries whose circle is gone or changed (delete or shrink them): {gone:#?}"
    );
}

/// The check finds a circle, and follows a parent's imports.
#[test]
fn the_check_sees_circles_and_re_exports() {
    let dir = std::env::temp_dir().join(format!("htmltok-imports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("b")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "mod a; mod b; mod c; pub use c::Thing;");
    write("a.rs", "use crate::b::x; fn f() { crate::Thing::new(); }");
    write(
        "b/mod.rs",
        "mod inner; use super::a::y; // crate::c::not_code\n",
    );
    write("b/inner.rs", "use super::super::a;");
    write(
        "c.rs",
        "pub struct Thing; #[cfg(test)] mod tests { use super::Thing; }\n\
         const S: &str = \"crate::a::not_code\";",
    );
    let circles = Crate::read(&dir, "lib.rs").circles();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        circles,
        vec![(String::new(), vec!["a".to_string(), "b".to_string()])]
    );
}

/// A crate's module files and the imports each makes.
struct Crate {
    /// Each module file, by its module path (folders and file stems).
    files: BTreeMap<Vec<String>, File>,
}

struct File {
    /// Whether this is a folder's own file (`mod.rs`, the crate root).
    folder_root: bool,
    /// Every path imported or written, resolved against the file's
    /// position (absolute: from the crate root), with the inline module
    /// it was written in.
    paths: Vec<Vec<String>>,
    /// What a `use` binds, by name: the absolute path.
    aliases: BTreeMap<String, Vec<String>>,
}

impl Crate {
    fn read(dir: &Path, crate_root: &str) -> Crate {
        let mut files = BTreeMap::new();
        let mut stack = vec![(dir.to_path_buf(), Vec::<String>::new())];
        while let Some((folder, module)) = stack.pop() {
            let own = if module.is_empty() {
                folder.join(crate_root)
            } else {
                folder.join("mod.rs")
            };
            if let Ok(text) = std::fs::read_to_string(&own) {
                files.insert(module.clone(), File::parse(&text, &module, true));
            }
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for path in entries {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if path.is_dir() {
                    let mut child = module.clone();
                    child.push(name);
                    stack.push((path, child));
                } else if let Some(stem) = name.strip_suffix(".rs") {
                    if stem == "mod" || (module.is_empty() && format!("{stem}.rs") == crate_root) {
                        continue;
                    }
                    let mut child = module.clone();
                    child.push(stem.to_string());
                    let text = std::fs::read_to_string(&path).unwrap();
                    files.insert(child.clone(), File::parse(&text, &child, false));
                }
            }
        }
        Crate { files }
    }

    /// The module file (or folder) a path lands in: as deep as the folders
    /// and files go, following a folder file's imports.
    fn unit_of(&self, path: &[String], depth: usize) -> Vec<String> {
        let mut unit: Vec<String> = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut next = unit.clone();
            next.push(segment.clone());
            if self.files.keys().any(|k| k.starts_with(&next)) {
                unit = next;
                continue;
            }
            // An item of `unit`: one it imports, if it is a folder's file.
            if let Some(file) = self.files.get(&unit)
                && file.folder_root
                && depth < 8
                && let Some(target) = file.aliases.get(segment)
            {
                let mut rest = target.clone();
                rest.extend(path[i + 1..].iter().cloned());
                return self.unit_of(&rest, depth + 1);
            }
            break;
        }
        unit
    }

    /// Each folder's circles: (folder, its modules in the circle, sorted).
    fn circles(&self) -> Vec<(String, Vec<String>)> {
        // folder -> module -> modules it imports
        let mut graph: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (from, file) in &self.files {
            for path in &file.paths {
                let to = self.unit_of(path, 0);
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if common < from.len() && common < to.len() {
                    graph
                        .entry(from[..common].to_vec())
                        .or_default()
                        .entry(from[common].clone())
                        .or_default()
                        .insert(to[common].clone());
                }
            }
        }
        let mut out = Vec::new();
        for (folder, edges) in &graph {
            for component in strongly_connected(edges) {
                if component.len() > 1 {
                    out.push((folder.join("/"), component));
                }
            }
        }
        out.sort();
        out
    }
}

/// The strongly connected components of a small graph, each sorted: the
/// nodes each node reaches, intersected with those reaching it.
fn strongly_connected(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |start: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.clone()];
        while let Some(node) = todo.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut components: BTreeSet<Vec<String>> = BTreeSet::new();
    for &n in &nodes {
        let component: Vec<String> = nodes
            .iter()
            .filter(|&&m| m == n || (reaches[n].contains(m) && reaches[m].contains(n)))
            .map(|m| m.to_string())
            .collect();
        components.insert(component);
    }
    components.into_iter().collect()
}

impl File {
    fn parse(text: &str, module: &[String], folder_root: bool) -> File {
        let tokens = tokens(text);
        let mut file = File {
            folder_root,
            paths: Vec::new(),
            aliases: BTreeMap::new(),
        };
        // Inline modules (`mod tests { ... }`) open at brace depths.
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut i = 0;
        while i < tokens.len() {
            let here: Vec<String> = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(m, _)| m.clone()))
                .collect();
            match tokens[i].as_str() {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if inline.last().is_some_and(|&(_, d)| d == depth) {
                        inline.pop();
                    }
                }
                "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => {
                    inline.push((tokens[i + 1].clone(), depth));
                    depth += 1;
                    i += 3;
                    continue;
                }
                "use" => {
                    let end = tokens[i..]
                        .iter()
                        .position(|t| t == ";")
                        .map_or(tokens.len(), |p| i + p);
                    let mut uses = Vec::new();
                    use_tree(&tokens[i + 1..end], &[], &mut uses);
                    for (path, bound) in uses {
                        if let Some(absolute) = absolute(&path, &here) {
                            if let Some(name) = bound {
                                file.aliases.insert(name, absolute.clone());
                            }
                            file.paths.push(absolute);
                        }
                    }
                    i = end + 1;
                    continue;
                }
                "crate" | "super" | "self" if tokens.get(i + 1).is_some_and(|t| t == "::") => {
                    let mut path = vec![tokens[i].clone()];
                    let mut j = i + 1;
                    while tokens.get(j).is_some_and(|t| t == "::")
                        && tokens.get(j + 1).is_some_and(|t| is_ident(t))
                    {
                        path.push(tokens[j + 1].clone());
                        j += 2;
                    }
                    if let Some(absolute) = absolute(&path, &here) {
                        file.paths.push(absolute);
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        file
    }
}

/// `path` from the crate root, written in module `here`: after `crate`,
/// from the root; after `super`, `self` or anything else (a module of
/// `here`, or another crate, which then stays inside `here`), from `here`.
fn absolute(path: &[String], here: &[String]) -> Option<Vec<String>> {
    let (mut base, mut rest) = match path.first()?.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        _ => (here.to_vec(), path),
    };
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                base.pop()?;
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The paths a `use` tree names (prefix included), each with the name it
/// binds (`None` for a glob).
fn use_tree(tokens: &[String], prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" | "pub" | "(" | ")" => {}
            "{" => {
                // Split the braces' contents at top-level commas.
                let mut level = 0;
                let mut start = i + 1;
                for j in i + 1..tokens.len() {
                    match tokens[j].as_str() {
                        "{" => level += 1,
                        "}" if level == 0 => {
                            use_tree(&tokens[start..j], &path, out);
                            return;
                        }
                        "}" => level -= 1,
                        "," if level == 0 => {
                            use_tree(&tokens[start..j], &path, out);
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            "*" => {
                out.push((path, None));
                return;
            }
            "as" => {
                let name = tokens.get(i + 1).cloned();
                out.push((path, name));
                return;
            }
            t if is_ident(t) => path.push(t.to_string()),
            _ => {}
        }
        i += 1;
    }
    if path.len() > prefix.len() || !path.is_empty() {
        let name = path.last().cloned().filter(|n| n != "self");
        let name = name.or_else(|| path.iter().rev().nth(1).cloned());
        if path.last().is_some_and(|n| n == "self") {
            path.pop();
        }
        out.push((path, name));
    }
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The source's identifiers and punctuation (`::` as one), without
/// comments, strings and character literals.
fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut level = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    level += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    level -= 1;
                    i += 2;
                    if level == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || (next == Some('#') && raw_string_at(&chars, i)))
        {
            // A raw string: r"..." or r#"..."#.
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character literal, or a lifetime (left as is).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && next == Some(':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// Whether `r#` at `i` opens a raw string (not a raw identifier `r#type`).
fn raw_string_at(chars: &[char], i: usize) -> bool {
    let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
    chars.get(i + 1 + hashes) == Some(&'"')
}
