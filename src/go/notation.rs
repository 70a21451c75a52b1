//! Go's moves written as GTP writes them: a vertex ([`crate::notation`])
//! or `pass`.

use super::Move;
use crate::notation::{parse_vertex, vertex, VertexError};

/// A move (`D4`, `q16`, `pass`, any case) on a board of side `size`.
pub fn parse_move(s: &str, size: usize) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    parse_vertex(s, size).map(Move::Play)
}

/// The vertex of a move (`pass` for a pass).
pub fn format_move(m: Move, size: usize) -> String {
    match m {
        Move::Pass => "pass".into(),
        Move::Play(p) => vertex(p, size),
    }
}
