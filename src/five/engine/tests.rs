//! The engine on positions drawn as diagrams with known answers: wins,
//! blocks, VCF and VCT (renju's forbidden points among them), a defence
//! against the opponent's VCF, the clock, and the transposition table
//! against a search without it.

use std::cell::Cell;

use proptest::prelude::*;

use super::*;
use crate::five::rules::Outcome;
use crate::five::tests::diagram;

/// An engine on a diagram (see `five::tests::diagram`) with `to_move`.
pub(super) fn engine(rule: Rule, to_move: Color, text: &str) -> (Engine, Vec<Point>) {
    let (mut b, marks) = diagram(rule, text);
    b.set_to_move(to_move);
    (Engine::new(b), marks)
}

pub(super) fn limits<'a>(elapsed: &'a dyn Fn() -> Duration, stop: &'a AtomicBool) -> Limits<'a> {
    Limits {
        elapsed,
        budget: None,
        stop,
        max_depth: 2,
        vcf_depth: 12,
        vct_depth: 2,
        table_bytes: 1 << 16,
        proof_search: false,
        max_nodes: None,
    }
}

fn choose(e: &mut Engine) -> (Point, Reason) {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    e.choose(&limits(&zero, &stop)).expect("a move")
}

/// Plays a threat line out on the rules board and checks it ends in a
/// win for the side that started it, every move legal.
pub(super) fn line_wins(e: &Engine, line: &[Point]) -> bool {
    let mut b = e.game().clone();
    let me = b.to_move();
    for &p in line {
        if b.play(p).is_err() {
            return false;
        }
    }
    // A VCF line ends with our winning four: the five follows.
    b.outcome() == Some(Outcome::Win(me))
        || (b.to_move() != me && {
            let left: Vec<Point> = b.legal_moves().collect();
            // Every answer leaves us a five.
            left.iter().all(|&q| {
                let mut c = b.clone();
                c.play(q).unwrap();
                let five = c.legal_moves().any(|r| c.wins_at(r, me));
                five
            })
        })
}

pub(super) const X: Color = Color::Black;
pub(super) const O: Color = Color::White;

#[test]
fn it_wins_and_blocks() {
    let text = "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ..*XXXX*.......
        ...............
        ...............
        ...............
        ...............
        ...............
        O.O.O..........
        ...............";
    let (mut e, marks) = engine(Rule::Freestyle, X, text);
    let (p, why) = choose(&mut e);
    assert_eq!(why, Reason::Wins);
    assert!(marks.contains(&p), "{p:?}");
    let (mut e, marks) = engine(Rule::Freestyle, O, text);
    let (p, why) = choose(&mut e);
    assert_eq!(why, Reason::Blocks);
    assert!(marks.contains(&p), "{p:?}");
}

#[test]
fn a_double_four_is_a_vcf_of_one_move() {
    // Two closed threes crossing at `*`.
    let (mut e, marks) = engine(
        Rule::Freestyle,
        X,
        "
        O..............
        ...............
        ...............
        .......O.......
        .......X.......
        .......X.......
        .......X.......
        ...OXXX*.......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        O.............O",
    );
    assert_eq!(choose(&mut e), (marks[0], Reason::Vcf(vec![marks[0]])));
}

/// A closed three on row 7 and one on row 10, a two on column 7: a
/// four on either row forces its block, and the other row's four then
/// makes a double four with the column. No single move wins.
const VCF: &str = "
        O.............O
        ...............
        ...............
        ...............
        ...............
        ...............
        .......O.......
        ...OXXX........
        ......OX.......
        .......XO......
        ........XXXO...
        ...............
        ...............
        ...............
        O.............O";

#[test]
fn a_vcf_in_several_moves_is_found_and_wins() {
    let (mut e, _) = engine(Rule::Freestyle, X, VCF);
    let (p, why) = choose(&mut e);
    let Reason::Vcf(line) = why else {
        panic!("no VCF: {p:?} {why:?}")
    };
    assert!(line.len() >= 3, "{line:?}");
    assert!(line_wins(&e, &line), "{line:?} {:?}", e.game());
}

#[test]
fn the_defender_stops_the_opponents_vcf_rather_than_attack() {
    // White to move: Black threatens the VCF above; White has an open
    // two of its own to extend, but must break Black's fours.
    let (mut e, _) = engine(Rule::Freestyle, O, VCF);
    let (p, why) = choose(&mut e);
    assert!(
        matches!(why, Reason::Search { defends: true, .. }),
        "{p:?} {why:?}"
    );
    e.play(p);
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    assert_eq!(e.vcf(12, &limits(&zero, &stop)), None, "after {p:?}");
}

/// Two open twos crossing at `*`: a double three there, and no four
/// anywhere. A VCT of one move under freestyle; forbidden under renju.
const DOUBLE_THREE: &str = "
        O.............O
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX*.......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        O.............O";

#[test]
fn a_double_three_is_a_vct_and_no_vcf() {
    let (mut e, marks) = engine(Rule::Freestyle, X, DOUBLE_THREE);
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    assert_eq!(e.vcf(12, &limits(&zero, &stop)), None);
    let (p, why) = choose(&mut e);
    assert_eq!((p, why), (marks[0], Reason::Vct(vec![marks[0]])));
}

#[test]
fn renju_black_has_no_vct_by_a_forbidden_double_three() {
    let (mut e, marks) = engine(Rule::Renju, X, DOUBLE_THREE);
    assert!(e.game().is_forbidden(marks[0]));
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    if let Some(line) = e.vct(2, &limits(&zero, &stop)) {
        assert_ne!(line[0], marks[0]);
    }
    assert_ne!(choose(&mut e).0, marks[0]);
}

