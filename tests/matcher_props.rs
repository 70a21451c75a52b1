//! The grid matcher against the plain reference matcher, on random
//! databases and boards; plus deterministic tests of edges, corners,
//! board sizes and the incremental merged board.
#![cfg(feature = "compiler")]

use std::collections::BTreeSet;

use katachi::board::Board;
use katachi::matcher::{Match, Matcher};
use katachi::position::{Color, Point, Position};
use katachi::reference::{reference_matches, Placement};
use mkpat::tables::Tables;
use mkpat::transform::side;
use proptest::prelude::*;

/// Compiles `src` strictly, panicking with the rendered diagnostics.
fn compile(src: &str) -> mkpat::Compiled {
    let out = mkpat::compile("test.db", src.as_bytes(), &mkpat::Options::default());
    assert!(out.is_ok(), "{}", out.render());
    out
}

fn grid_placements(matcher: &Matcher<'_>, board: &Board, to_move: Color) -> BTreeSet<Placement> {
    katachi::reference::grid_placements(matcher, &matcher.matches(board, to_move))
}

/// A random diagram: rows of random cells with one `*` and at least one
/// stone, some edge sides, in the seed dialect with class `8`.
fn diagram() -> impl Strategy<Value = (Vec<String>, u8)> {
    (1usize..=5, 1usize..=5, 0u8..16)
        .prop_flat_map(|(rows, cols, edges)| {
            let n = rows * cols;
            (
                Just((rows, cols, edges)),
                proptest::collection::vec(
                    prop_oneof![
                        3 => Just('.'), 2 => Just('?'), 2 => Just('O'), 2 => Just('X'),
                        1 => Just('o'), 1 => Just('x')
                    ],
                    n,
                ),
                0..n,
                0..n,
            )
        })
        .prop_map(|((_rows, cols, edges), mut cells, mv, stone)| {
            if stone == mv {
                cells[mv] = '*';
                let other = (mv + 1) % cells.len();
                if other != mv {
                    cells[other] = 'O';
                }
            } else {
                cells[mv] = '*';
                if !matches!(cells[stone], 'O' | 'X') {
                    cells[stone] = 'X';
                }
            }
            // Opposite edge sides need a diagram as tall (wide) as the
            // board; keep at most one side per axis.
            let mut e = edges;
            if e & (side::NORTH | side::SOUTH) == side::NORTH | side::SOUTH {
                e &= !side::SOUTH;
            }
            if e & (side::WEST | side::EAST) == side::WEST | side::EAST {
                e &= !side::EAST;
            }
            let rows_text: Vec<String> = cells.chunks(cols).map(|r| r.iter().collect()).collect();
            (rows_text, e)
        })
        .prop_filter("a stone besides the move", |(rows, _)| {
            rows.iter().any(|r| r.contains(['O', 'X']))
        })
}

/// The seed-dialect text of one pattern, edges drawn.
fn pattern_text(number: usize, rows: &[String], edges: u8) -> String {
    let cols = rows[0].len();
    let w = edges & side::WEST != 0;
    let e = edges & side::EAST != 0;
    let edge_line = || {
        let mut s = String::new();
        s.push(if w { '+' } else { '-' });
        s.push_str(&"-".repeat(cols));
        if e {
            s.push('+');
        }
        s
    };
    let mut out = format!("# pattern {number}\n\n");
    if edges & side::NORTH != 0 {
        out += &edge_line();
        out.push('\n');
    }
    for r in rows {
        if w {
            out.push('|');
        }
        out += r;
        if e {
            out.push('|');
        }
        out.push('\n');
    }
    if edges & side::SOUTH != 0 {
        out += &edge_line();
        out.push('\n');
    }
    out += "\n:8,50,0,0,0,0,-,0,NULL\n\n";
    out
}

fn database() -> impl Strategy<Value = String> {
    proptest::collection::vec(diagram(), 1..6).prop_map(|ds| {
        ds.iter()
            .enumerate()
            .map(|(k, (rows, edges))| pattern_text(k + 1, rows, *edges))
            .collect()
    })
}

fn board() -> impl Strategy<Value = (Board, Color)> {
    (1usize..=19, 0u32..=100, any::<bool>(), any::<u64>()).prop_map(
        |(size, density, black, seed)| {
            let mut b = Board::new(size);
            let mut x = seed | 1;
            for p in b.points().collect::<Vec<_>>() {
                // xorshift: the strategy stays shrinkable in its seed.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if (x % 100) < u64::from(density) {
                    b.place(
                        p,
                        if (x >> 32) % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        },
                    );
                }
            }
            (b, if black { Color::Black } else { Color::White })
        },
    )
}

