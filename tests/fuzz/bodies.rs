//! The bodies of katachi's fuzz targets, shared by two runners:
//!
//! - `tests/fuzz/fuzz_targets/*.rs`, the coverage-guided libFuzzer targets
//!   that `tests/fuzz/run.sh` builds with `cargo fuzz` (see
//!   `tests/fuzz/README.md`);
//! - `tests/fuzz_corpora.rs`, an ordinary test that runs every body over
//!   its seed corpus and over every input a fuzzing run ever found
//!   (`tests/fuzz/regressions/<target>/`), on stable Rust, in CI.
//!
//! A body takes arbitrary bytes and drives one reader of hostile input the
//! way a user's file or peer would. It panics exactly when katachi
//! misbehaves: a panic inside katachi, a broken protocol answer, or a
//! disagreement between the grid matcher and the plain reference matcher.
//! Rejecting the input with diagnostics is the expected outcome for most
//! inputs; the bodies check that those diagnostics render.

#![allow(dead_code)] // each fuzz target uses one body

use std::sync::OnceLock;

#[path = "../support/gomocup_brains.rs"]
mod gomocup_brains;

use katachi::board::Board;
use katachi::go::analysis::Constraints;
use katachi::go::constraint::{evaluate, ConstraintContext};
use katachi::go::reading::Reader;
use katachi::go::strings::Goban;
use katachi::gtp::{self, GtpOptions};
use katachi::matcher::Matcher;
use katachi::mkpat::geometry::{Geometry, Hexagon, Shape};
use katachi::mkpat::{self, CheckedPattern, Compiled};
use katachi::positions::parse_positions;
use katachi::reference::{gnugo_lines, grid_placements, reference_matches};
use katachi::{Color, Point, Position};

/// Inputs longer than this are cut: every reader under test has its own
/// bound far above it, and short inputs keep the fuzzer fast.
pub const MAX_INPUT: usize = 1 << 16;

fn cut(data: &[u8]) -> &[u8] {
    &data[..data.len().min(MAX_INPUT)]
}

/// A small set of boards the matchers are compared on: an empty 9x9, a
/// 7x7 with stones in a corner and on an edge, and a 19x19 with a few
/// stones of both colours near every side.
fn boards() -> &'static [Board] {
    static BOARDS: OnceLock<Vec<Board>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        let mut small = Board::new(7);
        for (i, j, c) in [
            (0, 0, Color::Black),
            (0, 1, Color::White),
            (1, 1, Color::Black),
            (2, 0, Color::White),
            (3, 6, Color::Black),
            (4, 5, Color::White),
            (6, 3, Color::Black),
        ] {
            small.place(Point::new(i, j), c);
        }
        let mut big = Board::new(19);
        for k in 0..19 {
            let c = if k % 3 == 0 {
                Color::White
            } else {
                Color::Black
            };
            big.place(Point::new(k, (k * 7) % 19), c);
            big.place(Point::new((k * 5 + 3) % 19, k), c.other());
        }
        vec![Board::new(9), small, big]
    })
}

/// The grid matcher must find exactly what the cell-by-cell reference
/// finds, for both colours to move.
/// Hexagonal boards of sides 2 and 5 with stones on the edges, corners
/// and inside.
fn hex_boards() -> &'static [Board<Hexagon>] {
    static BOARDS: OnceLock<Vec<Board<Hexagon>>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        let mut out = Vec::new();
        for side in [2, 5] {
            let mut b = Board::hexagon(side);
            for (k, p) in b.points().collect::<Vec<_>>().into_iter().enumerate() {
                match k % 5 {
                    0 => b.place(p, Color::Black),
                    2 => b.place(p, Color::White),
                    _ => None,
                };
            }
            out.push(b);
        }
        out
    })
}

fn assert_matchers_agree<G: Shape>(
    checked: &[CheckedPattern],
    matcher: &Matcher<'_, G>,
    board: &Board<G>,
) {
    for to_move in [Color::Black, Color::White] {
        let grid = grid_placements(matcher, &matcher.matches(board, to_move));
        let reference = reference_matches(checked, board, to_move);
        assert_eq!(
            grid,
            reference,
            "grid and reference matchers disagree on a {}x{} board",
            board.size(),
            board.size()
        );
    }
}

