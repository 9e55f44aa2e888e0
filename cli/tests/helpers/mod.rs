//! What the end-to-end tests of encodings and chunked reading share:
//! running the binary, reading its output, the corpus.
#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_htmltok");

pub fn htmltok(args: &[&str]) -> Output {
    htmltok_stdin(args, b"")
}

pub fn htmltok_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the binary with `args` and its standard output closed at once (as
/// `| head` closes it): the output of a run that met the closed pipe.
pub fn htmltok_into_closed_pipe(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Asserts a clean run: exit 0, nothing on stderr.
#[track_caller]
pub fn ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(out));
    assert_eq!(stderr(out), "");
}

/// Asserts a usage error: exit 2, a clap-style message, no output.
#[track_caller]
pub fn usage_error(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(out));
    let err = stderr(out);
    assert!(err.starts_with("error: "), "{err}");
    assert!(out.stdout.is_empty());
    err
}

pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The corpus folder, or `None` (outside CI) when it is missing.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    if dir.join("wikipedia.html").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus not found at {} (set HTMLTOK_CORPUS_DIR)",
        dir.display()
    );
    println!("corpus not found at {}: skipped", dir.display());
    None
}

/// The corpus pages, sorted by name.
pub fn corpus_pages(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 7, "{pages:?}");
    pages
}

/// The first line where two outputs differ, for a short failure message.
pub fn first_difference(a: &[u8], b: &[u8]) -> String {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let (mut la, mut lb) = (a.lines(), b.lines());
    for n in 1.. {
        match (la.next(), lb.next()) {
            (None, None) => return "no difference".to_owned(),
            (x, y) if x != y => {
                let cut = |l: Option<&str>| l.map(|l| l.chars().take(300).collect::<String>());
                return format!("line {n}:\n  {:?}\n  {:?}", cut(x), cut(y));
            }
            _ => {}
        }
    }
    unreachable!()
}
