//! A diagram's rows, edge lines and corners, its move and its stones:
//! the grid the expander reads, or every reason there is none.

use super::*;
use crate::ast;

/// Builds the grid, reporting width, move, stone and edge problems.
pub(super) fn check_diagram(
    p: &PatternAst,
    geometry: Geometry,
    dialect: Dialect,
    diags: &mut Vec<Diagnostic>,
) -> Option<Grid> {
    if geometry == Geometry::Hexagon {
        return check_hex_diagram(p, diags);
    }
    let d = &p.diagram;
    let mut ok = true;
    for e in &d.misplaced_edges {
        let msg = if d.rows.is_empty() {
            "an edge line with no rows between it and the other edge line"
        } else if d.south.is_some() && e.span.start > d.south.as_ref().map_or(0, |s| s.span.start) {
            "a second south edge line"
        } else if e.span.start < d.rows[0].span.start {
            "a second north edge line"
        } else {
            "an edge line between diagram rows"
        };
        diags.push(
            Diagnostic::error(e.span, msg)
                .note("a line of `-` stands only above the first row (north edge) or below the last (south edge)"),
        );
        ok = false;
    }
    if d.rows.is_empty() {
        if d.north.is_some() || d.south.is_some() {
            diags.push(Diagnostic::error(
                d.lines.first().copied().unwrap_or(p.header),
                format!("pattern {} has edge lines but no rows", p.name.text),
            ));
        }
        return None;
    }
    let width = d.rows[0].cells.len();
    for r in &d.rows[1..] {
        if r.cells.len() != width {
            diags.push(
                Diagnostic::error(
                    r.span,
                    format!(
                        "diagram row has {} cells, the first row has {width}",
                        r.cells.len()
                    ),
                )
                .related(d.rows[0].span, "the first row")
                .note(
                    "every row of a diagram has the same width; `?` fills cells that do not matter",
                ),
            );
            ok = false;
        }
    }
    if d.rows.len() > MAX_SIDE || width > MAX_SIDE {
        diags.push(
            Diagnostic::error(
                d.rows[0].span,
                format!(
                    "the diagram is {} by {width}: larger than the largest board",
                    d.rows.len()
                ),
            )
            .note(format!(
                "a diagram has at most {MAX_SIDE} rows and {MAX_SIDE} columns"
            )),
        );
        return None;
    }
    // Edges: `|` on every row once one row has it.
    for (west, name) in [(true, "west"), (false, "east")] {
        let has = |r: &ast::Row| {
            if west {
                r.west.is_some()
            } else {
                r.east.is_some()
            }
        };
        if let Some(first) = d.rows.iter().find(|r| has(r)) {
            for r in d.rows.iter().filter(|r| !has(r)) {
                let at = if west {
                    Span::at(r.span.start)
                } else {
                    r.cells.last().map_or(r.span, |c| c.1)
                };
                diags.push(
                    Diagnostic::error(
                        at,
                        format!("row without the {name} edge `|` that other rows have"),
                    )
                    .related(
                        if west {
                            first.west.unwrap_or(first.span)
                        } else {
                            first.east.unwrap_or(first.span)
                        },
                        "this row has it",
                    )
                    .note("an edge runs the whole height of the diagram"),
                );
                ok = false;
            }
        }
    }
    let west = d.rows.iter().all(|r| r.west.is_some());
    let east = d.rows.iter().all(|r| r.east.is_some());
    for (line, name) in [(&d.north, "north"), (&d.south, "south")] {
        let Some(e) = line else { continue };
        if let Some(c) = e.west_corner {
            if !west {
                diags.push(
                    Diagnostic::error(
                        c,
                        format!("corner `+` on the {name} edge where there is no west edge"),
                    )
                    .note("`+` marks a corner: the rows must start with `|`"),
                );
                ok = false;
            }
        }
        if let Some(c) = e.east_corner {
            if !east {
                diags.push(
                    Diagnostic::error(
                        c,
                        format!("corner `+` on the {name} edge where there is no east edge"),
                    )
                    .note("`+` marks a corner: the rows must end with `|`"),
                );
                ok = false;
            }
        }
    }
    ok &= check_move_and_stones(p, dialect, diags);
    if !ok {
        return None;
    }
    let mut edges = 0;
    if d.north.is_some() {
        edges |= side::NORTH;
    }
    if d.south.is_some() {
        edges |= side::SOUTH;
    }
    if west {
        edges |= side::WEST;
    }
    if east {
        edges |= side::EAST;
    }
    Some(Grid {
        geometry: Geometry::Square,
        rows: d.rows.len(),
        cols: width,
        cells: d
            .rows
            .iter()
            .flat_map(|r| {
                r.cells
                    .iter()
                    .map(|c| Spec::from_char(c.0).unwrap_or(Spec::Any))
            })
            .collect(),
        edges,
    })
}