/// Every diagnostic renders as `name:line:col: severity: message` with
/// the source line and a caret.
fn assert_renders(c: &Compiled) {
    let text = c.render();
    if !c.diagnostics.is_empty() {
        assert!(text.contains("fuzz.db:"), "diagnostics not located: {text}");
    }
    assert_eq!(c.is_ok(), c.error_count() == 0);
}

/// A pattern database in either dialect: parse, check, expand, render the
/// diagnostics, renumber; when it compiles, match it on the test boards
/// with the grid matcher and the reference matcher and compare.
pub fn database(data: &[u8]) {
    let data = cut(data);
    for lenient in [false, true] {
        let c = mkpat::compile(
            "fuzz.db",
            data,
            &mkpat::Options {
                lenient,
                ..Default::default()
            },
        );
        assert_renders(&c);
        if let Some(db) = &c.database {
            match db.geometry {
                // GNU Go 3.x's semantics (its transformations per class,
                // patterns without `*`) have their own definition.
                Geometry::Square if c.dialect == mkpat::Dialect::GnuGo38 => {
                    let matcher = Matcher::new(db.tables());
                    for board in boards() {
                        for to_move in [Color::Black, Color::White] {
                            let mut found: Vec<_> = matcher
                                .matches(board, to_move)
                                .into_iter()
                                .map(|m| {
                                    let name = db.patterns[m.pattern as usize].name.to_string();
                                    (name, m.trans, m.move_point)
                                })
                                .collect();
                            found.sort();
                            assert_eq!(found, gnugo_lines(&c.checked, board, to_move));
                        }
                    }
                }
                Geometry::Square => {
                    let matcher = Matcher::new(db.tables());
                    for board in boards() {
                        assert_matchers_agree(&c.checked, &matcher, board);
                    }
                }
                Geometry::Hexagon => {
                    let matcher = Matcher::new(db.tables_as::<Hexagon>().expect("hexagonal"));
                    for board in hex_boards() {
                        assert_matchers_agree(&c.checked, &matcher, board);
                    }
                }
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(r) = mkpat::renum::renumber(text) {
            // Renumbering changes headers only: the result parses the same.
            let again = mkpat::renum::renumber(&r.text).expect("renumbered text parses");
            assert_eq!(again.changed, 0, "renumbering is idempotent");
        }
    }
}

/// A GNU Go 2.6 pattern whose constraint diagram labels four points, and
/// the fuzz input as its `;` constraint expression (one line: a newline in
/// the input ends it). When it compiles, the constraint is interpreted by
/// the Go engine at every match on the test boards.
pub fn constraint(data: &[u8]) {
    let expr = String::from_utf8_lossy(cut(data));
    let expr = expr.lines().next().unwrap_or("");
    let db = format!(
        "Pattern F1\n\n?O.\nX*.\n...\n\n:8,50,0,O,0,0,0,0,0,NULL\n\n?Oa\nB*b\n.cd\n\n;{expr}\n"
    );
    let c = mkpat::compile(
        "fuzz.db",
        db.as_bytes(),
        &mkpat::Options {
            dialect: Some(mkpat::Dialect::GnuGo26),
            ..Default::default()
        },
    );
    assert_renders(&c);
    let Some(tables) = &c.database else { return };
    let Some(Some(k)) = tables.constraints.first() else {
        return;
    };
    // Display and re-parse: what the code generator writes is what was read.
    let shown = mkpat::constraint::display(&k.expr);
    assert!(!shown.is_empty());
    let matcher = Matcher::new(tables.tables());
    let p = &tables.patterns[0];
    for board in boards() {
        let mut goban = Goban::new(board.size());
        for q in board.points() {
            if let Some(color) = board.stone(q) {
                let _ = goban.play(q, color);
            }
        }
        let mut reader = Reader::new();
        for m in matcher.matches(board, Color::Black) {
            let ctx = ConstraintContext::new(m.anchor, m.trans, p.move_di as i32, p.move_dj as i32);
            let mut engine = Constraints::new(&mut goban, &mut reader, Color::Black);
            let _ = evaluate(k, &ctx, &mut engine);
        }
    }
}

/// The builtin database compiled in memory with its checked patterns, for
/// the reference matcher.
fn builtin() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| {
        let c = mkpat::compile(
            "patterns.db",
            include_bytes!("../../patterns/patterns.db"),
            &mkpat::Options::default(),
        );
        assert!(c.is_ok(), "{}", c.render());
        c
    })
}

