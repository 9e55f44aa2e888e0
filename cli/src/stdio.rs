//! Standard output and standard error as every command uses them: stdout
//! buffered, and one line a message on stderr.

use std::io::{self, BufWriter, StdoutLock, Write};

/// Standard output, buffered.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// Prints `htmltok: MESSAGE` on stderr, never panicking (even if stderr is
/// closed).
pub fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "htmltok: {message}");
}
