//! Lowering checked 3.x constraints and actions into 2.6's checked form,
//! the one both back ends (code generator, interpreter) read.

use crate::ast;
use crate::constraint::{BinOp, CheckedConstraint, Expr as E, Func, Label, UnOp};

use super::*;

/// Lowers a pattern's checked `;` and `>` lines. `diagram` is the pattern
/// diagram and `k` its constraint (whose diagram places the labels);
/// `anchor` and `move_at` are the grid cells of the pattern's anchor and
/// move (row, column), the labels' and the move's offsets are taken from
/// the anchor as the matcher's are.
pub fn lower(
    checked: &Checked,
    diagram: &ast::Diagram,
    k: Option<&ast::Constraint>,
    anchor: (usize, usize),
    move_at: (usize, usize),
) -> Lowered {
    let mut out = Lowered::default();
    let (ar, ac) = (anchor.0 as i32, anchor.1 as i32);
    let mut labels: Vec<Label> = Vec::new();
    let mut aligned = true;
    if let Some(k) = k.filter(|k| !k.diagram.rows.is_empty()) {
        let d = &k.diagram;
        aligned = d.rows.len() == diagram.rows.len()
            && d.rows
                .iter()
                .zip(&diagram.rows)
                .all(|(a, b)| a.cells.len() == b.cells.len());
        for (r, row) in d.rows.iter().enumerate() {
            for (c, (ch, _)) in row.cells.iter().enumerate() {
                if crate::dialect::gnugo38::is_label(*ch) && !labels.iter().any(|l| l.name == *ch) {
                    labels.push(Label {
                        name: *ch,
                        di: r as i32 - ar,
                        dj: c as i32 - ac,
                    });
                }
            }
        }
    }
    let form = |text: &str, expr: E| CheckedConstraint {
        text: text.to_string(),
        expr,
        labels: labels.clone(),
        move_di: move_at.0 as i32 - ar,
        move_dj: move_at.1 as i32 - ac,
    };
    let mut why: Vec<&'static str> = Vec::new();
    if let (Some(e), Some(text)) = (&checked.condition, &checked.text) {
        let lowered = expr(e, &mut why);
        if !aligned && !labels.is_empty() {
            why.push(reasons::DIAGRAM);
        }
        if why.is_empty() {
            out.condition = lowered.map(|x| form(text, x));
        }
        note(&mut out.undecided, &why);
    }
    if let Some(text) = &checked.action_text {
        why.clear();
        let mut ret = None;
        match returned(&checked.actions) {
            Some(e) => ret = expr(e, &mut why),
            None => {
                // Report the functions first: they are what a reader can act on.
                for s in &checked.actions {
                    s.exprs(&mut |e| {
                        let _ = expr(e, &mut why);
                    });
                }
                why.push(reasons::STATEMENTS);
            }
        }
        if !aligned && !labels.is_empty() {
            why.push(reasons::DIAGRAM);
        }
        if why.is_empty() {
            out.action = ret.map(|x| form(text, x));
        }
        note(&mut out.undecided, &why);
    }
    out
}

fn note(into: &mut Vec<&'static str>, why: &[&'static str]) {
    for w in why {
        if !into.contains(w) {
            into.push(w);
        }
    }
}

/// The expression of actions that are one `return E;` (in a block or not).
fn returned(stmts: &[Stmt]) -> Option<&Expr> {
    match stmts {
        [Stmt::Return(Some(e), _)] => Some(e),
        [Stmt::Block(inner)] => returned(inner),
        _ => None,
    }
}

