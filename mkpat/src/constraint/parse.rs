//! The constraint parser: nom over the expression text, with C precedence
//! and bounded nesting ([`MAX_NESTING`], [`MAX_DEPTH`]).

use std::borrow::Cow;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char as ch, digit1, multispace0, satisfy};
use nom::combinator::{opt, recognize};
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::{IResult, Parser};

use super::*;

/// A syntax error: where (the unparsed rest of the input) and what.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError<'a> {
    pub rest: &'a str,
    pub message: Cow<'static, str>,
}

impl<'a> nom::error::ParseError<&'a str> for SyntaxError<'a> {
    fn from_error_kind(rest: &'a str, _: nom::error::ErrorKind) -> Self {
        SyntaxError {
            rest,
            message: Cow::Borrowed("unexpected text"),
        }
    }
    fn append(_: &'a str, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, SyntaxError<'a>>;

fn fail<'a, T>(rest: &'a str, message: impl Into<Cow<'static, str>>) -> Res<'a, T> {
    Err(nom::Err::Failure(SyntaxError {
        rest,
        message: message.into(),
    }))
}

/// Describes what stands at `rest`, for "expected …, found …" messages.
fn found(rest: &str) -> String {
    match rest.chars().next() {
        None => "the end of the expression".into(),
        Some(c) if c.is_ascii_alphanumeric() || c == '_' => {
            let w: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            format!("`{w}`")
        }
        Some(c) => format!("`{c}`"),
    }
}

/// The parser: carries the whole text to turn remainders into offsets,
/// and how many parentheses, calls and prefix operators it is inside.
struct P {
    len: usize,
    nesting: std::cell::Cell<usize>,
}

impl<'a> P {
    fn off(&self, rest: &str) -> usize {
        self.len - rest.len()
    }

    /// Enters a parenthesis, a call or a prefix operator at `at`: the
    /// parser recurses there, so its depth is bounded. Errors abort the
    /// whole parse, so only the success path calls [`P::leave`].
    fn enter(&self, at: &'a str) -> Result<(), nom::Err<SyntaxError<'a>>> {
        let n = self.nesting.get() + 1;
        if n > MAX_NESTING {
            return Err(nom::Err::Failure(SyntaxError {
                rest: at,
                message: Cow::Owned(format!(
                    "expression nested too deeply (more than {MAX_NESTING} levels of parentheses, calls and prefix operators)"
                )),
            }));
        }
        self.nesting.set(n);
        Ok(())
    }

    fn leave(&self) {
        self.nesting.set(self.nesting.get() - 1);
    }

    /// A node over operands of depth `sub`, refused when too deep.
    fn node(&self, kind: AstKind, at: Span, sub: usize, op: &'a str) -> Res<'a, Ast> {
        let depth = sub + 1;
        if depth > MAX_DEPTH {
            return fail(
                op,
                format!(
                    "expression too deep: operators nest more than {MAX_DEPTH} levels (a chain `a && b && …` counts one level per operator)"
                ),
            );
        }
        Ok(("", Ast { kind, at, depth }))
    }

    fn span(&self, before: &str, after: &str) -> Span {
        Span::new(self.off(before), self.off(after))
    }

    fn ws(i: &'a str) -> &'a str {
        multispace0::<_, SyntaxError<'a>>(i).map_or(i, |(r, _)| r)
    }

    /// Folds a left-associative level: `sub (op sub)*`.
    fn level(
        &self,
        i: &'a str,
        ops: &[(&'static str, BinOp)],
        sub: &dyn Fn(&Self, &'a str) -> Res<'a, Ast>,
    ) -> Res<'a, Ast> {
        let start = Self::ws(i);
        let (mut i, mut lhs) = sub(self, start)?;
        loop {
            let t = Self::ws(i);
            let Some(&(tok, op)) = ops.iter().find(|(tok, _)| t.starts_with(tok)) else {
                return Ok((i, lhs));
            };
            // `<` must not take the `<` of `<=`: ops lists longer tokens first.
            let after_op = &t[tok.len()..];
            let (rest, rhs) = sub(self, Self::ws(after_op))?;
            let sub_depth = lhs.depth.max(rhs.depth);
            let at = self.span(start, rest);
            let kind = AstKind::Binary(op, Box::new(lhs), Box::new(rhs));
            lhs = self.node(kind, at, sub_depth, t)?.1;
            i = rest;
        }
    }

    fn or(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(i, &[("||", BinOp::Or)], &|p, i| p.and(i))
    }
    fn and(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(i, &[("&&", BinOp::And)], &|p, i| p.eq(i))
    }
    fn eq(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(i, &[("==", BinOp::Eq), ("!=", BinOp::Ne)], &|p, i| p.rel(i))
    }
    fn rel(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(
            i,
            &[
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            &|p, i| p.add(i),
        )
    }
    fn add(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(i, &[("+", BinOp::Add), ("-", BinOp::Sub)], &|p, i| p.mul(i))
    }
    fn mul(&self, i: &'a str) -> Res<'a, Ast> {
        self.level(i, &[("*", BinOp::Mul)], &|p, i| p.unary(i))
    }

    fn unary(&self, i: &'a str) -> Res<'a, Ast> {
        let start = Self::ws(i);
        let op = if start.starts_with('!') && !start.starts_with("!=") {
            Some(UnOp::Not)
        } else if start.starts_with('-') {
            Some(UnOp::Neg)
        } else {
            None
        };
        match op {
            None => self.primary(start),
            Some(op) => {
                self.enter(start)?;
                let (rest, arg) = self.unary(&start[1..])?;
                self.leave();
                let at = self.span(start, rest);
                // `-` before a literal is a negative literal.
                if let (UnOp::Neg, AstKind::Int(v)) = (op, &arg.kind) {
                    let kind = AstKind::Int(-v);
                    return Ok((rest, Ast { kind, at, depth: 1 }));
                }
                let sub = arg.depth;
                let (_, node) = self.node(AstKind::Unary(op, Box::new(arg)), at, sub, start)?;
                Ok((rest, node))
            }
        }
    }

    fn identifier(i: &'a str) -> Res<'a, &'a str> {
        recognize(pair(
            satisfy(|c: char| c.is_ascii_alphabetic() || c == '_'),
            many0_count(satisfy(|c: char| c.is_ascii_alphanumeric() || c == '_')),
        ))
        .parse(i)
    }

    fn primary(&self, i: &'a str) -> Res<'a, Ast> {
        if let Ok((rest, digits)) = digit1::<_, SyntaxError<'a>>(i) {
            if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                return fail(rest, format!("a number runs into {}", found(rest)));
            }
            let value = digits.parse::<i64>().unwrap_or(i64::MAX);
            return Ok((
                rest,
                Ast {
                    kind: AstKind::Int(value),
                    at: self.span(i, rest),
                    depth: 1,
                },
            ));
        }
        if let Some(rest) = i.strip_prefix('*') {
            return Ok((
                rest,
                Ast {
                    kind: AstKind::Move,
                    at: self.span(i, rest),
                    depth: 1,
                },
            ));
        }
        if let Some(after) = i.strip_prefix('(') {
            self.enter(i)?;
            let (rest, inner) = self.or(after)?;
            self.leave();
            let rest = Self::ws(rest);
            let Some(rest) = rest.strip_prefix(')') else {
                return fail(
                    rest,
                    format!("expected `)` or an operator, found {}", found(rest)),
                );
            };
            return Ok((
                rest,
                Ast {
                    kind: inner.kind,
                    at: self.span(i, rest),
                    depth: inner.depth,
                },
            ));
        }
        if let Ok((rest, name)) = Self::identifier(i) {
            let name_at = self.span(i, rest);
            let t = Self::ws(rest);
            if let Ok((mut r, _)) = ch::<_, SyntaxError<'a>>('(').parse(t) {
                let mut args = Vec::new();
                let r0 = Self::ws(r);
                if let Some(close) = r0.strip_prefix(')') {
                    let at = self.span(i, close);
                    return Ok((
                        close,
                        Ast {
                            kind: AstKind::Call(name.to_string(), name_at, args),
                            at,
                            depth: 1,
                        },
                    ));
                }
                self.enter(i)?;
                loop {
                    let (after, arg) = self.or(r)?;
                    args.push(arg);
                    let after = Self::ws(after);
                    let sep: Res<'a, char> = alt((ch(','), ch(')'))).parse(after);
                    match sep {
                        Ok((next, ',')) => r = next,
                        Ok((next, _)) => {
                            self.leave();
                            let at = self.span(i, next);
                            let sub = args.iter().map(|a| a.depth).max().unwrap_or(0);
                            let kind = AstKind::Call(name.to_string(), name_at, args);
                            let (_, node) = self.node(kind, at, sub, i)?;
                            return Ok((next, node));
                        }
                        Err(_) => {
                            return fail(
                                after,
                                format!(
                                    "expected `,` or `)` in the arguments of `{name}`, found {}",
                                    found(after)
                                ),
                            )
                        }
                    }
                }
            }
            let mut chars = name.chars();
            let kind = match (chars.next(), chars.next()) {
                (Some(c), None) => AstKind::Label(c),
                _ => AstKind::Name(name.to_string()),
            };
            return Ok((
                rest,
                Ast {
                    kind,
                    at: name_at,
                    depth: 1,
                },
            ));
        }
        let what = if i.is_empty() {
            "expected an operand, found the end of the expression".to_string()
        } else if let Some(op) = ["&&", "||", "==", "!=", "<=", ">=", "<", ">", "+", ")", ","]
            .iter()
            .find(|op| i.starts_with(**op))
        {
            format!("expected an operand before `{op}`")
        } else {
            format!(
                "expected an operand (a number, a label, `*`, a call or `(`), found {}",
                found(i)
            )
        };
        fail(i, what)
    }

    fn top(&self, i: &'a str) -> Res<'a, Ast> {
        if Self::ws(i)
            .trim_end_matches(|c: char| c == ';' || c.is_whitespace())
            .is_empty()
        {
            return fail(Self::ws(i), "an empty constraint expression");
        }
        let (rest, e) = self.or(i)?;
        let rest = Self::ws(rest);
        let (rest, _) = opt(tag::<_, _, SyntaxError<'a>>(";")).parse(rest)?;
        let rest = Self::ws(rest);
        if !rest.is_empty() {
            let msg = match rest.chars().next() {
                Some('&') => "a single `&`: the logical and is `&&`".to_string(),
                Some('|') => "a single `|`: the logical or is `||`".to_string(),
                Some('=') => "a single `=`: the comparison is `==`".to_string(),
                Some('/' | '%') => "only `+ - *` are arithmetic operators here".to_string(),
                Some(')') => "a `)` without its `(`".to_string(),
                _ => format!(
                    "expected an operator or the end of the expression, found {}",
                    found(rest)
                ),
            };
            return fail(rest, msg);
        }
        Ok((rest, e))
    }
}

/// Parses an expression text. The error's offset is a byte offset into
/// `text`.
pub fn parse(text: &str) -> Result<Ast, (usize, String)> {
    let p = P {
        len: text.len(),
        nesting: std::cell::Cell::new(0),
    };
    match p.top(text) {
        Ok((_, e)) => Ok(e),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            Err((p.off(e.rest), e.message.into_owned()))
        }
        Err(nom::Err::Incomplete(_)) => Err((text.len(), "incomplete expression".into())),
    }
}
