//! Reading the inputs named on the command line.
//!
//! An input's bytes are the input stream exactly as they are: nothing is
//! sniffed or stripped (a leading U+FEFF stays a character), and invalid
//! UTF-8 becomes U+FFFD.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Where one input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input (no FILE given, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Source {
    /// The source a FILE argument names: `-` is standard input.
    pub fn from_arg(arg: &Path) -> Source {
        if arg.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(arg.to_owned())
        }
    }

    /// The name to show for this input: the path, or `-` for stdin.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("-"),
            Source::File(path) => path.to_string_lossy(),
        }
    }

    /// Reads the whole input.
    pub fn read(&self) -> Result<Vec<u8>, ReadError<'_>> {
        let result = match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes)
            }
            Source::File(path) => std::fs::read(path),
        };
        result.map_err(|error| ReadError {
            source: self,
            error,
        })
    }
}

/// The sources named by the FILE arguments: standard input when there are
/// none.
pub fn sources(files: &[PathBuf]) -> Vec<Source> {
    if files.is_empty() {
        return vec![Source::Stdin];
    }
    files.iter().map(|f| Source::from_arg(f)).collect()
}

/// The input stream of `bytes`: borrowed when they are valid UTF-8, with
/// each maximal invalid subpart replaced by U+FFFD (as the WHATWG Encoding
/// Standard's UTF-8 decoder does) when they are not.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// An input that could not be read.
#[derive(Debug)]
pub struct ReadError<'s> {
    source: &'s Source,
    error: io::Error,
}

impl fmt::Display for ReadError<'_> {
    /// `PATH: reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source.name(), self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_is_stdin() {
        let files = [PathBuf::from("-"), PathBuf::from("a.html")];
        assert_eq!(
            sources(&files),
            [Source::Stdin, Source::File("a.html".into())]
        );
        assert_eq!(sources(&[]), [Source::Stdin]);
    }

    #[test]
    fn decodes_without_copying_valid_input() {
        assert!(matches!(
            decode(b"\xEF\xBB\xBFok"),
            Cow::Borrowed("\u{FEFF}ok")
        ));
        assert_eq!(decode(b"a\xffb"), "a\u{FFFD}b");
        // Maximal subparts: a truncated 3-byte sequence is one U+FFFD.
        assert_eq!(decode(b"\xE2\x82x\xF0\x80"), "\u{FFFD}x\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn read_error_names_the_path() {
        let source = Source::File("no/such/file.html".into());
        let err = source.read().unwrap_err().to_string();
        assert!(err.starts_with("no/such/file.html: "), "{err}");
    }
}
