//! Differential test against html5ever (`harness = false`): htmltok and
//! html5ever's tokenizer, driven alike (see `tests/support/reference.rs`),
//! must give the same token streams on
//!
//! - every input of the html5lib-tests tokenizer suite, in each of the
//!   test's initial states with its last start tag, and in the
//!   configurations of `reference::configs_for` (every initial state, HTML
//!   and foreign content);
//! - every page of the real-page corpus (`../shared/corpus` or
//!   `$HTMLTOK_CORPUS_DIR`), in HTML and in foreign content.
//!
//! First, each normalization `reference::normalize` applies (an html5ever
//! deviation from the standard) is shown on a minimal input: htmltok gives
//! what the standard says, html5ever's raw output differs, and the
//! normalized output agrees. When html5ever fixes a deviation, its check
//! fails and the normalization should go.
//!
//! Ends with `N passed, N failed, N skipped`; exits 1 on any failure.
//! `DIFFERENTIAL_SHOW=N` prints the first N failures (default 20).

use std::path::PathBuf;

use htmltok::State;
use htmltok_test_support::{html5lib, reference, report};
use reference::{Config, RefToken};
use report::Counts;

fn main() {
    let mut counts = Counts::showing("DIFFERENTIAL_SHOW", 20);
    deviations(&mut counts);
    html5lib_inputs(&mut counts);
    corpus_pages(&mut counts);
    counts.finish();
}

// ---------------------------------------------------------------------------
// The deviations that reference::normalize rewrites
// ---------------------------------------------------------------------------

/// One html5ever deviation from the standard, on a minimal input.
struct Deviation {
    name: &'static str,
    input: &'static str,
    config: Config,
    /// The tokens the standard gives (text coalesced).
    standard: Vec<RefToken>,
}

fn start(name: &str) -> RefToken {
    RefToken::Tag {
        end: false,
        name: name.to_owned(),
        attrs: Vec::new(),
        self_closing: false,
    }
}

fn foreign() -> Config {
    Config {
        foreign: true,
        ..Config::default()
    }
}

fn deviations(counts: &mut Counts) {
    let cases = [
        // §13.2.5.69–71: an empty CDATA section emits no character token;
        // html5ever emits its empty temporary buffer as `CharacterTokens("")`.
        Deviation {
            name: "empty CDATA section (`]]>`)",
            input: "<a><![CDATA[]]><b>",
            config: foreign(),
            standard: vec![start("a"), start("b")],
        },
        Deviation {
            name: "empty CDATA section (EOF)",
            input: "<a><![CDATA[",
            config: foreign(),
            standard: vec![start("a")],
        },
        Deviation {
            name: "empty CDATA section (initial state, EOF)",
            input: "",
            config: Config {
                initial_state: State::CdataSection,
                foreign: true,
                ..Config::default()
            },
            standard: vec![],
        },
    ];
    for case in cases {
        let ours = reference::htmltok_tokens(case.input, &case.config);
        let raw = reference::html5ever_tokens(case.input, &case.config);
        let normalized = reference::normalize(case.input, &case.config, raw.clone());
        let what = format!("deviation {} on {:?}", case.name, case.input);
        if ours != case.standard {
            counts.fail(format!(
                "{what}: htmltok gives {ours:?}, the standard {:?}",
                case.standard
            ));
        } else if raw == case.standard {
            counts.fail(format!(
                "{what}: html5ever no longer deviates; remove its normalization"
            ));
        } else if normalized != case.standard {
            counts.fail(format!(
                "{what}: normalized html5ever gives {normalized:?}, the standard {:?}",
                case.standard
            ));
        } else {
            counts.passed += 1;
        }
    }
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

fn run(counts: &mut Counts, label: &str, input: &str, config: &Config) {
    let result = std::panic::catch_unwind(|| reference::compare(input, config));
    match result {
        Ok(Ok(())) => counts.passed += 1,
        Ok(Err(m)) => {
            let shown: String = input.chars().take(300).collect();
            counts.fail(format!("{label} [{config}] input {shown:?}: {m}"));
        }
        Err(_) => counts.fail(format!("{label} [{config}]: panicked")),
    }
}

fn html5lib_inputs(counts: &mut Counts) {
    let dir = match html5lib::find_html5lib_tests_dir() {
        Ok(dir) => dir,
        Err(msg) => {
            println!("FAIL html5lib-tests: {msg}");
            counts.failed += 1;
            return;
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("tokenizer"))
        .expect("tokenizer folder")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    for path in files {
        let tests = match html5lib::load_tokenizer_file(&path) {
            Ok(tests) => tests,
            Err(e) => {
                counts.fail(e);
                continue;
            }
        };
        for test in tests {
            let Ok(input) = &test.input else {
                counts.skipped += 1;
                continue;
            };
            let label = format!("{} #{} {:?}", test.file, test.index, test.description);
            let mut configs: Vec<Config> = test
                .initial_states
                .iter()
                .filter_map(|s| html5lib::state_from_html5lib_name(s))
                .map(|state| Config {
                    initial_state: state,
                    last_start_tag: test.last_start_tag.clone(),
                    foreign: state == State::CdataSection,
                })
                .collect();
            for config in reference::configs_for(input) {
                if !configs.contains(&config) {
                    configs.push(config);
                }
            }
            for config in &configs {
                run(counts, &label, input, config);
            }
        }
    }
}

fn corpus_pages(counts: &mut Counts) {
    let dir = std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        if std::env::var_os("CI").is_some() {
            counts.fail(format!(
                "corpus not found at {} (set HTMLTOK_CORPUS_DIR)",
                dir.display()
            ));
        } else {
            println!("corpus not found at {}: pages skipped", dir.display());
            counts.skipped += 1;
        }
        return;
    };
    let mut pages: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    for page in pages {
        let bytes = std::fs::read(&page).expect("corpus page");
        let input = String::from_utf8_lossy(&bytes);
        let label = page.file_name().unwrap_or_default().to_string_lossy();
        run(counts, &label, &input, &Config::default());
        run(counts, &label, &input, &foreign());
    }
}
