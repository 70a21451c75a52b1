//! GNU Go 2.6 constraints end to end: the database compiles with the
//! constraint diagnostics it should have, and the generated constraint
//! functions (`katachi::go::gnugo26::CONSTRAINTS`) agree with the interpreter
//! (`katachi::go::constraint::evaluate`) on random positions, transformations
//! and anchors — same answer, same engine calls in the same order.
#![cfg(feature = "gnugo26")]

use std::collections::HashSet;
use std::sync::OnceLock;

use katachi::board::Board;
use katachi::go::constraint::{evaluate, ConstraintContext};
use katachi::go::gnugo26;
use katachi::mkpat::{self, check, Compiled};
use katachi::{Color, Point};
use proptest::prelude::*;

#[path = "support/mock_engine.rs"]
mod mock_engine;
use mock_engine::{board_of, Mock};

const DB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/conformance/gnugo-2.6/patterns.db"
);

fn compile(lenient: bool) -> Compiled {
    let bytes = std::fs::read(DB).expect("the GNU Go 2.6 database");
    mkpat::compile(
        "patterns.db",
        &bytes,
        &mkpat::Options {
            lenient,
            ..mkpat::Options::default()
        },
    )
}

fn lenient() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| compile(true))
}

fn count(c: &Compiled, msg: &str) -> usize {
    c.diagnostics.iter().filter(|d| d.message == msg).count()
}

#[test]
fn the_database_compiles_leniently_with_its_misaligned_constraint_diagrams_reported() {
    assert!(std::path::Path::new(DB).exists());
    assert_eq!(gnugo26::AVAILABLE, std::path::Path::new(DB).exists());
    let c = lenient();
    assert_eq!(c.error_count(), 0, "{}", c.render());
    let db = c.database.as_ref().expect("no error");
    assert_eq!(db.patterns.len(), 1153);
    assert_eq!(db.constraints.iter().filter(|k| k.is_some()).count(), 284);
    // 26 constraint diagrams do not line up: 9 have another shape (rows
    // missing or added, a row narrower or wider), 7 put labels on `?`
    // cells, 11 have unlabelled cells that differ; one (CC29) does both of
    // the last two.
    let kinds = [
        (check::MSG_CONSTRAINT_SHAPE, 9),
        (check::MSG_CONSTRAINT_LABEL_ON_ANY, 7),
        (check::MSG_CONSTRAINT_CELL, 11),
    ];
    let mut lines = HashSet::new();
    for (msg, n) in kinds {
        assert_eq!(count(c, msg), n, "{msg}");
        for d in c.diagnostics.iter().filter(|d| d.message == msg) {
            assert!(!d.is_error());
            let line = c.source.line_col(d.span.start).0;
            let pattern = c
                .checked
                .iter()
                .filter(|p| p.line as usize <= line)
                .max_by_key(|p| p.line)
                .expect("a pattern above");
            lines.insert(pattern.name.clone());
        }
    }
    assert_eq!(lines.len(), 26, "{lines:?}");
    assert!(lines.contains("CC29"));
}

#[test]
fn strictly_shape_and_label_misalignments_are_errors() {
    let c = compile(false);
    assert!(!c.is_ok());
    let errors = |msg: &str| {
        c.diagnostics
            .iter()
            .filter(|d| d.message == msg && d.is_error())
            .count()
    };
    assert_eq!(errors(check::MSG_CONSTRAINT_SHAPE), 9);
    assert_eq!(errors(check::MSG_CONSTRAINT_LABEL_ON_ANY), 7);
    assert_eq!(count(&c, check::MSG_CONSTRAINT_CELL), 11);
    assert_eq!(errors(check::MSG_CONSTRAINT_CELL), 0);
}

