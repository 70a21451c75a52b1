//! The 3.x constraint and action parser: nom for the tokens, recursive
//! descent for C precedence, nesting bounded by [`MAX_NESTING`]. Errors
//! are an offset into the text and a message.

use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::multispace0;
use nom::combinator::recognize;
use nom::sequence::pair;
use nom::{IResult, Parser};

use super::*;

type Res<'a, T> = IResult<&'a str, T, nom::error::Error<&'a str>>;

/// A syntax error: the byte offset in the text and what was expected.
pub type SyntaxError = (usize, String);

/// Parses the joined `;` lines: one expression (a final `;` allowed).
pub fn parse_expr(text: &str) -> Result<Expr, SyntaxError> {
    let mut p = P { text, depth: 0 };
    let (rest, e) = p.expr(text)?;
    let rest = p.ws(rest);
    let rest = rest.strip_prefix(';').map_or(rest, |r| p.ws(r));
    if !rest.is_empty() {
        return Err(p.err(rest, "expected an operator or the end of the expression"));
    }
    Ok(e)
}

/// Parses the joined `>` lines: statements.
pub fn parse_actions(text: &str) -> Result<Vec<Stmt>, SyntaxError> {
    let mut p = P { text, depth: 0 };
    let mut out = Vec::new();
    let mut rest = p.ws(text);
    while !rest.is_empty() {
        let (r, s) = p.stmt(rest)?;
        out.push(s);
        rest = p.ws(r);
    }
    Ok(out)
}

struct P<'t> {
    text: &'t str,
    depth: usize,
}

