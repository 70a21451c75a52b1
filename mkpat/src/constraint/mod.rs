//! The constraint language of GNU Go 2.6 databases: parser and type checker.
//!
//! A 2.6 pattern may end with `;` lines holding a C-like boolean expression
//! over labelled points of its constraint diagram (`lib(a)>2 && !attack(B)`).
//! GNU Go pasted that text into C and let the C compiler find the mistakes;
//! katachi parses it here into an [`Ast`], then checks it ([`check_expr`]) into a typed
//! [`Expr`] whose calls name a [`Func`] of the declared table with the right
//! arity and whose labels exist. Every problem becomes a located
//! [`Diagnostic`](crate::diag::Diagnostic) pointing into the `;` lines, so a bad constraint is
//! reported like any other database error.
//!
//! The checked [`Expr`] is what both back ends consume: the code generator
//! turns it into a Rust function calling an engine trait, and katachi's
//! interpreter (`katachi::go::constraint`) evaluates it directly. Both follow C
//! semantics: `i32` arithmetic (wrapping), comparisons and `! && ||` give 0
//! or 1, `&&` and `||` short-circuit, operands evaluate left to right.
//!
//! Grammar (C precedence, lowest first):
//!
//! ```text
//! expr    := or ";"?
//! or      := and ("||" and)*
//! and     := eq ("&&" eq)*
//! eq      := rel (("==" | "!=") rel)*
//! rel     := add (("<=" | ">=" | "<" | ">") add)*
//! add     := mul (("+" | "-") mul)*
//! mul     := unary ("*" unary)*
//! unary   := ("!" | "-") unary | primary
//! primary := INT | "*" | LABEL | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
//! ```
//!
//! `*` in operand position is the move point, in operator position a
//! product. Identifiers are read whole (`lib2(` is `lib2`, not `lib`); a
//! one-letter identifier is a label, a longer one a function or a constant.
//!
//! The language itself (the function table, the trees, the checked form,
//! [`display`]) needs no parser and is all a runtime interpreter reads;
//! reading text ([`parse`](fn@parse)) and checking it ([`check_expr`]) are the
//! compiler's, behind the `compiler` feature.

#[cfg(feature = "compiler")]
mod check;
#[cfg(feature = "compiler")]
mod parse;

#[cfg(feature = "compiler")]
pub use check::{check_expr, source_span};
#[cfg(feature = "compiler")]
pub use parse::{parse, SyntaxError};

use crate::diag::Span;

