//! The constraint and action language of GNU Go 3.x databases.
//!
//! A 3.x pattern may end with `;` lines, a C expression over the labels of
//! its constraint diagram (`lib(A)<=4 && oplay_attack(*,b,A)`), and `>`
//! lines, C statements run when the pattern is accepted (`antisuji(a);`,
//! `if (!false_eye_territory(a)) non_oterritory(a);`, `return
//! (!xplay_attack(a,b));`). GNU Go's mkpat pasted both into C; katachi
//! parses them ([`parse_expr`], [`parse_actions`]: nom) and checks them ([`check()`]) against
//! [`FUNCTIONS`], GNU Go 3.8's function table with each function's
//! arguments, so that every mistake is a located diagnostic with a
//! did-you-mean.
//!
//! Grammar (C precedence, lowest first):
//!
//! ```text
//! actions := stmt*
//! stmt    := "if" "(" expr ")" stmt ("else" stmt)? | "return" expr? ";"
//!          | "{" stmt* "}" | expr ";"
//! expr    := or ("?" expr ":" expr)?
//! or      := and ("||" and)*          and := eq ("&&" eq)*
//! eq      := rel (("==" | "!=") rel)* rel := add (("<=" | ">=" | "<" | ">") add)*
//! add     := mul (("+" | "-") mul)*   mul := unary (("*" | "/") unary)*
//! unary   := ("!" | "-") unary | primary
//! primary := NUMBER | "*" | "?" | LABEL | NAME | NAME "(" (expr ("," expr)*)? ")" | "(" expr ")"
//! ```
//!
//! The last statement's `;` may be left out (GNU Go adds one). `*` in
//! operand position is the move point, `?` (only as a move of a
//! `play` sequence) a pass; numbers may have decimals (`weakness(a)<0.7`);
//! a one-letter identifier is a label, an upper-case name a constant
//! (`WIN`).
//!
//! katachi's Go engine evaluates GNU Go 2.6's functions
//! ([`crate::constraint::Func`]); a 3.x function of the same name is
//! [`FuncDef::evaluable`], any other is reported as a warning (and listed
//! by `mkpat stats`): the pattern matches, its constraint cannot be
//! decided by katachi.
//!
//! Evaluation reuses the 2.6 machinery instead of a second interpreter
//! and code generator: a checked 3.x condition whose every part katachi
//! can evaluate is *lowered* ([`lower`]) into 2.6's checked form
//! ([`crate::constraint::CheckedConstraint`]), which `codegen` compiles
//! to a Rust function and `katachi::go::constraint::evaluate` interprets.
//! A `>` line that is one `return E;` is lowered the same way (the
//! action's verdict, as GNU Go's influence and barrier code reads it). The
//! lowering keeps 3.x's meaning where the two languages differ: a reading
//! function (`attack`, `oplay_defend`, …) returns a result code in 3.x
//! (`WIN`, `KO_A`, …, `0`), so its truth value from katachi's engine
//! becomes `WIN` or 0 (`(f(..)!=0)*5`; katachi's reading knows no ko
//! results). What katachi cannot decide — a function outside its engine,
//! a pass `?` in a play sequence, `?:`, `/`, a fraction, a constraint
//! diagram that does not line up — leaves the condition or action
//! undecided, with the reasons ([`Lowered::undecided`]).

#[cfg(feature = "compiler")]
mod check;
#[cfg(feature = "compiler")]
mod lower;
#[cfg(feature = "compiler")]
mod parse;

#[cfg(feature = "compiler")]
pub use check::{check, Checked};
#[cfg(feature = "compiler")]
pub use lower::lower;
#[cfg(feature = "compiler")]
pub use parse::{parse_actions, parse_expr};

use crate::diag::Span;

/// How a function takes its arguments.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Args {
    /// Exactly this many points.
    Exactly(usize),
    /// A sequence of moves (points, `?` for a pass; possibly none), then
    /// this many target points: `oplay_attack(*,b,A)`.
    Sequence(usize),
    /// One or more points: `o_somewhere(a,b,c)`.
    AnyPoints,
}

impl Args {
    /// Does `n` arguments fit?
    pub const fn accepts(self, n: usize) -> bool {
        match self {
            Args::Exactly(k) => n == k,
            Args::Sequence(t) => n >= t,
            Args::AnyPoints => n >= 1,
        }
    }

    /// In words, for messages.
    pub fn describe(self) -> String {
        match self {
            Args::Exactly(0) => "no argument".into(),
            Args::Exactly(1) => "1 point".into(),
            Args::Exactly(k) => format!("{k} points"),
            Args::Sequence(1) => "moves, then 1 target point".into(),
            Args::Sequence(t) => format!("moves, then {t} target points"),
            Args::AnyPoints => "one or more points".into(),
        }
    }
}

/// A function of GNU Go 3.8's table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FuncDef {
    pub name: &'static str,
    pub args: Args,
}

