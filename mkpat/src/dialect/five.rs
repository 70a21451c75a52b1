//! The five-in-a-row dialect's checks: line patterns and threat kinds.
//!
//! A pattern declares what its move makes — a five, a four, an open
//! three… — and the checker verifies it on the diagram's lines through the
//! `*`, so that a "four" that is not one is an error at the kind, not a
//! mystery in a lost game. Only what the diagram guarantees counts: a `?`,
//! `o` or `x` cell, and the diagram's ends, are neither an empty point nor
//! a stone to build on. A line pattern (symmetry `line`) is one row with no
//! edges: written once, it is placed along every line direction of the
//! geometry ([`diagonal`] gives the square's second orbit), and `=`, a
//! stone of the opponent or the board's edge, closes it.

use crate::ast::{Diagram, FiveAttributes};
use crate::check::NUM_LIMIT;
use crate::diag::{Diagnostic, Span};
use crate::grid::{Grid, Spec};
use crate::tables::Cell;

use super::{FiveValues, Kind};

/// A line pattern's diagram: one row, no edge marks.
pub fn check_line_diagram(grid: &Grid, diagram: &Diagram, at: Span, diags: &mut Vec<Diagnostic>) {
    if grid.rows != 1 {
        let span = diagram.rows.get(1).map_or(at, |r| r.span);
        diags.push(
            Diagnostic::error(span, format!("a line pattern is one row; this diagram has {}", grid.rows))
                .related(at, "declared a line pattern here")
                .note("a line pattern is written once, along a row, and placed along every line direction; a shape over several rows takes a symmetry class instead of `line`"),
        );
    }
    if grid.edges != 0 {
        let span = diagram
            .north
            .as_ref()
            .map(|e| e.span)
            .or(diagram.south.as_ref().map(|e| e.span))
            .or(diagram.rows.iter().find_map(|r| r.west.or(r.east)))
            .unwrap_or(at);
        diags.push(
            Diagnostic::error(span, "a line pattern has no edge marks")
                .note("write `=` where the line is closed, by an opponent's stone or by the board's edge: it matches both, along every direction"),
        );
    }
}

/// Every `=` cell touches a cell that is not `=`: one that must be on
/// the board. The matcher reads a cell through the 4x4 window of a point
/// of the pattern's extent (the cells that are on the board), so a `=`
/// two steps from all of them could not be read; and a second `=` behind
/// a first says nothing the first does not (beyond an edge is off the
/// board too).
pub fn check_closed_cells(grid: &Grid, diagram: &Diagram, diags: &mut Vec<Diagnostic>) {
    let closed = Spec::Is(Cell::Blocked);
    let spans: Vec<Span> = diagram
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .filter(|(c, _)| *c == '=')
        .map(|(_, s)| *s)
        .collect();
    let cells = grid.iter().filter(|&(_, _, s)| s == closed);
    for (k, (r, c, _)) in cells.enumerate() {
        let touches = (-1..=1).any(|dr: i32| {
            (-1..=1).any(|dc: i32| {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                (rr >= 0 && cc >= 0 && (rr as usize) < grid.rows && (cc as usize) < grid.cols)
                    && !matches!(grid.get(rr as usize, cc as usize), Spec::Absent)
                    && grid.get(rr as usize, cc as usize) != closed
            })
        });
        if !touches {
            let span = spans
                .get(k)
                .copied()
                .unwrap_or_else(|| diagram.rows.first().map_or(Span::at(0), |row| row.span));
            diags.push(
                Diagnostic::error(span, "a `=` cell must touch a cell that is not `=`")
                    .note("`=` closes a line where the line stops: an opponent's stone or the edge; a second `=` behind it adds nothing, and the matcher reads `=` cells only beside the pattern's other cells"),
            );
        }
    }
}

