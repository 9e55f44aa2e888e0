//! The runner of the `harness = false` test binaries (the html5lib suites,
//! the differential and tree-builder oracles, streaming, encodings): their
//! cases become [libtest-mimic](libtest_mimic) trials, so that
//! `cargo test NAME`, `--exact`, `--skip`, `--list` and `--test-threads`
//! work as for any test, and they end with the project's closing line
//! `N passed, N failed, N skipped`.
//!
//! A trial may hold several checks (one input through two interfaces,
//! every split of an input...): the closing line counts checks, as these
//! binaries always have, and libtest's own `test result:` line above it
//! counts trials. A trial fails when one of its checks fails, and is
//! ignored when all of its checks were skipped.
//!
//! Nothing a trial does is printed while the trials run (libtest's lines
//! would be cut); what a check wants said ([`Checks::note`]) comes after
//! them, in the order the trials were given.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use libtest_mimic::Trial;
use libtest_mimic::{Arguments, Completion, Failed};

static PASSED: AtomicUsize = AtomicUsize::new(0);
static FAILED: AtomicUsize = AtomicUsize::new(0);
static SKIPPED: AtomicUsize = AtomicUsize::new(0);
/// Notes by trial number, printed after the run.
static NOTES: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
static TRIALS: AtomicUsize = AtomicUsize::new(0);

/// The checks of one trial: what passed, failed (with why) and was skipped.
#[derive(Default)]
pub struct Checks {
    passed: usize,
    skipped: usize,
    failures: Vec<String>,
    skips: Vec<String>,
    notes: Vec<String>,
}

impl Checks {
    /// Counts a check that passed.
    pub fn pass(&mut self) {
        self.passed += 1;
    }

    /// Counts a check that failed, and why.
    pub fn fail(&mut self, why: impl Into<String>) {
        self.failures.push(why.into());
    }

    /// Counts a check that could not be made, and why.
    pub fn skip(&mut self, why: impl Into<String>) {
        self.skipped += 1;
        self.skips.push(why.into());
    }

    /// Counts `n` checks that could not be made, for one reason.
    pub fn skip_n(&mut self, n: usize, why: impl Into<String>) {
        self.skipped += n;
        self.skips.push(why.into());
    }

    /// Passes when `result` is `Ok`, fails with its message otherwise.
    pub fn check(&mut self, result: Result<(), String>) {
        match result {
            Ok(()) => self.pass(),
            Err(why) => self.fail(why),
        }
    }

    /// Something to print after the run (a summary, a skip's reason).
    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    /// Checks that failed so far in this trial.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
}

/// A trial named `name` whose checks `run` makes. A panic in `run` is one
/// failed check.
pub fn case(name: impl Into<String>, run: impl FnOnce(&mut Checks) + Send + 'static) -> Trial {
    let number = TRIALS.fetch_add(1, Ordering::Relaxed);
    Trial::ignorable_test(name, move || {
        let mut checks = Checks::default();
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| run(&mut checks))) {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("");
            checks.fail(format!("panicked: {message}"));
        }
        PASSED.fetch_add(checks.passed, Ordering::Relaxed);
        FAILED.fetch_add(checks.failures.len(), Ordering::Relaxed);
        SKIPPED.fetch_add(checks.skipped, Ordering::Relaxed);
        if !checks.notes.is_empty() {
            let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
            notes.extend(checks.notes.drain(..).map(|n| (number, n)));
        }
        if !checks.failures.is_empty() {
            Err(Failed::from(checks.failures.join("\n")))
        } else if checks.passed == 0 && checks.skipped > 0 {
            Ok(Completion::ignored_with(checks.skips.join("; ")))
        } else {
            Ok(Completion::Completed)
        }
    })
}

/// Runs `trials` as the command line asks (libtest's arguments), prints
/// the notes and the closing line `N passed, N failed, N skipped`, and
/// exits: status 1 if anything failed.
pub fn run(trials: Vec<Trial>) -> ! {
    run_then(trials, || {})
}

/// [`run`], calling `report` after the notes, before the closing line
/// (for a summary gathered while the trials ran).
pub fn run_then(trials: Vec<Trial>, report: impl FnOnce()) -> ! {
    let args = Arguments::from_args();
    let conclusion = libtest_mimic::run(&args, trials);
    if args.list {
        std::process::exit(0);
    }
    let mut notes = std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()));
    notes.sort_by_key(|(number, _)| *number);
    for (_, note) in &notes {
        println!("{note}");
    }
    report();
    let failed = FAILED.load(Ordering::Relaxed);
    finish(
        PASSED.load(Ordering::Relaxed),
        failed,
        SKIPPED.load(Ordering::Relaxed),
        conclusion.has_failed() || failed > 0,
    )
}

/// Prints the closing line `N passed, N failed, N skipped` that CI reads and
/// exits with status 1 if `failed`, 0 otherwise.
pub fn finish(passed: usize, failed_checks: usize, skipped: usize, failed: bool) -> ! {
    use std::io::Write;
    println!();
    println!("{passed} passed, {failed_checks} failed, {skipped} skipped");
    let _ = std::io::stdout().flush();
    std::process::exit(i32::from(failed))
}

/// Whether a missing suite or corpus fails (under CI) rather than skips.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some()
}
