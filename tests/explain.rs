//! The tuning workflow end to end: SGF positions under `tests/data/sgf/`
//! (hand-made 9x9 games) loaded at a move, explained, recorded, counted.
//!
//! The explanations are pinned with insta snapshots: one of an evaluation
//! built by hand (so the renderer's every line is fixed whatever the move
//! generator decides), and ones of the move generator's real verdicts.
#![cfg(feature = "compiler")]

use katachi::go::evaluation::{
    Candidate, EvalOptions, Evaluation, PatternReason, Reason, RejectReason, Rejected,
};
use katachi::go::explain::{self, Context};
use katachi::go::Move;
use katachi::gtp::Gtp;
use katachi::position::{Color, Point};
use katachi::sgf;
use katachi::tuning::{Evaluator, HitCounter};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/sgf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ctx(color: Color, top: usize) -> Context<'static> {
    Context {
        tables: katachi::go::builtin::TABLES,
        db: "patterns/patterns.db",
        color,
        top,
        all_patterns: true,
    }
}

/// Builtin pattern `name`'s index and line.
fn pattern(name: &str) -> (u32, u32) {
    let (k, p) = katachi::go::builtin::TABLES.pattern_named(name).unwrap();
    (k as u32, p.line)
}

#[test]
fn a_hand_made_evaluation_renders_term_by_term() {
    let loaded = sgf::load(&data("fight.sgf"), None).unwrap();
    assert_eq!(loaded.to_move, Color::Black);
    let (k, line) = pattern("21");
    let eval = Evaluation {
        candidates: vec![
            Candidate {
                point: Point::new(3, 5), // F6
                value: 56,
                reasons: vec![Reason::Pattern(PatternReason {
                    pattern: k,
                    name: "21".into(),
                    line,
                    trans: 3,
                    anchor: Point::new(4, 4), // E5
                    weight: 70,
                    assistance: 0,
                    bonus: 0,
                    helper: Some(("connect_helper".into(), 56)),
                    classes: vec!['C'],
                    connection: 0,
                    value: 56,
                })],
            },
            Candidate {
                point: Point::new(5, 5), // F4
                value: 40,
                reasons: vec![Reason::Save {
                    // Black's lone stone F5, which White's E5 touches.
                    string: Point::new(4, 5),
                    stones: 1,
                    value: 40,
                }],
            },
        ],
        rejected: vec![
            Rejected {
                // Pattern 34 is of class `O`: Black's own dragon there
                // must not be dead.
                point: Point::new(5, 5),
                pattern: Some("34".into()),
                trans: 0,
                why: RejectReason::Class('O', "the dragon at F5 is dead".into()),
            },
            Rejected {
                point: Point::new(0, 0),
                pattern: None,
                trans: 0,
                why: RejectReason::Illegal,
            },
        ],
        pruned: 0,
    };
    let text = explain::explain(&eval, loaded.game.goban(), &ctx(Color::Black, 5));
    insta::assert_snapshot!("hand_made", text);
    assert!(text.contains("needs +17 to beat the chosen move"), "{text}");
    // The GoGui views of the same verdict.
    let dboard = explain::values_dboard(&eval, 9);
    assert_eq!(dboard.lines().count(), 9);
    assert_eq!(dboard.lines().nth(3).unwrap(), "0 0 0 0 0 56 0 0 0");
    let sboard = explain::values_sboard(&eval, 9);
    assert_eq!(
        sboard.lines().nth(5).unwrap(),
        r#""" "" "" "" "" 40 "" "" """#
    );
    let at = explain::patterns_at(
        &eval,
        Point::new(5, 5),
        loaded.game.goban(),
        &ctx(Color::Black, 1),
    );
    assert!(at.starts_with("F4: value 40, needs +17"), "{at}");
    assert!(at.contains("rejected: pattern 34 (transformation 0): class `O` failed"));
    assert_eq!(
        explain::labels(&eval, false),
        vec![
            (Point::new(3, 5), "56".to_string()),
            (Point::new(5, 5), "40".to_string())
        ]
    );
}

#[test]
fn the_move_generator_explained_on_hand_made_games() {
    let evaluator = Evaluator::builtin();
    for (file, until) in [
        ("capture.sgf", None),
        ("fight.sgf", None),
        ("handicap.sgf", Some(4)),
    ] {
        let loaded = sgf::load(&data(file), until).unwrap();
        let game = loaded.game;
        let eval = evaluator.evaluate(&game, loaded.to_move, EvalOptions { all_patterns: true });
        let text = explain::explain(&eval, game.goban(), &ctx(loaded.to_move, 3));
        insta::assert_snapshot!(format!("real_{}", file.trim_end_matches(".sgf")), text);
    }
}

