//! The checker: parsed patterns to checked patterns, with every diagnostic.
//!
//! Rules (errors unless marked warning; `docs/language.md` lists them for
//! users): equal row widths; one `*`; at least one stone; consistent edges
//! and corners; the declared symmetry class holds (warning when the diagram
//! has more symmetry); helpers exist with the helper signature; numbers in
//! range; unknown class letters (warning); wind value signs (warning); odd
//! seed bonus (warning); duplicate names; patterns equal up to a
//! transformation (warning); 2.6 constraints: the constraint diagram has
//! the pattern's shape and puts no label on a `?` cell, an unlabelled cell
//! repeats the pattern's (warning), the expression type-checks (see
//! [`crate::constraint`]). In lenient mode the symmetry, helper and
//! constraint-diagram errors become warnings, for databases read for their
//! geometry only.
//!
//! Here the driver (`check`, one pattern's checks in order, duplicates);
//! `diagram.rs` the rows, edges, corners, move and stones; `symmetry.rs`
//! the declared class against the diagram's own; `attributes.rs` the
//! numbers, class letters and helper; `constraint_diagram.rs` a 2.6
//! constraint's diagram and expression.

use std::collections::HashMap;

use crate::ast::{self, AssistanceAst, AttributeLine, Dialect, PatternAst};
use crate::constraint::{self as constraint_lang, CheckedConstraint, Label};
use crate::diag::{Diagnostic, Span};
use crate::dialect::{GoValues, Values};
use crate::geometry::{ClassDef, Geometry, Symmetries};
use crate::grid::{Grid, Spec};
use crate::helpers::{HelperSet, SIGNATURE};
use crate::tables::{class, Assistance};
use crate::transform::side;

mod attributes;
mod constraint_diagram;
mod diagram;
mod symmetry;

use attributes::*;
pub use constraint_diagram::{
    check_constraint, MSG_CONSTRAINT_CELL, MSG_CONSTRAINT_LABEL_ON_ANY, MSG_CONSTRAINT_SHAPE,
};
use diagram::*;
use symmetry::*;

/// Largest magnitude of any number on an attribute line: keeps every sum
/// the matcher computes far inside `i32`.
pub const NUM_LIMIT: i64 = 100_000;

/// The largest board side katachi supports, and so the largest diagram
/// (the runtime board's limit too: one constant).
pub use crate::geometry::MAX_SIDE;

/// A pattern that passed the checker: everything the expander needs.
#[derive(Clone, Debug)]
pub struct CheckedPattern {
    pub name: String,
    pub name_span: Span,
    pub line: u32,
    pub grid: Grid,
    pub declared: &'static ClassDef,
    /// The group whose cosets are expanded: the declared class's, or in
    /// lenient mode the diagram's own when the declaration is wrong.
    pub group: Symmetries,
    /// The transformations the pattern is tried in: one per coset of
    /// `group`, or in GNU Go 3.x's dialect exactly those GNU Go tries for
    /// the declared class.
    pub transforms: Vec<u8>,
    /// The diagram cell whose point a match proposes: the `*`, or in a
    /// 3.x pattern without one the top-left cell.
    pub move_at: (usize, usize),
    /// The dialect record.
    pub values: Values,
    pub max_weight: i64,
    pub helper: Option<String>,
    pub description: String,
    /// The 2.6 constraint, parsed and type-checked, its labels placed
    /// relative to the anchor (see [`check_constraint`]).
    pub constraint: Option<CheckedConstraint>,
    /// A GNU Go 3.x pattern's constraint and actions, parsed and checked.
    pub constraint38: Option<crate::constraint38::Checked>,
    /// That constraint and those actions lowered to 2.6's checked form
    /// where katachi can decide them ([`crate::constraint38::lower`]).
    pub lowered38: Option<crate::constraint38::Lowered>,
}

/// What the checker is told about its surroundings.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions<'a> {
    /// Downgrade symmetry and helper errors to warnings (foreign databases
    /// read for geometry only).
    pub lenient: bool,
    /// The helpers that exist; `None` skips the helper check (a warning
    /// says so once, when a helper is named).
    pub helpers: Option<&'a HelperSet>,
}