#[test]
fn a_counter_four_that_breaks_the_three_refutes_it() {
    // Black's double three at `*` would win, but White's open three on
    // column 7 makes a four at (8, 7) that also blocks Black's column
    // (and one at (12, 7) that is straight): the double three is no win.
    let (mut e, marks) = engine(
        Rule::Freestyle,
        X,
        "
        O..............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX*.......
        ...............
        .......O.......
        .......O.......
        .......O.......
        ...............
        ...............
        O.............O",
    );
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let line = e.vct(1, &limits(&zero, &stop));
    assert!(line.as_ref().is_none_or(|l| l[0] != marks[0]), "{line:?}");
}

#[test]
fn renju_a_forbidden_four_point_is_no_vcf_for_black() {
    // Black's four at `*` would also make a second four: a double four,
    // forbidden. Black has no other four.
    let (mut e, marks) = engine(
        Rule::Renju,
        X,
        "
        ...............
        ...............
        ...............
        .......O.......
        .......X.......
        .......X.......
        .......X.......
        ...OXXX*.......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
    assert!(e.game().is_forbidden(marks[0]));
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    assert_eq!(e.vcf(12, &limits(&zero, &stop)), None);
    let (p, _) = choose(&mut e);
    assert_ne!(p, marks[0]);
    // Under freestyle the same point wins.
    let (mut e, marks) = engine(Rule::Freestyle, X, &e.game_text());
    assert_eq!(choose(&mut e).0, marks[0]);
}

#[test]
fn renju_a_white_four_on_a_forbidden_block_wins() {
    // White's four at `*` leaves one point to block, at `#` — forbidden
    // for Black (it would make Black a double three). So the four wins.
    let (mut e, marks) = engine(
        Rule::Renju,
        O,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...........X...
        .........X.....
        ........*......
        ..OOO..........
        .......XX......
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
    let _ = marks;
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let l = limits(&zero, &stop);
    if let Some(line) = e.vcf(12, &l) {
        assert!(line_wins(&e, &line), "{line:?}");
    }
}

#[test]
fn a_spent_budget_still_answers_a_legal_move() {
    let (mut e, _) = engine(
        Rule::Exact,
        X,
        "
        .........
        .........
        .........
        .........
        ....XO...
        .........
        .........
        .........
        .........",
    );
    let stop = AtomicBool::new(false);
    let late = || Duration::from_secs(10);
    let mut l = limits(&late, &stop);
    l.budget = Some(Duration::from_secs(1));
    l.max_depth = 6;
    let (p, why) = e.choose(&l).expect("a move");
    assert!(e.game().is_legal(p));
    assert!(matches!(why, Reason::Search { depth: 0, .. }), "{why:?}");
}

/// An opening: no threats, room for a search.
pub(super) const QUIET: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......O.......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............";

#[test]
fn the_clock_is_never_read_past_the_budget() {
    // A clock that advances a millisecond each time it is read; the
    // budget is 40 ms, of which the search keeps a share for unwinding
    // (`SEARCH_END`).
    // Once the clock reads past the search's end, the engine answers
    // without reading it again, with the move of a finished iteration.
    let (mut e, _) = engine(Rule::Freestyle, X, QUIET);
    let reads = Cell::new(0u64);
    let past = Cell::new(0u64);
    let budget = Duration::from_millis(40);
    let clock = || {
        let t = Duration::from_millis(reads.get());
        reads.set(reads.get() + 1);
        if t >= budget.mul_f64(SEARCH_END) {
            past.set(past.get() + 1);
        }
        t
    };
    let stop = AtomicBool::new(false);
    let mut l = limits(&clock, &stop);
    l.budget = Some(budget);
    l.max_depth = 20;
    let (p, why) = e.choose(&l).expect("a move");
    assert_eq!(past.get(), 1, "reads {}", reads.get());
    // One reading past the search's end at most, and none past the
    // budget.
    let end = budget.mul_f64(SEARCH_END).as_millis() as u64;
    assert!(reads.get() <= end + 2, "reads {}", reads.get());
    assert!(
        reads.get() <= budget.as_millis() as u64,
        "reads {}",
        reads.get()
    );
    let Reason::Search { depth, .. } = why else {
        panic!("{why:?}")
    };
    assert!((1..20).contains(&depth), "{depth}");
    // The move is the one a search to that depth without a clock plays,
    // or, when the clock stopped that iteration after another move had
    // beaten the last one's choice, not that choice.
    let unclocked = |depth: u32| {
        let (mut again, _) = engine(Rule::Freestyle, X, QUIET);
        let zero = || Duration::ZERO;
        let mut l = limits(&zero, &stop);
        l.max_depth = depth;
        again.choose(&l).expect("a move").0
    };
    if e.finished_depth == depth {
        assert_eq!(p, unclocked(depth));
    } else {
        assert_eq!(e.finished_depth + 1, depth);
        assert_ne!(p, unclocked(e.finished_depth));
    }
}

#[test]
fn a_stop_flag_ends_the_search_at_once() {
    let (mut e, _) = engine(Rule::Freestyle, X, QUIET);
    let stop = AtomicBool::new(true);
    let zero = || Duration::ZERO;
    let mut l = limits(&zero, &stop);
    l.max_depth = 20;
    let (p, why) = e.choose(&l).expect("a move");
    assert!(e.game().is_legal(p));
    assert!(matches!(why, Reason::Search { depth: 0, .. }), "{why:?}");
}

#[test]
fn the_hash_follows_play_and_undo() {
    let (mut e, _) = engine(Rule::Freestyle, X, QUIET);
    let h = e.hash();
    assert!(e.play(Point::new(3, 3)));
    let h1 = e.hash();
    assert_ne!(h, h1);
    assert!(e.play(Point::new(10, 10)));
    e.undo();
    assert_eq!(e.hash(), h1);
    e.undo();
    assert_eq!(e.hash(), h);
    // The same stones reached in another order hash alike, and equal a
    // fresh engine's hash.
    assert!(e.play(Point::new(3, 3)));
    assert!(e.play(Point::new(10, 10)));
    assert_eq!(e.hash(), Engine::new(e.game().clone()).hash());
}

impl Engine {
    /// The position as a diagram (for a test that reuses it under
    /// another rule).
    fn game_text(&self) -> String {
        let n = self.game.size() as i32;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match self.game.stone(Point::new(i, j)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None if self.game.is_forbidden(Point::new(i, j)) => '*',
                        None => '.',
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    /// The main search over the candidates to `max_depth` within `nodes`
    /// (`None`: no limit), with a table of `bytes`: its move, score and
    /// the depth it reports.
    fn search_candidates(
        &mut self,
        max_depth: u32,
        nodes: Option<u64>,
        bytes: usize,
    ) -> (Point, i64, u32) {
        let stop = AtomicBool::new(false);
        let zero = || Duration::ZERO;
        let mut l = limits(&zero, &stop);
        l.max_depth = max_depth;
        l.max_nodes = nodes;
        l.table_bytes = bytes;
        self.begin_step(&l, 1.0);
        let moves = self.candidates();
        self.search(&moves, &l)
    }

    /// The root score of a search to `depth` over the first candidates,
    /// with a table of `bytes`.
    fn score_at(&mut self, depth: u32, bytes: usize) -> i64 {
        let (_, score, d) = self.search_candidates(depth, None, bytes);
        assert!(d == depth || score.abs() > WIN / 2);
        score
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_table_changes_no_score(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 4..14),
        depth in 2u32..4,
    ) {
        let mut b = FiveBoard::new(11, Rule::Freestyle).unwrap();
        for pick in &picks {
            let legal: Vec<Point> = b.legal_moves().collect();
            let p = legal[pick.index(legal.len())];
            if b.play(p).unwrap().is_some() {
                b.undo();
                break;
            }
        }
        let with = Engine::new(b.clone()).score_at(depth, 1 << 20);
        let without = Engine::new(b).score_at(depth, 0);
        prop_assert_eq!(with, without);
    }
}

#[test]
fn an_open_three_with_the_move_is_a_tempo_win_only_when_the_opponent_has_no_four() {
    // Black's open three, White's scattered twos: Black to move wins by
    // the rule; White to move does not (it has no two fives to make).
    let text = "
        ...........
        ...........
        ..O........
        ...O.......
        ...........
        ...XXX.....
        ...........
        .......O...
        ........O..
        ...........
        ...........";
    let (e, _) = engine(Rule::Exact, X, text);
    assert_eq!(e.tempo_win(), TEMPO_WIN);
    let (e, _) = engine(Rule::Exact, O, text);
    assert_eq!(e.tempo_win(), 0);
    // White's closed three is a four to play: its answer to the open four
    // gains a move, so the rule no longer decides.
    let text = "
        ...........
        ...........
        ..O........
        ...O.......
        ...........
        ...XXX.....
        ...........
        .......O...
        ........O..
        ..XOOO.....
        ...........";
    let (e, _) = engine(Rule::Exact, X, text);
    assert_eq!(e.tempo_win(), 0);
    // Under Pente a capture may break the three: no rule.
    let (e, _) = engine(Rule::Pente, X, &text.replace("..XOOO.....", "..........."));
    assert_eq!(e.tempo_win(), 0);
}

/// Does the side to move of `b` win within three plies, every reply of
/// the opponent's tried (the plain reference for the threat rule)?
fn wins_in_three(b: &FiveBoard) -> bool {
    let me = b.to_move();
    let mine: Vec<Point> = b.legal_moves().collect();
    mine.iter().any(|&m| {
        let mut c = b.clone();
        match c.play(m) {
            Ok(Some(Outcome::Win(w))) => return w == me,
            Ok(Some(Outcome::Draw)) | Err(_) => return false,
            Ok(None) => {}
        }
        let replies: Vec<Point> = c.legal_moves().collect();
        !replies.is_empty()
            && replies.iter().all(|&r| {
                let mut d = c.clone();
                match d.play(r) {
                    Ok(None) => d.legal_moves().any(|w| d.wins_at(w, me)),
                    _ => false,
                }
            })
    })
}

/// A fixed generator of picks below `n` (a linear congruential one):
/// the same positions every run.
fn picker(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    }
}

/// `games` dense random positions (a fixed generator from `seed`: the
/// same positions every run) on `size`x`size` boards, the rules in
/// turn (freestyle, exactly five, renju): `stones.0` plus up to
/// `stones.1 - 1` more stones played alternately on legal points at
/// least `margin` from the edge, stopped before a move that ends the
/// game.
pub(super) fn dense_games(
    seed: u64,
    games: usize,
    size: usize,
    margin: i32,
    stones: (usize, usize),
) -> Vec<FiveBoard> {
    let mut next = picker(seed);
    let inner = margin..size as i32 - margin;
    (0..games)
        .map(|game| {
            let rule = [Rule::Freestyle, Rule::Exact, Rule::Renju][game % 3];
            let mut b = FiveBoard::new(size, rule).unwrap();
            let count = stones.0 + next(stones.1);
            while b.stone_count() < count {
                let near: Vec<Point> = b
                    .legal_moves()
                    .filter(|p| inner.contains(&p.i) && inner.contains(&p.j))
                    .collect();
                let p = near[next(near.len())];
                if b.play(p).unwrap().is_some() {
                    b.undo();
                    break;
                }
            }
            b
        })
        .collect()
}

#[test]
fn every_tempo_win_is_a_win_in_three() {
    // Dense random games near the centre of a 9x9 board, under each rule
    // (a fixed generator: the same positions every run); wherever the rule
    // fires, the exhaustive reference must find the win.
    let mut fired = 0;
    for b in dense_games(17, 240, 9, 1, (6, 14)) {
        let rule = b.rule();
        let e = Engine::new(b.clone());
        if e.fives(b.to_move()).is_empty()
            && e.fives(b.to_move().other()).is_empty()
            && e.tempo_win() > 0
        {
            fired += 1;
            assert!(wins_in_three(&b), "{rule:?} {:?}", b.moves());
        }
    }
    assert!(fired >= 5, "the rule fired {fired} times");
}

#[test]
fn a_salt_chooses_among_equal_moves_and_repeats_itself() {
    // One stone on the centre: its neighbours along a line are worth the
    // same by symmetry, and the salt picks among them.
    let mut b = FiveBoard::new(15, Rule::Freestyle).unwrap();
    b.play(Point::new(7, 7)).unwrap();
    let unsalted = choose(&mut Engine::new(b.clone())).0;
    assert_eq!(choose(&mut Engine::new(b.clone()).with_salt(0)).0, unsalted);
    let mut chosen = std::collections::BTreeSet::new();
    for salt in 1..=16u64 {
        let p = choose(&mut Engine::new(b.clone()).with_salt(salt)).0;
        assert_eq!(
            choose(&mut Engine::new(b.clone()).with_salt(salt)).0,
            p,
            "salt {salt}"
        );
        let e = Engine::new(b.clone());
        assert_eq!(
            e.valuation().value(p, Color::White),
            e.valuation().value(unsalted, Color::White),
            "salt {salt} chose {p:?}, worth less than {unsalted:?}"
        );
        chosen.insert(p);
    }
    assert!(chosen.len() > 1, "{chosen:?}");
}

impl Engine {
    /// Whether the side to move has a VCF within `vcf` fours and a VCT
    /// within `vct` threats, and the same for the opponent (asked after a
    /// pass), with no time limit and whatever failures the engine
    /// remembers; with `forget`, none: each search starts from an empty
    /// memory.
    fn threat_answers(&mut self, vcf: u32, vct: u32, forget: bool) -> [bool; 4] {
        let stop = AtomicBool::new(false);
        let zero = || Duration::ZERO;
        let l = limits(&zero, &stop);
        self.begin_step(&l, 1.0);
        let mut out = [false; 4];
        for side in 0..2 {
            if forget {
                self.failed.clear();
            }
            out[2 * side] = self.vcf(vcf, &l).is_some();
            if forget {
                self.failed.clear();
            }
            out[2 * side + 1] = self.vct(vct, &l).is_some();
            self.pass();
        }
        out
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The remembered failures change no threat search's answer: with
    /// them filled by earlier searches of both sides, shallower and
    /// deeper, every VCF and VCT answers as a search from an empty
    /// memory does.
    #[test]
    fn remembered_failures_change_no_threat_answer(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 8..26),
        rule in prop::sample::select(vec![Rule::Freestyle, Rule::Exact, Rule::Renju]),
    ) {
        // Crowded, so that threes and fours are common.
        let b = crowded(rule, &picks);
        // Shallow to deep (a failure must not be taken for a deeper
        // one), then deep to shallow (it must be taken for every
        // shallower one).
        let mut warm = Engine::new(b.clone());
        for (vcf, vct) in [(1, 0), (3, 1), (6, 2), (10, 3), (6, 2), (3, 1), (1, 0)] {
            let fresh = Engine::new(b.clone()).threat_answers(vcf, vct, true);
            prop_assert_eq!(warm.threat_answers(vcf, vct, false), fresh, "vcf {} vct {}: {:?}", vcf, vct, b.moves());
        }
    }
}

/// Does the side to move of `b` win within three plies (a plain
/// reference by the rules alone): a stone after which the game is won,
/// or the opponent has no five of its own and cannot block every five
/// of ours (two of them, or one on a point forbidden to it)?
pub(super) fn wins_by_two_fives(b: &FiveBoard) -> bool {
    let me = b.to_move();
    let fives = |c: &FiveBoard, who: Color| -> Vec<Point> {
        c.points().filter(|&w| c.wins_at(w, who)).collect()
    };
    b.legal_moves().any(|s| {
        let mut c = b.clone();
        match c.play(s) {
            Ok(Some(Outcome::Win(w))) => return w == me,
            Ok(Some(Outcome::Draw)) | Err(_) => return false,
            Ok(None) => {}
        }
        if !fives(&c, me.other()).is_empty() {
            return false;
        }
        match fives(&c, me).as_slice() {
            [] => false,
            [f] => !c.is_legal(*f),
            _ => true,
        }
    })
}

#[test]
fn every_move_the_answers_to_a_three_leave_out_loses() {
    // Dense random games near the centre of a 9x9 board under each rule
    // (a fixed generator); wherever the opponent threatens two fives and
    // the answers are cut to our fours and its four points, every other
    // legal move that makes no five of ours lets the opponent win by two
    // fives (the plain reference above).
    let mut fired = 0;
    for b in dense_games(29, 300, 9, 1, (5, 14)) {
        let rule = b.rule();
        let e = Engine::new(b.clone());
        let me = b.to_move();
        if !e.fives(me).is_empty() || !e.fives(me.other()).is_empty() {
            continue;
        }
        let Some(answers) = e.answers_to_three() else {
            continue;
        };
        fired += 1;
        let left_out: Vec<Point> = b.legal_moves().filter(|p| !answers.contains(p)).collect();
        // The cut keeps at most WIDTH answers: when it dropped some, the
        // moves left out need not all lose.
        let all: usize = e
            .valuation()
            .four_points(me)
            .chain(e.valuation().four_points(me.other()))
            .filter(|&p| b.is_legal(p))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if all > WIDTH {
            continue;
        }
        for m in left_out {
            let mut c = b.clone();
            if c.play(m).unwrap().is_some() || c.points().any(|w| c.wins_at(w, me)) {
                continue;
            }
            assert!(
                wins_by_two_fives(&c),
                "{rule:?} {:?}: {m:?} was left out and does not lose",
                b.moves()
            );
        }
    }
    assert!(fired >= 5, "the cut fired {fired} times");
}

#[test]
fn a_three_s_defences_asked_of_its_own_line_are_those_asked_of_every_line() {
    // Dense random positions under freestyle and exactly five, and
    // renju's White threes: wherever a stone has a straight four to
    // make, the defences found by asking only the defending stone's line
    // are those found by asking every line.
    let mut asked = 0;
    for b in dense_games(41, 150, 11, 2, (8, 20)) {
        let rule = b.rule();
        let mut e = Engine::new(b.clone());
        for at in b.points().filter(|&p| b.stone(p).is_some()) {
            let color = b.stone(at).unwrap();
            if rule == Rule::Renju && color == Color::Black {
                continue;
            }
            let lines = e.straight_four_lines(at, color);
            if lines == [false; 4] {
                continue;
            }
            asked += 1;
            assert_eq!(
                e.defences_asking(at, color, lines, false),
                e.defences_asking(at, color, lines, true),
                "{rule:?} {color:?} at {at:?}: {:?}",
                b.moves()
            );
        }
    }
    assert!(asked >= 50, "asked {asked} times");
}

#[test]
fn the_move_in_hand_is_half_the_best_point_of_the_side_to_move() {
    let text = "
        ...........
        ...........
        ...........
        ...........
        ...........
        ...XXX.....
        ....O......
        ....O......
        ...........
        ...........
        ...........";
    for (to_move, rule) in [(X, Rule::Exact), (O, Rule::Exact), (X, Rule::Freestyle)] {
        let (e, _) = engine(rule, to_move, text);
        let best = e
            .valuation()
            .proposed()
            .map(|p| e.valuation().value(p, to_move))
            .max()
            .unwrap();
        assert!(best > 0);
        assert_eq!(e.move_in_hand(), best / 2, "{to_move:?} {rule:?}");
    }
    // The same stones, the other side to move: the pattern sums differ by
    // the two sides' moves in hand, not only by their sign.
    let (x, _) = engine(Rule::Exact, X, text);
    let (o, _) = engine(Rule::Exact, O, text);
    let (x, o) = (x.with_leaf_weights(None), o.with_leaf_weights(None));
    assert_eq!(
        x.evaluate() + o.evaluate(),
        x.move_in_hand() + o.move_in_hand() + x.tempo_win() + o.tempo_win()
    );
    // Under Pente the capture in hand plays this part.
    let (e, _) = engine(Rule::Pente, X, text);
    assert_eq!(e.move_in_hand(), 0);
}

/// From a game against Rapfi (exactly five, White to move): White wins
/// by threes and fours in 17 moves, a VCT that needs depth 6; depth 4
/// finds none.
pub(super) const DEEP_VCT: &str = "
        ...............
        ...............
        ...............
        .....O.........
        ......X........
        .......X.......
        ..X.....X......
        ...OX..........
        ...OOX.........
        .....O.........
        ...............
        ...............
        ...............
        ...............
        ...............";

#[test]
fn the_root_vct_deepens_to_vct_depth_while_its_share_lasts() {
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let choose_with = |vct_depth: u32, max_nodes: Option<u64>| {
        let (mut e, _) = engine(Rule::Exact, O, DEEP_VCT);
        let mut l = limits(&zero, &stop);
        l.vcf_depth = 16;
        l.vct_depth = vct_depth;
        l.max_nodes = max_nodes;
        let (p, why) = e.choose(&l).expect("a move");
        (e, p, why)
    };
    let (_, _, why) = choose_with(SAFETY_VCT_DEPTH, None);
    assert!(!matches!(why, Reason::Vct(_)), "{why:?}");
    let (e, p, why) = choose_with(SAFETY_VCT_DEPTH + 2, None);
    let Reason::Vct(line) = why else {
        panic!("{why:?}")
    };
    assert_eq!(p, line[0]);
    assert!(line_wins(&e, &line), "{line:?}");
    // The same depth allowed, but a node budget whose VCT share (a
    // quarter) ends inside the deeper search: the search plays instead.
    let (_, _, why) = choose_with(SAFETY_VCT_DEPTH + 2, Some(100_000));
    assert!(matches!(why, Reason::Search { .. }), "{why:?}");
    let (_, _, why) = choose_with(SAFETY_VCT_DEPTH + 2, Some(1_000_000));
    assert!(matches!(why, Reason::Vct(_)), "{why:?}");
}

#[test]
fn late_moves_are_reduced_by_one_then_two_plies_from_depth_three() {
    assert_eq!(crate::five::search::reduction(2, 10), 0);
    assert_eq!(crate::five::search::reduction(3, 2), 0);
    assert_eq!(crate::five::search::reduction(3, 3), 1);
    assert_eq!(crate::five::search::reduction(6, 7), 1);
    assert_eq!(crate::five::search::reduction(6, 8), 2);
}

/// A middle game of exactly five, Black to move: stones on both sides,
/// twos and no three, so that the main search decides.
const MIDDLE_GAME: &str = "
    ...............
    ...............
    ...............
    ...............
    ...............
    .....O.........
    ......X..O.....
    .....XO........
    ....O.X.X......
    .......O.......
    ...............
    ...............
    ...............
    ...............
    ...............";

/// The depth the main search finishes within `nodes`, with late moves
/// reduced or not.
fn depth_within(nodes: u64, reductions: bool) -> u32 {
    let (mut e, _) = engine(Rule::Exact, X, MIDDLE_GAME);
    e.reductions = reductions;
    e.search_candidates(30, Some(nodes), 1 << 16);
    e.finished_depth
}

#[test]
fn reducing_late_moves_reaches_deeper_on_the_same_nodes() {
    // 5 and 6 plies when written; 7 and 8 on 60,000 nodes.
    let full = depth_within(10_000, false);
    let reduced = depth_within(10_000, true);
    assert!(full >= 3, "the full search reaches depth {full}");
    assert!(reduced > full, "reduced {reduced}, full {full}");
}

#[test]
fn reductions_change_no_score_to_depth_three_and_keep_a_forced_win() {
    // To depth 3 nothing is reduced: the same score as the full search.
    for depth in 1..=3 {
        let (mut a, _) = engine(Rule::Exact, X, MIDDLE_GAME);
        let (mut b, _) = engine(Rule::Exact, X, MIDDLE_GAME);
        b.reductions = false;
        assert_eq!(a.score_at(depth, 1 << 16), b.score_at(depth, 1 << 16));
    }
    // The VCF above (two fours, then a double four) is a win at depth
    // 6, reduced or not: a four's answer is forced, and forced moves are
    // never reduced.
    for reductions in [true, false] {
        let (mut e, _) = engine(Rule::Freestyle, X, VCF);
        e.reductions = reductions;
        assert!(e.score_at(6, 1 << 16) > WIN / 2, "reductions {reductions}");
    }
}

/// The main search over the middle game's candidates, Black to move,
/// to `max_depth` within `nodes` (`None`: no limit): its move, the depth
/// it reports, the deepest iteration it finished and the nodes it spent.
fn middle_game_search(max_depth: u32, nodes: Option<u64>) -> (Point, u32, u32, u64) {
    let (mut e, _) = engine(Rule::Exact, X, MIDDLE_GAME);
    let (p, _, depth) = e.search_candidates(max_depth, nodes, 1 << 16);
    (p, depth, e.finished_depth, e.nodes)
}

#[test]
fn a_move_that_beats_the_last_choice_in_a_stopped_iteration_is_played() {
    // An iteration that changes the choice, searched without a limit.
    let (depth, before, n_before, n_after) = (4..=9)
        .find_map(|d| {
            let (a, _, _, na) = middle_game_search(d - 1, None);
            let (b, _, _, nb) = middle_game_search(d, None);
            (a != b).then_some((d, a, na, nb))
        })
        .expect("an iteration that changes the choice");
    // Stopped at budgets through that iteration: the last iteration's
    // choice until another move has been searched through and beaten
    // it, then a move that beat it, at every larger budget too (the
    // search is the same up to the smaller budget's stop).
    let mut overtaken_from = None;
    for k in 0..48 {
        let budget = n_before + 1 + (n_after - n_before) * k / 48;
        let (p, reported, finished, _) = middle_game_search(depth, Some(budget));
        if finished == depth {
            // The clock is read every few nodes: the iteration may end
            // just past the budget.
            continue;
        }
        assert_eq!(finished, depth - 1, "budget {budget}");
        if reported == depth {
            assert_ne!(p, before, "budget {budget}");
            overtaken_from.get_or_insert(k);
        } else {
            assert_eq!((p, reported), (before, depth - 1), "budget {budget}");
            assert!(
                overtaken_from.is_none(),
                "budget {budget}: back to the old choice"
            );
        }
    }
    assert!(
        overtaken_from.is_some(),
        "no stopped iteration of depth {depth} played another move"
    );
}

/// Black's two open threes cross at the mark: Black there makes two
/// fours at once, and White's one answer to that is to take it (a stone
/// at an end of one line leaves that line's other four). The
/// depth-first safety check, which reads Black's threats two deep,
/// leaves that one move; the proof-number check finds Black's slower
/// wins after it as well, and every move lost.
const ONE_DEFENCE: &str = "
    ...............
    ...............
    ...............
    ...............
    ......X........
    ......X........
    ......X........
    ...XXX*........
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn the_one_defence_the_safety_check_leaves_is_played_without_a_search() {
    let (mut e, marks) = engine(Rule::Freestyle, O, ONE_DEFENCE);
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let l = limits(&zero, &stop);
    let before = e.hash();
    let (p, why) = e.choose(&l).expect("a move");
    assert_eq!((p, why), (marks[0], Reason::OnlyDefence));
    // The choice leaves the engine's position as it found it.
    assert_eq!(e.hash(), before);
    // A search over that one move would have chosen it too.
    let (q, _, depth) = e.search(&[p], &l);
    assert_eq!((q, depth), (p, l.max_depth));
    // With the proof-number check every move is lost here, and the
    // search chooses among them as before.
    let (mut e, _) = engine(Rule::Freestyle, O, ONE_DEFENCE);
    let mut l = limits(&zero, &stop);
    l.proof_search = true;
    let (_, why) = e.choose(&l).expect("a move");
    assert!(
        matches!(why, Reason::Search { defends: true, .. }),
        "{why:?}"
    );
}

/// The predictor is off by default: the engine orders by the pattern
/// values alone unless given one.
#[test]
fn the_predictor_is_off_by_default() {
    for rule in [Rule::Exact, Rule::Renju, Rule::Freestyle, Rule::Pente] {
        let e = Engine::new(FiveBoard::new(15, rule).unwrap());
        assert!(e.predictor.is_none(), "{rule:?}");
    }
}

/// Black's two on the edge, a white and a black stone below them: the
/// patterns propose points on the edge and inside.
const LINE_ON_THE_EDGE: &str = "
    .XX......
    ..O......
    ...X.....
    .........
    .........
    .........
    .........
    .........
    .........
";

/// The predictor reorders the head of the values' order: a table that
/// makes a point of the third line (feature `edge 2`) far the strongest
/// puts the proposed points of that line first, in the values' order
/// among themselves,
/// and the rest after them in the values' order; without a predictor the
/// order is the values' alone. The teams the predictor is fitted on rank
/// the points as that order does.
#[test]
fn the_predictor_orders_the_candidates() {
    let (e, _) = engine(Rule::Exact, Color::Black, LINE_ON_THE_EDGE);
    let plain = e.predictor_teams();
    let by_value: Vec<Point> = e.with_predictor(None).candidates();
    let (e, _) = engine(Rule::Exact, Color::Black, LINE_ON_THE_EDGE);
    // The teams come in the values' order (all legal here) with their
    // rank in it.
    let team_points: Vec<Point> = plain.iter().map(|&(p, _)| p).collect();
    assert_eq!(team_points, by_value);
    for (k, (_, f)) in plain.iter().enumerate() {
        assert_eq!(f[6], (k as u32).min(crate::five::predictor::RANK_MAX));
    }
    let mut gammas = vec![std::collections::HashMap::new(); crate::five::predictor::GROUP_COUNT];
    gammas[4].insert(2u32, 1000.0f32);
    let table: &'static Predictor = Box::leak(Box::new(Predictor::from_gammas(gammas)));
    let e = e.with_predictor(Some(table));
    let ordered = e.candidates();
    let on_edge = |p: &Point| p.i.min(p.j).min(8 - p.i).min(8 - p.j) == 2;
    let edge: Vec<Point> = by_value.iter().copied().filter(on_edge).collect();
    let inner: Vec<Point> = by_value.iter().copied().filter(|p| !on_edge(p)).collect();
    assert!(!edge.is_empty() && !inner.is_empty(), "{by_value:?}");
    assert_eq!(ordered, [edge, inner].concat());
    assert_ne!(ordered, by_value);
}

/// How many times the packed candidate order was compared with the
/// general one (and found equal) on `e`'s position, each side to move,
/// at a width of 1, a node's and all.
fn packed_against_general<G: FiveGeometry>(e: &mut Engine<G>) -> usize {
    let mut compared = 0;
    for _ in 0..2 {
        for width in [1, WIDTH, usize::MAX] {
            if let Some(packed) = e.best_candidates_packed(width) {
                assert_eq!(packed, e.best_candidates_general(width, false));
                compared += 1;
            }
        }
        e.pass();
    }
    compared
}

#[test]
fn the_packed_candidate_order_is_the_general_one() {
    // Dense random positions under the three rules: the packed path
    // every search node takes gives the same candidates in the same
    // order as the general path.
    let compared: usize = dense_games(7, 90, 15, 3, (4, 40))
        .into_iter()
        .map(|b| packed_against_general(&mut Engine::new(b)))
        .sum();
    assert!(compared >= 500, "compared {compared} times");
}

#[test]
fn the_packed_candidate_order_is_the_general_one_on_the_hexagon() {
    // The contest's engine (no salt) takes the packed path too: random
    // positions on the contest's hexagon.
    use mkpat::geometry::Hexagon;
    let mut next = picker(11);
    let mut compared = 0;
    for game in 0..40 {
        let rule = [Rule::Freestyle, Rule::Exact][game % 2];
        let mut b = FiveBoard::hexagon(crate::hexagon::CONTEST_SIDE, rule).unwrap();
        let stones = 4 + next(30);
        while b.stone_count() < stones {
            let legal: Vec<Point> = b.legal_moves().collect();
            if b.play(legal[next(legal.len())]).unwrap().is_some() {
                b.undo();
                break;
            }
        }
        compared += packed_against_general(&mut Engine::<Hexagon>::on(b));
    }
    assert!(compared >= 200, "compared {compared} times");
}

/// Stones crowded into the middle of an 11x11 board from `picks`, the
/// game stopped before a five.
fn crowded(rule: Rule, picks: &[prop::sample::Index]) -> FiveBoard {
    let mut b = FiveBoard::new(11, rule).unwrap();
    for pick in picks {
        let near: Vec<Point> = b
            .legal_moves()
            .filter(|p| (2..9).contains(&p.i) && (2..9).contains(&p.j))
            .collect();
        if near.is_empty() {
            break;
        }
        if b.play(near[pick.index(near.len())]).unwrap().is_some() {
            b.undo();
            break;
        }
    }
    b
}

/// The built-in database with one value a kind (its two kinds of two
/// made alike), and the leaf table that weighs each kind's matches at
/// that value for both sides with half the best point in hand: the
/// pattern sums written as a leaf table.
#[cfg(feature = "compiler")]
fn sums_as_a_table() -> (Arc<FiveDatabase>, LeafWeights) {
    let text = include_str!("../../../patterns/five.db");
    assert!(text.contains(":line,two,90,70"), "two-split's values moved");
    let text = text.replace(":line,two,90,70", ":line,two,100,80");
    let db = Arc::new(FiveDatabase::compile("one value a kind", text.as_bytes()).unwrap());
    let mut table = String::from("move-in-hand 50\n");
    for line in text.lines().filter_map(|l| l.strip_prefix(":line,")) {
        let fields: Vec<&str> = line.split(',').collect();
        let entry = format!("{} {} {}\n", fields[0], fields[1], fields[1]);
        if !table.contains(&entry) {
            table.push_str(&entry);
        }
    }
    (db, LeafWeights::parse(&table).unwrap())
}

#[cfg(feature = "compiler")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A leaf table is the pattern sums' generalisation: with each kind
    /// weighed at the database's one value for it, on both sides, and
    /// half the best point in hand, every position scores as by the sums.
    #[test]
    fn a_table_of_the_database_values_scores_as_the_pattern_sums(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 3..30),
        rule in prop::sample::select(vec![Rule::Freestyle, Rule::Exact, Rule::Renju]),
    ) {
        let (db, table) = sums_as_a_table();
        let table: &'static LeafWeights = Box::leak(Box::new(table));
        let b = crowded(rule, &picks);
        let sums = Engine::with_database(b.clone(), db.clone());
        let leaf = Engine::with_database(b, db).with_leaf_weights(Some(table));
        prop_assert_eq!(sums.leaf, None);
        prop_assert_eq!(leaf.evaluate(), sums.evaluate());
    }
}

#[test]
fn exact_five_and_renju_score_their_leaves_by_their_builtin_tables_and_the_rest_by_the_sums() {
    let b = |rule| {
        let (mut b, _) = diagram(
            rule,
            "
        ...........
        ...........
        ...........
        ....O......
        ...XXO.....
        ...OX......
        ....X......
        ...........
        ...........
        ...........
        ...........",
        );
        b.set_to_move(X);
        b
    };
    let table = LeafWeights::builtin(Rule::Exact).unwrap();
    let e = Engine::new(b(Rule::Exact));
    assert_eq!(e.leaf, Some(table));
    let sums = Engine::new(b(Rule::Exact)).with_leaf_weights(None);
    assert_ne!(e.evaluate(), sums.evaluate());
    // Its score: each kind's matches at the table's weights.
    let me = e.game.to_move();
    let by_hand: i64 = Kind::ALL
        .iter()
        .map(|&k| {
            table.mine(k) * e.valuation.kind_total(me, k)
                - table.theirs(k) * e.valuation.kind_total(me.other(), k)
        })
        .sum::<i64>()
        + e.valuation.best_value(me).unwrap() * table.move_in_hand / 100;
    // And each empty point's class for either side, read point by point.
    let points: i64 = e
        .game
        .points()
        .flat_map(|p| {
            let mine = e
                .valuation
                .class(p, me)
                .map(|c| table.point_mine[c as usize]);
            let theirs = e
                .valuation
                .class(p, me.other())
                .map(|c| table.point_theirs[c as usize]);
            [mine.unwrap_or(0), -theirs.unwrap_or(0)]
        })
        .sum();
    assert!(
        table.reads_points() && points != 0,
        "the diagram has classed points"
    );
    assert_eq!(e.evaluate(), by_hand + points + e.tempo_win());
    // Renju has its own table; freestyle has none yet, nor has another
    // database or a personality's re-weighing of the built-in one.
    let renju = Engine::new(b(Rule::Renju));
    assert_eq!(renju.leaf, LeafWeights::builtin(Rule::Renju));
    assert_ne!(renju.leaf, Some(table));
    assert_eq!(Engine::new(b(Rule::Freestyle)).leaf, None);
    let builtin = FiveDatabase::builtin();
    let reweighed = builtin
        .with_personality(builtin.overlay().clone(), 0)
        .unwrap();
    assert_eq!(
        Engine::with_database(b(Rule::Exact), Arc::new(reweighed)).leaf,
        None
    );
}

#[test]
fn only_an_engine_whose_leaves_read_point_classes_keeps_them_and_a_new_table_switches_them() {
    let game = |rule| {
        let (mut b, _) = diagram(
            rule,
            "
        .........
        .........
        ...O.....
        ..XXO....
        ..OX.....
        ...X.....
        .........
        .........
        .........",
        );
        b.set_to_move(X);
        b
    };
    let exact = LeafWeights::builtin(Rule::Exact).unwrap();
    assert!(exact.reads_points());
    assert!(Engine::new(game(Rule::Exact)).valuation.keeps_classes());
    // Renju's table reads kinds alone; freestyle reads no table.
    assert!(!Engine::new(game(Rule::Renju)).valuation.keeps_classes());
    assert!(!Engine::new(game(Rule::Freestyle)).valuation.keeps_classes());
    // Pente and the hexagon read no table, whatever they are given.
    let pente = Engine::new(game(Rule::Pente)).with_leaf_weights(Some(exact));
    assert!(!pente.valuation.keeps_classes());
    // A table given later switches the classes on or off, and the
    // switched engine scores as one built that way from the start.
    let mut renju = Engine::new(game(Rule::Renju)).with_leaf_weights(Some(exact));
    assert!(renju.valuation.keeps_classes());
    let from_scratch = Valuation::with_lines(renju.db.lines().unwrap(), &renju.board);
    assert!(renju.valuation.same_classes_as(&from_scratch));
    assert!(renju.valuation.same_values_as(&from_scratch));
    // And keeps them as moves come and go.
    for p in [Point::new(4, 4), Point::new(2, 5), Point::new(6, 3)] {
        assert!(renju.make(p));
    }
    let after = Valuation::with_lines(renju.db.lines().unwrap(), &renju.board);
    assert!(renju.valuation.same_classes_as(&after));
    let off = Engine::new(game(Rule::Exact)).with_leaf_weights(None);
    assert!(!off.valuation.keeps_classes());
    assert!(PointClass::ALL
        .iter()
        .all(|&c| off.valuation.class_total(X, c) == 0));
}
