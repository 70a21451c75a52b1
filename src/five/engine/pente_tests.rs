//! The engine under Pente: the valuation and the hash kept through
//! captures (against both recomputed on random games), a capture that
//! breaks the opponent's straight four, the fifth pair taken, the
//! tournament rule's second stone.

use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::five::tests::diagram;
use crate::five::valuation::board_of;

fn choose(e: &mut Engine) -> (Point, Reason) {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    e.choose(&Limits {
        elapsed: &zero,
        budget: None,
        stop: &stop,
        max_depth: 2,
        vcf_depth: 8,
        vct_depth: 2,
        table_bytes: 1 << 16,
        proof_search: false,
        max_nodes: None,
    })
    .expect("a move")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random Pente games through the engine's make and unmake (moves
    /// drawn among the patterns' candidates, so captures come often):
    /// the valuation, the matcher's board and the hash are always those
    /// of the position recomputed from scratch.
    #[test]
    fn captures_keep_the_valuation_and_the_hash(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..70),
        undo_every in 3usize..9,
    ) {
        let db = FiveDatabase::pente();
        let (m, o) = (db.matcher(), db.overlay());
        let mut e = Engine::new(FiveBoard::new(11, Rule::Pente).unwrap());
        for (k, pick) in picks.iter().enumerate() {
            if e.game().outcome().is_some() {
                break;
            }
            let mut moves = e.candidates();
            moves.truncate(6);
            let p = moves[pick.index(moves.len())];
            prop_assert!(e.make(p), "{:?}", p);
            if k % undo_every == undo_every - 1 {
                e.unmake();
            }
            let fresh = Engine::new(e.game().clone());
            prop_assert!(e.valuation().same_values_as(&Valuation::new(m, o, &board_of(e.game()))));
            prop_assert_eq!(e.hash(), fresh.hash());
            for q in e.game().points() {
                prop_assert_eq!(e.board().stone(q), e.game().stone(q));
            }
        }
    }
}

#[test]
fn a_capture_is_made_and_unmade() {
    // The property above on a fixed game: Black takes a pair.
    let mut e = Engine::new(FiveBoard::new(11, Rule::Pente).unwrap());
    for (i, j) in [(5, 5), (5, 6), (2, 2), (5, 7), (5, 8)] {
        assert!(e.make(Point::new(i, j)));
    }
    assert_eq!(e.game().last_captured().len(), 2);
    let db = FiveDatabase::pente();
    assert!(e.valuation().same_values_as(&Valuation::new(
        db.matcher(),
        db.overlay(),
        &board_of(e.game())
    )));
    e.unmake();
    assert_eq!(e.board().stone(Point::new(5, 6)), Some(Color::White));
    assert_eq!(e.hash(), Engine::new(e.game().clone()).hash());
}

#[test]
fn a_capture_breaks_the_opponents_straight_four() {
    // White's straight four down column 5 (five at (1,5) or (6,5)); Black
    // cannot block both ends, but takes (4,4)-(4,5) from (4,6).
    let text = "
        ...........
        ...........
        .....O.....
        .....O.....
        ...XOO*....
        .....O.....
        ...........
        ...........
        ...........
        ...........
        ...........";
    let (mut b, marks) = diagram(Rule::Pente, text);
    b.set_to_move(Color::Black);
    let mut e = Engine::new(b);
    let (p, reason) = choose(&mut e);
    assert_eq!(p, marks[0], "{reason:?}");
}

#[test]
fn the_fifth_pair_wins() {
    let mut b = FiveBoard::new(13, Rule::Pente).unwrap();
    // Four pairs taken the long way: set up and captured.
    for r in 0..4 {
        let i = 1 + 3 * r;
        b.put(Point::new(i, 0), Color::Black).unwrap();
        b.put(Point::new(i, 1), Color::White).unwrap();
        b.put(Point::new(i, 2), Color::White).unwrap();
    }
    // A fifth pair to take.
    b.put(Point::new(12, 6), Color::Black).unwrap();
    b.put(Point::new(12, 7), Color::White).unwrap();
    b.put(Point::new(12, 8), Color::White).unwrap();
    for r in 0..4 {
        b.play(Point::new(1 + 3 * r, 3)).unwrap();
        b.play(Point::new(3 * r, 12)).unwrap();
    }
    assert_eq!(b.captures(Color::Black), 4);
    let mut e = Engine::new(b);
    let (p, reason) = choose(&mut e);
    assert_eq!((p, reason), (Point::new(12, 9), Reason::Wins));
}

#[test]
fn the_first_players_second_stone_leaves_the_centre() {
    let mut b = FiveBoard::new(19, Rule::Pente).unwrap();
    let mut e = Engine::new(b.clone());
    let (first, _) = choose(&mut e);
    assert_eq!(first, Point::new(9, 9));
    b.play(first).unwrap();
    b.play(Point::new(9, 10)).unwrap();
    let mut e = Engine::new(b.clone());
    let (p, _) = choose(&mut e);
    assert!(b.is_legal(p), "{p:?}");
    assert!((p.i - 9).abs() > 2 || (p.j - 9).abs() > 2);
}

