//! Pattern-guided Monte Carlo tree search: the pattern move generator
//! proposes, random games decide.
//!
//! The seed's engine plays the heaviest candidate of the pattern
//! evaluation. Pattern weights are good at saying *which* moves are worth
//! looking at and poor at comparing a corner enclosure with the life of a
//! group across the board; random games played to the end compare them in
//! the only unit that matters, the result. So, when a game has
//! [`SearchOptions`] (`katachi gtp` does by default), UCT with RAVE
//! (all-moves-as-first statistics) chooses among the candidates:
//!
//! - the root's children are exactly the candidates of the pattern
//!   [`Evaluation`], in its order, each with a *prior* (virtual wins over
//!   virtual visits) that grows with its pattern value; while a corner
//!   of a board of 17x17 and up is open ([`Reason::Corner`]), only its
//!   key points, the candidates valued as much and the captures, saves
//!   and weak-dragon moves (light random games prefer the centre and
//!   would give the corners away);
//! - on boards of 13x13 and up, progressive widening opens them in that
//!   order: the best few first, one more each time the root's visits grow
//!   by a quarter, so the playouts are spent where the patterns point;
//! - below the root the children are every legal move that fills no own
//!   eye, with cheap priors: captures up, self-atari down, and, when
//!   asked, from what the point looks like (`tree_prior`: a playout
//!   shape or a point touching the last move up, an empty first-line
//!   point down; off by default, no gain measured against GNU Go); a node
//!   visited often enough can also earn the pattern evaluation of its
//!   own position as priors (off by default: on 9x9 it was measured no
//!   better, 24/40 against 28/40, and slower);
//! - the playouts ([`super::playout`]) play the shapes of
//!   `patterns/playout.db` around the last move, and run out of atari
//!   only where that is not a ladder ([`super::ladder`]); with
//!   [`SearchOptions::last_good_reply`] they also replay the answers
//!   that won earlier playouts of the same search, and with
//!   [`SearchOptions::nakade`] they play the vital point of a dead eye
//!   shape a capture leaves (both off by default);
//! - a playout is worth its result, or with
//!   [`SearchOptions::score_weight`] partly its margin, judged against
//!   the komi, or with [`SearchOptions::dynamic_komi`] against a komi
//!   raised against a side far ahead (both off by default).
//!
//! The move played is the root child visited most, but where the pass
//! and the best move are measured alike the scoring decides
//! (`final_choice`). What each of these
//! parts is worth is measured by the games benchmark, which can switch
//! each off (`--prior-visits 0`, `--no-widening`, `--knowledge-visits 0`,
//! `--no-shapes`, `--no-ladders`) or on (`--fill-board`,
//! `--last-good-reply`, `--nakade`, `--score-weight W`,
//! `--dynamic-komi`).
//!
//! Without a clock budget everything is a function of the game's seed and
//! the position: same inputs, same move.

use super::deadline::{Clock, Deadline, WallClock};
use super::evaluation::{Evaluation, Reason};
use super::fastboard::{cell, FastBoard, BLACK};
use super::game::{Game, Move};
#[cfg(doc)]
use super::movegen::FUSEKI_FROM_SIDE;
use super::playout::{Playout, Rng};
use super::predictor::{self, Predictor};
use super::rules::Scoring;
use super::shapes::ShapeTable;
use crate::position::{Color, Point, Position};

/// How the search is driven.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchOptions {
    /// Random games per move.
    pub playouts: u32,
    /// Virtual visits of a root prior: how long the pattern value holds
    /// against what the playouts say (0: no pattern priors).
    pub prior_visits: f32,
    /// Play the shapes of `patterns/playout.db` around the last move in
    /// the playouts (false: captures, escapes and random moves only).
    pub shapes: bool,
    /// Below the root, a node visited this often gets the pattern
    /// evaluation of its position as priors for its children, as the root
    /// has from the start (0: the root only). Costs one evaluation per
    /// such node.
    pub knowledge_visits: u32,
    /// Progressive widening at the root on boards of side
    /// [`WIDEN_FROM_SIDE`] and up: consider the candidates in the pattern
    /// engine's order, the best few first, one more each time the root's
    /// visits grow by a quarter (from [`NARROW_FROM_SIDE`] up fewer at
    /// first, and one more per half; false: all from the start, on every
    /// board).
    pub widening: bool,
    /// While a corner is open (a [`Reason::Corner`] among the candidates:
    /// boards of side [`FUSEKI_FROM_SIDE`] and up), the root's moves
    /// are its key points, the candidates valued as much, and the
    /// captures, saves and weak-dragon moves (false: every candidate and
    /// every other legal move, as later in the game).
    pub corners: bool,
    /// A clock budget for the move (GTP `time_settings`/`time_left`),
    /// counted from the origin of the search's clock ([`search_on`];
    /// [`search`] starts one): when set, the search runs batches of
    /// playouts while another fits in it ([`Deadline::another_batch`]),
    /// at most 100 times `playouts`, and is no longer a function of the
    /// position alone.
    pub time_budget: Option<std::time::Duration>,
    /// Search threads: each grows its own tree from its own seed with its
    /// share of the playouts (or the whole clock budget), and the root
    /// statistics are summed (root parallelism). With a fixed number of
    /// playouts the result is a function of the position, the seed and
    /// the number of threads.
    pub threads: usize,
    /// Resign when the best move wins fewer than this share of its
    /// playouts (0: never resign). See [`should_resign`].
    pub resign_threshold: f32,
    /// The cleanup phase of a disputed game (GTP `kgs-genmove_cleanup`):
    /// every stone on the board counts, and the search does not pass while
    /// the opponent has stones the ownership estimate finds dead.
    pub cleanup: bool,
    /// Priors for the children of nodes below the root from what a point
    /// looks like (`tree_prior`): a shape of `patterns/playout.db`, the
    /// neighbourhood of the last move, a first-line point far from every
    /// stone (false: captures and self-ataris only). Off by default: it
    /// won 24 of 40 in 13x13 self-play, but 2 of 20 against GNU Go level
    /// 10 on 13x13 where the search without it won 4 of 20
    /// (`docs/go-strength.md`).
    pub tree_priors: bool,
    /// Ladders read in the playouts ([`Playout::with_ladders`]): an own
    /// string in atari runs only where that is not a ladder (false: it
    /// runs wherever the extension has two liberties).
    pub ladders: bool,
    /// Fill the board in the playouts ([`Playout::with_fill_board`]):
    /// before a random move, a few points are tried for one in an empty
    /// area.
    pub fill_board: bool,
    /// Last good replies in the playouts ([`Playout::with_replies`]): the
    /// playouts of one search learn from each other which answer to a
    /// move won, and play it again. Off by default: on 13x13 against GNU
    /// Go level 10 it won 2 of 11 games where the search without it won 4
    /// of the same 11 (`docs/go-strength.md`).
    pub last_good_reply: bool,
    /// The nakade answer in the playouts ([`Playout::with_nakade`]):
    /// after a capture that leaves a dead eye shape, its vital point. Off
    /// by default: on 13x13 against GNU Go level 10 it won 6 of 20 where
    /// the same engine without it won 5 and 9 (`docs/go-strength.md`).
    pub nakade: bool,
    /// How much of a playout's worth is its margin rather than its result
    /// (0: a win is worth 1 and a loss 0, whatever the count). With a
    /// weight `w` a playout is worth `(1 - w) * won + w * m`, where `m`
    /// grows from 0 to 1 with the margin (one half at a drawn count,
    /// about 0.88 at a board's side in points): the search then prefers,
    /// among moves that win alike, the one that wins by more, and among
    /// lost ones the one that loses by less, as Fuego's score
    /// modification does. The win rates it reports are these worths. 0 by
    /// default: at 0.1 it won 7 of 20 on 13x13 against GNU Go level 10
    /// (`docs/go-strength.md`).
    pub score_weight: f32,
    /// A safety margin when ahead (a dynamic komi): after a quarter of
    /// the playouts, when the side to move wins at least
    /// [`DYNAMIC_KOMI_AHEAD`] of them, the rest are judged against a komi
    /// raised against it by half its median margin (at most the board's
    /// side in points). A search far ahead otherwise finds every move
    /// winning alike and gives points away until the game is close by its
    /// playouts' count, which can misjudge it. The win rates it reports
    /// mix the two komis. Off by default: it won 7 of 20 on 13x13 against
    /// GNU Go level 10 (`docs/go-strength.md`).
    pub dynamic_komi: bool,
    /// The move predictor ([`super::predictor`]: the built-in table,
    /// [`Predictor::builtin`], by default, or one read at run time;
    /// `None` for none) on boards of side [`PREDICT_FROM_SIDE`] and up:
    /// the root's moves are opened in its order (the likeliest first),
    /// each prior half its pattern prior and half one from its
    /// probability relative to the likeliest move's (from 0.3 to 0.7). On
    /// 161 19x19 positions it raised GNU Go's value of the search's move
    /// from 0.172 to 0.253 of its best (`docs/go-strength.md`). The tree
    /// below the root keeps its own priors: the same rates there (10 or
    /// 20 virtual visits a child) moved GNU Go's value of the search's
    /// moves by nothing that could be told from noise
    /// (`docs/go-strength.md`).
    pub predictor: Option<&'static Predictor>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            playouts: 10_000,
            prior_visits: 20.0,
            shapes: true,
            knowledge_visits: 0,
            widening: true,
            corners: true,
            time_budget: None,
            threads: 1,
            resign_threshold: 0.02,
            cleanup: false,
            tree_priors: false,
            ladders: true,
            fill_board: false,
            last_good_reply: false,
            nakade: false,
            score_weight: 0.0,
            dynamic_komi: false,
            predictor: Some(Predictor::builtin()),
        }
    }
}

