//! The driver every command shares: opens each input, has the command
//! process it, and writes the outputs in input order, processing files in
//! parallel when there are several.
//!
//! With `--jobs N` (N > 1) and more than one input, a rayon pool of N
//! threads processes the inputs; each writes its output to its own
//! [`Spill`] (memory, then a temporary file past a megabyte), and this
//! thread copies them to stdout strictly in input order as soon as each
//! one's turn comes. At most `4 × N` inputs are in flight at once, so the
//! output streams and memory stays bounded however many files there are and
//! however large. With one job or one input, outputs go straight to stdout.
//!
//! No input is dropped silently. One that cannot be opened or read, or
//! that `--skip-binary` skips, is reported on stderr (`htmltok: NAME: what
//! went wrong`) at its place in the order, after stdout is flushed, so that
//! on a terminal the two streams read in order; one that fails part way
//! (a read error, the memory limit) keeps the output it produced, and its
//! failure is reported after it. An archive's errors come after the output
//! of the records before them (with `--jobs`, after the archive's output).
//! [`Report`] counts them all.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use indicatif::ProgressBar;

use crate::archive::{self, Archive, Reporting};
use crate::input::{self, Entry, Failure, Inputs, Opened, Origin, Source};
use crate::job::Job;
use crate::page::{BinaryInputs, Page, Reopen};
use crate::spill::Spill;

/// How to run.
#[derive(Debug, Default)]
pub struct Settings {
    /// Threads to use.
    pub jobs: usize,
    /// A progress bar to advance (in bytes) as inputs are done.
    pub progress: Option<ProgressBar>,
}

/// How the inputs of a run went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Inputs named (directories expanded).
    pub inputs: usize,
    /// Inputs processed to their end.
    pub processed: usize,
    /// Inputs that failed (not opened, or not read or tokenized to their
    /// end; an archive with an error or a page that failed).
    pub failed: usize,
    /// Of the failed inputs, those processed part way (their output kept).
    pub partial: usize,
    /// Inputs skipped on request (`--skip-binary`).
    pub skipped: usize,
    /// Of the inputs, the WARC archives read (to their end or not).
    pub archives: usize,
    /// The records of those archives, by sort (`html`: the pages).
    pub records: htmltok::warc::Counts,
}

/// How processing one input ended.
enum Ended<S> {
    /// Processed to its end.
    Done(S),
    /// Processed, but only up to a failure (its output is kept).
    Partial(S, Failure),
    /// Not processed: skipped on request.
    Skipped(Failure),
    /// Not processed: it could not be opened.
    Failed(Failure),
    /// A WARC archive: its pages processed, its errors.
    Archive(Archive<S>),
}

impl<S> Ended<S> {
    /// Whether this is a page that was processed (whose output is then
    /// separated from the next page's: see [`Job::separator`]).
    fn page(&self) -> bool {
        matches!(self, Ended::Done(_) | Ended::Partial(..))
    }

    /// What to write before the next page's output, after this input's:
    /// `separator` after a page, nothing after an archive (its records'
    /// outputs are JSON Lines, not separated), `current` still after an
    /// input that was not processed.
    fn next_separator<'s>(&self, current: &'s [u8], separator: &'s [u8]) -> &'s [u8] {
        match self {
            Ended::Archive(_) => b"",
            ended if ended.page() => separator,
            _ => current,
        }
    }
}

/// Runs `job` over every input, writing outputs in order to `out` and
/// handing each processed input's summary to `done`, in order. Returns how
/// the inputs went, or the error that stopped writing to `out`.
pub fn run<J: Job, W: Write>(
    job: &J,
    inputs: &Inputs,
    settings: &Settings,
    out: &mut W,
    done: impl FnMut(&Source, J::Summary),
) -> io::Result<Report> {
    let sequential = (settings.jobs <= 1 || inputs.len() <= 1) && settings.progress.is_none();
    let mut report = Report {
        inputs: inputs.len(),
        ..Report::default()
    };
    if sequential {
        run_sequential(job, &inputs.entries, out, done, &mut report)?;
    } else {
        run_parallel(job, &inputs.entries, settings, out, done, &mut report)?;
    }
    Ok(report)
}

