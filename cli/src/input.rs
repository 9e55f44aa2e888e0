//! The inputs named on the command line: expanding directories, and
//! opening files and standard input as byte streams, gunzipped on the fly.
//!
//! [`open`] gives an input's bytes as a reader; how they are read in chunks,
//! decoded and tokenized is `page.rs`'s business. Nothing here looks at what
//! the bytes are: every input is HTML as far as the standard is concerned.

use std::fmt;
use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::bufread::MultiGzDecoder;
use globset::{Glob, GlobSet, GlobSetBuilder};

/// The file-name patterns a directory walk keeps when no `--glob` is given.
/// (`*.warc` finds `*.warc.gz` too: see [`Globs::matches`].)
pub const DEFAULT_GLOBS: [&str; 4] = ["*.htm", "*.html", "*.xhtml", "*.warc"];

/// The most a gzip stream may inflate to by default (a guard against gzip
/// bombs; `--gunzip-limit`).
pub const GUNZIP_LIMIT: u64 = 1 << 30;

/// Where one input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Standard input (no FILE given, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

/// One input to process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Where it comes from.
    pub origin: Origin,
    /// Its size on disk when known (for progress), compressed if gzipped.
    pub size: Option<u64>,
}

impl Source {
    /// A source for standard input.
    pub fn stdin() -> Source {
        Source {
            origin: Origin::Stdin,
            size: None,
        }
    }

    /// A source for the file at `path`.
    pub fn file(path: impl Into<PathBuf>, size: Option<u64>) -> Source {
        Source {
            origin: Origin::File(path.into()),
            size,
        }
    }

    /// The name to show for this input: the path, or `-` for stdin.
    pub fn name(&self) -> String {
        match &self.origin {
            Origin::Stdin => "-".to_owned(),
            Origin::File(path) => path.to_string_lossy().into_owned(),
        }
    }

    /// A failure of this input.
    pub fn fail(&self, what: impl Into<String>) -> Failure {
        Failure {
            name: self.name(),
            what: what.into(),
        }
    }
}

/// An input that could not be processed: `NAME: what went wrong`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The input's name as shown (path or `-`).
    pub name: String,
    /// What went wrong, for people.
    pub what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.what)
    }
}

/// One entry of the expanded input list: an input, or a path that failed
/// before it could become one (a missing path, an unreadable directory).
pub type Entry = Result<Source, Failure>;

/// The file-name filter of directory walks (`--glob`).
#[derive(Clone, Debug)]
pub struct Globs(GlobSet);

impl Globs {
    /// The filter for these patterns; the defaults when there are none.
    pub fn new(patterns: &[String]) -> Result<Globs, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        if patterns.is_empty() {
            for p in DEFAULT_GLOBS {
                builder.add(Glob::new(p)?);
            }
        }
        for p in patterns {
            builder.add(Glob::new(p)?);
        }
        Ok(Globs(builder.build()?))
    }

    /// Whether a walk keeps a file of this name. A gzipped file is kept
    /// when its name without `.gz` matches (`page.html.gz` for `*.html`),
    /// or when the name itself does (`--glob '*.gz'`).
    pub fn matches(&self, file_name: &str) -> bool {
        self.0.is_match(file_name)
            || file_name
                .strip_suffix(".gz")
                .is_some_and(|inner| self.0.is_match(inner))
    }
}

/// The result of expanding the FILE arguments.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Inputs and early failures, in command-line order, each directory's
    /// files sorted by name.
    pub entries: Vec<Entry>,
    /// Whether any argument was a directory.
    pub walked: bool,
}