/// The 2.6 form of a checked 3.x expression, or `None` with the reasons
/// in `why`. Every sub-expression is visited, so that all reasons are
/// found.
fn expr(e: &Expr, why: &mut Vec<&'static str>) -> Option<E> {
    fn no(why: &mut Vec<&'static str>, w: &'static str) -> Option<E> {
        if !why.contains(&w) {
            why.push(w);
        }
        None
    }
    match &e.kind {
        ExprKind::Num(v) if v % 1000 == 0 => i32::try_from(v / 1000).ok().map(E::Int),
        ExprKind::Num(_) => no(why, reasons::FRACTION),
        ExprKind::Move => Some(E::Move),
        ExprKind::Label(c) => Some(E::Label(*c)),
        // Checked: only among a play sequence's moves, handled there.
        ExprKind::Pass => no(why, reasons::PASS),
        ExprKind::Name(n) => match CONSTANTS.iter().find(|(c, _)| c == n) {
            Some((_, v)) => Some(E::Int(*v)),
            // Read leniently: one of GNU Go's C globals (`doing_scoring`).
            None => no(why, reasons::UNKNOWN),
        },
        ExprKind::Call(name, _, args) => {
            let lowered: Vec<Option<E>> = args.iter().map(|a| expr(a, why)).collect();
            let Some(def) = function(name) else {
                // Read leniently: one of GNU Go's C functions outside the table.
                return no(why, reasons::UNKNOWN);
            };
            let Some(f) = Func::from_name(def.name) else {
                if !why.contains(&def.name) {
                    why.push(def.name);
                }
                return None;
            };
            if args.len() > 9 {
                return no(why, reasons::LONG_SEQUENCE);
            }
            let args: Vec<E> = lowered.into_iter().collect::<Option<_>>()?;
            let call = E::Call(f, args);
            Some(if returns_code(def.name) {
                // A truth value from katachi's engine is WIN or 0.
                E::Binary(
                    BinOp::Mul,
                    Box::new(E::Binary(BinOp::Ne, Box::new(call), Box::new(E::Int(0)))),
                    Box::new(E::Int(WIN)),
                )
            } else {
                call
            })
        }
        ExprKind::Unary(op, a) => {
            let a = expr(a, why)?;
            let op = match op {
                Op::Not => UnOp::Not,
                _ => UnOp::Neg,
            };
            Some(E::Unary(op, Box::new(a)))
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (expr(a, why), expr(b, why));
            let op = match op {
                Op::Mul => BinOp::Mul,
                Op::Add => BinOp::Add,
                Op::Sub => BinOp::Sub,
                Op::Lt => BinOp::Lt,
                Op::Le => BinOp::Le,
                Op::Gt => BinOp::Gt,
                Op::Ge => BinOp::Ge,
                Op::Eq => BinOp::Eq,
                Op::Ne => BinOp::Ne,
                Op::And => BinOp::And,
                Op::Or => BinOp::Or,
                Op::Div => return no(why, reasons::DIVISION),
                Op::Not | Op::Neg => unreachable!("parsed: a binary operator"),
            };
            Some(E::Binary(op, Box::new(a?), Box::new(b?)))
        }
        ExprKind::Cond(c, a, b) => {
            let _ = (expr(c, why), expr(a, why), expr(b, why));
            no(why, reasons::CONDITIONAL)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::constraint::display;

    fn lowered(src: &str) -> super::Lowered {
        let c = crate::compile(
            "t.db",
            src.as_bytes(),
            &crate::Options {
                lenient: true,
                ..crate::Options::default()
            },
        );
        assert!(c.is_ok(), "{}", c.render());
        c.checked[0].lowered38.clone().expect("a 3.x pattern")
    }

    fn pattern(condition: &str, action: &str) -> String {
        format!(
            "attribute_map none\n\nPattern P1\n\n?X.\nO*.\n\n:8,-\n\n?A.\nO*b\n\n{condition}{action}"
        )
    }

    #[test]
    fn evaluable_conditions_become_2_6_forms_with_reading_codes_as_win() {
        let l = lowered(&pattern(";lib(A)>1 && xplay_attack(*,b,A)<WIN\n", ""));
        let k = l.condition.expect("decided");
        assert!(l.undecided.is_empty());
        assert_eq!(display(&k.expr), "lib(A)>1 && (xplay_attack(*,b,A)!=0)*5<5");
        // Labels from the anchor (the first stone, `X` at row 0, column 1).
        assert_eq!(k.label('A').map(|l| (l.di, l.dj)), Some((0, 0)));
        assert_eq!(k.label('b').map(|l| (l.di, l.dj)), Some((1, 1)));
        assert_eq!((k.move_di, k.move_dj), (1, 0));
        assert_eq!(k.text, "lib(A)>1 && xplay_attack(*,b,A)<WIN");
    }

    #[test]
    fn what_katachi_cannot_evaluate_is_undecided_with_every_reason() {
        let l = lowered(&pattern(
            ";owl_escape_value(b)>0 || oplay_defend(*,?,A) || (lib(b) ? 1 : 0) || 0.5\n",
            ">antisuji(b);\n",
        ));
        assert_eq!(l.condition, None);
        assert_eq!(l.action, None);
        assert_eq!(
            l.undecided,
            [
                "owl_escape_value",
                super::reasons::PASS,
                super::reasons::CONDITIONAL,
                super::reasons::FRACTION,
                "antisuji",
                super::reasons::STATEMENTS
            ]
        );
    }

    #[test]
    fn a_returning_action_is_lowered_and_others_are_not() {
        let l = lowered(&pattern("", ">return (!xplay_attack(A,b));\n"));
        assert_eq!(l.condition, None);
        let a = l.action.expect("decided");
        assert_eq!(display(&a.expr), "!((xplay_attack(A,b)!=0)*5)");
        assert!(l.undecided.is_empty());
        let l = lowered(&pattern("", ">if (lib(A)>1) return 1;\n"));
        assert_eq!(l.action, None);
        assert_eq!(l.undecided, [super::reasons::STATEMENTS]);
        // Names outside GNU Go's table, read leniently, are reasons too.
        let l = lowered(&pattern(";!doing_scoring && !disconnect_helper(A)\n", ""));
        assert_eq!(l.condition, None);
        assert_eq!(l.undecided, [super::reasons::UNKNOWN]);
    }
}
#[cfg(test)]
mod numbers {
    use super::super::{parse_expr, ExprKind};

    #[test]
    fn decimals_are_read_whole_in_thousandths() {
        let num = |t: &str| match parse_expr(t).map(|e| e.kind) {
            Ok(ExprKind::Num(n)) => n,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(num("0.5"), 500);
        assert_eq!(num("0.75"), 750);
        assert_eq!(num(".7"), 700);
        assert_eq!(num("3."), 3000);
        assert_eq!(num("12"), 12000);
        assert!(parse_expr("0.1234").is_err());
    }
}