impl FuncDef {
    /// Can katachi's Go engine evaluate it (a GNU Go 2.6 function of the
    /// same name)?
    pub fn evaluable(&self) -> bool {
        crate::constraint::Func::from_name(self.name).is_some()
    }
}

macro_rules! table {
    ($($name:ident $args:expr;)*) => {
        /// GNU Go 3.8's constraint and action functions, with their
        /// arguments (the facts of its `mkpat` table).
        pub const FUNCTIONS: &[FuncDef] = &[$(FuncDef { name: stringify!($name), args: $args }),*];
    };
}

use Args::{AnyPoints, Exactly as E, Sequence as S};

table! {
    lib E(1); lib2 E(1); lib3 E(1); lib4 E(1);
    alive E(1); unknown E(1); critical E(1); dead E(1); status E(1); ko E(1);
    xdefend_against E(2); odefend_against E(2); defend_against_atari E(1);
    does_defend E(2); does_attack E(2); attack E(1); defend E(1);
    weakness E(1); weak E(1); safe_xmove E(1); safe_omove E(1);
    legal_xmove E(1); legal_omove E(1); x_suicide E(1); o_suicide E(1);
    x_alive_somewhere AnyPoints; o_alive_somewhere AnyPoints;
    x_somewhere AnyPoints; o_somewhere AnyPoints;
    xmoyo_opposite E(1); omoyo_opposite E(1); xmoyo E(1); omoyo E(1);
    xarea E(1); oarea E(1); xterri E(1); oterri E(1); genus E(1);
    approx_xlib E(1); approx_olib E(1); xlib E(1); olib E(1); xcut E(1); ocut E(1);
    edge_double_sente E(4);
    xplay_defend_both S(2); oplay_defend_both S(2);
    xplay_attack_either S(2); oplay_attack_either S(2);
    xplay_defend S(1); oplay_defend S(1); xplay_attack S(1); oplay_attack S(1);
    xplay_break_through S(3); oplay_break_through S(3);
    oplay_connect S(2); xplay_connect S(2); oplay_disconnect S(2); xplay_disconnect S(2);
    oplay_lib S(1); xplay_lib S(1);
    seki_helper E(1); threaten_to_save E(1); threaten_to_capture E(1);
    prevent_attack_threat E(1);
    eye E(1); proper_eye E(1); marginal_eye E(1); halfeye E(1); max_eye_value E(1);
    owl_topological_eye E(2); obvious_false_oeye E(1); obvious_false_xeye E(1);
    antisuji E(1); add_connect_move E(2); add_cut_move E(2);
    test_attack_either_move E(2); add_defend_both_move E(2);
    same_dragon E(2); same_string E(2); dragonsize E(1); wormsize E(1);
    effective_size E(1); vital_chain E(1); potential_cutstone E(1);
    amalgamate_most_valuable_helper E(3); amalgamate E(2);
    owl_escape_value E(1); owl_goal_dragon E(1); owl_eyespace E(1);
    owl_big_eyespace E(1); owl_mineye E(1); owl_maxeye E(1); owl_proper_eye E(1);
    owl_eye_size E(1); owl_lunch E(1); owl_strong_dragon E(1); has_aji E(1);
    finish_ko_helper E(1); squeeze_ko_helper E(1); backfill_helper E(3);
    connect_and_cut_helper2 E(3); connect_and_cut_helper E(3);
    owl_threatens E(2); replace E(2); backfill_replace E(2);
    non_oterritory E(1); non_xterritory E(1);
    remaining_handicap_stones E(0); total_handicap_stones E(0);
    o_captures_something E(1); x_captures_something E(1);
    false_eye_territory E(1); false_eye E(1);
    o_visible_along_edge E(2); x_visible_along_edge E(2);
    is_surrounded E(1); does_surround E(2); surround_map E(2); oracle_threatens E(2);
    value E(0); adjacent_to_stone_in_atari E(1);
    adjacent_to_defendable_stone_in_atari E(1); good_attack_threat E(2);
    known_safe_move E(1); break_mirror_helper E(1);
}

/// What katachi makes of a 3.x pattern's `;` and `>` lines: the parts it
/// can evaluate in 2.6's checked form, and why the others are undecided.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Lowered {
    /// The `;` condition, when katachi can decide it.
    pub condition: Option<crate::constraint::CheckedConstraint>,
    /// The value of a `>` line that is one `return E;`, when katachi can
    /// decide it.
    pub action: Option<crate::constraint::CheckedConstraint>,
    /// Why a condition or action the pattern has is not decided (function
    /// names, or the construct), each once, in order of first use; empty
    /// when every part the pattern has is decided.
    pub undecided: Vec<&'static str>,
}

