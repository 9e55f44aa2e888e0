//! The inputs named on the command line: expanding directories, reading
//! files and standard input, gunzipping, and checking that an input looks
//! like a page.
//!
//! [`read`] gives an input's bytes (decompressed when gzipped); how they
//! become text, and how that text is tokenized, is `page.rs`'s business.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use globset::{Glob, GlobSet, GlobSetBuilder};

/// The file-name patterns a directory walk keeps when no `--glob` is given.
pub const DEFAULT_GLOBS: [&str; 3] = ["*.htm", "*.html", "*.xhtml"];

/// How many leading bytes the content checks look at.
const SNIFF_LEN: usize = 8192;

/// The most a gzip stream may inflate to (a guard against gzip bombs).
const MAX_INFLATED: u64 = 1 << 30;

/// Where one input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Standard input (no FILE given, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

/// One input to process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Where it comes from.
    pub origin: Origin,
    /// Its size on disk when known (for progress), compressed if gzipped.
    pub size: Option<u64>,
}

impl Source {
    /// A source for standard input.
    pub fn stdin() -> Source {
        Source {
            origin: Origin::Stdin,
            size: None,
        }
    }

    /// A source for the file at `path`.
    pub fn file(path: impl Into<PathBuf>, size: Option<u64>) -> Source {
        Source {
            origin: Origin::File(path.into()),
            size,
        }
    }

    /// The name to show for this input: the path, or `-` for stdin.
    pub fn name(&self) -> String {
        match &self.origin {
            Origin::Stdin => "-".to_owned(),
            Origin::File(path) => path.to_string_lossy().into_owned(),
        }
    }

    /// A failure of this input.
    pub fn fail(&self, what: impl Into<String>) -> Failure {
        Failure {
            name: self.name(),
            what: what.into(),
        }
    }
}

/// An input that could not be processed: `NAME: what went wrong`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The input's name as shown (path or `-`).
    pub name: String,
    /// What went wrong, for people.
    pub what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.what)
    }
}

/// One entry of the expanded input list: an input, or a path that failed
/// before it could become one (a missing path, an unreadable directory).
pub type Entry = Result<Source, Failure>;

/// The file-name filter of directory walks (`--glob`).
#[derive(Clone, Debug)]
pub struct Globs(GlobSet);

impl Globs {
    /// The filter for these patterns; the defaults when there are none.
    pub fn new(patterns: &[String]) -> Result<Globs, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        if patterns.is_empty() {
            for p in DEFAULT_GLOBS {
                builder.add(Glob::new(p)?);
            }
        }
        for p in patterns {
            builder.add(Glob::new(p)?);
        }
        Ok(Globs(builder.build()?))
    }

    /// Whether a walk keeps a file of this name. A gzipped file is kept
    /// when its name without `.gz` matches (`page.html.gz` for `*.html`),
    /// or when the name itself does (`--glob '*.gz'`).
    pub fn matches(&self, file_name: &str) -> bool {
        self.0.is_match(file_name)
            || file_name
                .strip_suffix(".gz")
                .is_some_and(|inner| self.0.is_match(inner))
    }
}

/// The result of expanding the FILE arguments.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Inputs and early failures, in command-line order, each directory's
    /// files sorted by name.
    pub entries: Vec<Entry>,
    /// Whether any argument was a directory.
    pub walked: bool,
}

