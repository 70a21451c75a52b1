//! A plain reference matcher, straight from the checked diagrams.
//!
//! It exists to prove the fast [`crate::matcher::Matcher`] right: no masks,
//! no anchor, no index, no symmetry classes. Every diagram is transformed
//! in every way its geometry has (eight on the square, twelve on the
//! hexagon) and laid at every offset of the board; a placement matches
//! when every cell that is not `?` accepts the point under it, every `?` is
//! on the board (a cell a hexagonal drawing leaves out may be anywhere),
//! and every edge side lies on the board's edge. A five-in-a-row `=`
//! cell accepts an opponent's stone or a point off the board, and a line
//! pattern is also laid along the diagonal (the square's eight
//! transformations take a row along rows and columns only). It is slow on
//! purpose: each step is the definition.

use std::collections::BTreeSet;

use mkpat::check::CheckedPattern;
use mkpat::geometry::Geometry;
use mkpat::grid::Spec;
use mkpat::tables::Cell;
use mkpat::transform::side;

use crate::board::Board;
use crate::matcher::{Match, Matcher};
use crate::position::{Color, Point, Position};
use mkpat::geometry::Shape;

/// One placement found by the reference matcher. Different
/// transformations of a symmetric diagram can give the same placement, so
/// compare these as sets.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Placement {
    pub pattern: String,
    pub move_point: Point,
    /// The board rectangle the transformed diagram covers: top-left and
    /// bottom-right corners, inclusive.
    pub top_left: Point,
    pub bottom_right: Point,
    /// What the placement requires, point by point (`?` cells left out,
    /// the move `*`), sorted: two orientations of one pattern that cover
    /// the same rectangle with the move on the same point (a line closed
    /// by `=` at one end, reversed) are two placements.
    pub cells: Vec<(Point, char)>,
}