/// The reasons [`Lowered::undecided`] gives beside function names.
pub mod reasons {
    pub const PASS: &str = "`?` (a pass) in a play sequence";
    pub const CONDITIONAL: &str = "`?:`";
    pub const DIVISION: &str = "`/`";
    pub const FRACTION: &str = "a fraction";
    pub const LONG_SEQUENCE: &str = "a play sequence of more than 9 points";
    pub const STATEMENTS: &str = "statements other than one `return`";
    pub const DIAGRAM: &str = "a constraint diagram that does not line up";
    /// A name outside GNU Go 3.8's table (read leniently: one of its C
    /// globals or functions).
    pub const UNKNOWN: &str = "a name outside GNU Go 3.8's table";
}

/// The value a successful reading function has in 3.x (`WIN`).
pub const WIN: i32 = 5;

/// Does the 3.x function return a reading result code (`WIN`, `KO_A`,
/// …, 0) where katachi's engine returns a truth value?
pub fn returns_code(name: &str) -> bool {
    matches!(
        name,
        "attack"
            | "defend"
            | "does_attack"
            | "does_defend"
            | "xplay_attack"
            | "oplay_attack"
            | "xplay_defend"
            | "oplay_defend"
    )
}

/// The function `name`, if GNU Go 3.8 has it.
pub fn function(name: &str) -> Option<&'static FuncDef> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The named constants of GNU Go's reading results and dragon statuses.
pub const CONSTANTS: [(&str, i32); 9] = [
    ("WIN", 5),
    ("KO_A", 4),
    ("GAIN", 3),
    ("LOSS", 2),
    ("KO_B", 1),
    ("DEAD", 0),
    ("ALIVE", 1),
    ("CRITICAL", 2),
    ("UNKNOWN", 3),
];

/// An operator of the language.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Mul,
    Div,
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
    Not,
    Neg,
}

impl Op {
    pub const fn as_str(self) -> &'static str {
        match self {
            Op::Mul => "*",
            Op::Div => "/",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::And => "&&",
            Op::Or => "||",
            Op::Not => "!",
            Op::Neg => "-",
        }
    }
}

/// An expression as parsed, with its place in the text (byte offsets
/// into the joined `;` or `>` text).
#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub at: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// A number in thousandths (`0.7` is 700).
    Num(i64),
    /// `*`: the move.
    Move,
    /// `?`: a pass, in a `play` sequence.
    Pass,
    Label(char),
    /// A longer name not called: a constant, or a mistake.
    Name(String),
    /// A call: the name, its span, the arguments.
    Call(String, Span, Vec<Expr>),
    Unary(Op, Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// A statement of the `>` lines.
#[derive(Clone, PartialEq, Debug)]
pub enum Stmt {
    Expr(Expr),
    Return(Option<Expr>, Span),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    Block(Vec<Stmt>),
}

impl Expr {
    /// Every sub-expression, this one first.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Call(_, _, args) => args.iter().for_each(|a| a.walk(f)),
            ExprKind::Unary(_, a) => a.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Cond(c, a, b) => {
                c.walk(f);
                a.walk(f);
                b.walk(f);
            }
            _ => {}
        }
    }
}

impl Stmt {
    /// Every expression of the statement, in order.
    pub fn exprs<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            Stmt::Expr(e) => f(e),
            Stmt::Return(e, _) => {
                if let Some(e) = e {
                    f(e)
                }
            }
            Stmt::If(c, a, b) => {
                f(c);
                a.exprs(f);
                if let Some(b) = b {
                    b.exprs(f);
                }
            }
            Stmt::Block(s) => s.iter().for_each(|s| s.exprs(f)),
        }
    }
}

/// The deepest nesting of parentheses, calls and prefix operators the
/// parser accepts (GNU Go 3.8's deepest is under 10).
pub const MAX_NESTING: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_gnu_go_38_s_126_functions_once_each() {
        assert_eq!(FUNCTIONS.len(), 126);
        for (k, f) in FUNCTIONS.iter().enumerate() {
            assert!(
                FUNCTIONS[k + 1..].iter().all(|g| g.name != f.name),
                "{}",
                f.name
            );
        }
    }

    #[test]
    fn arities_accept_what_gnu_go_s_do() {
        let f = |n| function(n).unwrap().args;
        assert!(f("oplay_attack").accepts(2));
        assert!(f("oplay_attack").accepts(5));
        assert!(!f("oplay_attack").accepts(0));
        assert!(f("oplay_defend_both").accepts(3));
        assert!(f("oplay_defend_both").accepts(2));
        assert!(!f("oplay_defend_both").accepts(1));
        assert!(f("o_somewhere").accepts(1));
        assert!(!f("o_somewhere").accepts(0));
        assert!(f("lib").accepts(1) && !f("lib").accepts(2));
        assert!(f("total_handicap_stones").accepts(0));
    }

    #[test]
    fn the_2_6_functions_are_the_evaluable_ones() {
        assert!(function("lib").unwrap().evaluable());
        assert!(function("oplay_attack").unwrap().evaluable());
        assert!(!function("owl_escape_value").unwrap().evaluable());
    }
}