impl Inputs {
    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Expands the FILE arguments: standard input when there are none or for
/// `-`, a directory's matching files recursively (by name, depth first),
/// any other path as itself (whatever its name: `--glob` only filters
/// walks).
///
/// A walk follows symbolic links to files but not to directories, and skips
/// anything that is neither (sockets, FIFOs).
pub fn expand(args: &[PathBuf], globs: &Globs) -> Inputs {
    let mut inputs = Inputs::default();
    if args.is_empty() {
        inputs.entries.push(Ok(Source::stdin()));
    }
    for arg in args {
        if arg.as_os_str() == "-" {
            inputs.entries.push(Ok(Source::stdin()));
            continue;
        }
        match fs::metadata(arg) {
            Ok(meta) if meta.is_dir() => {
                inputs.walked = true;
                walk(arg, globs, &mut inputs.entries);
            }
            Ok(meta) => inputs.entries.push(Ok(Source::file(arg, Some(meta.len())))),
            Err(e) => inputs
                .entries
                .push(Err(Source::file(arg, None).fail(io_message(&e)))),
        }
    }
    inputs
}

/// Adds the matching files under `dir` to `entries`.
fn walk(dir: &Path, globs: &Globs, entries: &mut Vec<Entry>) {
    let fail = |e: &io::Error| Err(Source::file(dir, None).fail(io_message(e)));
    let read = match fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => return entries.push(fail(&e)),
    };
    let mut children = Vec::new();
    for child in read {
        match child {
            Ok(child) => children.push(child),
            Err(e) => return entries.push(fail(&e)),
        }
    }
    children.sort_by_key(|c| c.file_name());
    for child in children {
        let path = child.path();
        let Ok(kind) = child.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, globs, entries);
            continue;
        }
        if !globs.matches(&child.file_name().to_string_lossy()) {
            continue;
        }
        // Links to files count as files; links to directories are not
        // followed (no cycles); broken links are skipped.
        let meta = if kind.is_symlink() {
            fs::metadata(&path)
        } else {
            child.metadata()
        };
        match meta {
            Ok(meta) if meta.is_file() => entries.push(Ok(Source::file(path, Some(meta.len())))),
            _ => {}
        }
    }
}

/// The raw bytes of an input, decompressed when they are gzip data (by
/// their magic number; a `.gz` name without it is an error).
pub fn read(source: &Source) -> Result<Vec<u8>, Failure> {
    let result = match &source.origin {
        Origin::Stdin => {
            let mut bytes = Vec::new();
            io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes)
        }
        Origin::File(path) => fs::read(path),
    };
    let bytes = result.map_err(|e| source.fail(io_message(&e)))?;
    let gz_name =
        matches!(&source.origin, Origin::File(p) if p.extension().is_some_and(|x| x == "gz"));
    if bytes.starts_with(&[0x1f, 0x8b]) {
        gunzip(&bytes).map_err(|what| source.fail(what))
    } else if gz_name {
        Err(source.fail("not in gzip format"))
    } else {
        Ok(bytes)
    }
}

/// Decompresses a gzip stream (all its members).
fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
    let mut decoder = MultiGzDecoder::new(bytes).take(MAX_INFLATED + 1);
    decoder
        .read_to_end(&mut out)
        .map_err(|e| format!("corrupt gzip data ({})", io_message(&e)))?;
    if out.len() as u64 > MAX_INFLATED {
        return Err(format!(
            "gzip data inflates to more than {} MiB, skipped",
            MAX_INFLATED >> 20
        ));
    }
    Ok(out)
}

/// Whether a decoded input looks like an HTML page, and if not, what it
/// looks like. The heuristic, on the first 8 KiB of the text:
///
/// - empty: no text at all (no bytes, or only a byte order mark);
/// - binary: a NUL character (as `grep` and `git` decide; UTF-16 text
///   without a byte order mark, taken for windows-1252, has them too);
/// - not HTML: no markup, that is no `<` followed by a letter, `!`, `/`
///   or `?` (a tag, comment, doctype or processing instruction). Every
///   real page has one near its start; plain text, JSON, CSS and
///   JavaScript files mostly have none.
pub fn check(text: &str) -> Result<(), &'static str> {
    let bytes = text.as_bytes();
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    if head.is_empty() {
        return Err("empty file, skipped");
    }
    if head.contains(&0) {
        return Err("binary file (NUL bytes in the first 8 KiB), skipped");
    }
    let markup = head.windows(2).any(|w| {
        w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'!' | b'/' | b'?'))
    });
    if !markup {
        return Err("not HTML (no tag in the first 8 KiB), skipped");
    }
    Ok(())
}

