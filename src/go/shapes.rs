//! The playouts' shape table: `patterns/playout.db` (or any database
//! keeping to its rules) read into a table from a point's eight
//! neighbours to a weight.
//!
//! The playouts ask "is there a shape here?" millions of times a second;
//! the matcher answers in microseconds. So the matcher is run once per
//! possible neighbourhood, at start-up, and the playouts read the table.
//! The database keeps the same language, symmetry classes and edge rules
//! as every other one; see `docs/patterns.md` for its extra rules.

use std::sync::OnceLock;

use mkpat::tables::Tables;
use mkpat::transform::side;

use crate::board::Board;
use crate::matcher::Matcher;
use crate::position::{Color, Point};

/// The 3x3 shapes of a playout pattern database, as a table from a
/// point's eight neighbours to a weight (0: no shape).
///
/// The neighbourhood code packs the eight neighbours N, S, W, E, NW, NE,
/// SW, SE two bits each (0 empty, 1 the side to move, 2 the opponent,
/// 3 off the board), lowest bits first. The table is built once from the
/// compiled patterns by the ordinary [`Matcher`] on a 5x5 board set up for
/// each possible neighbourhood, so the playouts read the same language,
/// symmetry classes and edge rules as every other database.
#[derive(Clone, Debug)]
pub struct ShapeTable {
    weights: Vec<u16>,
    /// Neighbourhoods with a shape (for reports and tests).
    shapes: usize,
}

/// Offsets (di, dj) of the neighbours in code order (that of
/// [`super::fastboard::FastBoard::eight`]); the move predictor's shape
/// keys share it.
pub(crate) const RING: [(i32, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

impl ShapeTable {
    /// The table of katachi's `patterns/playout.db`.
    pub fn builtin() -> &'static ShapeTable {
        static TABLE: OnceLock<ShapeTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            ShapeTable::new(crate::go::builtin_playout::TABLES)
                .expect("patterns/playout.db keeps to the playout rules (tested)")
        })
    }

    /// An empty table: the playouts then play no shapes.
    pub fn none() -> &'static ShapeTable {
        static NONE: OnceLock<ShapeTable> = OnceLock::new();
        NONE.get_or_init(|| ShapeTable {
            weights: vec![0; 1 << 16],
            shapes: 0,
        })
    }

    /// Builds the table of a compiled database. Every pattern must lie
    /// within one point of its move, and its edges must run along the
    /// move's own row or column: otherwise an error naming the pattern.
    pub fn new(tables: Tables<'_>) -> Result<ShapeTable, String> {
        for p in tables.patterns {
            let (mi, mj) = (p.move_di, p.move_dj);
            let e = p.extent;
            let near =
                e.min_i >= mi - 1 && e.max_i <= mi + 1 && e.min_j >= mj - 1 && e.max_j <= mj + 1;
            if !near {
                return Err(format!(
                    "playout pattern `{}` (line {}) reaches beyond the eight neighbours of its move",
                    p.name, p.line
                ));
            }
            let edges_ok = (p.edges & side::NORTH == 0 || e.min_i == mi)
                && (p.edges & side::SOUTH == 0 || e.max_i == mi)
                && (p.edges & side::WEST == 0 || e.min_j == mj)
                && (p.edges & side::EAST == 0 || e.max_j == mj);
            if !edges_ok {
                return Err(format!(
                    "playout pattern `{}` (line {}) has an edge that does not touch its move's row or column",
                    p.name, p.line
                ));
            }
        }
        let matcher = Matcher::new(tables);
        let mut weights = vec![0u16; 1 << 16];
        let mut shapes = 0;
        for code in 0..(1u32 << 16) {
            let Some(board_and_centre) = board_for(code) else {
                continue;
            };
            let (board, centre) = board_and_centre;
            let mut w = 0i32;
            for to_move in [Color::Black, Color::White] {
                for m in matcher.matches(&board, to_move) {
                    if m.move_point == centre {
                        w = w.max(
                            tables.patterns[m.pattern as usize]
                                .values
                                .go()
                                .map_or(0, |g| g.weight),
                        );
                    }
                }
            }
            if w > 0 {
                weights[code as usize] = w.min(u16::MAX as i32) as u16;
                shapes += 1;
            }
        }
        Ok(ShapeTable { weights, shapes })
    }

    /// The weight of the shape around an empty point with neighbourhood
    /// `code`.
    #[inline]
    pub fn weight(&self, code: u16) -> u16 {
        self.weights[code as usize]
    }

    /// How many neighbourhoods hold a shape.
    pub fn shapes(&self) -> usize {
        self.shapes
    }
}

