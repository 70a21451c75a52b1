//! The engine's main search: a principal variation search (negamax with
//! null windows after the first move) with iterative deepening, over the
//! candidates the patterns propose, best valued first after the table's
//! move and the killers; under Pente, a quiescence search on captures
//! at its horizon; and its transposition table, keyed by a Zobrist hash
//! the engine keeps move by move.
//!
//! Late moves are searched shallower first ([`reduction`]), except
//! those that make a four, on the square under every rule but Pente.
//!
//! A position is always met at the same ply of one search (every move
//! adds a stone), so an entry is used only for as deep a search as its
//! own: where no move is reduced (to depth 3), the table changes how fast
//! the search goes, never its score at a fixed depth (a property test
//! holds it to that); deeper, a bound from the table can decide whether
//! a reduced move is searched again, so the score depends on the table's
//! contents too, and is still the same for the same position and limits.
//! Entries carry the generation of the choice that wrote them, and other
//! generations' are ignored: a choice depends on its position only.

use super::engine::{Engine, Limits, CAPTURED_WORTH, PREDICT_FROM_DEPTH, WIDTH, WIN};
use super::rules::{Outcome, Rule};
use super::valuation::FiveGeometry;
use crate::position::Color;
use crate::position::Point;
use crate::position::Position;

/// The Zobrist keys: one a colour and point of the largest board, and one
/// for White to move, drawn from a fixed seed.
pub(super) mod zobrist {
    use crate::five::rules::MAX_SIZE;
    use crate::position::{Color, Point};
    use crate::seeding::splitmix;

    const POINTS: usize = MAX_SIZE * MAX_SIZE;

    const KEYS: [u64; 2 * POINTS] = {
        let mut keys = [0; 2 * POINTS];
        let mut k = 0;
        while k < 2 * POINTS {
            keys[k] = splitmix(k as u64 + 1);
            k += 1;
        }
        keys
    };

    pub(in crate::five) const WHITE_TO_MOVE: u64 = splitmix(0);

    /// Pente: `c` has captured `pairs` pairs (0 to 5). No pair is no
    /// key, so that a game without captures (every other rule) hashes
    /// as it did before Pente: its hash-drawn random terms (a
    /// personality's noise) stay the same.
    pub(in crate::five) fn captured(c: Color, pairs: u8) -> u64 {
        if pairs == 0 {
            return 0;
        }
        let side = match c {
            Color::Black => 0,
            Color::White => 8,
        };
        splitmix(0x5EED_0000 + side + u64::from(pairs))
    }

    pub(in crate::five) fn stone(p: Point, c: Color) -> u64 {
        let side = match c {
            Color::Black => 0,
            Color::White => POINTS,
        };
        KEYS[side + p.i as usize * MAX_SIZE + p.j as usize]
    }
}

/// What an entry's score is: exact, or a bound.
const EXACT: u64 = 0;
const LOWER: u64 = 1;
const UPPER: u64 = 2;

/// No move in an entry.
const NO_MOVE: u64 = 0xFFFF;

/// A search's result for one position, unpacked.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i64,
    depth: u32,
    bound: u64,
    best: Option<Point>,
}

/// The transposition table: a power of two of entries of three words
/// (key, score, and move, depth, bound and generation packed), allocated
/// zeroed so that the pages of a large table cost nothing until used.
#[derive(Clone, Debug)]
pub(super) struct Table {
    entries: Vec<[u64; 3]>,
    bytes: usize,
    generation: u64,
}

impl Table {
    /// A table of at most `bytes` (none below one entry).
    pub(super) fn new(bytes: usize) -> Table {
        let fit = bytes / std::mem::size_of::<[u64; 3]>();
        let n = if fit == 0 { 0 } else { 1 << fit.ilog2() };
        Table {
            entries: vec![[0; 3]; n],
            bytes,
            generation: 0,
        }
    }

    /// The budget it was made for.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Starts a new choice: earlier entries no longer count.
    pub(super) fn next_generation(&mut self) {
        self.generation = (self.generation + 1) & 0xFF;
        if self.generation == 0 {
            // Wrapped: the zeroed entries' generation must not come back.
            self.entries.iter_mut().for_each(|e| *e = [0; 3]);
            self.generation = 1;
        }
    }