impl Inputs {
    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Expands the FILE arguments: standard input when there are none or for
/// `-`, a directory's matching files recursively (by name, depth first),
/// any other path as itself (whatever its name: `--glob` only filters
/// walks).
///
/// A walk follows symbolic links to files but not to directories, and skips
/// anything that is neither (sockets, FIFOs).
pub fn expand(args: &[PathBuf], globs: &Globs) -> Inputs {
    let mut inputs = Inputs::default();
    if args.is_empty() {
        inputs.entries.push(Ok(Source::stdin()));
    }
    for arg in args {
        if arg.as_os_str() == "-" {
            inputs.entries.push(Ok(Source::stdin()));
            continue;
        }
        match fs::metadata(arg) {
            Ok(meta) if meta.is_dir() => {
                inputs.walked = true;
                walk(arg, globs, &mut inputs.entries);
            }
            Ok(meta) => inputs.entries.push(Ok(Source::file(arg, Some(meta.len())))),
            Err(e) => inputs
                .entries
                .push(Err(Source::file(arg, None).fail(io_message(&e)))),
        }
    }
    inputs
}

/// Adds the matching files under `dir` to `entries`.
fn walk(dir: &Path, globs: &Globs, entries: &mut Vec<Entry>) {
    let fail = |e: &io::Error| Err(Source::file(dir, None).fail(io_message(e)));
    let read = match fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => return entries.push(fail(&e)),
    };
    let mut children = Vec::new();
    for child in read {
        match child {
            Ok(child) => children.push(child),
            Err(e) => return entries.push(fail(&e)),
        }
    }
    children.sort_by_key(|c| c.file_name());
    for child in children {
        let path = child.path();
        let Ok(kind) = child.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, globs, entries);
            continue;
        }
        if !globs.matches(&child.file_name().to_string_lossy()) {
            continue;
        }
        // Links to files count as files; links to directories are not
        // followed (no cycles); broken links are skipped.
        let meta = if kind.is_symlink() {
            fs::metadata(&path)
        } else {
            child.metadata()
        };
        match meta {
            Ok(meta) if meta.is_file() => entries.push(Ok(Source::file(path, Some(meta.len())))),
            _ => {}
        }
    }
}

/// An input's bytes, as they come.
pub type Reader = Box<dyn Read + Send>;

/// An input, opened: a page's bytes, or a WARC archive's.
pub enum Opened {
    /// The bytes of a page, gunzipped if they were gzip data.
    Page(Reader),
    /// The bytes of a WARC archive as they are in the file (gzip or not:
    /// the archive reader inflates them itself, member by member).
    Archive(Reader),
}

/// What a WARC record (and so an archive) starts with.
const WARC_START: &[u8] = b"WARC/1.";

/// Whether a file name says WARC archive: `*.warc`, `*.warc.gz`.
fn archive_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".warc")
}

/// Whether an input's first bytes are a WARC archive's: `WARC/1.`, as
/// they are or once gunzipped.
fn archive_head(head: &[u8]) -> bool {
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut inflated = Vec::new();
        // The head may end inside the gzip data: what inflates is enough.
        let _ = flate2::bufread::GzDecoder::new(head)
            .take(WARC_START.len() as u64)
            .read_to_end(&mut inflated);
        return inflated.starts_with(WARC_START);
    }
    head.starts_with(WARC_START)
}

/// Opens an input: a WARC archive when its name or its first bytes say so
/// (see [`Opened`]), else a page, as [`open`] does.
pub fn open_input(source: &Source, gunzip_limit: u64) -> Result<Opened, Failure> {
    let mut raw = open_raw(source)?;
    let head = raw.fill_buf().map_err(|e| source.fail(io_message(&e)))?;
    let named = matches!(&source.origin, Origin::File(p) if archive_name(&p.to_string_lossy()));
    if named || archive_head(head) {
        return Ok(Opened::Archive(Box::new(raw)));
    }
    page(source, raw, gunzip_limit).map(Opened::Page)
}

/// Opens an input for reading: a file or standard input, decompressed on
/// the fly when its bytes are gzip data (by their magic number; a `.gz`
/// name without it is an error). A gzip stream may inflate to at most
/// `gunzip_limit` bytes: past it, reading fails (what came before is
/// still read).
pub fn open(source: &Source, gunzip_limit: u64) -> Result<Reader, Failure> {
    page(source, open_raw(source)?, gunzip_limit)
}

/// An input's bytes as they are, buffered.
fn open_raw(source: &Source) -> Result<BufReader<Reader>, Failure> {
    let raw: Reader = match &source.origin {
        Origin::Stdin => Box::new(io::stdin()),
        Origin::File(path) => {
            Box::new(fs::File::open(path).map_err(|e| source.fail(io_message(&e)))?)
        }
    };
    Ok(BufReader::with_capacity(64 * 1024, raw))
}