/// Checks every pattern of a parsed database.
pub fn check(
    db: &ast::Database,
    opts: &CheckOptions<'_>,
    line_of: &dyn Fn(usize) -> u32,
) -> (Vec<CheckedPattern>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut out = Vec::new();
    let mut names: HashMap<&str, Span> = HashMap::new();
    let mut shapes: HashMap<(Grid, AttributeKey), (String, Span)> = HashMap::new();
    let settings = if db.dialect == Dialect::GnuGo38 {
        crate::dialect::go38_check::check_directives(&db.directives, &mut diags)
    } else {
        Default::default()
    };
    for p in &db.patterns {
        if let Some(first) = names.get(p.name.text.as_str()) {
            let what = db.dialect.name_word();
            diags.push(
                Diagnostic::error(p.name.span, format!("duplicate {what} `{}`", p.name.text))
                    .related(*first, "first used here")
                    .note("`mkpat renum FILE` renumbers the patterns 1, 2, 3… in file order"),
            );
        } else {
            names.insert(&p.name.text, p.name.span);
        }
        let Some(c) = check_pattern(
            p,
            db.dialect,
            db.geometry,
            settings,
            opts,
            line_of,
            &mut diags,
        ) else {
            continue;
        };
        let key = (c.grid.canonical(), attribute_key(&c));
        if let Some((first, span)) = shapes.get(&key) {
            diags.push(
                Diagnostic::warning(
                    c.name_span,
                    format!(
                        "pattern {} is pattern {first} again, up to a transformation, with the same attributes",
                        c.name
                    ),
                )
                .related(*span, "the same pattern"),
            );
        } else {
            shapes.insert(key, (c.name.clone(), c.name_span));
        }
        out.push(c);
    }
    (out, diags)
}

/// What two patterns must share, beside their shape, to be the same:
/// values, helper, constraint text (2.6's, or 3.x's `;` and `>` text).
type AttributeKey = (Values, Option<String>, Option<String>, Option<String>);

fn attribute_key(c: &CheckedPattern) -> AttributeKey {
    let k38 = c.constraint38.as_ref();
    (
        c.values,
        c.helper.clone(),
        c.constraint
            .as_ref()
            .map(|k| k.text.clone())
            .or_else(|| k38.and_then(|k| k.text.clone())),
        k38.and_then(|k| k.action_text.clone()),
    )
}

