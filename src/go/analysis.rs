//! The engine's answers to the matcher's questions: [`crate::go::score::Judge`]
//! (class letters) and [`crate::go::constraint::ConstraintEngine`] (GNU Go 2.6
//! constraints), over a [`Goban`] with its [`Reader`] and [`Dragons`].
//!
//! The matcher asks through `&self` and a `&dyn Position`, but reading
//! plays and undoes moves. [`GoJudge`] therefore owns a copy of the
//! position (taken when it is made, with the dragons computed once) inside
//! a `RefCell`, and reads on that copy; the `position` argument of the
//! [`Judge`] methods must be the position the judge was made from and is
//! not consulted. [`Constraints`] borrows the goban mutably instead and
//! computes the dragons on first use.
//!
//! Constraint functions answered exactly as specified: `lib`, `xlib`,
//! `olib` (liberties after the move, captures included; 0 when illegal),
//! `attack`, `defend`, `does_attack`, `does_defend`, `safe_xmove`,
//! `safe_omove`, `xdefend_against`, `odefend_against`, the `*play_*`
//! functions (moves alternate from the given colour; an illegal move is
//! skipped, as GNU Go does; afterwards the side to move decides whether
//! "captured" means "the attacker to move captures" or "the defender to
//! move cannot save"), and the dragon functions through [`Dragons`]
//! (`status`, `alive`, `unknown`, `critical`, `dead`, `genus` = half eyes
//! / 2).
//!
//! Approximated: `lib2`..`lib4` (empty points within 2..4 steps of the
//! string through empty points), `ko` (the point is the ko point, or a
//! one-stone string in atari whose capture would be a ko), `weak` (status
//! CRITICAL, or UNKNOWN with under one eye), `cutstone` (number of distinct
//! opponent dragons next to the string, capped at 2), `xcut`/`ocut` (a
//! safe move there touches two dragons of the other colour), the area
//! functions from a distance influence — `*area`: more own than opposing
//! power ([`crate::go::score::ManhattanInfluence`]); `*moyo`: own power at
//! least 8 more; `*terri`: own power and no opposing power — `diff_moyo`
//! (O's moyo points after O plays there minus before), `area_stone` and
//! `area_space` (stones and empty points within Manhattan distance 3),
//! `eye`/`proper_eye`/`marginal_eye` from the dragons' eye regions, and
//! `seki_helper` (the string has two liberties, and both are self-atari for
//! either colour).

use std::cell::RefCell;

use super::dragons::Dragons;
use super::reading::Reader;
use super::strings::Goban;
use crate::go::constraint::{status, ConstraintEngine};
use crate::go::position::GoPosition;
use crate::go::score::{DragonStatus, Influence, Judge, ManhattanInfluence};
use crate::position::{Color, Point, Position};

/// A [`Judge`] reading on its own copy of a position.
#[derive(Debug)]
pub struct GoJudge {
    state: RefCell<(Goban, Reader)>,
    dragons: Dragons,
}

impl GoJudge {
    /// A judge for the position on `g` (copied; `g` is left as it was).
    pub fn new(g: &Goban) -> GoJudge {
        let mut goban = g.clone();
        let mut reader = Reader::new();
        let dragons = Dragons::compute(&mut goban, &mut reader);
        GoJudge {
            state: RefCell::new((goban, reader)),
            dragons,
        }
    }

    pub fn dragons(&self) -> &Dragons {
        &self.dragons
    }

    /// The value of `color` playing `p` to connect its dragons (class `C`).
    pub fn connection_value(&self, p: Point, color: Color) -> i32 {
        self.dragons.connection_value(p, color)
    }

    /// The value of `color` playing `p` to cut the opponent's dragons
    /// apart (class `B`).
    pub fn cut_value(&self, p: Point, color: Color) -> i32 {
        self.dragons.connection_value(p, color.other())
    }
}

impl Judge for GoJudge {
    fn dragon_status(&self, _position: &dyn Position, p: Point) -> DragonStatus {
        self.dragons.status(p)
    }

    fn safe_move(&self, _position: &dyn Position, p: Point, color: Color) -> bool {
        let mut state = self.state.borrow_mut();
        let (goban, reader) = &mut *state;
        reader.safe_move(goban, p, color)
    }

