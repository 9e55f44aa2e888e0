//! The html5lib-tests tokenizer suite, run THROUGH THE CLI (`harness =
//! false`): `htmltok tokens --format html5lib --errors --no-auto-switch`.
//!
//! Each run's input is written to a temp file; runs are grouped by (initial
//! state, lastStartTag) and each group is one invocation of the binary with
//! all its files, whose output has one line per file. Tokens and errors
//! (code, line, column, in order) are compared with the expectations.
//!
//! Every group is tokenized three times: whole, and fed to the streaming
//! tokenizer a byte and 3 bytes at a time (`--chunk-size 1` and `3`, see
//! [`CHUNK_SIZES`]). A run passes when all three match the expectations.
//! `xmlViolation.test` and inputs holding a lone surrogate are skipped, as
//! the root crate's harness (tests/html5lib.rs) does.
//!
//! Each group is a trial (libtest-mimic: `cargo test --test
//! html5lib_contract NAME` runs the groups whose name, `--state S
//! --last-start-tag T`, holds NAME); each run in it is a check, counted in
//! the closing line `N passed, N failed, N skipped`.
//!
//! Environment:
//! - `HTML5LIB_TESTS_DIR`: the html5lib-tests checkout (the folder holding
//!   `tokenizer/`); by default the `tests/html5lib-tests` submodule of the
//!   workspace, then `shared/html5lib-tests` beside the workspace.
//! - `HTML5LIB_FILTER=substring`: only tests whose file name or description
//!   contains it.
//! - `HTML5LIB_TIMEOUT_SECS=N`: give up on one invocation after N seconds
//!   (default 300).

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{self, Command, Stdio};
use std::time::{Duration, Instant};

use html5lib::{ErrorAt, TokenizerTest, load_tokenizer_file, parse_expected_errors};
use htmltok_test_support::harness::{self, Checks, Trial};
use htmltok_test_support::html5lib;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_htmltok");
const XML_VIOLATION_FILE: &str = "xmlViolation.test";

/// How each group is tokenized: whole (`None`), then with each
/// `--chunk-size`.
const CHUNK_SIZES: [Option<usize>; 3] = [None, Some(1), Some(3)];

/// One test in one initial state.
struct Run<'t> {
    test: &'t TokenizerTest,
    state: String,
}

