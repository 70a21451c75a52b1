//! katachi: a pattern matcher for board-game engines.
//!
//! Pattern databases are compiled by [`mkpat`] — at build time into the
//! [`builtin`] tables, or at run time from any `.db` — and matched against
//! a board by the runtime matcher. See `ARCHITECTURE.md` for the map.

pub mod board;
pub mod constraint;
pub mod go;
pub mod gtp;
pub mod helpers;
/// Bounded reading of input files (shared with `mkpat`).
pub use mkpat::input;
pub mod listing;
pub mod matcher;
pub mod position;
pub mod positions;
pub mod reference;
pub mod score;
pub mod sgf;
pub mod stats;

/// The tables compiled from `patterns/patterns.db` by `build.rs`.
///
/// `mkpat compile patterns/patterns.db` prints the same module.
#[allow(clippy::all)]
pub mod builtin {
    include!(concat!(env!("OUT_DIR"), "/patterns.rs"));
}

/// The tables compiled from `patterns/playout.db`: the 3x3 shapes the
/// Monte Carlo playouts play first ([`go::shapes::ShapeTable`]).
#[allow(clippy::all)]
pub mod builtin_playout {
    include!(concat!(env!("OUT_DIR"), "/playout.rs"));
}

/// GNU Go 2.6's database (`../shared/conformance/gnugo-2.6/patterns.db`),
/// compiled leniently by `build.rs` with its constraints as functions
/// (`CONSTRAINTS`). `AVAILABLE` is false, and the tables empty, when the
/// file was absent at build time.
#[cfg(feature = "gnugo26")]
#[allow(clippy::all, non_snake_case)]
pub mod gnugo26 {
    include!(concat!(env!("OUT_DIR"), "/gnugo26.rs"));
}

pub use mkpat;
pub use position::{Color, HelperContext, HelperFn, Point, Position};