/// How to open `source` again from its start: only a regular file can be
/// (not standard input, nor a pipe or device named as a file, such as
/// `<(cmd)` or `/dev/stdin`, which a second reader would take bytes from).
fn reopen(source: &Source, gunzip_limit: u64) -> Option<Reopen> {
    match &source.origin {
        Origin::File(path) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => {
            let source = source.clone();
            Some(Box::new(move || input::open(&source, gunzip_limit)))
        }
        _ => None,
    }
}

/// Opens and processes one input, writing `separator` first once it has
/// opened, and turning a panic (a bug) into a failure of that input. An
/// error writing `out` stops the run. An archive's errors are reported as
/// `reporting` says (as they come when `out` is the output itself, not a
/// spill).
fn process_one<J: Job, W: Write>(
    job: &J,
    source: &Source,
    separator: &[u8],
    out: &mut W,
    reporting: Reporting,
) -> io::Result<Ended<J::Summary>> {
    let name = source.name();
    let reading = job.reading();
    let reader = match input::open_input(source, reading.gunzip_limit) {
        Ok(Opened::Page(reader)) => reader,
        Ok(Opened::Archive(read)) => {
            return archive::process(job, source, read, out, reporting).map(Ended::Archive);
        }
        Err(failure) => return Ok(Ended::Failed(failure)),
    };
    let reopen = reopen(source, reading.gunzip_limit);
    let mut page = match Page::open(&name, reader, reopen, reading) {
        Ok(page) => page,
        Err(what) => return Ok(Ended::Failed(source.fail(what))),
    };
    if reading.binary == BinaryInputs::Skip && htmltok::mime::is_binary(page.head()) {
        let kind = htmltok::mime::identify_unknown(page.head(), false);
        return Ok(Ended::Skipped(
            source.fail(format!("binary data ({kind}), skipped (--skip-binary)")),
        ));
    }
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        out.write_all(separator)?;
        job.process(&mut page, out)
    }));
    let summary = match result {
        Ok(summary) => summary?,
        Err(_) => {
            return Ok(Ended::Failed(
                source.fail("internal error, skipped (please report this input)"),
            ));
        }
    };
    Ok(match page.failure() {
        Some(what) => Ended::Partial(summary, source.fail(what)),
        None => Ended::Done(summary),
    })
}

/// Reports a failed or skipped input on stderr, after what is already on
/// stdout.
fn report_failure(out: &mut impl Write, failure: &Failure) -> io::Result<()> {
    out.flush()?;
    crate::stdio::report(format_args!("{failure}"));
    Ok(())
}

/// Counts how an input ended, reports it if it did not end well, and
/// returns its summaries: one for a page processed, one per page for an
/// archive.
fn settle<S>(ended: Ended<S>, report: &mut Report, out: &mut impl Write) -> io::Result<Vec<S>> {
    match ended {
        Ended::Done(summary) => {
            report.processed += 1;
            Ok(vec![summary])
        }
        Ended::Partial(summary, failure) => {
            report.failed += 1;
            report.partial += 1;
            report_failure(out, &failure)?;
            Ok(vec![summary])
        }
        Ended::Skipped(failure) => {
            report.skipped += 1;
            report_failure(out, &failure)?;
            Ok(Vec::new())
        }
        Ended::Failed(failure) => {
            report.failed += 1;
            report_failure(out, &failure)?;
            Ok(Vec::new())
        }
        Ended::Archive(archive) => {
            report.archives += 1;
            archive::add_counts(&mut report.records, &archive.counts);
            if archive.failures.is_empty() {
                report.processed += 1;
            } else {
                report.failed += 1;
                report.partial += 1;
            }
            if archive.reporting == Reporting::AfterTheOutput {
                for failure in &archive.failures {
                    report_failure(out, failure)?;
                }
            }
            Ok(archive.summaries)
        }
    }
}