/// A 5x5 board whose centre point has the neighbourhood `code` (black the
/// side to move), or `None` when the off-board neighbours of `code` are
/// not those of a real point.
fn board_for(code: u32) -> Option<(Board, Point)> {
    let at = |k: usize| (code >> (2 * k)) & 3;
    let (top, bottom, left, right) = (at(0) == 3, at(1) == 3, at(2) == 3, at(3) == 3);
    if (top && bottom) || (left && right) {
        return None;
    }
    let centre = Point::new(
        if top {
            0
        } else if bottom {
            4
        } else {
            2
        },
        if left {
            0
        } else if right {
            4
        } else {
            2
        },
    );
    let mut board = Board::new(5);
    for (k, &(di, dj)) in RING.iter().enumerate() {
        let off =
            (di == -1 && top) || (di == 1 && bottom) || (dj == -1 && left) || (dj == 1 && right);
        let v = at(k);
        if off != (v == 3) {
            return None;
        }
        let q = Point::new(centre.i + di, centre.j + dj);
        match v {
            1 => {
                board.place(q, Color::Black);
            }
            2 => {
                board.place(q, Color::White);
            }
            _ => {}
        }
    }
    Some((board, centre))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::fastboard::{FastBoard, BLACK, WHITE};

    /// The table gives, for every neighbourhood, what the matcher finds
    /// for the patterns: checked against a direct reading of the
    /// diagrams' rule (a hane: `XOX` above an empty centre row).
    #[test]
    fn the_builtin_shape_table_holds_the_playout_patterns() {
        let table = ShapeTable::new(crate::go::builtin_playout::TABLES).unwrap();
        assert!(table.shapes() > 0);
        // Pattern 1, `XOX / .*. / ???`, weight 30, in every rotation and
        // for either colour; on a board it is found with the table code.
        let mut b = FastBoard::new(9);
        for (i, j, c) in [(3, 3, BLACK), (3, 4, WHITE), (3, 5, BLACK)] {
            b.put(b.index(Point::new(i, j)), c);
        }
        let centre = b.index(Point::new(4, 4));
        for c in [BLACK, WHITE] {
            assert!(table.weight(b.neighbourhood(centre, c)) >= 30);
        }
        // Rotated a quarter turn: X O X down a column, left of the move.
        let mut r = FastBoard::new(9);
        for (i, j, c) in [(3, 3, WHITE), (4, 3, BLACK), (5, 3, WHITE)] {
            r.put(r.index(Point::new(i, j)), c);
        }
        let centre = r.index(Point::new(4, 4));
        assert!(table.weight(r.neighbourhood(centre, BLACK)) >= 30);
        // A lone stone beside a point is no shape.
        let mut e = FastBoard::new(9);
        e.put(e.index(Point::new(3, 4)), WHITE);
        assert_eq!(
            table.weight(e.neighbourhood(e.index(Point::new(4, 4)), BLACK)),
            0
        );
        // Impossible neighbourhoods (north off the board, north-east on
        // it) stay empty.
        assert_eq!(table.weight(0b11), 0);
    }

    /// Every neighbourhood code, against a plain reading of the compiled
    /// patterns cell by cell over the eight transformations.
    #[test]
    fn the_shape_table_agrees_with_a_cell_by_cell_reading() {
        use mkpat::transform;
        let tables = crate::go::builtin_playout::TABLES;
        let table = ShapeTable::new(tables).unwrap();
        let elements = |p: &mkpat::tables::Pattern| {
            &tables.elements
                [p.elements.start as usize..(p.elements.start + p.elements.len) as usize]
        };
        for code in 0..(1u32 << 16) {
            let Some((_, centre)) = board_for(code) else {
                assert_eq!(table.weight(code as u16), 0);
                continue;
            };
            let cell_at = |di: i32, dj: i32| -> u32 {
                if (di, dj) == (0, 0) {
                    return 0;
                }
                let k = RING.iter().position(|&d| d == (di, dj)).unwrap();
                (code >> (2 * k)) & 3
            };
            let mut want = 0;
            for p in tables.patterns {
                for t in 0..8u8 {
                    for swap in [false, true] {
                        let ok = elements(p).iter().all(|e| {
                            let (di, dj) = transform::apply(
                                t,
                                e.di() - p.move_di as i32,
                                e.dj() - p.move_dj as i32,
                            );
                            let mut v = cell_at(di, dj);
                            if swap && (v == 1 || v == 2) {
                                v = 3 - v;
                            }
                            v != 3 && e.cell().accepts(v)
                        });
                        // `?` cells and edges: every cell of the
                        // transformed extent on the board, every edge
                        // side off it.
                        let sides = transform::transform_sides(t, p.edges);
                        let (lo_i, hi_i, lo_j, hi_j) = {
                            let mut v = Vec::new();
                            for (i, j) in [
                                (p.extent.min_i, p.extent.min_j),
                                (p.extent.max_i, p.extent.max_j),
                            ] {
                                v.push(transform::apply(
                                    t,
                                    i as i32 - p.move_di as i32,
                                    j as i32 - p.move_dj as i32,
                                ));
                            }
                            (
                                v[0].0.min(v[1].0),
                                v[0].0.max(v[1].0),
                                v[0].1.min(v[1].1),
                                v[0].1.max(v[1].1),
                            )
                        };
                        let on_board =
                            (lo_i..=hi_i).all(|i| (lo_j..=hi_j).all(|j| cell_at(i, j) != 3));
                        let n = 5;
                        let edges = (sides & side::NORTH == 0 || centre.i + lo_i == 0)
                            && (sides & side::SOUTH == 0 || centre.i + hi_i == n - 1)
                            && (sides & side::WEST == 0 || centre.j + lo_j == 0)
                            && (sides & side::EAST == 0 || centre.j + hi_j == n - 1);
                        if ok && on_board && edges {
                            want = want.max(p.values.go().map_or(0, |g| g.weight));
                        }
                    }
                }
            }
            assert_eq!(table.weight(code as u16) as i32, want, "code {code:#06x}");
        }
    }

    #[test]
    fn patterns_reaching_past_the_neighbours_are_refused() {
        let db = b"# pattern 1\n\n?O.\n.*.\n...\n..X\n\n:8,10,0,0,0,0,-,0,NULL\n";
        let compiled = mkpat::compile("far.db", db, &mkpat::Options::default());
        let database = compiled.database.expect("compiles");
        let err = ShapeTable::new(database.tables()).unwrap_err();
        assert!(err.contains("beyond the eight neighbours"), "{err}");
    }
}