/// One move `*` (at most one in GNU Go 3.x, whose connection databases
/// have patterns without one) and at least one stone, on the rows the
/// parser kept.
fn check_move_and_stones(p: &PatternAst, dialect: Dialect, diags: &mut Vec<Diagnostic>) -> bool {
    let d = &p.diagram;
    let mut ok = true;
    let moves: Vec<Span> = d
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().filter(|c| c.0 == '*').map(|c| c.1))
        .collect();
    let dropped_move = d
        .dropped_rows
        .iter()
        .any(|r| r.cells.iter().any(|c| c.0 == '*'));
    match moves.as_slice() {
        // The `*` is on a row the parser refused, which it reported.
        [] if dropped_move => ok = false,
        [] if dialect == Dialect::GnuGo38 => {}
        [] => {
            diags.push(
                Diagnostic::error(
                    d.rows[0].span,
                    format!("pattern {} has no move `*`", p.name.text),
                )
                .note("mark the point where the pattern plays with `*`"),
            );
            ok = false;
        }
        [_] => {}
        [first, rest @ ..] => {
            for s in rest {
                diags.push(
                    Diagnostic::error(
                        *s,
                        format!("pattern {} has more than one move `*`", p.name.text),
                    )
                    .related(*first, "the first `*`")
                    .note("a pattern proposes exactly one move"),
                );
            }
            ok = false;
        }
    }
    let stones = d
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .any(|c| matches!(c.0, 'O' | 'X' | 'Q' | 'Y'));
    if !stones {
        diags.push(
            Diagnostic::error(
                d.rows[0].span,
                format!("pattern {} has no `O` or `X` stone", p.name.text),
            )
            .note("the matcher anchors every pattern on a stone"),
        );
        ok = false;
    }
    ok
}

/// A hexagonal diagram: each row's cells map to axial coordinates (row
/// `i`, and `j` from the column: cell `(i, j)` is drawn `2j + i` columns
/// from a fixed origin), so all cells must lie on one lattice of columns.
fn check_hex_diagram(p: &PatternAst, diags: &mut Vec<Diagnostic>) -> Option<Grid> {
    let d = &p.diagram;
    if d.rows.is_empty() {
        return None;
    }
    let mut ok = true;
    if let Some(k) = &p.constraint {
        diags.push(
            Diagnostic::error(k.expr.span, "a constraint on a hexagonal pattern")
                .note("constraint diagrams are read on square diagrams only, for now"),
        );
        ok = false;
    }
    let mut cells: Vec<(i32, i32, Spec)> = Vec::new();
    let mut parity: Option<(i32, Span)> = None;
    for (i, row) in d.rows.iter().enumerate() {
        let i = i as i32;
        // Cells the parser found run together (reported there) are not
        // also reported off the lattice.
        let run_together = row
            .cells
            .windows(2)
            .any(|w| w[1].1.start - w[0].1.start < 2);
        for &(ch, span) in &row.cells {
            let column = (span.start - row.span.start) as i32;
            let p0 = (column - i).rem_euclid(2);
            match parity {
                None => parity = Some((p0, span)),
                Some((q, _)) if q != p0 && run_together => {
                    ok = false;
                    continue;
                }
                Some((q, first)) if q != p0 => {
                    diags.push(
                        Diagnostic::error(span, "this cell is off the hexagonal lattice")
                            .related(first, "the first cell")
                            .note("each row sits half a cell (one column) left or right of the rows next to it"),
                    );
                    ok = false;
                    continue;
                }
                Some(_) => {}
            }
            let j = (column - i - p0).div_euclid(2);
            cells.push((i, j, Spec::from_char(ch).unwrap_or(Spec::Any)));
        }
    }
    let span_of = |f: fn(&(i32, i32, Spec)) -> i32| {
        let lo = cells.iter().map(f).min().unwrap_or(0);
        let hi = cells.iter().map(f).max().unwrap_or(0);
        (hi - lo + 1) as usize
    };
    let (rows, cols) = (span_of(|c| c.0), span_of(|c| c.1));
    if rows > MAX_SIDE || cols > MAX_SIDE {
        diags.push(
            Diagnostic::error(
                d.rows[0].span,
                format!("the diagram spans {rows} rows and {cols} axial columns: larger than the largest board"),
            )
            .note(format!("a diagram has at most {MAX_SIDE} rows and {MAX_SIDE} columns")),
        );
        return None;
    }
    for e in &d.misplaced_edges {
        diags.push(
            Diagnostic::error(e.span, "an edge line that is not just above or just below the rows")
                .note("a line of `-` stands only above the first row (the top edge) or below the last (the bottom edge)"),
        );
        ok = false;
    }
    ok &= check_move_and_stones(p, Dialect::Seed, diags);
    let edges = hex_edges(d, &cells, diags);
    match (ok, edges) {
        (true, Some(edges)) => Some(Grid::from_cells(Geometry::Hexagon, &cells, edges)),
        _ => None,
    }
}

