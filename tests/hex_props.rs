//! The grid matcher on hexagonal boards against the plain reference
//! matcher: random hexagonal databases on random boards of several sides,
//! and the twelve transformations of a board.
#![cfg(feature = "compiler")]

use std::collections::BTreeSet;

use katachi::board::Board;
use katachi::matcher::{Match, Matcher};
use katachi::position::{Color, Point};
use katachi::reference::{grid_placements, reference_matches, Placement};
use mkpat::geometry::{Geometry, Hexagon};
use proptest::prelude::*;

/// One random hexagonal diagram, as text rows: each row's cells a space
/// apart, row `i`'s first cell at axial column `starts[i]`, with one `*`
/// and at least one stone; `sides` (bits of `mkpat::transform::side`)
/// picks the edges drawn: a `-` line above or below, and side marks on
/// the rows whose end cells lie on a chosen side.
fn diagram() -> impl Strategy<Value = Vec<String>> {
    (1usize..=4)
        .prop_flat_map(|rows| {
            (
                proptest::collection::vec((-2i32..=1, 1usize..=4), rows),
                proptest::collection::vec(
                    prop_oneof![
                        3 => Just('.'), 2 => Just('?'), 2 => Just('O'), 2 => Just('X'),
                        1 => Just('o'), 1 => Just('x')
                    ],
                    16,
                ),
                0usize..16,
                0usize..16,
                prop_oneof![3 => Just(0u8), 2 => 0u8..64],
            )
        })
        .prop_map(|(shape, mut pool, mv, stone, sides)| {
            use mkpat::transform::side::*;
            let total: usize = shape.iter().map(|s| s.1).sum();
            let (mv, stone) = (mv % total, stone % total);
            pool[mv] = '*';
            if stone != mv && !matches!(pool[stone], 'O' | 'X') {
                pool[stone] = 'X';
            }
            if !pool[..total].iter().any(|c| matches!(c, 'O' | 'X')) {
                pool[(mv + 1) % total] = 'O';
            }
            // Opposite sides need a diagram as wide as the board: keep at
            // most one of each pair.
            let mut sides = sides;
            for (a, b) in [(NORTH, SOUTH), (WEST, EAST), (LEAST_SUM, MOST_SUM)] {
                if sides & (a | b) == a | b {
                    sides &= !b;
                }
            }
            let first = |i: usize| shape[i].0;
            let last = |i: usize| shape[i].0 + shape[i].1 as i32 - 1;
            let rows = shape.len();
            let min_j = (0..rows).map(first).min().unwrap();
            let max_j = (0..rows).map(last).max().unwrap();
            let min_s = (0..rows).map(|i| i as i32 + first(i)).min().unwrap();
            let max_s = (0..rows).map(|i| i as i32 + last(i)).max().unwrap();
            let mut k = 0;
            let mut out: Vec<String> = Vec::new();
            // Axial (i, j) is drawn 2j + i columns from the origin, moved
            // right by 8 so that every mark has room.
            let x = |i: usize, j: i32| (2 * j + i as i32 + 8) as usize;
            let dashes = || "- - - - - - - - -".to_string();
            if sides & NORTH != 0 {
                out.push(dashes());
            }
            for (i, &(start, len)) in shape.iter().enumerate() {
                let cells: Vec<String> = pool[k..k + len].iter().map(|c| c.to_string()).collect();
                k += len;
                let west = (
                    sides & WEST != 0 && start == min_j,
                    sides & LEAST_SUM != 0 && i as i32 + start == min_s,
                );
                let east = (
                    sides & EAST != 0 && last(i) == max_j,
                    sides & MOST_SUM != 0 && i as i32 + last(i) == max_s,
                );
                let mut line = match west {
                    (true, true) => format!("{}< ", " ".repeat(x(i, start) - 2)),
                    (true, false) => format!("{}\\ ", " ".repeat(x(i, start) - 2)),
                    (false, true) => format!("{}/ ", " ".repeat(x(i, start) - 2)),
                    _ => " ".repeat(x(i, start)),
                };
                line += &cells.join(" ");
                line += match east {
                    (true, true) => " >",
                    (true, false) => " \\",
                    (false, true) => " /",
                    _ => "",
                };
                out.push(line);
            }
            if sides & SOUTH != 0 {
                out.push(dashes());
            }
            out
        })
        .prop_filter("one move", |rows: &Vec<String>| {
            rows.iter().map(|r| r.matches('*').count()).sum::<usize>() == 1
        })
}

