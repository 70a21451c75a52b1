//! The deep threat search: depth-first proof-number search (df-pn) over
//! threes and fours, for the side that attacks.
//!
//! `threats.rs` reads threat sequences depth first to a fixed number of
//! the attacker's threats, trying every threat at every node: eight
//! threats is as deep as a move's budget allows there. The games lost to
//! Rapfi were decided by forced lines of twelve and more threats (the
//! loss study, `docs/five-strength.md`), so the engine neither found
//! such wins nor saw them coming. A proof-number search reads where a
//! proof is nearest: it keeps for every position how many leaves would
//! still have to be won (the proof number) and how many lost (the
//! disproof number), and goes down the line that needs the fewest, so a
//! narrow forced line of any length is read long before the wide
//! shallow trees around it. Nagai's depth-first form keeps the numbers
//! in a table ([`Proofs`]) instead of a tree, with Pawlewicz and Lew's
//! 1 + ε thresholds.
//!
//! The game is the same as the depth-first VCT's, stated by the
//! position alone, so that the table may key it by the position's hash:
//!
//! - The attacker to move (an OR node) wins with a five. Facing the
//!   defender's five it must block it; facing two it has lost. Otherwise
//!   it plays one of its fours (every one the patterns list) or of its
//!   threes (the [`PROOF_WIDTH`] best valued).
//! - The defender to move (an AND node) wins with a five. It must block
//!   the attacker's one five, and loses to two. Otherwise the attacker
//!   threatens to make two fives with one stone (a straight four, a
//!   double four), or the defender is free and the attacker's last move
//!   was no threat: not a win. The defender answers with every move
//!   after which no such stone is left (each tried on the rules board
//!   along the threat's lines) and with each of its own fours.
//!
//! A proof is a win under the rule whatever the patterns missed: the
//! rules board confirms every five, renju's forbidden points included,
//! and the defender is given every answer that stops the threat. A
//! disproof only says that no win exists among the threats tried.
//! Under Pente (captures take stones off, so positions come back) and on
//! the hexagon the engine keeps the depth-first search.

use rustc_hash::FxHashMap as HashMap;

use super::engine::{Engine, Limits, WIDTH};
use super::rules::Rule;
use super::search::zobrist;
use super::valuation::FiveGeometry;
use crate::position::{Color, Point, Position};

/// A proof or disproof number that means "solved": a proven node's
/// disproof number and a disproven node's proof number. Sums saturate
/// at it.
const INF: u32 = 1 << 28;

/// How many threes (beside every four) an attacker's node tries, best
/// valued first.
pub(super) const PROOF_WIDTH: usize = 12;

/// The proof number an attacker's three starts from: the defender has
/// about this many answers to one (the points of the straight four and
/// its ends), where a four has one.
const THREE_ANSWERS: u32 = 3;

/// How many positions the table holds before it starts again (about
/// 40 MiB with the map's own overhead).
const CAPACITY: usize = 1 << 20;

/// The most nodes one proof search spends when nothing else limits it
/// (no budget, no node limit: a test, `katachi explain`).
const UNLIMITED_NODES: u64 = 500_000;

/// How many nodes of the opponent's proof tree the safety check reads
/// for the points where a stone of ours may break it.
const PROOF_POINTS_READ: usize = 4000;

/// Mixed into the key when White attacks: the same position is an OR node
/// for one attacker and an AND node for the other.
const WHITE_ATTACKS: u64 = 0x6A09_E667_F3BC_C908;

/// A position's proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
    const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
    const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
}

/// The proof-number table: positions (with the attacker) and their
/// numbers, kept for one choice, so that the safety check's searches for
/// the opponent share what they learnt.
#[derive(Clone, Debug, Default)]
pub(super) struct Proofs {
    map: HashMap<u64, Numbers>,
}

impl Proofs {
    pub(super) fn clear(&mut self) {
        self.map.clear();
    }

    fn get(&self, key: u64) -> Numbers {
        self.get_or(key, Numbers::UNKNOWN)
    }

    /// The numbers of `key`, or `start` for a position not yet read.
    fn get_or(&self, key: u64, start: Numbers) -> Numbers {
        self.map.get(&key).copied().unwrap_or(start)
    }

    fn put(&mut self, key: u64, n: Numbers) {
        if self.map.len() >= CAPACITY && !self.map.contains_key(&key) {
            self.map.clear();
        }
        self.map.insert(key, n);
    }
}

/// What a proof search found for the attacker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    /// A forced win: one line of it (the attacker's moves and the
    /// defender's answers, alternately, the five last when the attacker
    /// is to move at the end).
    Win(Vec<Point>),
    /// No win among the threats tried.
    NoWin,
    /// The budget ran out first.
    Unknown,
}