/// The record of a five-in-a-row attribute line, with its checks: the
/// kind is known, the numbers are in range, the diagram makes the kind.
pub fn check_attributes(
    a: &FiveAttributes,
    grid: &Grid,
    is_line: bool,
    diags: &mut Vec<Diagnostic>,
) -> FiveValues {
    for (name, n) in [("mine", a.mine), ("theirs", a.theirs)] {
        if n.value.abs() > NUM_LIMIT {
            diags.push(
                Diagnostic::error(n.span, format!("{name} {} is out of range", n.value)).note(
                    format!("numbers must lie between {} and {NUM_LIMIT}", -NUM_LIMIT),
                ),
            );
        }
    }
    let kind = match Kind::from_name(&a.kind.text) {
        Some(k) => k,
        None => {
            diags.push(
                Diagnostic::error(a.kind.span, format!("unknown kind `{}`", a.kind.text)).note(
                    format!(
                        "the kind is one of {}",
                        Kind::ALL.map(|k| format!("`{}`", k.name())).join(", ")
                    ),
                ),
            );
            Kind::Shape
        }
    };
    if let Some(d) = verify_kind(grid, kind, a.kind.span) {
        diags.push(d);
    }
    FiveValues {
        kind,
        mine: a.mine.value.clamp(-NUM_LIMIT, NUM_LIMIT) as i32,
        theirs: a.theirs.value.clamp(-NUM_LIMIT, NUM_LIMIT) as i32,
        line: is_line,
    }
}

/// A line pattern's second orbit on the square: the row laid along the
/// diagonal. The square's eight transformations take a row to rows and
/// columns only; the diagonal and its mirror take the rest of the four
/// directions. The cells off the diagonal are not part of the diagram.
pub fn diagonal(row: &Grid) -> Grid {
    let cells: Vec<(i32, i32, Spec)> = (0..row.cols)
        .map(|k| (k as i32, k as i32, row.get(0, k)))
        .collect();
    Grid::from_cells(row.geometry, &cells, 0)
}

/// What a cell along a line is known to hold, once the move is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Known {
    Stone,
    Empty,
    /// Closed (an opponent's stone or the edge), or not known: nothing to
    /// build on.
    Other,
}

/// The cells along one direction through the move, and the move's index.
fn line_through(
    grid: &Grid,
    (mr, mc): (usize, usize),
    (di, dj): (i32, i32),
) -> (Vec<Known>, usize) {
    let at = |k: i32| -> Option<Spec> {
        let (r, c) = (mr as i32 + k * di, mc as i32 + k * dj);
        (r >= 0 && c >= 0 && (r as usize) < grid.rows && (c as usize) < grid.cols)
            .then(|| grid.get(r as usize, c as usize))
    };
    let known = |s: Spec| match s {
        Spec::Move | Spec::Is(Cell::Mine) => Known::Stone,
        Spec::Is(Cell::Empty) => Known::Empty,
        _ => Known::Other,
    };
    let mut back = 0;
    while at(-(back + 1)).is_some() {
        back += 1;
    }
    let mut line = Vec::new();
    let mut k = -back;
    while let Some(s) = at(k) {
        line.push(known(s));
        k += 1;
    }
    (line, back as usize)
}

/// Is there five in a row?
fn has_five(line: &[Known]) -> bool {
    line.windows(5)
        .any(|w| w.iter().all(|&c| c == Known::Stone))
}

/// The empty points that would make five (none once there is a five).
fn completions(line: &[Known]) -> Vec<usize> {
    let mut out = Vec::new();
    if has_five(line) {
        return out;
    }
    let mut l = line.to_vec();
    for e in 0..line.len() {
        if line[e] != Known::Empty {
            continue;
        }
        l[e] = Known::Stone;
        if has_five(&l) {
            out.push(e);
        }
        l[e] = Known::Empty;
    }
    out
}

/// Does `e` lie between two stones of the line?
fn inside(line: &[Known], e: usize) -> bool {
    line[..e].contains(&Known::Stone) && line[e + 1..].contains(&Known::Stone)
}

