//! Pattern constraints at run time: the engine trait, the match context,
//! and an interpreter of checked constraint expressions.
//!
//! A GNU Go 2.6 pattern may carry a `;` constraint (`lib(a)>2 &&
//! !attack(B)`) that an engine must confirm before the match counts. Its
//! functions are questions only a Go engine can answer (liberties,
//! dragons, tactical reading), so katachi asks them through
//! [`ConstraintEngine`], one method per function of the language
//! (`mkpat::constraint::Func`). A constraint reaches the engine in one of
//! two equivalent forms:
//!
//! - compiled: `mkpat` generates one Rust function per constrained pattern
//!   (a [`ConstraintFn`], listed in the generated `CONSTRAINTS` table), for
//!   databases compiled at build time;
//! - interpreted: [`evaluate`] walks the checked expression that
//!   `mkpat::compile` keeps in `Database::constraints`, for databases
//!   loaded at run time.
//!
//! Both have C's meaning: `i32` arithmetic (wrapping), comparisons and
//! `! && ||` give 0 or 1, `&&` and `||` short-circuit, and operands and
//! arguments are evaluated left to right, so an engine sees the same calls
//! in the same order from either form.

use mkpat::constraint::{BinOp, CheckedConstraint, Expr, Func, UnOp};

use crate::position::Point;

/// The values `status` returns (`mkpat::constraint::CONSTANTS`).
pub mod status {
    pub const DEAD: i32 = 0;
    pub const ALIVE: i32 = 1;
    pub const CRITICAL: i32 = 2;
    pub const UNKNOWN: i32 = 3;
}

/// Declares one engine method: its signature follows the function's
/// shape in `mkpat::constraint_functions!`.
macro_rules! engine_method {
    (one $name:ident $doc:literal) => {
        #[doc = $doc]
        fn $name(&mut self, p: Point) -> i32;
    };
    (two $name:ident $doc:literal) => {
        #[doc = $doc]
        fn $name(&mut self, p: Point, q: Point) -> i32;
    };
    (sequence $name:ident $doc:literal) => {
        #[doc = $doc]
        fn $name(&mut self, moves: &[Point], target: Point) -> i32;
    };
}

/// Calls one engine method with checked arguments of its shape.
macro_rules! engine_call {
    (one $engine:ident $name:ident $pts:ident) => {
        $engine.$name($pts[0])
    };
    (two $engine:ident $name:ident $pts:ident) => {
        $engine.$name($pts[0], $pts[1])
    };
    (sequence $engine:ident $name:ident $pts:ident) => {
        match $pts.split_last() {
            Some((target, moves)) => $engine.$name(moves, *target),
            None => unreachable!("checked: every function takes an argument"),
        }
    };
}

/// The engine trait and the interpreter's dispatch, both from the one
/// list of functions (`mkpat::constraint_functions!`).
macro_rules! engine {
    ($($variant:ident $name:ident $min:literal $max:literal $shape:ident $doc:literal;)*) => {
        /// The questions a constraint may ask, one method per function of
        /// the constraint language, under the same name. Points are board
        /// points; "O" is the side the pattern was matched for, "X" its
        /// opponent. Results are integers, truth values 0 or 1 (any
        /// non-zero value counts as true). `status` returns one of
        /// [`status`]'s values.
        pub trait ConstraintEngine {
            $(engine_method!($shape $name $doc);)*
        }

        /// Calls the engine method of `f` with checked arguments.
        fn call(f: Func, pts: &[Point], engine: &mut dyn ConstraintEngine) -> i32 {
            match f {
                $(Func::$variant => engine_call!($shape engine $name pts),)*
            }
        }
    };
}

mkpat::constraint_functions!(engine);

/// Where a pattern matched: enough to place its labels on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ConstraintContext {
    /// The board point under the pattern's anchor (its first `O` or `X`).
    pub anchor: Point,
    /// The transformation it matched in (GNU Go 2.6 numbering).
    pub trans: u8,
    /// The board point under the pattern's `*`.
    pub move_point: Point,
}

impl ConstraintContext {
    /// The context of a match given its anchor, transformation and the
    /// pattern's untransformed move offset from the anchor.
    pub fn new(anchor: Point, trans: u8, move_di: i32, move_dj: i32) -> ConstraintContext {
        let mut ctx = ConstraintContext {
            anchor,
            trans,
            move_point: anchor,
        };
        ctx.move_point = ctx.point(move_di, move_dj);
        ctx
    }

    /// The board point at `(di, dj)` from the anchor in the untransformed
    /// diagram.
    #[inline]
    pub fn point(&self, di: i32, dj: i32) -> Point {
        self.anchor.offset(self.trans, di, dj)
    }
}

/// A compiled constraint: true when the match is accepted.
pub type ConstraintFn = fn(&ConstraintContext, &mut dyn ConstraintEngine) -> bool;

/// Evaluates a checked constraint: is the match accepted?
pub fn evaluate(
    c: &CheckedConstraint,
    ctx: &ConstraintContext,
    engine: &mut dyn ConstraintEngine,
) -> bool {
    value(c, &c.expr, ctx, engine) != 0
}

