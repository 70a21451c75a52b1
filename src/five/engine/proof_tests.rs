//! The proof-number threat search (`five/proof.rs`): a win deeper than
//! the depth-first search reaches, found and stopped; every defence it
//! leaves out loses (a plain reference by the rules); it finds every win
//! the depth-first search finds, and its lines win.

use super::tests::{dense_games, engine, limits, wins_by_two_fives, DEEP_VCT, O, X};
use super::*;
use crate::five::proof::{Node, Proof};
use crate::five::rules::Outcome;

/// Plays a proof's line out on the rules board: it must end in the
/// attacker's five, or with the defender to move and every legal answer
/// losing: to a five of the attacker's, or to two fives in one stone
/// (the plain reference). A proof's line may stop before its last three
/// is made a straight four: nothing stops it.
fn proof_line_wins(e: &Engine, line: &[Point]) -> bool {
    let mut b = e.game().clone();
    let attacker = b.to_move();
    for &p in line {
        if b.play(p).is_err() {
            return false;
        }
    }
    if b.outcome().is_some() {
        return b.outcome() == Some(Outcome::Win(attacker));
    }
    b.to_move() != attacker
        && b.legal_moves().all(|q| {
            let mut c = b.clone();
            match c.play(q).unwrap() {
                Some(_) => false,
                None => c.legal_moves().any(|r| c.wins_at(r, attacker)) || wins_by_two_fives(&c),
            }
        })
}

fn proof_limits<'a>(elapsed: &'a dyn Fn() -> Duration, stop: &'a AtomicBool) -> Limits<'a> {
    let mut l = limits(elapsed, stop);
    l.vcf_depth = 16;
    l.vct_depth = SAFETY_VCT_DEPTH;
    l.proof_search = true;
    l
}

#[test]
fn a_vct_deeper_than_the_depth_first_search_reaches_is_proved_and_wins() {
    // The depth-first search finds no VCT here within SAFETY_VCT_DEPTH
    // threats (`the_root_vct_deepens_to_vct_depth_while_its_share_lasts`).
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let (mut e, _) = engine(Rule::Exact, O, DEEP_VCT);
    let (p, why) = e.choose(&proof_limits(&zero, &stop)).expect("a move");
    let Reason::Vct(line) = why else {
        panic!("{why:?}")
    };
    assert_eq!(p, line[0]);
    assert!(proof_line_wins(&e, &line), "{line:?}");
    let ours = line.len().div_ceil(2) as u32;
    assert!(ours > SAFETY_VCT_DEPTH, "{line:?}");
    // A node budget that ends before the proof: the search plays.
    let (mut e, _) = engine(Rule::Exact, O, DEEP_VCT);
    let mut l = proof_limits(&zero, &stop);
    l.max_nodes = Some(2_000);
    let (_, why) = e.choose(&l).expect("a move");
    assert!(matches!(why, Reason::Search { .. }), "{why:?}");
    assert!(e.nodes() <= 2_000, "{}", e.nodes());
}

/// A choice's nodes in the safety check's test: enough for the
/// opponent's proof (about 80,000 nodes) within the check's share.
const SAFETY_NODES: u64 = 1_000_000;

#[test]
fn the_safety_check_sees_a_deep_vct_coming_and_stops_it() {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    // X to move, O threatening the deep VCT: the depth-first check does
    // not see it.
    let (mut e, _) = engine(Rule::Exact, X, DEEP_VCT);
    let mut l = limits(&zero, &stop);
    l.vcf_depth = 16;
    l.vct_depth = SAFETY_VCT_DEPTH;
    let (_, why) = e.choose(&l).expect("a move");
    assert!(
        matches!(why, Reason::Search { defends: false, .. }),
        "{why:?}"
    );
    let (mut e, _) = engine(Rule::Exact, X, DEEP_VCT);
    let mut l = proof_limits(&zero, &stop);
    l.max_nodes = Some(SAFETY_NODES);
    let (p, why) = e.choose(&l).expect("a move");
    assert!(
        matches!(why, Reason::Search { defends: true, .. }),
        "{why:?}"
    );
    // After the move chosen, O's win is disproven by a search without
    // the choice's limits.
    assert!(e.play(p));
    let unlimited = proof_limits(&zero, &stop);
    e.begin_step(&unlimited, 1.0);
    let after = e.prove(&unlimited, 1.0);
    assert_eq!(after, Proof::NoWin);
}

