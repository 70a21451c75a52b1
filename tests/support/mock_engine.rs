//! A MOCK constraint engine, for equivalence testing only: its answers
//! mean nothing about Go. `lib` counts real liberties on the board; every
//! other function returns a deterministic hash of its name and point
//! arguments, in 0..4 so that comparisons and truth tests go both ways.
//! It records every call so that the two evaluation paths (generated
//! functions, interpreter) can be compared call by call.

use katachi::board::Board;
use katachi::go::constraint::ConstraintEngine;
use katachi::go::position::GoPosition;
use katachi::{Color, Point};

pub struct Mock<'a> {
    pub board: &'a Board,
    pub calls: Vec<(&'static str, Vec<Point>)>,
}

impl<'a> Mock<'a> {
    pub fn new(board: &'a Board) -> Mock<'a> {
        Mock {
            board,
            calls: Vec::new(),
        }
    }

    fn hashed(&mut self, name: &'static str, pts: &[Point]) -> i32 {
        self.calls.push((name, pts.to_vec()));
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        for p in pts {
            for v in [p.i, p.j] {
                h = (h ^ (v as u32 as u64)).wrapping_mul(0x100_0000_01b3);
            }
        }
        (h >> 33) as i32 & 3
    }
}

macro_rules! mock_one {
    ($($name:ident)*) => {
        $(fn $name(&mut self, p: Point) -> i32 { self.hashed(stringify!($name), &[p]) })*
    };
}
macro_rules! mock_two {
    ($($name:ident)*) => {
        $(fn $name(&mut self, p: Point, q: Point) -> i32 { self.hashed(stringify!($name), &[p, q]) })*
    };
}
macro_rules! mock_seq {
    ($($name:ident)*) => {
        $(fn $name(&mut self, moves: &[Point], target: Point) -> i32 {
            let mut all = moves.to_vec();
            all.push(target);
            self.hashed(stringify!($name), &all)
        })*
    };
}

impl ConstraintEngine for Mock<'_> {
    fn lib(&mut self, p: Point) -> i32 {
        self.calls.push(("lib", vec![p]));
        self.board.liberties(p) as i32
    }
    mock_one!(lib2 lib3 lib4 xlib olib ko status alive unknown critical dead genus weak cutstone attack defend
        safe_xmove safe_omove xcut ocut xarea oarea xmoyo omoyo xterri oterri diff_moyo area_stone area_space
        eye proper_eye marginal_eye seki_helper);
    mock_two!(does_attack does_defend xdefend_against odefend_against);
    mock_seq!(xplay_attack oplay_attack xplay_defend oplay_defend);
}

/// The matcher's board holding `stones` in reading order.
pub fn board_of(size: usize, stones: impl IntoIterator<Item = Option<Color>>) -> Board {
    let mut b = Board::new(size);
    for (k, s) in stones.into_iter().enumerate() {
        b.set(Point::new((k / size) as i32, (k % size) as i32), s);
    }
    b
}
