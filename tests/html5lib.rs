//! Conformance against the html5lib-tests tokenizer suite (`harness = false`,
//! on libtest-mimic: `cargo test --test html5lib NAME` runs the trials whose
//! name holds NAME).
//!
//! Every `tokenizer/*.test` file is run, each test once per initial state
//! (one trial, named `FILE #INDEX [STATE] DESCRIPTION`) through the iterator
//! and the push interface (two runs, counted apart in the closing line
//! `N passed, N failed, N skipped`), comparing tokens (characters
//! coalesced) and errors (code, line and column, in order).
//! `xmlViolation.test` is skipped (it expects the infoset coercion), and so
//! are runs whose input holds a lone surrogate (it cannot be a `&str`).
//!
//! Environment:
//! - `HTML5LIB_TESTS_DIR`: the html5lib-tests checkout (the folder holding
//!   `tokenizer/`); by default the `tests/html5lib-tests` submodule, then
//!   `../shared/html5lib-tests`.
//! - `HTML5LIB_FILTER=substring`: run only tests whose file name or
//!   description contains it.
//! - `HTML5LIB_FAILURES_JSONL=path`: write every failure there, one JSON
//!   object a line.
//! - `HTML5LIB_TIMEOUT_SECS=N`: give up (exit 1) when one run makes no
//!   progress for N seconds (default 60).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use htmltok_test_support::{harness, html5lib};

use html5lib::{
    ErrorAt, Html5libOutput, TokenizerTest, Via, find_html5lib_tests_dir, format_errors,
    load_tokenizer_file, state_from_html5lib_name, token_kind, tokenize_html5lib,
};
use serde_json::{Value, json};

const XML_VIOLATION_FILE: &str = "xmlViolation.test";
const DEFAULT_TIMEOUT_SECS: u64 = 60;
const EXAMPLES_PER_CATEGORY: usize = 3;

static PROGRESS: AtomicUsize = AtomicUsize::new(0);
/// The run each trial thread is in, for the watchdog's message.
static CURRENT_RUNS: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());
/// Runs per file, and the failures, for the report after the trials.
static PER_FILE: Mutex<BTreeMap<String, Counts>> = Mutex::new(BTreeMap::new());
static FAILURES: Mutex<Vec<Failure>> = Mutex::new(Vec::new());

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[derive(Default)]
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
}

/// A failing run, with what is needed to print and categorize it.
struct Failure {
    file: String,
    index: usize,
    description: String,
    state: String,
    last_start_tag: Option<String>,
    input: String,
    expected_tokens: Vec<Value>,
    expected_errors: Vec<ErrorAt>,
    /// What the tokenizer gave, or why it gave nothing (panic, runaway).
    actual: Result<Html5libOutput, String>,
}

fn main() {
    let dir = match find_html5lib_tests_dir() {
        Ok(dir) => dir,
        Err(msg) => {
            eprintln!("html5lib: {msg}");
            process::exit(1);
        }
    };
    let files = match test_files(&dir) {
        Ok(files) if !files.is_empty() => files,
        Ok(_) => {
            eprintln!(
                "html5lib: no *.test files in {}",
                dir.join("tokenizer").display()
            );
            process::exit(1);
        }
        Err(msg) => {
            eprintln!("html5lib: {msg}");
            process::exit(1);
        }
    };
    let filter = std::env::var("HTML5LIB_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let timeout = env_number("HTML5LIB_TIMEOUT_SECS").map_or(DEFAULT_TIMEOUT_SECS, |n| n as u64);

    println!("html5lib-tests tokenizer suite: {}", dir.display());
    if let Some(f) = &filter {
        println!("filter: only tests whose file or description contains {f:?}");
    }

    install_panic_hook();
    start_watchdog(timeout);

    let mut trials = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        lock(&PER_FILE).insert(name.clone(), Counts::default());
        let tests = match load_tokenizer_file(path) {
            Ok(tests) => tests,
            Err(msg) => {
                // A file that cannot be read counts as one failed run.
                trials.push(harness::case(format!("{name} (loading)"), move |checks| {
                    per_file(&name, |c| c.failed += 1);
                    checks.fail(format!("loading {name}: {msg}"));
                }));
                continue;
            }
        };
        for test in tests {
            let selected = filter
                .as_deref()
                .is_none_or(|f| name.contains(f) || test.description.contains(f));
            if !selected {
                continue;
            }
            let test = Arc::new(test);
            for state in &test.initial_states {
                let (test, state, name) = (Arc::clone(&test), state.clone(), name.clone());
                let trial = format!("{name} #{} [{state}] {}", test.index, test.description);
                trials.push(harness::case(trial, move |checks| {
                    run_test(&name, &test, &state, checks);
                }));
            }
        }
    }

    harness::run_then(trials, || report(filter.is_some()))
}