#[test]
fn every_defence_a_proof_node_leaves_out_loses() {
    // Dense random games near the centre of a 9x9 board under each rule
    // (a fixed generator); wherever the side to move faces two fives in
    // one stone of the opponent's and neither side has a five, every
    // legal move the defender's node does not try lets the opponent win
    // by two fives (the plain reference).
    let mut fired = 0;
    for b in dense_games(31, 400, 9, 1, (5, 14)) {
        let rule = b.rule();
        let me = b.to_move();
        let mut e = Engine::new(b.clone());
        if !e.fives(me).is_empty() || !e.fives(me.other()).is_empty() {
            continue;
        }
        let Node::Moves(answers) = e.defender_node(me.other()) else {
            continue;
        };
        fired += 1;
        for m in b.legal_moves().filter(|p| !answers.contains(p)) {
            let mut c = b.clone();
            if c.play(m).unwrap().is_some() {
                continue;
            }
            assert!(
                wins_by_two_fives(&c),
                "{rule:?} {:?}: {m:?} was left out and does not lose",
                b.moves()
            );
        }
    }
    assert!(fired >= 10, "the node fired {fired} times");
}

/// The nodes a proof search of the random positions below may spend:
/// more than all but a few of them need.
const PROOF_NODES: u64 = 60_000;

#[test]
fn proofs_find_every_depth_first_win_and_their_lines_win() {
    // Dense random games on 11x11 under each rule (a fixed generator):
    // the proof search finds a win wherever the depth-first VCT does,
    // almost always ends within its node limit, and every line it gives
    // wins on the rules board.
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let l = proof_limits(&zero, &stop);
    let (mut both, mut only_proved, mut unknown) = (0, 0, 0);
    for b in dense_games(37, 120, 11, 1, (6, 18)) {
        let rule = b.rule();
        let mut e = Engine::new(b.clone());
        let depth_first = e.vct(2, &l).is_some();
        let mut e = Engine::new(b.clone());
        let mut l = proof_limits(&zero, &stop);
        l.max_nodes = Some(PROOF_NODES);
        e.begin_step(&l, 1.0);
        match e.prove(&l, 1.0) {
            Proof::Win(line) => {
                assert!(
                    proof_line_wins(&e, &line),
                    "{rule:?} {:?}: {line:?}",
                    b.moves()
                );
                if depth_first {
                    both += 1;
                } else {
                    only_proved += 1;
                }
            }
            Proof::NoWin => assert!(!depth_first, "{rule:?} {:?}", b.moves()),
            Proof::Unknown => {
                assert!(!depth_first, "{rule:?} {:?}: not proved", b.moves());
                unknown += 1;
            }
        }
    }
    assert!(
        both >= 10 && only_proved >= 1 && unknown <= 6,
        "{both} {only_proved} {unknown}"
    );
}

#[test]
fn the_safety_check_reads_by_proof_numbers_only_with_half_a_second_or_more() {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let with = |budget: Option<u64>, nodes: Option<u64>| {
        let mut l = proof_limits(&zero, &stop);
        l.budget = budget.map(Duration::from_millis);
        l.max_nodes = nodes;
        deep_safety(&l)
    };
    assert!(with(None, None));
    assert!(with(Some(900), None));
    assert!(with(Some(500), Some(150_000)));
    assert!(!with(Some(100), None));
    assert!(!with(Some(900), Some(110_000)));
    assert!(!with(None, Some(20_000)));
}
