//! htmltok's auto-switching against a real tree builder (`harness =
//! false`): htmltok's tokens with default options (auto-switching and
//! scripting on), and with `Options::exact_switching`, must be the tokens
//! html5ever's tokenizer hands to
//! html5ever's tree builder, which switches that tokenizer's content model
//! as the standard's tree construction does (see
//! `tests/support/tree_oracle.rs`). On
//!
//! - every whole-document, scripting-on input of the html5lib
//!   tree-construction tests (`tree-construction/*.dat` of
//!   `../shared/html5lib-tests` or `$HTML5LIB_TESTS_DIR`; tests with
//!   `#document-fragment` or `#script-off` are not whole documents with
//!   scripting on and are left out);
//! - every page of the real-page corpus (`../shared/corpus` or
//!   `$HTMLTOK_CORPUS_DIR`);
//!
//! each whole and through a `StreamTokenizer` in chunks of 1 and 7 bytes.
//! A difference that html5ever's known deviations from the standard
//! explain (`tree_oracle::DEVIATION`, reproduced exactly by htmltok made to
//! follow them) is a skip; `tree_oracle::EXAMPLES` show each deviation
//! first, by its own check.
//!
//! Each example, tree-construction input and corpus page is a trial
//! (libtest-mimic: `cargo test --test tree_oracle NAME` runs those whose
//! name holds NAME); each comparison (a switching, a chunk size) is a
//! check. Ends with `N passed, N failed, N skipped` (checks); exits 1 on
//! any failure. A missing suite or corpus is a skip here and a failure
//! under CI.

use htmltok_test_support::harness::{self, Checks, Trial};
use htmltok_test_support::{corpus, html5lib, tree_oracle};
use tree_oracle::{Judgement, Switching};

/// The ways htmltok reads each input: whole, and in chunks of 1 and 7
/// bytes.
const CHUNKS: [Option<usize>; 3] = [None, Some(1), Some(7)];

/// The switchings compared: the default approximation, and
/// `Options::exact_switching`.
const MODES: [Switching; 2] = [Switching::Approximate, Switching::Exact];

fn main() {
    let mut trials = examples();
    trials.extend(tree_construction());
    trials.extend(corpus_pages());
    harness::run(trials)
}

// ---------------------------------------------------------------------------
// html5ever's deviation
// ---------------------------------------------------------------------------

/// Each example of html5ever's deviations from the standard: htmltok gives
/// the standard's tokens with exact switching, whole and in chunks (the
/// default switching does not follow tables, which one example needs);
/// html5ever's tree builder drives its tokenizer to others; htmltok
/// following html5ever's deviations gives those. Once html5ever agrees
/// with the standard, the check fails and the deviation should go.
fn examples() -> Vec<Trial> {
    let trial = |example: &'static tree_oracle::Example| {
        harness::case(format!("example {}", example.name), move |counts| {
            check_example(counts, example);
        })
    };
    tree_oracle::EXAMPLES.iter().map(trial).collect()
}

