//! Dragons: groups of strings that live or die together, with a status
//! estimate good enough for the class letters `O o X x` and the
//! constraints' `status`/`alive`/`dead`/`genus`.
//!
//! How the estimate decides, step by step ([`Dragons::compute`]):
//!
//! 1. **Tactics.** Every string with at most two liberties is read
//!    ([`super::reading`]): a string captured whoever moves first is
//!    *tactically dead*; one captured only if the opponent moves first is
//!    *tactically critical*.
//! 2. **Dragons.** Strings of one colour that are not tactically dead are
//!    joined when they are *solidly* connected (a diagonal whose two
//!    shared neighbours hold no opponent stone; a one-point jump whose
//!    middle is empty and not flanked by opponent stones on both sides),
//!    or when they border the same eye region (3). Tactically dead strings
//!    form dragons of their own, which are DEAD.
//! 3. **Eyes.** An eye region is a maximal connected set of points that
//!    are empty or hold tactically dead stones, bordered by the live
//!    stones of one colour only (no region touches both colours) and of at
//!    most [`MAX_TERRITORY`] points (larger ones are open space, no eye).
//!    Regions of up to [`MAX_EYE_SPACE`] points join the dragons around
//!    them; larger ones are territory, two eyes for each. Its value, in
//!    half eyes: one point — a true eye (2) unless opponent
//!    stones hold two of its diagonals (one on the edge), then false (0);
//!    two points — 2; three — 3 when the middle (vital) point is empty,
//!    else 2; four — a square 2, a "T" 3, otherwise 4; five or six — 3 if
//!    one point touches at least three others (bulky/cross shapes with a
//!    vital point), else 4; seven or more — territory, 4.
//! 4. **Status.** Half eyes of all its regions summed: ≥ 4 is ALIVE, 3 is
//!    CRITICAL (the vital point decides). Otherwise the dragon's *room* is
//!    measured: empty points reachable from its liberties in three steps
//!    through empty points not next to opponent stones. With room ≥
//!    [`OPEN_ROOM`] it is UNKNOWN (it can still run or make eyes). Boxed in
//!    with fewer than 1.5 eyes it is DEAD — unless an adjacent opponent
//!    dragon is boxed in and eyeless too (a capturing race: CRITICAL). A
//!    single-string dragon that is tactically critical is CRITICAL
//!    whatever else was found.
//!
//! This is far from GNU Go's owl reader, but it gets the common cases the
//! patterns ask about right: groups with two eyes or territory, groups with
//! one eye shut in, stones in atari, and open-board groups (unknown, which
//! every class letter accepts).
//!
//! The *connection value* ([`Dragons::connection_value`]) serves the `C`
//! (connect) and `B` (cut) classes: a move next to two or more dragons of a
//! colour joins them; its value is the sum, over all but the strongest,
//! of the dragon's weakness (ALIVE 1, UNKNOWN 4 + size, CRITICAL 8 + 2·size,
//! DEAD 0).

use super::reading::{Reader, Tactical};
use super::strings::Goban;
use crate::go::score::DragonStatus;
use crate::position::{Color, Point};

/// Room (see the module docs) from which a dragon counts as open.
pub const OPEN_ROOM: u32 = 10;

/// The largest eye region that joins the strings around it into one
/// dragon: beyond it a one-colour region is territory.
pub const MAX_EYE_SPACE: usize = 6;

/// The largest one-colour region that counts as territory (two eyes for
/// each dragon around it); beyond it a region is open space, no eye.
pub const MAX_TERRITORY: usize = 20;

/// A dragon, as [`Dragons::compute`] found it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Dragon {
    pub color: Color,
    pub stones: Vec<Point>,
    /// Eye value in half eyes (see the module docs).
    pub half_eyes: u32,
    /// Reachable empty points (capped at [`OPEN_ROOM`]).
    pub room: u32,
    pub status: DragonStatus,
}

/// The dragons of one position.
#[derive(Clone, Debug)]
pub struct Dragons {
    n: usize,
    /// Per point, the index of its dragon in `list` (`u32::MAX` if empty).
    id: Vec<u32>,
    list: Vec<Dragon>,
    /// Per point, the colour whose eye region holds it, if any.
    eye_owner: Vec<Option<Color>>,
    /// Per point in an eye region: marginal (touches an opponent stone
    /// orthogonally or diagonally).
    marginal: Vec<bool>,
}

