//! Expansion: checked patterns to the flat tables the matcher reads.
//!
//! Each pattern is anchored on its first stone, its cells become elements
//! (stones first, empty points last: seed iv), and one [`Variant`] is made
//! for each transformation its class needs, carrying the transformed extent,
//! edge sides, move and the 4x4 grid masks. Patterns are sorted by maximum
//! weight, descending, ties in file order (seed v). A five-in-a-row line
//! pattern becomes one tables pattern per orbit of line directions (two
//! on the square, one on the hexagon), sharing its name and record.

use std::borrow::Cow;

use crate::check::CheckedPattern;
use crate::dialect::Dialect;
use crate::geometry::Geometry;
use crate::grid::{Grid, Spec};
use crate::tables::{grid_shift, Cell, Database, Element, Extent, Pattern, Span32, Variant};

/// Builds the tables of a database of `geometry` in `dialect`. Patterns
/// must have passed the checker.
pub fn expand(geometry: Geometry, dialect: Dialect, patterns: &[CheckedPattern]) -> Database {
    // A line pattern on the square is two tables patterns: the row, which
    // the eight transformations take along rows and columns, and the row
    // laid on the diagonal, which they take along both diagonals. On the
    // hexagon the twelve take a row along all three axes.
    let mut parts: Vec<(&CheckedPattern, Cow<'_, Grid>)> = Vec::new();
    for p in patterns {
        parts.push((p, Cow::Borrowed(&p.grid)));
        let is_line = p.values.five().is_some_and(|f| f.line);
        if is_line && geometry == Geometry::Square {
            parts.push((p, Cow::Owned(crate::dialect::five::diagonal(&p.grid))));
        }
    }
    // A stable sort keeps file order among equal weights.
    parts.sort_by_key(|(p, _)| std::cmp::Reverse(p.max_weight));
    let mut db = Database {
        geometry,
        dialect,
        ..Database::default()
    };
    for (p, grid) in parts {
        let index = db.patterns.len() as u32;
        let (ar, ac) = grid.anchor().expect("checked: a stone");
        // The checked move cell (a 3.x pattern without `*` proposes its
        // top-left cell); a line pattern's diagonal part has its own.
        let (mr, mc) = match grid {
            Cow::Borrowed(_) => p.move_at,
            Cow::Owned(_) => grid.move_point().expect("checked: a move"),
        };
        let rel = |r: usize, c: usize| (r as i32 - ar as i32, c as i32 - ac as i32);
        let mut elements: Vec<(u8, Element)> = grid
            .iter()
            .filter_map(|(r, c, s)| {
                let cell = match s {
                    Spec::Any | Spec::Absent => return None,
                    Spec::Move => Cell::Empty,
                    Spec::Is(cell) => cell,
                };
                let rank = match cell {
                    Cell::Mine | Cell::Theirs => 0,
                    Cell::NotTheirs | Cell::NotMine | Cell::Blocked => 1,
                    Cell::Empty => 2,
                };
                let (di, dj) = rel(r, c);
                Some((rank, Element::new(di as i8, dj as i8, cell)))
            })
            .collect();
        elements.sort_by_key(|(rank, _)| *rank);
        let elements: Vec<Element> = elements.into_iter().map(|(_, e)| e).collect();
        // A `=` cell may lie off the board, so the extent (what must be on
        // it) leaves it out; off the board reads `11`, which it accepts.
        let extent = Extent::of_cells(
            geometry,
            grid.present()
                .filter(|(_, _, s)| *s != Spec::Is(Cell::Blocked))
                .map(|(r, c, _)| rel(r, c)),
        );
        let (move_di, move_dj) = rel(mr, mc);
        let anchor = match grid.get(ar, ac) {
            Spec::Is(c) => c,
            _ => unreachable!("the anchor is a stone"),
        };
        let el_start = db.elements.len() as u32;
        db.elements.extend_from_slice(&elements);
        let var_start = db.variants.len() as u32;
        // The row's own group for a line pattern's diagonal part too: the
        // diagonal has the same symmetries, laid corner to corner.
        let transforms = if matches!(grid, Cow::Owned(_)) {
            grid.symmetry_group().coset_representatives(grid.geometry)
        } else {
            p.transforms.clone()
        };
        for t in transforms {
            db.variants.push(variant(
                geometry,
                index,
                t,
                &elements,
                extent,
                grid.edges,
                (move_di, move_dj),
            ));
        }
        match &p.lowered38 {
            Some(l) => {
                db.constraints.push(l.condition.clone());
                db.actions.push(l.action.clone());
                db.undecided.push(l.undecided.clone());
            }
            None => db.constraints.push(p.constraint.clone()),
        }
        db.patterns.push(Pattern {
            name: Cow::Owned(p.name.clone()),
            line: p.line,
            symmetry: p.declared.letter,
            anchor,
            move_di: move_di as i8,
            move_dj: move_dj as i8,
            extent,
            edges: grid.edges,
            values: p.values,
            max_weight: p.max_weight,
            always_run: p.values.always_run(),
            helper: p.helper.clone().map(Cow::Owned),
            description: Cow::Owned(p.description.clone()),
            constraint: p
                .constraint
                .as_ref()
                .map(|k| k.text.clone())
                .or_else(|| p.constraint38.as_ref().and_then(|k| k.text.clone()))
                .map(Cow::Owned),
            elements: Span32::new(el_start, elements.len() as u32),
            variants: Span32::new(var_start, db.variants.len() as u32 - var_start),
        });
    }
    db
}

/// One transformation of a pattern: transformed geometry and grid masks.
pub fn variant(
    geometry: Geometry,
    pattern: u32,
    t: u8,
    elements: &[Element],
    extent: Extent,
    edges: u8,
    mv: (i32, i32),
) -> Variant {
    let mut and_mask = 0u32;
    let mut val_mask = 0u32;
    for e in elements {
        let (ti, tj) = geometry.apply(t, e.di(), e.dj());
        if let Some(shift) = grid_shift(ti, tj) {
            let (a, v) = e.cell().and_val();
            and_mask |= a << shift;
            val_mask |= v << shift;
        }
    }
    let (move_di, move_dj) = geometry.apply(t, mv.0, mv.1);
    let edges = geometry.transform_sides(t, edges);
    Variant {
        pattern,
        trans: t,
        edges,
        extent: extent.transformed_in(geometry, t),
        move_di: move_di as i8,
        move_dj: move_dj as i8,
        and_mask,
        val_mask,
    }
}
