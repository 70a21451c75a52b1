//! GTP sessions for the commands a controller expects beyond the core:
//! `final_status_list`, `kgs-genmove_cleanup`, `place_free_handicap`,
//! `set_free_handicap`, `kgs-time_settings`, `kgs-rules`, resignation,
//! the seed, and the rules' ko and suicide — each with bad arguments.
#![cfg(feature = "compiler")]

#[path = "support/go_boards.rs"]
mod go_boards;
use go_boards::{settled_with_row5, SETTLED};
use katachi::go::rules::RuleSet;
use katachi::go::search::SearchOptions;
use katachi::gtp::{Gtp, GtpOptions};

fn engine(playouts: u32, rules: RuleSet, seed: Option<u64>, resign: f32) -> Gtp {
    Gtp::with_options(GtpOptions {
        search: Some(SearchOptions {
            playouts,
            resign_threshold: resign,
            ..SearchOptions::default()
        }),
        rules,
        seed,
        ..GtpOptions::default()
    })
}

/// The response to `line`, checked for GTP's form: `=` or `?`, then the
/// text, then a blank line.
fn ask(g: &mut Gtp, line: &str) -> Result<String, String> {
    let r = g.handle_line(line.as_bytes()).expect("a response");
    assert!(r.ends_with("\n\n"), "{line}: {r:?}");
    let text = r[1..].trim().to_string();
    match r.as_bytes()[0] {
        b'=' => Ok(text),
        b'?' => Err(text),
        _ => panic!("{line}: {r:?}"),
    }
}

fn ok(g: &mut Gtp, line: &str) -> String {
    ask(g, line).unwrap_or_else(|e| panic!("`{line}` refused: {e}"))
}

/// Puts a 9x9 diagram on the board with `play` commands (`X` black, `O`
/// white; rows from the top, spaces ignored).
fn setup(g: &mut Gtp, rows: &[&str]) {
    ok(g, "boardsize 9");
    ok(g, "clear_board");
    let letters = "ABCDEFGHJ";
    for (i, row) in rows.iter().enumerate() {
        for (j, ch) in row.replace(' ', "").chars().enumerate() {
            let colour = match ch {
                'X' => "b",
                'O' => "w",
                _ => continue,
            };
            let v = format!("{}{}", &letters[j..=j], 9 - i);
            ok(g, &format!("play {colour} {v}"));
        }
    }
}

/// Black's walls on C and F with territory, white's on G ([`SETTLED`]);
/// dead white stones on A5 and D5, and a black one on J5.
fn finished() -> [&'static str; 9] {
    settled_with_row5("O . X O . X O . X")
}

#[test]
fn final_status_list_names_dead_alive_and_seki_strings() {
    let mut g = engine(200, RuleSet::Chinese, Some(1), 0.0);
    setup(&mut g, &finished());
    let dead = ok(&mut g, "final_status_list dead");
    let mut dead: Vec<&str> = dead.lines().collect();
    dead.sort();
    assert_eq!(dead, ["A5", "D5", "J5"]);
    let alive = ok(&mut g, "final_status_list alive");
    assert_eq!(alive.lines().count(), 3, "three walls: {alive}");
    assert!(alive.contains("C9 C8 C7 C6 C5 C4 C3 C2 C1"), "{alive}");
    assert_eq!(ok(&mut g, "final_status_list seki"), "");
    // Chinese count with the dead stones off: black 54, white 27 - 7.5.
    assert_eq!(ok(&mut g, "final_score"), "B+19.5");
    // Tromp–Taylor counts every stone: 19 black, 11 white, and no region
    // is bordered by one colour only.
    ok(&mut g, "kgs-rules tt");
    assert_eq!(ok(&mut g, "final_score"), "B+0.5");
    // A seki: the top two rows of a 5x5 board.
    ok(&mut g, "boardsize 5");
    for v in ["B5", "C5", "D5", "B3", "C3", "D3", "A3", "E3"] {
        ok(&mut g, &format!("play b {v}"));
    }
    for v in ["A4", "B4", "C4", "D4", "E4"] {
        ok(&mut g, &format!("play w {v}"));
    }
    let seki = ok(&mut g, "final_status_list seki");
    assert_eq!(seki, "B5 C5 D5\nA4 B4 C4 D4 E4", "{seki}");
    assert_eq!(ok(&mut g, "final_status_list dead"), "");
    for bad in [
        "final_status_list",
        "final_status_list zombie",
        "final_status_list dead alive",
    ] {
        assert_eq!(ask(&mut g, bad), Err("syntax error".into()), "{bad}");
    }
}

