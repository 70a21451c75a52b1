//! Who owns each point, and which stones are dead, alive or in seki, by
//! random games from the position.
//!
//! Counting a finished game under most rules needs the dead stones
//! taken off, and GTP's `final_status_list` asks for them. Reading the
//! life of every group is what the Monte Carlo playouts already do for
//! the search: played to the end, a dead group is captured in nearly
//! every random game and a living one survives. So [`estimate`] plays
//! many seeded playouts from the position (the first mover alternating,
//! so that neither side gets the tempo) and counts, per point, how often
//! black owns it, white owns it, or neither does (a point left empty
//! between both colours: a shared liberty of a seki or dame). A string
//! is *dead* when the opponent owns its points in most games, in *seki*
//! when it lives but has a liberty that stays empty between both colours
//! in most games, and *alive* otherwise. Everything is a function of the
//! position and the seed.

use super::fastboard::{cell, FastBoard, BLACK, EMPTY, WHITE};
use super::playout::{Playout, Rng};
use super::position::GoPosition;
use super::strings::Goban;
use crate::position::{Color, Point, Position};

/// The playouts [`estimate`] runs for scoring and status lists.
pub const PLAYOUTS: u32 = 400;

/// Per point (row-major), how often each side owned it at the end of the
/// random games.
#[derive(Clone, Debug, PartialEq)]
pub struct Ownership {
    side: usize,
    playouts: u32,
    black: Vec<u32>,
    white: Vec<u32>,
}

/// The status of a stone, as GTP's `final_status_list` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

impl Status {
    /// The GTP word, and what `final_status_list` reads.
    pub fn parse(word: &str) -> Option<Status> {
        match word.to_ascii_lowercase().as_str() {
            "alive" => Some(Status::Alive),
            "dead" => Some(Status::Dead),
            "seki" => Some(Status::Seki),
            _ => None,
        }
    }
}

/// Plays `playouts` random games from the position of `goban`, `to_move`
/// first in the even ones and its opponent in the odd ones, and counts
/// who owns each point at their ends.
pub fn estimate(goban: &Goban, to_move: Color, playouts: u32, seed: u64) -> Ownership {
    let n = goban.side();
    let mut own = Ownership {
        side: n,
        playouts,
        black: vec![0; n * n],
        white: vec![0; n * n],
    };
    let starts = [
        FastBoard::from_goban(goban, to_move),
        FastBoard::from_goban(goban, to_move.other()),
    ];
    let mut rng = Rng::new(seed ^ goban.stones_hash());
    let mut playout = Playout::new();
    for i in 0..playouts {
        let first = if i % 2 == 0 { to_move } else { to_move.other() };
        let mut board = starts[(i % 2) as usize].clone();
        playout.run(&mut board, cell(first), None, &mut rng);
        for k in board.indices() {
            let p = board.point(k);
            let at = p.i as usize * n + p.j as usize;
            match owner(&board, k) {
                BLACK => own.black[at] += 1,
                WHITE => own.white[at] += 1,
                _ => {}
            }
        }
    }
    own
}

/// The owner of index `k` at the end of a playout: its stone, or the one
/// colour around an empty point (`EMPTY` when both or none border it).
fn owner(board: &FastBoard, k: u16) -> u8 {
    let v = board.at(k);
    if v == BLACK || v == WHITE {
        return v;
    }
    let (mut b, mut w) = (false, false);
    for q in board.neighbours(k) {
        match board.at(q) {
            BLACK => b = true,
            WHITE => w = true,
            _ => {}
        }
    }
    match (b, w) {
        (true, false) => BLACK,
        (false, true) => WHITE,
        _ => EMPTY,
    }
}

impl Ownership {
    fn at(&self, p: Point) -> usize {
        p.i as usize * self.side + p.j as usize
    }

    /// The share of the games in which `color` owned `p`.
    pub fn share(&self, p: Point, color: Color) -> f32 {
        let counts = match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        };
        counts[self.at(p)] as f32 / self.playouts.max(1) as f32
    }

    /// The share of the games in which nobody owned `p`.
    pub fn neutral(&self, p: Point) -> f32 {
        1.0 - self.share(p, Color::Black) - self.share(p, Color::White)
    }
}

/// The status of every stone on `goban`, string by string, by the
/// ownership `own` (see the module documentation).
pub fn statuses(goban: &Goban, own: &Ownership) -> Vec<(Point, Status)> {
    let mut out: Vec<(Point, Status)> = Vec::new();
    let mut done: Vec<Point> = Vec::new();
    for p in goban.points() {
        let Some(c) = goban.stone(p) else { continue };
        if done.contains(&p) {
            continue;
        }
        let stones = goban.string(p);
        done.extend_from_slice(&stones);
        let theirs: f32 =
            stones.iter().map(|&s| own.share(s, c.other())).sum::<f32>() / stones.len() as f32;
        let status = if theirs > 0.5 {
            Status::Dead
        } else if goban
            .liberties_of(p, usize::MAX)
            .iter()
            .any(|&l| own.neutral(l) > 0.5)
        {
            Status::Seki
        } else {
            Status::Alive
        };
        out.extend(stones.iter().map(|&s| (s, status)));
    }
    out.sort_by_key(|&(p, _)| p);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::reading::tests::goban;

    fn with(goban: &Goban, status: Status) -> Vec<Point> {
        let own = estimate(goban, Color::Black, PLAYOUTS, 1);
        statuses(goban, &own)
            .into_iter()
            .filter(|&(_, s)| s == status)
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn a_lone_stone_in_a_living_area_is_dead() {
        // Black lives on the left, white on the right; a black stone sits
        // in white's area.
        let g = goban(&[
            "..XO..O..",
            "..XO..O..",
            "..XO..O..",
            "..XO..O..",
            "..XO..OX.",
            "..XO..O..",
            "..XO..O..",
            "..XO..O..",
            "..XO..O..",
        ]);
        assert_eq!(with(&g, Status::Dead), [Point::new(4, 7)]);
        assert!(with(&g, Status::Seki).is_empty());
        assert_eq!(with(&g, Status::Alive).len(), 27);
    }

    #[test]
    fn a_seki_is_found() {
        // The top two rows are a seki: black's three stones and white's
        // five share the liberties A5 and E5, and whoever fills one is
        // captured. Black's wall below lives.
        let g = goban(&[".XXX.", "OOOOO", "XXXXX", ".....", "....."]);
        let seki = with(&g, Status::Seki);
        let want: Vec<Point> = (0..5)
            .map(|j| Point::new(1, j))
            .chain((1..4).map(|j| Point::new(0, j)))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(seki, want);
        assert!(with(&g, Status::Dead).is_empty());
        assert_eq!(with(&g, Status::Alive).len(), 5);
    }

    #[test]
    fn the_estimate_is_a_function_of_the_position_and_seed() {
        let g = goban(&["..XO.", "..XO.", ".XXO.", "..XO.", "..XO."]);
        assert_eq!(
            estimate(&g, Color::White, 100, 3),
            estimate(&g, Color::White, 100, 3)
        );
    }
}