/// The quiescence search at the horizon, `left` captures deep, with no
/// clock.
fn quiesce(e: &mut Engine, left: u32) -> i64 {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let limits = Limits {
        elapsed: &zero,
        budget: None,
        stop: &stop,
        max_depth: 1,
        vcf_depth: 0,
        vct_depth: 0,
        table_bytes: 0,
        proof_search: false,
        max_nodes: None,
    };
    e.begin_step(&limits, 1.0);
    let inf = crate::five::search::INFINITY;
    e.quiesce(-inf, inf, 0, left, &limits).expect("no clock")
}

#[test]
fn the_horizon_sees_a_capture_break_a_three() {
    // White's open three along row 5; Black takes (5,5)-(6,5) from
    // (7,5), which breaks it. The static value counts that capture as
    // a pair in hand only; played out, it is worth the three as well.
    let text = "
        ...........
        ...........
        ...........
        ...........
        .....X.....
        ...OOO.....
        .....O.....
        .....*.....
        ...........
        .X.........
        ...........";
    let (mut b, marks) = diagram(Rule::Pente, text);
    b.set_to_move(Color::Black);
    let mut e = Engine::new(b.clone());
    let with_hand = e.evaluate();
    let deep = quiesce(&mut e, 4);
    // The capture played by hand: White to move has no capture back.
    assert!(e.make(marks[0]));
    assert_eq!(e.game().captures(Color::Black), 1);
    assert!(e.captures().is_empty());
    let after = -e.evaluate();
    e.unmake();
    assert_eq!(deep, after);
    assert!(deep > with_hand + 1000, "{deep} against {with_hand}");
    // No capture to follow: the static value, capture in hand included.
    assert_eq!(quiesce(&mut e, 0), with_hand);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On random Pente games: the side to move may always stand on the
    /// static value without its capture in hand, so the quiescence value
    /// is never below it; with no capture to follow it is the static
    /// value itself.
    #[test]
    fn the_horizon_never_scores_below_standing_pat(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..50),
    ) {
        let mut e = Engine::new(FiveBoard::new(11, Rule::Pente).unwrap());
        for pick in &picks {
            if e.game().outcome().is_some() {
                break;
            }
            let mut moves = e.candidates();
            moves.truncate(6);
            prop_assert!(e.make(moves[pick.index(moves.len())]));
            let me = e.game().to_move();
            if e.game().outcome().is_some()
                || !e.fives(me).is_empty()
                || !e.fives(me.other()).is_empty()
            {
                continue;
            }
            let stand = e.evaluate() - e.capture_in_hand(&CAPTURED_WORTH);
            prop_assert!(quiesce(&mut e, 4) >= stand);
            prop_assert_eq!(quiesce(&mut e, 0), e.evaluate());
        }
    }
}

#[test]
fn a_three_whose_pair_can_be_threatened_is_no_forced_win() {
    // The first twelve moves of a game katachi (Black) lost to `pente`
    // at level 9. Black's (10,10) makes an open three on the diagonal
    // (9,9)-(11,11), and the threat search took it for a win: White's
    // answer (12,10) neither blocks it nor takes a stone, but threatens
    // the pair (10,10)-(11,10) from (9,10); Black's straight four then
    // lost that pair, and White's capture made a four of White's.
    let mut b = FiveBoard::new(19, Rule::Pente).unwrap();
    for (i, j) in [
        (9, 9),
        (10, 9),
        (12, 7),
        (9, 8),
        (11, 10),
        (8, 7),
        (11, 11),
        (11, 12),
        (11, 9),
        (7, 6),
        (6, 5),
        (11, 7),
    ] {
        b.play(Point::new(i, j)).unwrap();
    }
    let mut e = Engine::new(b);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        vcf_depth: 12,
        vct_depth: 4,
        table_bytes: 0,
        proof_search: false,
        max_nodes: Some(20_000),
        ..Limits::at_depth(1, &stop)
    };
    e.begin_step(&limits, 1.0);
    assert_eq!(e.vct(4, &limits), None);

    // The answer itself, and its twin at the pair's other end.
    let three = Point::new(10, 10);
    assert!(e.make(three));
    let lines = e.straight_four_lines(three, Color::Black);
    assert_ne!(lines, [false; 4]);
    let threats = e.capture_threats_against_three(three, Color::Black, lines);
    assert!(threats.contains(&Point::new(12, 10)), "{threats:?}");
    assert!(threats.contains(&Point::new(9, 10)), "{threats:?}");
    // Each, played, gives White a capture it did not have.
    let captures = |e: &Engine| {
        e.game()
            .points()
            .filter(|&q| e.game().pairs_captured_at(q, Color::White) > 0)
            .count()
    };
    let before = captures(&e);
    for &t in &threats {
        assert!(e.make(t));
        assert!(captures(&e) > before, "{t:?}");
        e.unmake();
    }
}