#[test]
fn territory_rules_count_prisoners_and_pass_when_ahead() {
    let mut g = engine(300, RuleSet::Japanese, Some(1), 0.0);
    setup(&mut g, &finished());
    // Territory: black 36 points and 2 prisoners, white 18 and 1, komi
    // 7.5 (= the area count 54 - 27 minus the stones played, 19 - 11).
    assert_eq!(ok(&mut g, "final_score"), "B+11.5");
    ok(&mut g, "play w pass");
    assert_eq!(ok(&mut g, "genmove b"), "pass");
}

#[test]
fn cleanup_captures_the_dead_stones_before_passing() {
    let mut g = engine(500, RuleSet::Chinese, Some(2), 0.0);
    setup(&mut g, &finished());
    ok(&mut g, "play w pass");
    // Chinese: black would win by passing with the dead stones counted
    // off, but a referee counting every stone would not: black plays on.
    // In the cleanup phase it must remove them, whatever the count.
    let mv = ok(&mut g, "kgs-genmove_cleanup b");
    assert_ne!(mv, "pass");
    assert_ne!(mv, "resign");
    for bad in [
        "kgs-genmove_cleanup",
        "kgs-genmove_cleanup purple",
        "kgs-genmove_cleanup b w",
    ] {
        assert_eq!(ask(&mut g, bad), Err("syntax error".into()), "{bad}");
    }
}

#[test]
fn free_handicap_is_placed_and_set() {
    let mut g = engine(100, RuleSet::Chinese, None, 0.0);
    ok(&mut g, "boardsize 19");
    assert_eq!(ok(&mut g, "place_free_handicap 4"), "D4 Q16 D16 Q4");
    assert_eq!(
        ask(&mut g, "place_free_handicap 2"),
        Err("board not empty".into())
    );
    ok(&mut g, "clear_board");
    // More than the fixed points: spread on the board, all distinct.
    let many = ok(&mut g, "place_free_handicap 12");
    let mut v: Vec<&str> = many.split_whitespace().collect();
    assert_eq!(v.len(), 12, "{many}");
    v.sort();
    v.dedup();
    assert_eq!(v.len(), 12, "{many}");
    ok(&mut g, "clear_board");
    for (bad, why) in [
        ("place_free_handicap", "syntax error"),
        ("place_free_handicap x", "syntax error"),
        ("place_free_handicap 1", "invalid number of stones"),
        ("place_free_handicap 0", "invalid number of stones"),
        ("place_free_handicap 400", "invalid number of stones"),
    ] {
        assert_eq!(ask(&mut g, bad), Err(why.into()), "{bad}");
    }
    ok(&mut g, "boardsize 9");
    for (bad, why) in [
        ("set_free_handicap", "syntax error"),
        ("set_free_handicap C3", "syntax error"),
        ("set_free_handicap C3 C3", "bad vertex list"),
        ("set_free_handicap C3 pass", "bad vertex list"),
        ("set_free_handicap C3 Z9", "invalid coordinate"),
    ] {
        assert_eq!(ask(&mut g, bad), Err(why.into()), "{bad}");
    }
    ok(&mut g, "set_free_handicap C3 G7 E5");
    assert_eq!(
        ask(&mut g, "set_free_handicap D4 E4"),
        Err("board not empty".into())
    );
    // The stones are black's and white moves next.
    let board = ok(&mut g, "showboard");
    assert_eq!(board.matches('X').count(), 3, "{board}");
    let mv = ok(&mut g, "genmove w");
    assert!(!["C3", "G7", "E5"].contains(&mv.as_str()), "{mv}");
    // undo cannot take the handicap back.
    ok(&mut g, "undo");
    assert_eq!(ask(&mut g, "undo"), Err("cannot undo".into()));
}