/// A positions file: every problem located; every position read is
/// matched by the builtin database with the grid matcher and the
/// reference matcher, which must agree.
pub fn positions(data: &[u8]) {
    let data = cut(data);
    match parse_positions("fuzz.txt", data) {
        Ok(records) => {
            let c = builtin();
            let db = c.database.as_ref().expect("builtin compiles");
            let matcher = Matcher::new(db.tables());
            for r in records.iter().take(4) {
                assert_matchers_agree(&c.checked, &matcher, &r.board);
            }
        }
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains("fuzz.txt:"), "errors not located: {text}");
        }
    }
}

/// An SGF game: loaded (whole, and up to a move taken from the input), and
/// replayed position by position as `katachi match` does.
pub fn sgf(data: &[u8]) {
    let data = cut(data);
    // As `katachi` reads a file: UTF-8, else Latin-1, a BOM skipped.
    let text = katachi::sgf::decode(data);
    let until = data.first().map(|&b| usize::from(b % 16));
    if let Ok(loaded) = katachi::sgf::load(&text, None) {
        let total = loaded.total_moves;
        let partial =
            katachi::sgf::load(&text, until).expect("a game that loads whole loads in part");
        assert!(partial.moves <= total);
        let positions = katachi::sgf::positions(&text).expect("a game that loads replays");
        assert_eq!(positions.len(), total + 1);
    }
}

/// A GTP session: the input's lines are commands to the pattern engine (no
/// playouts, so that a run is fast). A line with a command gets exactly
/// one well-formed response (`=` or `?`, the id echoed, one blank line at
/// the end and none inside), a blank or comment line none, and no response
/// is an internal error (a caught panic). `loadsgf` is left out: its
/// argument is a path, and a fuzzer must not read the machine's files or
/// block on a FIFO.
pub fn gtp(data: &[u8]) {
    let data = &data[..data.len().min(1 << 14)];
    let mut session = gtp::Gtp::with_options(GtpOptions::default());
    for line in data.split(|&b| b == b'\n').take(64) {
        if String::from_utf8_lossy(line)
            .to_ascii_lowercase()
            .contains("loadsgf")
        {
            continue;
        }
        let Some(reply) = session.handle_line(line) else {
            continue;
        };
        assert!(
            reply.starts_with('=') || reply.starts_with('?'),
            "malformed response {reply:?}"
        );
        assert!(reply.ends_with("\n\n"), "unterminated response {reply:?}");
        assert!(
            !reply[..reply.len() - 2].contains("\n\n"),
            "blank line inside a response {reply:?}"
        );
        assert!(
            !reply.contains("internal error"),
            "a command panicked: {reply:?}"
        );
        if session.quit_requested() {
            break;
        }
    }
}

/// A tournament's openings file (`katachi tournament --openings-file`):
/// read on a 9x9 and a 19x19 board, every opening replayed by the rules;
/// a bad file's every error names `fuzz.txt:line:col`.
pub fn openings(data: &[u8]) {
    let data = cut(data);
    for size in [9, 19] {
        match katachi::tournament::openings::parse("fuzz.txt", data, size) {
            Ok(openings) => assert!(!openings.is_empty()),
            Err(e) => assert!(e.contains("fuzz.txt:"), "errors not located: {e}"),
        }
    }
}

/// Five in a row's records (`katachi::five::record`): a piskvork `.psq`
/// game and a Gomocup openings file (on 15x15 and 20x20). No panic; a
/// record read is written back and read again unchanged, an opening
/// written back reads the same; every error's line and column lie in the
/// text and its message renders.
pub fn five_records(data: &[u8]) {
    use katachi::five::record::{read_openings, read_psq, write_opening, write_psq};
    let text = String::from_utf8_lossy(cut(data));
    let lines = text.lines().count().max(1);
    let located = |e: &katachi::five::record::RecordError| {
        assert!((1..=lines).contains(&e.line), "line {} of {lines}", e.line);
        assert!(
            e.column >= 1 && e.column <= e.text.chars().count() + 1,
            "{e:?}"
        );
        assert!(e
            .to_string()
            .starts_with(&format!("line {}, column {}", e.line, e.column)));
    };
    match read_psq(&text) {
        Ok(record) => assert_eq!(read_psq(&write_psq(&record)), Ok(record)),
        Err(e) => located(&e),
    }
    for size in [15, 20] {
        match read_openings(&text, size) {
            Ok(openings) => {
                for o in openings {
                    let line = write_opening(&o, size);
                    assert_eq!(read_openings(&line, size), Ok(vec![o]));
                }
            }
            Err(errors) => errors.iter().for_each(located),
        }
    }
}

