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

use std::collections::HashMap;

use crate::ast::{self, AssistanceAst, Dialect, Num, PatternAst};
use crate::constraint::{self as constraint_lang, CheckedConstraint, Label};
use crate::diag::{Diagnostic, Span};
use crate::grid::{Grid, Spec};
use crate::helpers::{HelperSet, SIGNATURE};
use crate::tables::{class, Assistance};
use crate::transform::{describe_group, side, SymmetryClass, TransformSet};

/// Largest magnitude of any number on an attribute line: keeps every sum
/// the matcher computes far inside `i32`.
pub const NUM_LIMIT: i64 = 100_000;

/// The largest board side katachi supports, and so the largest diagram.
pub const MAX_SIDE: usize = 25;

/// A pattern that passed the checker: everything the expander needs.
#[derive(Clone, Debug)]
pub struct CheckedPattern {
    pub name: String,
    pub name_span: Span,
    pub line: u32,
    pub grid: Grid,
    pub declared: SymmetryClass,
    /// The group whose cosets are expanded: the declared class's, or in
    /// lenient mode the diagram's own when the declaration is wrong.
    pub group: TransformSet,
    pub weight: i32,
    pub assistance: Assistance,
    pub class: u16,
    pub bonus: i32,
    pub xbonus: i32,
    pub splitbonus: i32,
    pub minrand: i32,
    pub maxrand: i32,
    pub max_weight: i64,
    pub helper: Option<String>,
    pub description: String,
    /// The 2.6 constraint, parsed and type-checked, its labels placed
    /// relative to the anchor (see [`check_constraint`]).
    pub constraint: Option<CheckedConstraint>,
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
    let mut shapes: HashMap<(Grid, String), (String, Span)> = HashMap::new();
    for p in &db.patterns {
        if let Some(first) = names.get(p.name.text.as_str()) {
            let what = match db.dialect {
                Dialect::Seed => "pattern number",
                Dialect::GnuGo26 => "pattern name",
            };
            diags.push(
                Diagnostic::error(p.name.span, format!("duplicate {what} `{}`", p.name.text))
                    .related(*first, "first used here")
                    .note("`mkpat renum FILE` renumbers the patterns 1, 2, 3… in file order"),
            );
        } else {
            names.insert(&p.name.text, p.name.span);
        }
        let Some(c) = check_pattern(p, db.dialect, opts, line_of, &mut diags) else {
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

fn attribute_key(c: &CheckedPattern) -> String {
    format!(
        "{:?} {:?} {} {} {} {} {} {} {:?} {}",
        c.weight,
        c.assistance,
        c.class,
        c.bonus,
        c.xbonus,
        c.splitbonus,
        c.minrand,
        c.maxrand,
        c.helper,
        c.constraint.as_ref().map_or("", |k| k.text.as_str())
    )
}

fn check_pattern(
    p: &PatternAst,
    dialect: Dialect,
    opts: &CheckOptions<'_>,
    line_of: &dyn Fn(usize) -> u32,
    diags: &mut Vec<Diagnostic>,
) -> Option<CheckedPattern> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let grid = check_diagram(p, diags);
    let attrs = p.attributes.as_ref();
    let mut checked = None;
    if let (Some(grid), Some(a)) = (grid, attrs) {
        let declared = SymmetryClass::from_char(a.symmetry.text.chars().next().unwrap_or('8'))
            .unwrap_or(SymmetryClass::None);
        let group = check_symmetry(&grid, declared, a.symmetry.span, opts.lenient, diags);
        check_numbers(a, dialect, diags);
        let class = check_class(&a.class, dialect, diags);
        if let Some(h) = &a.helper {
            check_helper(h, opts, diags);
        }
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
        let v = |n: Option<Num>| n.map_or(0, |n| n.value as i32);
        let weight = a.weight.value as i32;
        let bonus = a.bonus.value as i32;
        let (xbonus, splitbonus, minrand, maxrand) =
            (v(a.xbonus), v(a.splitbonus), v(a.minrand), v(a.maxrand));
        // In i64: the wind and moyo products alone reach 10^10.
        let wide = i64::from;
        let max_weight = match dialect {
            Dialect::Seed => wide(weight) + assistance.max_bonus() + wide(bonus.max(0)),
            Dialect::GnuGo26 => {
                wide(weight)
                    + assistance.max_bonus()
                    + wide(splitbonus)
                    + wide(maxrand)
                    + wide(bonus.max(0))
                    + wide(xbonus.max(0))
            }
        };
        let constraint = p
            .constraint
            .as_ref()
            .and_then(|k| check_constraint(&p.diagram, &grid, k, opts.lenient, diags));
        checked = Some(CheckedPattern {
            name: p.name.text.clone(),
            name_span: p.name.span,
            line: line_of(p.header.start),
            grid,
            declared,
            group,
            weight,
            assistance,
            class,
            bonus,
            xbonus,
            splitbonus,
            minrand,
            maxrand,
            max_weight,
            helper: a.helper.as_ref().map(|h| h.text.clone()),
            description: p.diagram.description.clone(),
            constraint,
        });
    }
    let errors_after = diags.iter().filter(|d| d.is_error()).count();
    if errors_after > errors_before {
        None
    } else {
        checked
    }
}

/// Builds the grid, reporting width, move, stone and edge problems.
fn check_diagram(p: &PatternAst, diags: &mut Vec<Diagnostic>) -> Option<Grid> {
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
    // Move and stones.
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
        .any(|c| c.0 == 'O' || c.0 == 'X');
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

fn check_symmetry(
    grid: &Grid,
    declared: SymmetryClass,
    span: Span,
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) -> TransformSet {
    let actual = grid.symmetry_group();
    let want = declared.group();
    if !want.is_subset_of(actual) {
        let fits = SymmetryClass::ALL
            .into_iter()
            .filter(|c| c.group().is_subset_of(actual))
            .max_by_key(|c| c.group().len())
            .unwrap_or(SymmetryClass::None);
        let msg = format!(
            "symmetry class `{}` does not hold for this diagram: it has {}",
            declared.as_char(),
            describe_group(actual)
        );
        let d = if lenient {
            Diagnostic::warning(span, msg).note(format!(
                "read leniently: expanded for the symmetry the diagram has (class `{}`)",
                fits.as_char()
            ))
        } else {
            Diagnostic::error(span, msg)
        };
        diags.push(d.note(format!("the class that holds is `{}`", fits.as_char())));
        return if lenient { actual } else { want };
    }
    if actual != want {
        let d = match SymmetryClass::for_group(actual) {
            Some(c) => Diagnostic::warning(
                span,
                format!(
                    "the diagram has more symmetry than class `{}`: class `{}` fits",
                    declared.as_char(),
                    c.as_char()
                ),
            )
            .note(format!(
                "with `{}`, {} transformations are tried instead of {}",
                c.as_char(),
                c.transformations().len(),
                declared.transformations().len()
            )),
            None => {
                let best = SymmetryClass::ALL
                    .into_iter()
                    .filter(|c| c.group().is_subset_of(actual))
                    .max_by_key(|c| c.group().len())
                    .unwrap_or(SymmetryClass::None);
                let mut d = Diagnostic::warning(
                    span,
                    format!(
                        "the diagram has {}, which no class describes: its matches will repeat",
                        describe_group(actual)
                    ),
                )
                .note(format!(
                    "each placement is found {} times",
                    actual.len() / want.len()
                ));
                if best != declared {
                    d = d.note(format!(
                        "class `{}` is the closest that holds",
                        best.as_char()
                    ));
                }
                d
            }
        };
        diags.push(d);
    }
    want
}

fn check_numbers(a: &ast::Attributes, dialect: Dialect, diags: &mut Vec<Diagnostic>) {
    let mut nums = vec![("the weight", a.weight), ("the bonus", a.bonus)];
    for (n, v) in [
        ("xbonus", a.xbonus),
        ("splitbonus", a.splitbonus),
        ("minrand", a.minrand),
        ("maxrand", a.maxrand),
    ] {
        if let Some(v) = v {
            nums.push((n, v));
        }
    }
    match a.assistance {
        AssistanceAst::None(_) => {}
        AssistanceAst::Wind {
            ucutoff,
            uvalue,
            mycutoff,
            myvalue,
            ..
        } => {
            nums.extend([
                ("ucutoff", ucutoff),
                ("uvalue", uvalue),
                ("mycutoff", mycutoff),
                ("myvalue", myvalue),
            ]);
            for (value, cutoff, vn, cn) in [
                (uvalue, ucutoff, "uvalue", "ucutoff"),
                (myvalue, mycutoff, "myvalue", "mycutoff"),
            ] {
                if value.value != 0
                    && cutoff.value != 0
                    && value.value.signum() != cutoff.value.signum()
                {
                    diags.push(
                        Diagnostic::warning(
                            value.span,
                            format!("{vn} {} has the opposite sign to {cn} {}", value.value, cutoff.value),
                        )
                        .note(format!("only the cutoff's size counts, `{vn}·min(power, |{cn}|)`: a negative cutoff reads as positive and a negative value works against the weight, so one of the two signs is likely a slip")),
                    );
                }
            }
        }
        AssistanceAst::Moyo { cutoff, value, .. } => {
            nums.extend([("the moyo cutoff", cutoff), ("the moyo value", value)])
        }
    }
    for (name, n) in nums {
        if n.value.abs() > NUM_LIMIT {
            diags.push(
                Diagnostic::error(n.span, format!("{name} {} is out of range", n.value)).note(
                    format!("numbers must lie between {} and {NUM_LIMIT}", -NUM_LIMIT),
                ),
            );
        }
    }
    if dialect == Dialect::Seed && a.bonus.value % 2 != 0 {
        diags.push(
            Diagnostic::warning(a.bonus.span, format!("the bonus {} is odd", a.bonus.value))
                .note("the bonus is awarded two points at a time, so it should be even"),
        );
    }
}

fn check_class(t: &ast::Text, dialect: Dialect, diags: &mut Vec<Diagnostic>) -> u16 {
    let mut bits = 0;
    for (off, c) in t.text.char_indices() {
        if c == '-' {
            continue;
        }
        let allowed = match dialect {
            Dialect::Seed => "snOoXxDCB",
            Dialect::GnuGo26 => "snOoXxDCBAL",
        };
        match class::from_char(c) {
            Some(b) if allowed.contains(c) => bits |= b,
            _ => {
                let at = t.span.start + off;
                diags.push(
                    Diagnostic::warning(
                        Span::new(at, at + c.len_utf8()),
                        format!("unknown classification letter `{c}` is ignored"),
                    )
                    .note(format!(
                        "the classification is made of {}; `-` is a placeholder",
                        allowed
                            .chars()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )),
                );
            }
        }
    }
    bits
}

fn check_helper(h: &ast::Text, opts: &CheckOptions<'_>, diags: &mut Vec<Diagnostic>) {
    let Some(set) = opts.helpers else {
        return;
    };
    let mk = |msg: String| {
        if opts.lenient {
            Diagnostic::warning(h.span, msg)
        } else {
            Diagnostic::error(h.span, msg)
        }
    };
    match set.functions.get(&h.text) {
        Some(Ok(())) => {}
        Some(Err(found)) => diags.push(
            mk(format!(
                "helper `{}` does not have the helper signature",
                h.text
            ))
            .note(format!("found `{found}`"))
            .note(format!("a helper is `{SIGNATURE}`")),
        ),
        None => {
            let mut d = mk(format!("unknown helper `{}`", h.text));
            if let Some(close) = set.closest(&h.text) {
                d = d.note(format!("did you mean `{close}`?"));
            }
            diags.push(d.note(format!("a helper is `{SIGNATURE}` in the helpers module")));
        }
    }
}

/// The message of a constraint diagram whose shape is not the pattern's.
pub const MSG_CONSTRAINT_SHAPE: &str =
    "the constraint diagram does not have the pattern diagram's shape";
/// The message of labels placed on `?` cells.
pub const MSG_CONSTRAINT_LABEL_ON_ANY: &str = "a label on a cell where the pattern diagram has `?`";
/// The message of unlabelled cells that differ from the pattern's.
pub const MSG_CONSTRAINT_CELL: &str = "the constraint diagram differs from the pattern diagram";

/// Checks a 2.6 constraint: its diagram against the pattern's, then its
/// expression against the diagram's labels.
///
/// A label (a letter other than `O o X x`; `t` included, although GNU Go
/// also read `*` as `t`) names the point where it first appears in reading
/// order. Its offset is taken the way GNU Go 2.6 took it — row and column
/// in the constraint diagram's own rows (edge lines and a leading `|` not
/// counted) — which is the same point as in the pattern diagram whenever
/// the two line up, and then made relative to the pattern's anchor.
/// Diagrams that do not line up are errors (warnings when `lenient`), one
/// diagnostic per diagram and kind.
pub fn check_constraint(
    pattern: &ast::Diagram,
    grid: &Grid,
    k: &ast::Constraint,
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<CheckedConstraint> {
    let d = &k.diagram;
    let (ar, ac) = grid.anchor()?;
    let (mr, mc) = grid.move_point()?;
    let mut labels: Vec<Label> = Vec::new();
    for (r, row) in d.rows.iter().enumerate() {
        for (c, (ch, _)) in row.cells.iter().enumerate() {
            if constraint_lang::is_label(*ch) && !labels.iter().any(|l| l.name == *ch) {
                labels.push(Label {
                    name: *ch,
                    di: r as i32 - ar as i32,
                    dj: c as i32 - ac as i32,
                });
            }
        }
    }
    let bad = |span: Span, msg: &str| {
        if lenient {
            Diagnostic::warning(span, msg)
        } else {
            Diagnostic::error(span, msg)
        }
    };
    if !d.rows.is_empty() {
        let shape = |g: &ast::Diagram| {
            let widths: Vec<usize> = g.rows.iter().map(|r| r.cells.len()).collect();
            let west = g.rows.iter().all(|r| r.west.is_some());
            let east = g.rows.iter().all(|r| r.east.is_some());
            (
                widths,
                g.north.is_some(),
                g.south.is_some(),
                west,
                east,
                g.misplaced_edges.len(),
            )
        };
        let describe = |g: &ast::Diagram| {
            let (widths, n, s, w, e, _) = shape(g);
            let mut sides: Vec<&str> = Vec::new();
            for (on, name) in [(n, "north"), (s, "south"), (w, "west"), (e, "east")] {
                if on {
                    sides.push(name);
                }
            }
            let width = match (widths.iter().min(), widths.iter().max()) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a} to {b}"),
                _ => "0".into(),
            };
            format!(
                "{} rows of {width} cells{}",
                widths.len(),
                if sides.is_empty() {
                    String::new()
                } else {
                    format!(", edges {}", sides.join(" "))
                }
            )
        };
        let first_line = |g: &ast::Diagram| g.lines.first().copied().unwrap_or_default();
        if shape(d) != shape(pattern) {
            let mut diag = bad(first_line(d), MSG_CONSTRAINT_SHAPE)
                .related(first_line(pattern), "the pattern diagram")
                .note(format!(
                    "the pattern diagram has {}, the constraint diagram {}",
                    describe(pattern),
                    describe(d)
                ));
            if lenient {
                diag = diag.note(
                    "read as GNU Go 2.6 did: each label at its row and column in the constraint diagram, relative to the pattern's `*`",
                );
            }
            diags.push(diag);
        } else {
            let mut on_any: Vec<Span> = Vec::new();
            let mut differ: Vec<(Span, char, char)> = Vec::new();
            for (cr, pr) in d.rows.iter().zip(&pattern.rows) {
                for ((cc, cs), (pc, _)) in cr.cells.iter().zip(&pr.cells) {
                    if constraint_lang::is_label(*cc) {
                        if *pc == '?' {
                            on_any.push(*cs);
                        }
                    } else if cc != pc {
                        differ.push((*cs, *cc, *pc));
                    }
                }
            }
            if let Some(first) = on_any.first() {
                diags.push(
                    bad(*first, MSG_CONSTRAINT_LABEL_ON_ANY)
                        .related(first_line(pattern), "the pattern diagram")
                        .note(format!(
                            "{} label cell(s) stand on `?`: a label names a point the pattern constrains",
                            on_any.len()
                        )),
                );
            }
            if let Some((first, cc, pc)) = differ.first() {
                diags.push(
                    Diagnostic::warning(*first, MSG_CONSTRAINT_CELL)
                        .related(first_line(pattern), "the pattern diagram")
                        .note(format!(
                            "`{cc}` here, `{pc}` in the pattern diagram ({} cell(s) differ); the pattern diagram is the one matched",
                            differ.len()
                        )),
                );
            }
        }
    }
    let expr = constraint_lang::check_expr(k, &labels, diags)?;
    Some(CheckedConstraint {
        text: k.expr.text.clone(),
        expr,
        labels,
        move_di: mr as i32 - ar as i32,
        move_dj: mc as i32 - ac as i32,
    })
}

#[cfg(test)]
mod constraint_tests {
    use super::*;
    use crate::constraint::Label;

    fn compile(constraint_diagram: &str, lenient: bool) -> crate::Compiled {
        let src = format!(
            "Pattern A1\n\n?X.\nO*.\n\n:8,50,0,O,0,0,0,0,0,NULL\n\n{constraint_diagram}\n;lib(A)>1 && olib(b)\n"
        );
        crate::compile(
            "c.db",
            src.as_bytes(),
            &crate::Options {
                lenient,
                ..crate::Options::default()
            },
        )
    }

    fn messages(c: &crate::Compiled) -> Vec<(bool, &str)> {
        c.diagnostics
            .iter()
            .map(|d| (d.is_error(), d.message.as_str()))
            .collect()
    }

    #[test]
    fn labels_are_placed_from_the_anchor() {
        let c = compile("?A.\nO*b", false);
        assert!(c.is_ok(), "{}", c.render());
        assert!(c.diagnostics.is_empty(), "{}", c.render());
        let k = c.checked[0].constraint.as_ref().unwrap();
        assert_eq!(
            k.labels,
            vec![
                Label {
                    name: 'A',
                    di: 0,
                    dj: 0
                },
                Label {
                    name: 'b',
                    di: 1,
                    dj: 1
                }
            ]
        );
        assert_eq!((k.move_di, k.move_dj), (1, 0));
        let db = c.database.unwrap();
        assert_eq!(db.constraints[0].as_ref(), Some(k));
        assert_eq!(
            db.patterns[0].constraint.as_deref(),
            Some("lib(A)>1 && olib(b)")
        );
    }

    #[test]
    fn a_label_on_a_question_mark_is_an_error_unless_lenient() {
        let c = compile("aA.\nO*b", false);
        assert_eq!(messages(&c), vec![(true, MSG_CONSTRAINT_LABEL_ON_ANY)]);
        assert_eq!(c.source.line_col(c.diagnostics[0].span.start), (8, 1));
        let c = compile("aA.\nO*b", true);
        assert_eq!(messages(&c), vec![(false, MSG_CONSTRAINT_LABEL_ON_ANY)]);
        assert!(c.is_ok());
    }

    #[test]
    fn another_shape_is_an_error_unless_lenient_then_read_as_gnu_go_did() {
        let c = compile("OAb", false);
        assert_eq!(messages(&c), vec![(true, MSG_CONSTRAINT_SHAPE)]);
        let c = compile("|OAb", true);
        assert_eq!(messages(&c), vec![(false, MSG_CONSTRAINT_SHAPE)]);
        // GNU Go's rows and columns: row 0, columns 1 and 2 (the `|` not
        // counted), from the anchor `X` at row 0, column 1.
        let k = c.checked[0].constraint.as_ref().unwrap();
        assert_eq!(
            k.label('A'),
            Some(Label {
                name: 'A',
                di: 0,
                dj: 0
            })
        );
        assert_eq!(
            k.label('b'),
            Some(Label {
                name: 'b',
                di: 0,
                dj: 1
            })
        );
    }

    #[test]
    fn unknown_labels_are_errors_even_when_lenient() {
        let c = compile("?X.\nO*b", true);
        assert!(!c.is_ok());
        assert!(
            c.render().contains("error: unknown label `A`"),
            "{}",
            c.render()
        );
    }

    #[test]
    fn an_unlabelled_cell_that_differs_is_a_warning() {
        let c = compile("?A.\n.*b", false);
        assert_eq!(messages(&c), vec![(false, MSG_CONSTRAINT_CELL)]);
        assert!(c.is_ok());
        assert!(
            c.render()
                .contains("`.` here, `O` in the pattern diagram (1 cell(s) differ)"),
            "{}",
            c.render()
        );
    }
}