    fn slot(&self, key: u64) -> Option<usize> {
        (!self.entries.is_empty()).then(|| key as usize & (self.entries.len() - 1))
    }

    fn probe(&self, key: u64, size: usize) -> Option<Entry> {
        let e = self.entries[self.slot(key)?];
        if e[0] != key || e[2] >> 32 & 0xFF != self.generation {
            return None;
        }
        let m = e[2] & 0xFFFF;
        Some(Entry {
            score: e[1] as i64,
            depth: (e[2] >> 16 & 0xFF) as u32,
            bound: e[2] >> 24 & 0xFF,
            best: (m != NO_MOVE)
                .then(|| Point::new((m as usize / size) as i32, (m as usize % size) as i32)),
        })
    }

    fn store(&mut self, key: u64, size: usize, e: Entry) {
        let Some(k) = self.slot(key) else { return };
        let m = e
            .best
            .map_or(NO_MOVE, |p| (p.i as usize * size + p.j as usize) as u64);
        self.entries[k] = [
            key,
            e.score as u64,
            m | u64::from(e.depth.min(255)) << 16 | e.bound << 24 | self.generation << 32,
        ];
    }
}

/// A won score as the table keeps it: from the entry's position, not the
/// root (the same position may be met at another ply of a later choice).
fn to_table(score: i64, ply: usize) -> i64 {
    if score > WIN / 2 {
        score + ply as i64
    } else if score < -WIN / 2 {
        score - ply as i64
    } else {
        score
    }
}

fn from_table(score: i64, ply: usize) -> i64 {
    if score > WIN / 2 {
        score - ply as i64
    } else if score < -WIN / 2 {
        score + ply as i64
    } else {
        score
    }
}

/// Late move reductions: below this depth every move is searched to the
/// full depth.
const REDUCE_FROM_DEPTH: u32 = 3;

/// Late move reductions: the moves of a node before this index (the
/// table's move, the killers, the best valued candidates) are never
/// reduced; from it on, by one ply.
const REDUCE_FROM_MOVE: usize = 3;

/// Late move reductions: from this index on, by two plies.
const REDUCE_TWO_FROM_MOVE: usize = 8;

/// How many plies shallower the `k`-th move (from 0) of a node searched
/// to `depth` is first searched: the candidates come best valued first,
/// so a late one rarely beats the early ones, and what the search saves
/// on them buys depth on the rest. In self-play at 100,000 nodes a move
/// (exactly five, 80 games from 40 openings of three stones, colours
/// swapped), these settings won 48.5 of 80 against no reductions;
/// reducing from the third move and at depth 2, by two from the
/// seventh, 42.5 of 80. A move that makes a four is never reduced
/// ([`Engine::makes_four`]): without that exemption the search at
/// depth 4 let a double four through in a test position; with it the
/// screen gave 47 of 80, and exempting threes too 42 of 80.
pub(super) fn reduction(depth: u32, k: usize) -> u32 {
    if depth < REDUCE_FROM_DEPTH || k < REDUCE_FROM_MOVE {
        0
    } else if k < REDUCE_TWO_FROM_MOVE {
        1
    } else {
        2
    }
}

/// What one iteration of the root search learnt.
#[derive(Clone, Copy, Debug)]
enum Iteration {
    /// Every move searched: the best score and the index of its move.
    Finished { score: i64, best: usize },
    /// The clock stopped the iteration after a move other than the first
    /// (the last iteration's choice; at depth 1 the candidates' first)
    /// had been searched through and scored above every move before it,
    /// the first included: at this depth it is better than that choice,
    /// so it is played rather than thrown away with the unfinished
    /// iteration (on the square under every rule but Pente, where it was
    /// measured). The iterations whose choice changes are the dear ones
    /// (each new best is searched again with a full window), so they are
    /// the ones the clock stops most often. On the thirtieth sitting's
    /// screen (1,083 positions at 150,000 nodes a move,
    /// `docs/five-strength.md`) 85 moves changed: +0.0021 ± 0.0011 of
    /// the judge's win rate a move.
    Overtaken { score: i64, best: usize },
    /// The clock stopped the iteration before any move beat the first
    /// (or no move was legal): the last iteration's choice stands.
    Stopped,
}