/// `katachi gtp`'s playouts a move on a board of side `side` when
/// `--playouts` is not given: as many as keep a default engine within
/// 2 s a move on one core at the start of a game (where playouts are
/// longest), the budget of the big-board benchmarks. Measured
/// in CPU seconds a move early in a game (README, "Go engine"): about
/// 1.7 s on 9x9 at 40,000 (the setting at which it beat GNU Go 3.8
/// level 10 in 37 of 40 games with the ladders read), 1.8 s on 13x13
/// at 20,000, 1.7 s on 19x19 at 8,000.
pub fn default_playouts(side: usize) -> u32 {
    match side {
        0..=9 => 40_000,
        10..=13 => 20_000,
        _ => 8_000,
    }
}

/// Should the engine resign after `result`, a search for the side to move
/// with `opts`, at move `moves` of a game on a board of side `side`? When
/// the best move's win rate is below the threshold over a meaningful
/// number of playouts, past the first third of the board's points in
/// moves: a lost game is given up, not a hard one.
pub fn should_resign(
    result: &SearchResult,
    opts: &SearchOptions,
    moves: usize,
    side: usize,
) -> bool {
    let Some(best) = result.children.first() else {
        return false;
    };
    opts.resign_threshold > 0.0
        && !opts.cleanup
        && moves >= side * side / 3
        && result.playouts >= 200
        && best.winrate < opts.resign_threshold
        && result.winrate < opts.resign_threshold
}

/// What the search found for one root child.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats {
    /// The move: a candidate point, another legal point, or a pass.
    pub mv: Move,
    /// The pattern value the prior came from (0: not a pattern
    /// candidate, or the pass).
    pub value: i32,
    /// Real visits (playouts through this move).
    pub visits: u32,
    /// Wins of the side to move over those visits.
    pub winrate: f32,
}

/// The search's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play: the most visited root child, or a pass that ends
    /// a won game (see [`search`]).
    pub best: Move,
    /// Root children, most visited first (empty when the game was ended
    /// by a pass without searching).
    pub children: Vec<ChildStats>,
    pub playouts: u32,
    /// The winning rate of the side to move, by the playouts (1 when a
    /// pass wins the game at once).
    pub winrate: f32,
}

const NO_CHILDREN: u32 = u32::MAX;
/// The move index of a pass (board index 0 is a border cell, never a
/// point).
const PASS: u16 = 0;

#[derive(Clone, Debug)]
struct Node {
    /// The move that led here (board index, or [`PASS`]).
    mv: u16,
    /// Visits and wins, priors included, for the player of `mv`.
    visits: f32,
    wins: f32,
    real_visits: u32,
    amaf_visits: f32,
    amaf_wins: f32,
    first_child: u32,
    children: u16,
    /// Whether the pattern evaluation has given the children priors.
    known: bool,
}

impl Node {
    fn new(mv: u16, prior_visits: f32, prior_rate: f32) -> Node {
        Node {
            mv,
            visits: prior_visits,
            wins: prior_visits * prior_rate,
            real_visits: 0,
            amaf_visits: 0.0,
            amaf_wins: 0.0,
            first_child: NO_CHILDREN,
            children: 0,
            known: false,
        }
    }
}

/// RAVE equivalence: the visits at which a move's own statistics weigh as
/// much as its all-moves-as-first ones.
const RAVE_EQUIVALENCE: f32 = 1500.0;
/// A node is expanded once it has been visited this often.
const EXPAND_AFTER: u32 = 2;
/// The tree stops growing at this many nodes (32 bytes each, 64 MB); later
/// playouts still run from its leaves. A long search on 19x19 (every
/// expansion adds a node per legal move) would otherwise grow without
/// bound.
const MAX_NODES: usize = 2_000_000;

/// The share of the first quarter's playouts the side to move must win
/// for [`SearchOptions::dynamic_komi`] to raise the komi against it.
pub const DYNAMIC_KOMI_AHEAD: f32 = 0.8;

/// The komi raised against `root` (1 black, 2 white) when it won at least
/// [`DYNAMIC_KOMI_AHEAD`] of the playouts whose `margins` (its count minus
/// its opponent's, komi included) are given: by half the median margin,
/// at most `cap` points. `None` when it is not that far ahead.
fn dynamic_komi(komi: f32, root: u8, margins: &mut [f32], cap: f32) -> Option<f32> {
    if margins.is_empty() {
        return None;
    }
    let won = margins.iter().filter(|&&m| m > 0.0).count();
    if (won as f32) < DYNAMIC_KOMI_AHEAD * margins.len() as f32 {
        return None;
    }
    margins.sort_unstable_by(f32::total_cmp);
    let median = margins[margins.len() / 2];
    let extra = (0.5 * median).min(cap).max(0.0).floor();
    if extra == 0.0 {
        return None;
    }
    Some(if root == BLACK {
        komi + extra
    } else {
        komi - extra
    })
}

/// A playout's worth to black: 1 or 0 by `black_wins`, with `weight` of
/// it given by the `margin` (black's count minus komi) through a
/// logistic of the margin over `scale` points instead
/// ([`SearchOptions::score_weight`]).
fn outcome(black_wins: bool, margin: f32, weight: f32, scale: f32) -> f32 {
    let won = if black_wins { 1.0 } else { 0.0 };
    if weight == 0.0 {
        return won;
    }
    let m = 0.5 + 0.5 * (margin / scale).tanh();
    (1.0 - weight) * won + weight * m
}

