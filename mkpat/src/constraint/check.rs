//! The constraint type checker: resolves names against the function table
//! and the diagram's labels, and maps every error back into the file.

use super::*;
use crate::ast::Constraint;
use crate::diag::Diagnostic;

/// Maps a range of the expression text to the file through the `;` lines'
/// pieces.
pub fn source_span(c: &Constraint, at: Span) -> Span {
    let map = |off: usize| -> usize {
        match c.pieces.iter().rev().find(|(start, _)| *start <= off) {
            Some((start, span)) => (span.start + (off - start)).min(span.end),
            None => c.expr.span.start,
        }
    };
    let start = map(at.start);
    let end = if at.end > at.start {
        map(at.end - 1) + 1
    } else {
        start + 1
    };
    Span::new(start, end.max(start + 1))
}

/// Parses and type-checks a constraint's expression against the labels of
/// its diagram. Returns the expression, or `None` with every error in
/// `diags` (spans in the file).
pub fn check_expr(c: &Constraint, labels: &[Label], diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let ast = match parse(&c.expr.text) {
        Ok(a) => a,
        Err((off, msg)) => {
            diags.push(
                Diagnostic::error(source_span(c, Span::at(off)), format!("constraint syntax: {msg}"))
                    .note("a constraint is a C expression: numbers, labels, `*`, `+ - *`, comparisons, `&& || !`, calls"),
            );
            return None;
        }
    };
    let mut errors = Vec::new();
    let e = to_expr(&ast, labels, &mut errors);
    if errors.is_empty() {
        Some(e)
    } else {
        diags.extend(errors.into_iter().map(|(at, d)| {
            let mut d = d;
            d.span = source_span(c, at);
            d
        }));
        None
    }
}

type Errs = Vec<(Span, Diagnostic)>;

fn err(errs: &mut Errs, at: Span, msg: String) -> &mut Diagnostic {
    errs.push((at, Diagnostic::error(Span::default(), msg)));
    &mut errs.last_mut().expect("just pushed").1
}

/// Checks a number-valued operand.
fn to_expr(a: &Ast, labels: &[Label], errs: &mut Errs) -> Expr {
    let e = to_any(a, labels, errs);
    if e.is_point() {
        let what = match &e {
            Expr::Label(c) => format!("label `{c}`"),
            _ => "the move `*`".to_string(),
        };
        let d = err(errs, a.at, format!("{what} is a point, not a number"));
        *d = d
            .clone()
            .note("points are arguments of functions, as in `lib(a)>1`");
    }
    e
}

/// Checks any expression; points are allowed (the caller decides).
fn to_any(a: &Ast, labels: &[Label], errs: &mut Errs) -> Expr {
    match &a.kind {
        AstKind::Int(v) => match i32::try_from(*v) {
            Ok(v) => Expr::Int(v),
            Err(_) => {
                err(
                    errs,
                    a.at,
                    format!("the number {v} does not fit in 32 bits"),
                );
                Expr::Int(0)
            }
        },
        AstKind::Move => Expr::Move,
        AstKind::Label(c) => {
            if !labels.iter().any(|l| l.name == *c) {
                let msg = if matches!(c, 'O' | 'o' | 'X' | 'x') {
                    format!("`{c}` is a diagram cell, not a label")
                } else {
                    format!("unknown label `{c}`")
                };
                let have: Vec<String> = labels.iter().map(|l| format!("`{}`", l.name)).collect();
                let note = if have.is_empty() {
                    "the constraint diagram labels no point".to_string()
                } else {
                    format!("the constraint diagram labels {}", have.join(" "))
                };
                let d = err(errs, a.at, msg);
                *d = d.clone().note(note);
            }
            Expr::Label(*c)
        }
        AstKind::Name(n) => {
            if let Some((_, v)) = CONSTANTS.iter().find(|(k, _)| k == n) {
                return Expr::Int(*v);
            }
            if Func::from_name(n).is_some() {
                err(errs, a.at, format!("function `{n}` used without arguments"));
            } else {
                let d = err(errs, a.at, format!("unknown name `{n}`"));
                let names = CONSTANTS.iter().map(|(k, _)| *k);
                if let Some(close) = closest(n, names) {
                    *d = d.clone().note(format!("did you mean `{close}`?"));
                }
                *d = d.clone().note(
                    "labels are single letters; the constants are DEAD ALIVE CRITICAL UNKNOWN",
                );
            }
            Expr::Int(0)
        }
        AstKind::Call(name, name_at, args) => {
            let Some(f) = Func::from_name(name) else {
                let d = err(errs, *name_at, format!("unknown function `{name}`"));
                if let Some(close) = closest(name, Func::ALL.iter().map(|f| f.name())) {
                    *d = d.clone().note(format!("did you mean `{close}`?"));
                }
                // Still check the arguments, for their own errors.
                for x in args {
                    to_any(x, labels, errs);
                }
                return Expr::Int(0);
            };
            let (min, max) = f.arity();
            if args.len() < min || args.len() > max {
                let want = if min == max {
                    format!("{min} argument{}", if min == 1 { "" } else { "s" })
                } else {
                    format!("{min} to {max} arguments")
                };
                let d = err(
                    errs,
                    a.at,
                    format!("`{name}` takes {want}, given {}", args.len()),
                );
                *d = d.clone().note(format!("`{name}`: {}", f.doc()));
            }
            let checked = args
                .iter()
                .map(|x| {
                    let before = errs.len();
                    let e = to_any(x, labels, errs);
                    // An argument already in error is not reported twice.
                    if !e.is_point() && errs.len() == before {
                        let d = err(
                            errs,
                            x.at,
                            format!("an argument of `{name}` must be a point"),
                        );
                        *d = d
                            .clone()
                            .note("a point is a label of the constraint diagram or `*`, the move");
                    }
                    e
                })
                .collect();
            Expr::Call(f, checked)
        }
        AstKind::Unary(op, x) => Expr::Unary(*op, Box::new(to_expr(x, labels, errs))),
        AstKind::Binary(op, x, y) => {
            let x = to_expr(x, labels, errs);
            let y = to_expr(y, labels, errs);
            Expr::Binary(*op, Box::new(x), Box::new(y))
        }
    }
}

/// The closest candidate by edit distance, if close enough to suggest.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