    /// Empty points within Manhattan distance 3 of `p` where `color` has
    /// more power than the opponent.
    fn moyo(&self, _position: &dyn Position, p: Point, color: Color) -> i32 {
        let state = self.state.borrow();
        let g = &state.0;
        let mut count = 0;
        for di in -3i32..=3 {
            for dj in -(3 - di.abs())..=(3 - di.abs()) {
                let q = Point::new(p.i + di, p.j + dj);
                if g.is_empty(q)
                    && ManhattanInfluence.power(g, q, color)
                        > ManhattanInfluence.power(g, q, color.other())
                {
                    count += 1;
                }
            }
        }
        count
    }
}

/// A [`ConstraintEngine`] for a pattern matched for `color` ("O").
#[derive(Debug)]
pub struct Constraints<'a> {
    goban: &'a mut Goban,
    reader: &'a mut Reader,
    color: Color,
    dragons: Option<Dragons>,
}

impl<'a> Constraints<'a> {
    pub fn new(goban: &'a mut Goban, reader: &'a mut Reader, color: Color) -> Constraints<'a> {
        Constraints {
            goban,
            reader,
            color,
            dragons: None,
        }
    }

    fn dragons(&mut self) -> &Dragons {
        if self.dragons.is_none() {
            self.dragons = Some(Dragons::compute(self.goban, self.reader));
        }
        self.dragons.as_ref().expect("just computed")
    }

    fn dragon_status(&mut self, p: Point) -> DragonStatus {
        self.dragons().status(p)
    }

    /// Liberties of `color` played on `p`, captures included.
    fn libs_after(&mut self, p: Point, color: Color) -> i32 {
        if self.goban.play(p, color).is_err() {
            return 0;
        }
        let l = self.goban.liberties(p) as i32;
        self.goban.undo();
        l
    }

    /// Empty points within `steps` steps of the string through empty
    /// points.
    fn libs_within(&mut self, p: Point, steps: u32) -> i32 {
        let g = &*self.goban;
        if g.stone(p).is_none() {
            return 0;
        }
        let mut seen: Vec<Point> = Vec::new();
        let mut frontier: Vec<Point> = g.string(p);
        for _ in 0..steps {
            let mut next = Vec::new();
            for q in frontier {
                for r in q.neighbours() {
                    if g.is_empty(r) && !seen.contains(&r) {
                        seen.push(r);
                        next.push(r);
                    }
                }
            }
            frontier = next;
        }
        seen.len() as i32
    }

    /// Plays `moves` alternately from `first` (illegal ones skipped), then
    /// asks whether the string on `target` is captured.
    fn play_then_captured(&mut self, moves: &[Point], target: Point, first: Color) -> bool {
        let mut played = 0;
        let mut color = first;
        for &m in moves {
            if self.goban.play(m, color).is_ok() {
                played += 1;
            }
            color = color.other();
        }
        let captured = match self.goban.stone(target) {
            None => true,
            Some(owner) => {
                if color == owner {
                    // The owner moves next: captured if it cannot be saved.
                    let t = self.reader.tactical(self.goban, target);
                    matches!(t, Some(super::reading::Tactical::Dead { .. }))
                } else {
                    self.reader.attack(self.goban, target).is_some()
                }
            }
        };
        for _ in 0..played {
            self.goban.undo();
        }
        captured
    }

    fn power(&self, p: Point, color: Color) -> i32 {
        ManhattanInfluence.power(&*self.goban, p, color)
    }

    fn area(&mut self, p: Point, color: Color) -> i32 {
        i32::from(self.power(p, color) > self.power(p, color.other()))
    }

    fn moyo_at(&self, p: Point, color: Color) -> bool {
        self.goban.is_empty(p) && self.power(p, color) >= self.power(p, color.other()) + 8
    }

    fn terri(&mut self, p: Point, color: Color) -> i32 {
        let mine = match self.goban.stone(p) {
            Some(c) => return i32::from(c == color && self.dragon_status(p) != DragonStatus::Dead),
            None => self.power(p, color),
        };
        i32::from(mine > 0 && self.power(p, color.other()) == 0)
    }

    fn cut(&mut self, p: Point, color: Color) -> i32 {
        if !self.reader.safe_move(self.goban, p, color) {
            return 0;
        }
        let other = color.other();
        let d = self.dragons();
        let mut seen: Vec<u32> = Vec::new();
        for q in p.neighbours() {
            if let (Some(id), Some(dragon)) = (d.dragon_id(q), d.dragon(q)) {
                if dragon.color == other && !seen.contains(&id) {
                    seen.push(id);
                }
            }
        }
        i32::from(seen.len() >= 2)
    }

    fn within3(&self, p: Point, stones: bool) -> i32 {
        let mut count = 0;
        for di in -3i32..=3 {
            for dj in -(3 - di.abs())..=(3 - di.abs()) {
                let q = Point::new(p.i + di, p.j + dj);
                if !self.goban.on_board(q) {
                    continue;
                }
                if self.goban.stone(q).is_some() == stones {
                    count += 1;
                }
            }
        }
        count
    }
}