/// A page's bytes from its raw bytes: gunzipped if they are gzip data.
fn page(source: &Source, mut raw: BufReader<Reader>, gunzip_limit: u64) -> Result<Reader, Failure> {
    let head = raw.fill_buf().map_err(|e| source.fail(io_message(&e)))?;
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    let gz_name =
        matches!(&source.origin, Origin::File(p) if p.extension().is_some_and(|x| x == "gz"));
    if gzip {
        Ok(Box::new(Gunzip {
            inner: MultiGzDecoder::new(raw),
            limit: gunzip_limit,
            out: 0,
        }))
    } else if gz_name {
        Err(source.fail("not in gzip format"))
    } else {
        Ok(Box::new(raw))
    }
}

/// A gzip stream (all its members), inflated up to a limit.
struct Gunzip<R: BufRead> {
    inner: MultiGzDecoder<R>,
    limit: u64,
    out: u64,
}

impl<R: BufRead> Read for Gunzip<R> {
    /// Inflates up to the limit exactly: every byte under it is handed out,
    /// and a read past it (one byte more exists) is the error.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let corrupt = |e: io::Error| read_error(format!("corrupt gzip data ({})", io_message(&e)));
        let room = self.limit - self.out;
        if room == 0 {
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe).map_err(corrupt)? {
                0 => Ok(0),
                _ => Err(read_error(format!(
                    "gzip data inflates to more than {} (--gunzip-limit)",
                    size_for_people(self.limit)
                ))),
            };
        }
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want]).map_err(corrupt)?;
        self.out += n as u64;
        Ok(n)
    }
}

/// A read error whose message is for people as it is.
#[derive(Debug)]
pub struct ReadError(String);

/// An `io::Error` whose message, `message`, is for people as it is.
pub fn read_error(message: String) -> io::Error {
    io::Error::other(ReadError(message))
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

/// A size in bytes for people: `1 GiB`, `64 MiB`, `512 KiB`, `100 bytes`.
pub fn size_for_people(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} bytes")
}

/// Parses a size: a number of bytes, or with a suffix K, M or G (powers of
/// 1024; `KiB`, `MB` and the like are read the same).
pub fn parse_size(arg: &str) -> Result<u64, String> {
    let arg = arg.trim();
    let digits = arg.find(|c: char| !c.is_ascii_digit()).unwrap_or(arg.len());
    let (number, unit) = arg.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{arg:?} is not a size (a number of bytes, or with K, M or G)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("unknown unit {unit:?} (use K, M or G)")),
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{arg:?} is too large"))
}

