//! `htmltok wet`: a WET file for each WARC archive, as Common Crawl writes
//! them (the library's `htmltok::warc::WetWriter`): a `warcinfo` record,
//! then a `conversion` record of each HTML page's text, a gzip member
//! each. Each archive's file is an `OutputFile`, renamed into place only
//! once whole; archives are converted on --jobs threads, and what each
//! did (a JSON line on stdout, its damage on stderr) comes in input order.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use htmltok::DecodeOptions;
use htmltok::extract::ExtractOptions;
use htmltok::warc::{Compression, OutputFile, Reader, WetCounts, WetOptions, WetWriter};
use serde_json::json;

use crate::args::WetArgs;

impl WetArgs {
    /// The text's options: those of `htmltok text` (every page's record
    /// holds that text).
    fn extract_options(&self) -> ExtractOptions {
        ExtractOptions::default()
            .links(false)
            .metadata(false)
            .alt_text(self.alt_text)
            .hidden(!self.show_hidden)
            .main_content(self.main_content)
            .format(self.format)
    }

    /// Pages decoded as `htmltok text` decodes a record's page: sniffed,
    /// UTF-8 detected, the HTTP charset the transport-layer encoding.
    fn decode_options(&self) -> DecodeOptions {
        let options = DecodeOptions::default().detect_utf8(true);
        match self.encoding {
            Some(encoding) => options.override_encoding(encoding),
            None => options,
        }
    }

    /// The WET file of `archive`.
    fn destination(&self, archive: &Path) -> PathBuf {
        let name = wet_name(archive);
        match &self.output {
            Some(out) if self.archives.len() == 1 && !out.is_dir() && !ends_in_slash(out) => {
                out.clone()
            }
            Some(dir) => dir.join(name),
            None => archive.with_file_name(name),
        }
    }
}

/// Whether `path` was written as a directory (`wet/`).
fn ends_in_slash(path: &Path) -> bool {
    path.as_os_str()
        .as_encoded_bytes()
        .last()
        .is_some_and(|&b| b == b'/' || b == std::path::MAIN_SEPARATOR as u8)
}

/// `X.warc.gz` -> `X.warc.wet.gz` (`X.warc` and `X.gz` alike; any other
/// name gets `.warc.wet.gz` added).
fn wet_name(archive: &Path) -> String {
    let name = archive
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "archive".to_owned());
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    let stem = stem.strip_suffix(".warc").unwrap_or(stem);
    format!("{stem}.warc.wet.gz")
}

/// What converting one archive did.
struct Converted {
    /// The WET file written, or why there is none.
    wet: Result<PathBuf, String>,
    counts: WetCounts,
    /// The damage met, as `record N (offset O): ...`.
    damage: Vec<String>,
}

/// Converts `archive` to its WET file.
fn convert(args: &WetArgs, archive: &Path) -> Converted {
    let mut damage = Vec::new();
    let destination = args.destination(archive);
    let mut counts = WetCounts::default();
    let wet = (|| -> Result<PathBuf, String> {
        let reader = Reader::open(archive).map_err(|e| crate::input::io_message(&e))?;
        if let Some(dir) = destination.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: {}", dir.display(), crate::input::io_message(&e)))?;
        }
        let name = destination
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let compression = match name.ends_with(".gz") {
            true => Compression::gzip(),
            false => Compression::None,
        };
        let options = WetOptions::default()
            .extract(args.extract_options())
            .decode(args.decode_options())
            .filename(name)
            .compression(compression);
        let at = |e: io::Error| {
            format!(
                "{}: {}",
                destination.display(),
                crate::input::io_message(&e)
            )
        };
        let out = OutputFile::create(&destination).map_err(at)?;
        let mut writer = WetWriter::new(out, options);
        let converted = writer.convert(reader, |error| damage.push(error.to_string()));
        counts = *writer.counts();
        converted.map_err(|e| at(e.into()))?;
        writer
            .finish()
            .map_err(|e| at(e.into()))?
            .commit()
            .map_err(at)?;
        Ok(destination.clone())
    })();
    Converted {
        wet,
        counts,
        damage,
    }
}

/// Runs `htmltok wet`.
pub fn run(args: &WetArgs) -> ExitCode {
    if let Some(out) = &args.output
        && args.archives.len() > 1
        && out.exists()
        && !out.is_dir()
    {
        crate::args::usage_error(
            "wet",
            clap::error::ErrorKind::ValueValidation,
            "with several archives, -o names a directory",
        );
    }
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.min(args.archives.len()).max(1))
        .build()
        .expect("a thread pool");
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut failed = 0;
    let mut out = crate::stdio::stdout();
    let written = pool.in_place_scope(|scope| -> io::Result<()> {
        for (i, archive) in args.archives.iter().enumerate() {
            let sender = sender.clone();
            scope.spawn(move |_| {
                let _ = sender.send((i, convert(args, archive)));
            });
        }
        drop(sender);
        // Each archive's report in input order, as soon as those before it
        // are done.
        let mut done: Vec<Option<Converted>> = args.archives.iter().map(|_| None).collect();
        let mut next = 0;
        for (i, converted) in receiver {
            done[i] = Some(converted);
            while let Some(converted) = done.get_mut(next).and_then(Option::take) {
                let archive = &args.archives[next];
                if !report(&mut out, archive, &converted)? {
                    failed += 1;
                }
                next += 1;
            }
        }
        out.flush()
    });
    crate::exit::status(written.map(|()| crate::run::Report {
        inputs: args.archives.len(),
        failed,
        ..Default::default()
    }))
}

/// Reports what converting `archive` did: its damage on stderr, its line
/// on stdout. Returns whether it went without a problem.
fn report<W: Write>(out: &mut W, archive: &Path, converted: &Converted) -> io::Result<bool> {
    out.flush()?;
    for message in &converted.damage {
        crate::stdio::report(format_args!("{}: {message}", archive.display()));
    }
    let wet = match &converted.wet {
        Ok(wet) => wet,
        Err(message) => {
            crate::stdio::report(format_args!("{}: {message}", archive.display()));
            return Ok(false);
        }
    };
    let counts = &converted.counts;
    let input = &counts.input;
    let line = json!({
        "file": archive.to_string_lossy(),
        "wet": wet.to_string_lossy(),
        "records": input.records,
        "html": input.html,
        "conversions": counts.conversions,
        "empty": counts.empty,
        "not_html": input.records - input.html,
        "errors": input.errors + counts.undecodable,
    });
    writeln!(out, "{line}")?;
    Ok(converted.damage.is_empty())
}
