//! The plan of seed 003's notes, built as a baseline: minimax to depth 2
//! (our move, their reply) over the empty cells next to a stone, a leaf
//! scored by the board's *line records*.
//!
//! The notes keep, for every line of stones on the board, a record of its
//! start, its length, its stones, whether its two ends are open and whose
//! it is. Here a record is a maximal run of one side's stones along one of
//! the board's line directions; it is worth, by its length and its open
//! ends (an empty cell just beyond the end; the edge and the opponent's
//! stone close it), [`worth`]: five or more wins, an open four is nearly
//! a win, and so on down to a lone stone. A leaf is worth the sum of the
//! root player's records less the opponent's. A move that wins at once is
//! played at once. Ties go to the first candidate in reading order.
//! Deterministic; plays on any [`FiveBoard`], square or hexagonal.

use super::players::candidates;
use super::rules::{FiveBoard, Outcome};
use crate::position::{Color, Point, Position};

/// How deep the minimax looks: our move, their reply.
pub const DEPTH: u32 = 2;

/// What one record is worth: its length (5 or more wins) and how many of
/// its ends are open.
pub fn worth(len: usize, open: usize) -> i64 {
    match (len.min(5), open) {
        (5, _) => 1_000_000,
        (_, 0) => 0,
        (4, 2) => 50_000,
        (4, _) => 5_000,
        (3, 2) => 5_000,
        (3, _) => 500,
        (2, 2) => 300,
        (2, _) => 30,
        (_, 2) => 10,
        _ => 1,
    }
}

/// The sum of `color`'s records on the board.
pub fn records(b: &FiveBoard, color: Color) -> i64 {
    let mut total = 0;
    for p in b.points() {
        if b.stone(p) != Some(color) {
            continue;
        }
        for &(di, dj) in b.directions() {
            let before = Point::new(p.i - di, p.j - dj);
            if b.stone(before) == Some(color) {
                // Not the run's start: counted from there.
                continue;
            }
            let mut len = 1;
            let mut q = Point::new(p.i + di, p.j + dj);
            while b.stone(q) == Some(color) {
                len += 1;
                q = Point::new(q.i + di, q.j + dj);
            }
            let open = usize::from(b.is_empty(before)) + usize::from(b.is_empty(q));
            total += worth(len, open);
        }
    }
    total
}

/// The leaf's score for `me`.
fn score(b: &FiveBoard, me: Color) -> i64 {
    match b.outcome() {
        Some(Outcome::Win(c)) if c == me => return i64::MAX / 2,
        Some(Outcome::Win(_)) => return -i64::MAX / 2,
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    records(b, me) - records(b, me.other())
}

/// The baseline's move for the side to move (see the module doc).
pub fn line_records(board: &FiveBoard) -> Option<Point> {
    if board.outcome().is_some() {
        return None;
    }
    let me = board.to_move();
    let mut b = board.clone();
    let mut best: Option<(i64, Point)> = None;
    for p in candidates(&b) {
        match b.play(p) {
            Err(_) => continue,
            Ok(Some(Outcome::Win(_))) => return Some(p),
            Ok(_) => {}
        }
        // Their best reply, by the same records.
        let mut worst = None;
        for r in candidates(&b) {
            if b.play(r).is_err() {
                continue;
            }
            let s = score(&b, me);
            b.undo();
            worst = Some(worst.map_or(s, |w: i64| w.min(s)));
        }
        let s = worst.unwrap_or_else(|| score(&b, me));
        b.undo();
        if best.is_none_or(|(v, _)| s > v) {
            best = Some((s, p));
        }
    }
    best.map(|(_, p)| p).or_else(|| board.legal_moves().next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::five::Rule;

    #[test]
    fn records_count_runs_by_their_ends() {
        let mut b = FiveBoard::new(9, Rule::Freestyle).unwrap();
        // An open two on a row, White's lone stone closing nothing of it.
        b.put(Point::new(4, 3), Color::Black).unwrap();
        b.put(Point::new(4, 4), Color::Black).unwrap();
        // Each stone also makes single-stone runs in the three other
        // directions, open both ends.
        assert_eq!(records(&b, Color::Black), worth(2, 2) + 6 * worth(1, 2));
        b.put(Point::new(4, 5), Color::White).unwrap();
        assert_eq!(records(&b, Color::Black), worth(2, 1) + 6 * worth(1, 2));
        // On the hexagon, three directions a stone.
        let mut h = FiveBoard::hexagon(9, Rule::Freestyle).unwrap();
        h.put(Point::new(8, 8), Color::Black).unwrap();
        assert_eq!(records(&h, Color::Black), 3 * worth(1, 2));
        // A corner cell (0, 8): each of its three lines ends at the edge
        // there.
        h.put(Point::new(0, 8), Color::White).unwrap();
        assert_eq!(records(&h, Color::White), 3 * worth(1, 1));
        // Closed at both ends: worth nothing.
        h.put(Point::new(0, 9), Color::Black).unwrap();
        h.put(Point::new(1, 8), Color::Black).unwrap();
        h.put(Point::new(1, 7), Color::Black).unwrap();
        assert_eq!(records(&h, Color::White), 0);
    }

    #[test]
    fn it_wins_at_once_and_blocks_an_open_three() {
        let mut h = FiveBoard::hexagon(9, Rule::Freestyle).unwrap();
        for (x, o) in [
            ((8, 4), (0, 8)),
            ((8, 5), (16, 8)),
            ((8, 6), (0, 10)),
            ((8, 7), (16, 4)),
        ] {
            h.play(Point::new(x.0, x.1)).unwrap();
            h.play(Point::new(o.0, o.1)).unwrap();
        }
        let p = line_records(&h).unwrap();
        assert_eq!(h.clone().play(p), Ok(Some(Outcome::Win(Color::Black))));
        // White to move against Black's open three takes one of its ends.
        let mut h = FiveBoard::hexagon(9, Rule::Freestyle).unwrap();
        for (x, o) in [((8, 5), (0, 8)), ((8, 6), (16, 8)), ((8, 7), (0, 10))] {
            h.play(Point::new(x.0, x.1)).unwrap();
            h.play(Point::new(o.0, o.1)).unwrap();
        }
        h.undo();
        let p = line_records(&h).unwrap();
        assert!([Point::new(8, 4), Point::new(8, 8)].contains(&p), "{p:?}");
    }
}