/// The functions of the constraint language, once, for every place that
/// needs the list: `constraint_functions!(callback)` expands to
/// `callback! { Variant name min max shape "doc"; … }`, one row a function
/// in the order of `CONSTRAINTS.md`, where `name` is the name written in
/// databases (and the engine method's), `min`/`max` the arity and `shape`
/// how the arguments reach the method (`one` point, `two` points, or a
/// `sequence` of moves then the target). mkpat builds [`Func`] from it;
/// an engine builds its trait and its dispatch from it, so a function
/// added here cannot be forgotten in either.
#[macro_export]
macro_rules! constraint_functions {
    ($callback:ident) => {
        $callback! {
            Lib lib 1 1 one "Liberties of the string at the point.";
            Lib2 lib2 1 1 one "Second-order liberties of the string at the point.";
            Lib3 lib3 1 1 one "Third-order liberties of the string at the point.";
            Lib4 lib4 1 1 one "Fourth-order liberties of the string at the point.";
            Xlib xlib 1 1 one "Liberties an X stone would have if played on the empty point.";
            Olib olib 1 1 one "Liberties an O stone would have if played on the empty point.";
            Ko ko 1 1 one "The point is a stone or empty point involved in a ko.";
            Status status 1 1 one "Status of the dragon at the point: ALIVE, UNKNOWN, CRITICAL or DEAD.";
            Alive alive 1 1 one "The dragon at the point is alive.";
            Unknown unknown 1 1 one "The dragon at the point has unknown status.";
            Critical critical 1 1 one "The dragon at the point is critical.";
            Dead dead 1 1 one "The dragon at the point is dead.";
            Genus genus 1 1 one "Number of eyes of the dragon at the point.";
            Weak weak 1 1 one "The dragon at the point is in critical safety.";
            Cutstone cutstone 1 1 one "0, 1 or 2: how important the string at the point is as a cutting stone.";
            Attack attack 1 1 one "The string at the point can be captured.";
            Defend defend 1 1 one "The string at the point can be captured and also defended.";
            DoesAttack does_attack 2 2 two "A move at the first point captures the string at the second.";
            DoesDefend does_defend 2 2 two "A move at the first point saves the string at the second.";
            SafeXmove safe_xmove 1 1 one "An X stone can be played at the point and not be captured at once.";
            SafeOmove safe_omove 1 1 one "An O stone can be played at the point and not be captured at once.";
            XdefendAgainst xdefend_against 2 2 two "An X stone at the first point stops O from safely playing at the second.";
            OdefendAgainst odefend_against 2 2 two "An O stone at the first point stops X from safely playing at the second.";
            Xcut xcut 1 1 one "X can cut at the point.";
            Ocut ocut 1 1 one "O can cut at the point.";
            XplayAttack xplay_attack 2 9 sequence "Play the moves alternately starting with X: can the string at the last point be captured?";
            OplayAttack oplay_attack 2 9 sequence "Play the moves alternately starting with O: can the string at the last point be captured?";
            XplayDefend xplay_defend 2 9 sequence "Play the moves alternately starting with X: is the string at the last point safe?";
            OplayDefend oplay_defend 2 9 sequence "Play the moves alternately starting with O: is the string at the last point safe?";
            Xarea xarea 1 1 one "The point is a living X stone or an empty point in X's area.";
            Oarea oarea 1 1 one "The point is a living O stone or an empty point in O's area.";
            Xmoyo xmoyo 1 1 one "The point is in X's moyo.";
            Omoyo omoyo 1 1 one "The point is in O's moyo.";
            Xterri xterri 1 1 one "The point is in X's territory.";
            Oterri oterri 1 1 one "The point is in O's territory.";
            DiffMoyo diff_moyo 1 1 one "Change in moyo if O plays at the point.";
            AreaStone area_stone 1 1 one "Stones of the area around the point.";
            AreaSpace area_space 1 1 one "Empty points of the area around the point.";
            Eye eye 1 1 one "The point is eye space for either colour.";
            ProperEye proper_eye 1 1 one "The point is non-marginal eye space for either colour.";
            MarginalEye marginal_eye 1 1 one "The point is marginal eye space for either colour.";
            SekiHelper seki_helper 1 1 one "The string at the point is in a seki-like situation.";
        }
    };
}

macro_rules! functions {
    ($($variant:ident $name:ident $min:literal $max:literal $shape:ident $doc:literal;)*) => {
        /// A function of the constraint language: one method of the engine
        /// trait each, of the same name.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Func {
            $(#[doc = $doc] $variant,)*
        }

        impl Func {
            /// Every function, in the order of `CONSTRAINTS.md`.
            pub const ALL: &'static [Func] = &[$(Func::$variant),*];

            /// The name written in databases, also the engine method's name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Func::$variant => stringify!($name),)*
                }
            }

            /// The least and the most arguments it takes.
            pub const fn arity(self) -> (usize, usize) {
                match self {
                    $(Func::$variant => ($min, $max),)*
                }
            }

            /// What it means, for documentation.
            pub const fn doc(self) -> &'static str {
                match self {
                    $(Func::$variant => $doc,)*
                }
            }
        }
    };
}

constraint_functions!(functions);

/// How a function's arguments reach the engine method.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// `f(x)`: one point.
    One,
    /// `f(x, y)`: two points.
    Two,
    /// `f(a, …, z)`: a sequence of moves, then the target string.
    Sequence,
}

impl Func {
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.iter().copied().find(|f| f.name() == name)
    }

    pub const fn shape(self) -> Shape {
        match self.arity() {
            (1, 1) => Shape::One,
            (2, 2) => Shape::Two,
            _ => Shape::Sequence,
        }
    }
}

/// The named constants an expression may use: the values that
/// `status(x)` returns. An engine's `status` must return these.
pub const CONSTANTS: [(&str, i32); 4] =
    [("DEAD", 0), ("ALIVE", 1), ("CRITICAL", 2), ("UNKNOWN", 3)];

