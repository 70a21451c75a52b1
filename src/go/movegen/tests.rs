use super::*;
use crate::go::Move;

/// A game whose starting position is drawn in rows of `.`, `X`
/// (black) and `O` (white).
fn game_from(rows: &[&str]) -> Game {
    let mut g = Game::new(rows.len());
    let mut stones = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            let p = Point::new(i as i32, j as i32);
            match ch {
                'X' => stones.push((Color::Black, p)),
                'O' => stones.push((Color::White, p)),
                _ => {}
            }
        }
    }
    g.setup(&stones).expect("legal setup");
    g
}

fn set(db: &str) -> PatternSet {
    PatternSet::compile("test.db", db.as_bytes()).expect("compiles")
}

fn best(e: &Evaluation) -> Point {
    e.best().expect("a move").point
}

#[test]
fn captures_a_big_string_in_atari_that_could_escape() {
    let g = game_from(&[
        ".........",
        ".........",
        ".........",
        "...OOO...",
        "..OXXX...",
        "...OOO...",
        ".........",
        ".........",
        ".........",
    ]);
    let e = evaluate(&g, Color::White, EvalOptions::default());
    let c = e.best().expect("a move");
    assert_eq!(c.point, Point::new(4, 6));
    assert!(c.reasons.iter().any(|r| matches!(
        r,
        Reason::Capture { stones: 3, value, .. } if *value == capture_value(3)
    )));
}

#[test]
fn saves_its_own_string_in_atari() {
    let g = game_from(&[
        ".........",
        ".........",
        ".........",
        "...XX....",
        "..XOO....",
        "...XX....",
        ".........",
        ".........",
        ".........",
    ]);
    let e = evaluate(&g, Color::White, EvalOptions::default());
    let c = e.best().expect("a move");
    assert_eq!(c.point, Point::new(4, 5));
    assert!(c
        .reasons
        .iter()
        .any(|r| matches!(r, Reason::Save { stones: 2, .. })));
}

#[test]
fn opens_on_a_4_4_or_3_3_point_not_a_filler() {
    let g = Game::new(9);
    let e = evaluate(&g, Color::Black, EvalOptions::default());
    let c = e.best().expect("a move");
    let line = |x: i32| x.min(8 - x);
    assert!(matches!(c.reasons[0], Reason::Opening { .. }), "{c:?}");
    assert!((2..=3).contains(&line(c.point.i)) && line(c.point.i) == line(c.point.j));
}