#[test]
fn capture_is_explained_by_its_pattern() {
    let evaluator = Evaluator::builtin();
    let loaded = sgf::load(&data("capture.sgf"), None).unwrap();
    let game = loaded.game;
    let eval = evaluator.evaluate(&game, Color::Black, EvalOptions { all_patterns: true });
    let best = eval.best().expect("a move");
    assert_eq!(best.point, Point::new(4, 5), "F5 captures E5");
    assert!(best
        .reasons
        .iter()
        .any(|r| matches!(r, Reason::Pattern(p) if p.name == "1")));
}

#[test]
fn loading_at_move_n_with_handicap_and_passes() {
    let text = data("handicap.sgf");
    let l = sgf::load(&text, Some(1)).unwrap();
    assert_eq!((l.moves, l.to_move, l.handicap), (0, Color::White, 2));
    assert_eq!(l.setup.len(), 2);
    // Move 3 is W's pass, move 6 B[tt], a pass too.
    let l = sgf::load(&text, Some(7)).unwrap();
    assert_eq!(l.moves, 6);
    assert_eq!(l.to_move, Color::White);
    assert_eq!(l.game.history()[2], (Color::White, Move::Pass));
    assert_eq!(l.game.history()[5], (Color::Black, Move::Pass));
    assert_eq!(l.total_moves, 7);
}

#[test]
fn hits_count_matches_and_the_moves_behind_them() {
    let evaluator = Evaluator::builtin();
    let mut counter = HitCounter::new(katachi::go::builtin::TABLES);
    counter
        .add_game(&data("capture.sgf"), |g, c| {
            evaluator.evaluate(g, c, EvalOptions { all_patterns: true })
        })
        .unwrap();
    assert_eq!(counter.positions, 6);
    // Every count is consistent: played/chosen at most once a position,
    // a pattern in a position at least once.
    for (name, h) in &counter.counts {
        assert!(h.positions <= h.matches, "{name}");
        assert!(h.played <= h.positions && h.chosen <= h.positions, "{name}");
    }
    let total_chosen: u64 = counter.counts.values().map(|h| h.chosen).sum();
    assert!(total_chosen <= counter.positions * 2);
    // The TSV reads back with mkpat's reader (extra columns ignored).
    let tsv = counter.to_tsv();
    let back = mkpat::hits::Hits::parse_tsv(&tsv).unwrap();
    assert_eq!(back.positions, Some(6));
    assert_eq!(
        back.counts.len(),
        katachi::go::builtin::TABLES.patterns.len()
    );
    for (name, c) in &back.counts {
        let h = counter.counts[name];
        assert_eq!((c.matches, c.positions), (h.matches, h.positions));
    }
    assert!(counter.table().starts_with("6 positions;"));
}

#[test]
fn hits_refuse_a_game_with_a_late_setup_and_count_nothing_of_it() {
    let evaluator = Evaluator::builtin();
    let mut counter = HitCounter::new(katachi::go::builtin::TABLES);
    // Stones set up after move 2: a replay from the start would miss them.
    let text = "(;GM[1]FF[4]SZ[9];B[ee];W[cc];AB[gg][gc];W[cg])";
    let err = counter
        .add_game(text, |g, c| {
            evaluator.evaluate(g, c, EvalOptions { all_patterns: true })
        })
        .unwrap_err();
    assert!(err.contains("set up (AB/AW) after move 2"), "{err}");
    assert_eq!(
        counter.positions, 0,
        "nothing of the refused game is counted"
    );
    assert!(counter.counts.values().all(|h| h.matches == 0));
}

#[test]
fn hit_counter_on_a_hand_made_evaluation() {
    let mut counter = HitCounter::new(katachi::go::builtin::TABLES);
    let reason = |name: &str, value| {
        Reason::Pattern(PatternReason {
            pattern: 0,
            name: name.into(),
            line: 1,
            trans: 0,
            anchor: Point::new(0, 0),
            weight: value,
            assistance: 0,
            bonus: 0,
            helper: None,
            classes: Vec::new(),
            connection: 0,
            value,
        })
    };
    let eval = Evaluation {
        candidates: vec![
            Candidate {
                point: Point::new(1, 1),
                value: 30,
                reasons: vec![reason("1", 30), reason("2", 20), reason("2", 10)],
            },
            Candidate {
                point: Point::new(2, 2),
                value: 20,
                reasons: vec![reason("2", 20)],
            },
        ],
        rejected: Vec::new(),
        pruned: 0,
    };
    counter.add(&eval, Move::Play(Point::new(2, 2)));
    counter.add(&eval, Move::Pass);
    let h1 = counter.counts["1"];
    let h2 = counter.counts["2"];
    assert_eq!(
        (h1.matches, h1.positions, h1.played, h1.chosen),
        (2, 2, 0, 2)
    );
    assert_eq!(
        (h2.matches, h2.positions, h2.played, h2.chosen),
        (6, 2, 1, 2)
    );
    assert_eq!(counter.agreed, 0);
}