/// The kinds a line holds (not counting Pente's).
fn line_kinds(line: &[Known]) -> Vec<Kind> {
    let mut kinds = Vec::new();
    if has_five(line) {
        kinds.push(Kind::Five);
        return kinds;
    }
    let fives = completions(line);
    if fives.len() >= 2 {
        kinds.push(Kind::OpenFour);
    }
    if !fives.is_empty() {
        kinds.push(Kind::Four);
        if fives.iter().any(|&e| inside(line, e)) {
            kinds.push(Kind::BrokenFour);
        }
    }
    let mut l = line.to_vec();
    for e in 0..line.len() {
        if line[e] != Known::Empty {
            continue;
        }
        l[e] = Known::Stone;
        let f = completions(&l);
        if f.len() >= 2 {
            kinds.push(if inside(line, e) {
                Kind::SplitThree
            } else {
                Kind::OpenThree
            });
        }
        if !f.is_empty() {
            kinds.push(Kind::Three);
        }
        let mut three = false;
        for e2 in 0..l.len() {
            if l[e2] != Known::Empty {
                continue;
            }
            l[e2] = Known::Stone;
            three |= completions(&l).len() >= 2;
            l[e2] = Known::Empty;
        }
        if three {
            kinds.push(Kind::Two);
        }
        l[e] = Known::Empty;
    }
    kinds.sort();
    kinds.dedup();
    kinds
}

/// Does the move bracket two opponent stones with one of ours (a capture)
/// or with an empty point (a capture threat) along direction `d`?
fn pente_kinds(grid: &Grid, (mr, mc): (usize, usize), (di, dj): (i32, i32)) -> Vec<Kind> {
    let at = |k: i32| -> Option<Spec> {
        let (r, c) = (mr as i32 + k * di, mc as i32 + k * dj);
        (r >= 0 && c >= 0 && (r as usize) < grid.rows && (c as usize) < grid.cols)
            .then(|| grid.get(r as usize, c as usize))
    };
    let theirs = Some(Spec::Is(Cell::Theirs));
    let mut kinds = Vec::new();
    for s in [1, -1] {
        if at(s) == theirs && at(2 * s) == theirs {
            match at(3 * s) {
                Some(Spec::Is(Cell::Mine)) => kinds.push(Kind::Capture),
                Some(Spec::Is(Cell::Empty)) => kinds.push(Kind::CaptureThreat),
                _ => {}
            }
        }
    }
    kinds
}

/// The kinds the diagram's move makes, along every line direction.
pub fn kinds_made(grid: &Grid) -> Vec<Kind> {
    let Some(mv) = grid.move_point() else {
        return Vec::new();
    };
    let mut kinds = Vec::new();
    for &d in grid.geometry.line_directions() {
        let (line, _) = line_through(grid, mv, d);
        kinds.extend(line_kinds(&line));
        kinds.extend(pente_kinds(grid, mv, d));
    }
    kinds.sort();
    kinds.dedup();
    kinds
}

/// What it takes to be each kind, for the error that says it is not one.
fn requirement(kind: Kind) -> &'static str {
    match kind {
        Kind::Five => "five of `O` in a row",
        Kind::OpenFour => "two empty points that each make five",
        Kind::Four => "an empty point that makes five",
        Kind::BrokenFour => "an empty point between stones that makes five",
        Kind::OpenThree => {
            "an empty point beside the stones that makes an open four (two points to five)"
        }
        Kind::SplitThree => {
            "an empty point between the stones that makes an open four (two points to five)"
        }
        Kind::Three => "an empty point that makes a four",
        Kind::Two => "an empty point that makes an open three",
        Kind::Capture => "two `X` beside the move, then an `O` (`*XXO`)",
        Kind::CaptureThreat => "two `X` beside the move, then an empty point (`*XX.`)",
        Kind::Shape => "nothing",
    }
}

