//! The Go move predictor: its features against the board's symmetries,
//! the built-in table, the search that uses it, and `katachi
//! learn-moves` end to end.

use std::path::Path;
use std::process::Command;

use katachi::go::fastboard::FastBoard;
use katachi::go::game::{Game, Move};
use katachi::go::predictor::{
    canonical_shape, distance_bucket, legal_features, lines_of, nearest_stones, point_features,
    raw_features, raw_shape, transform, Context, Predictor, GROUPS, GROUP_COUNT, NONE,
};
use katachi::go::search::{search, SearchOptions};
use katachi::position::{Color, Point, Position};
use proptest::prelude::*;

/// A random legal game of `moves` moves on a board of side `n`: its
/// moves, as points.
fn random_game(n: usize, moves: usize, seed: u64) -> Vec<Point> {
    let mut b = FastBoard::new(n);
    let mut state = seed;
    let mut out = Vec::new();
    let mut c = 1u8;
    for _ in 0..moves {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let r = katachi::seeding::splitmix(state);
        let legal: Vec<u16> = b
            .empty_points()
            .iter()
            .copied()
            .filter(|&k| b.is_legal(k, c) && !b.is_eye(k, c))
            .collect();
        if legal.is_empty() {
            break;
        }
        let k = legal[(r % legal.len() as u64) as usize];
        b.play(k, c);
        out.push(b.point(k));
        c = 3 - c;
    }
    out
}

fn play_all(n: usize, moves: &[Point], t: usize) -> FastBoard {
    let mut b = FastBoard::new(n);
    for (i, &p) in moves.iter().enumerate() {
        let q = image(n, p, t);
        let c = if i % 2 == 0 { 1 } else { 2 };
        b.play(b.index(q), c);
    }
    b
}

