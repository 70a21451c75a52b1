//! katachi's five-in-a-row player: the pattern valuation searched. This
//! module is the entry point (the engine, its limits, its reasons); the
//! threat-space search is `threats.rs`, the principal variation search
//! and its transposition table `search.rs`.
//!
//! A move is chosen in this order, each step exact where it can be:
//!
//! 1. a move that wins at once (the rules say so, not the patterns);
//! 2. the point that stops the opponent's five, when they have one;
//! 3. a forced win by continuous fours (VCF), then by threes and fours
//!    (VCT): threat-space searches whose threats the patterns' kinds
//!    propose and the rules board confirms, so that a win found is a win
//!    under the rule (renju's forbidden points included); the VCT depth
//!    first to a number of threats (`threats.rs`), or, with
//!    [`Limits::proof_search`], by proof numbers to any depth the budget
//!    reaches (`proof.rs`);
//! 4. otherwise the moves after which the opponent has no VCF (nor VCT,
//!    when they threaten one; all moves when every move leaves one: the
//!    game is lost; by proof numbers, the moves after which the
//!    opponent's win is disproven, tried first on the points of its
//!    proof), searched by a
//!    principal variation search with iterative deepening over the
//!    candidates the patterns propose (only our fours and the points of
//!    the opponent's fours when it threatens two fives with one stone:
//!    `Engine::answers_to_three`), a leaf scored by the leaf table
//!    (exactly five and renju with the built-in database: each threat kind's
//!    matches and each point class's points (`five::point_class`: a
//!    four-three, a double three) weighed for the side to move and for
//!    the opponent, and a share of its best point: `Engine::leaf_score`,
//!    `five::leaf`) or
//!    else by the sum of each side's pattern values and half the side to
//!    move's best point (`Engine::move_in_hand`), and as all but won when
//!    the side to move can
//!    make two fives at once and the opponent has no four to answer
//!    with (`Engine::tempo_win`); positions remembered in a transposition
//!    table keyed by a Zobrist hash kept move by move.
//!
//! Time is read from an injected clock (`Limits::elapsed`, so that the
//! budget logic is tested without timing): each step gets a share of the
//! budget, the search stops as soon as the clock passes it, and the
//! deepest finished iteration's move is played, or (on the square,
//! outside Pente) the move that beat it in the iteration the clock
//! stopped. The valuation
//! ([`Valuation`]) is kept move by move on the matcher's board; the rules
//! board ([`FiveBoard`]) decides wins, renju's forbidden points and
//! legality. Deterministic: no randomness, ties broken in reading order,
//! and the table's entries from an earlier move ignored.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mkpat::geometry::{Geometry, Square};
use mkpat::tables::Kind;

use super::database::FiveDatabase;
use super::leaf::LeafWeights;
use super::pente::CAPTURES_TO_WIN;
use super::players::neighbourhood;
use super::point_class::PointClass;
use super::predictor::{point_features, Features, Predictor};
use super::proof::{Proof, Proofs};
use super::rules::{FiveBoard, Rule};
use super::search::{zobrist, Table};
use super::threats::Failed;
use super::valuation::{FiveGeometry, Valuation};
use crate::board::Board;
use crate::position::{Color, Point, Position};

/// The largest score: a won position (less the plies to the win, so that
/// the search prefers the quicker win and the slower loss).
pub(super) const WIN: i64 = 1 << 40;

/// What a leaf is worth beyond its pattern sum when the side to move
/// wins by the threat rule ([`Engine::tempo_win`]): more than any sum of
/// pattern values, less than a proven win (the rule trusts the patterns
/// to list every four of the opponent's, so the search does not treat it
/// as a proof).
pub(super) const TEMPO_WIN: i64 = 1 << 30;

/// Where the main search's step ends, as a share of the move's budget:
/// the rest is for unwinding the search (it stops within a node of the
/// clock's reading past this share, and a node takes microseconds) and
/// the caller's own work. The budget itself is already short of the
/// limit by the Gomocup brain's margin (`gomocup::clock`). At 0.9,
/// against Rapfi at 1 s a move (a 900 ms budget), no move took more
/// than 818 ms: over 80 ms of every searched move's budget went
/// unused; at 0.97 the longest took 880 ms.
pub const SEARCH_END: f64 = 0.97;

/// The search's nodes of this depth and more order their candidates by
/// the predictor (`Engine::best_candidates_by`); the root always does.
pub const PREDICT_FROM_DEPTH: u32 = 1;

/// How many candidates a node of the search tries.
pub(super) const WIDTH: usize = 12;

/// On the square, the deepest VCT the safety check before the search
/// asks of the opponent after each candidate, and the first depth of our
/// own deepening VCT at the root.
pub const SAFETY_VCT_DEPTH: u32 = 4;

/// Pente: what a side's captured pairs are worth to the evaluation, by
/// their number (the fifth wins, and is scored as a win by the search).
pub(super) const CAPTURED_WORTH: [i64; 5] = [0, 500, 1200, 2600, 6000];

/// The transposition table's default size.
pub const DEFAULT_TABLE_BYTES: usize = 16 << 20;

