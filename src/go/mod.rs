//! The Go engine: a client of the matcher, not part of it.
//!
//! The matcher only answers "does this diagram fit here"; playing Go needs
//! rules, and the patterns' class letters and constraints need an engine
//! that can read. This module is that engine:
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
//! - [`movegen`]: the move generator — every empty point weighed by the
//!   patterns matching around it ([`movegen::PatternSet`]: the builtin
//!   database or one compiled at run time), plus tactical reasons;
//! - [`tournament`]: complete games between two players (katachi, a
//!   random player, an engine over GTP) with win rates and SGF records;
//! - [`evaluation`]: the move generator's verdict as data (candidates and
//!   reasons), shared by genmove and the tuning tools;
//! - [`explain`]: that verdict as text, boards and labels ("why this
//!   move?"), for `katachi explain`, GTP/GoGui and SGF records;
//! - [`tuning`]: the evaluator the tuning tools call and the per-pattern
//!   hit counter over games (`katachi hits`);
//! - [`analysis`]: [`crate::score::Judge`] and
//!   [`crate::constraint::ConstraintEngine`] implemented on the above;
//! - [`fastboard`], [`shapes`], [`playout`] and [`search`]: the Monte
//!   Carlo tree search `genmove` plays by default — a light board for
//!   random games, the playout database's 3x3 shape table, the playout
//!   policy, and UCT with RAVE over the move generator's candidates.
//!
//! The GTP front end is [`crate::gtp`].

pub mod analysis;
pub mod dragons;
pub mod evaluation;
pub mod explain;
pub mod fastboard;
pub mod game;
pub mod movegen;
pub mod playout;
pub mod reading;
pub mod search;
pub mod shapes;
pub mod strings;
pub mod tournament;
pub mod tuning;

pub use game::{Game, Move};
pub use strings::{Goban, Illegal};