/// Union-find over point indices.
struct Uf(Vec<u32>);

impl Uf {
    fn find(&mut self, mut a: u32) -> u32 {
        while self.0[a as usize] != a {
            let up = self.0[self.0[a as usize] as usize];
            self.0[a as usize] = up;
            a = up;
        }
        a
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[rb as usize] = ra;
        }
    }
}

impl Dragons {
    /// Analyses the position on `g` (left as it was found).
    pub fn compute(g: &mut Goban, reader: &mut Reader) -> Dragons {
        let n = g.side();
        let cells = (n * n) as u32;
        let at = |g: &Goban, i: i32, j: i32| g.index(Point::new(i, j));

        // 1. Tactics per string (by root).
        let mut dead = vec![false; cells as usize];
        let mut critical = vec![false; cells as usize];
        for k in 0..cells {
            if g.root_at(k) != Some(k) || g.libs_at(k) > 2 {
                continue;
            }
            match reader.tactical(g, g.point(k)) {
                Some(Tactical::Dead { .. }) => dead[k as usize] = true,
                Some(Tactical::Critical { .. }) => critical[k as usize] = true,
                _ => {}
            }
        }
        let live = |g: &Goban, k: u32| -> Option<Color> {
            let c = g.stone_at(k)?;
            (!dead[g.root_at(k)? as usize]).then_some(c)
        };

        // 2. Strings, then solid connections.
        let mut uf = Uf((0..cells).collect());
        for k in 0..cells {
            if let Some(r) = g.root_at(k) {
                uf.union(r, k);
            }
        }
        for k in 0..cells {
            let Some(c) = live(g, k) else { continue };
            let p = g.point(k);
            for (di, dj) in [(1, 1), (1, -1)] {
                let Some(q) = at(g, p.i + di, p.j + dj) else {
                    continue;
                };
                if live(g, q) != Some(c) {
                    continue;
                }
                let a = at(g, p.i + di, p.j).expect("between two board points");
                let b = at(g, p.i, p.j + dj).expect("between two board points");
                let blocked = |x: u32| g.stone_at(x) == Some(c.other());
                if !blocked(a) && !blocked(b) {
                    uf.union(k, q);
                }
            }
            for (di, dj) in [(2, 0), (0, 2)] {
                let Some(q) = at(g, p.i + di, p.j + dj) else {
                    continue;
                };
                let mid = at(g, p.i + di / 2, p.j + dj / 2).expect("between two board points");
                if live(g, q) != Some(c) || g.stone_at(mid).is_some() {
                    continue;
                }
                let m = g.point(mid);
                let flank =
                    |i: i32, j: i32| at(g, i, j).and_then(|x| g.stone_at(x)) == Some(c.other());
                let flanked = if di == 0 {
                    flank(m.i - 1, m.j) && flank(m.i + 1, m.j)
                } else {
                    flank(m.i, m.j - 1) && flank(m.i, m.j + 1)
                };
                if !flanked {
                    uf.union(k, q);
                }
            }
        }

        // 3. Eye regions.
        let mut region_of = vec![u32::MAX; cells as usize];
        let mut eye_owner = vec![None; cells as usize];
        let mut marginal = vec![false; cells as usize];
        // (owner, half eyes, one bordering stone of the owner)
        let mut regions: Vec<(Color, u32, Vec<u32>)> = Vec::new();
        for start in 0..cells {
            if live(g, start).is_some() || region_of[start as usize] != u32::MAX {
                continue;
            }
            let id = regions.len() as u32;
            let region = g.region(
                start,
                |q| live(g, q),
                |q| {
                    let free = region_of[q as usize] == u32::MAX;
                    if free {
                        region_of[q as usize] = id;
                    }
                    free
                },
            );
            let (pts, borders) = (region.points, region.borders);
            let (black, white) = (region.black, region.white);
            let owner = match (black, white) {
                (true, false) if pts.len() <= MAX_TERRITORY => Color::Black,
                (false, true) if pts.len() <= MAX_TERRITORY => Color::White,
                _ => {
                    regions.push((Color::Black, 0, Vec::new()));
                    continue;
                }
            };
            let half = eye_value(g, &pts, owner, &live);
            if pts.len() > MAX_EYE_SPACE {
                // Territory: two eyes for every dragon around it, which it
                // does not join (they may still be cut apart).
                for &k in &pts {
                    eye_owner[k as usize] = Some(owner);
                }
                regions.push((owner, half, borders));
                continue;
            }
            for &k in &pts {
                eye_owner[k as usize] = Some(owner);
                let p = g.point(k);
                marginal[k as usize] = crate::position::EIGHT_NEIGHBOURS.iter().any(|&(di, dj)| {
                    at(g, p.i + di, p.j + dj).and_then(|x| live(g, x)) == Some(owner.other())
                });
            }
            for w in borders.windows(2) {
                uf.union(w[0], w[1]);
            }
            regions.push((owner, half, borders));
        }

        // Dragons from the union-find.
        let mut id = vec![u32::MAX; cells as usize];
        let mut list: Vec<Dragon> = Vec::new();
        let mut of_root: Vec<u32> = vec![u32::MAX; cells as usize];
        for k in 0..cells {
            let Some(c) = g.stone_at(k) else { continue };
            let r = uf.find(k) as usize;
            if of_root[r] == u32::MAX {
                of_root[r] = list.len() as u32;
                list.push(Dragon {
                    color: c,
                    stones: Vec::new(),
                    half_eyes: 0,
                    room: 0,
                    status: DragonStatus::Unknown,
                });
            }
            id[k as usize] = of_root[r];
            list[of_root[r] as usize].stones.push(g.point(k));
        }
        for (owner, half, borders) in &regions {
            let mut credited: Vec<u32> = Vec::new();
            for &b in borders {
                let d = id[b as usize];
                if !credited.contains(&d) {
                    credited.push(d);
                    debug_assert_eq!(list[d as usize].color, *owner);
                    list[d as usize].half_eyes += half;
                }
            }
        }

        // 4. Status.
        let mut boxed = vec![false; list.len()];
        for (d, dragon) in list.iter_mut().enumerate() {
            let first = g.index(dragon.stones[0]).expect("a stone on the board");
            if dead[g.root_at(first).expect("a stone") as usize] {
                dragon.status = DragonStatus::Dead;
                continue;
            }
            dragon.room = room(g, &dragon.stones, dragon.color, &eye_owner);
            dragon.status = if dragon.half_eyes >= 4 {
                DragonStatus::Alive
            } else if dragon.half_eyes == 3 {
                DragonStatus::Critical
            } else if dragon.room >= OPEN_ROOM {
                DragonStatus::Unknown
            } else {
                boxed[d] = true;
                DragonStatus::Dead
            };
        }
        // Capturing races between boxed-in dragons, and tactical criticals.
        for d in 0..list.len() {
            if boxed[d] {
                let race = list[d].stones.iter().any(|&p| {
                    let k = g.index(p).expect("on board");
                    g.adjacent(k).any(|q| {
                        let e = id[q as usize];
                        e != u32::MAX && e as usize != d && boxed[e as usize]
                    })
                });
                if race {
                    list[d].status = DragonStatus::Critical;
                }
            }
            let single = {
                let k = g.index(list[d].stones[0]).expect("on board");
                g.size_at(k) as usize == list[d].stones.len()
                    && critical[g.root_at(k).expect("a stone") as usize]
            };
            if single {
                list[d].status = DragonStatus::Critical;
            }
        }
        Dragons {
            n,
            id,
            list,
            eye_owner,
            marginal,
        }
    }

