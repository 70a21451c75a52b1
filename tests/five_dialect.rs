//! The five-in-a-row dialect end to end: line patterns expand to exactly
//! their line directions on both geometries, the grid matcher agrees with
//! the reference matcher on `=` cells and line patterns, and with a
//! re-weighing overlay a best-first scan still finds the best value that
//! evaluating every match finds.
#![cfg(feature = "compiler")]

use std::collections::BTreeSet;

use katachi::board::Board;
use katachi::matcher::Matcher;
use katachi::mkpat;
use katachi::reference::{grid_placements, reference_matches};
use katachi::{Color, Point};
use mkpat::geometry::{Geometry, Hexagon, Shape, Square};
use mkpat::overlay::{Overlay, Selector};
use proptest::prelude::*;

fn compile(src: &str) -> mkpat::Compiled {
    let c = mkpat::compile("five.db", src.as_bytes(), &mkpat::Options::default());
    assert!(c.error_count() == 0, "{src}\n{}", c.render());
    c
}

/// A line pattern's row: cells from `. O X o x ? #`, one `*`, one `O`
/// at least, written for `geometry` (cells a space apart on the hexagon).
fn row() -> impl Strategy<Value = Vec<char>> {
    (
        prop::collection::vec(
            prop::sample::select(vec!['.', 'O', 'X', 'o', 'x', '?', '=']),
            1..7,
        ),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut cells, mv, stone)| {
            let n = cells.len() + 2;
            cells.push('O');
            let s = stone.index(n - 1);
            cells.swap(s, n - 2);
            cells.insert(mv.index(n), '*');
            // A `=` touches a cell that is not `=` (the checker's rule).
            for k in 1..cells.len() {
                if cells[k] == '=' && cells[k - 1] == '=' {
                    cells[k] = '.';
                }
            }
            cells
        })
}

fn line_db(geometry: Geometry, rows: &[Vec<char>]) -> String {
    let mut src = String::from("dialect: five\n");
    if geometry == Geometry::Hexagon {
        src.push_str("geometry: hexagon\n");
    }
    for (k, r) in rows.iter().enumerate() {
        let sep = if geometry == Geometry::Hexagon {
            " "
        } else {
            ""
        };
        let text: Vec<String> = r.iter().map(char::to_string).collect();
        src.push_str(&format!(
            "\nPattern p{k}\n{}\n\n:line,shape,{},{}\n",
            text.join(sep),
            10 * (k + 1),
            5 * (k + 1)
        ));
    }
    src
}

/// A placement as a set of (offset from the move, cell).
type Placed = BTreeSet<(i32, i32, char)>;

/// What the definition says: the row laid from its move along each line
/// direction of the geometry, both ways.
fn expected(geometry: Geometry, row: &[char]) -> BTreeSet<Placed> {
    let m = row.iter().position(|&c| c == '*').unwrap() as i32;
    let mut out = BTreeSet::new();
    for &(di, dj) in geometry.line_directions() {
        for s in [1, -1] {
            out.insert(
                row.iter()
                    .enumerate()
                    .filter(|(_, &c)| c != '?')
                    .map(|(k, &c)| {
                        let t = (k as i32 - m) * s;
                        (t * di, t * dj, if c == '*' { '.' } else { c })
                    })
                    .collect(),
            );
        }
    }
    out
}

/// What the tables hold: every variant of every part named `name`.
fn expanded(db: &mkpat::Database, name: &str) -> BTreeSet<Placed> {
    let t = db.view();
    let mut out = BTreeSet::new();
    for p in db.patterns.iter().filter(|p| p.name == name) {
        for v in t.variants_of(p) {
            let (mi, mj) = (v.move_di as i32, v.move_dj as i32);
            out.insert(
                t.elements_of(p)
                    .iter()
                    .map(|e| {
                        let (i, j) = db.geometry.apply(v.trans, e.di(), e.dj());
                        (i - mi, j - mj, e.cell().as_char())
                    })
                    .collect(),
            );
        }
    }
    out
}

fn random_board<G: Shape>(mut b: Board<G>, cells: &[u8]) -> Board<G> {
    let n = b.size();
    for (k, &c) in cells.iter().enumerate().take(n * n) {
        let p = Point::new((k / n) as i32, (k % n) as i32);
        if katachi::Position::on_board(&b, p) {
            match c {
                1 => {
                    b.place(p, Color::Black);
                }
                2 => {
                    b.place(p, Color::White);
                }
                _ => {}
            }
        }
    }
    b
}