/// One example of [`examples`].
fn check_example(counts: &mut Checks, example: &tree_oracle::Example) {
    let (name, input) = (example.name, example.input);
    let standard = (example.standard)();
    let theirs = tree_oracle::tree_builder_tokens(input);
    let switching = Switching::Exact;
    let wrong = CHUNKS
        .iter()
        .map(|&chunk| (switching, chunk))
        .find(|&(switching, chunk)| {
            tree_oracle::htmltok_tokens(input, chunk, switching) != standard
        });
    let emulated = tree_oracle::htmltok_tokens(input, None, Switching::Html5ever);
    if let Some((switching, chunk)) = wrong {
        counts.fail(format!(
            "example {name:?} {input:?}: htmltok ({switching:?}, chunks {chunk:?}) does not \
             give the standard's tokens {standard:?}"
        ));
    } else if theirs == standard {
        counts.fail(format!(
            "example {name:?} {input:?}: html5ever's tree builder now agrees with the \
             standard; drop this part of the deviation"
        ));
    } else if emulated != theirs {
        counts.fail(format!(
            "example {name:?} {input:?}: html5ever's deviations do not explain its tokens \
             {theirs:?} (htmltok with them: {emulated:?})"
        ));
    } else {
        counts.pass();
    }
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// Compares `input` whole and in chunks, with each switching, against the
/// tree builder's tokens.
fn run(counts: &mut Checks, label: &str, input: &str) {
    let theirs = match std::panic::catch_unwind(|| tree_oracle::tree_builder_tokens(input)) {
        Ok(tokens) => tokens,
        Err(_) => {
            counts.fail(format!("{label}: html5ever panicked"));
            return;
        }
    };
    for (switching, chunk) in MODES
        .iter()
        .flat_map(|&switching| CHUNKS.iter().map(move |&chunk| (switching, chunk)))
    {
        let label = format!("{label} ({switching:?}, chunks {chunk:?})");
        let ours =
            std::panic::catch_unwind(|| tree_oracle::htmltok_tokens(input, chunk, switching));
        let Ok(ours) = ours else {
            counts.fail(format!("{label}: htmltok panicked"));
            continue;
        };
        match tree_oracle::judge(input, chunk, switching, &ours, &theirs) {
            Judgement::Same => counts.pass(),
            Judgement::Deviation => {
                counts.note(format!("skipped {label}: {}", tree_oracle::DEVIATION));
                counts.skip(format!("{label}: html5ever's deviation"));
            }
            Judgement::Differs(m) => {
                let shown: String = input.chars().take(300).collect();
                let before: Vec<String> = ours[m.index.saturating_sub(3)..m.index]
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                counts.fail(format!(
                    "{label} input {shown:?}\n    after [{}]\n    {m}",
                    before.join(", ")
                ));
            }
        }
    }
}

/// A suite or corpus that is missing: a failure under CI, else a skip.
fn missing(name: &str, message: String) -> Vec<Trial> {
    vec![harness::case(name, move |counts| {
        if harness::under_ci() {
            counts.fail(message);
        } else {
            counts.note(format!("{message}: skipped"));
            counts.skip(message);
        }
    })]
}

fn tree_construction() -> Vec<Trial> {
    let dir = match html5lib::find_html5lib_suite("tree-construction") {
        Ok(dir) => dir.join("tree-construction"),
        Err(message) => return missing("tree-construction", message),
    };
    let mut trials = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tree-construction folder")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    files.sort();
    let headings = [
        "data",
        "errors",
        "new-errors",
        "document-fragment",
        "script-off",
        "script-on",
        "document",
    ];
    let (mut inputs, mut left_out) = (0, 0);
    for path in files {
        let bytes = std::fs::read(&path).expect("tree-construction file");
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let tests = html5lib::parse_dat(&bytes, |h| headings.contains(&h));
        for (index, test) in tests.iter().enumerate() {
            let has = |name: &str| test.iter().any(|(h, _)| h == name);
            if has("document-fragment") || has("script-off") {
                left_out += 1;
                continue;
            }
            let label = format!("{file} #{index}");
            let Some((_, data)) = test.iter().find(|(h, _)| h == "data") else {
                trials.push(harness::case(label.clone(), move |counts| {
                    counts.fail(format!("{label}: no #data"));
                }));
                continue;
            };
            inputs += 1;
            let input = String::from_utf8_lossy(data).into_owned();
            trials.push(harness::case(label.clone(), move |counts| {
                run(counts, &label, &input);
            }));
        }
    }
    println!(
        "tree-construction: {inputs} whole-document scripting-on inputs \
         ({left_out} fragment or scripting-off tests left out)"
    );
    trials
}

fn corpus_pages() -> Vec<Trial> {
    let Some(pages) = corpus::corpus_page_paths() else {
        return vec![harness::case("corpus", |counts| {
            counts.skip("corpus not found");
        })];
    };
    let trial = |page: std::path::PathBuf| {
        let label = page
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        harness::case(format!("corpus {label}"), move |counts| {
            let bytes = std::fs::read(&page).expect("corpus page");
            let input = String::from_utf8_lossy(&bytes);
            run(counts, &label, &input);
        })
    };
    pages.into_iter().map(trial).collect()
}