/// A node's moves, or its outcome when it has none to try.
pub(super) enum Node {
    /// The attacker has won (or wins at once).
    Won,
    /// The attacker cannot win from here.
    Lost,
    /// The moves to try, best first.
    Moves(Vec<Point>),
}

/// `a + b`, saturating at [`INF`].
fn add(a: u32, b: u32) -> u32 {
    (a + b).min(INF)
}

/// The threshold a best child gets from its sibling's number `second`:
/// `second · (1 + ε)`, ε = ¼, and at least one more (Pawlewicz and Lew),
/// so that the search stays in the child a while longer than plain
/// df-pn's `second + 1` and switches less often between two close lines.
fn grow(second: u32) -> u32 {
    if second >= INF {
        INF
    } else {
        (second + 1).max(second + second / 4).min(INF)
    }
}

impl<G: FiveGeometry> Engine<G> {
    /// The table's key for the current position with `attacker`.
    fn proof_key(&self, attacker: Color) -> u64 {
        self.hash
            ^ match attacker {
                Color::Black => 0,
                Color::White => WHITE_ATTACKS,
            }
    }

    /// The key after the side to move plays `p` (no captures: not
    /// Pente).
    fn proof_child_key(&self, attacker: Color, p: Point) -> u64 {
        self.proof_key(attacker) ^ zobrist::stone(p, self.game.to_move()) ^ zobrist::WHITE_TO_MOVE
    }

    /// Whether `color` playing the empty `p` makes two fives at once, and
    /// may play it.
    fn double_five(&self, p: Point, color: Color) -> bool {
        // The forbidden-point check last: it is the dearest, and most
        // points make no two fives.
        self.game.is_empty(p)
            && self.game.fives_through(p, color).count >= 2
            && !(color == Color::Black && self.game.is_forbidden(p))
    }

    /// The current position's moves for a proof search by `attacker`.
    fn proof_node(&mut self, attacker: Color) -> Node {
        if self.game.to_move() == attacker {
            self.attacker_node()
        } else {
            self.defender_node(attacker)
        }
    }