/// What a search may spend.
#[allow(missing_debug_implementations)]
pub struct Limits<'a> {
    /// Time elapsed since the search began (injected: tests pass a fake).
    pub elapsed: &'a dyn Fn() -> Duration,
    /// The search stops once `elapsed` passes this (`None`: no limit).
    pub budget: Option<Duration>,
    /// Raised by the caller to stop at once.
    pub stop: &'a AtomicBool,
    /// The deepest iteration of the principal variation search (plies).
    pub max_depth: u32,
    /// The deepest VCF line (our fours).
    pub vcf_depth: u32,
    /// The deepest VCT line (our threes and fours) of the depth-first
    /// search (not used by the proof-number search). On the square, the
    /// root's VCT for our own win deepens to it in steps of two from
    /// [`SAFETY_VCT_DEPTH`] while its share of the budget lasts, and the
    /// opponent's VCTs (the safety check, once per candidate) are
    /// searched no deeper than [`SAFETY_VCT_DEPTH`]; on the hexagon both
    /// are searched to this depth at once.
    pub vct_depth: u32,
    /// The transposition table's size in bytes (0: no table).
    pub table_bytes: usize,
    /// Search threats by proof numbers (`proof.rs`): our win at the root
    /// and, when the move has at least [`DEEP_SAFETY_BUDGET`] (and
    /// [`DEEP_SAFETY_NODES`]), the opponent's in the safety check, to any
    /// depth within the step's budget, in place of the depth-first VCT to
    /// `vct_depth`. On the square under every rule but Pente; elsewhere
    /// ignored.
    pub proof_search: bool,
    /// At most this many nodes for the whole choice (`None`: no limit),
    /// shared between its steps as the time budget is: a fixed amount of
    /// work a move, so that a benchmark plays the same games under any
    /// load.
    pub max_nodes: Option<u64>,
}

/// The clock of a search that has none ([`Limits::at_depth`]).
fn no_time() -> Duration {
    Duration::ZERO
}

impl<'a> Limits<'a> {
    /// A search to a fixed `depth` with no clock: forced wins by fours
    /// only (threat sequences are the rules' business, not the
    /// valuation's: what `katachi personality diff` and the players'
    /// `depth=N` compare) and a small table. The same answer under any
    /// load.
    pub fn at_depth(depth: u32, stop: &'a AtomicBool) -> Limits<'a> {
        Limits {
            elapsed: &no_time,
            budget: None,
            stop,
            max_depth: depth,
            vcf_depth: 8,
            vct_depth: 0,
            table_bytes: 1 << 20,
            proof_search: false,
            max_nodes: None,
        }
    }
}

/// Why the engine chose its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The only point, or the centre of an empty board.
    Opening,
    /// It makes five.
    Wins,
    /// It stops the opponent's five.
    Blocks,
    /// The first move of a forced win by fours; the line follows (ours
    /// and the forced replies, alternately).
    Vcf(Vec<Point>),
    /// The first move of a forced win by threes and fours; one line
    /// follows (ours and a defence, alternately).
    Vct(Vec<Point>),
    /// The search's choice, with its score and the depth of the
    /// iteration that chose it: the last finished one, or the one the
    /// clock stopped after the move had beaten that iteration's choice;
    /// `defends` when the opponent had a VCF or a VCT and the move was
    /// chosen among those that stop it.
    Search {
        score: i64,
        depth: u32,
        defends: bool,
    },
    /// The one move the safety check leaves against the opponent's VCF
    /// or VCT: the search, which could only play it, is not run, and the
    /// time it would have taken stays on the match clock.
    OnlyDefence,
}

/// The clock as one step of a choice sees it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    /// This step stops once the elapsed time reaches it.
    deadline: Option<Duration>,
    /// This step stops once the choice's node count reaches it.
    node_deadline: Option<u64>,
    /// Calls since the clock was last read.
    ticks: u32,
    /// The deadline has passed (or the stop flag was raised): every
    /// search of this step unwinds.
    pub(super) out: bool,
}

/// How many nodes pass between two readings of the clock: every node.
/// A node costs tens of microseconds (it moves the valuation), a reading
/// tens of nanoseconds; reading every 64th node let a move run 17 ms past
/// its deadline.
const TICKS: u32 = 1;

/// The engine: a game, its valuation, its hash and its table; on the
/// square (by default) or the hexagon, the same code over the geometry
/// ([`FiveGeometry`]).
pub struct Engine<G: FiveGeometry = Square> {
    pub(super) game: FiveBoard,
    board: Board<G>,
    db: Arc<FiveDatabase<G>>,
    pub(super) valuation: Valuation,
    pub(super) nodes: u64,
    /// The deepest iteration the last main search finished (its result
    /// may come from the next one, stopped: `search::Iteration`).
    pub(super) finished_depth: u32,
    /// The Zobrist hash of the stones and the side to move.
    pub(super) hash: u64,
    pub(super) table: Table,
    /// Two killer moves a ply (quiet moves that cut off at that ply).
    pub(super) killers: Vec<[Option<Point>; 2]>,
    pub(super) clock: Clock,
    /// Positions (by hash) where the threat searches found no win, with
    /// the deepest search that failed there (`threats.rs`): kept for one
    /// choice, so that its searches, the opponent's in the safety check
    /// included, do not prove the same failure again.
    pub(super) failed: Failed,
    /// The proof-number search's table (`proof.rs`), kept for one choice
    /// as `failed` is.
    pub(super) proofs: Proofs,
    /// Breaks ties between equally valued candidates ([`Engine::with_salt`]);
    /// 0: reading order.
    salt: u64,
    /// The main search reduces late moves where it may (`search.rs`);
    /// off only to compare against the full search.
    pub(super) reductions: bool,
    /// Orders the candidates of the root and of the search's nodes from
    /// [`PREDICT_FROM_DEPTH`] when set ([`Engine::with_predictor`]); off
    /// by default: it measured no better moves (`docs/five-strength.md`).
    pub(super) predictor: Option<&'static Predictor>,
    /// What the main search's leaves weigh each threat kind's matches
    /// by, for the side to move and the opponent
    /// ([`Engine::with_leaf_weights`]); `None`: the pattern sums. By
    /// default the rule's built-in table ([`LeafWeights::builtin`]: exact
    /// five), read only on the square outside Pente.
    leaf: Option<&'static LeafWeights>,
}

