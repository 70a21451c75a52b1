//! Ladders on the playout board: can a string be chased to capture by
//! successive ataris?
//!
//! The playout policy's answer to an atari is blind without it: a string
//! in atari that extends to two liberties is often caught a few moves
//! later (a ladder), and a policy that always runs adds stones to the
//! loss in every playout, which the search then reads as the fate of the
//! position. [`super::reading`] answers the
//! same question on the full board with a cache; this is the cheap
//! version for [`super::playout`], on a copy of [`FastBoard`] (which has
//! no undo), bounded by a budget of stones played so that a playout never
//! waits on a long read: when the budget runs out the string counts as
//! escaped.
//!
//! The read is the simple ladder: the defender either captures an
//! attacker string next to it that is in atari (then it counts as
//! escaped) or extends at its liberty; the attacker ataris from either
//! side where that is not a self-atari.

use super::fastboard::{FastBoard, EMPTY};

/// Stones a ladder read may play before it gives up (the string then
/// counts as escaped). A ladder across a 19x19 board is about 40 stones.
pub const LADDER_BUDGET: u32 = 60;

/// A ladder reader: the scratch boards its reads play on, kept between
/// reads so that a playout's reads allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct Ladders {
    /// `boards[0]` is the read's copy of the position; deeper ones are
    /// taken when the attacker has two ataris to try.
    boards: Vec<FastBoard>,
    budget: u32,
}

impl Ladders {
    pub fn new() -> Ladders {
        Ladders::default()
    }

    /// Makes `board` the read's position (depth 0 of the scratch stack).
    fn start(&mut self, board: &FastBoard) {
        match self.boards.first_mut() {
            Some(b) => b.copy_from(board),
            None => self.boards.push(board.clone()),
        }
        self.budget = LADDER_BUDGET;
    }

    /// Makes scratch board `d + 1` a copy of board `d`, to try a second
    /// line there.
    fn branch(&mut self, d: usize) {
        if self.boards.len() <= d + 1 {
            let copy = self.boards[d].clone();
            self.boards.push(copy);
        } else {
            let (here, deeper) = self.boards.split_at_mut(d + 1);
            deeper[0].copy_from(&here[d]);
        }
    }

    /// Is the string through stone `s`, in atari with its owner to move,
    /// captured in a ladder whatever it does?
    pub fn captured_in_atari(&mut self, board: &FastBoard, s: u16) -> bool {
        self.start(board);
        self.defend(0, s)
    }

    /// Would the string through stone `s` of the player to move be
    /// captured in a ladder after it extends at its liberty `lib` (the
    /// string then has two liberties and the opponent moves)? `lib` must
    /// be legal for that player.
    pub fn captured_after_extension(&mut self, board: &FastBoard, s: u16, lib: u16) -> bool {
        self.start(board);
        self.boards[0].play(lib, board.at(s));
        self.attack(0, s)
    }

