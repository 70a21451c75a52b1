//! A five-in-a-row move picker built on katachi's matcher: two pattern
//! databases compiled by `build.rs`, one helper, one scan per database.
//!
//! Every empty point is worth the sum of what the patterns matching there
//! say: for the side to move, its line shapes' `mine` values and its
//! helper-valued shapes; against the opponent, their line shapes'
//! `theirs` values (taking the point stops them).

use std::sync::LazyLock;

use katachi::board::Board;
use katachi::matcher::Matcher;
use katachi::mkpat::tables::Values;
use katachi::{Color, Point, Position};

pub mod helpers;

/// The tables of `patterns/lines.db` (the five-in-a-row dialect).
pub mod lines {
    // The generated module names `mkpat::tables`: katachi's, re-exported.
    use katachi::mkpat;
    include!(concat!(env!("OUT_DIR"), "/lines.rs"));
}

/// The tables of `patterns/shapes.db`, and `HELPERS`, the registry of
/// `src/helpers.rs` by name.
pub mod shapes {
    use katachi::mkpat;
    include!(concat!(env!("OUT_DIR"), "/shapes.rs"));
}

/// What a helper is told: the match and the board, as a [`Position`].
pub type HelperContext<'a> = katachi::HelperContext<'a, dyn Position + 'a>;

/// A helper, as the generated `HELPERS` registry lists them.
pub type HelperFn = fn(&HelperContext<'_>) -> i32;

/// Each database's matcher, built once: building the index is the costly
/// part, a scan is cheap.
static LINES: LazyLock<Matcher<'static>> = LazyLock::new(|| Matcher::new(lines::TABLES));
static SHAPES: LazyLock<Matcher<'static>> = LazyLock::new(|| Matcher::new(shapes::TABLES));

/// The helper a shape names, resolved through the registry.
fn helper(name: &str) -> Option<HelperFn> {
    shapes::HELPERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, f)| f)
}

/// Every empty point's value for `to_move`, row by row (`0` where no
/// pattern matches).
pub fn values(board: &Board, to_move: Color) -> Vec<i32> {
    let n = board.size();
    let mut value = vec![0; n * n];
    let mut add = |p: Point, v: i32| value[p.i as usize * n + p.j as usize] += v;
    for (side, ours) in [(to_move, true), (to_move.other(), false)] {
        LINES.scan(board, side, |m| {
            if let Values::Five(f) = &lines::PATTERNS[m.pattern as usize].values {
                add(m.move_point, if ours { f.mine } else { f.theirs });
            }
        });
    }
    SHAPES.scan(board, to_move, |m| {
        let pattern = &shapes::PATTERNS[m.pattern as usize];
        let (Some(name), Some(go)) = (&pattern.helper, pattern.values.go()) else {
            return;
        };
        let f = helper(name).expect("build.rs checked every helper name");
        let ctx = HelperContext {
            pattern,
            weight: go.weight,
            geometry: shapes::TABLES.geometry(),
            trans: m.trans,
            move_point: m.move_point,
            color: to_move,
            position: board,
        };
        add(m.move_point, f(&ctx));
    });
    value
}

/// The best point for `to_move`, the first in reading order among equals;
/// `None` when no pattern matches anywhere.
pub fn best_move(board: &Board, to_move: Color) -> Option<Point> {
    let n = board.size();
    let value = values(board, to_move);
    let (k, &v) = value
        .iter()
        .enumerate()
        .max_by_key(|&(k, v)| (*v, std::cmp::Reverse(k)))?;
    (v > 0).then(|| Point::new((k / n) as i32, (k % n) as i32))
}