/// Runs one test in one initial state through both interfaces (counted
/// apart), or skips it.
fn run_test(name: &str, test: &TokenizerTest, state: &str, checks: &mut harness::Checks) {
    let skip_reason = if name == XML_VIOLATION_FILE {
        Some("xmlViolation.test expects the infoset coercion")
    } else {
        test.unrunnable()
    };
    if let Some(reason) = skip_reason {
        per_file(name, |c| c.skipped += Via::BOTH.len());
        let run = format!(
            "{name} #{} {:?} [{state}] input {:?}: {reason}",
            test.index, test.description, test.raw_input
        );
        checks.note(format!("skipped run: {run}"));
        checks.skip_n(Via::BOTH.len(), run);
        return;
    }
    for via in Via::BOTH {
        match run_one(test, state, via) {
            None => {
                per_file(name, |c| c.passed += 1);
                checks.pass();
            }
            Some(failure) => {
                per_file(name, |c| c.failed += 1);
                checks.fail(describe_failure(&failure));
                lock(&FAILURES).push(failure);
            }
        }
    }
}

/// What the runs said once all are done: failures by category, every
/// failure as JSON lines if asked, the runs per file.
fn report(filtered: bool) {
    let failures = std::mem::take(&mut *lock(&FAILURES));
    if let Ok(path) = std::env::var("HTML5LIB_FAILURES_JSONL") {
        write_failures_jsonl(&path, &failures);
    }
    if !failures.is_empty() {
        print_categories(&failures);
    }
    println!("per file (passed / failed / skipped):");
    let per_file = lock(&PER_FILE);
    let mut total = Counts::default();
    for (name, c) in per_file.iter() {
        total.passed += c.passed;
        total.failed += c.failed;
        total.skipped += c.skipped;
        if filtered && c.passed + c.failed + c.skipped == 0 {
            continue;
        }
        println!(
            "  {name:<32} {:>5} / {:>5} / {:>5}",
            c.passed, c.failed, c.skipped
        );
    }
    let runs = total.passed + total.failed + total.skipped;
    println!(
        "runs: {runs} in {} files (each through the iterator and the push interface), \
         {} runnable, {} skipped",
        per_file.len(),
        total.passed + total.failed,
        total.skipped
    );
}

/// Adds to the runs counted for `file`.
fn per_file(file: &str, add: impl FnOnce(&mut Counts)) {
    add(lock(&PER_FILE).entry(file.to_owned()).or_default());
}