/// Scores above every other.
pub(super) const INFINITY: i64 = WIN + 1;

/// Pente: how many captures in a row the quiescence search follows
/// past the horizon.
const QUIESCENCE_PLIES: u32 = 4;

/// The deepest ply a line may reach through forced answers, which
/// extend the search past its depth.
const MAX_PLY: usize = 64;

impl<G: FiveGeometry> Engine<G> {
    /// Iterative deepening over the root's `moves` (the first [`WIDTH`]):
    /// the move, score and depth of the deepest iteration that decided
    /// one (the first move at depth 0 when none did). An iteration the
    /// clock stops still decides when a move other than the last
    /// iteration's choice has been searched through and scored above it
    /// ([`Iteration::Overtaken`]): that move is played, with its score at
    /// the stopped depth.
    pub(super) fn search(&mut self, moves: &[Point], limits: &Limits<'_>) -> (Point, i64, u32) {
        self.start_search(limits);
        let mut order: Vec<Point> = moves.iter().copied().take(WIDTH).collect();
        let mut chosen = (order[0], 0, 0);
        self.finished_depth = 0;
        for depth in 1..=limits.max_depth {
            let (score, best, finished) = match self.root(&order, depth, limits) {
                Iteration::Finished { score, best } => (score, best, true),
                Iteration::Overtaken { score, best } => (score, best, false),
                Iteration::Stopped => break,
            };
            chosen = (order[best], score, depth);
            if !finished {
                break;
            }
            self.finished_depth = depth;
            // The best move first in the next iteration, the others kept
            // in order.
            let p = order.remove(best);
            order.insert(0, p);
            if score.abs() > WIN / 2 {
                break;
            }
        }
        chosen
    }

    /// A new choice's table (sized as `limits` ask, earlier choices'
    /// entries no longer counted) and killers (a pair a ply).
    fn start_search(&mut self, limits: &Limits<'_>) {
        if self.table.bytes() != limits.table_bytes {
            self.table = Table::new(limits.table_bytes);
        }
        self.table.next_generation();
        self.killers = vec![[None; 2]; limits.max_depth as usize + 2];
    }

