//! Threat-space search for the engine: forced wins by continuous fours
//! (VCF) and by threes and fours (VCT), for the side to move.
//!
//! The patterns propose the threats (the kinds `Valuation::threat`
//! gives each point); the rules board decides what they are:
//! [`FiveBoard::fives_through`] says which fives a stone makes possible,
//! legality says which moves a side may play. So a line found is a win
//! under the rule: Black's fours and threes are never forbidden moves
//! under renju, a White four whose one defence point is forbidden for
//! Black wins, and a Black defence on a forbidden point is no defence.
//!
//! A VCF answers each four on its one point. A VCT also plays open
//! threes; the defender may then answer on any point after which the
//! three makes no straight four (found by playing each point near the
//! three on the rules board and asking it), or with a four of its own,
//! which the attacker must block before the three is asked about again;
//! under Pente also with a capture that takes a stone of the three, or
//! with a move that threatens to take a pair holding one (its capture
//! then breaks the straight four); the attacker wins when every answer
//! loses. The attacker's threats are tried best valued first, and at
//! most [`VCT_WIDTH`] a node: a line found is a proof, a line missed is
//! only not found.
//!
//! The same game searched by proof numbers, without a depth, is
//! `proof.rs`; this search stays for Pente, the hexagon and the callers
//! that ask for a fixed depth.
//!
//! [`FiveBoard::fives_through`]: super::rules::FiveBoard::fives_through

use rustc_hash::FxHashMap as HashMap;

use mkpat::tables::Kind;

use super::engine::{Engine, Limits, WIDTH};
use super::rules::{Fives, Rule};
use super::valuation::FiveGeometry;
use crate::position::{Color, Point, Position};

/// How many threats an attacker's node of the VCT tries.
const VCT_WIDTH: usize = 10;

/// Threat-search failures remembered for one choice: a position's hash
/// and the deepest VCF (by our fours) or VCT (by our threats) that found
/// no win from it. Whether a side to move wins within a depth depends on
/// the position alone (its stones, captures and side to move, all in the
/// hash) and on the choice's limits, so a failure at one depth is a
/// failure at every shallower one, wherever the position comes back: in
/// another order of the same threats, under another of our VCT's
/// threats, or in the opponent's searches of the safety check. A search
/// cut short by the clock records nothing.
#[derive(Clone, Debug, Default)]
pub(super) struct Failed {
    vcf: HashMap<u64, u32>,
    vct: HashMap<u64, u32>,
}

/// How many positions each map of [`Failed`] holds before it starts
/// again: about 5 MiB a map at most, within the part of a Gomocup
/// brain's memory limit the transposition table leaves.
const FAILED_CAPACITY: usize = 1 << 18;

impl Failed {
    pub(super) fn clear(&mut self) {
        self.vcf.clear();
        self.vct.clear();
    }

    fn remember(map: &mut HashMap<u64, u32>, hash: u64, depth: u32) {
        if map.len() >= FAILED_CAPACITY {
            map.clear();
        }
        let d = map.entry(hash).or_insert(depth);
        *d = (*d).max(depth);
    }
}

/// The result of a threat search below a move: the line that follows it,
/// or `None` (no win found).
type Line = Option<Vec<Point>>;

fn prefixed(p: Point, rest: Vec<Point>) -> Vec<Point> {
    let mut line = Vec::with_capacity(rest.len() + 1);
    line.push(p);
    line.extend(rest);
    line
}

impl<G: FiveGeometry> Engine<G> {
    /// The legal moves of the side to move (`color`) whose threat kind
    /// the patterns say `wanted` accepts, best valued first.
    pub(super) fn threats(&self, wanted: impl Fn(Kind) -> bool) -> Vec<Point> {
        let color = self.game.to_move();
        let mut out: Vec<(i64, Point)> = self
            .valuation
            .proposed()
            .filter(|&p| self.valuation.threat(p, color).is_some_and(&wanted))
            .filter(|&p| self.game.is_legal(p))
            .map(|p| (self.valuation.value(p, color), p))
            .collect();
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.into_iter().map(|(_, p)| p).collect()
    }

