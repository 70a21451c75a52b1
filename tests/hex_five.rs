//! Five in a row on the contest's hexagon: the rules board
//! (`FiveBoard::hexagon`) against a plain model of the board's rows of
//! five (`HexLayout::lines`), a five on each axis at edges and corners,
//! and the engine and its valuation on the hexagon.

use katachi::five::database::FiveDatabase;
use katachi::five::engine::Engine;
use katachi::five::valuation::{FiveGeometry, Valuation};
use katachi::five::{FiveBoard, Outcome, Rule};
use katachi::hexagon::{HexLayout, CONTEST_SIDE};
use katachi::mkpat::geometry::Hexagon;
use katachi::{Color, Point, Position};
use proptest::prelude::*;

fn layout() -> HexLayout {
    HexLayout::new(CONTEST_SIDE)
}

fn cell(k: usize) -> Point {
    layout().point(k).unwrap()
}

/// Plays `black` and `white` alternately (Black first; White's extra
/// stones far away) and returns the outcome after the last of `black`.
fn after(rule: Rule, black: &[usize], white: &[usize]) -> Option<Outcome> {
    let mut b = FiveBoard::hexagon(CONTEST_SIDE, rule).unwrap();
    let mut outcome = None;
    for (k, &x) in black.iter().enumerate() {
        outcome = b.play(cell(x)).unwrap();
        if k + 1 < black.len() {
            b.play(cell(white[k])).unwrap();
        }
    }
    outcome
}

const FAR: [usize; 6] = [200, 202, 204, 206, 196, 190];

#[test]
fn a_five_wins_along_each_axis_at_edges_and_corners() {
    // Along the top edge from the corner (a row), down the left edge
    // from the top corner (0, 9, 19, 30, 42), from the top corner
    // towards the centre, and a row ending in the right corner of the
    // middle row (112..116).
    let lines: [&[usize]; 4] = [
        &[0, 1, 2, 3, 4],
        &[0, 9, 19, 30, 42],
        &[0, 10, 21, 33, 46],
        &[112, 113, 114, 115, 116],
    ];
    for line in lines {
        let ps: Vec<Point> = line.iter().map(|&k| cell(k)).collect();
        let d = (ps[1].i - ps[0].i, ps[1].j - ps[0].j);
        assert!(
            ps.windows(2)
                .all(|w| (w[1].i - w[0].i, w[1].j - w[0].j) == d),
            "{line:?}"
        );
        for rule in [Rule::Freestyle, Rule::Exact] {
            assert_eq!(
                after(rule, line, &FAR),
                Some(Outcome::Win(Color::Black)),
                "{line:?}"
            );
            // Four is not five, and played in any order it still wins.
            assert_eq!(after(rule, &line[..4], &FAR), None);
            let mut rev = line.to_vec();
            rev.reverse();
            assert_eq!(after(rule, &rev, &FAR), Some(Outcome::Win(Color::Black)));
        }
    }
    // The three axes through the centre.
    for d in [(0, 1), (1, 0), (1, -1)] {
        let line: Vec<usize> = (-2..=2)
            .map(|k| {
                layout()
                    .number(Point::new(8 + k * d.0, 8 + k * d.1))
                    .unwrap()
            })
            .collect();
        assert_eq!(
            after(Rule::Freestyle, &line, &FAR),
            Some(Outcome::Win(Color::Black))
        );
    }
    // (1, 1) is not a line on the hexagon: 108, 125 and on.
    let not_a_line: Vec<usize> = (0..5)
        .map(|k| layout().number(Point::new(4 + k, 4 + k)).unwrap())
        .collect();
    assert_eq!(after(Rule::Freestyle, &not_a_line, &FAR), None);
    // Exact five: six in a row is no win.
    let six = [100, 101, 102, 104, 105, 103];
    assert_eq!(after(Rule::Exact, &six, &FAR), None);
    assert_eq!(
        after(Rule::Freestyle, &six, &FAR),
        Some(Outcome::Win(Color::Black))
    );
    assert!(FiveBoard::hexagon(CONTEST_SIDE, Rule::Renju).is_err());
    assert!(FiveBoard::hexagon(14, Rule::Freestyle).is_err());
}

