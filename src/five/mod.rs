//! Five in a row (gomoku) on a square board: the rules, game records and
//! openings, and two baseline players.
//!
//! - [`rules`]: [`Rule`] (freestyle, exact five, renju) and [`FiveBoard`],
//!   the board a search plays on (move stack, outcome, renju's forbidden
//!   points, defined and checked in `renju.rs`);
//! - [`record`]: piskvork's `.psq` game records and Gomocup's openings
//!   files, read with located errors;
//! - [`players`]: the seed's player (Pishquorky's depth-3 minimax) and a
//!   greedy one, the baselines a pattern player must beat;
//! - [`pente`]: Pente's captures, capture count and tournament rule,
//!   which [`FiveBoard`] plays under [`Rule::Pente`];
//! - [`line_records`]: the plan of seed 003's notes (depth-2 minimax
//!   scored by line records), the hexagonal contest's baseline.
//!
//! - [`database`]: a pattern database ready for the engine (the builtin
//!   one, shared, or one compiled at run time);
//! - [`engine`]: katachi's player: wins, blocks, threat-space search
//!   (`threats.rs`: forced wins by fours, VCF, and by threes and fours,
//!   VCT, ours and the opponent's; `proof.rs`: the same by proof
//!   numbers, to any depth), then a principal variation search
//!   with a transposition table (`search.rs`) over the candidates the
//!   patterns propose;
//! - [`explain`]: why the engine plays its move (the patterns behind the
//!   point and the best others, the forced line);
//! - [`valuation`]: the pattern database's verdict on every point, for
//!   each side, kept up to date move by move;
//! - [`leaf`]: the main search's leaf table (each threat kind's matches
//!   weighed for the side to move and for the opponent), fitted to a
//!   stronger engine's judgement of the search's own leaves;
//! - [`predictor`]: a move predictor (line-shape combinations and
//!   distances, strengths fitted to a strong engine's games) the engine
//!   may order its candidates by.
//!
//! The engine uses the core's [`Point`](crate::position::Point) and
//! [`Color`](crate::position::Color) and implements its
//! [`Position`](crate::position::Position).

/// katachi's five-in-a-row database, `patterns/five.db`, compiled by
/// `build.rs` (the `five` dialect: line patterns with threat kinds and a
/// value for each side).
pub mod builtin {
    include!(concat!(env!("OUT_DIR"), "/five.rs"));
}
/// katachi's five-in-a-row database for the hexagon,
/// `patterns/hexfive.db`, compiled by `build.rs` (the `five` dialect on
/// the hexagon: each line pattern along the three axes).
pub mod builtin_hexagon {
    include!(concat!(env!("OUT_DIR"), "/hexfive.rs"));
}
/// katachi's Pente database, `patterns/pente.db`, compiled by `build.rs`
/// (the `five` dialect: five in a row's line shapes with Pente's values,
/// captures and capture threats).
pub mod builtin_pente {
    include!(concat!(env!("OUT_DIR"), "/pente.rs"));
}
pub mod database;
pub mod engine;
pub mod explain;
mod kind_counts;
pub mod leaf;
pub mod line_records;
pub mod lines;
pub mod pente;
mod pente_search;
#[cfg(test)]
mod pente_tests;
pub mod personality;
pub mod players;
pub mod point_class;
pub mod predictor;
mod proof;
pub mod record;
mod renju;
pub mod rules;
mod search;
#[cfg(test)]
mod tests;
mod threats;
pub mod valuation;

pub use rules::{BoardSizeError, FiveBoard, Fives, IllegalMove, Outcome, Rule, DIRECTIONS};
