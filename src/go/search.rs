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
//!   virtual visits) that grows with its pattern value;
//! - on boards of 13x13 and up, progressive widening opens them in that
//!   order: the best few first, one more each time the root's visits grow
//!   by a quarter, so the playouts are spent where the patterns point;
//! - below the root the children are every legal move that fills no own
//!   eye, with cheap priors (captures up, self-atari down), until a node
//!   has been visited often enough to earn the pattern evaluation of its
//!   own position as priors (off by default: on 9x9 it was measured no
//!   better, 24/40 against 28/40, and slower);
//! - the playouts ([`super::playout`]) play the shapes of
//!   `patterns/playout.db` around the last move.
//!
//! The move played is the root child visited most. What each of these
//! parts is worth is measured by the games benchmark, which can switch
//! each off (`--prior-visits 0`, `--no-widening`, `--knowledge-visits 0`,
//! `--no-shapes`).
//!
//! Without a clock budget everything is a function of the game's seed and
//! the position: same inputs, same move.

use super::evaluation::Evaluation;
use super::fastboard::{cell, FastBoard};
use super::game::Game;
use super::playout::{Playout, Rng};
use super::shapes::ShapeTable;
use crate::position::{Color, Point};

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
    /// visits grow by a quarter (false: all from the start, on every
    /// board).
    pub widening: bool,
    /// A clock budget for the move (GTP `time_settings`/`time_left`):
    /// when set, the search runs until it is spent — at least 100
    /// playouts, at most 100 times `playouts` — and is no longer a
    /// function of the position alone.
    pub time_budget: Option<std::time::Duration>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            playouts: 10_000,
            prior_visits: 20.0,
            shapes: true,
            knowledge_visits: 0,
            widening: true,
            time_budget: None,
        }
    }
}

/// What the search found for one root child.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats {
    pub point: Point,
    /// The pattern value the prior came from.
    pub value: i32,
    /// Real visits (playouts through this move).
    pub visits: u32,
    /// Wins of the side to move over those visits.
    pub winrate: f32,
}

/// The search's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited root child.
    pub best: Point,
    /// Root children, most visited first.
    pub children: Vec<ChildStats>,
    pub playouts: u32,
    /// The winning rate of the side to move, by the playouts.
    pub winrate: f32,
}

const NO_CHILDREN: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    /// The move that led here (board index).
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

/// Progressive widening at the root: how many candidates are open after
/// `visits` playouts — [`WIDEN_START`] at first, one more each time the
/// visits grow by the factor [`WIDEN_FACTOR`] past [`WIDEN_VISITS`].
fn widened(visits: u32) -> u32 {
    if visits <= WIDEN_VISITS {
        return WIDEN_START;
    }
    let steps = ((visits as f32 / WIDEN_VISITS as f32).ln() / WIDEN_FACTOR.ln()) as u32;
    WIDEN_START + steps
}
const WIDEN_START: u32 = 8;
/// The smallest board side with widening: on 9x9 the playouts reach every
/// candidate anyway, and widening was measured worse there (57% against
/// 72% over 60 games against GNU Go level 0, 3000 playouts).
pub const WIDEN_FROM_SIDE: usize = 13;
const WIDEN_VISITS: u32 = 30;
const WIDEN_FACTOR: f32 = 1.25;

/// The prior win rate of a candidate of pattern value `v`. A fill
/// (value 20 or less: no pattern, no tactical reason) is a little below
/// even, less so the more open the point (the fill value), since the
/// database cannot know every good move; pattern and tactical values
/// above that raise it, saturating at 120.
fn root_prior(v: i32) -> f32 {
    if v <= 20 {
        0.35 + 0.1 * (v.max(0) as f32 / 20.0)
    } else {
        0.5 + 0.25 * ((v.min(120) - 20) as f32 / 100.0)
    }
}