/// The integer value of an expression of `c` (C semantics).
pub fn value(
    c: &CheckedConstraint,
    e: &Expr,
    ctx: &ConstraintContext,
    engine: &mut dyn ConstraintEngine,
) -> i32 {
    match e {
        Expr::Int(v) => *v,
        Expr::Move | Expr::Label(_) => unreachable!("checked: a point is only an argument"),
        Expr::Call(f, args) => {
            let mut buf = [ctx.move_point; 9];
            for (slot, a) in buf.iter_mut().zip(args) {
                *slot = point(c, a, ctx);
            }
            call(*f, &buf[..args.len().min(9)], engine)
        }
        Expr::Unary(UnOp::Not, x) => i32::from(value(c, x, ctx, engine) == 0),
        Expr::Unary(UnOp::Neg, x) => value(c, x, ctx, engine).wrapping_neg(),
        Expr::Binary(BinOp::And, x, y) => {
            i32::from(value(c, x, ctx, engine) != 0 && value(c, y, ctx, engine) != 0)
        }
        Expr::Binary(BinOp::Or, x, y) => {
            i32::from(value(c, x, ctx, engine) != 0 || value(c, y, ctx, engine) != 0)
        }
        Expr::Binary(op, x, y) => {
            let a = value(c, x, ctx, engine);
            let b = value(c, y, ctx, engine);
            op.apply(a, b)
        }
    }
}

fn point(c: &CheckedConstraint, e: &Expr, ctx: &ConstraintContext) -> Point {
    match e {
        Expr::Label(name) => {
            let l = c
                .label(*name)
                .expect("checked: every label is in the diagram");
            ctx.point(l.di, l.dj)
        }
        Expr::Move => ctx.move_point,
        _ => unreachable!("checked: arguments are points"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers `lib` from a table and every other function with 1,
    /// recording the calls.
    #[derive(Default)]
    struct Fixed {
        libs: Vec<(Point, i32)>,
        calls: Vec<String>,
    }

    macro_rules! one {
        ($($name:ident)*) => {
            $(fn $name(&mut self, p: Point) -> i32 {
                self.calls.push(format!("{}({},{})", stringify!($name), p.i, p.j));
                1
            })*
        };
    }

    impl ConstraintEngine for Fixed {
        fn lib(&mut self, p: Point) -> i32 {
            self.calls.push(format!("lib({},{})", p.i, p.j));
            self.libs
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(0, |(_, n)| *n)
        }
        one!(lib2 lib3 lib4 xlib olib ko status alive unknown critical dead genus weak cutstone attack defend
            safe_xmove safe_omove xcut ocut xarea oarea xmoyo omoyo xterri oterri diff_moyo area_stone area_space
            eye proper_eye marginal_eye seki_helper);
        fn does_attack(&mut self, _: Point, _: Point) -> i32 {
            1
        }
        fn does_defend(&mut self, _: Point, _: Point) -> i32 {
            1
        }
        fn xdefend_against(&mut self, _: Point, _: Point) -> i32 {
            1
        }
        fn odefend_against(&mut self, _: Point, _: Point) -> i32 {
            1
        }
        fn xplay_attack(&mut self, m: &[Point], t: Point) -> i32 {
            self.calls
                .push(format!("xplay_attack({} moves, {},{})", m.len(), t.i, t.j));
            0
        }
        fn oplay_attack(&mut self, _: &[Point], _: Point) -> i32 {
            0
        }
        fn xplay_defend(&mut self, _: &[Point], _: Point) -> i32 {
            0
        }
        fn oplay_defend(&mut self, _: &[Point], _: Point) -> i32 {
            0
        }
    }

    fn constraint(expr: &str) -> CheckedConstraint {
        let src =
            format!("Pattern A1\n\n?X.\nO*.\n\n:8,50,0,O,0,0,0,0,0,NULL\n\n?A.\nO*b\n\n;{expr}\n");
        let c = mkpat::compile("t.db", src.as_bytes(), &mkpat::Options::default());
        assert!(c.is_ok(), "{}", c.render());
        c.database.unwrap().constraints[0].clone().unwrap()
    }

    #[test]
    fn labels_follow_the_transformation() {
        // Anchor `X` at (5,5); rotated 90° clockwise, (1,1) goes to (1,-1).
        let ctx = ConstraintContext::new(Point::new(5, 5), 1, 1, 0);
        assert_eq!(ctx.move_point, Point::new(5, 4));
        let c = constraint("lib(A)>1 && xplay_attack(*,b,b)");
        let mut e = Fixed {
            libs: vec![(Point::new(5, 5), 2)],
            ..Fixed::default()
        };
        assert!(!evaluate(&c, &ctx, &mut e));
        assert_eq!(e.calls, ["lib(5,5)", "xplay_attack(2 moves, 6,4)"]);
    }

    #[test]
    fn c_semantics_and_short_circuits() {
        let ctx = ConstraintContext::new(Point::new(0, 0), 0, 1, 0);
        let mut e = Fixed::default();
        // lib(A) is 0: `&&` stops, `||` goes on.
        assert!(!evaluate(&constraint("lib(A) && attack(b)"), &ctx, &mut e));
        assert_eq!(e.calls, ["lib(0,0)"]);
        assert!(evaluate(&constraint("lib(A) || attack(b)"), &ctx, &mut e));
        let c = constraint("(lib(A)<1) + (lib(A)==0)*2 - !lib(A) == 2 && -lib(A)-1 == -1");
        assert_eq!(value(&c, &c.expr, &ctx, &mut e), 1);
    }
}