/// An I/O error for people: lowercase, without "(os error N)"; a
/// [`ReadError`]'s message as it is.
pub fn io_message(e: &io::Error) -> String {
    if let Some(inner) = e.get_ref().and_then(|e| e.downcast_ref::<ReadError>()) {
        return inner.0.clone();
    }
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        io::ErrorKind::InvalidData => "invalid data".to_owned(),
        io::ErrorKind::UnexpectedEof => "unexpected end of data".to_owned(),
        _ => {
            let text = e.to_string();
            let text = match text.find(" (os error") {
                Some(i) => &text[..i],
                None => &text,
            };
            let mut chars = text.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => "I/O error".to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn names(inputs: &Inputs) -> Vec<String> {
        inputs
            .entries
            .iter()
            .map(|e| match e {
                Ok(s) => s.name(),
                Err(f) => format!("ERR {f}"),
            })
            .collect()
    }

    #[test]
    fn dash_and_nothing_are_stdin() {
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[PathBuf::from("-")], &globs);
        assert_eq!(inputs.entries, [Ok(Source::stdin())]);
        assert_eq!(expand(&[], &globs).entries, [Ok(Source::stdin())]);
    }

    #[test]
    fn globs_see_through_gz() {
        let globs = Globs::new(&[]).unwrap();
        for name in [
            "a.html",
            "a.htm",
            "a.xhtml",
            "a.html.gz",
            "a.warc",
            "a.warc.gz",
        ] {
            assert!(globs.matches(name), "{name}");
        }
        for name in ["a.css", "a.gz", "html", "a.html.bz2"] {
            assert!(!globs.matches(name), "{name}");
        }
        let globs = Globs::new(&["*.php".to_owned()]).unwrap();
        assert!(globs.matches("x.php") && globs.matches("x.php.gz") && !globs.matches("x.html"));
    }

    #[test]
    fn walks_directories_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/c")).unwrap();
        for f in ["z.html", "a.htm", "b/c/x.html.gz", "b/y.txt", "b/m.xhtml"] {
            fs::write(root.join(f), "x").unwrap();
        }
        // A link to a file is followed; links to directories (here a
        // cycle) and broken links are not.
        std::os::unix::fs::symlink(root.join("z.html"), root.join("b/link.html")).unwrap();
        std::os::unix::fs::symlink(root, root.join("b/c/up")).unwrap();
        std::os::unix::fs::symlink(root.join("gone"), root.join("b/broken.html")).unwrap();
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[root.to_owned(), root.join("b/y.txt")], &globs);
        assert!(inputs.walked);
        let r = root.to_string_lossy();
        assert_eq!(
            names(&inputs),
            [
                format!("{r}/a.htm"),
                format!("{r}/b/c/x.html.gz"),
                format!("{r}/b/link.html"),
                format!("{r}/b/m.xhtml"),
                format!("{r}/z.html"),
                // Named explicitly: kept whatever its name.
                format!("{r}/b/y.txt"),
            ]
        );
    }

    #[test]
    fn missing_path_is_an_entry_failure() {
        let globs = Globs::new(&[]).unwrap();
        let inputs = expand(&[PathBuf::from("no/such.html")], &globs);
        assert_eq!(
            names(&inputs),
            ["ERR no/such.html: no such file or directory"]
        );
    }

    fn read_all(source: &Source, limit: u64) -> Result<Vec<u8>, String> {
        let mut reader = open(source, limit).map_err(|f| f.what)?;
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| io_message(&e))?;
        Ok(bytes)
    }

    #[test]
    fn gzip_is_read_transparently() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.html.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>hi").unwrap();
        fs::write(&path, gz.finish().unwrap()).unwrap();
        let source = Source::file(&path, None);
        assert_eq!(read_all(&source, GUNZIP_LIMIT).unwrap(), b"<p>hi");
        assert_eq!(
            read_all(&source, 4).unwrap_err(),
            "gzip data inflates to more than 4 bytes (--gunzip-limit)"
        );

        let bad = dir.path().join("bad.html.gz");
        fs::write(&bad, b"<p>not gzip").unwrap();
        let err = read_all(&Source::file(&bad, None), GUNZIP_LIMIT).unwrap_err();
        assert_eq!(err, "not in gzip format");

        let truncated = dir.path().join("cut.html.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&b"<p>hello world ".repeat(100)).unwrap();
        let full = gz.finish().unwrap();
        fs::write(&truncated, &full[..full.len() / 2]).unwrap();
        let err = read_all(&Source::file(&truncated, None), GUNZIP_LIMIT).unwrap_err();
        assert!(err.starts_with("corrupt gzip data"), "{err}");
    }

    #[test]
    fn archives_by_name_and_by_content() {
        assert!(archive_name("CC-MAIN-1.warc.gz") && archive_name("x.WARC"));
        assert!(!archive_name("x.warc.html") && !archive_name("warc"));
        let record = b"WARC/1.1\r\nWARC-Type: warcinfo\r\n";
        assert!(archive_head(record));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(record).unwrap();
        let gz = gz.finish().unwrap();
        assert!(archive_head(&gz) && archive_head(&gz[..gz.len() - 8]));
        assert!(!archive_head(b"<p>WARC/1.1") && !archive_head(b"WARC"));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("2 GiB"), Ok(2 << 30));
        assert_eq!(parse_size("8k"), Ok(8 << 10));
        assert!(parse_size("12x").unwrap_err().contains("unknown unit"));
        assert!(parse_size("").is_err() && parse_size("-1").is_err());
        assert!(
            parse_size("99999999999G")
                .unwrap_err()
                .contains("too large")
        );
        assert_eq!(size_for_people(1 << 30), "1 GiB");
        assert_eq!(size_for_people(3 << 20), "3 MiB");
        assert_eq!(size_for_people(1000), "1000 bytes");
    }

    #[test]
    fn io_messages_are_for_people() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_message(&e), "no such file or directory");
        let e = io::Error::other("Something Broke");
        assert_eq!(io_message(&e), "something Broke");
    }
}
