//! Tactical reading: can a string be captured, can it be saved.
//!
//! Patterns ask these questions constantly (`safe_move` for every match
//! without class `s`, `attack`/`defend` in constraints), so the reader is
//! small and cached rather than clever:
//!
//! - a string with one liberty is captured by playing it (unless ko
//!   forbids);
//! - a string with two liberties is attacked by playing either liberty,
//!   then the defender tries to save it — which is how ladders are read,
//!   move by move until the string escapes or dies;
//! - a string with three or more liberties is taken to be safe;
//! - the defender tries its liberties and captures of neighbouring
//!   strings in atari; a string that reaches three liberties is safe.
//!
//! Every search plays and undoes moves on the [`Goban`] (incrementally),
//! counts nodes against a budget ([`NODE_BUDGET`] per top-level question;
//! when it runs out the string is presumed safe), and caches results by
//! position hash, string and question, so repeated questions about one
//! position cost a lookup.

use std::collections::HashMap;

use super::strings::Goban;
use crate::position::{Color, Point};

/// Nodes one top-level question may visit before the string is presumed
/// safe: enough for any ladder across a 19x19 board.
pub const NODE_BUDGET: u32 = 3000;

/// No move: the string needs none (or the reader gave up).
const NO_MOVE: u32 = u32::MAX;

/// The cache is cleared when it grows past this many entries.
const CACHE_LIMIT: usize = 1 << 20;

/// What reading knows about a string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tactical {
    /// Cannot be captured even if the opponent moves first.
    Safe,
    /// Captured if the opponent moves first (`attack`), saved if its owner
    /// does (`defend`).
    Critical { attack: Point, defend: Point },
    /// Captured whoever moves first.
    Dead { attack: Point },
}

/// Reading state: the cache and the node counter.
#[derive(Clone, Debug, Default)]
pub struct Reader {
    cache: HashMap<(u64, u32, bool), u32>,
    nodes: u32,
}

impl Reader {
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Nodes visited by the last top-level question.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// The move that captures the string through `p`, attacker to move.
    pub fn attack(&mut self, g: &mut Goban, p: Point) -> Option<Point> {
        let k = g.index(p)?;
        g.root_at(k)?;
        self.start();
        self.do_attack(g, k, 0).map(|m| g.point(m))
    }

    /// The move that saves the string through `p`, its owner to move, when
    /// it can be captured and saved; `None` when it cannot be captured or
    /// cannot be saved.
    pub fn defend(&mut self, g: &mut Goban, p: Point) -> Option<Point> {
        match self.tactical(g, p)? {
            Tactical::Critical { defend, .. } => Some(defend),
            _ => None,
        }
    }

    /// The string's tactical status; `None` for an empty point.
    pub fn tactical(&mut self, g: &mut Goban, p: Point) -> Option<Tactical> {
        let k = g.index(p)?;
        g.root_at(k)?;
        self.start();
        let Some(attack) = self.do_attack(g, k, 0) else {
            return Some(Tactical::Safe);
        };
        self.start();
        let attack = g.point(attack);
        Some(match self.do_defend(g, k, 0) {
            Some(m) if m != NO_MOVE => Tactical::Critical {
                attack,
                defend: g.point(m),
            },
            // Gave up: presumed savable, but no move to name.
            Some(_) => Tactical::Critical {
                attack,
                defend: attack,
            },
            None => Tactical::Dead { attack },
        })
    }

    /// Can a stone of `color` be played on `p` without being captured at
    /// once (the opponent moving next)? False for an illegal move.
    pub fn safe_move(&mut self, g: &mut Goban, p: Point, color: Color) -> bool {
        let Some(k) = g.index(p) else {
            return false;
        };
        if g.play_index(k, color).is_err() {
            return false;
        }
        self.start();
        let safe = self.do_attack(g, k, 0).is_none();
        g.undo();
        safe
    }

    /// Does `color` playing `m` capture (or doom) the string through `t`?
    /// The string's owner moves next.
    pub fn does_attack(&mut self, g: &mut Goban, m: Point, t: Point) -> bool {
        let (Some(mk), Some(tk)) = (g.index(m), g.index(t)) else {
            return false;
        };
        let Some(owner) = g.stone_at(tk) else {
            return false;
        };
        if g.play_index(mk, owner.other()).is_err() {
            return false;
        }
        self.start();
        let ok = g.stone_at(tk).is_none() || self.do_defend(g, tk, 0).is_none();
        g.undo();
        ok
    }

    /// Does the owner of the string through `t` playing `m` make it safe
    /// (the opponent moving next)?
    pub fn does_defend(&mut self, g: &mut Goban, m: Point, t: Point) -> bool {
        let (Some(mk), Some(tk)) = (g.index(m), g.index(t)) else {
            return false;
        };
        let Some(owner) = g.stone_at(tk) else {
            return false;
        };
        if g.play_index(mk, owner).is_err() {
            return false;
        }
        self.start();
        let ok = g.stone_at(tk).is_some() && self.do_attack(g, tk, 0).is_none();
        g.undo();
        ok
    }

    fn start(&mut self) {
        self.nodes = 0;
        if self.cache.len() > CACHE_LIMIT {
            self.cache.clear();
        }
    }

