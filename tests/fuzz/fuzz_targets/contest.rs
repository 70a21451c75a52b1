//! Fuzz target `contest`: see `tests/fuzz/bodies.rs` for what it checks.
#![no_main]

#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::contest(data));
