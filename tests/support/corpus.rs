//! The real-page corpus the tests read: `$HTMLTOK_CORPUS_DIR`, else
//! `../shared/corpus` beside the workspace.

use std::path::{Path, PathBuf};

/// The workspace's root folder (this crate is `tests/support/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

/// The corpus folder: `$HTMLTOK_CORPUS_DIR`, else `../shared/corpus`
/// beside the workspace.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("HTMLTOK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("..").join("shared").join("corpus"))
}

/// The `.html` pages of the real-page corpus ([`corpus_dir`]), sorted;
/// `None` when it is missing, which fails under CI and is a noted skip
/// elsewhere.
pub fn corpus_page_paths() -> Option<Vec<PathBuf>> {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus not found at {} (set HTMLTOK_CORPUS_DIR)",
            dir.display()
        );
        println!("corpus not found at {}: skipped", dir.display());
        return None;
    };
    let mut pages: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    Some(pages)
}