impl ConstraintEngine for Constraints<'_> {
    fn lib(&mut self, p: Point) -> i32 {
        self.goban.liberties(p) as i32
    }
    fn lib2(&mut self, p: Point) -> i32 {
        self.libs_within(p, 2)
    }
    fn lib3(&mut self, p: Point) -> i32 {
        self.libs_within(p, 3)
    }
    fn lib4(&mut self, p: Point) -> i32 {
        self.libs_within(p, 4)
    }
    fn xlib(&mut self, p: Point) -> i32 {
        self.libs_after(p, self.color.other())
    }
    fn olib(&mut self, p: Point) -> i32 {
        self.libs_after(p, self.color)
    }
    fn ko(&mut self, p: Point) -> i32 {
        let g = &*self.goban;
        if g.ko_point(Color::Black) == Some(p) || g.ko_point(Color::White) == Some(p) {
            return 1;
        }
        let Some(c) = g.stone(p) else { return 0 };
        if g.string(p).len() != 1 || g.liberties(p) != 1 {
            return 0;
        }
        // Capturing it would leave the capturing stone alone in atari.
        let lib = g.liberties_of(p, 1)[0];
        let Ok(1) = self.goban.play(lib, c.other()) else {
            if self.goban.stone(lib).is_some() {
                self.goban.undo();
            }
            return 0;
        };
        let ko = self.goban.ko_point(c).is_some();
        self.goban.undo();
        i32::from(ko)
    }
    fn status(&mut self, p: Point) -> i32 {
        match self.dragon_status(p) {
            DragonStatus::Dead => status::DEAD,
            DragonStatus::Alive => status::ALIVE,
            DragonStatus::Critical => status::CRITICAL,
            DragonStatus::Unknown => status::UNKNOWN,
        }
    }
    fn alive(&mut self, p: Point) -> i32 {
        i32::from(self.dragon_status(p) == DragonStatus::Alive)
    }
    fn unknown(&mut self, p: Point) -> i32 {
        i32::from(self.dragon_status(p) == DragonStatus::Unknown)
    }
    fn critical(&mut self, p: Point) -> i32 {
        i32::from(self.dragon_status(p) == DragonStatus::Critical)
    }
    fn dead(&mut self, p: Point) -> i32 {
        i32::from(self.dragon_status(p) == DragonStatus::Dead)
    }
    fn genus(&mut self, p: Point) -> i32 {
        self.dragons()
            .dragon(p)
            .map_or(0, |d| (d.half_eyes / 2) as i32)
    }
    fn weak(&mut self, p: Point) -> i32 {
        match self.dragons().dragon(p) {
            Some(d) => i32::from(
                d.status == DragonStatus::Critical
                    || (d.status == DragonStatus::Unknown && d.half_eyes < 2),
            ),
            None => 0,
        }
    }
    fn cutstone(&mut self, p: Point) -> i32 {
        let Some(c) = self.goban.stone(p) else {
            return 0;
        };
        let stones = self.goban.string(p);
        let d = self.dragons();
        let mut seen: Vec<u32> = Vec::new();
        for s in stones {
            for q in s.neighbours() {
                if let (Some(id), Some(dragon)) = (d.dragon_id(q), d.dragon(q)) {
                    if dragon.color != c && !seen.contains(&id) {
                        seen.push(id);
                    }
                }
            }
        }
        (seen.len() as i32).min(2)
    }
    fn attack(&mut self, p: Point) -> i32 {
        i32::from(self.reader.attack(self.goban, p).is_some())
    }
    fn defend(&mut self, p: Point) -> i32 {
        i32::from(self.reader.defend(self.goban, p).is_some())
    }
    fn does_attack(&mut self, p: Point, q: Point) -> i32 {
        i32::from(self.reader.does_attack(self.goban, p, q))
    }
    fn does_defend(&mut self, p: Point, q: Point) -> i32 {
        i32::from(self.reader.does_defend(self.goban, p, q))
    }
    fn safe_xmove(&mut self, p: Point) -> i32 {
        i32::from(self.reader.safe_move(self.goban, p, self.color.other()))
    }
    fn safe_omove(&mut self, p: Point) -> i32 {
        i32::from(self.reader.safe_move(self.goban, p, self.color))
    }
    fn xdefend_against(&mut self, p: Point, q: Point) -> i32 {
        if self.goban.play(p, self.color.other()).is_err() {
            return 0;
        }
        let stops = !self.reader.safe_move(self.goban, q, self.color);
        self.goban.undo();
        i32::from(stops)
    }
    fn odefend_against(&mut self, p: Point, q: Point) -> i32 {
        if self.goban.play(p, self.color).is_err() {
            return 0;
        }
        let stops = !self.reader.safe_move(self.goban, q, self.color.other());
        self.goban.undo();
        i32::from(stops)
    }
    fn xcut(&mut self, p: Point) -> i32 {
        self.cut(p, self.color.other())
    }
    fn ocut(&mut self, p: Point) -> i32 {
        self.cut(p, self.color)
    }
    fn xplay_attack(&mut self, moves: &[Point], target: Point) -> i32 {
        i32::from(self.play_then_captured(moves, target, self.color.other()))
    }
    fn oplay_attack(&mut self, moves: &[Point], target: Point) -> i32 {
        i32::from(self.play_then_captured(moves, target, self.color))
    }
    fn xplay_defend(&mut self, moves: &[Point], target: Point) -> i32 {
        i32::from(!self.play_then_captured(moves, target, self.color.other()))
    }
    fn oplay_defend(&mut self, moves: &[Point], target: Point) -> i32 {
        i32::from(!self.play_then_captured(moves, target, self.color))
    }
    fn xarea(&mut self, p: Point) -> i32 {
        self.area(p, self.color.other())
    }
    fn oarea(&mut self, p: Point) -> i32 {
        self.area(p, self.color)
    }
    fn xmoyo(&mut self, p: Point) -> i32 {
        i32::from(self.moyo_at(p, self.color.other()))
    }
    fn omoyo(&mut self, p: Point) -> i32 {
        i32::from(self.moyo_at(p, self.color))
    }
    fn xterri(&mut self, p: Point) -> i32 {
        self.terri(p, self.color.other())
    }
    fn oterri(&mut self, p: Point) -> i32 {
        self.terri(p, self.color)
    }
    fn diff_moyo(&mut self, p: Point) -> i32 {
        let count = |s: &Self| -> i32 {
            let pts: Vec<Point> = s.goban.points().collect();
            pts.into_iter().filter(|&q| s.moyo_at(q, s.color)).count() as i32
        };
        let before = count(self);
        if self.goban.play(p, self.color).is_err() {
            return 0;
        }
        let after = count(self);
        self.goban.undo();
        after - before
    }
    fn area_stone(&mut self, p: Point) -> i32 {
        self.within3(p, true)
    }
    fn area_space(&mut self, p: Point) -> i32 {
        self.within3(p, false)
    }
    fn eye(&mut self, p: Point) -> i32 {
        i32::from(self.dragons().eye_owner(p).is_some())
    }
    fn proper_eye(&mut self, p: Point) -> i32 {
        let d = self.dragons();
        i32::from(d.eye_owner(p).is_some() && !d.is_marginal_eye(p))
    }
    fn marginal_eye(&mut self, p: Point) -> i32 {
        i32::from(self.dragons().is_marginal_eye(p))
    }
    fn seki_helper(&mut self, p: Point) -> i32 {
        let Some(c) = self.goban.stone(p) else {
            return 0;
        };
        if self.goban.liberties(p) != 2 {
            return 0;
        }
        let libs = self.goban.liberties_of(p, 2);
        let self_atari = |s: &mut Self, q: Point, col: Color| -> bool {
            match s.goban.play(q, col) {
                Err(_) => true,
                Ok(captured) => {
                    let atari = captured == 0 && s.goban.liberties(q) <= 1;
                    s.goban.undo();
                    atari
                }
            }
        };
        let all = libs
            .iter()
            .all(|&q| self_atari(self, q, c) && self_atari(self, q, c.other()));
        i32::from(all)
    }
}
