//! katachi: a pattern matcher for board-game engines.
//!
//! Pattern databases are compiled by [`mkpat`] — at build time into static
//! tables, or at run time from any `.db` — and matched against a board by
//! the runtime matcher. See `ARCHITECTURE.md` for the map.
//!
//! The modules come in three layers, each importing only from those below:
//!
//! 1. the core, which knows no game: [`position`], [`board`], [`matcher`],
//!    [`reference`](mod@reference), [`positions`], [`listing`], [`stats`], [`notation`],
//!    [`loading`];
//! 2. the engines, clients of the core: [`go`], [`five`];
//! 3. the front ends: [`gtp`], [`gomocup`], [`sgf`], [`tuning`],
//!    [`tournament`], [`play`], [`contest`] (the hexagonal contest's files),
//!    and the `katachi` binary.
//!
//! Without the default `compiler` feature only the first two layers are
//! built (and neither syn, quote, prettyplease, nom nor clap): what an
//! engine that links the matcher and the generated tables needs.
//! `tests/layers.rs` keeps the layers apart.
//!
//! To link the matcher into an engine of your own, with databases that
//! your `build.rs` compiles through [`mkpat::build`], see the
//! [`tutorial`].

/// The tutorial: an engine of your own (its build script needs mkpat's
/// `compiler` feature, as do its examples here).
#[cfg_attr(feature = "compiler", doc = include_str!("../docs/tutorial.md"))]
pub mod tutorial {}

// The core.
pub mod board;
pub mod bradley_terry;
pub mod hexagon;
/// Bounded reading of input files (shared with `mkpat`).
pub use mkpat::input;
pub mod listing;
pub mod loading;
pub mod matcher;
pub mod notation;
pub mod position;
pub mod positions;
#[cfg(feature = "compiler")]
pub mod reference;
pub mod seeding;
pub mod stats;

// The engines.
pub mod five;
pub mod go;

// The front ends.
#[cfg(feature = "compiler")]
pub mod contest;
#[cfg(feature = "compiler")]
pub mod gomocup;
#[cfg(feature = "compiler")]
pub mod gtp;
#[cfg(feature = "compiler")]
pub mod play;
#[cfg(feature = "compiler")]
pub mod sgf;
#[cfg(feature = "compiler")]
pub mod tournament;
#[cfg(feature = "compiler")]
pub mod tuning;

pub use mkpat;
pub use position::{Color, HelperContext, Point, Position};