/// Progressive widening at the root: how many candidates are open after
/// `visits` playouts on a board of side `side` — [`WIDEN_START`] at
/// first, one more each time the visits grow by the factor
/// [`WIDEN_FACTOR`] past [`WIDEN_VISITS`]; from [`NARROW_FROM_SIDE`] up,
/// [`NARROW_START`] and [`NARROW_FACTOR`] instead.
fn widened(visits: u32, side: usize) -> u32 {
    let (start, factor) = if side >= NARROW_FROM_SIDE {
        (NARROW_START, NARROW_FACTOR)
    } else {
        (WIDEN_START, WIDEN_FACTOR)
    };
    if visits <= WIDEN_VISITS {
        return start;
    }
    let steps = ((visits as f32 / WIDEN_VISITS as f32).ln() / factor.ln()) as u32;
    start + steps
}
const WIDEN_START: u32 = 8;
/// The smallest board side with widening: on 9x9 the playouts reach every
/// candidate anyway, and widening was measured worse there (57% against
/// 72% over 60 games against GNU Go level 0, 3000 playouts).
pub const WIDEN_FROM_SIDE: usize = 13;
const WIDEN_VISITS: u32 = 30;
const WIDEN_FACTOR: f32 = 1.25;
/// The smallest board side whose root widens more slowly: 4 candidates at
/// first, one more each time the visits grow by half (at 8,000 playouts
/// 17 open instead of 33). A 19x19 search's few thousand light playouts
/// spread over 33 candidates chose almost at random: two seeds agreed on
/// 63 of 202 positions, and GNU Go 3.8 level 10 valued the move at 0.141
/// and 0.156 of its best on average; with the narrower root 76 of 202 and
/// 0.182 and 0.179 (`docs/go-strength.md`, "The root on 19x19"). 13x13,
/// where the widening above met its target, keeps it.
pub const NARROW_FROM_SIDE: usize = 17;
const NARROW_START: u32 = 4;
const NARROW_FACTOR: f32 = 1.5;

/// The highest value the pattern engine gives a fill (a point with no
/// pattern and no tactical reason, valued by its openness).
const FILL_VALUE: i32 = 20;

/// The prior win rate of a candidate of pattern value `v`. A fill
/// (value 20 or less: no pattern, no tactical reason) is a little below
/// even, less so the more open the point (the fill value), since the
/// database cannot know every good move; pattern and tactical values
/// above that raise it, saturating at 120.
fn root_prior(v: i32) -> f32 {
    if v <= FILL_VALUE {
        0.35 + 0.1 * (v.max(0) as f32 / 20.0)
    } else {
        0.5 + 0.25 * ((v.min(120) - 20) as f32 / 100.0)
    }
}

/// The prior win rate of the pass at the root (when the opponent has not
/// just passed): low, so that the playouts must show it is as good as a
/// move before it is chosen.
const PASS_PRIOR: f32 = 0.3;

/// The smallest board side the move predictor orders the search on
/// ([`SearchOptions::predictor`]): it was fitted to 19x19 games.
pub const PREDICT_FROM_SIDE: usize = 17;

/// The prior win rate of a move whose predicted strength is `rel` times
/// its likeliest sibling's: from 0.3 for the unlikely to 0.7 for the
/// likeliest, by the square root, so that the few likely moves stand
/// apart and the rest keep a chance.
fn predictor_rate(rel: f32) -> f32 {
    0.3 + 0.4 * rel.clamp(0.0, 1.0).sqrt()
}

/// Virtual visits of a [`tree_prior`].
const TREE_PRIOR_VISITS: f32 = 10.0;

/// The prior (virtual visits, win rate) of a quiet move `k` of `c` below
/// the root, from what the point looks like; `last` is the move just
/// played. A search on 13x13 and up reaches a node's children mostly
/// through the all-moves-as-first statistics, which cannot tell a reply
/// to the last move from a point in the void until many playouts have
/// passed: the priors tell them at once, as MoGo's and Fuego's trees do.
/// A shape of the playout table or a point touching the last move is
/// raised, both more; a first-line point with no stone within two points
/// is lowered (it is almost never the move). Anything else gets none.
fn tree_prior(
    board: &FastBoard,
    k: u16,
    c: u8,
    last: Option<u16>,
    shapes: &ShapeTable,
) -> (f32, f32) {
    let shape = shapes.weight(board.neighbourhood(k, c));
    let near = last.is_some_and(|l| board.eight(l).contains(&k));
    if shape > 0 || near {
        let mut rate = 0.55;
        if near {
            rate += 0.1;
        }
        if shape > 0 {
            rate += 0.05 + 0.1 * (shape.min(50) as f32 / 50.0);
        }
        return (TREE_PRIOR_VISITS, rate);
    }
    let p = board.point(k);
    if line(p, board.side() as i32) == 0 && !stone_within_two(board, p) {
        return (TREE_PRIOR_VISITS, 0.3);
    }
    (0.0, 0.0)
}

/// The line of `p` on a board of side `n`: 0 on the edge, 2 for the
/// third line.
fn line(p: Point, n: i32) -> i32 {
    p.i.min(p.j).min(n - 1 - p.i).min(n - 1 - p.j)
}

/// Is there a stone within two points (in both directions) of `p`?
fn stone_within_two(board: &FastBoard, p: Point) -> bool {
    let n = board.side() as i32;
    for i in (p.i - 2).max(0)..=(p.i + 2).min(n - 1) {
        for j in (p.j - 2).max(0)..=(p.j + 2).min(n - 1) {
            if board.at(board.index(Point::new(i, j))) != super::fastboard::EMPTY {
                return true;
            }
        }
    }
    false
}

/// One root child before the search: its move index, pattern value and
/// prior win rate.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: u16,
    value: i32,
    prior: f32,
}

impl RootMove {
    /// The pattern candidate at `p` of value `v`, its prior from the value.
    fn candidate(board: &FastBoard, p: Point, v: i32) -> RootMove {
        RootMove {
            mv: board.index(p),
            value: v,
            prior: root_prior(v),
        }
    }
}

/// Searches the position of `game` for `color` among the root moves the
/// pattern evaluation `eval` leads to; `None` when the side to move has
/// no move at all but a pass (then passing is all there is).
///
/// The root's children are the pattern candidates in their order; then
/// every other legal point that fills no true own eye nor recreates an
/// earlier position (a false eye that connects, a throw-in, a capture the
/// patterns missed), with a prior from its tactics; then the pass. The
/// pass is a move like the others, measured by playouts in which the
/// opponent moves next, so the search never passes while its stones can
/// be saved or the opponent's captured for the game. When the opponent
/// has just passed, a pass ends the game: it is played at once when it
/// wins under the game's rules (dead stones removed as the rules say,
/// and, under area rules, also counting every stone on the board as
/// Tromp–Taylor does, so that a referee of either kind agrees), and left
/// out when it does not. On a board of at most one stone the candidates
/// are only the points of the third to fifth lines.
pub fn search(
    game: &Game,
    color: Color,
    eval: &Evaluation,
    opts: SearchOptions,
) -> Option<SearchResult> {
    search_on(game, color, eval, opts, &WallClock::start())
}