impl<G: FiveGeometry> std::fmt::Debug for Engine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("size", &self.game.size())
            .field("rule", &self.game.rule())
            .field("moves", &self.game.moves().len())
            .finish()
    }
}

impl Engine {
    /// The engine for the square `game` (its stones, set-up ones too, and
    /// its side to move), valued by the builtin database.
    pub fn new(game: FiveBoard) -> Engine {
        let db = FiveDatabase::for_rule(game.rule());
        Engine::with_database(game, db)
    }
}

impl<G: FiveGeometry> Engine<G> {
    /// The engine for `game` of geometry `G`, valued by that geometry's
    /// builtin database for the game's rule.
    ///
    /// # Panics
    /// When `game` is of another geometry (a caller's bug).
    pub fn on(game: FiveBoard) -> Engine<G> {
        let db = G::builtin_for(game.rule());
        Engine::with_database(game, db)
    }

    /// [`Engine::new`] valued by `db` (a database compiled at run time,
    /// or re-weighed by an overlay).
    ///
    /// # Panics
    /// When `game` is of another geometry than `db` (a caller's bug).
    pub fn with_database(game: FiveBoard, db: Arc<FiveDatabase<G>>) -> Engine<G> {
        assert_eq!(game.geometry(), G::GEOMETRY, "the game's geometry");
        let board = G::board_of(&game);
        let mut hash = 0;
        for p in game.points() {
            if let Some(c) = game.stone(p) {
                hash ^= zobrist::stone(p, c);
            }
        }
        if game.to_move() == Color::White {
            hash ^= zobrist::WHITE_TO_MOVE;
        }
        for c in [Color::Black, Color::White] {
            hash ^= zobrist::captured(c, game.captures(c));
        }
        // The table was fitted on the built-in database's matches: a
        // database of one's own, or a personality's re-weighing, keeps the
        // pattern sums, so that its values are what it plays.
        let leaf = if Arc::ptr_eq(&db, &G::builtin_for(game.rule())) {
            LeafWeights::builtin(game.rule())
        } else {
            None
        };
        let classes = reads_classes::<G>(leaf, game.rule());
        let valuation = valuation_of(&db, &board, classes);
        Engine {
            game,
            board,
            db,
            valuation,
            nodes: 0,
            finished_depth: 0,
            hash,
            table: Table::new(0),
            killers: Vec::new(),
            clock: Clock::default(),
            failed: Failed::default(),
            proofs: Proofs::default(),
            salt: 0,
            reductions: true,
            predictor: None,
            leaf,
        }
    }

    /// The engine scoring its search's leaves by `leaf` (`None`: by the
    /// pattern sums, each side's matches at their database values, as
    /// under the rules that have no built-in table). Ignored on the
    /// hexagon and under Pente, where no table was measured.
    pub fn with_leaf_weights(mut self, leaf: Option<&'static LeafWeights>) -> Engine<G> {
        let classes = reads_classes::<G>(leaf, self.game.rule());
        if classes != self.valuation.keeps_classes() {
            self.valuation = valuation_of(&self.db, &self.board, classes);
        }
        self.leaf = leaf;
        self
    }

    /// The engine ordering its candidates by `predictor` (`None`, the
    /// default: by the pattern values alone). Ignored on the hexagon and
    /// under Pente, whose shapes the predictor's features do not read.
    pub fn with_predictor(mut self, predictor: Option<&'static Predictor>) -> Engine<G> {
        self.predictor = predictor;
        self
    }

    /// The engine breaking ties between equally valued candidates by
    /// `salt` instead of reading order (0 keeps reading order). A
    /// position's equal candidates are most often the same move turned
    /// by the board's symmetry (the points around a lone stone), so a
    /// game's seed as the salt varies the games of a deterministic
    /// engine, each the same again for its seed, without weakening it.
    pub fn with_salt(mut self, salt: u64) -> Engine<G> {
        self.salt = salt;
        self
    }

    pub fn game(&self) -> &FiveBoard {
        &self.game
    }

    /// The valuation of the current position (after a choice, the
    /// position it was asked for: every search takes its moves back).
    pub fn valuation(&self) -> &Valuation {
        &self.valuation
    }

    /// The matcher's board of the current position.
    pub fn board(&self) -> &Board<G> {
        &self.board
    }

    /// Nodes visited by the last choice (threat searches and the main
    /// search together).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The position's Zobrist hash (stones and side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays `p` for the side to move on the rules board, the matcher's
    /// board, the valuation and the hash; `false` (nothing changed) when
    /// the rules refuse it. Pente's captured stones leave all of them: the
    /// board changes first, then the valuation is brought up to date
    /// around every changed point, each rescan reading the final board.
    pub(super) fn make(&mut self, p: Point) -> bool {
        let c = self.game.to_move();
        let before = self.game.captures(c);
        if self.game.play(p).is_err() {
            return false;
        }
        self.board.place(p, c);
        self.hash ^= zobrist::stone(p, c) ^ zobrist::WHITE_TO_MOVE;
        let taken = self.game.last_captured();
        for &q in taken {
            self.board.remove(q);
            self.hash ^= zobrist::stone(q, c.other());
        }
        revalue(&self.db, &mut self.valuation, &self.board, p);
        for &q in taken {
            revalue(&self.db, &mut self.valuation, &self.board, q);
        }
        if !taken.is_empty() {
            self.hash ^= zobrist::captured(c, before) ^ zobrist::captured(c, self.game.captures(c));
        }
        true
    }

