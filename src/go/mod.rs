//! The Go engine: a client of the matcher, not part of it.
//!
//! The matcher only answers "does this diagram fit here"; playing Go needs
//! rules, and the patterns' class letters and constraints need an engine
//! that can read. This module is that engine, part 1:
//!
//! - [`strings`]: the board with incremental strings (worms), liberty
//!   counts, Zobrist hash and an undo record — the matcher's
//!   [`crate::board::Board`] is kept inside it and updated in step;
//! - [`game`]: the rules (captures, suicide, simple ko, passes, area
//!   scoring with komi, fixed handicap) and the simple `genmove`;
//! - [`reading`]: tactical reading (attack, defend, ladders, safe moves)
//!   with a node budget and a cache;
//! - [`dragons`]: dragons and their status estimate, eyes, connection
//!   values;
//! - [`evaluation`]: the move generator's verdict as data (candidates and
//!   reasons), shared by genmove and the tuning tools;
//! - [`analysis`]: [`crate::score::Judge`] and
//!   [`crate::constraint::ConstraintEngine`] implemented on the above.
//!
//! The GTP front end is [`crate::gtp`].

pub mod analysis;
pub mod dragons;
pub mod evaluation;
pub mod game;
pub mod reading;
pub mod strings;

pub use game::{Game, Move};
pub use strings::{Goban, Illegal};