fn database() -> impl Strategy<Value = String> {
    proptest::collection::vec(diagram(), 1..5).prop_map(|ds| {
        let mut out = String::from("geometry: hexagon\n\n");
        for (k, rows) in ds.iter().enumerate() {
            out += &format!("# pattern {}\n\n", k + 1);
            for r in rows {
                out += r;
                out.push('\n');
            }
            out += "\n:1,50,0,0,0,0,-,0,NULL\n\n";
        }
        out
    })
}

fn board() -> impl Strategy<Value = (Board<Hexagon>, Color)> {
    (1usize..=7, 0u32..=100, any::<bool>(), any::<u64>()).prop_map(
        |(side, density, black, seed)| {
            let mut b = Board::hexagon(side);
            let mut x = seed | 1;
            for p in b.points().collect::<Vec<_>>() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if (x % 100) < u64::from(density) / 2 {
                    let c = if x & 1 << 40 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.place(p, c);
                }
            }
            (b, if black { Color::Black } else { Color::White })
        },
    )
}

fn compile(src: &str) -> mkpat::Compiled {
    let out = mkpat::compile("hex.db", src.as_bytes(), &mkpat::Options::default());
    assert!(out.is_ok(), "{}\n{src}", out.render());
    out
}

/// Each pattern's move points, by pattern name.
fn moves(found: &BTreeSet<Placement>) -> BTreeSet<(String, Point)> {
    found
        .iter()
        .map(|p| (p.pattern.clone(), p.move_point))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The grid matcher finds exactly the reference's placements.
    #[test]
    fn the_matcher_agrees_with_the_reference(src in database(), (b, to_move) in board()) {
        let c = compile(&src);
        let db = c.database.as_ref().unwrap();
        let tables = db.tables_as::<Hexagon>().expect("a hexagonal database");
        let matcher = Matcher::new(tables);
        let found = matcher.matches(&b, to_move);
        let fast = grid_placements(&matcher, &found);
        let slow = reference_matches(&c.checked, &b, to_move);
        prop_assert_eq!(fast, slow, "{}\n{}", src, b);
        // The key-stone index finds the same matches, each once.
        let mut unordered = Vec::new();
        matcher.scan_unordered(&b, to_move, |m| unordered.push(m));
        unordered.sort();
        let mut found = found;
        found.sort();
        prop_assert_eq!(unordered, found, "{}\n{}", src, b);
    }

    /// After a stone is placed, re-matching near it and keeping the rest
    /// gives the full scan; `scan_near` finds exactly the matches whose
    /// placement covers the point.
    #[test]
    fn rescanning_near_a_move_updates_the_full_scan(
        src in database(), (b, to_move) in board(), k in 0usize..1000, black in any::<bool>(),
    ) {
        let c = compile(&src);
        let db = c.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables_as::<Hexagon>().unwrap());
        let cells: Vec<Point> = b.points().collect();
        let p = cells[k % cells.len()];
        let before: BTreeSet<Match> = matcher.matches(&b, to_move).into_iter().collect();
        let mut after = b.clone();
        after.place(p, if black { Color::Black } else { Color::White });
        let near = |board: &Board<Hexagon>| {
            let mut s = BTreeSet::new();
            matcher.scan_near(board, to_move, p, |m| { s.insert(m); });
            s
        };
        let (old_near, new_near) = (near(&b), near(&after));
        let covering: BTreeSet<Match> = before
            .iter()
            .filter(|m| {
                let (lo, hi) = matcher.placement(m);
                (lo.i..=hi.i).contains(&p.i) && (lo.j..=hi.j).contains(&p.j)
            })
            .copied()
            .collect();
        prop_assert_eq!(&old_near, &covering);
        let patched: BTreeSet<Match> =
            before.difference(&old_near).chain(new_near.iter()).copied().collect();
        let full: BTreeSet<Match> = matcher.matches(&after, to_move).into_iter().collect();
        prop_assert_eq!(patched, full);
    }

    /// Turning or mirroring the board turns or mirrors the matches.
    #[test]
    fn a_transformed_board_gives_the_transformed_matches(
        src in database(),
        (b, to_move) in board(),
        t in 0u8..12,
    ) {
        let c = compile(&src);
        let db = c.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables_as::<Hexagon>().unwrap());
        let before = moves(&grid_placements(&matcher, &matcher.matches(&b, to_move)));
        let turned = b.transformed(t);
        let after = moves(&grid_placements(&matcher, &matcher.matches(&turned, to_move)));
        let expected: BTreeSet<(String, Point)> = before
            .into_iter()
            .map(|(name, p)| (name, b.transform_point(t, p)))
            .collect();
        prop_assert_eq!(after, expected);
    }
}