/// Maps a placement through the board transformation `t`.
fn transform_placement(b: &Board, t: u8, p: &Placement) -> Placement {
    let a = b.transform_point(t, p.top_left);
    let c = b.transform_point(t, p.bottom_right);
    Placement {
        pattern: p.pattern.clone(),
        move_point: b.transform_point(t, p.move_point),
        top_left: Point::new(a.i.min(c.i), a.j.min(c.j)),
        bottom_right: Point::new(a.i.max(c.i), a.j.max(c.j)),
        cells: {
            let mut cells: Vec<(Point, char)> = p
                .cells
                .iter()
                .map(|&(q, ch)| (b.transform_point(t, q), ch))
                .collect();
            cells.sort();
            cells
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn grid_matcher_finds_exactly_what_the_reference_finds(src in database(), (b, to_move) in board()) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let want = reference_matches(&compiled.checked, &b, to_move);
        let got = grid_placements(&matcher, &b, to_move);
        prop_assert_eq!(got, want, "database:\n{}\nboard ({:?} to move):\n{}", src, to_move, b);
        // The key-stone index (each variant found from its most selective
        // stone) finds the same matches, each once, only in another order.
        let mut anchored = matcher.matches(&b, to_move);
        let mut keyed = Vec::new();
        matcher.scan_unordered(&b, to_move, |m| keyed.push(m));
        anchored.sort();
        keyed.sort();
        prop_assert_eq!(keyed, anchored, "database:\n{}\nboard ({:?} to move):\n{}", src, to_move, b);
    }

    #[test]
    fn matches_follow_the_board_transformation(src in database(), (b, to_move) in board(), t in 0u8..8) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let moved: BTreeSet<Placement> = grid_placements(&matcher, &b, to_move)
            .iter()
            .map(|p| transform_placement(&b, t, p))
            .collect();
        let on_transformed = grid_placements(&matcher, &b.transformed(t), to_move);
        prop_assert_eq!(on_transformed, moved);
    }

    #[test]
    fn incremental_merged_board_equals_a_rebuild(
        size in 1usize..=19,
        ops in proptest::collection::vec((0i32..19, 0i32..19, 0u8..3), 0..200),
    ) {
        let mut b = Board::new(size);
        for (i, j, what) in ops {
            let p = Point::new(i % size as i32, j % size as i32);
            match what {
                0 => { b.remove(p); }
                1 => { b.place(p, Color::Black); }
                _ => { b.place(p, Color::White); }
            }
        }
        for c in [Color::Black, Color::White] {
            let rebuilt = b.merged_from_scratch(c);
            prop_assert_eq!(b.merged_board(c), rebuilt.as_slice());
        }
    }

    #[test]
    fn rescanning_near_a_move_updates_the_full_scan(
        src in database(), (b, to_move) in board(), at in (0i32..19, 0i32..19), black in any::<bool>(),
    ) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let n = b.size() as i32;
        let p = Point::new(at.0 % n, at.1 % n);
        let before: BTreeSet<Match> = matcher.matches(&b, to_move).into_iter().collect();
        let mut after_board = b.clone();
        after_board.place(p, if black { Color::Black } else { Color::White });
        let near = |board: &Board| {
            let mut s = BTreeSet::new();
            matcher.scan_near(board, to_move, p, |m| { s.insert(m); });
            s
        };
        // Everything outside the rescanned region is unchanged.
        let (old_near, new_near) = (near(&b), near(&after_board));
        let patched: BTreeSet<Match> = before.difference(&old_near).chain(new_near.iter()).copied().collect();
        let full: BTreeSet<Match> = matcher.matches(&after_board, to_move).into_iter().collect();
        prop_assert_eq!(patched, full);
    }
}