    fn attacker_node(&self) -> Node {
        let me = self.game.to_move();
        if self.has_legal_five(me) {
            return Node::Won;
        }
        match self.fives(me.other()).as_slice() {
            [] => {}
            [f] if self.game.is_legal(*f) => return Node::Moves(vec![*f]),
            _ => return Node::Lost,
        }
        let mut moves = self.fours_to_play();
        let threes = self.threats(|k| k.is_three() && !k.is_four());
        for p in threes.into_iter().take(PROOF_WIDTH) {
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        if moves.is_empty() {
            Node::Lost
        } else {
            Node::Moves(moves)
        }
    }

    pub(super) fn defender_node(&mut self, attacker: Color) -> Node {
        let me = self.game.to_move();
        if self.has_legal_five(me) {
            return Node::Lost;
        }
        match self.fives(attacker).as_slice() {
            [] => {}
            [f] if self.game.is_legal(*f) => return Node::Moves(vec![*f]),
            _ => return Node::Won,
        }
        // The attacker's stones that would make two fives: a defender's
        // stone can only take such points away, so these are all there
        // can be after any answer.
        let fours: Vec<Point> = self.valuation.four_points(attacker).collect();
        let doubles: Vec<Point> = fours
            .iter()
            .copied()
            .filter(|&p| self.double_five(p, attacker))
            .collect();
        if doubles.is_empty() {
            return Node::Lost;
        }
        // A defender's stone only takes the attacker's fives away (a row
        // counts the attacker's stones alone), so after one only these
        // doubles can still be doubles; except under renju for Black,
        // where a White stone that breaks a three can lift a point's ban
        // and let its double five through: there every four is asked.
        let lifts_bans = attacker == Color::Black && self.game.rule() == Rule::Renju;
        let still: &[Point] = if lifts_bans { &fours } else { &doubles };
        let mut tried: Vec<Point> = Vec::new();
        let mut moves = Vec::new();
        for &p in &doubles {
            for (d, &(di, dj)) in self.game.directions().iter().enumerate() {
                // A stone that stops this double five lies on one of its
                // fives' lines, within four steps of it.
                if self.game.fives_on_line(p, attacker, d) == 0 {
                    continue;
                }
                for k in -4..=4 {
                    let q = Point::new(p.i + di * k, p.j + dj * k);
                    if tried.contains(&q) {
                        continue;
                    }
                    tried.push(q);
                    if !self.game.is_legal(q) || self.game.play(q).is_err() {
                        continue;
                    }
                    let stopped = !still.iter().any(|&r| self.double_five(r, attacker));
                    self.game.undo();
                    if stopped {
                        moves.push(q);
                    }
                }
            }
        }
        for q in self.fours_to_play() {
            if !moves.contains(&q) {
                moves.push(q);
            }
        }
        if moves.is_empty() {
            Node::Won
        } else {
            Node::Moves(moves)
        }
    }

    /// Whether a proof search must stop: the step's clock, or the search's
    /// own node limit.
    fn proof_out(&mut self, limits: &Limits<'_>, until: u64) -> bool {
        self.nodes >= until || self.time_up(limits)
    }

    /// Nagai's multiple iterative deepening at the current position: works
    /// below it until its proof number reaches `th_pn` or its disproof
    /// number `th_dn` (or the search must stop), and leaves its numbers
    /// in the table.
    fn mid(&mut self, attacker: Color, th_pn: u32, th_dn: u32, limits: &Limits<'_>, until: u64) {
        let key = self.proof_key(attacker);
        let stored = self.proofs.get(key);
        if stored.pn >= th_pn || stored.dn >= th_dn || self.proof_out(limits, until) {
            return;
        }
        let moves = match self.proof_node(attacker) {
            Node::Won => return self.proofs.put(key, Numbers::PROVEN),
            Node::Lost => return self.proofs.put(key, Numbers::DISPROVEN),
            Node::Moves(m) => m,
        };
        let or = self.game.to_move() == attacker;
        let keys: Vec<u64> = moves
            .iter()
            .map(|&p| self.proof_child_key(attacker, p))
            .collect();
        // A child not yet read starts from what its move is: the
        // defender has one answer to a four and several to a three, so
        // the attacker's fours are read first (df-pn+'s initial numbers).
        let start: Vec<Numbers> = moves
            .iter()
            .map(|&p| {
                let three = or
                    && !self
                        .valuation
                        .threat(p, attacker)
                        .is_some_and(|k| k.is_four());
                if three {
                    Numbers {
                        pn: THREE_ANSWERS,
                        dn: 1,
                    }
                } else {
                    Numbers::UNKNOWN
                }
            })
            .collect();
        loop {
            // OR: the nearest child's proof, every child's disproof; AND
            // the other way round. `best` is the child with the smallest
            // of the numbers taken as a minimum, `second` the next one.
            let (mut min, mut sum) = (INF, 0);
            let (mut best, mut second) = (0, INF);
            for (c, &k) in keys.iter().enumerate() {
                let n = self.proofs.get_or(k, start[c]);
                let (by_min, by_sum) = if or { (n.pn, n.dn) } else { (n.dn, n.pn) };
                sum = add(sum, by_sum);
                if by_min < min {
                    second = min;
                    min = by_min;
                    best = c;
                } else if by_min < second {
                    second = by_min;
                }
            }
            let here = if or {
                Numbers { pn: min, dn: sum }
            } else {
                Numbers { pn: sum, dn: min }
            };
            self.proofs.put(key, here);
            if here.pn >= th_pn || here.dn >= th_dn || self.proof_out(limits, until) {
                return;
            }
            let child = self.proofs.get_or(keys[best], start[best]);
            let (child_pn, child_dn) = if or {
                (
                    th_pn.min(grow(second)),
                    if th_dn >= INF {
                        INF
                    } else {
                        th_dn - here.dn + child.dn
                    },
                )
            } else {
                (
                    if th_pn >= INF {
                        INF
                    } else {
                        th_pn - here.pn + child.pn
                    },
                    th_dn.min(grow(second)),
                )
            };
            if self.make(moves[best]) {
                self.nodes += 1;
                self.mid(attacker, child_pn, child_dn, limits, until);
                self.unmake();
            } else {
                // Not a move after all: no use to its player.
                let dead = if or {
                    Numbers::DISPROVEN
                } else {
                    Numbers::PROVEN
                };
                self.proofs.put(keys[best], dead);
            }
        }
    }

    /// A proof search for the side to move as the attacker, within
    /// `share` of what is left of the step's time and nodes.
    pub(super) fn prove(&mut self, limits: &Limits<'_>, share: f64) -> Proof {
        let attacker = self.game.to_move();
        let until = self.nodes + UNLIMITED_NODES;
        let saved = self.clock;
        self.narrow_clock(limits, share);
        self.mid(attacker, INF, INF, limits, until);
        let out = self.clock.out;
        self.clock = saved;
        // The step's own deadline may have passed meanwhile.
        self.clock.out = out && self.read_clock(limits);
        let root = self.proofs.get(self.proof_key(attacker));
        if root.pn == 0 {
            Proof::Win(self.proof_line(attacker))
        } else if root.dn == 0 {
            Proof::NoWin
        } else {
            Proof::Unknown
        }
    }

    /// One line of a proven position's win, read from the table: the
    /// attacker's proving move and the defender's first answer in turn,
    /// to the five (or to the threat nothing stops).
    fn proof_line(&mut self, attacker: Color) -> Vec<Point> {
        let mut line = Vec::new();
        let mut made = 0;
        loop {
            let moves = match self.proof_node(attacker) {
                Node::Moves(m) => m,
                Node::Won => {
                    // The five, when the attacker is to move: not played,
                    // the game would be over.
                    if self.game.to_move() == attacker {
                        if let Some(&p) = self
                            .fives(attacker)
                            .iter()
                            .find(|&&p| self.game.is_legal(p))
                        {
                            line.push(p);
                        }
                    }
                    break;
                }
                Node::Lost => break,
            };
            let next = moves
                .iter()
                .copied()
                .find(|&p| self.proofs.get(self.proof_child_key(attacker, p)).pn == 0);
            match next {
                Some(p) if self.make(p) => {
                    line.push(p);
                    made += 1;
                }
                _ => break,
            }
        }
        for _ in 0..made {
            self.unmake();
        }
        line
    }

    /// Every point the proof of the current (proven) position plays,
    /// the attacker's and the defender's, in the order the proof tree is
    /// read (its first move first): the points where a defender's stone
    /// may break it. At most `limit` nodes of the tree are read.
    pub(super) fn proof_points(&mut self, attacker: Color, limit: usize) -> Vec<Point> {
        let mut out = Vec::new();
        let mut budget = limit;
        self.collect_proof(attacker, &mut out, &mut budget);
        out
    }

    fn collect_proof(&mut self, attacker: Color, out: &mut Vec<Point>, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Node::Moves(moves) = self.proof_node(attacker) else {
            return;
        };
        let or = self.game.to_move() == attacker;
        let next: Vec<Point> = if or {
            moves
                .iter()
                .copied()
                .find(|&p| self.proofs.get(self.proof_child_key(attacker, p)).pn == 0)
                .into_iter()
                .collect()
        } else {
            moves
        };
        for p in next {
            if !out.contains(&p) {
                out.push(p);
            }
            if self.make(p) {
                self.collect_proof(attacker, out, budget);
                self.unmake();
            }
        }
    }
}

impl<G: FiveGeometry> Engine<G> {
    /// The safety check by proof search: when the opponent, given the
    /// move (a pass; its search gets 30 % of the step), has a proven win,
    /// the moves after which its win is disproven, tried in this order:
    /// the points of its proof (where a stone of ours may break it), our
    /// fours, then `moves` (the candidates, best first), each searched
    /// within a quarter of what is left of the step. At most [`WIDTH`]
    /// are kept; `true` with them when the opponent threatened a win.
    /// When no move tried is disproven, those whose search ran out are
    /// kept instead (no move may be better); when every move tried
    /// leaves the win proven, the game is lost and `moves` come back as
    /// they were. When the opponent's search runs out of budget first,
    /// the depth-first check ([`Engine::safe_moves`]) decides instead.
    pub(super) fn safe_moves_proved(
        &mut self,
        moves: Vec<Point>,
        limits: &Limits<'_>,
    ) -> (Vec<Point>, bool) {
        let them = self.game.to_move().other();
        self.pass();
        let threat = self.prove(limits, 0.3);
        let points = match threat {
            Proof::Win(_) => self.proof_points(them, PROOF_POINTS_READ),
            _ => Vec::new(),
        };
        self.pass();
        match threat {
            Proof::Win(_) => {}
            Proof::NoWin => return (moves, false),
            // Out of budget before an answer (a short move, a crowded
            // position): the depth-first check, which is complete to its
            // depth, still stops the shallow threats.
            Proof::Unknown => return self.safe_moves(moves, limits),
        }
        let mut order: Vec<Point> = Vec::new();
        for p in points
            .into_iter()
            .chain(self.fours_to_play())
            .chain(moves.iter().copied())
        {
            if self.game.is_legal(p) && !order.contains(&p) {
                order.push(p);
            }
        }
        // Moves after which the opponent's win is disproven, and those
        // whose search ran out first: the latter only when there are none
        // of the former (they are mostly lost, only more slowly proven).
        let mut safe = Vec::new();
        let mut unknown = Vec::new();
        for p in order {
            if safe.len() >= WIDTH || self.time_up(limits) {
                break;
            }
            if !self.make(p) {
                continue;
            }
            let theirs = self.prove(limits, 0.25);
            let out = self.clock.out;
            self.unmake();
            match theirs {
                Proof::NoWin if !out => safe.push(p),
                Proof::Unknown if unknown.len() < WIDTH => unknown.push(p),
                _ => {}
            }
        }
        if safe.is_empty() {
            safe = unknown;
        }
        if safe.is_empty() {
            (moves, true)
        } else {
            (safe, true)
        }
    }
}
