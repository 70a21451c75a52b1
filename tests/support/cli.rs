//! Running the `katachi` binary from a test, shared by the command-line
//! tests (`tests/five_cli.rs`, `tests/inputs_cli.rs`,
//! `tests/personalities.rs`, `tests/go_predictor.rs`,
//! `tests/five_predictor.rs`).

#![allow(dead_code)] // each test crate uses some of them

use std::process::{Command, Output};

/// `katachi` run with `args`, to its end.
pub fn katachi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(args)
        .output()
        .expect("katachi runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