/// The error when the diagram does not make the declared kind, or the
/// warning when it makes a stronger one along the way.
fn verify_kind(grid: &Grid, kind: Kind, span: Span) -> Option<Diagnostic> {
    if kind == Kind::Shape {
        return None;
    }
    let made = kinds_made(grid);
    if !made.contains(&kind) {
        let mut d = Diagnostic::error(
            span,
            format!("declared `{}`, but the diagram does not make one", kind.name()),
        )
        .note(format!(
            "a `{}` needs, once the move is played, {}",
            kind.name(),
            requirement(kind)
        ))
        .note("only what the diagram guarantees counts: `?`, `o`, `x`, `=` and the diagram's ends are neither empty points nor stones");
        let line: Vec<&str> = made
            .iter()
            .filter(|k| !matches!(k, Kind::Capture | Kind::CaptureThreat))
            .map(|k| k.name())
            .collect();
        d = d.note(if line.is_empty() {
            "along its lines the move makes nothing this dialect names: declare `shape`".to_string()
        } else {
            format!("along its lines the move makes: {}", line.join(", "))
        });
        return Some(d);
    }
    // The ladder of line threats, strongest first.
    const LADDER: [Kind; 5] = [
        Kind::Five,
        Kind::OpenFour,
        Kind::Four,
        Kind::Three,
        Kind::Two,
    ];
    let rank = |k: Kind| match k {
        Kind::BrokenFour => Some(2),
        Kind::OpenThree | Kind::SplitThree => Some(3),
        _ => LADDER.iter().position(|&l| l == k),
    };
    let declared = rank(kind)?;
    let strongest = LADDER
        .iter()
        .find(|k| made.contains(k))
        .copied()
        .filter(|&k| rank(k).is_some_and(|r| r < declared))?;
    // An open three is the rung above a closed three, not a separate one.
    if kind == Kind::Three && made.iter().any(|k| k.is_three()) && strongest == Kind::Three {
        return None;
    }
    Some(
        Diagnostic::warning(
            span,
            format!(
                "declared `{}`, but the move makes a stronger threat: `{}`",
                kind.name(),
                strongest.name()
            ),
        )
        .note("a search reads the kind: a stronger threat declared weaker is a threat it does not see"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    fn row(text: &str) -> Grid {
        let cells: Vec<(i32, i32, Spec)> = text
            .chars()
            .enumerate()
            .map(|(k, c)| (0, k as i32, Spec::from_char(c).expect("a cell")))
            .collect();
        Grid::from_cells(Geometry::Square, &cells, 0)
    }

    fn kinds(text: &str) -> Vec<&'static str> {
        kinds_made(&row(text)).into_iter().map(Kind::name).collect()
    }

    #[test]
    fn the_line_kinds_of_textbook_shapes() {
        assert_eq!(kinds("OO*OO"), ["five"]);
        assert_eq!(kinds(".OOO*."), ["open-four", "four"]);
        assert_eq!(kinds("=OOO*."), ["four"]);
        assert_eq!(kinds("OO*.O"), ["four", "broken-four"]);
        assert!(kinds("..OO*..").contains(&"open-three"));
        assert!(kinds(".O.O*.").contains(&"split-three"));
        assert_eq!(kinds("=OO*.."), ["three"]);
        assert!(kinds("...O*...").contains(&"two"));
        // Unknown cells are not room to build on.
        assert_eq!(kinds("?OO*O.?"), ["four"]);
        assert!(kinds("?OO*O?").is_empty());
        assert!(kinds("?O*?").is_empty());
    }

    #[test]
    fn pente_kinds_need_exactly_the_bracket() {
        assert_eq!(kinds("*XXO"), ["capture"]);
        assert_eq!(kinds("OXX*"), ["capture"]);
        assert_eq!(kinds("*XX."), ["capture-threat"]);
        assert!(kinds("*XXXO").is_empty());
        assert!(kinds("*XO").is_empty());
    }

    #[test]
    fn a_declared_kind_is_verified() {
        let span = Span::at(0);
        assert!(verify_kind(&row(".OOO*."), Kind::OpenFour, span).is_none());
        let not = verify_kind(&row("=OOO*="), Kind::Four, span).expect("no completion");
        assert!(not.is_error());
        let weaker = verify_kind(&row(".OOO*."), Kind::Four, span).expect("stronger");
        assert!(!weaker.is_error());
        assert!(verify_kind(&row("=OO*.."), Kind::Three, span).is_none());
    }

    #[test]
    fn the_diagonal_lays_the_row_corner_to_corner() {
        let d = diagonal(&row("=O*"));
        assert_eq!((d.rows, d.cols), (3, 3));
        assert_eq!(d.get(2, 2), Spec::Move);
        assert_eq!(d.get(0, 1), Spec::Absent);
    }
}