    pub(super) fn unmake(&mut self) {
        let Some(&p) = self.game.moves().last() else {
            return;
        };
        let taken: Vec<Point> = self.game.last_captured().to_vec();
        let Some(c) = self.board.remove(p) else {
            return;
        };
        let after = self.game.captures(c);
        self.game.undo();
        self.hash ^= zobrist::stone(p, c) ^ zobrist::WHITE_TO_MOVE;
        for &q in &taken {
            self.board.place(q, c.other());
            self.hash ^= zobrist::stone(q, c.other());
        }
        revalue(&self.db, &mut self.valuation, &self.board, p);
        for &q in &taken {
            revalue(&self.db, &mut self.valuation, &self.board, q);
        }
        if !taken.is_empty() {
            self.hash ^= zobrist::captured(c, after) ^ zobrist::captured(c, self.game.captures(c));
        }
    }

    /// Gives the move to the other side without a stone (to ask what the
    /// opponent threatens); its own inverse.
    pub(super) fn pass(&mut self) {
        self.game.set_to_move(self.game.to_move().other());
        self.hash ^= zobrist::WHITE_TO_MOVE;
    }

    /// Whether `color` wins by the capture count (Pente, with four pairs
    /// taken): then any capture may be its five.
    fn wins_by_count(&self, color: Color) -> bool {
        self.game.rule() == Rule::Pente && self.game.captures(color) + 1 >= CAPTURES_TO_WIN
    }

    /// Whether one of `color`'s fives ([`Engine::fives`]) passes `also`,
    /// asked without the list and stopping at the first.
    fn any_five(&self, color: Color, also: impl Fn(Point) -> bool) -> bool {
        if self.wins_by_count(color) {
            return self.fives(color).into_iter().any(also);
        }
        self.valuation
            .four_points(color)
            .any(|p| self.game.wins_at(p, color) && also(p))
    }

    /// Whether `color` would win at once somewhere: [`Engine::fives`] is
    /// not empty.
    pub(super) fn has_five(&self, color: Color) -> bool {
        self.any_five(color, |_| true)
    }

    /// Whether `color` would win at once on a point the side to move may
    /// play.
    pub(super) fn has_legal_five(&self, color: Color) -> bool {
        self.any_five(color, |p| self.game.is_legal(p))
    }

    /// The points where `color` would win at once: the patterns' fives
    /// (and under Pente, with four pairs taken, their captures),
    /// confirmed by the rules.
    pub(super) fn fives(&self, color: Color) -> Vec<Point> {
        if !self.wins_by_count(color) {
            // Confirmed first, sorted after: most nodes have no five, and
            // an empty list costs no allocation.
            let mut out: Vec<Point> = self
                .valuation
                .four_points(color)
                .filter(|&p| self.game.wins_at(p, color))
                .collect();
            out.sort_unstable();
            return out;
        }
        self.valuation
            .proposed()
            .filter(|&p| {
                self.valuation.threat(p, color).is_some_and(|k| k.is_four())
                    || self.valuation.makes(p, color, Kind::Capture)
            })
            .filter(|&p| self.game.wins_at(p, color))
            .collect()
    }

    /// Pente: the side to move's captures, the patterns' confirmed by the
    /// rules (none under the other rules).
    pub(super) fn captures(&self) -> Vec<Point> {
        if self.game.rule() != Rule::Pente {
            return Vec::new();
        }
        let me = self.game.to_move();
        self.valuation
            .proposed()
            .filter(|&p| self.valuation.makes(p, me, Kind::Capture))
            .filter(|&p| self.game.is_legal(p) && self.game.pairs_captured_at(p, me) > 0)
            .collect()
    }