    fn index(&self, p: Point) -> Option<usize> {
        let n = self.n as i32;
        ((0..n).contains(&p.i) && (0..n).contains(&p.j)).then(|| (p.i * n + p.j) as usize)
    }

    /// The dragon holding the stone on `p`.
    pub fn dragon(&self, p: Point) -> Option<&Dragon> {
        let d = self.id[self.index(p)?];
        self.list.get(d as usize)
    }

    /// A number identifying the dragon on `p` within this analysis.
    pub fn dragon_id(&self, p: Point) -> Option<u32> {
        let d = self.id[self.index(p)?];
        (d != u32::MAX).then_some(d)
    }

    /// Every dragon.
    pub fn all(&self) -> &[Dragon] {
        &self.list
    }

    /// The status of the dragon on `p`; UNKNOWN for an empty point.
    pub fn status(&self, p: Point) -> DragonStatus {
        self.dragon(p).map_or(DragonStatus::Unknown, |d| d.status)
    }

    /// The colour whose eye region holds `p`, if any.
    pub fn eye_owner(&self, p: Point) -> Option<Color> {
        self.eye_owner[self.index(p)?]
    }

    /// Is `p` an eye point touching an opponent stone (so the opponent
    /// can play there with some effect)?
    pub fn is_marginal_eye(&self, p: Point) -> bool {
        self.index(p).is_some_and(|k| self.marginal[k])
    }

