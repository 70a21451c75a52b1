//! katachi: a pattern matcher for board-game engines.
//!
//! Pattern databases are compiled by [`mkpat`] — at build time into the
//! [`builtin`] tables, or at run time from any `.db` — and matched against
//! a board by the runtime matcher. See `ARCHITECTURE.md` for the map.

pub mod helpers;
pub mod position;

/// The tables compiled from `patterns/patterns.db` by `build.rs`.
///
/// `mkpat compile patterns/patterns.db` prints the same module.
#[allow(clippy::all)]
pub mod builtin {
    include!(concat!(env!("OUT_DIR"), "/patterns.rs"));
}

pub use mkpat;
pub use position::{Color, HelperContext, HelperFn, Point, Position};
