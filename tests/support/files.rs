//! File-system helpers shared by the tests of what the binaries write
//! (`tests/output_cli.rs`, and `mkpat/tests/cli.rs` through `#[path]`).

#![allow(dead_code)] // each test crate uses some of them

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// The permission bits of the file a path leads to.
pub fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

pub fn is_link(p: &Path) -> bool {
    fs::symlink_metadata(p).unwrap().file_type().is_symlink()
}

/// The names in a folder, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Makes a FIFO; false where `mkfifo` is missing.
pub fn mkfifo(p: &Path) -> bool {
    Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `f` while a thread reads `fifo`, and returns what it read. A
/// handle open for reading and writing keeps the reader from waiting for
/// ever, even if `f` never opens the FIFO (or replaces it).
pub fn read_fifo_while<T>(fifo: &Path, f: impl FnOnce() -> T) -> (T, String) {
    let keeper = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(fifo)
        .unwrap();
    let reader = {
        let fifo = fifo.to_path_buf();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let out = f();
    drop(keeper);
    (out, reader.join().unwrap())
}