    /// The value of `color` playing `p` to join its dragons (see the
    /// module docs); 0 when the move touches fewer than two of them.
    pub fn connection_value(&self, p: Point, color: Color) -> i32 {
        let mut seen: Vec<u32> = Vec::new();
        for di in -1..=1 {
            for dj in -1..=1 {
                let q = Point::new(p.i + di, p.j + dj);
                if let (Some(d), Some(dragon)) = (self.dragon_id(q), self.dragon(q)) {
                    if dragon.color == color && !seen.contains(&d) {
                        seen.push(d);
                    }
                }
            }
        }
        if seen.len() < 2 {
            return 0;
        }
        let weakness = |d: &Dragon| -> i32 {
            let size = d.stones.len() as i32;
            match d.status {
                DragonStatus::Alive => 1,
                DragonStatus::Unknown => 4 + size,
                DragonStatus::Critical => 8 + 2 * size,
                DragonStatus::Dead => 0,
            }
        };
        let mut values: Vec<i32> = seen
            .iter()
            .map(|&d| weakness(&self.list[d as usize]))
            .collect();
        values.sort_unstable();
        // The strongest (least weak) dragon gains nothing from the join.
        values.iter().skip(1).sum()
    }
}

/// Half eyes of an eye region of `owner` (see the module docs).
fn eye_value(
    g: &Goban,
    pts: &[u32],
    owner: Color,
    live: &dyn Fn(&Goban, u32) -> Option<Color>,
) -> u32 {
    let degree = |k: u32| g.adjacent(k).filter(|q| pts.contains(q)).count();
    match pts.len() {
        1 => {
            let p = g.point(pts[0]);
            let mut off = 0;
            let mut enemy = 0;
            for (di, dj) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                match g.index(Point::new(p.i + di, p.j + dj)) {
                    None => off += 1,
                    Some(q) => {
                        if live(g, q) == Some(owner.other()) {
                            enemy += 1
                        }
                    }
                }
            }
            let limit = if off > 0 { 1 } else { 2 };
            if enemy >= limit {
                0
            } else {
                2
            }
        }
        2 => 2,
        3 => {
            let vital = pts.iter().copied().find(|&k| degree(k) == 2);
            match vital {
                Some(v) if g.stone_at(v).is_none() => 3,
                _ => 2,
            }
        }
        4 => {
            let max = pts.iter().map(|&k| degree(k)).max().unwrap_or(0);
            let square = pts.iter().all(|&k| degree(k) == 2);
            if square {
                2
            } else if max == 3 {
                3
            } else {
                4
            }
        }
        5 | 6 if pts.iter().any(|&k| degree(k) >= 3) => 3,
        _ => 4,
    }
}

