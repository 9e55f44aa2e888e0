//! How the process ends: the exit status of a command's run, and the last
//! line on stderr that counts the inputs not processed.

use std::io;
use std::process::ExitCode;

use crate::input;
use crate::run::Report;
use crate::stdio::report;

/// The exit status of a command whose run ended with `result`: whether
/// some input failed, or the error that stopped the output. With several
/// inputs, a last line on stderr counts those that failed or were skipped.
/// A closed pipe (`| head`) is not an error: the reader has all it wanted.
pub fn status(result: io::Result<Report>) -> ExitCode {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            report(format_args!(
                "cannot write output: {}",
                input::io_message(&e)
            ));
            ExitCode::FAILURE
        }
        Ok(run) => {
            if run.inputs > 1
                && let Some(line) = unprocessed(&run)
            {
                report(format_args!("{line}"));
            }
            if run.failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// `F of N inputs failed, S skipped as binary (--skip-binary)`, or `None`
/// when every input was processed.
fn unprocessed(run: &Report) -> Option<String> {
    const SKIPPED: &str = "skipped as binary (--skip-binary)";
    let n = run.inputs;
    let inputs = if n == 1 { "input" } else { "inputs" };
    match (run.failed, run.skipped) {
        (0, 0) => None,
        (0, s) => Some(format!("{s} of {n} {inputs} {SKIPPED}")),
        (f, 0) => Some(format!("{f} of {n} {inputs} failed")),
        (f, s) => Some(format!("{f} of {n} {inputs} failed, {s} {SKIPPED}")),
    }
}