/// [`search`] with the time budget counted from the origin of `clock`
/// (the arrival of the GTP command, say): the search stops when another
/// batch of playouts would end past it ([`Deadline::another_batch`]).
pub fn search_on(
    game: &Game,
    color: Color,
    eval: &Evaluation,
    opts: SearchOptions,
    clock: &dyn Clock,
) -> Option<SearchResult> {
    let deadline = opts.time_budget.map(|at| Deadline { clock, at });
    let goban = game.goban();
    let n = goban.side();
    let root_board = FastBoard::from_goban(goban, color);
    let opponent_passed = matches!(game.history().last(), Some((_, Move::Pass)));
    // In the cleanup phase the opponent's dead stones are captured
    // before any pass.
    let dead_left = opts.cleanup && opponent_dead(game, color);
    if opponent_passed && !dead_left && passing_wins(game, color, opts.cleanup) {
        return Some(SearchResult {
            best: Move::Pass,
            children: Vec::new(),
            playouts: 0,
            winrate: 1.0,
        });
    }
    let mut roots = root_moves(game, color, eval, &root_board, opts.corners);
    if roots.is_empty() {
        return None;
    }
    if let Some(table) = opts.predictor.filter(|_| n >= PREDICT_FROM_SIDE) {
        predictor_order(table, game, &root_board, color, &mut roots);
    }
    // The pass: measured like a move, unless it would end a lost game
    // (the opponent passed) or the controller asks for the dead stones
    // to be captured first (cleanup).
    if !opponent_passed && !dead_left {
        roots.push(RootMove {
            mv: PASS,
            value: 0,
            prior: PASS_PRIOR,
        });
    }
    let last = game.history().last().and_then(|(_, m)| match m {
        Move::Play(p) => Some(root_board.index(*p)),
        Move::Pass => None,
    });
    let seed = game.random_seed()
        ^ goban.stones_hash().rotate_left(29)
        ^ (game.history().len() as u64).wrapping_mul(0x9e37_79b9);
    // Under territory scoring every stone played costs a point against
    // area scoring: the playouts, scored by area, are judged against komi
    // plus black's stones played minus white's by the end of the game —
    // those played so far, and half a stone more for the side to move,
    // who may play the last one (the same for either side to move).
    let komi = match game.rules().scoring() {
        Scoring::Area => game.komi(),
        Scoring::Territory => {
            let to_move = if color == Color::Black { 0.5 } else { -0.5 };
            game.komi() + game.stones_played_difference() as f32 + to_move
        }
    };
    let tree = TreeInputs {
        game,
        roots: &roots,
        root_board,
        root_color: cell(color),
        last,
        komi,
        widen: opts.widening && n >= WIDEN_FROM_SIDE,
        opts,
        deadline,
    };
    let threads = opts.threads.max(1);
    let grown: Vec<Grown> = if threads == 1 {
        vec![tree.grow(seed, opts.playouts)]
    } else {
        // Root parallelism: one tree a thread, each with its own seed and
        // its share of the playouts, their root statistics summed.
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let share = opts.playouts / threads as u32
                        + u32::from((t as u32) < opts.playouts % threads as u32);
                    let tree = &tree;
                    let seed = seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    scope.spawn(move || tree.grow(seed, share))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        })
    };
    let played: u32 = grown.iter().map(|g| g.playouts).sum();
    let mut children: Vec<ChildStats> = roots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let visits: u32 = grown.iter().map(|g| g.children[i].0).sum();
            let wins: f32 = grown.iter().map(|g| g.children[i].1).sum();
            ChildStats {
                mv: if r.mv == PASS {
                    Move::Pass
                } else {
                    Move::Play(tree.root_board.point(r.mv))
                },
                value: r.value,
                visits,
                winrate: if visits > 0 {
                    wins / visits as f32
                } else {
                    0.0
                },
            }
        })
        .collect();
    // Most visited first; ties by pattern value, then by the root order
    // (which is deterministic).
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.cmp(&a.value)));
    let fills_only = eval.best().is_none_or(|c| c.value <= FILL_VALUE);
    let best = final_choice(&children, game.rules().scoring(), fills_only);
    let root_visits: u32 = grown.iter().map(|g| g.root.0).sum();
    let root_wins: f32 = grown.iter().map(|g| g.root.1).sum();
    Some(SearchResult {
        best,
        winrate: if root_visits > 0 {
            1.0 - root_wins / root_visits as f32
        } else {
            0.5
        },
        children,
        playouts: played,
    })
}

/// The move to play from the root's children, most visited first: the
/// most visited, except where the pass and the best move are measured
/// alike and the count says which to prefer.
///
/// - Under territory scoring a stone in one's own area costs a point the
///   playouts (scored by area) do not see: when the patterns propose
///   nothing but fills (`fills_only`), pass whenever the playouts rate
///   the pass as high as the most visited move.
/// - Under area scoring a pass gains nothing a move would not, and hands
///   the opponent a free move: when the pass is the most visited child
///   but the search expects to lose by it (a win rate below one half),
///   play the most visited move instead, unless the playouts rate that
///   move clearly lower (a move inside a seki, say) or have barely tried
///   it. A lost game is played on (or resigned), not passed away while
///   the opponent plays inside it.
fn final_choice(children: &[ChildStats], scoring: Scoring, fills_only: bool) -> Move {
    let Some(first) = children.first() else {
        return Move::Pass;
    };
    let pass = children.iter().find(|c| c.mv == Move::Pass);
    let best_move = children.iter().find(|c| c.mv != Move::Pass);
    let (Some(pass), Some(best_move)) = (pass, best_move) else {
        return first.mv;
    };
    // Enough playouts through the other one to compare them at all.
    let compared = |a: &ChildStats, b: &ChildStats| a.visits * 8 >= b.visits;
    match scoring {
        Scoring::Territory if first.mv != Move::Pass => {
            if fills_only
                && compared(pass, first)
                && pass.winrate + PASS_FOR_FILL_MARGIN >= first.winrate
            {
                Move::Pass
            } else {
                first.mv
            }
        }
        Scoring::Area if first.mv == Move::Pass => {
            if pass.winrate < 0.5
                && compared(best_move, pass)
                && best_move.winrate + PLAY_ON_MARGIN >= pass.winrate
            {
                best_move.mv
            } else {
                Move::Pass
            }
        }
        _ => first.mv,
    }
}

/// How much lower than the most visited move's win rate the pass's may
/// be for it to replace a fill under territory scoring
/// ([`final_choice`]).
const PASS_FOR_FILL_MARGIN: f32 = 0.02;

/// How much lower than the pass's the best move's win rate may be for a
/// losing side to play it rather than pass under area scoring
/// ([`final_choice`]): the playouts' noise, not a real difference.
const PLAY_ON_MARGIN: f32 = 0.05;

/// The root's moves: the pattern candidates (on a board of at most one
/// stone, those of the third to fifth lines when there are any; while a
/// corner is open, those valued as its key points and the tactics), then
/// every other playable point that fills no true own eye.
fn root_moves(
    game: &Game,
    color: Color,
    eval: &Evaluation,
    board: &FastBoard,
    corners: bool,
) -> Vec<RootMove> {
    let goban = game.goban();
    let n = goban.side() as i32;
    let stones = goban.points().filter(|&p| goban.stone(p).is_some()).count();
    let mut candidates: Vec<(Point, i32)> = eval
        .candidates
        .iter()
        .filter(|c| c.value > 0)
        .map(|c| (c.point, c.value))
        .collect();
    if stones <= 1 && n >= 9 {
        let opening: Vec<(Point, i32)> = candidates
            .iter()
            .copied()
            .filter(|&(p, _)| (2..=4).contains(&line(p, n)))
            .collect();
        if !opening.is_empty() {
            // The opening is on the third to fifth lines: nothing else.
            return opening
                .into_iter()
                .map(|(p, v)| RootMove::candidate(board, p, v))
                .collect();
        }
    }
    // The opening of a big board: while a corner is open (no stone in its
    // square, or one away from its key points), the root's moves are its
    // key points, the moves the patterns value as much, and every
    // capture, save and weak-dragon move. Random games cannot see what a
    // corner is worth this early: left free to choose they play in the
    // centre and give the corners away (`docs/go-strength.md`, "The
    // corners").
    let corner = eval
        .candidates
        .iter()
        .filter(|c| c.reasons.iter().any(|r| matches!(r, Reason::Corner { .. })))
        .map(|c| c.value)
        .min();
    if let (true, Some(floor)) = (corners, corner) {
        let urgent = |r: &Reason| {
            matches!(
                r,
                Reason::Capture { .. } | Reason::Save { .. } | Reason::Dragon { .. }
            )
        };
        return eval
            .candidates
            .iter()
            .filter(|c| c.value >= floor || (c.value > 0 && c.reasons.iter().any(urgent)))
            .map(|c| RootMove::candidate(board, c.point, c.value))
            .collect();
    }
    let mut roots: Vec<RootMove> = candidates
        .iter()
        .map(|&(p, v)| RootMove::candidate(board, p, v))
        .collect();
    candidates.sort();
    let c = cell(color);
    let mut probe = goban.clone();
    for &k in board.empty_points() {
        let p = board.point(k);
        if candidates.binary_search_by(|&(q, _)| q.cmp(&p)).is_ok()
            || board.is_eye(k, c)
            || !board.is_legal(k, c)
        {
            continue;
        }
        // Never recreate an earlier position (superko, or a game that
        // would not end).
        if probe.play(p, color).is_err() {
            continue;
        }
        let repeats = game.seen_position(probe.stones_hash());
        probe.undo();
        if repeats {
            continue;
        }
        let (libs, captures, stones) = board.after_move(k, c);
        let prior = if captures {
            0.6
        } else if libs <= 1 {
            if stones >= 2 {
                0.05
            } else {
                0.15
            }
        } else {
            0.3
        };
        roots.push(RootMove {
            mv: k,
            value: 0,
            prior,
        });
    }
    // Deterministic order for the extra moves: by board index.
    let first_extra = candidates.len();
    roots[first_extra..].sort_by_key(|r| r.mv);
    roots
}