/// Empty points reachable from the stones' liberties in up to three steps
/// through empty points not next to an opponent stone and not in the
/// dragon's own eye regions, capped at [`OPEN_ROOM`].
fn room(g: &Goban, stones: &[Point], color: Color, eye_owner: &[Option<Color>]) -> u32 {
    let mut seen: Vec<u32> = Vec::new();
    let mut frontier: Vec<u32> = Vec::new();
    for &p in stones {
        let k = g.index(p).expect("on board");
        for q in g.adjacent(k) {
            if g.stone_at(q).is_none() && eye_owner[q as usize] != Some(color) && !seen.contains(&q)
            {
                seen.push(q);
                frontier.push(q);
            }
        }
    }
    for _ in 0..2 {
        let mut next = Vec::new();
        for &k in &frontier {
            if g.adjacent(k).any(|q| g.stone_at(q) == Some(color.other())) {
                continue;
            }
            for q in g.adjacent(k) {
                if g.stone_at(q).is_none() && !seen.contains(&q) {
                    seen.push(q);
                    next.push(q);
                }
            }
        }
        if seen.len() as u32 >= OPEN_ROOM {
            break;
        }
        frontier = next;
    }
    (seen.len() as u32).min(OPEN_ROOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::go::reading::tests::{goban, LADDER};

    fn status(rows: &[&str], i: i32, j: i32) -> DragonStatus {
        let mut g = goban(rows);
        let d = Dragons::compute(&mut g, &mut Reader::new());
        g.verify().unwrap();
        d.status(Point::new(i, j))
    }

    #[test]
    fn two_eyes_alive() {
        let rows = [
            ".X.X.O...", //
            "XXXXXO...", //
            "OOOOOO...",
        ];
        assert_eq!(status(&rows, 1, 0), DragonStatus::Alive);
    }

    #[test]
    fn one_eye_shut_in_is_dead_and_its_killer_alive_or_open() {
        let rows = [
            "..X.O....", //
            "XXX.O....", //
            "OOOOO....",
        ];
        // Black has one region of two points (0,0),(0,1) = one eye, and
        // (0,3),(1,3) border both colours: no eye. Boxed in: dead.
        assert_eq!(status(&rows, 1, 0), DragonStatus::Dead);
        assert_eq!(status(&rows, 2, 0), DragonStatus::Unknown);
    }

    #[test]
    fn straight_three_is_critical() {
        let rows = [
            "...XO....", //
            "XXXXO....", //
            "OOOOO....",
        ];
        assert_eq!(status(&rows, 1, 0), DragonStatus::Critical);
    }

    #[test]
    fn open_stones_are_unknown() {
        let rows = [
            ".........", //
            "....X....", //
            ".........", //
            ".........", //
            ".........", //
            ".........", //
            ".........", //
            ".........", //
            "....O....",
        ];
        assert_eq!(status(&rows, 8, 4), DragonStatus::Unknown);
        assert_eq!(status(&rows, 1, 4), DragonStatus::Unknown);
    }

    /// The ladder of `reading`'s tests (GNU Go 3.8 agrees: E5 can be
    /// neither saved when in atari nor, before E4, saved by black first).
    #[test]
    fn a_ladder_victim_is_dead_and_a_stone_that_can_run_is_critical() {
        let mut rows = LADDER;
        assert_eq!(status(&rows, 4, 4), DragonStatus::Dead);
        rows[5] = ".....X...";
        assert_eq!(status(&rows, 4, 4), DragonStatus::Critical);
        // The black stones around are open.
        assert_eq!(status(&rows, 3, 4), DragonStatus::Unknown);
    }

    #[test]
    fn diagonal_and_jump_connections_make_one_dragon_and_a_connection_has_value() {
        let rows = [
            ".........", //
            ".X.X.....", //
            "..X......", //
            ".........", //
            ".........", //
            "......X..", //
            ".........", //
            "......X..",
        ];
        let mut g = goban(&rows);
        let d = Dragons::compute(&mut g, &mut Reader::new());
        let id = |i, j| d.dragon_id(Point::new(i, j)).unwrap();
        assert_eq!(id(1, 1), id(2, 2));
        assert_eq!(id(1, 3), id(2, 2));
        assert_eq!(id(5, 6), id(7, 6));
        assert_ne!(id(1, 1), id(5, 6));
        // (4,6)... touches only one dragon; (3,4)... none.
        assert_eq!(d.connection_value(Point::new(6, 6), Color::Black), 0);
        let rows = [
            ".........", //
            ".X.......", //
            ".O.......", //
            ".X.......",
        ];
        let mut g = goban(&rows);
        let d = Dragons::compute(&mut g, &mut Reader::new());
        assert_ne!(d.dragon_id(Point::new(1, 1)), d.dragon_id(Point::new(3, 1)));
        assert!(d.connection_value(Point::new(2, 2), Color::Black) > 0);
        assert_eq!(d.connection_value(Point::new(2, 2), Color::White), 0);
    }
}