/// Point `p` of a board of side `n` under symmetry `t`.
fn image(n: usize, p: Point, t: usize) -> Point {
    let m = (n as i32 - 1) / 2;
    // Symmetries act on offsets from the centre (n odd).
    let (a, b) = transform(t, p.i - m, p.j - m);
    Point::new(a + m, b + m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every feature of every point is the same on the board turned or
    /// mirrored: the predictor cannot tell a shape from its images.
    #[test]
    fn features_do_not_depend_on_the_board_s_orientation(
        seed in any::<u64>(), moves in 0usize..60, t in 0usize..8
    ) {
        let n = 9;
        let game = random_game(n, moves, seed);
        let a = play_all(n, &game, 0);
        let b = play_all(n, &game, t);
        let c = if game.len() % 2 == 0 { 1 } else { 2 };
        let last = |board: &FastBoard, t: usize, back: usize| {
            game.len().checked_sub(back).map(|i| board.index(image(n, game[i], t)))
        };
        let (mut na, mut nb) = (Vec::new(), Vec::new());
        nearest_stones(&a, &mut na);
        nearest_stones(&b, &mut nb);
        let ca = Context { last: last(&a, 0, 1), last2: last(&a, 0, 2), nearest: &na };
        let cb = Context { last: last(&b, t, 1), last2: last(&b, t, 2), nearest: &nb };
        for i in 0..n as i32 {
            for j in 0..n as i32 {
                let p = Point::new(i, j);
                let (ka, kb) = (a.index(p), b.index(image(n, p, t)));
                prop_assert_eq!(a.is_legal(ka, c), b.is_legal(kb, c));
                if !a.is_legal(ka, c) {
                    continue;
                }
                prop_assert_eq!(
                    canonical_shape(raw_shape(&a, ka, c)),
                    canonical_shape(raw_shape(&b, kb, c))
                );
                prop_assert_eq!(point_features(&a, ka, c, &ca), point_features(&b, kb, c, &cb));
            }
        }
    }

    /// The raw-key lookup the search uses gives the strength of the
    /// canonical features the table was fitted on.
    #[test]
    fn raw_strengths_are_canonical_strengths(seed in any::<u64>(), moves in 0usize..80) {
        let n = 19;
        let game = random_game(n, moves, seed);
        let b = play_all(n, &game, 0);
        let c = if game.len() % 2 == 0 { 1 } else { 2 };
        let mut near = Vec::new();
        nearest_stones(&b, &mut near);
        let ctx = Context {
            last: game.last().map(|&p| b.index(p)),
            last2: None,
            nearest: &near,
        };
        let table = Predictor::builtin();
        let mut legal = Vec::new();
        legal_features(&b, c, &ctx, &mut legal);
        for (k, f) in legal {
            let raw = table.strength_raw(&raw_features(&b, k, c, &ctx));
            prop_assert!((raw / table.strength(&f) - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn features_say_what_they_name() {
    // Black stones at C3 (2,2) and C4 (3,2) on 9x9... a white stone in
    // atari at D3 (2,3) next to them.
    let mut b = FastBoard::new(9);
    let at = |i, j| Point::new(i, j);
    for (p, c) in [(at(2, 2), 1), (at(2, 3), 2), (at(1, 3), 1), (at(3, 3), 1)] {
        b.play(b.index(p), c);
    }
    let mut near = Vec::new();
    nearest_stones(&b, &mut near);
    let ctx = Context {
        last: Some(b.index(at(3, 3))),
        last2: None,
        nearest: &near,
    };
    // Black captures at E3 (2,4): one stone, no own string in atari.
    let f = point_features(&b, b.index(at(2, 4)), 1, &ctx);
    assert_eq!(f[4], 1, "capture of one stone");
    assert_eq!(
        f[1],
        distance_bucket(&b, b.index(at(2, 4)), b.index(at(3, 3)))
    );
    assert_eq!(f[1], 3, "a diagonal step is Coulom's distance 3");
    assert_eq!(f[2], NONE);
    assert_eq!(f[8], 1, "next to a stone");
    assert_eq!(f[3], lines_of(&b, b.index(at(2, 4))));
    // White's extension at E3 escapes to two liberties? D3 has one
    // liberty (E3); playing there gives the string E3, F3, E2, E4...
    let f = point_features(&b, b.index(at(2, 4)), 2, &ctx);
    assert_eq!(f[4], NONE);
    assert_eq!(f[5], 2, "three liberties and more after the escape");
    // The corner point A1 is on the edge twice.
    assert_eq!(lines_of(&b, b.index(at(0, 0))), 0);
}

#[test]
fn the_builtin_table_holds_every_group_and_prefers_good_shape() {
    let t = Predictor::builtin();
    assert!(t.len() > 500, "{} strengths", t.len());
    // Next to the last move is far likelier than far from it.
    assert!(t.gamma(1, 2) > 5.0 * t.gamma(1, 17));
    // Capturing a string that saves an own one beats a quiet point; a
    // self-atari of a big string is rare.
    assert!(t.gamma(4, 0) > 1.0);
    assert!(t.gamma(6, 1) < t.gamma(6, 0));
    for (g, name) in GROUPS.iter().enumerate().take(GROUP_COUNT) {
        let values = (0..400u32).filter(|&v| t.gamma(g, v) != 1.0).count();
        assert!(g == 0 || values > 0, "group {name} has no strength");
    }
}

#[test]
fn the_search_with_the_predictor_plays_legal_deterministic_moves() {
    let mut game = Game::new(19);
    for (c, p) in [
        (Color::Black, Point::new(3, 15)),
        (Color::White, Point::new(15, 3)),
        (Color::Black, Point::new(15, 15)),
    ] {
        game.play(c, Move::Play(p)).unwrap();
    }
    let opts = SearchOptions {
        playouts: 300,
        predictor: Some(Predictor::builtin()),
        ..SearchOptions::default()
    };
    let eval = katachi::go::movegen::evaluate(&game, Color::White, game.eval_options());
    let a = search(&game, Color::White, &eval, opts).unwrap();
    let b = search(&game, Color::White, &eval, opts).unwrap();
    assert_eq!(a.best, b.best);
    let Move::Play(p) = a.best else {
        panic!("passed on a nearly empty board")
    };
    assert!(game.goban().stone(p).is_none());
    // The likeliest root move is opened first: it has visits.
    assert!(a.children.iter().filter(|c| c.visits > 0).count() >= 2);
}

/// A game record in SGF of the given moves.
fn sgf(n: usize, moves: &[Point]) -> String {
    let mut s = format!("(;GM[1]FF[4]SZ[{n}]KM[7.5]");
    for (i, p) in moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(
            ";{c}[{}{}]",
            (b'a' + p.j as u8) as char,
            (b'a' + p.i as u8) as char
        ));
    }
    s.push_str(")\n");
    s
}

#[path = "support/cli.rs"]
mod cli;
use cli::{katachi, text};

#[test]
fn learn_moves_fits_writes_keeps_a_backup_and_measures() {
    let dir = tempfile_dir("learn");
    let games = dir.join("games");
    std::fs::create_dir_all(games.join("sub")).unwrap();
    for g in 0..8u64 {
        let folder = if g % 2 == 0 {
            games.clone()
        } else {
            games.join("sub")
        };
        let moves = random_game(9, 40, g);
        std::fs::write(folder.join(format!("g{g}.SGF")), sgf(9, &moves)).unwrap();
    }
    std::fs::write(games.join("other.sgf"), sgf(13, &random_game(13, 10, 99))).unwrap();
    std::fs::write(games.join("broken.sgf"), "(;SZ[9];B[zz])").unwrap();
    let table = dir.join("t.gamma");
    let t = table.to_str().unwrap();
    let g = games.to_str().unwrap();
    let args = [
        "learn-moves",
        "-o",
        t,
        "--size",
        "9",
        "--holdout",
        "2",
        "--every",
        "1",
        g,
    ];
    let out = katachi(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("2 held out, 6 fitted on"), "{err}");
    assert!(err.contains("1 of another size, 1 unreadable"), "{err}");
    assert!(
        text(&out.stdout).contains("held out: "),
        "{}",
        text(&out.stdout)
    );
    let first = std::fs::read_to_string(&table).unwrap();
    let p = Predictor::parse(&first).unwrap();
    assert!(p.len() > 10);
    // Same input, same bytes; the earlier table kept as a backup.
    let again = katachi(&args);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&table).unwrap(), first);
    assert_eq!(
        std::fs::read_to_string(dir.join("t.gamma.bak")).unwrap(),
        first
    );
    // Measuring a table on held-out games.
    let m = katachi(&[
        "learn-moves",
        "--table",
        t,
        "--size",
        "9",
        "--holdout",
        "3",
        g,
    ]);
    assert!(m.status.success(), "{}", text(&m.stderr));
    assert!(text(&m.stdout).contains("held out: "));
    // A bad table: every bad line, with its place and a caret.
    let bad = dir.join("bad.gamma");
    std::fs::write(&bad, "last 2 1.5\nshape zz 1\nlast 3 -2\n").unwrap();
    let b = katachi(&[
        "learn-moves",
        "--table",
        bad.to_str().unwrap(),
        "--size",
        "9",
        g,
    ]);
    assert!(!b.status.success());
    let e = text(&b.stderr);
    assert!(e.contains("bad.gamma:2:7: expected a shape key"), "{e}");
    assert!(
        e.contains("bad.gamma:3:8: expected a strength above zero"),
        "{e}"
    );
    assert!(e.contains('^'), "{e}");
    // Nothing to read.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let n = katachi(&["learn-moves", "-o", t, empty.to_str().unwrap()]);
    assert!(!n.status.success());
    assert!(text(&n.stderr).contains("no .sgf file"));
    // A file named on the command line is read whatever its name; one
    // that is not there is reported, and nothing is fitted.
    let gone = dir.join("gone.txt");
    let m = katachi(&[
        "learn-moves",
        "-o",
        t,
        "--holdout",
        "0",
        gone.to_str().unwrap(),
    ]);
    assert!(!m.status.success());
    let e = text(&m.stderr);
    assert!(
        e.contains("gone.txt") && e.contains("no position to fit on"),
        "{e}"
    );
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("go_predictor_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn gtp_plays_by_a_table_given_at_run_time_and_refuses_a_bad_one() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = tempfile_dir("gtp");
    // A table that makes the 3-3 point's lines (2, 2) overwhelmingly
    // likely: the root opens it first, and with a few playouts it is
    // the move.
    let lines = 2 * 7 + 2;
    let table = dir.join("t.gamma");
    std::fs::write(&table, format!("lines {lines} 1e6\n")).unwrap();
    let run = |extra: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_katachi"))
            .args(["gtp", "--playouts", "40", "--no-corners", "--seed", "1"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A refused table ends the process before it reads: the write
        // may then find the pipe closed.
        let _ = child
            .stdin
            .take()
            .unwrap()
            .write_all(b"boardsize 19\nclear_board\nplay b K10\nplay w K14\ngenmove b\nquit\n");
        child.wait_with_output().unwrap()
    };
    let out = run(&["--predictor-table", table.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    let mv = said
        .split('=')
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or_default()
        .to_string();
    assert!(["C3", "C17", "R3", "R17"].contains(&mv.as_str()), "{said}");
    std::fs::write(&table, "lines 16 1e6\nlast x 2\n").unwrap();
    let bad = run(&["--predictor-table", table.to_str().unwrap()]);
    assert!(!bad.status.success());
    let e = text(&bad.stderr);
    assert!(e.contains("t.gamma:2:6: expected a feature value"), "{e}");
}

#[test]
fn below_17x17_the_predictor_changes_nothing() {
    for size in [9, 13] {
        let mut game = Game::new(size);
        for (i, p) in random_game(size, 12, size as u64).into_iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            game.play(c, Move::Play(p)).unwrap();
        }
        let with = SearchOptions {
            playouts: 400,
            ..SearchOptions::default()
        };
        assert!(with.predictor.is_some(), "on by default");
        let without = SearchOptions {
            predictor: None,
            ..with
        };
        let eval = katachi::go::movegen::evaluate(&game, Color::Black, game.eval_options());
        let a = search(&game, Color::Black, &eval, with).unwrap();
        let b = search(&game, Color::Black, &eval, without).unwrap();
        assert_eq!(a.best, b.best, "{size}x{size}");
        let visits = |r: &katachi::go::search::SearchResult| {
            r.children
                .iter()
                .map(|c| (c.mv, c.visits))
                .collect::<Vec<_>>()
        };
        assert_eq!(visits(&a), visits(&b), "{size}x{size}");
    }
}