#[test]
fn takes_the_vital_point_of_a_critical_own_dragon() {
    // White's corner group has a three-point eye space: CRITICAL, its
    // middle point makes two eyes.
    let g = game_from(&[
        "...OX....",
        "OOOOX....",
        "XXXXX....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let e = evaluate(&g, Color::White, EvalOptions::default());
    let c = e.best().expect("a move");
    assert_eq!(c.point, Point::new(0, 1), "{c:?}");
    assert!(c.reasons.iter().any(|r| matches!(
        r,
        Reason::Dragon {
            mine: true,
            stones: 5,
            ..
        }
    )));
}

#[test]
fn dragon_change_values_gain_and_loss() {
    use super::super::dragons::Dragon;
    let d = |half_eyes, status| Dragon {
        color: Color::White,
        stones: vec![Point::new(0, 0), Point::new(0, 1)],
        half_eyes,
        room: 10,
        status,
    };
    let weak = d(2, DragonStatus::Unknown);
    assert!(dragon_change_value(&weak, &d(4, DragonStatus::Alive), true, 2) > 0);
    assert!(dragon_change_value(&weak, &d(3, DragonStatus::Unknown), true, 2) > 0);
    assert_eq!(
        dragon_change_value(&weak, &d(2, DragonStatus::Unknown), true, 2),
        0
    );
    assert!(dragon_change_value(&weak, &d(0, DragonStatus::Dead), false, 2) > 0);
    assert_eq!(
        dragon_change_value(&weak, &d(4, DragonStatus::Alive), false, 2),
        0
    );
}

const TWO: &str = "# pattern 1\n\nO.*     jump\n\n:8,W1,0,0,0,0,-,0,NULL\n\n\
                   # pattern 2\n\nO*      extend\n\n:8,W2,0,0,0,0,-,0,NULL\n";

#[test]
fn prefers_the_heavier_pattern() {
    let g = game_from(&[
        ".......", ".......", ".......", "...X...", ".......", ".......", ".......",
    ]);
    for (w1, w2, want) in [(50, 40, "1"), (40, 50, "2")] {
        let db = TWO
            .replace("W1", &w1.to_string())
            .replace("W2", &w2.to_string());
        let s = set(&db);
        let e = evaluate_with(&g, Color::Black, &s, EvalOptions::default());
        let c = e.best().expect("a move");
        assert_eq!(c.value, 50);
        match &c.reasons[0] {
            Reason::Pattern(p) => {
                assert_eq!(p.name, want);
                assert_eq!((p.weight, p.assistance, p.bonus, p.value), (50, 0, 0, 50));
            }
            r => panic!("{r:?}"),
        }
        let far = (c.point.i - 3).abs() + (c.point.j - 3).abs();
        assert_eq!(far, if want == "1" { 2 } else { 1 });
    }
}

#[test]
fn class_o_rejects_a_match_on_a_dead_own_dragon() {
    let g = game_from(&[
        ".........",
        ".........",
        ".........",
        "....XX...",
        "...XO....",
        "....XX...",
        ".........",
        ".........",
        ".........",
    ]);
    let dead = Point::new(4, 4);
    let judge = GoJudge::new(g.goban());
    assert_eq!(judge.dragons().status(dead), DragonStatus::Dead);
    let jump = |class: &str| {
        set(&format!(
            "# pattern 1\n\nO.*\n\n:8,60,0,0,0,0,{class},0,NULL\n"
        ))
    };
    let e = evaluate_with(&g, Color::White, &jump("O"), EvalOptions::default());
    assert!(e
        .rejected
        .iter()
        .any(|r| r.point == Point::new(4, 6) && matches!(r.why, RejectReason::Class('O', _))));
    assert!(e.best().is_none_or(|c| c.value < 60));
    let e = evaluate_with(&g, Color::White, &jump("-"), EvalOptions::default());
    assert_eq!(best(&e), Point::new(4, 6));
    assert_eq!(e.candidates[0].value, 60);
}

#[test]
fn a_helper_returning_zero_rejects_the_match() {
    let s = set("# pattern 1\n\nX*\n\n:-,60,0,0,0,0,s,0,capture_helper\n");
    assert!(
        !s.warnings().iter().any(|w| w.contains("capture_helper")),
        "{:?}",
        s.warnings()
    );
    let free = game_from(&[".....", ".....", "..X..", ".....", "....."]);
    let e = evaluate_with(&free, Color::White, &s, EvalOptions::default());
    let helper_zero = e
        .rejected
        .iter()
        .filter(|r| r.why == RejectReason::Helper("capture_helper".into()))
        .count();
    assert_eq!(helper_zero, 4);
    assert!(e
        .candidates
        .iter()
        .all(|c| c.reasons.iter().all(|r| !matches!(r, Reason::Pattern(_)))));
    // In atari, the same match is accepted at the helper's value.
    let atari = game_from(&[".....", "..O..", ".OX..", "..O..", "....."]);
    let e = evaluate_with(&atari, Color::White, &s, EvalOptions::default());
    let c = e.best().expect("a move");
    assert_eq!(c.point, Point::new(2, 3));
    assert!(c.reasons.iter().any(|r| matches!(
        r,
        Reason::Pattern(p) if p.helper == Some(("capture_helper".into(), 40))
    )));
}

/// Whether the pattern named `name` is behind any candidate of `e`.
fn proposes(e: &Evaluation, name: &str) -> bool {
    e.candidates
        .iter()
        .flat_map(|c| &c.reasons)
        .any(|r| matches!(r, Reason::Pattern(p) if p.name == name))
}

#[test]
fn a_match_valued_zero_is_rejected_for_its_value() {
    let s = set("# pattern 1\n\nO*\n\n:-,0,0,0,0,0,-,0,NULL\n");
    let g = game_from(&[".....", ".....", "..O..", ".....", "....."]);
    let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
    let zero: Vec<_> = e
        .rejected
        .iter()
        .filter(|r| r.why == RejectReason::Value(0))
        .collect();
    assert_eq!(zero.len(), 4, "{:?}", e.rejected);
    assert_eq!(
        crate::go::explain::rejected_line(zero[0]),
        format!(
            "pattern 1 (transformation {}): valued 0, nothing to propose",
            zero[0].trans
        )
    );
}

#[test]
fn a_pattern_whose_helper_is_missing_is_a_warning_and_proposes_nothing() {
    let s = set("# pattern 1\n\nO*\n\n:-,60,0,0,0,0,-,0,no_such_helper\n\n\
                 # pattern 2\n\nO.*\n\n:-,30,0,0,0,0,-,0,NULL\n");
    let named = |w: &&String| w.contains("`no_such_helper`") && w.contains("left out");
    assert_eq!(
        s.warnings().iter().filter(named).count(),
        1,
        "{:?}",
        s.warnings()
    );
    let g = game_from(&[".....", ".....", "..O..", ".....", "....."]);
    let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
    // Pattern 2 two points away still proposes; pattern 1 next to the
    // stone is rejected for its helper wherever it matches.
    assert!(!proposes(&e, "1"));
    assert_eq!(e.candidates.iter().filter(|c| c.value == 30).count(), 4);
    let missing: Vec<_> = e
        .rejected
        .iter()
        .filter(|r| r.why == RejectReason::MissingHelper("no_such_helper".into()))
        .collect();
    assert_eq!(missing.len(), 4, "{:?}", e.rejected);
    assert!(crate::go::explain::rejected_line(missing[0])
        .ends_with("names helper no_such_helper, which katachi does not have"));
}

fn half_helper(ctx: &crate::go::position::HelperContext<'_>) -> i32 {
    ctx.weight / 2
}

#[test]
fn wind_and_an_engines_own_helper_value_matches() {
    // Pattern 1's helper (the engine's own, not katachi's) halves its
    // weight; pattern 2 adds wind: 80 + min(upower, 10).
    let db = "# pattern 1\n\nO*\n\n:-,30,0,0,0,0,-,0,half_helper\n\n\
              # pattern 2\n\nX*O\n\n:-,80,10,1,0,0,-,0,NULL\n";
    let registry: &[(&str, crate::go::position::HelperFn)] = &[("half_helper", half_helper)];
    let s = PatternSet::compile_with_helpers("scored.db", db.as_bytes(), registry).unwrap();
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    let g = game_from(&[
        ".........",
        ".........",
        "..O.X....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let e = evaluate_with(&g, Color::Black, &s, EvalOptions { all_patterns: true });
    let reasons: Vec<&PatternReason> = e
        .candidates
        .iter()
        .flat_map(|c| &c.reasons)
        .filter_map(|r| match r {
            Reason::Pattern(p) => Some(p),
            _ => None,
        })
        .collect();
    // Between the stones, the white stone at distance 1 gives upower 5.
    let wind = reasons.iter().find(|p| p.name == "2").expect("pattern 2");
    assert_eq!((wind.weight, wind.assistance, wind.value), (80, 5, 85));
    let c = e.best().expect("a move");
    assert_eq!((c.point, c.value), (Point::new(2, 3), 85));
    let halved = reasons.iter().find(|p| p.name == "1").expect("pattern 1");
    assert_eq!(halved.helper, Some(("half_helper".to_string(), 15)));
    assert_eq!(halved.value, 15);
    // The same database with katachi's helpers: the compiler's located
    // warning, and the pattern left out.
    let plain = set(db);
    assert_eq!(
        plain.warnings(),
        [
            "test.db: 1 warning(s) from the compiler",
            "pattern `1` names helper `half_helper`, which katachi does not have: \
             left out of move generation"
        ]
    );
    let e = evaluate_with(&g, Color::Black, &plain, EvalOptions { all_patterns: true });
    assert!(!proposes(&e, "1"));
    assert!(
        plain.diagnostics().contains("test.db:5:"),
        "{}",
        plain.diagnostics()
    );
}

#[test]
fn huge_weights_in_the_allowed_range_are_valued_and_never_pruned() {
    // Weight, cutoffs, values and bonus at the documented limit 100000:
    // the max weight is 100000 + 2·10^10 + 100000, far past i32.
    let s = set("# pattern 1\n\nO..\n.*.\n\n:8,50,0,0,0,0,-,0,NULL\n\n\
                 # pattern 2\n\nO.\n*.\n\n\
                 :8,100000,100000,100000,100000,100000,-,100000,NULL\n");
    let tables = s.tables();
    let (_, huge) = tables.pattern_named("2").unwrap();
    assert_eq!(huge.max_weight, 100_000 + 2 * 10_000_000_000 + 100_000);
    // Sorted first, as its max weight says.
    assert_eq!(&*tables.patterns[0].name, "2");
    let g = game_from(&[
        ".........",
        ".........",
        ".........",
        ".........",
        "....O....",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
    let c = e.best().expect("a move");
    let Some(Reason::Pattern(p)) = c.reasons.iter().find(|r| matches!(r, Reason::Pattern(_)))
    else {
        panic!("a pattern reason: {c:?}");
    };
    assert_eq!(p.name, "2");
    // 100000 + 100000·min(mypower, 100000), mypower 5 at distance 1.
    assert!(p.value >= 100_000 + 5 * 100_000, "{p:?}");
    // A power past i32 saturates instead of wrapping or panicking.
    assert_eq!(
        huge.values
            .go()
            .expect("a Go pattern")
            .assistance
            .value(i32::MAX, i32::MAX, 0),
        i32::MAX
    );
}

/// Positions of a self-play game on 9x9.
fn self_play_positions(seed: u64, moves: usize) -> Vec<(Game, Color)> {
    let mut g = Game::new(9);
    g.seed(seed);
    let mut out = Vec::new();
    let mut color = Color::Black;
    for _ in 0..moves {
        out.push((g.clone(), color));
        if g.genmove(color) == Move::Pass {
            break;
        }
        color = color.other();
    }
    out
}

#[test]
fn best_first_finds_the_best_move_of_all_patterns() {
    let mut pruned = 0;
    for (g, color) in self_play_positions(3, 70) {
        let fast = evaluate(&g, color, EvalOptions::default());
        let all = evaluate(&g, color, EvalOptions { all_patterns: true });
        assert_eq!(
            fast.best().map(|c| (c.point, c.value)),
            all.best().map(|c| (c.point, c.value))
        );
        assert_eq!(all.pruned, 0);
        assert!(all.candidates.len() >= fast.candidates.len());
        pruned += fast.pruned;
    }
    assert!(pruned > 0, "best-first never pruned anything");
}

#[test]
fn games_are_deterministic_for_a_seed() {
    let moves = |seed| -> Vec<Move> {
        let mut g = Game::new(9);
        g.seed(seed);
        let mut color = Color::Black;
        let mut out = Vec::new();
        for _ in 0..40 {
            out.push(g.genmove(color));
            color = color.other();
        }
        out
    };
    assert_eq!(moves(11), moves(11));
    assert_ne!(moves(11), moves(12));
}

#[test]
fn the_2_6_random_term_stays_in_its_range() {
    let s = set("Pattern R1\n\nO*\n\n:8,50,0,-,0,0,0,3,9,NULL\n");
    let g = game_from(&[".....", ".....", "..O..", ".....", "....."]);
    let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
    for c in &e.candidates {
        if let Reason::Pattern(p) = &c.reasons[0] {
            assert!((3..=9).contains(&p.bonus), "{p:?}");
            assert_eq!(p.value, 50 + p.bonus);
        }
    }
    let again = evaluate_with(&g, Color::White, &s, EvalOptions::default());
    assert_eq!(e, again);
}

/// A 19x19 game with `stones` (black, white) placed at GTP vertices.
fn game19(black: &[&str], white: &[&str]) -> Game {
    let mut stones = Vec::new();
    for (color, list) in [(Color::Black, black), (Color::White, white)] {
        for v in list {
            match crate::go::notation::parse_move(v, 19).expect("a vertex") {
                Move::Play(p) => stones.push((color, p)),
                Move::Pass => unreachable!("no pass in a setup"),
            }
        }
    }
    let mut g = Game::new(19);
    g.setup(&stones).expect("legal setup");
    g
}

/// The points with a reason matching `pick`, as sorted GTP vertices.
fn with_reason(e: &Evaluation, pick: impl Fn(&Reason) -> bool) -> Vec<String> {
    let mut v: Vec<String> = e
        .candidates
        .iter()
        .filter(|c| c.reasons.iter().any(&pick))
        .map(|c| crate::go::notation::format_move(Move::Play(c.point), 19))
        .collect();
    v.sort();
    v
}

#[test]
fn the_key_points_of_open_corners_are_candidates_on_a_big_board() {
    // Upper right: two stones, closed. Upper left: one white stone on the
    // 3-5 point (E17), so its 3-3 and lower 3-4 points are open, the
    // others touch it. Lower left and lower right: empty.
    let g = game19(&["Q16", "R14"], &["E17"]);
    let e = evaluate(&g, Color::Black, EvalOptions::default());
    let corners = with_reason(&e, |r| matches!(r, Reason::Corner { .. }));
    let want = [
        "C16", "C17", // upper left, away from E17
        "C3", "C4", "D3", "D4", // lower left
        "Q3", "Q4", "R3", "R4", // lower right
    ];
    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(corners, want);
    // An empty corner's 4-4 point is worth the most, its 3-3 the least;
    // a corner with one stone is worth a little less.
    let value = |v: &str| {
        e.candidates
            .iter()
            .find(|c| crate::go::notation::format_move(Move::Play(c.point), 19) == v)
            .map(|c| {
                c.reasons
                    .iter()
                    .find_map(|r| match r {
                        Reason::Corner { stones, value } => Some((*stones, *value)),
                        _ => None,
                    })
                    .expect("a corner reason")
            })
            .expect("a candidate")
    };
    assert_eq!(value("D4"), (0, 90));
    assert!(value("C4").1 < value("D4").1 && value("C3").1 < value("C4").1);
    assert_eq!(value("C16").0, 1);
    assert!(value("C16").1 < value("C4").1);
}

#[test]
fn the_middle_of_an_open_side_is_a_candidate_between_two_corners() {
    // Four 4-4 points: the sides are open between them, on the third and
    // fourth lines, around the middle point K (columns J to L are more
    // than four points from D and Q).
    let g = game19(&["D4", "Q16"], &["Q4", "D16"]);
    let e = evaluate(&g, Color::Black, EvalOptions::default());
    let sides = with_reason(&e, |r| matches!(r, Reason::OpenSide { .. }));
    let mut want: Vec<String> = [
        "K3", "K4", "K16", "K17", // bottom and top
        "C10", "D10", "Q10", "R10", // left and right
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    want.sort();
    assert_eq!(sides, want);
    assert!(with_reason(&e, |r| matches!(r, Reason::Corner { .. })).is_empty());
    let run = e
        .candidates
        .iter()
        .flat_map(|c| &c.reasons)
        .find_map(|r| match r {
            Reason::OpenSide { run, .. } => Some(*run),
            _ => None,
        });
    assert_eq!(run, Some(3), "J, K and L");
}

#[test]
fn boards_below_17x17_have_no_corner_or_side_reasons() {
    let fuseki = |r: &Reason| matches!(r, Reason::Corner { .. } | Reason::OpenSide { .. });
    for side in [9, 13, 15, 17, 19] {
        let mut g = Game::new(side);
        g.setup(&[(Color::Black, Point::new(2, 2))])
            .expect("legal setup");
        let e = evaluate(&g, Color::White, EvalOptions::default());
        let any = e.candidates.iter().flat_map(|c| &c.reasons).any(fuseki);
        assert_eq!(any, side >= FUSEKI_FROM_SIDE, "{side}x{side}");
    }
}