#[test]
fn kgs_time_settings_and_rules_are_read_and_checked() {
    let mut g = engine(50, RuleSet::Chinese, Some(3), 0.0);
    ok(&mut g, "boardsize 9");
    for good in [
        "kgs-time_settings none",
        "kgs-time_settings absolute 60",
        "kgs-time_settings byoyomi 0 1 5",
        "kgs-time_settings canadian 60 10 5",
        "kgs-time_settings BYOYOMI 10 0 0",
    ] {
        ok(&mut g, good);
    }
    for bad in [
        "kgs-time_settings",
        "kgs-time_settings absolute",
        "kgs-time_settings absolute -5",
        "kgs-time_settings byoyomi 1 2",
        "kgs-time_settings canadian 60 x 5",
        "kgs-time_settings none 5",
        "kgs-time_settings hourglass 60",
    ] {
        assert_eq!(ask(&mut g, bad), Err("syntax error".into()), "{bad}");
    }
    ok(&mut g, "kgs-time_settings byoyomi 0 1 5");
    ok(&mut g, "time_left b 1 5");
    let mv = ok(&mut g, "genmove b");
    assert!(mv.len() >= 2, "{mv}");
    for rules in ["japanese", "chinese", "aga", "new_zealand", "tromp-taylor"] {
        ok(&mut g, &format!("kgs-rules {rules}"));
    }
    assert_eq!(ask(&mut g, "kgs-rules ing"), Err("unknown rules".into()));
    assert_eq!(ask(&mut g, "kgs-rules"), Err("syntax error".into()));
    for cmd in [
        "final_status_list",
        "kgs-genmove_cleanup",
        "place_free_handicap",
        "set_free_handicap",
        "kgs-time_settings",
        "kgs-rules",
    ] {
        assert_eq!(ok(&mut g, &format!("known_command {cmd}")), "true");
        assert!(ok(&mut g, "list_commands").lines().any(|l| l == cmd));
    }
}

#[test]
fn superko_and_suicide_follow_the_rules() {
    for rules in [
        RuleSet::Chinese,
        RuleSet::Japanese,
        RuleSet::Aga,
        RuleSet::NewZealand,
        RuleSet::TrompTaylor,
    ] {
        let mut g = engine(50, rules, None, 0.0);
        ok(&mut g, "boardsize 5");
        // A ko at C3: black takes the white stone on B3.
        for m in [
            "play b B4",
            "play b A3",
            "play b B2",
            "play w C4",
            "play w B3",
            "play w C2",
            "play w D3",
            "play b C3",
        ] {
            ok(&mut g, m);
        }
        // The immediate retake is illegal under every rule set.
        assert_eq!(
            ask(&mut g, "play w B3"),
            Err("illegal move".into()),
            "{rules}"
        );
        // After two passes the ban of simple ko is over, but the retake
        // would recreate the position before black took: superko.
        ok(&mut g, "play w pass");
        ok(&mut g, "play b pass");
        let retake = ask(&mut g, "play w B3");
        if rules.superko() {
            assert_eq!(retake, Err("illegal move".into()), "{rules}");
        } else {
            assert_eq!(retake, Ok(String::new()), "{rules}");
        }

        // Suicide: black A2 with white on A3, B2 and B1; black A1 then
        // takes the last liberty of its own two stones (white's E5 makes
        // the position after it new).
        ok(&mut g, "clear_board");
        for m in [
            "play w A3",
            "play w B2",
            "play w B1",
            "play b A2",
            "play w E5",
        ] {
            ok(&mut g, m);
        }
        let r = ask(&mut g, "play b A1");
        if rules.suicide() {
            assert_eq!(r, Ok(String::new()), "{rules}");
            let board = ok(&mut g, "showboard");
            assert_eq!(board.matches('X').count(), 0, "{rules}: {board}");
        } else {
            assert_eq!(r, Err("illegal move".into()), "{rules}");
        }
        // A one-stone suicide leaves the position as it was: superko
        // forbids it wherever suicide is legal.
        ok(&mut g, "clear_board");
        for m in ["play w A2", "play w B1"] {
            ok(&mut g, m);
        }
        assert_eq!(
            ask(&mut g, "play b A1"),
            Err("illegal move".into()),
            "{rules}"
        );
    }
}

#[test]
fn a_lost_game_is_resigned_unless_resignation_is_off() {
    // White's 27 points against black's 54, komi 0: lost for white.
    let rows = SETTLED;
    let mut g = engine(400, RuleSet::Chinese, Some(1), 0.05);
    setup(&mut g, &rows);
    ok(&mut g, "komi 0");
    assert_eq!(ok(&mut g, "genmove w"), "resign");
    let mut g = engine(400, RuleSet::Chinese, Some(1), 0.0);
    setup(&mut g, &rows);
    ok(&mut g, "komi 0");
    assert_ne!(ok(&mut g, "genmove w"), "resign");
}

#[test]
fn the_seed_varies_the_games_and_repeats_them() {
    let moves = |seed: u64| {
        let mut g = engine(60, RuleSet::Chinese, Some(seed), 0.0);
        ok(&mut g, "boardsize 9");
        (0..6)
            .map(|i| ok(&mut g, if i % 2 == 0 { "genmove b" } else { "genmove w" }))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(1), moves(1));
    assert!(
        (2..6).any(|s| moves(s) != moves(1)),
        "different seeds play different games"
    );
}