/// The runs that share one invocation: (CLI state, lastStartTag).
type GroupKey = (&'static str, Option<String>);

/// What the CLI printed for one run, in html5lib form.
struct Actual {
    tokens: Vec<Value>,
    errors: Vec<ErrorAt>,
}

fn main() {
    let dir = html5lib::find_html5lib_tests_dir().unwrap_or_else(|msg| fail_setup(&msg));
    let files = test_files(&dir).unwrap_or_else(|msg| fail_setup(&msg));
    let filter = std::env::var("HTML5LIB_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let timeout = Duration::from_secs(env_number("HTML5LIB_TIMEOUT_SECS").unwrap_or(300) as u64);
    let shown_dir = fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
    println!(
        "html5lib-tests tokenizer suite through {BIN}: {}",
        shown_dir.display()
    );

    let mut trials: Vec<Trial> = Vec::new();
    let mut tests: Vec<TokenizerTest> = Vec::new();
    for path in &files {
        match load_tokenizer_file(path) {
            Ok(t) => tests.extend(t),
            Err(msg) => {
                let name = format!("loading {}", path.display());
                trials.push(harness::case(name.clone(), move |checks| {
                    checks.fail(format!("{name}: {msg}"));
                }));
            }
        }
    }
    // The trials borrow the tests until the process ends.
    let tests: &'static [TokenizerTest] = tests.leak();
    let selected = |t: &TokenizerTest| {
        filter
            .as_deref()
            .is_none_or(|f| t.file.contains(f) || t.description.contains(f))
    };
    let groups = group_runs(tests.iter().filter(|t| selected(t)), &mut trials);

    let work = work_dir();
    for (n, ((state, last), runs)) in groups.into_iter().enumerate() {
        let dir = work.join(format!("group{n}"));
        let name = format!(
            "--state {state} --last-start-tag {}",
            last.as_deref().unwrap_or("(none)")
        );
        trials.push(harness::case(name, move |checks| {
            run_runs(checks, &dir, state, last.as_deref(), &runs, timeout);
        }));
    }
    harness::run_then(trials, || {
        let _ = fs::remove_dir_all(&work);
    })
}

/// Tokenizes one group with each of [`CHUNK_SIZES`] and checks each run.
fn run_runs(
    checks: &mut Checks,
    dir: &Path,
    state: &str,
    last: Option<&str>,
    runs: &[Run<'_>],
    timeout: Duration,
) {
    let started = Instant::now();
    let results: Vec<Vec<Result<Actual, String>>> = CHUNK_SIZES
        .iter()
        .map(|&chunk| run_group(dir, state, last, runs, chunk, timeout))
        .collect();
    checks.note(format!(
        "  --state {state:<13} --last-start-tag {:<10} {:>5} files, {} calls, {:.2}s",
        last.unwrap_or("(none)"),
        runs.len(),
        CHUNK_SIZES.len(),
        started.elapsed().as_secs_f64()
    ));
    for (i, run) in runs.iter().enumerate() {
        let failure = CHUNK_SIZES
            .iter()
            .zip(&results)
            .find_map(|(&chunk, results)| check(run, &results[i], chunk));
        match failure {
            None => checks.pass(),
            Some(failure) => checks.fail(failure),
        }
    }
}

fn fail_setup(msg: &str) -> ! {
    eprintln!("html5lib_contract: {msg}");
    process::exit(1);
}

/// The `*.test` files of `dir/tokenizer`, sorted by name.
fn test_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let tokenizer = dir.join("tokenizer");
    let entries = fs::read_dir(&tokenizer)
        .map_err(|e| format!("cannot read {}: {e}", tokenizer.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.test files in {}", tokenizer.display()));
    }
    Ok(files)
}

fn env_number(var: &str) -> Option<usize> {
    std::env::var(var).ok()?.trim().parse().ok()
}

/// The `--state` value for an html5lib-tests initial state name.
fn cli_state(name: &str) -> Option<&'static str> {
    Some(match name {
        "Data state" => "data",
        "PLAINTEXT state" => "plaintext",
        "RCDATA state" => "rcdata",
        "RAWTEXT state" => "rawtext",
        "Script data state" => "script-data",
        "CDATA section state" => "cdata-section",
        _ => return None,
    })
}

/// Sorts the runnable runs into groups; the runs that cannot be made are
/// one trial of skips, and unknown states a failed one.
fn group_runs<'t>(
    tests: impl Iterator<Item = &'t TokenizerTest>,
    trials: &mut Vec<Trial>,
) -> BTreeMap<GroupKey, Vec<Run<'t>>> {
    let mut groups: BTreeMap<GroupKey, Vec<Run<'t>>> = BTreeMap::new();
    let (mut skipped, mut unknown) = (0, Vec::new());
    for test in tests {
        for state in &test.initial_states {
            if test.file == XML_VIOLATION_FILE || test.unrunnable().is_some() {
                skipped += 1;
                continue;
            }
            let Some(cli) = cli_state(state) else {
                unknown.push(format!(
                    "{} #{}: unknown initial state {state:?}",
                    test.file, test.index
                ));
                continue;
            };
            let run = Run {
                test,
                state: state.clone(),
            };
            let key = (cli, test.last_start_tag.clone());
            groups.entry(key).or_default().push(run);
        }
    }
    if skipped > 0 {
        trials.push(harness::case("runs that cannot be made", move |checks| {
            checks.skip_n(skipped, "xmlViolation.test and inputs with lone surrogates");
        }));
    }
    if !unknown.is_empty() {
        trials.push(harness::case("unknown initial states", move |checks| {
            for why in unknown {
                checks.fail(why);
            }
        }));
    }
    groups
}