#[allow(clippy::too_many_arguments)]
fn check_pattern(
    p: &PatternAst,
    dialect: Dialect,
    geometry: Geometry,
    settings: crate::dialect::go38_check::DatabaseSettings,
    opts: &CheckOptions<'_>,
    line_of: &dyn Fn(usize) -> u32,
    diags: &mut Vec<Diagnostic>,
) -> Option<CheckedPattern> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let grid = check_diagram(p, geometry, dialect, diags);
    let mut checked = None;
    if let (Some(grid), Some(line)) = (grid, p.attributes.as_ref()) {
        let g = grid.geometry;
        let symmetry = line.symmetry();
        let is_line = symmetry.text == "line";
        if is_line {
            crate::dialect::five::check_line_diagram(&grid, &p.diagram, symmetry.span, diags);
        }
        // A line pattern is expanded by the row's own symmetry: written
        // once, it stands for every line direction and both orientations.
        let (declared, group) = if is_line {
            let own = grid.symmetry_group();
            let class = g
                .class_of_group(own)
                .unwrap_or_else(|| g.largest_class_within(own));
            (class, own)
        } else {
            let declared = symmetry
                .text
                .chars()
                .next()
                .and_then(|l| match l {
                    'O' if dialect == Dialect::GnuGo38 => Some(&crate::dialect::gnugo38::CLASS_O),
                    l => g.class(l),
                })
                .unwrap_or(g.no_symmetry());
            let group = check_symmetry(&grid, declared, symmetry.span, opts.lenient, diags);
            (declared, group)
        };
        let (values, helper) = match line {
            AttributeLine::Go(a) => {
                check_numbers(a, dialect, diags);
                let class = check_class(&a.class, dialect, diags);
                if let Some(h) = &a.helper {
                    check_helper(h, opts, diags);
                }
                (Values::Go(go_values(a, class)), a.helper.as_ref())
            }
            AttributeLine::Go38(a) => {
                let labels = crate::dialect::go38_check::labels_of(p.constraint.as_ref());
                let values =
                    crate::dialect::go38_check::check_attributes(a, settings, &labels, diags);
                if let Some(h) = &a.helper {
                    check_helper(h, opts, diags);
                }
                (Values::Go38(values), a.helper.as_ref())
            }
            AttributeLine::Five(a) => {
                crate::dialect::five::check_closed_cells(&grid, &p.diagram, diags);
                (
                    Values::Five(crate::dialect::five::check_attributes(
                        a, &grid, is_line, diags,
                    )),
                    None,
                )
            }
        };
        let mut constraint38 = None;
        let constraint = if dialect == Dialect::GnuGo38 {
            if let Some(k) = &p.constraint {
                crate::dialect::go38_check::check_constraint_diagram(
                    &p.diagram,
                    k,
                    opts.lenient,
                    diags,
                );
            }
            let labels = crate::dialect::go38_check::labels_of(p.constraint.as_ref());
            constraint38 = crate::constraint38::check(
                p.constraint.as_ref(),
                p.action.as_ref(),
                &labels,
                opts.lenient,
                diags,
            );
            None
        } else {
            p.constraint
                .as_ref()
                .and_then(|k| check_constraint(&p.diagram, &grid, k, opts.lenient, diags))
        };
        let transforms = if dialect == Dialect::GnuGo38 && !is_line {
            crate::dialect::gnugo38::transformations(declared.letter).to_vec()
        } else {
            group.coset_representatives(g)
        };
        let move_at = grid.move_point().unwrap_or((0, 0));
        let lowered38 = match (&constraint38, grid.anchor()) {
            (Some(k), Some(anchor)) => Some(crate::constraint38::lower(
                k,
                &p.diagram,
                p.constraint.as_ref(),
                anchor,
                move_at,
            )),
            _ => None,
        };
        checked = Some(CheckedPattern {
            name: p.name.text.clone(),
            name_span: p.name.span,
            line: line_of(p.header.start),
            grid,
            declared,
            group,
            transforms,
            move_at,
            max_weight: values.max_weight(dialect),
            values,
            helper: helper.map(|h| h.text.clone()),
            description: p.diagram.description.clone(),
            constraint,
            constraint38,
            lowered38,
        });
    }
    let errors_after = diags.iter().filter(|d| d.is_error()).count();
    if errors_after > errors_before {
        None
    } else {
        checked
    }
}

/// GNU Go's record from its attribute line (numbers already checked).
fn go_values(a: &ast::Attributes, class: u16) -> GoValues {
    let assistance = match a.assistance {
        AssistanceAst::None(_) => Assistance::None,
        AssistanceAst::Wind {
            ucutoff,
            uvalue,
            mycutoff,
            myvalue,
            ..
        } => Assistance::Wind {
            ucutoff: ucutoff.value as i32,
            uvalue: uvalue.value as i32,
            mycutoff: mycutoff.value as i32,
            myvalue: myvalue.value as i32,
        },
        AssistanceAst::Moyo { cutoff, value, .. } => Assistance::Moyo {
            cutoff: cutoff.value as i32,
            value: value.value as i32,
        },
    };
    let v = |n: Option<ast::Num>| n.map_or(0, |n| n.value as i32);
    GoValues {
        weight: a.weight.value as i32,
        assistance,
        class,
        bonus: a.bonus.value as i32,
        xbonus: v(a.xbonus),
        splitbonus: v(a.splitbonus),
        minrand: v(a.minrand),
        maxrand: v(a.maxrand),
    }
}