#[test]
fn a_hexagonal_database_is_refused_as_square_tables_with_a_typed_error() {
    let c = compile("geometry: hexagon\n\n# pattern 1\n\n. O *\n\n:1,50,0,0,0,0,-,0,NULL\n");
    let db = c.database.unwrap();
    let err = db.tables_as::<mkpat::geometry::Square>().unwrap_err();
    assert_eq!(
        (err.found, err.wanted),
        (Geometry::Hexagon, Geometry::Square)
    );
    assert_eq!(
        err.to_string(),
        "the database is for hexagon boards, not square ones"
    );
}

#[test]
fn a_pattern_matches_all_round_the_contest_board() {
    // Two in a row with room on both sides: on an empty board but for one
    // stone in the centre, the move is each of the centre's six neighbours
    // in the direction of a line through it.
    let c = compile("geometry: hexagon\n\n# pattern 1\n\n. O * .\n\n:-,50,0,0,0,0,-,0,NULL\n");
    let db = c.database.unwrap();
    let matcher = Matcher::new(db.tables_as::<Hexagon>().unwrap());
    let mut b = Board::hexagon(9);
    let centre = b.hex_layout().unwrap().point(108).unwrap();
    b.place(centre, Color::Black);
    let found = matcher.matches(&b, Color::Black);
    let mut at: Vec<usize> = found
        .iter()
        .map(|m| b.hex_layout().unwrap().number(m.move_point).unwrap())
        .collect();
    at.sort();
    assert_eq!(at, [91, 92, 107, 109, 124, 125]);
    // The same pattern in a corner would need cells off the board.
    let mut corner = Board::hexagon(9);
    corner.place(Point::new(0, 8), Color::Black);
    let moves: Vec<Point> = matcher
        .matches(&corner, Color::Black)
        .iter()
        .map(|m| m.move_point)
        .collect();
    // Along the top row (right) and down the edge (down-left, down-right):
    // the "." behind the stone is off the board in those three directions.
    assert!(moves.is_empty(), "{moves:?}");
}

/// `patterns/hexagon.db`, compiled by `build.rs` into static tables of the
/// hexagon's type.
#[allow(clippy::all, dead_code)]
mod hexagon_db {
    include!(concat!(env!("OUT_DIR"), "/hexagon.rs"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The generated statics and the same file compiled in memory find
    /// the same matches.
    #[test]
    fn generated_statics_match_as_the_database_compiled_in_memory((b, to_move) in board()) {
        let src = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/hexagon.db")).unwrap();
        let c = mkpat::compile("patterns/hexagon.db", &src, &mkpat::Options::default());
        let db = c.database.as_ref().expect("compiles");
        let in_memory = Matcher::new(db.tables_as::<Hexagon>().unwrap());
        let statics = Matcher::new(hexagon_db::TABLES);
        prop_assert_eq!(statics.tables().geometry(), Geometry::Hexagon);
        let a: BTreeSet<Match> = statics.matches(&b, to_move).into_iter().collect();
        let m: BTreeSet<Match> = in_memory.matches(&b, to_move).into_iter().collect();
        prop_assert_eq!(&a, &m);
        let slow = reference_matches(&c.checked, &b, to_move);
        prop_assert_eq!(grid_placements(&statics, &statics.matches(&b, to_move)), slow);
    }
}