/// One process, several board sizes: the edge test is per board.
#[test]
fn edge_and_corner_patterns_on_several_sizes() {
    let src = "\
# pattern 1

+---
|O*.
|...

:8,50,0,0,0,0,-,0,NULL

# pattern 2

X*
--

:8,50,0,0,0,0,-,0,NULL
";
    let compiled = compile(src);
    let db = compiled.database.as_ref().unwrap();
    let matcher = Matcher::new(db.tables());
    for size in [3usize, 5, 9, 13, 19, 25, 26, 7, 2] {
        let mut b = Board::new(size);
        let last = size as i32 - 1;
        // A white stone in every corner: pattern 1 (white to move) fits
        // each corner in two transformations (the move on either side).
        for p in [
            Point::new(0, 0),
            Point::new(0, last),
            Point::new(last, 0),
            Point::new(last, last),
        ] {
            b.place(p, Color::White);
        }
        let got = grid_placements(&matcher, &b, Color::White);
        let want = reference_matches(&compiled.checked, &b, Color::White);
        assert_eq!(got, want, "size {size}");
        let corner_moves: BTreeSet<Point> = got
            .iter()
            .filter(|p| p.pattern == "1")
            .map(|p| p.move_point)
            .collect();
        if size >= 4 {
            assert_eq!(corner_moves.len(), 8, "size {size}: {corner_moves:?}");
            assert!(
                corner_moves.contains(&Point::new(0, 1))
                    && corner_moves.contains(&Point::new(last, last - 1))
            );
        }
        // Pattern 2 (black to move sees the white corner stones as `X`):
        // the move next to each corner stone along each edge.
        let edge = grid_placements(&matcher, &b, Color::Black);
        let edge_moves: BTreeSet<Point> = edge
            .iter()
            .filter(|p| p.pattern == "2")
            .map(|p| p.move_point)
            .collect();
        assert_eq!(
            edge,
            reference_matches(&compiled.checked, &b, Color::Black),
            "size {size}"
        );
        if size >= 4 {
            assert_eq!(edge_moves.len(), 8, "size {size}: {edge_moves:?}");
        }
        // Off the edge, nothing: a stone on the second line does not match.
        let mut inner = Board::new(size);
        if size >= 4 {
            inner.place(Point::new(1, 1), Color::White);
            assert!(
                matcher.matches(&inner, Color::White).is_empty(),
                "size {size}"
            );
        }
    }
}

#[test]
fn a_one_point_board_matches_nothing_but_fits_a_one_point_diagram() {
    let compiled = compile("# pattern 1\n\nO*\n\n:8,50,0,0,0,0,-,0,NULL\n");
    let db = compiled.database.as_ref().unwrap();
    let matcher = Matcher::new(db.tables());
    let mut b = Board::new(1);
    b.place(Point::new(0, 0), Color::Black);
    assert!(matcher.matches(&b, Color::Black).is_empty());
    let mut b = Board::new(2);
    b.place(Point::new(0, 0), Color::Black);
    let found = matcher.matches(&b, Color::Black);
    let moves: BTreeSet<Point> = found.iter().map(|m| m.move_point).collect();
    assert_eq!(
        moves,
        [Point::new(0, 1), Point::new(1, 0)].into_iter().collect()
    );
    assert!(
        matcher.matches(&b, Color::White).is_empty(),
        "O means the side to move"
    );
}

#[test]
fn incremental_updates_after_place_and_remove_sequences() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for size in [1usize, 2, 4, 9, 19, 25, 26] {
        let mut b = Board::new(size);
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let p = Point::new((x % size as u64) as i32, ((x >> 20) % size as u64) as i32);
            match (x >> 40) % 3 {
                0 => {
                    b.remove(p);
                }
                1 => {
                    b.place(p, Color::Black);
                }
                _ => {
                    b.place(p, Color::White);
                }
            }
            assert_eq!(b.stone(p).is_some(), (x >> 40) % 3 != 0);
        }
        for c in [Color::Black, Color::White] {
            assert_eq!(
                b.merged_board(c),
                b.merged_from_scratch(c).as_slice(),
                "size {size}"
            );
        }
    }
}

#[test]
fn builtin_tables_run_through_the_same_matcher() {
    let matcher = Matcher::new(katachi::go::builtin::TABLES);
    let compiled = mkpat::compile(
        "patterns/patterns.db",
        &std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/patterns.db")).unwrap(),
        &mkpat::Options {
            lenient: true,
            ..Default::default()
        },
    );
    let db = compiled
        .database
        .as_ref()
        .expect("the builtin database compiles");
    let in_memory = Matcher::new(db.tables());
    let mut b = Board::new(9);
    for (k, p) in b.points().collect::<Vec<_>>().into_iter().enumerate() {
        if k % 3 == 0 {
            b.place(
                p,
                if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            );
        }
    }
    for c in [Color::Black, Color::White] {
        let a: BTreeSet<Match> = matcher.matches(&b, c).into_iter().collect();
        let m: BTreeSet<Match> = in_memory.matches(&b, c).into_iter().collect();
        assert_eq!(a, m);
    }
}

const SCORED_DB: &str = "\
# pattern 1

O*

:-,30,0,0,0,0,-,0,half_helper

# pattern 2

X*O

:-,80,10,1,0,0,-,0,NULL

# pattern 3

O*

:-,10,0,0,0,0,D,0,NULL
";