/// A Gomocup session (`katachi::gomocup::run`, input on its own thread and
/// each search on a worker) with a brain that plays the first empty point:
/// it ends, every line written is a reply a manager can read (`OK`,
/// `ERROR`, `UNKNOWN`, `MESSAGE`, `DEBUG`, the `ABOUT` line, or a move on
/// the board), and the replies are those of the same session driven on
/// one thread: threads, the queue of commands read during a search and
/// `END` change no reply.
pub fn gomocup(data: &[u8]) {
    let data = &data[..data.len().min(1 << 14)];
    let replies = gomocup_brains::run_lines(gomocup_brains::FirstEmpty::new(), data);
    for r in &replies {
        if let Err(e) = gomocup_brains::well_formed(r, 30) {
            panic!("{e}");
        }
    }
    let alone = gomocup_brains::drive(&mut gomocup_brains::FirstEmpty::new(), data);
    assert_eq!(replies, alone, "threads changed the replies");
}

/// The hexagonal contest's files (seed 003), as a player and `katachi hex
/// show` read them: the bytes as a judge's `state_N.txt`, as a player's
/// `move_N.txt` and as a judge's game log. What parses writes back and
/// reads the same; an error names the file and a line and column inside
/// the text; a state the player cannot parse is salvaged into a whole
/// board or refused; every state read (or salvaged) is checked against
/// the rules without a panic and answered, by the greedy baseline, with
/// an empty cell of the board whenever one is left; every log read draws.
pub fn contest(data: &[u8]) {
    use katachi::contest::log::parse_log;
    use katachi::contest::picture::{svg, Picture};
    use katachi::contest::player::{answer_with, check_state, salvage, HexEngine};
    use katachi::contest::protocol::{parse_move, parse_state, Cell, CELLS};
    use std::time::Duration;

    let data = cut(data);
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count().max(1);
    let located = |file: &str, line: usize, column: usize, shown: String| {
        assert!(
            (1..=lines).contains(&line),
            "{file}: line {line} of {lines}"
        );
        assert!(column >= 1, "{file}: column {column}");
        assert!(
            shown.starts_with(&format!("{file}:{line}:{column}: error: ")),
            "{shown}"
        );
    };
    let answered = |state: &katachi::contest::protocol::State| {
        assert_eq!(state.cells.len(), CELLS);
        let _ = check_state(state, None);
        let empty = state.cells.iter().filter(|&&c| c == Cell::Empty).count();
        match answer_with(HexEngine::Greedy, state, false, Duration::from_millis(1)) {
            Some((cell, _)) => assert_eq!(state.cells[cell as usize], Cell::Empty),
            None => assert_eq!(empty, 0, "an empty cell left unanswered"),
        }
    };
    match parse_state("state_1.txt", data) {
        Ok(state) => {
            let again = parse_state("state_1.txt", state.to_text().as_bytes());
            assert_eq!(again.as_ref(), Ok(&state));
            answered(&state);
            let _ = svg(&Picture::of_state(&state));
        }
        Err(e) => {
            located("state_1.txt", e.line, e.column, e.to_string());
            if let Some(state) = salvage(data) {
                answered(&state);
            }
        }
    }
    match parse_move("move_1.txt", data) {
        Ok(m) => assert_eq!(parse_move("move_1.txt", m.to_text().as_bytes()), Ok(m)),
        Err(e) => located("move_1.txt", e.line, e.column, e.to_string()),
    }
    match parse_log("game-log-1-2.txt", &text) {
        Ok(log) => {
            assert_eq!(
                parse_log("game-log-1-2.txt", &log.to_string()).as_ref(),
                Ok(&log)
            );
            let _ = svg(&Picture::of_log(&log));
        }
        Err(e) => located("game-log-1-2.txt", e.line, 1, e.to_string()),
    }
}