    /// On board `d`, the string through `s` is in atari and its owner
    /// moves: true when it is captured.
    fn defend(&mut self, d: usize, s: u16) -> bool {
        let b = &mut self.boards[d];
        let own = b.at(s);
        if own == EMPTY {
            // Captured on the way (by an attacker's atari that took it).
            return true;
        }
        if !b.in_atari(s) {
            return false;
        }
        if captures_an_attacker(b, s) {
            return false;
        }
        let lib = b.atari_liberty(s);
        if !b.is_legal(lib, own) {
            return true;
        }
        let (libs, captures, _) = b.after_move(lib, own);
        if captures || libs >= 3 {
            return false;
        }
        if libs <= 1 {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        b.play(lib, own);
        self.attack(d, s)
    }

    /// On board `d`, the string through `s` has two liberties and the
    /// attacker moves: true when an atari from one side or the other
    /// captures it. An atari after which the string's extension would
    /// have three liberties is not tried.
    fn attack(&mut self, d: usize, s: u16) -> bool {
        let b = &self.boards[d];
        let own = b.at(s);
        let a = 3 - own;
        let Some(found) = two_liberties(b, s) else {
            return b.liberty_count(s, 2) < 2;
        };
        let mut tries = [0u16; 2];
        let mut n = 0;
        for (i, &l) in found.iter().enumerate() {
            if attacker_may_play(b, l, a) && !escapes(b, own, l, found[1 - i]) {
                tries[n] = l;
                n += 1;
            }
        }
        for (i, &l) in tries[..n].iter().enumerate() {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if i + 1 < n {
                self.branch(d);
                self.boards[d + 1].play(l, a);
                if self.defend(d + 1, s) {
                    return true;
                }
            } else {
                self.boards[d].play(l, a);
                return self.defend(d, s);
            }
        }
        false
    }
}

/// The two liberties of the string through stone `s`, when it has
/// exactly two.
fn two_liberties(b: &FastBoard, s: u16) -> Option<[u16; 2]> {
    let mut libs = [0u16; 2];
    let mut n = 0;
    let mut t = s;
    loop {
        for q in b.neighbours(t) {
            if b.at(q) == EMPTY && !libs[..n].contains(&q) {
                if n == 2 {
                    return None;
                }
                libs[n] = q;
                n += 1;
            }
        }
        t = b.next_stone(t);
        if t == s {
            return (n == 2).then_some(libs);
        }
    }
}

/// May the attacker `a` atari at `l`: legal, and not putting its own
/// stone in atari unless it captures?
fn attacker_may_play(b: &FastBoard, l: u16, a: u8) -> bool {
    if !b.is_legal(l, a) {
        return false;
    }
    let (libs, captures, _) = b.after_move(l, a);
    libs >= 2 || captures
}

/// After an atari at `at` on a two-liberty string of colour `own` whose
/// other liberty is `e`, does the string plainly escape: its extension
/// at `e` has three liberties or captures? Read without playing either
/// stone.
fn escapes(b: &FastBoard, own: u8, at: u16, e: u16) -> bool {
    let (n, captures, _) = b.after_move_without(e, own, at);
    captures || n >= 3
}

/// Can the owner of the string through `s` capture an opponent string
/// next to it that is in atari?
fn captures_an_attacker(b: &FastBoard, s: u16) -> bool {
    let d = b.at(s);
    let mut t = s;
    loop {
        for r in b.neighbours(t) {
            if b.at(r) == 3 - d && b.in_atari(r) && b.is_legal(b.atari_liberty(r), d) {
                return true;
            }
        }
        t = b.next_stone(t);
        if t == s {
            return false;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::go::playout::tests::diagram;
    use crate::position::Point;

    fn at(b: &FastBoard, i: i32, j: i32) -> u16 {
        b.index(Point::new(i, j))
    }

    /// White has just played the atari at (4,4): the black stone's
    /// extension to (5,3) leaves two liberties, and so on down the
    /// staircase to the left edge.
    pub(crate) const LADDER: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . O . . . . .",
        ". . O X O . . . .",
        ". . . . O . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];

    #[test]
    fn a_ladder_on_the_open_board_captures() {
        let b = diagram(&LADDER);
        let s = at(&b, 4, 3);
        assert!(b.in_atari(s));
        assert!(Ladders::new().captured_in_atari(&b, s));
        assert!(Ladders::new().captured_after_extension(&b, s, at(&b, 5, 3)));
    }

    #[test]
    fn a_ladder_breaker_saves_the_string() {
        // The same ladder with a black stone on its path.
        let mut rows = LADDER;
        rows[7] = ". X . . . . . . .";
        let b = diagram(&rows);
        let s = at(&b, 4, 3);
        assert!(!Ladders::new().captured_in_atari(&b, s));
        assert!(!Ladders::new().captured_after_extension(&b, s, at(&b, 5, 3)));
        // A black stone off the path changes nothing.
        let mut rows = LADDER;
        rows[0] = ". . . . . . . . X";
        let b = diagram(&rows);
        assert!(Ladders::new().captured_in_atari(&b, s));
    }

    #[test]
    fn a_string_that_can_capture_an_attacker_escapes() {
        // The white stone at (4,4) is itself in atari.
        let b = diagram(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . O X . . . .",
            ". . O X O X . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        let s = at(&b, 4, 3);
        assert!(b.in_atari(s) && b.in_atari(at(&b, 4, 4)));
        assert!(!Ladders::new().captured_in_atari(&b, s));
    }
}