/// A stand-in valuation for the matcher's best-first search: the
/// weight, halved for patterns with a helper (the engine's real valuation
/// is tested with the move generator).
fn stand_in_value(tables: Tables<'_>, m: &Match) -> Option<i32> {
    let p = &tables.patterns[m.pattern as usize];
    let weight = p.values.go().expect("a Go pattern").weight;
    Some(if p.helper.is_some() {
        weight / 2
    } else {
        weight
    })
}

#[test]
fn best_first_skips_patterns_that_cannot_win_but_runs_always_run_classes() {
    let compiled = compile(SCORED_DB);
    let db = compiled.database.as_ref().unwrap();
    let tables = db.tables();
    let matcher = Matcher::new(tables);
    let mut b = Board::new(9);
    b.place(Point::new(2, 2), Color::White);
    b.place(Point::new(2, 4), Color::Black);
    let name = |m: &Match| tables.patterns[m.pattern as usize].name.to_string();

    let all = matcher.matches(&b, Color::Black);
    assert_eq!(all.len(), 9, "{all:?}");
    let mut seen = Vec::new();
    let best = matcher.best_first(
        &b,
        Color::Black,
        |m| stand_in_value(tables, m),
        |m, v| seen.push((name(m), v)),
    );
    let (m, v) = best.expect("a best move");
    assert_eq!(
        (name(&m), v, m.move_point),
        ("2".to_string(), 80, Point::new(2, 3))
    );
    // Pattern 1 (at most 30) cannot beat 80 and is skipped; pattern 3 is
    // class D and runs at each of its four placements.
    assert!(!seen.iter().any(|(n, _)| n == "1"), "{seen:?}");
    assert_eq!(seen.iter().filter(|(n, _)| n == "3").count(), 4, "{seen:?}");
    // Exhaustively, the same best.
    let top = all
        .iter()
        .filter_map(|m| stand_in_value(tables, m).map(|v| (v, name(m))))
        .max();
    assert_eq!(top, Some((80, "2".to_string())));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `scan_near` finds exactly the matches of a full scan whose
    /// placement covers the point, no more.
    #[test]
    fn scan_near_finds_exactly_the_matches_covering_the_point(
        src in database(), (b, to_move) in board(), at in (0i32..19, 0i32..19),
    ) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let n = b.size() as i32;
        let p = Point::new(at.0 % n, at.1 % n);
        let covering: BTreeSet<Match> = matcher
            .matches(&b, to_move)
            .into_iter()
            .filter(|m| {
                let (tl, br) = matcher.placement(m);
                (tl.i..=br.i).contains(&p.i) && (tl.j..=br.j).contains(&p.j)
            })
            .collect();
        let mut near = Vec::new();
        matcher.scan_near(&b, to_move, p, |m| near.push(m));
        let near_set: BTreeSet<Match> = near.iter().copied().collect();
        prop_assert_eq!(near.len(), near_set.len(), "no match twice");
        prop_assert_eq!(near_set, covering);
    }

    /// A change at `p` makes or breaks only matches anchored at `p - d`
    /// for the offsets `d` of [`Matcher::reads`]: what an engine that
    /// keeps its matches move by move rescans.
    #[test]
    fn a_change_touches_only_the_anchors_that_read_it(
        src in database(), (b, to_move) in board(), at in (0i32..19, 0i32..19), black in any::<bool>(),
    ) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let n = b.size() as i32;
        let p = Point::new(at.0 % n, at.1 % n);
        let mut after = b.clone();
        if after.stone(p).is_some() {
            after.remove(p);
        } else {
            after.place(p, if black { Color::Black } else { Color::White });
        }
        let before: BTreeSet<Match> = matcher.matches(&b, to_move).into_iter().collect();
        let now: BTreeSet<Match> = matcher.matches(&after, to_move).into_iter().collect();
        let readers: BTreeSet<Point> =
            matcher.reads().iter().map(|&(di, dj)| Point::new(p.i - di, p.j - dj)).collect();
        for m in before.symmetric_difference(&now) {
            prop_assert!(readers.contains(&m.anchor), "{m:?} changed, anchored out of reads");
        }
    }

    /// `scan_anchor` over every point is the full scan, in the same order.
    #[test]
    fn scanning_every_anchor_is_the_full_scan(src in database(), (b, to_move) in board()) {
        let compiled = compile(&src);
        let db = compiled.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let mut by_anchor = Vec::new();
        for p in b.points() {
            matcher.scan_anchor(&b, to_move, p, |m| by_anchor.push(m));
        }
        prop_assert_eq!(by_anchor, matcher.matches(&b, to_move));
        let s = matcher.stats();
        prop_assert!(s.buckets <= 2 * 65_536 && s.largest_bucket <= s.variants);
        prop_assert!(s.entries <= s.variants * 65_536 && s.bytes > 0);
    }
}
