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
//! Each deviation, html5lib test and corpus page is a trial (libtest-mimic:
//! `cargo test --test differential NAME` runs those whose name holds NAME);
//! each comparison of one input in one configuration is a check. Ends with
//! `N passed, N failed, N skipped` (checks); exits 1 on any failure.

use std::path::PathBuf;

use htmltok::State;
use htmltok_test_support::harness::{self, Checks, Trial};
use htmltok_test_support::{html5lib, reference};
use reference::{Config, RefToken};

fn main() {
    let mut trials = deviations();
    trials.extend(html5lib_inputs());
    trials.extend(corpus_pages());
    harness::run(trials)
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

fn deviations() -> Vec<Trial> {
    let cases = [
        // The CDATA section states (https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state and the two
        // after it): an empty CDATA section emits no character token;
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
    let trial = |case: Deviation| {
        harness::case(format!("deviation {}", case.name), move |checks| {
            deviation(checks, case);
        })
    };
    cases.into_iter().map(trial).collect()
}

/// Checks that htmltok gives the standard's tokens, html5ever others, and
/// the normalization the standard's.
fn deviation(counts: &mut Checks, case: Deviation) {
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
        counts.pass();
    }
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

fn run(counts: &mut Checks, label: &str, input: &str, config: &Config) {
    let result = std::panic::catch_unwind(|| reference::compare(input, config));
    match result {
        Ok(Ok(())) => counts.pass(),
        Ok(Err(m)) => {
            let shown: String = input.chars().take(300).collect();
            counts.fail(format!("{label} [{config}] input {shown:?}: {m}"));
        }
        Err(_) => counts.fail(format!("{label} [{config}]: panicked")),
    }
}

fn html5lib_inputs() -> Vec<Trial> {
    let dir = match html5lib::find_html5lib_tests_dir() {
        Ok(dir) => dir,
        Err(msg) => {
            return vec![harness::case("html5lib-tests", move |counts| {
                counts.fail(format!("html5lib-tests: {msg}"));
            })];
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("tokenizer"))
        .expect("tokenizer folder")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    for path in files {
        let tests = match html5lib::load_tokenizer_file(&path) {
            Ok(tests) => tests,
            Err(e) => {
                let name = path.display().to_string();
                trials.push(harness::case(name, move |counts| counts.fail(e)));
                continue;
            }
        };
        for test in tests {
            let label = format!("{} #{} {:?}", test.file, test.index, test.description);
            trials.push(harness::case(label.clone(), move |counts| {
                let input = match &test.input {
                    Ok(input) => input,
                    Err(why) => return counts.skip(why.clone()),
                };
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
            }));
        }
    }
    trials
}

fn corpus_pages() -> Vec<Trial> {
    let dir = std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return vec![harness::case("corpus", move |counts| {
            let why = format!(
                "corpus not found at {} (set HTMLTOK_CORPUS_DIR)",
                dir.display()
            );
            if harness::under_ci() {
                counts.fail(why);
            } else {
                counts.note(format!("{why}: pages skipped"));
                counts.skip(why);
            }
        })];
    };
    let mut pages: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    let trial = |page: PathBuf| {
        let label = page
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        harness::case(format!("corpus {label}"), move |counts| {
            let bytes = std::fs::read(&page).expect("corpus page");
            let input = String::from_utf8_lossy(&bytes);
            run(counts, &label, &input, &Config::default());
            run(counts, &label, &input, &foreign());
        })
    };
    pages.into_iter().map(trial).collect()
}