/// Orders the root's moves by the move predictor, the likeliest first
/// (ties in their earlier order), each prior the mean of its earlier one
/// and [`predictor_rate`].
fn predictor_order(
    table: &Predictor,
    game: &Game,
    board: &FastBoard,
    color: Color,
    roots: &mut [RootMove],
) {
    let played = |back: usize| {
        let h = game.history();
        h.len().checked_sub(back).and_then(|i| match h[i].1 {
            Move::Play(p) => Some(board.index(p)),
            Move::Pass => None,
        })
    };
    let mut nearest = Vec::new();
    predictor::nearest_stones(board, &mut nearest);
    let ctx = predictor::Context {
        last: played(1),
        last2: played(2),
        nearest: &nearest,
    };
    let c = cell(color);
    let strengths: Vec<f32> = roots
        .iter()
        .map(|r| table.strength_raw(&predictor::raw_features(board, r.mv, c, &ctx)))
        .collect();
    let most = strengths.iter().copied().fold(f32::MIN_POSITIVE, f32::max);
    let mut order: Vec<(f32, RootMove)> =
        strengths.into_iter().zip(roots.iter().copied()).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (slot, (s, mut r)) in roots.iter_mut().zip(order) {
        r.prior = 0.5 * (r.prior + predictor_rate(s / most));
        *slot = r;
    }
}

/// Does `color` win by passing now, the opponent having passed? Under
/// area rules that remove dead stones both counts must win (with the dead
/// stones removed, and with every stone counted as Tromp–Taylor does);
/// with `cleanup` every stone counts.
fn passing_wins(game: &Game, color: Color, cleanup: bool) -> bool {
    let wins = |black_lead: f32| match color {
        Color::Black => black_lead > 0.0,
        Color::White => black_lead < 0.0,
    };
    let rules = game.rules();
    let tt = wins(game.score());
    if cleanup || !rules.removes_dead() {
        return tt;
    }
    let dead = game.dead_stones();
    let counted = wins(game.final_score(&dead));
    match rules.scoring() {
        Scoring::Area => counted && tt,
        Scoring::Territory => counted,
    }
}

/// Has the opponent of `color` stones the ownership estimate finds dead?
fn opponent_dead(game: &Game, color: Color) -> bool {
    game.dead_stones()
        .iter()
        .any(|&p| game.goban().stone(p) == Some(color.other()))
}

/// What every search thread shares: the position, the root's moves and
/// the options.
struct TreeInputs<'g> {
    game: &'g Game,
    roots: &'g [RootMove],
    root_board: FastBoard,
    root_color: u8,
    last: Option<u16>,
    komi: f32,
    widen: bool,
    opts: SearchOptions,
    /// When the answer is due, under a clock.
    deadline: Option<Deadline<'g>>,
}

/// One tree's root statistics: (real visits, wins without priors) per
/// root child, the root's own, and the playouts run.
struct Grown {
    children: Vec<(u32, f32)>,
    root: (u32, f32),
    playouts: u32,
}

impl TreeInputs<'_> {
    /// Grows one tree from `seed`: `playouts` random games, or, under a
    /// deadline, batches of them while another fits.
    fn grow(&self, seed: u64, playouts: u32) -> Grown {
        let n = self.root_board.side();
        let opts = self.opts;
        let mut s = Search {
            game: self.game,
            widen: self.widen,
            opts,
            nodes: Vec::with_capacity(playouts.min(100_000) as usize * 4),
            root_board: self.root_board.clone(),
            root_color: self.root_color,
            last: self.last,
            komi: self.komi,
            rng: Rng::new(seed),
            playout: if opts.shapes {
                Playout::new()
            } else {
                Playout::with_shapes(ShapeTable::none())
            }
            .with_ladders(opts.ladders)
            .with_fill_board(opts.fill_board)
            .with_nakade(opts.nakade)
            .with_replies(opts.last_good_reply),
            path: Vec::new(),
            owner: vec![0; (n + 2) * (n + 2)],
            pass_child: None,
            margins: opts.dynamic_komi.then(Vec::new),
            dynamic_after: (playouts / 4).max(1) as usize,
        };
        s.nodes.push(Node::new(0, 0.0, 0.0));
        s.nodes[0].known = true;
        s.nodes[0].first_child = 1;
        s.nodes[0].children = self.roots.len() as u16;
        let prior_visits = opts.prior_visits;
        for (i, r) in self.roots.iter().enumerate() {
            if r.mv == PASS {
                s.pass_child = Some(1 + i as u32);
            }
            s.nodes.push(Node::new(r.mv, prior_visits, r.prior));
        }
        let played = match self.deadline {
            None => {
                for _ in 0..playouts {
                    s.iterate();
                }
                playouts
            }
            Some(deadline) => {
                let most = opts.playouts.saturating_mul(100).max(100);
                let mut done = 0;
                // The clock is read every 8 playouts (a fraction of a
                // millisecond on 9x9, a few on 19x19).
                let step = 8;
                let since = deadline.clock.now();
                let mut batches = 0;
                while done < most && deadline.another_batch(since, batches) {
                    for _ in 0..step {
                        s.iterate();
                    }
                    done += step;
                    batches += 1;
                }
                done
            }
        };
        let first = s.nodes[0].first_child as usize;
        let children = self
            .roots
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let node = &s.nodes[first + i];
                (node.real_visits, node.wins - prior_visits * r.prior)
            })
            .collect();
        Grown {
            children,
            root: (s.nodes[0].real_visits, s.nodes[0].wins),
            playouts: played,
        }
    }
}

struct Search<'g> {
    game: &'g Game,
    /// Progressive widening at the root (see [`SearchOptions::widening`]).
    widen: bool,
    opts: SearchOptions,
    nodes: Vec<Node>,
    root_board: FastBoard,
    root_color: u8,
    last: Option<u16>,
    komi: f32,
    rng: Rng,
    playout: Playout,
    /// Node indices from the root down, this iteration.
    path: Vec<u32>,
    /// Scratch: per board index, the colour that played there first in
    /// the rest of the sequence (AMAF).
    owner: Vec<u8>,
    /// The root's pass child, open whatever the widening.
    pass_child: Option<u32>,
    /// With [`SearchOptions::dynamic_komi`], the margins of the playouts
    /// so far for the side to move, until the komi is decided.
    margins: Option<Vec<f32>>,
    /// After how many playouts the dynamic komi is decided: a quarter of
    /// this tree's share.
    dynamic_after: usize,
}

