//! The tally and closing line of the `harness = false` test binaries.

/// The tally of a `harness = false` test that prints its first failures.
#[derive(Default)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// How many failures were printed, and how many may be.
    pub shown: usize,
    pub show: usize,
}

impl Counts {
    /// Printing the first `$show_var` failures (an environment variable),
    /// else the first `default`.
    pub fn showing(show_var: &str, default: usize) -> Counts {
        Counts {
            show: std::env::var(show_var)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(default),
            ..Counts::default()
        }
    }

    /// Counts a failure, printing it while fewer than `show` were.
    pub fn fail(&mut self, message: String) {
        self.failed += 1;
        if self.shown < self.show {
            self.shown += 1;
            println!("FAIL {message}");
        }
    }

    /// [`finish`] with these counts.
    pub fn finish(&self) -> ! {
        finish(self.passed, self.failed, self.skipped)
    }
}

/// Prints the closing line `N passed, N failed, N skipped` that CI reads and
/// exits with status 1 if anything failed, 0 otherwise.
pub fn finish(passed: usize, failed: usize, skipped: usize) -> ! {
    use std::io::Write;
    println!();
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    let _ = std::io::stdout().flush();
    std::process::exit(i32::from(failed > 0))
}