#[test]
fn the_generated_tables_carry_the_constraints_in_pattern_order() {
    let db = lenient().database.as_ref().expect("no error");
    assert_eq!(gnugo26::PATTERNS.len(), db.patterns.len());
    assert_eq!(gnugo26::CONSTRAINTS.len(), db.patterns.len());
    for (k, p) in gnugo26::PATTERNS.iter().enumerate() {
        assert_eq!(p.name, db.patterns[k].name);
        assert_eq!(p.constraint, db.patterns[k].constraint);
        assert_eq!(
            p.constraint.is_some(),
            gnugo26::CONSTRAINTS[k].is_some(),
            "{}",
            p.name
        );
        assert_eq!(
            db.constraints[k].as_ref().map(|c| c.text.as_str()),
            p.constraint.as_deref()
        );
    }
}

fn constrained() -> &'static [usize] {
    static C: OnceLock<Vec<usize>> = OnceLock::new();
    C.get_or_init(|| {
        (0..gnugo26::PATTERNS.len())
            .filter(|&k| gnugo26::CONSTRAINTS[k].is_some())
            .collect()
    })
}

fn board() -> impl Strategy<Value = Board> {
    (9usize..=19, 0u32..=90).prop_flat_map(|(size, density)| {
        proptest::collection::vec(0u32..100, size * size).prop_map(move |cells| {
            board_of(
                size,
                cells.into_iter().map(|r| match r {
                    r if r >= density => None,
                    r if r % 2 == 0 => Some(Color::Black),
                    _ => Some(Color::White),
                }),
            )
        })
    })
}

/// Every constrained pattern once, on one board: the two paths agree, and
/// the mock makes constraints go both ways (the comparison is not vacuous).
#[test]
fn every_constraint_agrees_on_a_fixed_board_and_both_outcomes_occur() {
    let db = lenient().database.as_ref().expect("no error");
    let size = 13;
    let board = board_of(
        size,
        (0..size * size).map(|k| match (k * 7919 + k / 3) % 5 {
            0 | 1 => None,
            2 | 3 => Some(Color::Black),
            _ => Some(Color::White),
        }),
    );
    let (mut accepted, mut rejected) = (0, 0);
    for (n, &k) in constrained().iter().enumerate() {
        let p = &gnugo26::PATTERNS[k];
        let checked = db.constraints[k].as_ref().expect("constrained");
        let ctx = ConstraintContext::new(
            Point::new(6, 6),
            (n % 8) as u8,
            p.move_di.into(),
            p.move_dj.into(),
        );
        let mut m1 = Mock::new(&board);
        let mut m2 = Mock::new(&board);
        let g = (gnugo26::CONSTRAINTS[k].expect("constrained"))(&ctx, &mut m1);
        assert_eq!(
            g,
            evaluate(checked, &ctx, &mut m2),
            "pattern {}: {}",
            p.name,
            checked.text
        );
        assert_eq!(m1.calls, m2.calls, "pattern {}", p.name);
        assert!(!m1.calls.is_empty());
        if g {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert_eq!(accepted + rejected, 284);
    assert!(
        accepted > 20 && rejected > 20,
        "{accepted} accepted, {rejected} rejected"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generated_and_interpreted_constraints_agree(
        b in board(),
        which in any::<prop::sample::Index>(),
        trans in 0u8..8,
        ai in any::<prop::sample::Index>(),
        aj in any::<prop::sample::Index>(),
    ) {
        let db = lenient().database.as_ref().expect("no error");
        let k = constrained()[which.index(constrained().len())];
        let p = &gnugo26::PATTERNS[k];
        let checked = db.constraints[k].as_ref().expect("constrained");
        let anchor = Point::new(ai.index(b.size()) as i32, aj.index(b.size()) as i32);
        let ctx = ConstraintContext::new(anchor, trans, p.move_di.into(), p.move_dj.into());
        prop_assert_eq!((checked.move_di, checked.move_dj), (i32::from(p.move_di), i32::from(p.move_dj)));
        let generated = gnugo26::CONSTRAINTS[k].expect("constrained");
        let mut m1 = Mock::new(&b);
        let mut m2 = Mock::new(&b);
        let g = generated(&ctx, &mut m1);
        let i = evaluate(checked, &ctx, &mut m2);
        prop_assert_eq!(g, i, "pattern {}: {}", p.name, checked.text);
        prop_assert_eq!(m1.calls, m2.calls, "pattern {}", p.name);
    }
}
