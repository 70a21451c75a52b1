//! Checking 3.x constraints and actions: names against [`FUNCTIONS`] and
//! [`CONSTANTS`], arguments against each function's [`Args`], labels
//! against the constraint diagram; spans back into the file.

use crate::ast::Constraint;
use crate::constraint::source_span;
use crate::diag::{Diagnostic, Span};

use super::*;

/// A pattern's constraint and actions after checking.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The `;` lines' text joined with newlines, for display (the
    /// tables' `constraint`), if the pattern has any.
    pub text: Option<String>,
    /// The `>` lines' text joined with newlines, if any.
    pub action_text: Option<String>,
    /// The `;` expression, if the pattern has one.
    pub condition: Option<Expr>,
    /// The `>` statements.
    pub actions: Vec<Stmt>,
    /// The functions named that katachi's Go engine cannot evaluate, each
    /// once, in order of first use.
    pub unsupported: Vec<&'static str>,
}

/// Parses and checks a pattern's `;` text (`condition`, empty text for
/// none) and `>` text (`actions`) against `labels`. Errors go to `diags`
/// and give `None`; functions katachi cannot evaluate are one warning.
///
/// A name outside GNU Go's table (GNU Go pasted the text into C, so a
/// database may call any of its engine's C functions, `disconnect_helper`,
/// or read its globals, `doing_scoring`) is an error, a warning when
/// `lenient`.
pub fn check(
    condition: Option<&Constraint>,
    actions: Option<&Constraint>,
    labels: &[char],
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Checked> {
    let before = diags.iter().filter(|d| d.is_error()).count();
    let mut out = Checked {
        text: condition
            .map(|k| k.expr.text.clone())
            .filter(|t| !t.trim().is_empty()),
        action_text: actions.map(|k| k.expr.text.clone()),
        condition: None,
        actions: Vec::new(),
        unsupported: Vec::new(),
    };
    let syntax = |k: &Constraint, (off, msg): (usize, String), what: &str| {
        Diagnostic::error(
            source_span(k, Span::at(off)),
            format!("{what} syntax: {msg}"),
        )
    };
    if let Some(k) = condition.filter(|k| !k.expr.text.trim().is_empty()) {
        match parse_expr(&k.expr.text) {
            Ok(e) => {
                names(&e, k, labels, lenient, &mut out.unsupported, diags);
                out.condition = Some(e);
            }
            Err(e) => diags.push(syntax(k, e, "constraint").note(
                "a constraint is a C expression over the diagram's labels: numbers, `*`, calls, `+ - * /`, comparisons, `&& || !`, `?:`",
            )),
        }
    }
    if let Some(k) = actions {
        match parse_actions(&k.expr.text) {
            Ok(stmts) => {
                for s in &stmts {
                    s.exprs(&mut |e| names(e, k, labels, lenient, &mut out.unsupported, diags));
                }
                out.actions = stmts;
            }
            Err(e) => diags.push(syntax(k, e, "action").note(
                "actions are C statements: `call(a);`, `if (…) …; else …;`, `return …;`, `{ … }`",
            )),
        }
    }
    if diags.iter().filter(|d| d.is_error()).count() > before {
        return None;
    }
    if !out.unsupported.is_empty() {
        let at = condition
            .filter(|k| !k.expr.text.trim().is_empty())
            .or(actions)
            .map_or(Span::at(0), |k| k.expr.span);
        let list: Vec<String> = out.unsupported.iter().map(|n| format!("`{n}`")).collect();
        diags.push(
            Diagnostic::warning(
                Span::new(at.start, at.start + 1),
                format!(
                    "katachi's Go engine cannot evaluate {}",
                    list.join(", ")
                ),
            )
            .note("the pattern matches as drawn; its constraint and actions are kept, checked, not decided (`mkpat stats` counts them)"),
        );
    }
    Some(out)
}

/// Checks every name of `e`: calls, their arguments, constants, labels.
fn names(
    e: &Expr,
    k: &Constraint,
    labels: &[char],
    lenient: bool,
    unsupported: &mut Vec<&'static str>,
    diags: &mut Vec<Diagnostic>,
) {
    let at = |s: Span| source_span(k, s);
    let unknown = |span: Span, msg: String| {
        if lenient {
            Diagnostic::warning(span, msg)
        } else {
            Diagnostic::error(span, msg)
        }
    };
    e.walk(&mut |x| match &x.kind {
        ExprKind::Call(name, name_at, args) => {
            let Some(f) = function(name) else {
                let mut d = unknown(at(*name_at), format!("unknown function `{name}`"));
                let all: Vec<&str> = FUNCTIONS.iter().map(|f| f.name).collect();
                if let Some(c) = closest(name, &all) {
                    d = d.note(format!("did you mean `{c}`?"));
                }
                diags.push(d.note("the functions are GNU Go 3.8's table's (`mkpat stats` lists those a database uses)"));
                return;
            };
            if !f.args.accepts(args.len()) {
                diags.push(
                    Diagnostic::error(
                        at(x.at),
                        format!(
                            "`{name}` takes {}, found {} argument(s)",
                            f.args.describe(),
                            args.len()
                        ),
                    ),
                );
            }
            let moves = match f.args {
                Args::Sequence(t) => args.len().saturating_sub(t),
                _ => 0,
            };
            for (i, a) in args.iter().enumerate() {
                match &a.kind {
                    ExprKind::Move => {}
                    // Reported, if unknown, where the walk meets it.
                    ExprKind::Label(_) => {}
                    ExprKind::Pass if i < moves => {}
                    ExprKind::Pass => diags.push(
                        Diagnostic::error(at(a.at), "`?` (a pass) stands only among a `play` sequence's moves"),
                    ),
                    _ => diags.push(
                        Diagnostic::error(at(a.at), format!("an argument of `{name}` is a point: a label or `*`")),
                    ),
                }
            }
            if !f.evaluable() && !unsupported.contains(&f.name) {
                unsupported.push(f.name);
            }
        }
        ExprKind::Name(n) if !CONSTANTS.iter().any(|(c, _)| c == n) => {
            let all: Vec<&str> = CONSTANTS.iter().map(|(c, _)| *c).collect();
            let mut d = unknown(at(x.at), format!("unknown name `{n}`"));
            if function(n).is_some() {
                d = d.note(format!("`{n}` is a function: call it, `{n}(…)`"));
            } else if let Some(c) = closest(n, &all) {
                d = d.note(format!("did you mean `{c}`?"));
            }
            diags.push(d.note(format!("the constants are {}", all.join(", "))));
        }
        ExprKind::Label(c) if !labels.contains(c) => diags.push(
            Diagnostic::error(at(x.at), format!("label `{c}` is not in the constraint diagram"))
                .note("a label names the point where the constraint diagram shows that letter"),
        ),
        ExprKind::Pass => {}
        _ => {}
    });
}

fn closest<'a>(name: &str, among: &[&'a str]) -> Option<&'a str> {
    among
        .iter()
        .map(|c| (strsim::damerau_levenshtein(name, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c)
}