fn word(s: &str) -> Res<'_, &str> {
    recognize(pair(
        take_while1(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(s)
}

/// A decimal number, `12`, `0.7`, `3.` or `.5`, as its text. (Written by
/// hand: nom's `recognize` over `(digit1, opt((char('.'), digit0)))`
/// gave `0.` for `0.5` here.)
fn number(s: &str) -> Res<'_, &str> {
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    let whole = digits(s);
    let mut end = whole;
    if s[end..].starts_with('.') {
        let frac = digits(&s[end + 1..]);
        if whole > 0 || frac > 0 {
            end += 1 + frac;
        }
    }
    if end == 0 {
        return Err(nom::Err::Error(nom::error::Error::new(
            s,
            nom::error::ErrorKind::Digit,
        )));
    }
    Ok((&s[end..], &s[..end]))
}

fn found(rest: &str) -> String {
    match rest.chars().next() {
        None => "the end".into(),
        Some(c) if c.is_ascii_alphanumeric() || c == '_' => {
            format!("`{}`", word(rest).map_or(rest, |(_, w)| w))
        }
        Some(c) => format!("`{c}`"),
    }
}

impl<'t> P<'t> {
    fn off(&self, rest: &str) -> usize {
        self.text.len() - rest.len()
    }

    fn err(&self, rest: &str, what: &str) -> SyntaxError {
        (self.off(rest), format!("{what}, found {}", found(rest)))
    }

    fn span(&self, from: &str, to: &str) -> Span {
        Span::new(self.off(from), self.off(to))
    }

    fn ws<'a>(&self, s: &'a str) -> &'a str {
        let r: Res<'_, &str> = multispace0(s);
        r.map_or(s, |(r, _)| r)
    }

    fn enter(&mut self, at: &str) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err((self.off(at), format!("nested more than {MAX_NESTING} deep")));
        }
        Ok(())
    }

    fn keyword<'a>(&self, s: &'a str, k: &str) -> Option<&'a str> {
        let (rest, w) = word(s).ok()?;
        (w == k).then_some(rest)
    }

    fn expect<'a>(&self, s: &'a str, t: &str) -> Result<&'a str, SyntaxError> {
        let s = self.ws(s);
        s.strip_prefix(t)
            .ok_or_else(|| self.err(s, &format!("expected `{t}`")))
    }

    /// A statement's `;`, which the last statement may leave out.
    fn end_of_statement<'a>(&self, s: &'a str) -> Result<&'a str, SyntaxError> {
        let r = self.ws(s);
        if r.is_empty() {
            return Ok(r);
        }
        self.expect(r, ";")
    }

    fn stmt<'a>(&mut self, s: &'a str) -> Result<(&'a str, Stmt), SyntaxError> {
        let s = self.ws(s);
        self.enter(s)?;
        let out = if let Some(r) = self.keyword(s, "if") {
            let r = self.expect(r, "(")?;
            let (r, c) = self.expr(r)?;
            let r = self.expect(r, ")")?;
            let (r, then) = self.stmt(r)?;
            let r2 = self.ws(r);
            match self.keyword(r2, "else") {
                Some(r3) => {
                    let (r4, other) = self.stmt(r3)?;
                    (r4, Stmt::If(c, Box::new(then), Some(Box::new(other))))
                }
                None => (r, Stmt::If(c, Box::new(then), None)),
            }
        } else if let Some(r) = self.keyword(s, "return") {
            let r1 = self.ws(r);
            let (r, e) = if r1.starts_with(';') {
                (r1, None)
            } else {
                let (r, e) = self.expr(r1)?;
                (r, Some(e))
            };
            let at = self.span(s, r);
            (self.end_of_statement(r)?, Stmt::Return(e, at))
        } else if let Some(mut r) = s.strip_prefix('{') {
            let mut body = Vec::new();
            loop {
                r = self.ws(r);
                if let Some(r2) = r.strip_prefix('}') {
                    break (r2, Stmt::Block(body));
                }
                if r.is_empty() {
                    return Err(self.err(r, "expected `}`"));
                }
                let (r2, st) = self.stmt(r)?;
                body.push(st);
                r = r2;
            }
        } else {
            let (r, e) = self.expr(s)?;
            (self.end_of_statement(r)?, Stmt::Expr(e))
        };
        self.depth -= 1;
        Ok(out)
    }

    fn expr<'a>(&mut self, s: &'a str) -> Result<(&'a str, Expr), SyntaxError> {
        let start = self.ws(s);
        let (r, c) = self.binary(start, 0)?;
        let r1 = self.ws(r);
        match r1.strip_prefix('?') {
            Some(r2) => {
                self.enter(r1)?;
                let (r3, a) = self.expr(r2)?;
                let r4 = self.expect(r3, ":")?;
                let (r5, b) = self.expr(r4)?;
                self.depth -= 1;
                let at = self.span(start, r5);
                Ok((
                    r5,
                    Expr {
                        kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                        at,
                    },
                ))
            }
            None => Ok((r, c)),
        }
    }

    /// The binary operators by level, lowest first.
    const LEVELS: [&'static [(&'static str, Op)]; 6] = [
        &[("||", Op::Or)],
        &[("&&", Op::And)],
        &[("==", Op::Eq), ("!=", Op::Ne)],
        &[("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt)],
        &[("+", Op::Add), ("-", Op::Sub)],
        &[("*", Op::Mul), ("/", Op::Div)],
    ];

    fn binary<'a>(&mut self, s: &'a str, level: usize) -> Result<(&'a str, Expr), SyntaxError> {
        if level == Self::LEVELS.len() {
            return self.unary(s);
        }
        let start = self.ws(s);
        let (mut rest, mut left) = self.binary(start, level + 1)?;
        loop {
            let r = self.ws(rest);
            let Some((op, r2)) = Self::LEVELS[level]
                .iter()
                .find_map(|(t, op)| r.strip_prefix(t).map(|r2| (*op, r2)))
            else {
                break;
            };
            // `||` is not `|` twice, `&&` not `&`: a lone `|`, `&` or `=`
            // falls through to the caller's "expected" message.
            let (r3, right) = self.binary(r2, level + 1)?;
            let at = self.span(start, r3);
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                at,
            };
            rest = r3;
        }
        Ok((rest, left))
    }

    fn unary<'a>(&mut self, s: &'a str) -> Result<(&'a str, Expr), SyntaxError> {
        let s = self.ws(s);
        for (t, op) in [("!", Op::Not), ("-", Op::Neg)] {
            if let Some(r) = s.strip_prefix(t) {
                if t == "!" && r.starts_with('=') {
                    break;
                }
                self.enter(s)?;
                let (r2, e) = self.unary(r)?;
                self.depth -= 1;
                let at = self.span(s, r2);
                return Ok((
                    r2,
                    Expr {
                        kind: ExprKind::Unary(op, Box::new(e)),
                        at,
                    },
                ));
            }
        }
        self.primary(s)
    }

    fn primary<'a>(&mut self, s: &'a str) -> Result<(&'a str, Expr), SyntaxError> {
        let mk = |this: &Self, kind, r: &'a str| {
            Ok((
                r,
                Expr {
                    kind,
                    at: this.span(s, r),
                },
            ))
        };
        if let Ok((r, n)) = number(s) {
            let (whole, frac) = n.split_once('.').unwrap_or((n, ""));
            if frac.len() > 3 || whole.len() > 9 {
                return Err((
                    self.off(s),
                    format!("the number `{n}` has more than three decimals or nine digits"),
                ));
            }
            let w: i64 = if whole.is_empty() {
                0
            } else {
                whole.parse().unwrap_or(0)
            };
            let f: i64 = if frac.is_empty() {
                0
            } else {
                frac.parse::<i64>().unwrap_or(0) * 10i64.pow(3 - frac.len() as u32)
            };
            return mk(self, ExprKind::Num(w * 1000 + f), r);
        }
        if let Some(r) = s.strip_prefix('*') {
            return mk(self, ExprKind::Move, r);
        }
        if let Some(r) = s.strip_prefix('?') {
            return mk(self, ExprKind::Pass, r);
        }
        if let Some(r) = s.strip_prefix('(') {
            self.enter(s)?;
            let (r2, mut e) = self.expr(r)?;
            let r3 = self.expect(r2, ")")?;
            self.depth -= 1;
            e.at = self.span(s, r3);
            return Ok((r3, e));
        }
        if let Ok((r, w)) = word(s) {
            let r1 = self.ws(r);
            if let Some(mut r2) = r1.strip_prefix('(') {
                self.enter(s)?;
                let name_at = self.span(s, r);
                let mut args = Vec::new();
                r2 = self.ws(r2);
                if let Some(r3) = r2.strip_prefix(')') {
                    r2 = r3;
                } else {
                    loop {
                        let (r3, a) = self.expr(r2)?;
                        args.push(a);
                        let r4 = self.ws(r3);
                        if let Some(r5) = r4.strip_prefix(',') {
                            r2 = r5;
                        } else if let Some(r5) = r4.strip_prefix(')') {
                            r2 = r5;
                            break;
                        } else {
                            return Err(
                                self.err(r4, &format!("expected `,` or `)` in the call of `{w}`"))
                            );
                        }
                    }
                }
                self.depth -= 1;
                return mk(self, ExprKind::Call(w.to_string(), name_at, args), r2);
            }
            let mut cs = w.chars();
            return match (cs.next(), cs.next()) {
                (Some(c), None) => mk(self, ExprKind::Label(c), r),
                _ => mk(self, ExprKind::Name(w.to_string()), r),
            };
        }
        Err(self.err(s, "expected a number, a label, `*`, a call or `(`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Num(n) => format!("{n}"),
            ExprKind::Move => "*".into(),
            ExprKind::Pass => "?".into(),
            ExprKind::Label(c) => c.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::Call(n, _, a) => {
                format!("{n}({})", a.iter().map(show).collect::<Vec<_>>().join(","))
            }
            ExprKind::Unary(op, a) => format!("({}{})", op.as_str(), show(a)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.as_str(), show(b)),
            ExprKind::Cond(c, a, b) => format!("({} ? {} : {})", show(c), show(a), show(b)),
        }
    }

    #[test]
    fn precedence_is_c_s() {
        let e = parse_expr("lib(A)<=4 && oplay_attack(*,b,A) || !x_somewhere(a,b)").unwrap();
        assert_eq!(
            show(&e),
            "(((lib(A) <= 4000) && oplay_attack(*,b,A)) || (!x_somewhere(a,b)))"
        );
        let e = parse_expr("weakness(a)<0.7;").unwrap();
        assert_eq!(show(&e), "(weakness(a) < 700)");
        let e = parse_expr("a != WIN ? 1 : 2 - -b * c").unwrap();
        assert_eq!(show(&e), "((a != WIN) ? 1000 : (2000 - ((-b) * c)))");
        let e = parse_expr("oplay_defend(*,?,a)").unwrap();
        assert_eq!(show(&e), "oplay_defend(*,?,a)");
    }

    #[test]
    fn actions_are_statements() {
        let s = parse_actions(
            "if ((halfeye(a) || false_eye(a)) && safe_omove(b)\n    && !false_eye_territory(a)) non_xterritory(a);\nelse { antisuji(b); return 0; }",
        )
        .unwrap();
        assert_eq!(s.len(), 1);
        assert!(matches!(&s[0], Stmt::If(_, _, Some(_))));
        let s = parse_actions("return (!xplay_attack(a,b));").unwrap();
        assert!(matches!(&s[0], Stmt::Return(Some(_), _)));
    }

    #[test]
    fn errors_say_where_and_what() {
        assert_eq!(
            parse_expr("lib(a) >").unwrap_err(),
            (
                8,
                "expected a number, a label, `*`, a call or `(`, found the end".to_string()
            )
        );
        assert_eq!(parse_expr("lib(a b)").unwrap_err().0, 6);
        assert!(
            parse_actions("antisuji(a)").is_ok(),
            "the last `;` may be left out"
        );
        assert_eq!(
            parse_actions("antisuji(a) replace(a,*)").unwrap_err(),
            (12, "expected `;`, found `replace`".to_string())
        );
        let deep = format!("{}a{}", "(".repeat(40), ")".repeat(40));
        assert!(parse_expr(&deep).unwrap_err().1.contains("nested"));
    }
}