fn run_sequential<J: Job, W: Write>(
    job: &J,
    entries: &[Entry],
    out: &mut W,
    mut done: impl FnMut(&Source, J::Summary),
    report: &mut Report,
) -> io::Result<()> {
    let mut separator: &[u8] = b"";
    for entry in entries {
        let ended = match entry {
            Ok(source) => process_one(job, source, separator, out, Reporting::AsTheyCome)?,
            Err(failure) => Ended::Failed(failure.clone()),
        };
        separator = ended.next_separator(separator, job.separator());
        for summary in settle(ended, report, out)? {
            if let Ok(source) = entry {
                done(source, summary);
            }
        }
    }
    out.flush()
}

/// What a worker hands back for one input: its output and how it ended.
type Finished<S> = (Spill, Ended<S>);

fn run_parallel<J: Job, W: Write>(
    job: &J,
    entries: &[Entry],
    settings: &Settings,
    out: &mut W,
    mut done: impl FnMut(&Source, J::Summary),
    report: &mut Report,
) -> io::Result<()> {
    let jobs = settings.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("htmltok-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let window = jobs * 4;
    let progress = settings.progress.as_ref();
    let suspend_for_output = progress.is_some() && io::stdout().is_terminal();
    let files_done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Finished<J::Summary>)>();
    let mut separator: &[u8] = b"";

    let result = pool.in_place_scope(|scope| -> io::Result<()> {
        let mut pending: BTreeMap<usize, Finished<J::Summary>> = BTreeMap::new();
        let (mut submitted, mut written) = (0, 0);
        while written < entries.len() {
            // Keep up to `window` inputs in flight ahead of the writer.
            while submitted < entries.len() && submitted < written + window {
                let index = submitted;
                submitted += 1;
                let source = match &entries[index] {
                    Ok(source) => source,
                    Err(failure) => {
                        pending.insert(index, (Spill::default(), Ended::Failed(failure.clone())));
                        continue;
                    }
                };
                let (tx, stop, files_done) = (tx.clone(), &stop, &files_done);
                scope.spawn(move |_| {
                    let mut spill = Spill::default();
                    let ended = if stop.load(Ordering::Relaxed) {
                        Ended::Failed(source.fail("not processed"))
                    } else {
                        process_one(job, source, b"", &mut spill, Reporting::AfterTheOutput)
                            .unwrap_or_else(|e| {
                                // Writing to the spill failed (no room for a
                                // temporary file): this input failed.
                                Ended::Failed(source.fail(input::io_message(&e)))
                            })
                    };
                    if let Some(bar) = progress {
                        let n = files_done.fetch_add(1, Ordering::Relaxed) + 1;
                        bar.set_message(format!("{n} files"));
                        bar.inc(source.size.unwrap_or(0));
                    }
                    let _ = tx.send((index, (spill, ended)));
                });
            }
            // Wait for the next input's turn (it is in flight: the window
            // is never empty here), then write all that is ready.
            if !pending.contains_key(&written) {
                let (index, finished) = rx.recv().map_err(io::Error::other)?;
                pending.insert(index, finished);
            }
            while let Some((mut spill, ended)) = pending.remove(&written) {
                let source = entries[written].as_ref().ok();
                written += 1;
                let page = ended.page();
                let processed = page || matches!(ended, Ended::Archive(_));
                let before: &[u8] = if page { separator } else { b"" };
                separator = ended.next_separator(separator, job.separator());
                let write = || -> io::Result<Vec<J::Summary>> {
                    out.write_all(before)?;
                    spill.drain_to(out)?;
                    out.flush()?;
                    settle(ended, report, out)
                };
                let summary = match progress {
                    Some(bar) if suspend_for_output || !processed => bar.suspend(write),
                    _ => write(),
                }
                .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
                for summary in summary {
                    if let Some(source) = source {
                        done(source, summary);
                    }
                }
            }
        }
        Ok(())
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    result?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Globs;
    use crate::page::{self, Context, Event, Reading, Tokenizing};

    /// Writes each input's name and length; fails none itself.
    struct Echo(Reading);

    impl Job for Echo {
        type Summary = usize;
        fn reading(&self) -> &Reading {
            &self.0
        }
        fn process<W: Write>(&self, page: &mut Page<'_>, out: &mut W) -> io::Result<usize> {
            let len = page
                .tokenize(
                    &Tokenizing::default(),
                    &mut |_: Event<'_, '_>, _: &Context| Ok(()),
                )?
                .bytes;
            // Input i is "<p>" i + 1 times: make later inputs finish first.
            let index = len / 3 - 1;
            std::thread::sleep(std::time::Duration::from_millis(
                (20 - index.min(20)) as u64,
            ));
            writeln!(out, "{index} {len}")?;
            Ok(len)
        }
    }

    #[test]
    fn parallel_output_keeps_input_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for i in 0..40 {
            let path = dir.path().join(format!("{i:02}.html"));
            std::fs::write(&path, "<p>".repeat(i + 1)).unwrap();
            paths.push(path);
        }
        paths.insert(5, dir.path().join("missing.html"));
        let inputs = input::expand(&paths, &Globs::new(&[]).unwrap());
        for jobs in [1, 2, 4] {
            let settings = Settings {
                jobs,
                progress: None,
            };
            let mut out = Vec::new();
            let mut sizes = Vec::new();
            let echo = Echo(Reading::new(page::Decoding::sniff(None)));
            let report = run(&echo, &inputs, &settings, &mut out, |_, n| sizes.push(n)).unwrap();
            assert_eq!(
                report,
                Report {
                    inputs: 41,
                    processed: 40,
                    failed: 1,
                    ..Report::default()
                }
            );
            let want: Vec<String> = (0..40).map(|i| format!("{i} {}", 3 * (i + 1))).collect();
            assert_eq!(
                String::from_utf8(out).unwrap().lines().collect::<Vec<_>>(),
                want
            );
            assert_eq!(sizes.len(), 40);
        }
    }
}

#[cfg(test)]
mod scheduling {
    use super::*;
    use crate::input::Globs;
    use crate::page::{self, Reading};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Records how many jobs run at the same time. It asserts no speed (that
    /// is a benchmark figure, in BENCHMARKS.md): only that the driver does
    /// run `jobs` inputs at once and never more.
    struct Overlap {
        running: AtomicUsize,
        most: AtomicUsize,
        reading: Reading,
    }

    impl Job for Overlap {
        type Summary = ();
        fn reading(&self) -> &Reading {
            &self.reading
        }
        fn process<W: Write>(&self, _: &mut Page<'_>, _: &mut W) -> io::Result<()> {
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            self.running.fetch_sub(1, Ordering::SeqCst);
            Ok(())
        }
    }

    /// With corpus-shaped inputs (one page in seven holds 65% of the
    /// bytes), the ordered window keeps both threads busy.
    #[test]
    fn runs_as_many_inputs_at_once_as_jobs() {
        let dir = tempfile::tempdir().unwrap();
        let sizes = [2518, 8904, 37658, 1363, 1605, 2053, 4111];
        let mut paths = Vec::new();
        for copy in 0..4 {
            for (i, size) in sizes.iter().enumerate() {
                let path = dir.path().join(format!("{copy:03}-{i}.html"));
                std::fs::write(&path, "<p>".repeat(size / 3)).unwrap();
                paths.push(path);
            }
        }
        let inputs = input::expand(&paths, &Globs::new(&[]).unwrap());
        for jobs in [1, 2] {
            let job = Overlap {
                running: AtomicUsize::new(0),
                most: AtomicUsize::new(0),
                reading: Reading::new(page::Decoding::sniff(None)),
            };
            let settings = Settings {
                jobs,
                progress: None,
            };
            run(&job, &inputs, &settings, &mut io::sink(), |_, ()| {}).unwrap();
            assert_eq!(job.most.load(Ordering::SeqCst), jobs, "--jobs {jobs}");
        }
    }
}