/// The sides a hexagonal diagram lies on: the `-` lines above and below
/// it, and its rows' side marks — before a row, `\` the lower-left side
/// (least `j`), `/` the upper-left (least `i + j`), `<` both (the left
/// corner); after a row, `\` the upper-right (greatest `j`), `/` the
/// lower-right (greatest `i + j`), `>` both. A side runs along the whole
/// diagram: a marked row's end cell lies on that side's bound, and every
/// row whose end cell does is marked.
fn hex_edges(
    d: &ast::Diagram,
    cells: &[(i32, i32, Spec)],
    diags: &mut Vec<Diagnostic>,
) -> Option<u8> {
    let mut edges = 0;
    if d.north.is_some() {
        edges |= side::NORTH;
    }
    if d.south.is_some() {
        edges |= side::SOUTH;
    }
    let bound = |f: fn(i32, i32) -> i32, least: bool| {
        let values = cells.iter().map(|&(i, j, _)| f(i, j));
        if least { values.min() } else { values.max() }.unwrap_or(0)
    };
    // (side bit, the marks that declare it, west or east end, the form,
    // least or greatest, the side's name)
    type Form = fn(i32, i32) -> i32;
    let sides: [(u8, &str, bool, Form, bool, &str); 4] = [
        (side::WEST, "\\<", true, |_, j| j, true, "lower-left"),
        (
            side::LEAST_SUM,
            "/<",
            true,
            |i, j| i + j,
            true,
            "upper-left",
        ),
        (side::EAST, "\\>", false, |_, j| j, false, "upper-right"),
        (
            side::MOST_SUM,
            "/>",
            false,
            |i, j| i + j,
            false,
            "lower-right",
        ),
    ];
    let mut ok = true;
    // Each row's first and last cell, axially: rows are in order, cells
    // left to right.
    let mut by_row: Vec<Vec<(i32, i32)>> = vec![Vec::new(); d.rows.len()];
    for &(i, j, _) in cells {
        by_row[i as usize].push((i, j));
    }
    for (bit, marks, west, form, least, name) in sides {
        let b = bound(form, least);
        let mark_of = |r: &ast::Row| if west { r.west_mark } else { r.east_mark };
        let marked = |r: &ast::Row| mark_of(r).is_some_and(|m| marks.contains(m));
        if !d.rows.iter().any(marked) {
            continue;
        }
        edges |= bit;
        for (r, row_cells) in d.rows.iter().zip(&by_row) {
            let end = if west {
                row_cells.first()
            } else {
                row_cells.last()
            };
            let Some(&(i, j)) = end else { continue };
            let on_side = form(i, j) == b;
            let mark_span = if west { r.west } else { r.east };
            if marked(r) && !on_side {
                diags.push(
                    Diagnostic::error(
                        mark_span.unwrap_or(r.span),
                        format!("this row's end cell is not on the {name} side the mark draws"),
                    )
                    .note("the cells at a side's marks lie on one line along the board's edge"),
                );
                ok = false;
            } else if !marked(r) && on_side {
                let at = if west {
                    r.cells.first().map_or(r.span, |c| c.1)
                } else {
                    r.cells.last().map_or(r.span, |c| c.1)
                };
                diags.push(
                    Diagnostic::error(
                        at,
                        format!("a cell on the {name} side of the board without its side mark"),
                    )
                    .note(format!(
                        "the {name} side runs along the whole diagram: mark this row {} too",
                        if west {
                            "before its cells"
                        } else {
                            "after its cells"
                        }
                    )),
                );
                ok = false;
            }
        }
    }
    ok.then_some(edges)
}