/// Sends GTP lines, returns the responses.
fn gtp(g: &mut Gtp, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .map(|l| g.handle_line(format!("{l}\n").as_bytes()).unwrap())
        .collect()
}

#[test]
fn gtp_tuning_commands() {
    let path = format!("{}/tests/data/sgf/capture.sgf", env!("CARGO_MANIFEST_DIR"));
    let mut g = Gtp::new();
    let load = format!("loadsgf {path}");
    let r = gtp(
        &mut g,
        &[
            &load,
            "gogui-analyze_commands",
            "katachi-values black",
            "katachi-value-labels b",
            "katachi-patterns-at b F5",
            "7 katachi-explain black 2",
            "katachi-explain",
            "katachi-patterns-at b pass",
            "loadsgf /nonexistent/file.sgf",
            "list_commands",
        ],
    );
    assert_eq!(r[0], "= black\n\n");
    assert!(r[1].starts_with("= dboard/Candidate values/katachi-values %c\n"));
    assert!(r[1].contains("\nstring/Patterns at point/katachi-patterns-at %c %p"));
    // dboard: status line, then nine rows of nine numbers.
    let rows: Vec<&str> = r[2].trim_end().lines().skip(1).collect();
    assert_eq!(r[2].lines().next(), Some("="));
    assert_eq!(rows.len(), 9, "{}", r[2]);
    for row in &rows {
        let nums: Vec<i64> = row.split(' ').map(|v| v.parse().unwrap()).collect();
        assert_eq!(nums.len(), 9);
    }
    assert!(rows[4].split(' ').nth(5).unwrap().parse::<i64>().unwrap() > 0);
    let labels: Vec<&str> = r[3].trim_end().lines().skip(1).collect();
    assert_eq!(labels.len(), 9);
    assert!(r[4].starts_with("= F5: value"), "{}", r[4]);
    assert!(r[4].contains("pattern 1 "), "{}", r[4]);
    assert!(r[5].starts_with("=7 black to move on 9x9"), "{}", r[5]);
    assert!(r[5].contains("chosen move: F5"), "{}", r[5]);
    assert_eq!(r[6], "? syntax error\n\n");
    assert_eq!(r[7], "? syntax error\n\n");
    assert!(r[8].starts_with("? cannot load file"), "{}", r[8]);
    for c in ["katachi-explain", "gogui-analyze_commands", "loadsgf"] {
        assert!(r[9].lines().any(|l| l.trim_start_matches("= ") == c), "{c}");
    }
}

#[test]
fn gtp_records_the_game_with_labels() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.sgf");
    let input = "boardsize 9\nkomi 5.5\nplay b E5\ngenmove w\ngenmove b\nplay w pass\nundo\nquit\n";
    let options = katachi::gtp::GtpOptions {
        record: Some(out.clone()),
        all_patterns: true,
        ..Default::default()
    };
    let mut reply = Vec::new();
    katachi::gtp::run_with(input.as_bytes(), &mut reply, options).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    // It parses, replays and carries the labels of the generated moves.
    let nodes = sgf_parse::go::parse(&text).unwrap();
    let root = &nodes[0];
    let line: Vec<_> = root.main_variation().collect();
    assert_eq!(
        line.len(),
        4,
        "root + 3 moves (the pass was undone): {text}"
    );
    let labelled = line
        .iter()
        .filter(|n| {
            n.properties()
                .any(|p| matches!(p, sgf_parse::go::Prop::LB(l) if !l.is_empty()))
        })
        .count();
    assert_eq!(labelled, 2, "both generated moves are labelled: {text}");
    let loaded = sgf::load(&text, None).unwrap();
    assert_eq!(loaded.moves, 3);
    assert_eq!(loaded.game.komi(), 5.5);
    // The record is replaced atomically: no temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["game.sgf"], "only the record in its folder");
}

/// On 19x19 the opening's big points say why they are candidates: the
/// open corners with how many stones they hold, the open sides with the
/// length of their stretch.
#[test]
fn corners_and_open_sides_are_explained() {
    let loaded = sgf::load("(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp])", None).unwrap();
    let game = loaded.game;
    let eval = Evaluator::builtin().evaluate(&game, Color::Black, EvalOptions::default());
    let text = explain::explain(&eval, game.goban(), &ctx(Color::Black, 12));
    assert!(
        text.contains("corner: a 4-4, 3-4 or 3-3 point of a corner with no stone, value 90"),
        "{text}"
    );
    assert!(
        text.contains("open side: the middle of 11 open point(s) on the third or fourth line"),
        "{text}"
    );
    // The two corners with a 4-4 stone offer nothing: every key point
    // touches it.
    let best = eval.best().expect("a move").point;
    let far = |p: Point, q: Point| (p.i - q.i).abs().max((p.j - q.j).abs()) > 7;
    assert!(
        far(best, Point::new(3, 15)) && far(best, Point::new(15, 3)),
        "{best:?}"
    );
}