    /// The main search's exact score of each of `moves` for the side to
    /// move, at every depth from 1 to `depth`: each move searched with a
    /// full window, as the best move of an iteration is (the others only
    /// prove they are no better), with the table and killers one choice
    /// would keep. What `katachi explain --by-depth` prints: how the
    /// candidates' scores move from one depth to the next, for reading
    /// what the search makes of a position. The threat searches and the
    /// safety check that come before the main search in a choice are not
    /// run. An illegal move has no scores.
    pub fn scores_by_depth(&mut self, moves: &[Point], depth: u32) -> Vec<Vec<i64>> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut limits = Limits::at_depth(depth, &stop);
        limits.table_bytes = super::engine::DEFAULT_TABLE_BYTES;
        self.begin_step(&limits, 1.0);
        self.start_search(&limits);
        let mut out = vec![Vec::new(); moves.len()];
        for d in 1..=depth {
            for (k, &p) in moves.iter().enumerate() {
                if !self.make(p) {
                    continue;
                }
                let v = self.pvs(d - 1, -INFINITY, INFINITY, 1, &limits);
                self.unmake();
                // No clock and no node limit: every search ends.
                if let Some(v) = v {
                    out[k].push(-v);
                }
            }
        }
        out
    }

    /// One iteration at the root over `order`, whose first move is the
    /// last iteration's choice.
    fn root(&mut self, order: &[Point], depth: u32, limits: &Limits<'_>) -> Iteration {
        let mut alpha = -INFINITY;
        let mut best: Option<(i64, usize)> = None;
        // The index of the first move searched through: the last
        // iteration's choice (its order's first), unless illegal.
        let mut first = None;
        for (k, &p) in order.iter().enumerate() {
            if !self.make(p) {
                continue;
            }
            let v = if best.is_none() {
                self.pvs(depth - 1, -INFINITY, -alpha, 1, limits)
                    .map(|v| -v)
            } else {
                match self.pvs(depth - 1, -alpha - 1, -alpha, 1, limits) {
                    Some(v) if -v > alpha => self
                        .pvs(depth - 1, -INFINITY, -alpha, 1, limits)
                        .map(|v| -v),
                    other => other.map(|v| -v),
                }
            };
            self.unmake();
            let Some(v) = v else {
                return match (best, first) {
                    (Some((score, best)), Some(first))
                        if best != first && self.square_without_captures() =>
                    {
                        Iteration::Overtaken { score, best }
                    }
                    _ => Iteration::Stopped,
                };
            };
            first.get_or_insert(k);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, k));
            }
            alpha = alpha.max(v);
        }
        match best {
            Some((score, best)) => Iteration::Finished { score, best },
            None => Iteration::Stopped,
        }
    }

    /// The principal variation search below the root: the side to move's
    /// score within `(alpha, beta)` (fail-soft), or `None` when the time
    /// ran out.
    fn pvs(
        &mut self,
        depth: u32,
        mut alpha: i64,
        beta: i64,
        ply: usize,
        limits: &Limits<'_>,
    ) -> Option<i64> {
        self.nodes += 1;
        if self.time_up(limits) {
            return None;
        }
        if let Some(v) = self.decided(ply) {
            return Some(v);
        }
        let win = WIN - ply as i64;
        let me = self.game.to_move();
        let theirs = self.fives(me.other());
        // The opponent's fives leave only their answers (none: lost).
        let answers = (!theirs.is_empty()).then(|| self.answers_to_fives(&theirs));
        if answers.as_ref().is_some_and(Vec::is_empty) {
            return Some(-(win - 2));
        }
        // A leaf where the opponent threatens five is not quiet: its
        // static value ignores the block it must play, so the forced
        // answers are searched (each adds a stone, and the ply cap bounds
        // the line).
        if depth == 0 && (answers.is_none() || ply >= MAX_PLY) {
            if self.game.rule() == Rule::Pente && answers.is_none() {
                return self.quiesce(alpha, beta, ply, QUIESCENCE_PLIES, limits);
            }
            return Some(self.evaluate());
        }
        let size = self.game.size();
        let entry = self.table.probe(self.hash, size);
        if let Some(e) = entry.filter(|e| e.depth >= depth) {
            let s = from_table(e.score, ply);
            if e.bound == EXACT
                || (e.bound == LOWER && s >= beta)
                || (e.bound == UPPER && s <= alpha)
            {
                return Some(s);
            }
        }
        let forced = answers.is_some();
        let moves = if let Some(answers) = answers {
            answers
        } else {
            let mut moves: Vec<Point> = match self.answers_to_three() {
                Some(answers) => answers,
                None => self.best_candidates_by(WIDTH, depth >= PREDICT_FROM_DEPTH),
            };
            // The table's move first, then the killers: a reordering of
            // the same moves.
            let mut front = 0;
            let killers = self.killers.get(ply).copied().unwrap_or_default();
            for p in entry
                .and_then(|e| e.best)
                .into_iter()
                .chain(killers.into_iter().flatten())
            {
                if let Some(k) = moves[front..].iter().position(|&q| q == p) {
                    let q = moves.remove(front + k);
                    moves.insert(front, q);
                    front += 1;
                }
            }
            moves
        };
        if moves.is_empty() {
            return Some(0);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // A forced answer costs no depth: the line it belongs to is one
        // move of the opponent's four, searched to the same horizon.
        let child = if forced { depth } else { depth - 1 };
        let reduces = !forced && self.reduces();
        for (k, p) in moves.into_iter().enumerate() {
            // Asked before the move is played, of the node's valuation.
            let cut = match reduction(depth, k) {
                r if r > 0 && reduces && !self.makes_four(p, me) => r,
                _ => 0,
            };
            if !self.make(p) {
                continue;
            }
            let v = if best_move.is_none() {
                self.pvs(child, -beta, -alpha, ply + 1, limits).map(|v| -v)
            } else {
                // A late move is first searched shallower, and searched
                // again to the full depth only if it beats alpha there.
                let reduced = child.saturating_sub(cut);
                let first = match self.pvs(reduced, -alpha - 1, -alpha, ply + 1, limits) {
                    Some(v) if reduced < child && -v > alpha => {
                        self.pvs(child, -alpha - 1, -alpha, ply + 1, limits)
                    }
                    other => other,
                };
                match first {
                    Some(v) if -v > alpha && -v < beta => {
                        self.pvs(child, -beta, -alpha, ply + 1, limits).map(|v| -v)
                    }
                    other => other.map(|v| -v),
                }
            };
            self.unmake();
            let v = v?;
            if best_move.is_none() || v > best {
                best = v;
                best_move = Some(p);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                if !forced {
                    if let Some(k) = self.killers.get_mut(ply) {
                        if k[0] != Some(p) {
                            k[1] = k[0];
                            k[0] = Some(p);
                        }
                    }
                }
                break;
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table.store(
            self.hash,
            size,
            Entry {
                score: to_table(best, ply),
                depth,
                bound,
                best: best_move,
            },
        );
        Some(best)
    }

    /// Whether `p` makes a four (or five) for `me`, by the patterns: such
    /// a move is never reduced, since the answer it forces costs no depth
    /// and what it prepares shows only a move or two later, the plies a
    /// reduction takes away.
    fn makes_four(&self, p: Point, me: Color) -> bool {
        self.valuation.threat(p, me).is_some_and(|k| k.is_four())
    }

    /// Whether the search reduces late moves ([`reduction`]): on the
    /// square under every rule but Pente, where it was measured; Pente
    /// and the hexagon's contest engine search as before.
    fn reduces(&self) -> bool {
        self.reductions && self.square_without_captures()
    }

    /// Pente: the side to move's score at the horizon with its captures
    /// played out. A capture takes stones off lines, so it can break
    /// an open three or a four the static sum still counts, and it
    /// brings a side nearer the fifth pair; the static value can only
    /// guess at that ([`Engine::capture_in_hand`]). So the side to move
    /// may stand on the static value without the capture in hand, or
    /// capture, for at most `left` captures in a row (each answered the
    /// same way); a side facing a five, or out of captures to follow,
    /// is scored statically, the capture in hand included. Fail-soft
    /// within `(alpha, beta)`; `None` when the time ran out.
    pub(super) fn quiesce(
        &mut self,
        mut alpha: i64,
        beta: i64,
        ply: usize,
        left: u32,
        limits: &Limits<'_>,
    ) -> Option<i64> {
        let captures = self.captures();
        if left == 0 || captures.is_empty() {
            return Some(self.evaluate());
        }
        let mut best = self.evaluate() - self.capture_in_hand(&CAPTURED_WORTH);
        if best >= beta {
            return Some(best);
        }
        alpha = alpha.max(best);
        for p in captures {
            if !self.make(p) {
                continue;
            }
            let v = self.quiesce_child(-beta, -alpha, ply + 1, left - 1, limits);
            self.unmake();
            let v = -(v?);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// A position inside the quiescence search: won, lost or drawn by
    /// the rules, a five to make or to face, or quiet enough to go on.
    fn quiesce_child(
        &mut self,
        alpha: i64,
        beta: i64,
        ply: usize,
        left: u32,
        limits: &Limits<'_>,
    ) -> Option<i64> {
        self.nodes += 1;
        if self.time_up(limits) {
            return None;
        }
        if let Some(v) = self.decided(ply) {
            return Some(v);
        }
        let me = self.game.to_move();
        if self.has_five(me.other()) || ply >= MAX_PLY {
            return Some(self.evaluate());
        }
        self.quiesce(alpha, beta, ply, left, limits)
    }

    /// The side to move's score at `ply` when the game is decided: lost
    /// or drawn by the last move, or won by a five it can make; `None`
    /// otherwise.
    fn decided(&self, ply: usize) -> Option<i64> {
        let win = WIN - ply as i64;
        match self.game.outcome() {
            // The last move won: the side to move has lost.
            Some(Outcome::Win(_)) => return Some(-win),
            Some(Outcome::Draw) => return Some(0),
            None => {}
        }
        self.has_five(self.game.to_move()).then_some(win - 1)
    }
}