/// A binary operator.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Mul,
    Add,
    Sub,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    pub const fn as_str(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Applies an arithmetic or comparison operator with C semantics on
    /// `int` (wrapping arithmetic, comparisons 0 or 1). `&&` and `||` are
    /// given their values here too, but evaluators must short-circuit them.
    pub const fn apply(self, a: i32, b: i32) -> i32 {
        match self {
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Lt => (a < b) as i32,
            BinOp::Le => (a <= b) as i32,
            BinOp::Gt => (a > b) as i32,
            BinOp::Ge => (a >= b) as i32,
            BinOp::Eq => (a == b) as i32,
            BinOp::Ne => (a != b) as i32,
            BinOp::And => (a != 0 && b != 0) as i32,
            BinOp::Or => (a != 0 || b != 0) as i32,
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnOp {
    /// `!x`: 1 when x is 0, else 0.
    Not,
    /// `-x`, wrapping.
    Neg,
}

/// A parsed expression, names not yet resolved. `at` is a byte range in
/// the expression text ([`Constraint::expr`](crate::ast::Constraint::expr)), not in the file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ast {
    pub kind: AstKind,
    pub at: Span,
    /// The height of the tree: 1 for an operand, one more than its
    /// deepest operand for an operator or call (at most [`MAX_DEPTH`]).
    pub depth: usize,
}

/// The height an expression's tree may reach: how deeply one operator or
/// call may sit inside others (a chain `a && b && …` nests one level per
/// operator, a call over its points counts two). Every consumer of an
/// expression (checker, display, code generator, interpreter, and rustc on
/// the generated function) recurses over the tree, so the parser refuses
/// a taller one with a located error instead of letting any of them run
/// out of stack. GNU Go 2.6's longest constraints stay under 20.
pub const MAX_DEPTH: usize = 100;

/// How many parentheses, calls and prefix operators may enclose a point of
/// the text. The parser recurses through every precedence level at each
/// of them (about 25 KiB of stack a level in a debug build), so this bound
/// is lower: the deepest accepted text parses on a 2 MiB stack. GNU Go
/// 2.6's constraints nest at most 4.
pub const MAX_NESTING: usize = 32;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AstKind {
    /// A decimal literal (its value checked against `i32` by the checker).
    Int(i64),
    /// `*` in operand position: the move point.
    Move,
    /// A one-letter identifier.
    Label(char),
    /// A longer identifier not followed by `(`: a constant, or a mistake.
    Name(String),
    Call(String, Span, Vec<Ast>),
    Unary(UnOp, Box<Ast>),
    Binary(BinOp, Box<Ast>, Box<Ast>),
}

/// A checked expression: every call names a [`Func`] with the right number
/// of point arguments, every label exists, every operand is a number.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    Int(i32),
    /// The move point.
    Move,
    /// A label of the constraint diagram (see [`CheckedConstraint::labels`]).
    Label(char),
    /// A call; its arguments are all [`Expr::Move`] or [`Expr::Label`].
    Call(Func, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Is this a point (a label or the move)?
    pub fn is_point(&self) -> bool {
        matches!(self, Expr::Move | Expr::Label(_))
    }

    /// Is the value always 0 or 1 (so that it reads as a truth value)?
    pub fn is_boolean(&self) -> bool {
        match self {
            Expr::Unary(UnOp::Not, _) => true,
            Expr::Binary(op, _, _) => !matches!(op, BinOp::Mul | BinOp::Add | BinOp::Sub),
            _ => false,
        }
    }

    /// The labels it uses, each once, in order of first use.
    pub fn labels(&self) -> Vec<char> {
        fn walk(e: &Expr, out: &mut Vec<char>) {
            match e {
                Expr::Label(c) if !out.contains(c) => out.push(*c),
                Expr::Call(_, args) => args.iter().for_each(|a| walk(a, out)),
                Expr::Unary(_, a) => walk(a, out),
                Expr::Binary(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }
}

/// A labelled point: where the label stands, relative to the pattern's
/// anchor (its first `O` or `X` in reading order), untransformed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Label {
    pub name: char,
    pub di: i32,
    pub dj: i32,
}

/// A pattern's constraint after checking: what the back ends need.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CheckedConstraint {
    /// The `;` lines' text joined with newlines, for display.
    pub text: String,
    pub expr: Expr,
    /// Every label of the constraint diagram, in reading order of first
    /// appearance, with its offset from the anchor.
    pub labels: Vec<Label>,
    /// The move point relative to the anchor.
    pub move_di: i32,
    pub move_dj: i32,
}

impl CheckedConstraint {
    /// The offset of a label from the anchor.
    pub fn label(&self, name: char) -> Option<Label> {
        self.labels.iter().copied().find(|l| l.name == name)
    }
}

/// Is `c` a label character of a constraint diagram? Letters other than
/// the cells `O o X x`.
pub fn is_label(c: char) -> bool {
    c.is_ascii_alphabetic() && !matches!(c, 'O' | 'o' | 'X' | 'x')
}

/// Renders an expression as C-like text with minimal parentheses (for
/// docs and messages).
pub fn display(e: &Expr) -> String {
    fn prec(e: &Expr) -> u8 {
        match e {
            Expr::Binary(op, _, _) => match op {
                BinOp::Or => 1,
                BinOp::And => 2,
                BinOp::Eq | BinOp::Ne => 3,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
                BinOp::Add | BinOp::Sub => 5,
                BinOp::Mul => 6,
            },
            Expr::Unary(..) => 7,
            _ => 8,
        }
    }
    fn go(e: &Expr, out: &mut String) {
        let wrap = |x: &Expr, min: u8, out: &mut String| {
            if prec(x) < min {
                out.push('(');
                go(x, out);
                out.push(')');
            } else {
                go(x, out);
            }
        };
        match e {
            Expr::Int(v) => out.push_str(&v.to_string()),
            Expr::Move => out.push('*'),
            Expr::Label(c) => out.push(*c),
            Expr::Call(f, args) => {
                out.push_str(f.name());
                out.push('(');
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    go(a, out);
                }
                out.push(')');
            }
            Expr::Unary(op, x) => {
                out.push(if *op == UnOp::Not { '!' } else { '-' });
                wrap(x, 7, out);
            }
            Expr::Binary(op, x, y) => {
                let p = prec(e);
                wrap(x, p, out);
                let spaced = matches!(op, BinOp::And | BinOp::Or);
                if spaced {
                    out.push(' ');
                }
                out.push_str(op.as_str());
                if spaced {
                    out.push(' ');
                }
                wrap(y, p + 1, out);
            }
        }
    }
    let mut s = String::new();
    go(e, &mut s);
    s
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;
    use crate::ast::{Constraint, Text};
    use crate::diag::SourceFile;

    fn labels(names: &str) -> Vec<Label> {
        names
            .chars()
            .enumerate()
            .map(|(k, name)| Label {
                name,
                di: k as i32,
                dj: 0,
            })
            .collect()
    }

    /// A constraint whose `;` lines are `lines`, placed in a small file.
    fn file(lines: &[&str]) -> (SourceFile, Constraint) {
        let mut text = String::from("Pattern T\n\n");
        let mut expr = String::new();
        let mut pieces = Vec::new();
        let start = text.len();
        for l in lines {
            if !expr.is_empty() {
                expr.push('\n');
            }
            pieces.push((
                expr.len(),
                Span::new(text.len() + 1, text.len() + 1 + l.len()),
            ));
            expr.push_str(l);
            text.push(';');
            text.push_str(l);
            text.push('\n');
        }
        let c = Constraint {
            diagram: Default::default(),
            expr: Text {
                text: expr,
                span: Span::new(start, text.len() - 1),
            },
            pieces,
        };
        (SourceFile::new("t.db", text), c)
    }

    fn check(lines: &[&str], names: &str) -> (Option<Expr>, Vec<String>) {
        let (f, c) = file(lines);
        let mut d = Vec::new();
        let e = check_expr(&c, &labels(names), &mut d);
        (e, d.iter().map(|d| f.render(d)).collect())
    }

    fn ok(text: &str, names: &str) -> Expr {
        let (e, d) = check(&[text], names);
        assert!(d.is_empty(), "{}", d.join(""));
        e.unwrap()
    }

    #[test]
    fn precedence_follows_c() {
        let e = ok("lib(a)>2 && lib(b)+1*2<=3 || !dead(A)==1", "abA");
        assert_eq!(display(&e), "lib(a)>2 && lib(b)+1*2<=3 || !dead(A)==1");
        match e {
            Expr::Binary(BinOp::Or, l, r) => {
                assert!(matches!(*l, Expr::Binary(BinOp::And, _, _)));
                assert!(matches!(*r, Expr::Binary(BinOp::Eq, _, _)));
            }
            other => panic!("{other:?}"),
        }
        let e = ok("(lib(a)+1)*2", "a");
        assert_eq!(display(&e), "(lib(a)+1)*2");
    }

    #[test]
    fn star_is_the_move_in_operand_position_and_a_product_after_one() {
        let e = ok("xplay_attack(*,a,a) || lib(a)*2>lib(*)", "a");
        assert_eq!(display(&e), "xplay_attack(*,a,a) || lib(a)*2>lib(*)");
        let Expr::Binary(BinOp::Or, l, r) = e else {
            panic!()
        };
        assert_eq!(
            *l,
            Expr::Call(
                Func::XplayAttack,
                vec![Expr::Move, Expr::Label('a'), Expr::Label('a')]
            )
        );
        let Expr::Binary(BinOp::Gt, m, _) = *r else {
            panic!()
        };
        assert!(matches!(*m, Expr::Binary(BinOp::Mul, _, _)));
    }

    #[test]
    fn whole_identifiers_lines_constants_and_a_trailing_semicolon() {
        let e = ok("lib2(a)>1", "a");
        assert_eq!(
            e,
            Expr::Binary(
                BinOp::Gt,
                Box::new(Expr::Call(Func::Lib2, vec![Expr::Label('a')])),
                Box::new(Expr::Int(1))
            )
        );
        let (e, d) = check(
            &[
                "omoyo(f) || (oplay_attack(a,b,c,d,b) && ",
                "  (lib(a) > 1)) ;",
            ],
            "abcdf",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            display(&e.unwrap()),
            "omoyo(f) || oplay_attack(a,b,c,d,b) && lib(a)>1"
        );
        assert_eq!(ok("status(a)==DEAD", "a"), ok("status(a)==0", "a"));
        assert_eq!(ok("-1 < -lib(a)", "a").labels(), vec!['a']);
    }

    #[test]
    fn unknown_function_is_located_with_a_suggestion() {
        let (e, d) = check(&["lib(a)>1 &&", " atack(b)"], "ab");
        assert!(e.is_none());
        assert_eq!(
            d.join(""),
            "t.db:4:3: error: unknown function `atack`\n  |\n4 | ; atack(b)\n  |   ^^^^^\n  = note: did you mean `attack`?\n"
        );
    }

    #[test]
    fn every_type_error_is_reported() {
        let (e, d) = check(
            &["lib(a,b) + lib(q) + dead(3) + a + liberties(a) + DEDA"],
            "ab",
        );
        assert!(e.is_none());
        let all = d.join("");
        assert_eq!(d.len(), 6, "{all}");
        assert!(
            all.contains("error: `lib` takes 1 argument, given 2"),
            "{all}"
        );
        assert!(
            all.contains("error: unknown label `q`\n  |\n3 | ;lib(a,b) + lib(q)"),
            "{all}"
        );
        assert!(
            all.contains("error: an argument of `dead` must be a point"),
            "{all}"
        );
        assert!(
            all.contains("error: label `a` is a point, not a number"),
            "{all}"
        );
        assert!(all.contains("error: unknown function `liberties`"), "{all}");
        assert!(all.contains("error: unknown name `DEDA`"), "{all}");
        assert!(all.contains("did you mean `DEAD`?"), "{all}");
    }

    #[test]
    fn arity_of_sequences() {
        assert!(!ok("oplay_attack(a,b)", "ab").is_point());
        let (_, d) = check(&["oplay_attack(a)"], "a");
        assert!(
            d[0].contains("`oplay_attack` takes 2 to 9 arguments, given 1"),
            "{}",
            d[0]
        );
        let (_, d) = check(&["xplay_defend(a,a,a,a,a,a,a,a,a,a)"], "a");
        assert!(d[0].contains("given 10"), "{}", d[0]);
    }

    #[test]
    fn syntax_errors_are_located() {
        let (e, d) = check(&["lib(a)>2 &", "& lib(b)"], "ab");
        // `& &` across lines is two single `&`: an error at the first.
        assert!(e.is_none());
        assert_eq!(
            d.join(""),
            "t.db:3:11: error: constraint syntax: a single `&`: the logical and is `&&`\n  |\n3 | ;lib(a)>2 &\n  |           ^\n  = note: a constraint is a C expression: numbers, labels, `*`, `+ - *`, comparisons, `&& || !`, calls\n"
        );
        let (_, d) = check(&["(lib(a)>2"], "a");
        assert!(
            d[0].contains("expected `)` or an operator, found the end of the expression"),
            "{}",
            d[0]
        );
        let (_, d) = check(&["lib(a) >"], "a");
        assert!(
            d[0].contains("expected an operand, found the end"),
            "{}",
            d[0]
        );
        let (_, d) = check(&["lib(a b)"], "ab");
        assert!(
            d[0].contains("expected `,` or `)` in the arguments of `lib`, found `b`"),
            "{}",
            d[0]
        );
        let (_, d) = check(&[" ;"], "");
        assert!(d[0].contains("an empty constraint expression"), "{}", d[0]);
        let (_, d) = check(&["2x"], "");
        assert!(d[0].contains("a number runs into `x`"), "{}", d[0]);
    }

    /// Runs `f` on a thread with a 2 MiB stack, the default of spawned
    /// threads (tests run in a debug build: frames are at their largest).
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .expect("spawn")
            .join()
            .expect("no stack overflow")
    }

    #[test]
    fn hostile_expressions_are_refused_at_a_bound_not_by_a_stack_overflow() {
        let cases: Vec<(String, &str)> = vec![
            (
                vec!["lib(a)>1"; 10_000].join("&&"),
                "operators nest more than 100 levels",
            ),
            (
                vec!["1"; 10_000].join("+"),
                "operators nest more than 100 levels",
            ),
            (
                format!("{}1{}", "(".repeat(5_000), ")".repeat(5_000)),
                "nested too deeply",
            ),
            (
                format!("{}a{}", "lib(".repeat(5_000), ")".repeat(5_000)),
                "nested too deeply",
            ),
            (format!("{}lib(a)", "!".repeat(10_000)), "nested too deeply"),
            (format!("{}1", "-".repeat(10_000)), "nested too deeply"),
        ];
        for (text, want) in cases {
            let (e, d) = on_small_stack(move || check(&[&text], "a"));
            assert!(e.is_none());
            assert_eq!(d.len(), 1, "{d:?}");
            assert!(d[0].contains(want), "{}", &d[0][..300]);
            assert!(d[0].starts_with("t.db:3:"), "located: {}", &d[0][..100]);
        }
    }

    #[test]
    fn the_deepest_accepted_expression_is_safe_for_every_consumer() {
        // The tallest tree, and the deepest nesting of parentheses, prefix
        // operators and a call: both accepted, and checked, displayed and
        // walked on a 2 MiB stack.
        // A call over its points is two levels: MAX_DEPTH - 1 calls in a
        // chain make a tree of height MAX_DEPTH.
        let chain = vec!["lib(a)"; MAX_DEPTH - 1].join("+");
        let nested = format!(
            "{}{}lib(a){}",
            "(".repeat(MAX_NESTING - 3),
            "!-",
            ")".repeat(MAX_NESTING - 3)
        );
        for text in [chain, nested] {
            let shown = on_small_stack(move || {
                let e = ok(&text, "a");
                assert_eq!(e.labels(), vec!['a']);
                display(&e)
            });
            assert!(
                shown.starts_with("lib(a)+lib(a)") || shown.starts_with("!-"),
                "{shown}"
            );
        }
        let one_more = vec!["lib(a)"; MAX_DEPTH].join("+");
        assert!(check(&[&one_more], "a").0.is_none());
        let one_more = format!(
            "{}1{}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert!(check(&[&one_more], "a").0.is_none());
    }

    #[test]
    fn c_semantics_of_operators() {
        assert_eq!(BinOp::Lt.apply(1, 2), 1);
        assert_eq!(BinOp::Ge.apply(1, 2), 0);
        assert_eq!(BinOp::And.apply(3, -1), 1);
        assert_eq!(BinOp::Or.apply(0, 0), 0);
        assert_eq!(BinOp::Mul.apply(i32::MAX, 2), -2);
    }
}