/// An I/O error for people: lowercase, without "(os error N)".
pub fn io_message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        io::ErrorKind::InvalidData => "invalid data".to_owned(),
        io::ErrorKind::UnexpectedEof => "unexpected end of data".to_owned(),
        _ => {
            let text = e.to_string();
            let text = match text.find(" (os error") {
                Some(i) => &text[..i],
                None => &text,
            };
            let mut chars = text.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => "I/O error".to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn names(inputs: &Inputs) -> Vec<String> {
        inputs
            .entries
            .iter()
            .map(|e| match e {
                Ok(s) => s.name(),
                Err(f) => format!("ERR {f}"),
            })
            .collect()
    }

    #[test]
    fn dash_and_nothing_are_stdin() {
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[PathBuf::from("-")], &globs);
        assert_eq!(inputs.entries, [Ok(Source::stdin())]);
        assert_eq!(expand(&[], &globs).entries, [Ok(Source::stdin())]);
    }

    #[test]
    fn globs_see_through_gz() {
        let globs = Globs::new(&[]).unwrap();
        for name in ["a.html", "a.htm", "a.xhtml", "a.html.gz"] {
            assert!(globs.matches(name), "{name}");
        }
        for name in ["a.css", "a.gz", "html", "a.html.bz2"] {
            assert!(!globs.matches(name), "{name}");
        }
        let globs = Globs::new(&["*.php".to_owned()]).unwrap();
        assert!(globs.matches("x.php") && globs.matches("x.php.gz") && !globs.matches("x.html"));
    }

    #[test]
    fn walks_directories_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/c")).unwrap();
        for f in ["z.html", "a.htm", "b/c/x.html.gz", "b/y.txt", "b/m.xhtml"] {
            fs::write(root.join(f), "x").unwrap();
        }
        // A link to a file is followed; links to directories (here a
        // cycle) and broken links are not.
        std::os::unix::fs::symlink(root.join("z.html"), root.join("b/link.html")).unwrap();
        std::os::unix::fs::symlink(root, root.join("b/c/up")).unwrap();
        std::os::unix::fs::symlink(root.join("gone"), root.join("b/broken.html")).unwrap();
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[root.to_owned(), root.join("b/y.txt")], &globs);
        assert!(inputs.walked);
        let r = root.to_string_lossy();
        assert_eq!(
            names(&inputs),
            [
                format!("{r}/a.htm"),
                format!("{r}/b/c/x.html.gz"),
                format!("{r}/b/link.html"),
                format!("{r}/b/m.xhtml"),
                format!("{r}/z.html"),
                // Named explicitly: kept whatever its name.
                format!("{r}/b/y.txt"),
            ]
        );
    }

    #[test]
    fn missing_path_is_an_entry_failure() {
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[PathBuf::from("no/such.html")], &globs);
        assert_eq!(
            names(&inputs),
            ["ERR no/such.html: no such file or directory"]
        );
    }

    #[test]
    fn checks() {
        assert_eq!(check(""), Err("empty file, skipped"));
        assert!(check("<p>a\0b").unwrap_err().starts_with("binary"));
        assert!(check("{\"a\": 1 < 2}").unwrap_err().starts_with("not HTML"));
        assert!(check("   \n").unwrap_err().starts_with("not HTML"));
        for ok in [
            "<!DOCTYPE html>",
            "hello <b>x",
            "<?xml ?>",
            "a</p>",
            "<!-- c -->",
            "\u{65e5}\u{672c}<p>",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok:?}");
        }
    }

    #[test]
    fn gzip_is_read_transparently() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.html.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>hi").unwrap();
        fs::write(&path, gz.finish().unwrap()).unwrap();
        let source = Source::file(&path, None);
        assert_eq!(read(&source).unwrap(), b"<p>hi");

        let bad = dir.path().join("bad.html.gz");
        fs::write(&bad, b"<p>not gzip").unwrap();
        let err = read(&Source::file(&bad, None)).unwrap_err();
        assert_eq!(err.what, "not in gzip format");

        let truncated = dir.path().join("cut.html.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&b"<p>hello world ".repeat(100)).unwrap();
        let full = gz.finish().unwrap();
        fs::write(&truncated, &full[..full.len() / 2]).unwrap();
        let err = read(&Source::file(&truncated, None)).unwrap_err();
        assert!(err.what.starts_with("corrupt gzip data"), "{err}");
    }

    #[test]
    fn io_messages_are_for_people() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_message(&e), "no such file or directory");
        let e = io::Error::other("Something Broke");
        assert_eq!(io_message(&e), "something Broke");
    }
}
