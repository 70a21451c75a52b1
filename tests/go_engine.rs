//! The Go engine as the matcher's client: its [`GoJudge`] scores the
//! builtin database's matches (class letters through dragon statuses and
//! safe-move reading), and its [`Constraints`] evaluates GNU Go 2.6's
//! constraints at real matches — each evaluation leaving the position
//! exactly as it found it (every trial move undone).

use katachi::go::analysis::GoJudge;
use katachi::go::evaluation::{EvalOptions, Reason};
use katachi::go::movegen::evaluate;
use katachi::go::{Game, Move};
use katachi::matcher::Matcher;
use katachi::mkpat::tables::class;
use katachi::{Color, Point, Position};

/// A game of `moves` moves of `genmove` self-play on a `size` board.
fn self_play(size: usize, moves: usize, seed: u64) -> Game {
    let mut g = Game::new(size);
    g.seed(seed);
    let mut color = Color::Black;
    for _ in 0..moves {
        g.genmove(color);
        color = color.other();
    }
    g
}

#[test]
fn the_move_generator_values_builtin_matches_with_reading() {
    // Over several positions of several games: the builtin database is
    // small, and one position may have no match or only rejected ones.
    let mut accepted = 0;
    for (seed, moves) in (1..7).flat_map(|s| [(s, 30), (s, 45), (s, 60)]) {
        let mut game = self_play(13, moves, seed);
        let color = Color::Black;
        let before = game.goban().board().clone();
        let e = evaluate(&game, color, EvalOptions { all_patterns: true });
        assert_eq!(game.goban().board(), &before, "evaluation leaves the board");
        let (goban, reader) = game.parts();
        for c in &e.candidates {
            for r in &c.reasons {
                let Reason::Pattern(pr) = r else { continue };
                accepted += 1;
                let p = &katachi::go::builtin::TABLES.patterns[pr.pattern as usize];
                // Without class `s`, the move must be safe by reading.
                if p.values.go().is_some_and(|g| g.class & class::S == 0) {
                    assert!(reader.safe_move(goban, c.point, color), "{}", p.name);
                }
            }
        }
        // Every match the matcher finds is either valued or turned down.
        let matches = Matcher::new(katachi::go::builtin::TABLES).matches(&before, color);
        let rejected = e.rejected.iter().filter(|r| r.pattern.is_some()).count();
        let valued: usize = e
            .candidates
            .iter()
            .map(|c| {
                c.reasons
                    .iter()
                    .filter(|r| matches!(r, Reason::Pattern(_)))
                    .count()
            })
            .sum();
        assert_eq!(
            valued + rejected,
            matches.len(),
            "seed {seed}, move {moves}"
        );
    }
    assert!(accepted > 0, "some matches are accepted");
}

#[test]
fn judge_statuses_and_connection_values() {
    let mut game = Game::new(9);
    // Black lives in the top-left corner with two eyes, (0,0) and (0,2),
    // walled in by White along the third row; two lone black stones lie
    // at (6,4) and (6,6), one point apart.
    for (i, j) in [
        (0, 1),
        (1, 0),
        (1, 1),
        (0, 3),
        (1, 2),
        (1, 3),
        (0, 4),
        (1, 4),
    ] {
        game.play(Color::Black, Move::Play(Point::new(i, j)))
            .unwrap();
    }
    for (i, j) in [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (1, 5), (0, 5)] {
        game.play(Color::White, Move::Play(Point::new(i, j)))
            .unwrap();
    }
    game.play(Color::Black, Move::Play(Point::new(6, 6)))
        .unwrap();
    game.play(Color::Black, Move::Play(Point::new(6, 4)))
        .unwrap();
    let judge = GoJudge::new(game.goban());
    use katachi::go::score::{DragonStatus, Judge};
    let pos: &dyn Position = game.goban();
    assert_eq!(
        judge.dragon_status(pos, Point::new(1, 1)),
        DragonStatus::Alive
    );
    assert_eq!(
        judge.dragon_status(pos, Point::new(6, 6)),
        DragonStatus::Unknown
    );
    // White cannot play in Black's eye at (0,0); the open point (4,4) is
    // safe for White.
    assert!(!judge.safe_move(pos, Point::new(0, 0), Color::White));
    assert!(judge.safe_move(pos, Point::new(4, 4), Color::White));
    // (6,4) and (6,6) are one dragon already (a one-point jump), so the
    // point between them, (6,5), connects nothing for Black and cuts
    // nothing for White.
    assert_eq!(judge.connection_value(Point::new(6, 5), Color::Black), 0);
    assert_eq!(judge.cut_value(Point::new(6, 5), Color::White), 0);
}

#[cfg(feature = "gnugo26")]
#[test]
fn gnugo26_constraints_run_on_the_engine_and_leave_the_position_untouched() {
    use katachi::go::analysis::Constraints;
    use katachi::go::constraint::ConstraintContext;
    use katachi::go::gnugo26;
    use katachi::go::reading::Reader;
    let (mut accepted, mut rejected) = (0, 0);
    for seed in 1..4 {
        let mut game = self_play(19, 120, seed);
        let matcher = Matcher::new(gnugo26::TABLES);
        for color in [Color::Black, Color::White] {
            let matches = matcher.matches(game.goban().board(), color);
            let before = game.goban().board().clone();
            let hash = game.goban().position_hash();
            let (goban, reader): (_, &mut Reader) = game.parts();
            for m in matches {
                let Some(f) = gnugo26::CONSTRAINTS[m.pattern as usize] else {
                    continue;
                };
                let p = &gnugo26::PATTERNS[m.pattern as usize];
                let ctx =
                    ConstraintContext::new(m.anchor, m.trans, p.move_di.into(), p.move_dj.into());
                assert_eq!(ctx.move_point, m.move_point);
                let mut engine = Constraints::new(goban, reader, color);
                if f(&ctx, &mut engine) {
                    accepted += 1;
                } else {
                    rejected += 1;
                }
                assert_eq!(goban.position_hash(), hash, "{}", p.name);
            }
            assert_eq!(game.goban().board(), &before);
            game.goban().verify().unwrap();
        }
    }
    assert!(
        accepted > 0 && rejected > 0,
        "{accepted} accepted, {rejected} rejected"
    );
}