/// Every placement of every pattern on `board`, `to_move` playing `O`.
pub fn reference_matches<G: Shape>(
    patterns: &[CheckedPattern],
    board: &Board<G>,
    to_move: Color,
) -> BTreeSet<Placement> {
    let n = board.size() as i32;
    let mut out = BTreeSet::new();
    for p in patterns {
        let mut grids = vec![p.grid.clone()];
        if p.values.five().is_some_and(|f| f.line) && G::GEOMETRY == Geometry::Square {
            grids.push(mkpat::dialect::five::diagonal(&p.grid));
        }
        for grid in &grids {
            for t in 0..G::GEOMETRY.order() {
                let g = grid.transformed(t);
                // The cells that must be on the board: all but `=` (and
                // the cells a hexagonal drawing leaves out).
                let held = |s: Spec| s != Spec::Absent && s != Spec::Is(Cell::Blocked);
                let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
                for (r, c, _) in g.iter().filter(|&(_, _, s)| held(s)) {
                    lo = (lo.0.min(r as i32), lo.1.min(c as i32));
                    hi = (hi.0.max(r as i32), hi.1.max(c as i32));
                }
                let (rows, cols) = (g.rows as i32, g.cols as i32);
                for oi in -rows..=n {
                    for oj in -cols..=n {
                        let (top, left) = (oi + lo.0, oj + lo.1);
                        let (bottom, right) = (oi + hi.0, oj + hi.1);
                        if top < 0 || left < 0 || bottom >= n || right >= n {
                            continue;
                        }
                        let on_edges = (g.edges & side::NORTH == 0 || top == 0)
                            && (g.edges & side::SOUTH == 0 || bottom + 1 == n)
                            && (g.edges & side::WEST == 0 || left == 0)
                            && (g.edges & side::EAST == 0 || right + 1 == n);
                        if !on_edges || !on_hexagon_edges(&g, board, oi + oj) {
                            continue;
                        }
                        let mut move_point = None;
                        let mut cells = Vec::new();
                        let fits = g.iter().all(|(r, c, s)| {
                            let q = Point::new(oi + r as i32, oj + c as i32);
                            let v = board.value(q, to_move);
                            match s {
                                Spec::Absent => true,
                                Spec::Any => board.on_board(q),
                                Spec::Move => {
                                    move_point = Some(q);
                                    cells.push((q, '*'));
                                    v == 0
                                }
                                Spec::Is(cell) => {
                                    cells.push((q, cell.as_char()));
                                    cell.accepts(v)
                                }
                            }
                        });
                        cells.sort();
                        if fits {
                            out.insert(Placement {
                                pattern: p.name.clone(),
                                move_point: move_point.expect("a checked diagram has a move"),
                                top_left: Point::new(top, left),
                                bottom_right: Point::new(bottom, right),
                                cells,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// A hexagonal diagram's sides bounding `i + j` lie on the board's when
/// it is placed with its rectangle's corner at row + column `offset`.
fn on_hexagon_edges<G: Shape>(g: &mkpat::grid::Grid, board: &Board<G>, offset: i32) -> bool {
    let Some(h) = board.hex_layout() else {
        return true;
    };
    let n1 = h.side() as i32 - 1;
    let sums: Vec<i32> = g
        .present()
        .filter(|&(_, _, s)| s != Spec::Is(Cell::Blocked))
        .map(|(r, c, _)| (r + c) as i32 + offset)
        .collect();
    let least = sums.iter().copied().min().unwrap_or(0);
    let most = sums.iter().copied().max().unwrap_or(0);
    (g.edges & side::LEAST_SUM == 0 || least == n1)
        && (g.edges & side::MOST_SUM == 0 || most == 3 * n1)
}

/// The grid matcher's matches as placements, to compare with
/// [`reference_matches`].
pub fn grid_placements<G: Shape>(matcher: &Matcher<'_, G>, found: &[Match]) -> BTreeSet<Placement> {
    let t = matcher.tables();
    found
        .iter()
        .map(|m| {
            let (top_left, bottom_right) = matcher.placement(m);
            let p = &t.patterns[m.pattern as usize];
            let mut cells: Vec<(Point, char)> = t
                .elements_of(p)
                .iter()
                .map(|e| {
                    let (di, dj) = G::GEOMETRY.apply(m.trans, e.di(), e.dj());
                    let q = Point::new(m.anchor.i + di, m.anchor.j + dj);
                    (
                        q,
                        if q == m.move_point {
                            '*'
                        } else {
                            e.cell().as_char()
                        },
                    )
                })
                .collect();
            cells.sort();
            Placement {
                pattern: p.name.to_string(),
                move_point: m.move_point,
                top_left,
                bottom_right,
                cells,
            }
        })
        .collect()
}

/// One line of GNU Go's conformance output: pattern, transformation,
/// move.
pub type GnuGoLine = (String, u8, Point);

/// GNU Go 3.x's matches by definition, sorted: for each pattern and each
/// transformation GNU Go tries for its declared class
/// ([`mkpat::dialect::gnugo38::transformations`], whatever symmetry the
/// diagram really has), the transformed diagram laid at every offset where
/// each of its cells is on the board, each edge side on the board's edge,
/// and each cell accepts the point under it; the move is the point under
/// the checked move cell (`*`, or the top-left cell of a pattern without
/// one). Duplicates are kept: a symmetric diagram is found once per
/// transformation, as GNU Go finds it. (The set-based
/// [`reference_matches`] is for the other dialects, whose patterns have a
/// `*`.)
pub fn gnugo_lines(patterns: &[CheckedPattern], board: &Board, to_move: Color) -> Vec<GnuGoLine> {
    use mkpat::transform::{apply, transform_sides};
    let n = board.size() as i32;
    let mut out = Vec::new();
    for p in patterns {
        for &t in mkpat::dialect::gnugo38::transformations(p.declared.letter) {
            let placed: Vec<(i32, i32, Spec)> = p
                .grid
                .iter()
                .map(|(r, c, s)| {
                    let (i, j) = apply(t, r as i32, c as i32);
                    (i, j, s)
                })
                .collect();
            let lo_i = placed.iter().map(|c| c.0).min().unwrap_or(0);
            let lo_j = placed.iter().map(|c| c.1).min().unwrap_or(0);
            let hi_i = placed.iter().map(|c| c.0).max().unwrap_or(0);
            let hi_j = placed.iter().map(|c| c.1).max().unwrap_or(0);
            let edges = transform_sides(t, p.grid.edges);
            let mv = apply(t, p.move_at.0 as i32, p.move_at.1 as i32);
            for oi in -lo_i..n - hi_i {
                for oj in -lo_j..n - hi_j {
                    let on_edges = (edges & side::NORTH == 0 || oi + lo_i == 0)
                        && (edges & side::SOUTH == 0 || oi + hi_i == n - 1)
                        && (edges & side::WEST == 0 || oj + lo_j == 0)
                        && (edges & side::EAST == 0 || oj + hi_j == n - 1);
                    let fits = placed.iter().all(|&(i, j, s)| {
                        let v = board.value(Point::new(oi + i, oj + j), to_move);
                        match s {
                            Spec::Any | Spec::Absent => true,
                            Spec::Move => v == 0,
                            Spec::Is(cell) => cell.accepts(v),
                        }
                    });
                    if on_edges && fits {
                        out.push((p.name.clone(), t, Point::new(oi + mv.0, oj + mv.1)));
                    }
                }
            }
        }
    }
    out.sort();
    out
}