fn agree<G: Shape>(c: &mkpat::Compiled, b: &Board<G>, to_move: Color) {
    let db = c.database.as_ref().unwrap();
    let tables = db.tables_as::<G>().unwrap();
    let m = Matcher::new(tables);
    let found = m.matches(b, to_move);
    assert_eq!(
        grid_placements(&m, &found),
        reference_matches(&c.checked, b, to_move)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn a_line_pattern_expands_to_exactly_its_line_directions(r in row(), hex in any::<bool>()) {
        let g = if hex { Geometry::Hexagon } else { Geometry::Square };
        let c = compile(&line_db(g, std::slice::from_ref(&r)));
        let db = c.database.unwrap();
        prop_assert_eq!(expanded(&db, "p0"), expected(g, &r));
    }

    #[test]
    fn the_matcher_agrees_with_the_reference_on_line_patterns(
        rows in prop::collection::vec(row(), 1..4),
        cells in prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 1, 2]), 81),
        white in any::<bool>(),
    ) {
        let to_move = if white { Color::White } else { Color::Black };
        let c = compile(&line_db(Geometry::Square, &rows));
        agree::<Square>(&c, &random_board(Board::new(9), &cells), to_move);
        let c = compile(&line_db(Geometry::Hexagon, &rows));
        agree::<Hexagon>(&c, &random_board(Board::hexagon(5), &cells), to_move);
    }

    #[test]
    fn best_first_under_an_overlay_finds_the_best_of_all_matches(
        rows in prop::collection::vec(row(), 1..5),
        scales in prop::collection::vec(-50i32..400, 5),
        cells in prop::collection::vec(prop::sample::select(vec![0u8, 0, 1, 2]), 81),
    ) {
        let c = compile(&line_db(Geometry::Square, &rows));
        let db = c.database.as_ref().unwrap();
        let mut overlay = Overlay::identity(db.dialect, &db.patterns);
        for (k, s) in scales.iter().enumerate().take(rows.len()) {
            overlay.scale(&db.patterns, &Selector::Name(format!("p{k}")), *s);
        }
        let tables = db.tables();
        let m = Matcher::with_max_weights(tables, overlay.max_weights());
        let b = random_board(Board::new(9), &cells);
        let value = |m: &katachi::matcher::Match| {
            overlay.values(m.pattern as usize).five().map(|f| f.mine)
        };
        let best = m.best_first(&b, Color::Black, value, |_, _| {}).map(|(_, v)| v);
        let all = m.matches(&b, Color::Black).iter().filter_map(value).max();
        prop_assert_eq!(best, all);
    }
}

#[test]
fn the_compiled_examples_hold_their_kinds_and_the_diagonal_part() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mkpat/tests/data/ok/five.db"
    ))
    .unwrap();
    let c = compile(&src);
    let db = c.database.unwrap();
    assert_eq!(db.dialect, mkpat::Dialect::Five);
    // Each line pattern is two tables patterns on the square; the 2-D
    // shape one.
    let open = db.patterns.iter().filter(|p| p.name == "open-four").count();
    assert_eq!(open, 2);
    assert_eq!(
        db.patterns
            .iter()
            .filter(|p| p.name == "corner-shape")
            .count(),
        1
    );
    let five = db.patterns[0].values.five().unwrap();
    assert_eq!((five.kind, five.mine), (mkpat::tables::Kind::Five, 100_000));
    // An open four on a 15x15 board is found along a diagonal.
    let mut b = Board::new(15);
    for k in 3..6 {
        b.place(Point::new(k, k), Color::Black);
    }
    let m = Matcher::new(db.tables());
    let at: BTreeSet<(String, Point)> = m
        .matches(&b, Color::Black)
        .iter()
        .map(|x| {
            (
                db.patterns[x.pattern as usize].name.to_string(),
                x.move_point,
            )
        })
        .collect();
    assert!(
        at.contains(&("open-four".to_string(), Point::new(6, 6))),
        "{at:?}"
    );
    assert!(
        at.contains(&("open-four".to_string(), Point::new(2, 2))),
        "{at:?}"
    );
    // Closed by the edge: `=` accepts the point off the board.
    let mut b = Board::new(15);
    for k in 0..3 {
        b.place(Point::new(0, k), Color::White);
    }
    let found: Vec<_> = m
        .matches(&b, Color::White)
        .into_iter()
        .filter(|x| db.patterns[x.pattern as usize].name == "closed-four")
        .map(|x| x.move_point)
        .collect();
    assert_eq!(found, [Point::new(0, 3)]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    /// The five-in-a-row valuation against a plain one: every placement
    /// the reference matcher finds, its values summed at its move point.
    #[test]
    fn the_valuation_agrees_with_a_plain_sum_over_the_reference_matches(
        cells in prop::collection::vec(prop::sample::select(vec![0u8, 0, 0, 1, 2]), 121),
    ) {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/five.db")).unwrap();
        let c = compile(&src);
        let db = c.database.as_ref().unwrap();
        let m = Matcher::new(db.tables());
        let overlay = Overlay::identity(db.dialect, &db.patterns);
        let b = random_board(Board::new(11), &cells);
        let v = katachi::five::valuation::Valuation::new(&m, &overlay, &b);
        let mut attack = std::collections::BTreeMap::<(usize, Point), i64>::new();
        let mut defence = std::collections::BTreeMap::<(usize, Point), i64>::new();
        for (ci, colour) in [Color::Black, Color::White].into_iter().enumerate() {
            for placed in reference_matches(&c.checked, &b, colour) {
                let p = c.checked.iter().find(|p| p.name == placed.pattern).unwrap();
                let f = p.values.five().unwrap();
                *attack.entry((ci, placed.move_point)).or_default() += i64::from(f.mine);
                *defence.entry((ci, placed.move_point)).or_default() += i64::from(f.theirs);
            }
        }
        for i in 0..11 {
            for j in 0..11 {
                let p = Point::new(i, j);
                for (ci, colour) in [Color::Black, Color::White].into_iter().enumerate() {
                    let a = attack.get(&(ci, p)).copied().unwrap_or(0);
                    let d = defence.get(&(1 - ci, p)).copied().unwrap_or(0);
                    prop_assert_eq!(v.attack(p, colour), a, "{:?} {:?}", p, colour);
                    prop_assert_eq!(v.value(p, colour), a + d, "{:?} {:?}", p, colour);
                }
            }
        }
    }
}