/// The plain model: has `color` five in a row on one of the board's runs
/// of five?
fn model_win(b: &FiveBoard, color: Color) -> bool {
    layout()
        .lines(5)
        .iter()
        .any(|run| run.iter().all(|&p| b.stone(p) == Some(color)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_rules_board_agrees_with_the_model_of_rows(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..160),
    ) {
        let mut b = FiveBoard::hexagon(CONTEST_SIDE, Rule::Freestyle).unwrap();
        prop_assert_eq!(b.points().count(), 217);
        for pick in picks {
            let legal: Vec<Point> = b.legal_moves().collect();
            if legal.is_empty() {
                break;
            }
            let p = legal[pick.index(legal.len())];
            let c = b.to_move();
            let outcome = b.play(p).unwrap();
            prop_assert_eq!(outcome == Some(Outcome::Win(c)), model_win(&b, c));
            if outcome.is_some() {
                let row = b.win_row();
                prop_assert!(row.len() >= 5);
                prop_assert!(row.iter().all(|&q| b.stone(q) == Some(c)));
                break;
            }
        }
    }

    #[test]
    fn the_hexagon_s_valuation_is_kept_move_by_move(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..50),
    ) {
        let db = FiveDatabase::hexagon();
        let (m, o) = (db.matcher(), db.overlay());
        let mut game = FiveBoard::hexagon(CONTEST_SIDE, Rule::Freestyle).unwrap();
        let mut board = Hexagon::board_of(&game);
        let mut v = Valuation::new(m, o, &board);
        for pick in picks {
            if game.outcome().is_some() {
                break;
            }
            let legal: Vec<Point> = game.legal_moves().collect();
            let p = legal[pick.index(legal.len())];
            let c = game.to_move();
            game.play(p).unwrap();
            board.place(p, c);
            v.update(m, o, &board, p);
            prop_assert!(v.same_as(&Valuation::new(m, o, &Hexagon::board_of(&game))));
            // Nothing is proposed off the hexagon.
            prop_assert!(v.proposed().all(|q| game.on_board(q)));
        }
    }
}

#[test]
fn the_engine_wins_and_blocks_on_the_hexagon() {
    use katachi::five::engine::{Limits, Reason};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let stop = AtomicBool::new(false);
    let elapsed = || Duration::ZERO;
    let limits = Limits {
        elapsed: &elapsed,
        budget: None,
        stop: &stop,
        max_depth: 2,
        vcf_depth: 8,
        vct_depth: 2,
        table_bytes: 1 << 16,
        proof_search: false,
        max_nodes: None,
    };
    // Black's open three down the axis through the centre (91, 108,
    // 125) and White far away: Black to move has a forced win.
    let mut b = FiveBoard::hexagon(CONTEST_SIDE, Rule::Freestyle).unwrap();
    for (x, o) in [(108, 0), (91, 216), (125, 8)] {
        b.play(cell(x)).unwrap();
        b.play(cell(o)).unwrap();
    }
    let mut e = Engine::<Hexagon>::on(b.clone());
    let (p, reason) = e.choose(&limits).unwrap();
    assert!(
        matches!(reason, Reason::Vct(_) | Reason::Vcf(_)),
        "{reason:?} at {p:?}"
    );
    // White to move (its last stone taken back) must stop it.
    b.undo();
    let mut e = Engine::<Hexagon>::on(b.clone());
    let (p, _) = e.choose(&limits).unwrap();
    // The ends of the three along its axis, or one further.
    let ends: Vec<Point> = [5, 6, 10, 11].map(|i| Point::new(i, 8)).to_vec();
    assert!(ends.contains(&p), "{p:?}");
}