impl Search<'_> {
    fn iterate(&mut self) {
        let mut board = self.root_board.clone();
        let mut to_move = self.root_color;
        let mut last = self.last;
        let mut seq: Vec<(u16, u8)> = Vec::new();
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection, expanding on the way.
        loop {
            if self.nodes[node as usize].first_child == NO_CHILDREN
                && (self.nodes[node as usize].real_visits < EXPAND_AFTER
                    || self.nodes.len() >= MAX_NODES
                    || !self.expand(node, &board, to_move))
            {
                break;
            }
            if self.opts.knowledge_visits > 0
                && !self.nodes[node as usize].known
                && self.nodes[node as usize].real_visits >= self.opts.knowledge_visits
            {
                self.add_knowledge(node, &seq, to_move);
            }
            let Some(child) = self.select(node, &board, to_move) else {
                break;
            };
            let mv = self.nodes[child as usize].mv;
            if mv == PASS {
                board.pass();
                last = None;
            } else {
                board.play(mv, to_move);
                last = Some(mv);
            }
            seq.push((mv, to_move));
            to_move = 3 - to_move;
            node = child;
            self.path.push(node);
        }
        // Simulation.
        let tree_moves = seq.len();
        let score = self.playout.run(&mut board, to_move, last, &mut self.rng);
        seq.extend_from_slice(&self.playout.moves);
        // A drawn count (possible when the komi is whole) is a coin toss.
        let margin = score as f32 - self.komi;
        let black_wins = margin > 0.0 || (margin == 0.0 && self.rng.next_u64() & 1 == 1);
        self.playout
            .learn(&seq[..tree_moves], self.last, black_wins);
        // The margin's scale, and the most the komi may rise: the
        // board's side in points.
        let side = self.root_board.side() as f32;
        let black_value = outcome(black_wins, margin, self.opts.score_weight, side);
        self.backup(&seq, tree_moves, black_value);
        if let Some(margins) = &mut self.margins {
            margins.push(if self.root_color == BLACK {
                margin
            } else {
                -margin
            });
            if margins.len() >= self.dynamic_after {
                if let Some(komi) = dynamic_komi(self.komi, self.root_color, margins, side) {
                    self.komi = komi;
                }
                self.margins = None;
            }
        }
    }

    /// Gives `node` its children: every legal move of `to_move` that
    /// fills no own eye. False when there is none.
    fn expand(&mut self, node: u32, board: &FastBoard, to_move: u8) -> bool {
        let first = self.nodes.len() as u32;
        let mut count = 0u16;
        let last = match self.nodes[node as usize].mv {
            PASS => None,
            mv => Some(mv),
        };
        let shapes = if self.opts.tree_priors {
            Some(self.playout.shapes())
        } else {
            None
        };
        for &k in board.empty_points() {
            if board.is_eye(k, to_move) || !board.is_legal(k, to_move) {
                continue;
            }
            let (libs, captures, stones) = board.after_move(k, to_move);
            let (pv, rate) = if captures {
                (20.0, 0.8)
            } else if libs <= 1 {
                (20.0, if stones >= 2 { 0.05 } else { 0.2 })
            } else if let Some(shapes) = shapes {
                tree_prior(board, k, to_move, last, shapes)
            } else {
                (0.0, 0.0)
            };
            self.nodes.push(Node::new(k, pv, rate));
            count += 1;
        }
        if count == 0 {
            return false;
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.children = count;
        true
    }

    /// Gives the children of `node` (reached by the tree moves `seq`) the
    /// priors of the pattern evaluation of its position: a candidate's
    /// by its value, a move the pattern engine does not propose (an own
    /// eye, self-atari, repetition) a poor one.
    fn add_knowledge(&mut self, node: u32, seq: &[(u16, u8)], to_move: u8) {
        self.nodes[node as usize].known = true;
        let mut g = self.game.clone();
        let colour = |c: u8| if c == 1 { Color::Black } else { Color::White };
        for &(k, c) in seq {
            let mv = if k == PASS {
                Move::Pass
            } else {
                Move::Play(self.root_board.point(k))
            };
            if g.play(colour(c), mv).is_err() {
                return;
            }
        }
        let eval = super::movegen::evaluate(&g, colour(to_move), self.game.eval_options());
        let pv = self.opts.prior_visits;
        let n = &self.nodes[node as usize];
        let (first, count) = (n.first_child, n.children as u32);
        if first == NO_CHILDREN {
            return;
        }
        for c in first..first + count {
            let p = self.root_board.point(self.nodes[c as usize].mv);
            let rate = match eval.candidates.iter().find(|e| e.point == p) {
                Some(e) if e.value > 0 => root_prior(e.value),
                _ => 0.2,
            };
            let ch = &mut self.nodes[c as usize];
            ch.visits += pv;
            ch.wins += pv * rate;
        }
    }

    /// The child maximising the RAVE-blended value, with a little UCB
    /// exploration; a child whose move is illegal now (ko) is skipped.
    fn select(&mut self, node: u32, board: &FastBoard, to_move: u8) -> Option<u32> {
        let n = &self.nodes[node as usize];
        if n.first_child == NO_CHILDREN {
            return None;
        }
        let (first, mut count) = (n.first_child, n.children as u32);
        if node == 0 && self.widen {
            count = count.min(widened(n.real_visits, self.root_board.side()));
        }
        let log_n = ((n.real_visits + 1) as f32).ln();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        let pass = if node == 0 { self.pass_child } else { None };
        let open = (first..first + count).chain(pass.filter(|&p| p >= first + count));
        for c in open {
            let ch = &self.nodes[c as usize];
            let q = if ch.visits > 0.0 {
                ch.wins / ch.visits
            } else {
                0.5
            };
            let value = if ch.amaf_visits > 0.0 {
                let aq = ch.amaf_wins / ch.amaf_visits;
                let beta = ch.amaf_visits
                    / (ch.amaf_visits + ch.visits + ch.amaf_visits * ch.visits / RAVE_EQUIVALENCE);
                (1.0 - beta) * q + beta * aq
            } else {
                q
            } + 0.05 * (log_n / (ch.real_visits as f32 + 1.0)).sqrt();
            if value > best_value && (ch.mv == PASS || board.is_legal(ch.mv, to_move)) {
                best_value = value;
                best = Some(c);
            }
        }
        best
    }

    /// Updates the path's statistics, and the AMAF statistics of the
    /// children of every node on the path.
    fn backup(&mut self, seq: &[(u16, u8)], tree_moves: usize, black_value: f32) {
        // What the playout is worth to each colour (cell values 1 and 2).
        let value = [0.0, black_value, 1.0 - black_value];
        for v in self.owner.iter_mut() {
            *v = 0;
        }
        // Walk the sequence backwards so that `owner` holds the first
        // player of each point in seq[t..] when node t is updated.
        for t in (0..=seq.len()).rev() {
            if t < seq.len() {
                let (k, c) = seq[t];
                if k != PASS {
                    self.owner[k as usize] = c;
                }
            }
            if t > tree_moves {
                continue;
            }
            let node = self.path[t];
            // The node's own statistics: the player of its move.
            let mover = if t == 0 {
                3 - self.root_color
            } else {
                seq[t - 1].1
            };
            let n = &mut self.nodes[node as usize];
            n.visits += 1.0;
            n.real_visits += 1;
            n.wins += value[mover as usize];
            // AMAF: children whose move the player to move here played
            // first later on.
            let to_move = 3 - mover;
            if n.first_child != NO_CHILDREN {
                let (first, count) = (n.first_child, n.children as u32);
                for c in first..first + count {
                    let ch = &mut self.nodes[c as usize];
                    if self.owner[ch.mv as usize] == to_move {
                        ch.amaf_visits += 1.0;
                        ch.amaf_wins += value[to_move as usize];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::evaluation::EvalOptions;
    use crate::go::movegen;
    use crate::go::Move;

    fn pt(s: &str) -> Point {
        match crate::go::notation::parse_move(s, 9).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!("a point"),
        }
    }

    fn game_from(moves: &[(Color, &str)]) -> Game {
        let mut g = Game::new(9);
        g.set_komi(7.5);
        for &(c, m) in moves {
            g.play(c, Move::Play(pt(m))).unwrap();
        }
        g
    }

    #[test]
    fn the_search_is_deterministic_and_spends_its_playouts() {
        let g = game_from(&[
            (Color::Black, "E5"),
            (Color::White, "C3"),
            (Color::Black, "G4"),
        ]);
        let eval = movegen::evaluate(&g, Color::White, EvalOptions::default());
        let opts = SearchOptions {
            playouts: 400,
            ..Default::default()
        };
        let a = search(&g, Color::White, &eval, opts).unwrap();
        let b = search(&g, Color::White, &eval, opts).unwrap();
        assert_eq!(a, b);
        let visits: u32 = a.children.iter().map(|c| c.visits).sum();
        assert_eq!(visits, 400);
        assert_eq!(a.playouts, 400);
        // Every root child is a candidate of the evaluation, the pass or
        // another legal move.
        for c in &a.children {
            match c.mv {
                Move::Pass => {}
                Move::Play(p) => {
                    assert!(g.goban().is_legal(p, Color::White), "{p:?}");
                    if c.value > 0 {
                        assert!(eval.candidates.iter().any(|e| e.point == p));
                    }
                }
            }
        }
        assert!(a.children.iter().any(|c| c.mv == Move::Pass));
        // With the last good replies learned across the playouts, still
        // a function of the position and the seed, and another search.
        let replies = SearchOptions {
            last_good_reply: true,
            ..opts
        };
        let c = search(&g, Color::White, &eval, replies).unwrap();
        assert_eq!(c, search(&g, Color::White, &eval, replies).unwrap());
        assert_eq!(c.playouts, 400);
        assert_ne!(c, a);
    }

    /// While a corner of a big board is open, the root holds only its key
    /// points, the moves valued as much, and the tactics: here black's
    /// stone at K10 is in atari and K9 saves it.
    #[test]
    fn in_the_opening_of_a_big_board_the_root_is_the_open_corners_and_the_tactics() {
        let mut g = Game::new(19);
        g.set_komi(7.5);
        let at = |s: &str| match crate::go::notation::parse_move(s, 19).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!("a point"),
        };
        let mut stones = vec![(Color::Black, at("K10"))];
        for w in ["K11", "J10", "L10", "Q16"] {
            stones.push((Color::White, at(w)));
        }
        g.setup(&stones).unwrap();
        let eval = movegen::evaluate(&g, Color::Black, EvalOptions::default());
        let reasons = |p: Point| {
            eval.candidates
                .iter()
                .find(|c| c.point == p)
                .map(|c| c.reasons.clone())
                .unwrap_or_default()
        };
        let floor = eval
            .candidates
            .iter()
            .filter(|c| {
                reasons(c.point)
                    .iter()
                    .any(|r| matches!(r, Reason::Corner { .. }))
            })
            .map(|c| c.value)
            .min()
            .expect("open corners");
        let opts = SearchOptions {
            playouts: 300,
            ..Default::default()
        };
        let r = search(&g, Color::Black, &eval, opts).unwrap();
        let mut saw_save = false;
        for c in &r.children {
            let Move::Play(p) = c.mv else { continue };
            let save = reasons(p).iter().any(|r| matches!(r, Reason::Save { .. }));
            saw_save |= save && p == at("K9");
            assert!(
                c.value >= floor || save,
                "{p:?} valued {} under {floor}",
                c.value
            );
        }
        assert!(saw_save, "the save is a root move");
        // Nothing else: the twelve key points of the three empty corners,
        // the save and the pass.
        assert_eq!(r.children.len(), 14, "{:?}", r.children);
        assert!(r.children.iter().any(|c| c.mv == Move::Pass));
        // Without it, every empty point (none is an own eye or illegal
        // here) and the pass.
        let free = SearchOptions {
            corners: false,
            ..opts
        };
        let r = search(&g, Color::Black, &eval, free).unwrap();
        assert_eq!(r.children.len(), 19 * 19 - 5 + 1);
    }

    /// The root opens 8 candidates and one more per quarter more visits
    /// on 13x13, 4 and one more per half more from 17x17 up.
    #[test]
    fn big_boards_widen_the_root_more_slowly() {
        for side in [13, 15] {
            assert_eq!(widened(0, side), 8);
            assert_eq!(widened(30, side), 8);
            assert_eq!(widened(38, side), 9);
            assert_eq!(widened(8000, side), 33);
        }
        for side in [17, 19] {
            assert_eq!(widened(0, side), 4);
            assert_eq!(widened(38, side), 4);
            assert_eq!(widened(45, side), 5);
            assert_eq!(widened(8000, side), 17);
        }
        for visits in [0, 100, 1000, 100_000] {
            assert!(widened(visits, 19) < widened(visits, 13), "{visits}");
        }
    }

    #[test]
    fn the_search_wins_a_capturing_race() {
        // On 7x7, black A5-E5 and white A4-E4 each have one liberty (F5,
        // F4), and the race decides the game. Black to move captures at
        // F4 or kills by blocking at F5 (white cannot then escape at F4);
        // white to move must capture at F5.
        let pt = |s: &str| match crate::go::notation::parse_move(s, 7).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!("a point"),
        };
        let mut g = Game::new(7);
        g.set_komi(0.5);
        let black = [
            "A3", "B3", "C3", "D3", "E3", "F3", "A5", "B5", "C5", "D5", "E5",
        ];
        let white = [
            "A6", "B6", "C6", "D6", "E6", "G7", "A4", "B4", "C4", "D4", "E4",
        ];
        for (b, w) in black.iter().zip(white.iter()) {
            g.play(Color::Black, Move::Play(pt(b))).unwrap();
            g.play(Color::White, Move::Play(pt(w))).unwrap();
        }
        let playouts = 3000;
        for opts in [
            SearchOptions {
                playouts,
                ..Default::default()
            },
            // Without pattern priors the playouts alone find it.
            SearchOptions {
                playouts,
                prior_visits: 0.0,
                knowledge_visits: 0,
                ..Default::default()
            },
            // Weighing the margin, answering nakade and keeping a
            // margin when ahead change nothing here: the race is the
            // game.
            SearchOptions {
                playouts,
                score_weight: 0.3,
                nakade: true,
                dynamic_komi: true,
                ..Default::default()
            },
        ] {
            let eval = movegen::evaluate(&g, Color::Black, EvalOptions::default());
            let r = search(&g, Color::Black, &eval, opts).unwrap();
            assert!(
                [Move::Play(pt("F4")), Move::Play(pt("F5"))].contains(&r.best),
                "{:?}",
                &r.children[..3]
            );
            assert!(r.winrate > 0.6, "black: {}", r.winrate);
            let eval = movegen::evaluate(&g, Color::White, EvalOptions::default());
            let r = search(&g, Color::White, &eval, opts).unwrap();
            assert_eq!(r.best, Move::Play(pt("F5")), "{:?}", &r.children[..3]);
            assert!(r.winrate > 0.6, "white: {}", r.winrate);
        }
    }
}

#[cfg(test)]
mod outcome_tests {
    use super::{dynamic_komi, outcome};

    #[test]
    fn the_komi_rises_against_a_side_far_ahead_by_half_its_median_margin() {
        // Black won 9 of 10 playouts, by a median of 12.5: the komi rises
        // by 6 against black, or falls by 6 against white.
        let margins = [12.5, 3.5, 20.5, -4.5, 8.5, 15.5, 12.5, 30.5, 10.5, 14.5];
        assert_eq!(dynamic_komi(7.5, 1, &mut margins.clone(), 13.0), Some(13.5));
        assert_eq!(dynamic_komi(7.5, 2, &mut margins.clone(), 13.0), Some(1.5));
        // At most the cap.
        let far = [80.5; 10];
        assert_eq!(dynamic_komi(7.5, 1, &mut far.clone(), 13.0), Some(20.5));
        // Not far enough ahead: 7 of 10 won.
        let close = [12.5, 3.5, 20.5, -4.5, -8.5, 15.5, -12.5, 30.5, 10.5, 14.5];
        assert_eq!(dynamic_komi(7.5, 1, &mut close.clone(), 13.0), None);
        // Ahead by less than two points a playout: nothing to keep.
        let narrow = [1.5; 10];
        assert_eq!(dynamic_komi(7.5, 1, &mut narrow.clone(), 13.0), None);
        assert_eq!(dynamic_komi(7.5, 1, &mut [], 13.0), None);
    }

    #[test]
    fn a_playout_is_worth_its_result_plus_a_share_for_its_margin() {
        // Without a weight: the result alone, whatever the margin.
        for margin in [-80.5, -0.5, 0.5, 80.5] {
            assert_eq!(
                outcome(margin > 0.0, margin, 0.0, 9.0),
                f32::from(margin > 0.0)
            );
        }
        // With one: within 0 and 1, growing with the margin, and any win
        // worth more than any loss.
        let margins = [-200.5, -40.5, -9.5, -0.5, 0.5, 9.5, 40.5, 200.5];
        let worths: Vec<f32> = margins
            .iter()
            .map(|&m| outcome(m > 0.0, m, 0.1, 9.0))
            .collect();
        for w in worths.windows(2) {
            assert!(w[0] < w[1], "{worths:?}");
        }
        assert!(worths[0] >= 0.0 && worths[7] <= 1.0, "{worths:?}");
        assert!(worths[3] < 0.06 && worths[4] > 0.94, "{worths:?}");
        // A margin of the scale (the board's side) is worth about 0.88
        // of the weight.
        let at_scale = outcome(true, 9.0, 0.1, 9.0);
        assert!((at_scale - (0.9 + 0.1 * 0.8808)).abs() < 1e-4, "{at_scale}");
    }
}

#[cfg(test)]
mod tree_prior_tests {
    use super::*;
    use crate::go::fastboard::WHITE;
    use crate::go::playout::tests::diagram as board;

    #[test]
    fn tree_priors_raise_replies_and_shapes_and_lower_empty_edges() {
        // Black has just played at (4,4) under white's (3,4); at (1,1)
        // black and white make a cutting shape around (2,2).
        let b = board(&[
            ". . . . . . . . .",
            ". X O . . . . . .",
            ". O . . . . . . .",
            ". . . O O . . . .",
            ". . . X X . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . X .",
            ". . . . . . . . .",
        ]);
        let shapes = ShapeTable::builtin();
        let at = |i, j| b.index(Point::new(i, j));
        let last = Some(at(4, 4));
        let prior = |i, j| tree_prior(&b, at(i, j), WHITE, last, shapes);
        // Touching the last move: raised.
        let (v, near) = prior(5, 5);
        assert!(v > 0.0 && near > 0.6, "next to the last move: {v} {near}");
        // The cut, far from the last move: a shape of the table, raised.
        assert!(shapes.weight(b.neighbourhood(at(2, 2), WHITE)) > 0);
        let (v, cut) = prior(2, 2);
        assert!(v > 0.0 && cut > 0.55, "a shape: {v} {cut}");
        // A first-line point with no stone within two points: lowered.
        let (v, edge) = prior(0, 8);
        assert!(v > 0.0 && edge < 0.5, "empty edge: {v} {edge}");
        // A first-line point with a stone within two points, and a point
        // in the open far from the last move: no prior.
        assert_eq!(prior(8, 6), (0.0, 0.0));
        assert_eq!(prior(6, 1), (0.0, 0.0));
        // Without a last move, the reply is not raised.
        let none = tree_prior(&b, at(5, 5), WHITE, None, shapes);
        assert_eq!(none, (0.0, 0.0));
    }
}

#[cfg(test)]
mod final_choice_tests {
    use super::*;

    fn child(mv: Move, visits: u32, winrate: f32) -> ChildStats {
        ChildStats {
            mv,
            value: 0,
            visits,
            winrate,
        }
    }

    fn at(i: i32, j: i32) -> Move {
        Move::Play(Point::new(i, j))
    }

    #[test]
    fn a_losing_side_under_area_scoring_plays_on_unless_the_move_is_clearly_worse() {
        let area = Scoring::Area;
        // Losing by the pass, the move as good within the noise: play it.
        let lost = [child(Move::Pass, 400, 0.30), child(at(2, 2), 300, 0.27)];
        assert_eq!(final_choice(&lost, area, false), at(2, 2));
        // The move clearly worse (a stone into a seki, say): pass.
        let seki = [child(Move::Pass, 400, 0.30), child(at(2, 2), 300, 0.20)];
        assert_eq!(final_choice(&seki, area, false), Move::Pass);
        // The move barely tried: no comparison, pass.
        let untried = [child(Move::Pass, 800, 0.30), child(at(2, 2), 99, 0.30)];
        assert_eq!(final_choice(&untried, area, false), Move::Pass);
        let tried = [child(Move::Pass, 800, 0.30), child(at(2, 2), 100, 0.30)];
        assert_eq!(final_choice(&tried, area, false), at(2, 2));
        // Winning by the pass: the game may end.
        let won = [child(Move::Pass, 400, 0.70), child(at(2, 2), 300, 0.70)];
        assert_eq!(final_choice(&won, area, false), Move::Pass);
        // A move most visited is played, whatever the pass's rate.
        let moves = [child(at(2, 2), 400, 0.30), child(Move::Pass, 300, 0.35)];
        assert_eq!(final_choice(&moves, area, true), at(2, 2));
    }

    #[test]
    fn under_territory_scoring_a_fill_gives_way_to_a_pass_rated_as_high() {
        let territory = Scoring::Territory;
        let close = [child(at(2, 2), 400, 0.60), child(Move::Pass, 50, 0.59)];
        assert_eq!(final_choice(&close, territory, true), Move::Pass);
        // Not only fills: the patterns see a move worth playing.
        assert_eq!(final_choice(&close, territory, false), at(2, 2));
        // The pass rated lower, or barely tried.
        let lower = [child(at(2, 2), 400, 0.60), child(Move::Pass, 50, 0.57)];
        assert_eq!(final_choice(&lower, territory, true), at(2, 2));
        let untried = [child(at(2, 2), 400, 0.60), child(Move::Pass, 49, 0.60)];
        assert_eq!(final_choice(&untried, territory, true), at(2, 2));
        // Under territory scoring a losing pass stays the search's.
        let lost = [child(Move::Pass, 400, 0.30), child(at(2, 2), 300, 0.30)];
        assert_eq!(final_choice(&lost, territory, true), Move::Pass);
    }

    #[test]
    fn without_a_pass_or_a_move_the_most_visited_child_is_played() {
        let only_moves = [child(at(1, 1), 10, 0.1), child(at(2, 2), 5, 0.9)];
        assert_eq!(final_choice(&only_moves, Scoring::Area, false), at(1, 1));
        let only_pass = [child(Move::Pass, 10, 0.1)];
        assert_eq!(final_choice(&only_pass, Scoring::Area, false), Move::Pass);
        assert_eq!(final_choice(&[], Scoring::Territory, true), Move::Pass);
    }
}