    /// Attacker to move: a move capturing the string on `k`, or `None`.
    fn do_attack(&mut self, g: &mut Goban, k: u32, depth: u32) -> Option<u32> {
        let owner = g.stone_at(k)?;
        let attacker = owner.other();
        let libs = g.libs_at(k);
        if libs == 1 {
            let l = g.libs_list(k, 1)[0];
            return g.check_index(l, attacker).is_ok().then_some(l);
        }
        if libs > 2 {
            return None;
        }
        let key = (g.position_hash(), g.root_at(k)?, true);
        if let Some(&m) = self.cache.get(&key) {
            return (m != NO_MOVE).then_some(m);
        }
        if self.nodes >= NODE_BUDGET {
            return None;
        }
        self.nodes += 1;
        let mut found = None;
        for l in g.libs_list(k, 2) {
            if g.play_index(l, attacker).is_err() {
                continue;
            }
            let captured = g.stone_at(k).is_none() || self.do_defend(g, k, depth + 1).is_none();
            g.undo();
            if captured {
                found = Some(l);
                break;
            }
        }
        if self.nodes < NODE_BUDGET {
            self.cache.insert(key, found.unwrap_or(NO_MOVE));
        }
        found
    }

    /// Owner to move: `Some(move)` saving the string on `k` (`NO_MOVE`
    /// when it is not in danger or the budget ran out), `None` when it
    /// cannot be saved.
    fn do_defend(&mut self, g: &mut Goban, k: u32, depth: u32) -> Option<u32> {
        let owner = g.stone_at(k)?;
        let libs = g.libs_at(k);
        if libs >= 3 {
            return Some(NO_MOVE);
        }
        let key = (g.position_hash(), g.root_at(k)?, false);
        if let Some(&m) = self.cache.get(&key) {
            return (m != u32::MAX - 1).then_some(m);
        }
        if self.nodes >= NODE_BUDGET {
            return Some(NO_MOVE);
        }
        self.nodes += 1;
        if libs == 2 && self.do_attack(g, k, depth + 1).is_none() {
            return Some(NO_MOVE);
        }
        // Candidates: captures of neighbouring strings in atari, then the
        // string's own liberties.
        let mut candidates: Vec<u32> = Vec::new();
        for s in g.stones_at(k) {
            let (roots, n) = g.neighbour_roots(s, Some(owner.other()));
            for &r in &roots[..n] {
                if g.libs_at(r) == 1 {
                    let l = g.libs_list(r, 1)[0];
                    if !candidates.contains(&l) {
                        candidates.push(l);
                    }
                }
            }
        }
        for l in g.libs_list(k, 2) {
            if !candidates.contains(&l) {
                candidates.push(l);
            }
        }
        let mut found = None;
        for m in candidates {
            if g.play_index(m, owner).is_err() {
                continue;
            }
            let saved = match g.libs_at(k) {
                0 | 1 => false,
                2 => self.do_attack(g, k, depth + 1).is_none(),
                _ => true,
            };
            g.undo();
            if saved {
                found = Some(m);
                break;
            }
        }
        if self.nodes < NODE_BUDGET {
            self.cache.insert(key, found.unwrap_or(u32::MAX - 1));
        }
        found
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::go::position::GoPosition;

    /// A goban from rows of `.`, `X` (black), `O` (white); the board is
    /// square, as wide as the widest row, so rows left out at the bottom
    /// are empty.
    pub(crate) fn goban(rows: &[&str]) -> Goban {
        let side = rows
            .iter()
            .map(|r| r.len())
            .max()
            .unwrap_or(0)
            .max(rows.len());
        let mut g = Goban::new(side);
        for (i, row) in rows.iter().enumerate() {
            for (j, ch) in row.chars().enumerate() {
                let c = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                g.play(Point::new(i as i32, j as i32), c)
                    .expect("legal setup");
            }
        }
        g
    }

    /// White's E5 in a ladder on 9x9 (the dragon tests use it too).
    pub(crate) const LADDER: [&str; 6] = [
        ".........", //
        ".........", //
        ".........", //
        "....X....", //
        "...XO....", //
        "....XX...",
    ];

    /// The positions and answers were checked with GNU Go 3.8's GTP
    /// `attack` and `defend`.
    #[test]
    fn a_ladder_works_and_a_ladder_breaker_stops_it() {
        let mut r = Reader::new();
        let ladder = LADDER;
        let mut g = goban(&ladder);
        let e5 = Point::new(4, 4);
        assert_eq!(g.liberties(e5), 1);
        assert_eq!(
            r.tactical(&mut g, e5),
            Some(Tactical::Dead {
                attack: Point::new(4, 5)
            })
        );
        // A white stone on H7, on the ladder's path, breaks it.
        let mut broken = ladder;
        broken[2] = ".......O.";
        let mut g = goban(&broken);
        assert_eq!(
            r.tactical(&mut g, e5),
            Some(Tactical::Critical {
                attack: Point::new(4, 5),
                defend: Point::new(4, 5)
            })
        );
        // Before black's E4, white moving first escapes (E4) and black
        // moving first captures (E4 starts the ladder).
        let mut open = ladder;
        open[5] = ".....X...";
        let mut g = goban(&open);
        assert_eq!(
            r.tactical(&mut g, e5),
            Some(Tactical::Critical {
                attack: Point::new(5, 4),
                defend: Point::new(5, 4)
            })
        );
        g.verify().unwrap();
    }

    #[test]
    fn safe_move_sees_self_atari() {
        let rows = [
            ".X...", //
            "X....",
        ];
        let mut g = goban(&rows);
        let mut r = Reader::new();
        assert!(!r.safe_move(&mut g, Point::new(0, 0), Color::White));
        assert!(r.safe_move(&mut g, Point::new(2, 2), Color::White));
        // Black connecting at the corner is fine.
        assert!(r.safe_move(&mut g, Point::new(0, 0), Color::Black));
        // A black stone at (1,1) would have neighbours... safe.
        assert!(!r.does_attack(&mut g, Point::new(1, 1), Point::new(0, 1)));
    }
}