/// Searches the position of `game` for `color`, among the candidates of
/// `eval`; `None` when there is no candidate.
pub fn search(
    game: &Game,
    color: Color,
    eval: &Evaluation,
    opts: SearchOptions,
) -> Option<SearchResult> {
    let candidates: Vec<(Point, i32)> = eval
        .candidates
        .iter()
        .filter(|c| c.value > 0)
        .map(|c| (c.point, c.value))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let goban = game.goban();
    let n = goban.side();
    let root_board = FastBoard::from_goban(goban, color);
    let last = game.history().last().and_then(|(_, m)| match m {
        super::Move::Play(p) => Some(root_board.index(*p)),
        super::Move::Pass => None,
    });
    let seed = game.random_seed()
        ^ goban.stones_hash().rotate_left(29)
        ^ (game.history().len() as u64).wrapping_mul(0x9e37_79b9);
    let mut s = Search {
        game,
        widen: opts.widening && n >= WIDEN_FROM_SIDE,
        opts,
        nodes: Vec::with_capacity(opts.playouts.min(100_000) as usize * 4),
        root_board,
        root_color: cell(color),
        last,
        komi: game.komi(),
        rng: Rng::new(seed),
        playout: if opts.shapes {
            Playout::new()
        } else {
            Playout::with_shapes(ShapeTable::none())
        },
        path: Vec::new(),
        owner: vec![0; (n + 2) * (n + 2)],
    };
    s.nodes.push(Node::new(0, 0.0, 0.0));
    s.nodes[0].known = true;
    // The root's children: the pattern candidates, with their priors.
    s.nodes[0].first_child = 1;
    s.nodes[0].children = candidates.len() as u16;
    let prior_visits = opts.prior_visits;
    for &(p, v) in &candidates {
        let k = s.root_board.index(p);
        s.nodes.push(Node::new(k, prior_visits, root_prior(v)));
    }
    let played = match opts.time_budget {
        None => {
            for _ in 0..opts.playouts {
                s.iterate();
            }
            opts.playouts
        }
        Some(budget) => {
            let start = std::time::Instant::now();
            let most = opts.playouts.saturating_mul(100).max(100);
            let mut done = 0;
            while done < most && (done < 100 || start.elapsed() < budget) {
                // The clock is read every 32 playouts.
                for _ in 0..32 {
                    s.iterate();
                }
                done += 32;
            }
            done
        }
    };
    let first = s.nodes[0].first_child as usize;
    let mut children: Vec<ChildStats> = candidates
        .iter()
        .enumerate()
        .map(|(i, &(point, value))| {
            let node = &s.nodes[first + i];
            let prior = prior_visits * root_prior(value);
            let wins = node.wins - prior;
            ChildStats {
                point,
                value,
                visits: node.real_visits,
                winrate: if node.real_visits > 0 {
                    wins / node.real_visits as f32
                } else {
                    0.0
                },
            }
        })
        .collect();
    // Most visited first; ties by pattern value, then by the candidate
    // order (which is deterministic).
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.cmp(&a.value)));
    let root = &s.nodes[0];
    Some(SearchResult {
        best: children[0].point,
        winrate: if root.real_visits > 0 {
            1.0 - root.wins / root.real_visits as f32
        } else {
            0.5
        },
        children,
        playouts: played,
    })
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
            board.play(mv, to_move);
            seq.push((mv, to_move));
            last = Some(mv);
            to_move = 3 - to_move;
            node = child;
            self.path.push(node);
        }
        // Simulation.
        let tree_moves = seq.len();
        let score = self.playout.run(&mut board, to_move, last, &mut self.rng);
        seq.extend_from_slice(&self.playout.moves);
        let black_wins = score as f32 - self.komi > 0.0;
        self.backup(&seq, tree_moves, black_wins);
    }

    /// Gives `node` its children: every legal move of `to_move` that
    /// fills no own eye. False when there is none.
    fn expand(&mut self, node: u32, board: &FastBoard, to_move: u8) -> bool {
        let first = self.nodes.len() as u32;
        let mut count = 0u16;
        for &k in board.empty_points() {
            if board.is_eye(k, to_move) || !board.is_legal(k, to_move) {
                continue;
            }
            let (libs, captures, stones) = board.after_move(k, to_move);
            let (pv, rate) = if captures {
                (20.0, 0.8)
            } else if libs <= 1 {
                (20.0, if stones >= 2 { 0.05 } else { 0.2 })
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
            let p = self.root_board.point(k);
            if g.play(colour(c), super::Move::Play(p)).is_err() {
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
            count = count.min(widened(n.real_visits));
        }
        let log_n = ((n.real_visits + 1) as f32).ln();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for c in first..first + count {
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
            if value > best_value && board.is_legal(ch.mv, to_move) {
                best_value = value;
                best = Some(c);
            }
        }
        best
    }

    /// Updates the path's statistics, and the AMAF statistics of the
    /// children of every node on the path.
    fn backup(&mut self, seq: &[(u16, u8)], tree_moves: usize, black_wins: bool) {
        let winner = if black_wins { 1u8 } else { 2u8 };
        for v in self.owner.iter_mut() {
            *v = 0;
        }
        // Walk the sequence backwards so that `owner` holds the first
        // player of each point in seq[t..] when node t is updated.
        for t in (0..=seq.len()).rev() {
            if t < seq.len() {
                let (k, c) = seq[t];
                self.owner[k as usize] = c;
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
            if mover == winner {
                n.wins += 1.0;
            }
            // AMAF: children whose move the player to move here played
            // first later on.
            let to_move = 3 - mover;
            if n.first_child != NO_CHILDREN {
                let (first, count) = (n.first_child, n.children as u32);
                for c in first..first + count {
                    let ch = &mut self.nodes[c as usize];
                    if self.owner[ch.mv as usize] == to_move {
                        ch.amaf_visits += 1.0;
                        if to_move == winner {
                            ch.amaf_wins += 1.0;
                        }
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
        // Every root child is a candidate of the evaluation.
        for c in &a.children {
            assert!(eval.candidates.iter().any(|e| e.point == c.point));
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
        ] {
            let eval = movegen::evaluate(&g, Color::Black, EvalOptions::default());
            let r = search(&g, Color::Black, &eval, opts).unwrap();
            assert!(
                [pt("F4"), pt("F5")].contains(&r.best),
                "{:?}",
                &r.children[..3]
            );
            assert!(r.winrate > 0.6, "black: {}", r.winrate);
            let eval = movegen::evaluate(&g, Color::White, EvalOptions::default());
            let r = search(&g, Color::White, &eval, opts).unwrap();
            assert_eq!(r.best, pt("F5"), "{:?}", &r.children[..3]);
            assert!(r.winrate > 0.6, "white: {}", r.winrate);
        }
    }
}

/// The clock budget for one move, from GTP time settings: `main`, `byo`
/// and `byo_stones` as `time_settings` gave them, `left`/`stones` as the
/// last `time_left` (or the main time at the start), `empty` the empty
/// points on the board. `None` when there is no limit (GTP: byo-yomi
/// time but no stones). In main time the remaining time is shared over
/// the moves still to come (a third of the empty points, at least 15),
/// keeping a little back; in byo-yomi, 80% of the period over its stones.
pub fn move_budget(
    main: f64,
    byo: f64,
    byo_stones: u32,
    left: f64,
    stones: u32,
    empty: usize,
) -> Option<std::time::Duration> {
    if main <= 0.0 && byo > 0.0 && byo_stones == 0 {
        return None;
    }
    let secs = if stones > 0 {
        0.8 * left / f64::from(stones)
    } else {
        let moves = (empty / 3).max(15) as f64;
        let from_main = left / moves;
        // With byo-yomi to come, main time can be spent a little faster.
        if byo > 0.0 && byo_stones > 0 {
            from_main.max(0.5 * byo / f64::from(byo_stones))
        } else {
            from_main
        }
    };
    Some(std::time::Duration::from_secs_f64(secs.clamp(0.01, 600.0)))
}

#[cfg(test)]
mod budget_tests {
    use super::move_budget;
    use std::time::Duration;

    #[test]
    fn budgets_follow_the_clock() {
        // No limit: byo-yomi time without stones.
        assert_eq!(move_budget(0.0, 10.0, 0, 0.0, 0, 81), None);
        // Main time 60 s on an empty 9x9: 60 / 27.
        let b = move_budget(60.0, 0.0, 0, 60.0, 0, 81).unwrap();
        assert!((b.as_secs_f64() - 60.0 / 27.0).abs() < 1e-9);
        // Late in main time with byo-yomi to come: at least half a
        // byo-yomi stone's share.
        let b = move_budget(60.0, 30.0, 10, 1.0, 0, 20).unwrap();
        assert!((b.as_secs_f64() - 1.5).abs() < 1e-9);
        // In byo-yomi: 80% of the period over its stones.
        let b = move_budget(0.0, 30.0, 10, 20.0, 5, 40).unwrap();
        assert!((b.as_secs_f64() - 3.2).abs() < 1e-9);
        // Never zero, never absurd.
        assert_eq!(
            move_budget(10.0, 0.0, 0, 0.0, 0, 50),
            Some(Duration::from_millis(10))
        );
    }
}