    /// The side to move's fours: the patterns', then under Pente the
    /// moves that may force by the capture count (`pente_search.rs`).
    fn fours(&self) -> Vec<Point> {
        let mut out = self.fours_to_play();
        for p in self.pente_fours() {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// [`Engine::threats`] of the fours (and fives): the valuation keeps
    /// their points listed, so no pass over the board is needed.
    pub(super) fn fours_to_play(&self) -> Vec<Point> {
        let color = self.game.to_move();
        let mut out: Vec<(i64, Point)> = self
            .valuation
            .four_points(color)
            .filter(|&p| self.game.is_legal(p))
            .map(|p| (self.valuation.value(p, color), p))
            .collect();
        // The point breaks every tie: one order, whatever the list's.
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.into_iter().map(|(_, p)| p).collect()
    }

    /// The side to move's entry to a threat search: a five wins at once;
    /// two fives of the opponent's lose; one must be taken (`forced`).
    fn threat_root(&self) -> Result<Option<Point>, Line> {
        let me = self.game.to_move();
        if let Some(&p) = self.fives(me).iter().find(|&&p| self.game.is_legal(p)) {
            return Err(Some(vec![p]));
        }
        match self.fives(me.other()).as_slice() {
            [] => Ok(None),
            [f] => Ok(Some(*f)),
            _ => Err(None),
        }
    }

    /// A forced win by continuous fours for the side to move, as the line
    /// of moves (ours and the forced replies), if one is found within
    /// `depth` of our fours.
    pub(super) fn vcf(&mut self, depth: u32, limits: &Limits<'_>) -> Line {
        match self.threat_root() {
            Ok(forced) => self.vcf_from(depth, forced, limits),
            Err(line) => line,
        }
    }

    /// [`Engine::vcf`] below the root: the side to move has no five, the
    /// opponent at most one, on `forced`, which our four must take.
    fn vcf_from(&mut self, depth: u32, forced: Option<Point>, limits: &Limits<'_>) -> Line {
        if depth == 0 || self.time_up(limits) {
            return None;
        }
        if self.failed.vcf.get(&self.hash).is_some_and(|&d| d >= depth) {
            return None;
        }
        let me = self.game.to_move();
        let fours = match forced {
            Some(f) => vec![f],
            None => self.fours(),
        };
        for p in fours {
            if !self.game.is_legal(p) || !self.make(p) {
                continue;
            }
            self.nodes += 1;
            let made = self.fives_made(p, me);
            let line = if self.game.outcome().is_some() {
                // Pente: the fifth pair taken.
                Some(Vec::new())
            } else if made.count == 0 {
                // The patterns' four is none by the rule (an overline
                // under exact five, say).
                None
            } else {
                self.answer_four(made, depth, |e, d, f| e.vcf_from(d, f, limits))
            };
            self.unmake();
            if let Some(rest) = line {
                return Some(prefixed(p, rest));
            }
        }
        if !self.clock.out {
            Failed::remember(&mut self.failed.vcf, self.hash, depth);
        }
        None
    }

    /// The defender's one answer to our four (`made`, with at least one
    /// five): none when we have two fives or the point is forbidden to
    /// it; otherwise the block, after which `next` goes on (with the
    /// defender's own five, if the block made one, to be taken).
    fn answer_four(
        &mut self,
        made: Fives,
        depth: u32,
        mut next: impl FnMut(&mut Engine<G>, u32, Option<Point>) -> Line,
    ) -> Line {
        if self.game.rule() == Rule::Pente {
            return self.answer_four_by_captures(depth, next);
        }
        let q = made.first?;
        if made.count >= 2 || !self.game.is_legal(q) {
            return Some(Vec::new());
        }
        let them = self.game.to_move();
        if !self.make(q) {
            return None;
        }
        let theirs = self.game.fives_through(q, them);
        let line = if theirs.count >= 2 {
            None
        } else {
            next(self, depth - 1, theirs.first)
        };
        self.unmake();
        line.map(|rest| prefixed(q, rest))
    }

    /// [`Engine::answer_four`] under Pente, where a four is also answered
    /// by a capture (of a stone of the row, or the fifth pair): every
    /// block and capture is tried, and the attacker wins when it wins
    /// after each (the line shown follows the first). After an answer the
    /// attacker wins at once with a five still there; the defender's
    /// fives, wherever its capture opened them, are one to take (`next`)
    /// or two, which the attacker's line does not survive.
    fn answer_four_by_captures(
        &mut self,
        depth: u32,
        mut next: impl FnMut(&mut Engine<G>, u32, Option<Point>) -> Line,
    ) -> Line {
        let attacker = self.game.to_move().other();
        let fives = self.fives(attacker);
        if fives.is_empty() {
            return None;
        }
        let answers = self.answers_to_fives(&fives);
        let mut first = None;
        for q in answers {
            if !self.make(q) {
                continue;
            }
            self.nodes += 1;
            let line = if self.game.outcome().is_some() {
                // The defender's fifth pair.
                None
            } else if let Some(&f) = self
                .fives(attacker)
                .iter()
                .find(|&&f| self.game.is_legal(f))
            {
                Some(vec![f])
            } else {
                match self.fives(attacker.other()).as_slice() {
                    [] => next(self, depth - 1, None),
                    [f] => next(self, depth - 1, Some(*f)),
                    _ => None,
                }
            };
            self.unmake();
            match line {
                None => return None,
                Some(rest) => {
                    first.get_or_insert_with(|| prefixed(q, rest));
                }
            }
        }
        // No answer at all: the five follows.
        Some(first.unwrap_or_default())
    }

    /// A forced win by threes and fours for the side to move, within
    /// `depth` of our threats (a VCF of `Limits::vcf_depth` at every
    /// node).
    pub(super) fn vct(&mut self, depth: u32, limits: &Limits<'_>) -> Line {
        match self.threat_root() {
            Ok(forced) => self.vct_from(depth, forced, limits),
            Err(line) => line,
        }
    }

    fn vct_from(&mut self, depth: u32, forced: Option<Point>, limits: &Limits<'_>) -> Line {
        // A position that failed at this depth or deeper fails again
        // (its VCF included: the failure was recorded after it).
        if self.failed.vct.get(&self.hash).is_some_and(|&d| d >= depth) {
            return None;
        }
        if let Some(line) = self.vcf_from(limits.vcf_depth, forced, limits) {
            return Some(line);
        }
        if depth == 0 || self.time_up(limits) {
            return None;
        }
        let moves = match forced {
            Some(f) => vec![f],
            None => {
                let mut t = self.threats(|k| k.is_four() || k.is_three());
                t.truncate(VCT_WIDTH);
                t
            }
        };
        for p in moves {
            if !self.game.is_legal(p) || !self.make(p) {
                continue;
            }
            self.nodes += 1;
            let line = self.defend(p, p, depth, limits);
            self.unmake();
            if let Some(rest) = line {
                return Some(prefixed(p, rest));
            }
        }
        if !self.clock.out {
            Failed::remember(&mut self.failed.vct, self.hash, depth);
        }
        None
    }

    /// The defender to move after our threat at `at` (our stone last
    /// played at `last`, which may be a block after a counter-four):
    /// `Some` (one line) when every answer loses.
    fn defend(&mut self, at: Point, last: Point, depth: u32, limits: &Limits<'_>) -> Line {
        if self.time_up(limits) {
            return None;
        }
        let me = self.game.to_move().other();
        let made = self.game.fives_through(last, me);
        if made.count > 0 {
            // A four: one answer, or none.
            return self.answer_four(made, depth, |e, d, f| e.vct_from(d, f, limits));
        }
        let lines = self.straight_four_lines(at, me);
        if lines == [false; 4] {
            // Not a three (or no longer one): no threat.
            return None;
        }
        let mut answers = self.defences(at, me, lines);
        // Counter-fours, and under Pente captures (which may take a stone
        // of the three) and threats to capture one later, from its
        // straight four.
        for d in self
            .fours()
            .into_iter()
            .chain(self.captures_against_three(at, me))
            .chain(self.capture_threats_against_three(at, me, lines))
        {
            if !answers.contains(&d) {
                answers.push(d);
            }
        }
        let mut first = None;
        for d in answers {
            if self.time_up(limits) {
                return None;
            }
            if !self.make(d) {
                continue;
            }
            self.nodes += 1;
            let them = self.game.to_move().other();
            let counter = if self.game.rule() == Rule::Pente {
                // A capture can open a five anywhere.
                let f = self.fives(them);
                Fives {
                    count: f.len(),
                    first: f.first().copied(),
                    on_line: [0; 4],
                }
            } else {
                self.game.fives_through(d, them)
            };
            let line = if self.game.outcome().is_some() {
                // The defender's fifth pair.
                None
            } else if counter.count >= 2 {
                None
            } else if let Some(f) = counter.first {
                // Their four: we block, and they answer the three again.
                // Every stone stays in five in a row, so these exchanges
                // end; under Pente captures free points again and the
                // board may come back, so each costs a ply of depth.
                let again = if self.game.rule() == Rule::Pente {
                    depth - 1
                } else {
                    depth
                };
                if again > 0 && self.game.is_legal(f) && self.make(f) {
                    let line = self.defend(at, f, again, limits);
                    self.unmake();
                    line.map(|rest| prefixed(f, rest))
                } else {
                    None
                }
            } else {
                self.vct_from(depth - 1, None, limits)
            };
            self.unmake();
            match line {
                None => return None,
                Some(rest) => {
                    first.get_or_insert_with(|| prefixed(d, rest));
                }
            }
        }
        // No answer at all: the straight four follows.
        Some(first.unwrap_or_default())
    }

    /// The directions (of the board's, the fourth `false` on the hexagon)
    /// in which `color` can make a straight four (two fives on one line)
    /// with one legal stone on the line through `at`, within four steps
    /// of it.
    pub(super) fn straight_four_lines(&self, at: Point, color: Color) -> [bool; 4] {
        let mut lines = [false; 4];
        for (d, line) in lines
            .iter_mut()
            .enumerate()
            .take(self.game.directions().len())
        {
            *line = self.straight_four_on(at, color, d);
        }
        lines
    }

    /// [`Engine::straight_four_lines`] on the line of direction `d`.
    fn straight_four_on(&self, at: Point, color: Color, d: usize) -> bool {
        let (di, dj) = self.game.directions()[d];
        (-4..=4).any(|k| {
            let s = Point::new(at.i + di * k, at.j + dj * k);
            k != 0
                && self.game.is_empty(s)
                && self.game.fives_on_line(s, color, d) >= 2
                && !(color == Color::Black && self.game.is_forbidden(s))
        })
    }

    /// The defender's moves (the side to move) on the `lines` through
    /// `at`, within five steps, after which `color` has no straight four
    /// on them: each tried on the rules board.
    fn defences(&mut self, at: Point, color: Color, lines: [bool; 4]) -> Vec<Point> {
        // A stone on one line changes no other line's rows, so after a
        // stone on line `d` only line `d` needs asking, and with two lines
        // of straight fours no stone stops both. Under renju a stone may
        // change which of Black's points are forbidden anywhere, and under
        // Pente take stones off any line: there every line is asked again.
        let every_line = self.game.rule() == Rule::Pente
            || (color == Color::Black && self.game.rule() == Rule::Renju);
        self.defences_asking(at, color, lines, every_line)
    }

    /// [`Engine::defences`], each stone's effect asked of every line
    /// (`every_line`) or of its own line alone.
    pub(super) fn defences_asking(
        &mut self,
        at: Point,
        color: Color,
        lines: [bool; 4],
        every_line: bool,
    ) -> Vec<Point> {
        let mut out = Vec::new();
        if !every_line && lines.iter().filter(|&&on| on).count() > 1 {
            return out;
        }
        for (d, &(di, dj)) in self.game.directions().iter().enumerate() {
            if !lines[d] {
                continue;
            }
            for k in -5..=5 {
                let p = Point::new(at.i + di * k, at.j + dj * k);
                if k == 0 || out.contains(&p) || !self.game.is_legal(p) {
                    continue;
                }
                // The rules board alone: the valuation is not needed to
                // ask it, and stays as it is.
                if self.game.play(p).is_err() {
                    continue;
                }
                let stopped = if every_line {
                    self.straight_four_lines(at, color) == [false; 4]
                } else {
                    !self.straight_four_on(at, color, d)
                };
                self.game.undo();
                if stopped {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The moves among `moves` after which the opponent has no forced
    /// win, and whether they had one before (then only those are
    /// returned, unless none stops it: the game is lost and every move is
    /// as good). Their VCF is looked for first; only when they have none,
    /// their VCT (the threes they threaten to play), and the moves are
    /// then checked against both.
    pub(super) fn safe_moves(
        &mut self,
        moves: Vec<Point>,
        limits: &Limits<'_>,
    ) -> (Vec<Point>, bool) {
        self.pass();
        let by_fours = self.vcf(limits.vcf_depth, limits).is_some();
        let depth = self.safety_vct_depth(limits);
        let by_threes = !by_fours && self.vct(depth, limits).is_some();
        self.pass();
        if !by_fours && !by_threes {
            return (moves, false);
        }
        let mut safe = Vec::new();
        for &p in &moves {
            if safe.len() >= WIDTH || self.time_up(limits) {
                break;
            }
            if !self.make(p) {
                continue;
            }
            let mut theirs = self.vcf(limits.vcf_depth, limits).is_some();
            if by_threes && !theirs {
                theirs = self.vct(depth, limits).is_some();
            }
            let out = self.clock.out;
            self.unmake();
            if !theirs && !out {
                safe.push(p);
            }
        }
        if safe.is_empty() {
            (moves, true)
        } else {
            (safe, true)
        }
    }
}
