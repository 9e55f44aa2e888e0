//! The driver every command shares: loads each input, has the command
//! process it, and writes the outputs in input order, processing files in
//! parallel when there are several.
//!
//! With `--jobs N` (N > 1) and more than one input, a rayon pool of N
//! threads processes the inputs; each writes its output to its own buffer,
//! and this thread writes the buffers to stdout strictly in input order as
//! soon as each one's turn comes. At most `4 × N` inputs are in flight at
//! once, so the output streams and memory stays bounded however many files
//! there are. With one job or one input, outputs go straight to stdout,
//! unbuffered by file.
//!
//! A failed input is reported on stderr (`htmltok: NAME: what went wrong`)
//! at its place in the order, after stdout is flushed, so that on a terminal
//! the two streams read in order.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use htmltok::bumpalo::Bump;
use indicatif::ProgressBar;

use crate::input::{self, Entry, Failure, Inputs, Source};
use crate::page::{self, Page, Reading};

/// What a command does with each input.
pub trait Job: Sync {
    /// What processing one input tells the command's final summary.
    type Summary: Send;

    /// How inputs are read: checked or not, decoded how, tokenized whole
    /// or in chunks.
    fn reading(&self) -> &Reading;

    /// What to write between the outputs of two inputs (after an input
    /// that was processed, before the next one that is): nothing by
    /// default.
    fn separator(&self) -> &[u8] {
        b""
    }

    /// Processes one input, writing its output to `out`.
    fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<Self::Summary>;
}

/// How to run.
#[derive(Debug, Default)]
pub struct Settings {
    /// Threads to use.
    pub jobs: usize,
    /// A progress bar to advance (in bytes) as inputs are done.
    pub progress: Option<ProgressBar>,
}

/// Runs `job` over every input, writing outputs in order to `out` and
/// handing each input's summary to `done`, in order. Returns whether any
/// input failed, or the error that stopped writing to `out`.
pub fn run<J: Job, W: Write>(
    job: &J,
    inputs: &Inputs,
    settings: &Settings,
    out: &mut W,
    done: impl FnMut(&Source, J::Summary),
) -> io::Result<bool> {
    let sequential = (settings.jobs <= 1 || inputs.len() <= 1) && settings.progress.is_none();
    if sequential {
        run_sequential(job, &inputs.entries, out, done)
    } else {
        run_parallel(job, &inputs.entries, settings, out, done)
    }
}

thread_local! {
    /// Each thread's tokenizer arena, reset between inputs.
    static ARENA: RefCell<Bump> = RefCell::new(Bump::new());
}

/// Loads, decodes and processes one input with this thread's arena,
/// writing `separator` first once the input has loaded, and turning a
/// panic (a bug) into a failure of that input.
fn process_one<J: Job, W: Write>(
    job: &J,
    source: &Source,
    separator: &[u8],
    out: &mut W,
) -> Result<io::Result<J::Summary>, Failure> {
    let name = source.name();
    let reading = job.reading();
    let bytes = input::read(source)?;
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let decoded = page::decode(&bytes, &reading.decoding).map_err(|what| source.fail(what))?;
        if reading.check {
            input::check(&decoded.text).map_err(|what| source.fail(what))?;
        }
        Ok(ARENA.with_borrow_mut(|arena| {
            arena.reset();
            let page = Page::new(&name, &bytes, &decoded, reading.chunk_size, arena);
            out.write_all(separator)?;
            job.process(&page, out)
        }))
    }));
    result
        .unwrap_or_else(|_| Err(source.fail("internal error, skipped (please report this input)")))
}

/// Reports a failed input on stderr, after what is already on stdout.
fn report_failure(out: &mut impl Write, failure: &Failure) -> io::Result<()> {
    out.flush()?;
    crate::report(format_args!("{failure}"));
    Ok(())
}

fn run_sequential<J: Job, W: Write>(
    job: &J,
    entries: &[Entry],
    out: &mut W,
    mut done: impl FnMut(&Source, J::Summary),
) -> io::Result<bool> {
    let mut failed = false;
    let mut separator: &[u8] = b"";
    for entry in entries {
        let result = match entry {
            Ok(source) => process_one(job, source, separator, out).map(|r| (source, r)),
            Err(failure) => Err(failure.clone()),
        };
        match result {
            Ok((source, summary)) => {
                done(source, summary?);
                separator = job.separator();
            }
            Err(failure) => {
                failed = true;
                report_failure(out, &failure)?;
            }
        }
    }
    out.flush()?;
    Ok(failed)
}

/// What a worker hands back for one input: its output and summary.
type Finished<S> = Result<(Vec<u8>, S), Failure>;

fn run_parallel<J: Job, W: Write>(
    job: &J,
    entries: &[Entry],
    settings: &Settings,
    out: &mut W,
    mut done: impl FnMut(&Source, J::Summary),
) -> io::Result<bool> {
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
    let mut failed = false;
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
                        pending.insert(index, Err(failure.clone()));
                        continue;
                    }
                };
                let (tx, stop, files_done) = (tx.clone(), &stop, &files_done);
                scope.spawn(move |_| {
                    let finished = if stop.load(Ordering::Relaxed) {
                        Err(source.fail("not processed"))
                    } else {
                        let mut buf = Vec::new();
                        process_one(job, source, b"", &mut buf).and_then(|summary| {
                            let summary =
                                summary.map_err(|e| source.fail(input::io_message(&e)))?;
                            Ok((buf, summary))
                        })
                    };
                    if let Some(bar) = progress {
                        let n = files_done.fetch_add(1, Ordering::Relaxed) + 1;
                        bar.set_message(format!("{n} files"));
                        bar.inc(source.size.unwrap_or(0));
                    }
                    let _ = tx.send((index, finished));
                });
            }
            // Wait for the next input's turn (it is in flight: the window
            // is never empty here), then write all that is ready.
            if !pending.contains_key(&written) {
                let (index, finished) = rx.recv().map_err(io::Error::other)?;
                pending.insert(index, finished);
            }
            while let Some(finished) = pending.remove(&written) {
                let source = entries[written].as_ref().ok();
                written += 1;
                match finished {
                    Ok((buf, summary)) => {
                        let mut write = || {
                            out.write_all(separator)?;
                            out.write_all(&buf)?;
                            out.flush()
                        };
                        match progress {
                            Some(bar) if suspend_for_output => bar.suspend(write),
                            _ => write(),
                        }
                        .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
                        separator = job.separator();
                        if let Some(source) = source {
                            done(source, summary);
                        }
                    }
                    Err(failure) => {
                        failed = true;
                        let mut report = || report_failure(out, &failure);
                        match progress {
                            Some(bar) => bar.suspend(report),
                            None => report(),
                        }
                        .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
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
    out.flush()?;
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Globs;

    /// Writes each input's name and length; fails none itself.
    struct Echo(Reading);

    impl Job for Echo {
        type Summary = usize;
        fn reading(&self) -> &Reading {
            &self.0
        }
        fn process<W: Write>(&self, page: &Page<'_>, out: &mut W) -> io::Result<usize> {
            // Input i is "<p>" i + 1 times: make later inputs finish first.
            let index = page.text.len() / 3 - 1;
            std::thread::sleep(std::time::Duration::from_millis(
                (20 - index.min(20)) as u64,
            ));
            writeln!(out, "{index} {}", page.text.len())?;
            Ok(page.text.len())
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
            let failed = run(&echo, &inputs, &settings, &mut out, |_, n| sizes.push(n)).unwrap();
            assert!(failed);
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
        fn process<W: Write>(&self, _: &Page<'_>, _: &mut W) -> io::Result<()> {
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
