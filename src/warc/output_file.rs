//! An output file that appears whole or not at all.
//!
//! A WET file cut short by a crash, a full disk or a Ctrl-C would still be
//! a valid WARC file up to its last whole record: nothing in it says that
//! records are missing, so a pipeline would take it for the archive's
//! whole text. [`OutputFile`] writes to a temporary file in the same
//! directory (so that the rename cannot cross file systems), and only
//! [`OutputFile::commit`] (flush, `fsync`, rename over the path, `fsync`
//! of the directory) gives it its name. Dropped without a commit (an
//! error, a panic unwinding), it removes the temporary file. A process
//! killed outright leaves the temporary file, named `.NAME.XXXXXXXX.tmp`:
//! hidden, and never matching a glob for the real names.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file written under a temporary name and renamed to its own on
/// [`OutputFile::commit`] (see the module docs).
///
/// ```
/// use std::io::Write;
/// use htmltok::warc::OutputFile;
///
/// let dir = std::env::temp_dir().join(format!("htmltok-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.warc.wet.gz");
///
/// let mut out = OutputFile::create(&path)?;
/// out.write_all(b"half")?;
/// drop(out); // no commit: nothing at `path`, no temporary file left
/// assert!(!path.exists());
/// assert_eq!(std::fs::read_dir(&dir)?.count(), 0);
///
/// let mut out = OutputFile::create(&path)?;
/// out.write_all(b"whole")?;
/// out.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"whole");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct OutputFile {
    file: Option<BufWriter<File>>,
    temporary: PathBuf,
    path: PathBuf,
}

impl OutputFile {
    /// Starts writing the file `path`: creates a new temporary file beside
    /// it. Nothing at `path` changes until [`OutputFile::commit`].
    pub fn create(path: impl AsRef<Path>) -> io::Result<OutputFile> {
        let path = path.as_ref().to_path_buf();
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a file name", path.display()),
            )
        })?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut tries = 0;
        loop {
            let mut temporary_name = std::ffi::OsString::from(".");
            temporary_name.push(name);
            temporary_name.push(format!(".{:08x}.tmp", random_u32()));
            let temporary = dir.join(temporary_name);
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)
            {
                Ok(file) => {
                    return Ok(OutputFile {
                        file: Some(BufWriter::with_capacity(256 << 10, file)),
                        temporary,
                        path,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot create {}: {e}", temporary.display()),
                    ));
                }
            }
        }
    }

    /// The path the file will have.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file's path, where the bytes are until the commit.
    pub fn temporary_path(&self) -> &Path {
        &self.temporary
    }

    /// Flushes and syncs the file to disk, then renames it to its path
    /// (replacing any file there). On an error the temporary file is
    /// removed and nothing at the path changes.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let done = file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all())
            .and_then(|()| fs::rename(&self.temporary, &self.path));
        if let Err(e) = done {
            let _ = fs::remove_file(&self.temporary);
            return Err(e);
        }
        // The rename itself is on disk once the directory is synced; a
        // system that cannot open a directory (Windows) has renamed
        // durably already.
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(dir) = File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file()?.write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file()?.write_all(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl OutputFile {
    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the output file was committed"))
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            // Unwritten bytes are thrown away with the file.
            let (file, _) = file.into_parts();
            drop(file);
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

fn random_u32() -> u32 {
    let mut bytes = [0u8; 4];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .subsec_nanos();
        return nanos ^ std::process::id().rotate_left(16);
    }
    u32::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("htmltok-output-file-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_an_old_file_only_on_commit() {
        let dir = scratch("replace");
        let path = dir.join("a.warc.gz");
        fs::write(&path, b"old").unwrap();
        let mut out = OutputFile::create(&path).unwrap();
        out.write_all(&vec![b'x'; 1 << 20]).unwrap();
        assert!(out.temporary_path().exists());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        let temporary = out.temporary_path().to_path_buf();
        assert!(
            temporary
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(".a.warc.gz.")
        );
        out.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap().len(), 1 << 20);
        assert!(!temporary.exists());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_panic_leaves_nothing() {
        let dir = scratch("panic");
        let path = dir.join("b.warc");
        let result = std::panic::catch_unwind(|| {
            let mut out = OutputFile::create(&path).unwrap();
            out.write_all(b"part").unwrap();
            panic!("interrupted");
        });
        assert!(result.is_err());
        assert!(!path.exists());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let error = OutputFile::create("/nonexistent-htmltok-dir/x.warc").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(error.to_string().contains("x.warc"), "{error}");
    }
}