/// The `*.test` files of `dir/tokenizer`, sorted by name.
fn test_files(dir: &std::path::Path) -> Result<Vec<PathBuf>, String> {
    let tokenizer = dir.join("tokenizer");
    let entries = std::fs::read_dir(&tokenizer)
        .map_err(|e| format!("cannot read {}: {e}", tokenizer.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    Ok(files)
}

fn env_number(var: &str) -> Option<usize> {
    let value = std::env::var(var).ok()?;
    match value.trim().parse() {
        Ok(n) => Some(n),
        Err(_) => {
            eprintln!("html5lib: ignoring {var}={value:?}: not a number");
            None
        }
    }
}

/// Runs one test in one initial state through one interface; `None` when
/// it passes.
fn run_one(test: &TokenizerTest, state_name: &str, via: Via) -> Option<Failure> {
    let input = test.input.as_deref().expect("runnable test has an input");
    let expected_tokens = test.output.as_ref().expect("runnable test has an output");

    let thread = format!("{:?}", std::thread::current().id());
    let run = format!(
        "{} #{} {:?} [{state_name}, {}] input {:?}",
        test.file,
        test.index,
        test.description,
        via.name(),
        input
    );
    lock(&CURRENT_RUNS).insert(thread, run);
    PROGRESS.fetch_add(1, Ordering::Relaxed);

    let actual = match state_from_html5lib_name(state_name) {
        None => Err(format!("unknown initial state {state_name:?}")),
        Some(state) => {
            let last = test.last_start_tag.as_deref();
            match panic::catch_unwind(AssertUnwindSafe(|| {
                tokenize_html5lib(input, state, last, via)
            })) {
                Ok(result) => result,
                Err(_) => Err(format!(
                    "tokenizer panicked: {}",
                    LAST_PANIC
                        .with(|p| p.borrow_mut().take())
                        .unwrap_or_default()
                )),
            }
        }
    };
    if let Ok(out) = &actual
        && out.tokens == *expected_tokens
        && out.errors == test.errors
    {
        return None;
    }
    Some(Failure {
        file: test.file.clone(),
        index: test.index,
        description: test.description.clone(),
        state: format!("{state_name}, {}", via.name()),
        last_start_tag: test.last_start_tag.clone(),
        input: input.to_owned(),
        expected_tokens: expected_tokens.clone(),
        expected_errors: test.errors.clone(),
        actual,
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Panics inside the tokenizer become failures; keep their message quietly
/// (for the thread that panicked) instead of printing it to stderr.
fn install_panic_hook() {
    panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

/// Exits with a message if no run starts for `timeout` seconds (the
/// tokenizer is looping forever).
fn start_watchdog(timeout: u64) {
    if timeout == 0 {
        return;
    }
    std::thread::spawn(move || {
        let mut last = usize::MAX;
        let mut still = 0;
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let now = PROGRESS.load(Ordering::Relaxed);
            if now != last {
                last = now;
                still = 0;
                continue;
            }
            still += 1;
            if still >= timeout {
                let _ = std::io::stdout().flush();
                let runs: Vec<String> = lock(&CURRENT_RUNS).values().cloned().collect();
                eprintln!(
                    "html5lib: no progress for {timeout}s; the tokenizer seems to hang on one of: {}",
                    runs.join("; ")
                );
                process::exit(1);
            }
        }
    });
}

fn json_list(tokens: &[Value]) -> String {
    serde_json::to_string(tokens).unwrap_or_default()
}

/// A failing run, for libtest's list of failures.
fn describe_failure(f: &Failure) -> String {
    let last = f
        .last_start_tag
        .as_deref()
        .map(|t| format!(", lastStartTag {t:?}"))
        .unwrap_or_default();
    let mut lines = vec![
        format!(
            "FAIL {} #{} {:?} [{}{last}]",
            f.file, f.index, f.description, f.state
        ),
        format!("  input:           {:?}", f.input),
    ];
    match &f.actual {
        Err(msg) => {
            lines.push(format!(
                "  expected tokens: {}",
                json_list(&f.expected_tokens)
            ));
            lines.push(format!(
                "  expected errors: {}",
                format_errors(&f.expected_errors)
            ));
            lines.push(format!("  ERROR: {}", msg.replace('\n', "\n         ")));
        }
        Ok(actual) => {
            let mark = |same: bool| if same { "" } else { "   <-- differs" };
            lines.push(format!(
                "  expected tokens: {}{}",
                json_list(&f.expected_tokens),
                mark(actual.tokens == f.expected_tokens)
            ));
            lines.push(format!("  actual tokens:   {}", json_list(&actual.tokens)));
            lines.push(format!(
                "  expected errors: {}{}",
                format_errors(&f.expected_errors),
                mark(actual.errors == f.expected_errors)
            ));
            lines.push(format!(
                "  actual errors:   {}",
                format_errors(&actual.errors)
            ));
        }
    }
    lines.join("\n")
}

fn write_failures_jsonl(path: &str, failures: &[Failure]) {
    let errors_json = |errors: &[ErrorAt]| -> Value {
        errors
            .iter()
            .map(|e| json!({"code": e.code, "line": e.line, "col": e.col}))
            .collect()
    };
    let mut text = String::new();
    for f in failures {
        let (tokens, errors, problem) = match &f.actual {
            Ok(out) => (
                Value::from(out.tokens.clone()),
                errors_json(&out.errors),
                Value::Null,
            ),
            Err(msg) => (Value::Null, Value::Null, Value::from(msg.as_str())),
        };
        let line = json!({
            "file": f.file,
            "index": f.index,
            "description": f.description,
            "state": f.state,
            "lastStartTag": f.last_start_tag,
            "input": f.input,
            "expected_tokens": f.expected_tokens,
            "actual_tokens": tokens,
            "expected_errors": errors_json(&f.expected_errors),
            "actual_errors": errors,
            "problem": problem,
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    match std::fs::write(path, text) {
        Ok(()) => println!("wrote {} failures to {path}\n", failures.len()),
        Err(e) => eprintln!("html5lib: cannot write {path}: {e}"),
    }
}

// ---------------------------------------------------------------------------
// Categorizing failures
// ---------------------------------------------------------------------------

/// The categories a failure falls in (a run can be in several).
fn categories(f: &Failure) -> Vec<(String, String)> {
    let head = format!(
        "{} {} [{}]",
        f.file,
        truncate(&format!("{:?}", f.input), 60),
        f.state
    );
    let out = match &f.actual {
        Err(msg) => {
            let kind = if msg.starts_with("tokenizer panicked") {
                "panic"
            } else {
                "no result"
            };
            let first_line = msg.lines().take(2).collect::<Vec<_>>().join(" ");
            return vec![(
                kind.to_owned(),
                format!("{head}: {}", truncate(&first_line, 120)),
            )];
        }
        Ok(out) => out,
    };
    let mut cats = Vec::new();
    if out.tokens != f.expected_tokens {
        let i = f
            .expected_tokens
            .iter()
            .zip(&out.tokens)
            .take_while(|(a, b)| a == b)
            .count();
        let exp = f.expected_tokens.get(i);
        let act = out.tokens.get(i);
        let kind = |t: Option<&Value>| t.map_or("(none)", token_kind).to_owned();
        let cat = if kind(exp) == kind(act) {
            format!("tokens: {} differs", kind(exp))
        } else {
            format!("tokens: expected {}, got {}", kind(exp), kind(act))
        };
        let show = |t: Option<&Value>| truncate(&t.map_or("(none)".into(), Value::to_string), 80);
        cats.push((
            cat,
            format!("{head}: expected {} / got {}", show(exp), show(act)),
        ));
    }
    if out.errors != f.expected_errors {
        let example = format!(
            "{head}: expected {} / got {}",
            truncate(&format_errors(&f.expected_errors), 100),
            truncate(&format_errors(&out.errors), 100)
        );
        for cat in error_categories(&f.expected_errors, &out.errors) {
            cats.push((cat, example.clone()));
        }
    }
    cats
}

fn error_categories(expected: &[ErrorAt], actual: &[ErrorAt]) -> Vec<String> {
    type Positions = Vec<(usize, usize)>;
    // code -> (expected positions, actual positions)
    let mut by_code: BTreeMap<&str, (Positions, Positions)> = BTreeMap::new();
    for e in expected {
        by_code.entry(&e.code).or_default().0.push((e.line, e.col));
    }
    for e in actual {
        by_code.entry(&e.code).or_default().1.push((e.line, e.col));
    }
    let mut cats = Vec::new();
    for (code, (mut exp, mut act)) in by_code {
        if exp.len() > act.len() {
            cats.push(format!("errors: missing {code}"));
        } else if exp.len() < act.len() {
            cats.push(format!("errors: unexpected {code}"));
        } else {
            exp.sort_unstable();
            act.sort_unstable();
            if exp != act {
                cats.push(format!("errors: wrong line/col for {code}"));
            }
        }
    }
    if cats.is_empty() {
        cats.push("errors: right errors in the wrong order".to_owned());
    }
    cats
}

fn print_categories(failures: &[Failure]) {
    // category -> (runs, examples as (input length, text))
    let mut cats: BTreeMap<String, (usize, Vec<(usize, String)>)> = BTreeMap::new();
    for f in failures {
        for (cat, example) in categories(f) {
            let entry = cats.entry(cat).or_default();
            entry.0 += 1;
            entry.1.push((f.input.len(), example));
        }
    }
    let mut cats: Vec<_> = cats.into_iter().collect();
    cats.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    println!("failures by category (a run may be in several):");
    for (cat, (runs, mut examples)) in cats {
        println!("  {runs:>5}  {cat}");
        examples.sort();
        examples.dedup_by(|a, b| a.1 == b.1);
        for (_, e) in examples.iter().take(EXAMPLES_PER_CATEGORY) {
            println!("           e.g. {e}");
        }
    }
    println!();
}

fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        return s.to_owned();
    }
    let mut t: String = s.chars().take(max_chars).collect();
    t.push('…');
    t
}
