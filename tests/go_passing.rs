//! Passing is the search's decision: pinned positions where passing
//! loses and where it is right, under every rule set.
//!
//! Each position states its premise (who wins if the game ends now, by
//! which count) before the engine's decision is checked, so a test
//! cannot pass for the wrong reason.

#[path = "support/go_boards.rs"]
mod go_boards;
use go_boards::{settled_with_row5, SETTLED};
use katachi::go::rules::{RuleSet, Scoring, RULE_SETS};
use katachi::go::search::SearchOptions;
use katachi::go::{Decision, Game, Move};
use katachi::position::{Color, Point};

/// A game from a diagram (`X` black, `O` white, `.` empty; spaces
/// ignored) as setup stones, under `rules`, komi 7.5, searching with
/// `playouts`.
fn game(rows: &[&str], rules: RuleSet, playouts: u32) -> Game {
    let rows: Vec<String> = rows.iter().map(|r| r.replace(' ', "")).collect();
    let mut g = Game::new(rows.len());
    g.set_komi(7.5);
    g.set_rules(rules);
    g.seed(5);
    let mut stones = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            let c = match ch {
                'X' => Color::Black,
                'O' => Color::White,
                _ => continue,
            };
            stones.push((c, Point::new(i as i32, j as i32)));
        }
    }
    g.setup(&stones).expect("a legal diagram");
    g.set_search(Some(SearchOptions {
        playouts,
        resign_threshold: 0.0,
        ..SearchOptions::default()
    }));
    g
}

/// [`SETTLED`] with a dead white stone in each of black's territories.
fn invaded() -> [&'static str; 9] {
    settled_with_row5("O . X O . X O . .")
}

#[test]
fn after_the_opponent_passes_a_won_settled_game_is_ended() {
    for rules in RULE_SETS {
        let mut g = game(&SETTLED, rules, 500);
        g.play(Color::White, Move::Pass).unwrap();
        assert!(g.score() > 0.0 && g.final_score(&g.dead_stones()) > 0.0);
        assert_eq!(
            g.decide(Color::Black),
            Decision::Move(Move::Pass),
            "{rules}: black wins by passing"
        );
    }
}

#[test]
fn dead_stones_are_captured_where_the_count_needs_it_and_not_where_it_costs() {
    for rules in RULE_SETS {
        let mut g = game(&invaded(), rules, 800);
        g.play(Color::White, Move::Pass).unwrap();
        let dead = g.dead_stones();
        // Premise: counting every stone (Tromp–Taylor) black loses, with
        // the two dead stones taken off black wins.
        assert!(g.score() < 0.0, "{rules}: {}", g.score());
        if rules.removes_dead() {
            assert_eq!(dead, [Point::new(4, 0), Point::new(4, 3)], "{rules}");
            assert!(g.final_score(&dead) > 0.0, "{rules}");
        } else {
            assert!(dead.is_empty());
        }
        let d = g.decide(Color::Black);
        if rules == RuleSet::Japanese {
            // Territory: every move in one's own area costs a point, and
            // the dead stones are black's prisoners anyway.
            assert_eq!(d, Decision::Move(Move::Pass), "{rules}");
        } else {
            // Area: a referee counting every stone would give white the
            // game, and capturing costs nothing: black plays on.
            assert!(matches!(d, Decision::Move(Move::Play(_))), "{rules}: {d:?}");
        }
    }
}

#[test]
fn a_string_in_atari_is_saved_rather_than_passed_away() {
    // Black A5-E5 and white A4-E4 each have one liberty (F5, F4): black
    // to move captures at F4 or kills by F5; a pass lets white capture
    // five stones and win.
    let rows = [
        ". . . . . . O",
        "O O O O O . .",
        "X X X X X . .",
        "O O O O O . .",
        "X X X X X X .",
        ". . . . . . .",
        ". . . . . . .",
    ];
    let f4 = Move::Play(Point::new(3, 5));
    let f5 = Move::Play(Point::new(2, 5));
    for rules in RULE_SETS {
        let mut g = game(&rows, rules, 1500);
        g.set_komi(0.5);
        let d = g.decide(Color::Black);
        assert!(
            d == Decision::Move(f4) || d == Decision::Move(f5),
            "{rules}: black must win the race, not {d:?}"
        );
    }
}

#[test]
fn an_invasion_is_answered() {
    // White has just played E5 inside black's area; with komi 20.5 black
    // wins only if it dies, and a pass gives white a second move there.
    let mut rows: Vec<&str> = vec![". . . . . X O . ."; 9];
    rows[4] = ". . . . . X O . .";
    for rules in RULE_SETS {
        let mut g = game(&rows, rules, 1500);
        g.set_komi(20.5);
        g.play(Color::White, Move::Play(Point::new(4, 2))).unwrap();
        let d = g.decide(Color::Black);
        assert!(
            matches!(d, Decision::Move(Move::Play(_))),
            "{rules}: black must answer the invasion, not {d:?}"
        );
    }
}

#[test]
fn a_lost_game_under_area_scoring_is_played_on_not_passed_away() {
    // SETTLED with a komi of 30.5: black's 54 points to white's 27 lose
    // by 3.5 whatever black does, and every point left is inside a
    // territory. Passing gains nothing under area scoring, and gives
    // white a free move: black plays on (here, into white's area), as
    // a human behind on the board tries before resigning.
    for rules in RULE_SETS {
        if rules.scoring() != Scoring::Area {
            continue;
        }
        let mut g = game(&SETTLED, rules, 1000);
        g.set_komi(30.5);
        // Premise: the game ends lost for black by either count.
        assert!(g.score() < 0.0 && g.final_score(&g.dead_stones()) < 0.0);
        let d = g.decide(Color::Black);
        assert!(
            matches!(d, Decision::Move(Move::Play(_))),
            "{rules}: black passed a lost game away: {d:?}"
        );
    }
}