    /// The side to move's answers to the opponent's fives `theirs` (not
    /// empty): the block when there is one point to block; under Pente
    /// also every block and every capture, one of which may take a stone
    /// of the row (or win by the count). Empty when nothing answers: the
    /// game is lost.
    pub(super) fn answers_to_fives(&self, theirs: &[Point]) -> Vec<Point> {
        if self.game.rule() != Rule::Pente {
            return match theirs {
                [f] if self.game.is_legal(*f) => vec![*f],
                _ => Vec::new(),
            };
        }
        let mut out: Vec<Point> = theirs
            .iter()
            .copied()
            .filter(|&p| self.game.is_legal(p))
            .collect();
        if theirs.len() >= 2 {
            // One block leaves another five: only a block that captures
            // may hold, and the captures below include it.
            out.clear();
        }
        for p in self.captures() {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// The candidates for the side to move: legal points the patterns
    /// value, best first (reading order on ties; the predictor's order
    /// when the engine has one); the centre's neighbours when the
    /// patterns propose nothing.
    pub(super) fn candidates(&self) -> Vec<Point> {
        self.best_candidates_by(usize::MAX, true)
    }

    /// The first `width` of [`Engine::candidates`]. The proposed points
    /// are sorted first and their legality asked only until `width` are
    /// found: under renju the forbidden-point check of Black's candidates
    /// is the dear part, and a node of the search keeps [`WIDTH`]. When
    /// `predict` and the engine has a predictor (on the square, not
    /// under Pente), the head of the pattern values' order (twice
    /// `width` points, or all) is reordered by the predictor's
    /// strengths, which rank a strong player's move first more often
    /// than the values do (`docs/five-strength.md`, twenty-fourth sitting).
    pub(super) fn best_candidates_by(&self, width: usize, predict: bool) -> Vec<Point> {
        let predicts = predict && self.predictor.is_some() && self.square_without_captures();
        if self.salt == 0 && !predicts {
            if let Some(out) = self.best_candidates_packed(width) {
                return out;
            }
        }
        self.best_candidates_general(width, predict)
    }

    /// [`Engine::best_candidates_by`] by the general path: the salt's
    /// ties and the predictor's order included.
    fn best_candidates_general(&self, width: usize, predict: bool) -> Vec<Point> {
        let mut c = self.valued_proposals();
        let tie = |p: Point| match self.salt {
            0 => 0,
            salt => crate::seeding::splitmix(salt ^ ((p.i as u64) << 32 | p.j as u64)),
        };
        // Best value first, then the salt's tie-break, then reading
        // order: the point makes every key distinct, so an unstable sort
        // gives the one order, and filtering after it the same list as
        // before it.
        let key = |&(v, p): &(i64, Point)| (std::cmp::Reverse(v), tie(p), p);
        let predictor = self
            .predictor
            .filter(|_| predict && self.square_without_captures());
        let mut out = self.first_legal(
            &mut c,
            width,
            |a, b| key(a).cmp(&key(b)),
            |head| {
                let Some(predictor) = predictor else { return };
                let mut s: Vec<(f32, (i64, Point))> = head
                    .iter()
                    .enumerate()
                    .map(|(k, &e)| (predictor.strength(&point_features(&self.game, e.1, k)), e))
                    .collect();
                // Strongest first; a stable sort, so equal strengths keep
                // the values' order.
                s.sort_by(|a, b| b.0.total_cmp(&a.0));
                for (slot, (_, e)) in head.iter_mut().zip(s) {
                    *slot = e;
                }
            },
            |(_, p)| p,
        );
        if out.is_empty() {
            out = self.near_stones();
        }
        if out.is_empty() {
            // Nothing legal near the stones (Pente's tournament rule
            // keeps Black's second stone out of the centre): the legal
            // points nearest the centre.
            let n = self.game.size() as i32;
            let centre = Point::new(n / 2, n / 2);
            out = self.game.legal_moves().collect();
            out.sort_by_key(|p| ((p.i - centre.i).abs().max((p.j - centre.j).abs()), *p));
            out.truncate(WIDTH);
        }
        out.truncate(width);
        out
    }

    /// [`Engine::best_candidates_by`] without a salt or a predictor, the
    /// order every search node asks for: each proposed point packed into
    /// one integer whose order is the candidates' (value first, highest
    /// first, then reading order, which is the points' index order), so
    /// that the selection and the sort compare words rather than tuples.
    /// `None` when a value does not fit the packing's 32 bits (a
    /// personality may weigh that far), and when nothing proposed is
    /// legal: the general path answers both.
    fn best_candidates_packed(&self, width: usize) -> Option<Vec<Point>> {
        let point = |key: u64| self.valuation.point_at((key & 0xFFFF) as usize);
        let mut keys: Vec<u64> = self
            .valuation
            .valued_indexes(self.game.to_move())
            .map(|(k, v)| {
                let fits = i32::try_from(v).is_ok() && k <= usize::from(u16::MAX);
                fits.then(|| ((i64::from(i32::MAX) - v) as u64) << 16 | k as u64)
            })
            .collect::<Option<_>>()?;
        keys.retain(|&key| self.game.is_empty(point(key)));
        let out = self.first_legal(&mut keys, width, u64::cmp, |_| {}, point);
        (!out.is_empty()).then_some(out)
    }

    /// The first `width` legal points of `items` in `order` (after
    /// `reorder_head` has had the head's say), for
    /// [`Engine::best_candidates_by`]'s two paths. A node keeps `width`
    /// of some fifty points: only a head a little longer than that is
    /// sorted, and legality (under renju the forbidden-point check of
    /// Black's points is the dear part) is asked in order until `width`
    /// are found; the tail is sorted only if illegal points leave the
    /// head short and the walk reaches it. Every item's place in `order`
    /// must be distinct, so that an unstable sort gives the one order.
    fn first_legal<T: Copy>(
        &self,
        items: &mut [T],
        width: usize,
        order: impl Fn(&T, &T) -> std::cmp::Ordering + Copy,
        reorder_head: impl FnOnce(&mut [T]),
        point: impl Fn(T) -> Point,
    ) -> Vec<Point> {
        let head = width.saturating_mul(2).min(items.len());
        if head < items.len() && head > 0 {
            items.select_nth_unstable_by(head - 1, order);
        }
        items[..head].sort_unstable_by(order);
        reorder_head(&mut items[..head]);
        let mut out = Vec::with_capacity(width.min(items.len()));
        for k in 0..items.len() {
            if out.len() >= width {
                break;
            }
            if k == head {
                items[head..].sort_unstable_by(order);
            }
            let p = point(items[k]);
            if self.game.is_legal(p) {
                out.push(p);
            }
        }
        out
    }

    /// The side to move's moves when the opponent threatens two fives
    /// with one stone (a straight four or a double four: a point of its
    /// fours, by the patterns, where the rules board finds two fives,
    /// not forbidden to it under renju) and has no five: any other move
    /// lets that stone be played, and loses. So only our fours (they
    /// force an answer first) and the points of the opponent's fours
    /// (the threat's own points, and those that shorten its lines) are
    /// worth a search, best valued first, at most [`WIDTH`]. `None` when
    /// the opponent threatens no two fives, or nothing legal answers
    /// them; always under Pente (a capture can break a three from
    /// anywhere) and on the hexagon (not measured there: the contest's
    /// engine plays as before).
    pub(super) fn answers_to_three(&self) -> Option<Vec<Point>> {
        if !self.square_without_captures() {
            return None;
        }
        let me = self.game.to_move();
        let them = me.other();
        let threatened = self.valuation.four_points(them).any(|p| {
            self.game.fives_through(p, them).count >= 2
                && !(them == Color::Black && self.game.is_forbidden(p))
        });
        if !threatened {
            return None;
        }
        let mut out: Vec<(i64, Point)> = self
            .valuation
            .four_points(me)
            .chain(self.valuation.four_points(them))
            .filter(|&p| self.game.is_legal(p))
            .map(|p| (self.valuation.value(p, me), p))
            .collect();
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.dedup_by_key(|e| e.1);
        out.truncate(WIDTH);
        (!out.is_empty()).then(|| out.into_iter().map(|(_, p)| p).collect())
    }

    /// The empty points the patterns propose, each with its value for
    /// the side to move, unsorted.
    fn valued_proposals(&self) -> Vec<(i64, Point)> {
        self.valuation
            .valued_indexes(self.game.to_move())
            .map(|(k, v)| (v, self.valuation.point_at(k)))
            .filter(|&(_, p)| self.game.is_empty(p))
            .collect()
    }

    /// The competitors the predictor is fitted on: the proposed legal
    /// points with their features, each ranked as
    /// `Engine::best_candidates_by` ranks it (by the pattern values,
    /// reading order on ties).
    pub fn predictor_teams(&self) -> Vec<(Point, Features)> {
        let mut c = self.valued_proposals();
        c.sort_unstable_by_key(|&(v, p)| (std::cmp::Reverse(v), p));
        c.iter()
            .enumerate()
            .filter(|&(_, &(_, p))| self.game.is_legal(p))
            .map(|(k, &(_, p))| (p, point_features(&self.game, p, k)))
            .collect()
    }

    /// Legal points next to a stone (or the centre of an empty board).
    fn near_stones(&self) -> Vec<Point> {
        let n = self.game.size() as i32;
        let centre = Point::new(n / 2, n / 2);
        if self.game.stone_count() == 0 {
            return vec![centre];
        }
        let mut out: Vec<Point> = self
            .game
            .legal_moves()
            .filter(|p| {
                neighbourhood(&self.game)
                    .iter()
                    .any(|&(di, dj)| self.game.stone(Point::new(p.i + di, p.j + dj)).is_some())
            })
            .collect();
        out.sort_by_key(|p| ((p.i - centre.i).abs() + (p.j - centre.j).abs(), *p));
        out
    }

    /// The side to move's score: its pattern potential against the
    /// opponent's (by the leaf table when the engine has one:
    /// [`Engine::leaf_score`]), with what having the move is worth
    /// ([`Engine::move_in_hand`]) and the threat rule's win
    /// ([`Engine::tempo_win`]).
    pub(super) fn evaluate(&self) -> i64 {
        let me = self.game.to_move();
        let captured = |c: Color| {
            CAPTURED_WORTH[usize::from(self.game.captures(c)).min(CAPTURED_WORTH.len() - 1)]
        };
        let noise = self.db.noise();
        let random = if noise > 0 {
            // A personality's random term: a function of the position
            // (its hash), so that the search stays deterministic.
            (crate::seeding::splitmix(self.hash) % (noise as u64 + 1)) as i64
        } else {
            0
        };
        let potential = self.leaf_score().unwrap_or_else(|| {
            self.valuation.total(me) - self.valuation.total(me.other()) + self.move_in_hand()
        });
        potential + captured(me) - captured(me.other())
            + self.capture_in_hand(&CAPTURED_WORTH)
            + random
            + self.tempo_win()
    }

    /// The leaf table's score for the side to move, when the engine has a
    /// table and reads it here (the square, no captures): each kind's
    /// matches of the side to move at the table's first weight, less the
    /// opponent's at its second, each point class's points alike, and
    /// the table's share of the side to move's best point for the move
    /// in hand (in place of [`Engine::move_in_hand`]'s half).
    fn leaf_score(&self) -> Option<i64> {
        let w = self.leaf.filter(|_| self.square_without_captures())?;
        let me = self.game.to_move();
        let counts = Kind::ALL.iter().map(|&k| {
            w.mine(k) * self.valuation.kind_total(me, k)
                - w.theirs(k) * self.valuation.kind_total(me.other(), k)
        });
        let points = PointClass::ALL.iter().map(|&c| {
            w.point_mine[c as usize] * self.valuation.class_total(me, c)
                - w.point_theirs[c as usize] * self.valuation.class_total(me.other(), c)
        });
        let in_hand = self.valuation.best_value(me).unwrap_or(0) * w.move_in_hand / 100;
        Some(counts.sum::<i64>() + points.sum::<i64>() + in_hand)
    }

    /// What having the move is worth to the side to move: half the value
    /// of its best point (its own shapes there and the opponent's it
    /// takes). The pattern sums count both sides' shapes alike, whoever is
    /// to move, but the side to move plays its best point first, so two
    /// positions with the same sums differ by whose turn it is. Half,
    /// because the opponent answers: in self-play at 110,000 nodes a move
    /// (exactly five, 100 games) the half won 64-4-32 against no share, a
    /// quarter 55-3-42 and the whole 55-2-43. 0 under Pente (whose capture
    /// in hand plays this part) and on the hexagon, where it was not
    /// measured.
    fn move_in_hand(&self) -> i64 {
        if !self.square_without_captures() {
            return 0;
        }
        self.valuation.best_value(self.game.to_move()).unwrap_or(0) / 2
    }

    /// [`TEMPO_WIN`] when the side to move wins by the threat rule: the
    /// opponent has no four to play (no point makes a four or a five for
    /// it, by the patterns) and the side to move has a legal point that
    /// makes two fives at once (a straight four or a double four, by the
    /// rules board): the opponent can block one five, cannot answer with
    /// a four of its own, and the other five follows. A leaf's static sum
    /// cannot see this (it values an open three the same for either side
    /// to move); 0 otherwise, always under Pente, where a capture may
    /// break a row, and on the hexagon, where it was not measured (the
    /// contest's engine plays as before).
    pub(super) fn tempo_win(&self) -> i64 {
        if !self.square_without_captures() {
            return 0;
        }
        let me = self.game.to_move();
        if self.valuation.four_points(me.other()).next().is_some() {
            return 0;
        }
        let wins = self
            .valuation
            .four_points(me)
            .any(|p| self.game.fives_through(p, me).count >= 2 && self.game.is_legal(p));
        if wins {
            TEMPO_WIN
        } else {
            0
        }
    }

    /// Starts a step of the choice that may run until `share` of the
    /// budget has elapsed; reads the clock at once, so that a spent
    /// budget stops the step before its first node.
    pub(super) fn begin_step(&mut self, limits: &Limits<'_>, share: f64) {
        self.clock = Clock {
            deadline: limits.budget.map(|b| b.mul_f64(share)),
            node_deadline: limits.max_nodes.map(|n| (n as f64 * share) as u64),
            ticks: 0,
            out: false,
        };
        self.clock.out = self.read_clock(limits);
    }

    /// Narrows the current step's clock to `share` of the time and the
    /// nodes it has left: a part of the step (one of the safety check's
    /// proof searches) that must leave the rest to the others.
    pub(super) fn narrow_clock(&mut self, limits: &Limits<'_>, share: f64) {
        if let Some(d) = self.clock.deadline {
            let now = (limits.elapsed)();
            self.clock.deadline = Some(now + d.saturating_sub(now).mul_f64(share));
        }
        if let Some(n) = self.clock.node_deadline {
            let left = n.saturating_sub(self.nodes) as f64 * share;
            self.clock.node_deadline = Some(self.nodes + left as u64);
        }
    }

    pub(super) fn read_clock(&self, limits: &Limits<'_>) -> bool {
        limits.stop.load(Ordering::Relaxed)
            || self.clock.node_deadline.is_some_and(|n| self.nodes >= n)
            || self.clock.deadline.is_some_and(|d| (limits.elapsed)() >= d)
    }

    /// Whether the current step must stop: the clock is read every
    /// [`TICKS`] calls, and once it has passed the answer stays yes.
    pub(super) fn time_up(&mut self, limits: &Limits<'_>) -> bool {
        if self.clock.out {
            return true;
        }
        self.clock.ticks += 1;
        if self.clock.ticks >= TICKS {
            self.clock.ticks = 0;
            self.clock.out = self.read_clock(limits);
        }
        self.clock.out
    }

    /// The engine's move for the side to move, and why. `None` when the
    /// game is over or no point is legal.
    pub fn choose(&mut self, limits: &Limits<'_>) -> Option<(Point, Reason)> {
        self.nodes = 0;
        // A choice depends on its position only (and its limits), not on
        // what an earlier choice of this engine learnt.
        self.failed.clear();
        self.proofs.clear();
        if self.game.outcome().is_some() {
            return None;
        }
        let me = self.game.to_move();
        if let Some(&p) = self.fives(me).iter().find(|&&p| self.game.is_legal(p)) {
            return Some((p, Reason::Wins));
        }
        let theirs = self.fives(me.other());
        if self.game.rule() == Rule::Pente && !theirs.is_empty() {
            // Block or capture: the search decides between them.
            let answers = self.answers_to_fives(&theirs);
            match answers.as_slice() {
                [] => return self.candidates().first().map(|&p| (p, Reason::Blocks)),
                [p] => return Some((*p, Reason::Blocks)),
                _ => {}
            }
            self.begin_step(limits, SEARCH_END);
            let (p, score, depth) = self.search(&answers, limits);
            return Some((
                p,
                Reason::Search {
                    score,
                    depth,
                    defends: true,
                },
            ));
        }
        if let Some(&p) = theirs.iter().find(|&&p| self.game.is_legal(p)) {
            return Some((p, Reason::Blocks));
        }
        let moves = self.candidates();
        let first = *moves.first()?;
        if moves.len() == 1 || self.game.stone_count() == 0 {
            return Some((first, Reason::Opening));
        }
        // Shares of the budget, each step's end; the last, the search's,
        // is `SEARCH_END`.
        self.begin_step(limits, 0.1);
        if let Some(line) = self.vcf(limits.vcf_depth, limits) {
            return Some((line[0], Reason::Vcf(line)));
        }
        self.begin_step(limits, 0.25);
        let proofs = self.uses_proofs(limits);
        if proofs {
            if let Proof::Win(line) = self.prove(limits, 1.0) {
                if let Some(&p) = line.first() {
                    return Some((p, Reason::Vct(line)));
                }
            }
        } else if let Some(line) = self.deepening_vct(limits) {
            return Some((line[0], Reason::Vct(line)));
        }
        self.begin_step(limits, 0.5);
        let (moves, defends) = if proofs && deep_safety(limits) {
            self.safe_moves_proved(moves, limits)
        } else {
            self.safe_moves(moves, limits)
        };
        // One move left: a search of it would return it, whatever its
        // score, after spending the rest of the budget (on recorded
        // positions, up to 436,000 of 450,000 nodes).
        if let (&[p], true) = (moves.as_slice(), defends) {
            return Some((p, Reason::OnlyDefence));
        }
        self.begin_step(limits, SEARCH_END);
        let (p, score, depth) = self.search(&moves, limits);
        Some((
            p,
            Reason::Search {
                score,
                depth,
                defends,
            },
        ))
    }

    /// Whether this choice searches threats by proof numbers: when the
    /// limits ask for it, on the square, under every rule but Pente
    /// (whose captures bring positions back, which the table's proofs do
    /// not allow for).
    fn uses_proofs(&self, limits: &Limits<'_>) -> bool {
        limits.proof_search && self.square_without_captures()
    }

    /// How deep the safety check looks for the opponent's VCT: no deeper
    /// than [`SAFETY_VCT_DEPTH`] on the square; `vct_depth` on the
    /// hexagon, whose contest engine was measured so and plays as
    /// before (its root VCT does not deepen either).
    pub(super) fn safety_vct_depth(&self, limits: &Limits<'_>) -> u32 {
        if G::GEOMETRY == Geometry::Square {
            limits.vct_depth.min(SAFETY_VCT_DEPTH)
        } else {
            limits.vct_depth
        }
    }

    /// Our VCT at the root: the safety check's depth first
    /// ([`SAFETY_VCT_DEPTH`] on the square), then two deeper at a time
    /// up to `vct_depth`, until one wins or the step's share of the
    /// budget is spent. A deeper VCT can cost many times the last (in
    /// one recorded position the whole choice with VCT depth 4 took
    /// 425,166 nodes, while the VCT alone at depth 6 had not ended after
    /// 7,245,629), so the shallow ones answer first; each starts from
    /// the failures the last remembered.
    fn deepening_vct(&mut self, limits: &Limits<'_>) -> Option<Vec<Point>> {
        let mut depth = self.safety_vct_depth(limits);
        loop {
            if let Some(line) = self.vct(depth, limits) {
                return Some(line);
            }
            if depth >= limits.vct_depth || self.clock.out {
                return None;
            }
            depth = (depth + 2).min(limits.vct_depth);
        }
    }

    /// Whether the game is on the square under a rule without captures
    /// (every rule but Pente): where the engine's later parts (the move
    /// in hand, the tempo win, the answers to a three, the proof search,
    /// late move reductions, the move of a stopped iteration) were
    /// measured; Pente and the hexagon's contest engine play as before
    /// them.
    pub(super) fn square_without_captures(&self) -> bool {
        square_without_captures::<G>(self.game.rule())
    }

    /// Plays `p` for the side to move.
    pub fn play(&mut self, p: Point) -> bool {
        self.make(p)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        self.unmake()
    }
}

/// The least budget a move needs for the safety check to read the
/// opponent's threats by proof numbers: with less, its searches rarely
/// end, and the depth-first check, complete to its depth, does better.
/// At 100 ms a move against the seed's player (`five_games -- 100 100`)
/// the proof-number check lost 5 and 7 of 100 games where the
/// depth-first one lost 2; at 1 s a move against Rapfi it won more.
pub const DEEP_SAFETY_BUDGET: Duration = Duration::from_millis(500);

/// [`DEEP_SAFETY_BUDGET`] in nodes (a fixed amount of work a move: about
/// half a second's).
pub const DEEP_SAFETY_NODES: u64 = 150_000;

/// Whether the safety check of a choice under `limits` may read by proof
/// numbers: when neither its budget nor its node limit is below the
/// least ([`DEEP_SAFETY_BUDGET`], [`DEEP_SAFETY_NODES`]).
fn deep_safety(limits: &Limits<'_>) -> bool {
    limits.budget.is_none_or(|b| b >= DEEP_SAFETY_BUDGET)
        && limits.max_nodes.is_none_or(|n| n >= DEEP_SAFETY_NODES)
}

/// The valuation of `board` from scratch: through `db`'s line table when
/// it has one, keeping the point classes when `classes` says so.
fn valuation_of<G: FiveGeometry>(
    db: &FiveDatabase<G>,
    board: &Board<G>,
    classes: bool,
) -> Valuation {
    match db.lines() {
        Some(table) if classes => Valuation::with_lines(table, board),
        Some(table) => Valuation::with_lines_without_classes(table, board),
        None => Valuation::new(db.matcher(), db.overlay(), board),
    }
}

/// Whether a search under `rule` with `leaf` reads the point classes: a
/// leaf table with `point` lines, where leaf tables are read
/// ([`Engine::square_without_captures`]). Keeping the classes costs 3 to
/// 5 % of a search, so only then are they kept.
fn reads_classes<G: FiveGeometry>(leaf: Option<&LeafWeights>, rule: Rule) -> bool {
    leaf.is_some_and(LeafWeights::reads_points) && square_without_captures::<G>(rule)
}

/// [`Engine::square_without_captures`] of a game under `rule` on `G`.
fn square_without_captures<G: FiveGeometry>(rule: Rule) -> bool {
    G::GEOMETRY == Geometry::Square && rule != Rule::Pente
}

/// Brings `valuation` up to date after the stone at `p` came or went:
/// by the database's line table when it has one, else by the matcher.
/// A function of the engine's parts, not a method, so that a caller may
/// hold another part (the rules board's captured stones) meanwhile.
fn revalue<G: FiveGeometry>(
    db: &FiveDatabase<G>,
    valuation: &mut Valuation,
    board: &Board<G>,
    p: Point,
) {
    match db.lines() {
        Some(table) => valuation.update_lines(table, board, p),
        None => valuation.update(db.matcher(), db.overlay(), board, p),
    }
}

/// A rule from the Gomocup `rule` bit set: 0 freestyle, 1 exactly five,
/// 4 renju; `None` for the others (continuous games, caro).
pub fn rule_of_gomocup(bits: u32) -> Option<Rule> {
    match bits {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Exact),
        4 | 5 => Some(Rule::Renju),
        _ => None,
    }
}

#[cfg(test)]
mod pente_tests;
#[cfg(test)]
mod proof_tests;
#[cfg(test)]
mod tests;
