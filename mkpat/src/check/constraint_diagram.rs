//! A 2.6 constraint: its diagram against the pattern's, its labels, and
//! its expression against those labels.

use super::*;

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
