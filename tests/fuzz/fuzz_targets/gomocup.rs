//! Fuzz target `gomocup`: see `tests/fuzz/bodies.rs` for what it checks.
#![no_main]

#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::gomocup(data));
