//! Pente's additions to the engine's searches: for the threat search
//! (`threats.rs`) the moves that force like a four without being one by
//! the patterns, and the fives a move leaves anywhere on the board; for
//! the evaluation the capture the side to move has in hand. Under the
//! other rules each is what the engine had before (no move added, the
//! fives through the stone, nothing added to the score), so freestyle,
//! exact five and renju search as they did.
//!
//! Under Pente a side with four pairs taken wins by any capture: every
//! capture point of its is a five, and a move that threatens a capture
//! (`*XX.`) is a four, which the defender answers by taking the point,
//! by a capture of its own (of a stone of the threat, or its fifth pair)
//! or not at all. With three pairs a capture is such a move too when it
//! leaves another capture to make. A capture may also open a row of the
//! capturer's (the taken stones blocked it), so the fives after a move
//! are looked for everywhere, not on its lines only.
//!
//! The evaluation counts each side's pairs taken and its shapes, captures
//! in reach included, alike for both sides; but a capture the side to
//! move can make is one it will make unless the opponent's reply matters
//! more, while the opponent's must first be defended. So the side to
//! move's best capture is added as the pairs it would bring
//! ([`Engine::capture_in_hand`]), a tempo the static sum does not see.

use mkpat::tables::Kind;

use super::engine::Engine;
use super::pente::CAPTURES_TO_WIN;
use super::rules::{Fives, Rule};
use super::valuation::FiveGeometry;
use crate::position::{Color, Point, Position};

impl<G: FiveGeometry> Engine<G> {
    /// Pente: the side to move's moves that may force like a four by the
    /// capture count, best valued first: with four pairs taken its
    /// capture threats, with three or more its captures. Whether one
    /// forces is asked of the board after it ([`Engine::fives_made`]).
    /// None under the other rules.
    pub(super) fn pente_fours(&self) -> Vec<Point> {
        if self.game.rule() != Rule::Pente {
            return Vec::new();
        }
        let me = self.game.to_move();
        let pairs = self.game.captures(me);
        let threat = pairs + 1 >= CAPTURES_TO_WIN;
        let capture = pairs + 2 >= CAPTURES_TO_WIN;
        if !threat && !capture {
            return Vec::new();
        }
        let mut out: Vec<(i64, Point)> = self
            .valuation
            .proposed()
            .filter(|&p| {
                (threat && self.valuation.makes(p, me, Kind::CaptureThreat))
                    || (capture && self.valuation.makes(p, me, Kind::Capture))
            })
            .filter(|&p| self.game.is_legal(p))
            .map(|p| (self.valuation.value(p, me), p))
            .collect();
        out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.into_iter().map(|(_, p)| p).collect()
    }

    /// The fives `me` has after its stone on `p` (just played): those
    /// the stone makes on its lines, or under Pente every one on the
    /// board (a capture opens rows, and with four pairs taken each
    /// capture point is one), `first` the first of them and `on_line`
    /// left empty.
    pub(super) fn fives_made(&self, p: Point, me: Color) -> Fives {
        if self.game.rule() != Rule::Pente {
            return self.game.fives_through(p, me);
        }
        let f = self.fives(me);
        Fives {
            count: f.len(),
            first: f.first().copied(),
            on_line: [0; 4],
        }
    }

    /// Pente: what the side to move's best capture adds to its worth of
    /// pairs taken (`worth`, indexed by the pairs, the last for four or
    /// more), 0 when it has none or under the other rules.
    pub(super) fn capture_in_hand(&self, worth: &[i64]) -> i64 {
        if self.game.rule() != Rule::Pente {
            return 0;
        }
        let me = self.game.to_move();
        let have = usize::from(self.game.captures(me));
        let at = |n: usize| worth[n.min(worth.len() - 1)];
        self.valuation
            .proposed()
            .filter(|&p| self.valuation.makes(p, me, Kind::Capture))
            .map(|p| usize::from(self.game.pairs_captured_at(p, me)))
            .filter(|&k| k > 0)
            .map(|k| at(have + k) - at(have))
            .max()
            .unwrap_or(0)
    }

    /// Pente: the side to move's captures that may answer the open three
    /// of `attacker` at `at`: those after which the three makes no
    /// straight four (they take a stone of it), and every capture when
    /// the side has three pairs or more (the next one may win by the
    /// count, which the straight four does not stop). A capture
    /// elsewhere leaves the three as it was, and trying it as an answer
    /// only multiplies the search: the attacker goes on as before. None
    /// under the other rules.
    pub(super) fn captures_against_three(&mut self, at: Point, attacker: Color) -> Vec<Point> {
        let all = self.captures();
        let me = self.game.to_move();
        if all.is_empty() || self.game.captures(me) + 2 >= CAPTURES_TO_WIN {
            return all;
        }
        all.into_iter()
            .filter(|&p| {
                // The rules board alone, as `defences` asks it.
                if self.game.play(p).is_err() {
                    return false;
                }
                let stopped = self.straight_four_lines(at, attacker) == [false; 4];
                self.game.undo();
                stopped
            })
            .collect()
    }

    /// Pente: the side to move's moves that threaten to take a pair of
    /// `attacker`'s holding a stone on the three's `lines` through `at`
    /// (within four steps): each empty end of a pair whose other end is
    /// empty too. Such a move neither blocks the three nor takes a stone
    /// of it, but when the attacker makes its straight four the capture
    /// takes a stone of that, and may bring the capturer a four of its
    /// own where the pair stood: the answer has to be tried. Left out,
    /// the threat search took such a three for a win, and `pente` at
    /// level 9 refuted it so. None under the other rules.
    pub(super) fn capture_threats_against_three(
        &self,
        at: Point,
        attacker: Color,
        lines: [bool; 4],
    ) -> Vec<Point> {
        if self.game.rule() != Rule::Pente {
            return Vec::new();
        }
        let dirs = self.game.directions();
        let step = |p: Point, (di, dj): (i32, i32), k: i32| Point::new(p.i + di * k, p.j + dj * k);
        let mut out = Vec::new();
        for (_, &line) in lines.iter().zip(dirs).filter(|(&on, _)| on) {
            for s in (-4..=4).map(|k| step(at, line, k)) {
                if self.game.stone(s) != Some(attacker) {
                    continue;
                }
                for &d in dirs {
                    for sign in [1, -1] {
                        let d = (d.0 * sign, d.1 * sign);
                        if self.game.stone(step(s, d, 1)) != Some(attacker) {
                            continue;
                        }
                        let ends = [step(s, d, -1), step(s, d, 2)];
                        if !ends.iter().all(|&e| self.game.is_empty(e)) {
                            continue;
                        }
                        for e in ends {
                            if self.game.is_legal(e) && !out.contains(&e) {
                                out.push(e);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}