/// A fresh folder for the temp files of this process.
fn work_dir() -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("html5lib_contract-{}", process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Writes each run's input to `dir/N.html` and tokenizes them all with one
/// invocation (whole, or in chunks of `chunk` bytes); one result per run.
fn run_group(
    dir: &Path,
    state: &str,
    last: Option<&str>,
    runs: &[Run<'_>],
    chunk: Option<usize>,
    timeout: Duration,
) -> Vec<Result<Actual, String>> {
    let lines = match invoke(dir, state, last, runs, chunk, timeout) {
        Ok(lines) => lines,
        Err(msg) => return runs.iter().map(|_| Err(msg.clone())).collect(),
    };
    lines.iter().map(|line| parse_line(line)).collect()
}

/// The stdout lines of one invocation, exactly one per run.
fn invoke(
    dir: &Path,
    state: &str,
    last: Option<&str>,
    runs: &[Run<'_>],
    chunk: Option<usize>,
    timeout: Duration,
) -> Result<Vec<String>, String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut names = Vec::with_capacity(runs.len());
    for (i, run) in runs.iter().enumerate() {
        let name = format!("{i}.html");
        let input = run.test.input.as_deref().unwrap_or_default();
        fs::write(dir.join(&name), input).map_err(|e| format!("cannot write {name}: {e}"))?;
        names.push(name);
    }
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir).args([
        "tokens",
        "--format",
        "html5lib",
        "--errors",
        "--no-auto-switch",
        "--state",
        state,
    ]);
    if let Some(last) = last {
        cmd.arg(format!("--last-start-tag={last}"));
    }
    if let Some(chunk) = chunk {
        cmd.arg(format!("--chunk-size={chunk}"));
    }
    cmd.args(&names);
    let (status, stdout, stderr) = run_with_timeout(&mut cmd, dir, timeout)?;
    let lines: Vec<String> = stdout.lines().map(str::to_owned).collect();
    if !status.success() || !stderr.is_empty() || lines.len() != runs.len() {
        return Err(format!(
            "`htmltok tokens` exited with {status}, printed {} lines for {} files; stderr: {}",
            lines.len(),
            runs.len(),
            stderr.trim()
        ));
    }
    Ok(lines)
}

/// Runs `cmd` with stdout and stderr sent to files in `dir`, killing it
/// after `timeout`.
fn run_with_timeout(
    cmd: &mut Command,
    dir: &Path,
    timeout: Duration,
) -> Result<(process::ExitStatus, String, String), String> {
    let (out_path, err_path) = (dir.join("stdout.jsonl"), dir.join("stderr.txt"));
    let create = |p: &Path| File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    cmd.stdin(Stdio::null())
        .stdout(create(&out_path)?)
        .stderr(create(&err_path)?);
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {BIN}: {e}"))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`htmltok tokens` ran for over {timeout:?}; killed"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {BIN}: {e}")),
        }
    };
    let read = |p: &Path| fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    Ok((status, read(&out_path)?, read(&err_path)?))
}

/// One output line: `{"output": [...], "errors": [...]}`.
fn parse_line(line: &str) -> Result<Actual, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("bad JSON ({e}): {line}"))?;
    let tokens = value
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no \"output\" list: {line}"))?
        .clone();
    let errors = value
        .get("errors")
        .ok_or_else(|| format!("no \"errors\" list: {line}"))?;
    let errors = parse_expected_errors(Some(errors))?;
    Ok(Actual { tokens, errors })
}

/// The expected tokens with every StartTag in its four-entry form (the
/// loader drops a `false` self-closing flag; the CLI always prints it).
fn expected_tokens(test: &TokenizerTest) -> Vec<Value> {
    let mut tokens = test.output.clone().unwrap_or_default();
    for token in &mut tokens {
        if let Some(a) = token.as_array_mut()
            && a.len() == 3
            && a[0] == "StartTag"
        {
            a.push(Value::Bool(false));
        }
    }
    tokens
}

/// `None` when the run passed, else a description of the failure.
fn check(run: &Run<'_>, actual: &Result<Actual, String>, chunk: Option<usize>) -> Option<String> {
    let test = run.test;
    let want_tokens = expected_tokens(test);
    if let Ok(a) = actual
        && a.tokens == want_tokens
        && a.errors == test.errors
    {
        return None;
    }
    let last = test
        .last_start_tag
        .as_deref()
        .map(|t| format!(", lastStartTag {t:?}"))
        .unwrap_or_default();
    let chunk = chunk
        .map(|n| format!(", --chunk-size {n}"))
        .unwrap_or_default();
    let mut msg = format!(
        "{} #{} {:?} [{}{last}{chunk}]\n  input:           {:?}\n  expected tokens: {}\n  expected errors: {}\n",
        test.file,
        test.index,
        test.description,
        run.state,
        test.input.as_deref().unwrap_or_default(),
        Value::from(want_tokens),
        html5lib::format_errors(&test.errors),
    );
    match actual {
        Ok(a) => msg.push_str(&format!(
            "  actual tokens:   {}\n  actual errors:   {}\n",
            Value::from(a.tokens.clone()),
            html5lib::format_errors(&a.errors)
        )),
        Err(e) => msg.push_str(&format!("  ERROR: {e}\n")),
    }
    Some(msg)
}
