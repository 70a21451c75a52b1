//! The Go Text Protocol (version 2) front end of the Go engine.
//!
//! [`run`] reads commands from any `BufRead` and writes responses to any
//! `Write`, so tests drive it in memory and `katachi gtp` over stdin and
//! stdout. Input is handled as the spec says: control characters other
//! than tab and newline are dropped, tabs become spaces, `#` starts a
//! comment, empty lines are ignored, an optional numeric id is echoed in
//! the response (`=12 ...`, `?12 ...`), and every response ends with a
//! blank line. Bytes that are not UTF-8 are replaced, never rejected.
//! A line is at most [`MAX_LINE_BYTES`] (64 KiB) long: a longer one is
//! answered `? line too long` and skipped.
//!
//! A controller must never see the engine die: every failure is a `?`
//! response (`unknown command`, `syntax error`, `invalid coordinate`,
//! `illegal move`, `unacceptable size`, `cannot undo`, ...). As a last line
//! of defence a panic inside a command is caught, answered with
//! `? internal error`, and the game rebuilt from its move record.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::go::evaluation::EvalOptions;
use crate::go::explain;
use crate::go::game::{MAX_SIZE, MIN_SIZE};
use crate::go::notation::{format_move, parse_move};
use crate::go::ownership::Status;
use crate::go::rules::RuleSet;
use crate::go::{Decision, Game, Move};
use crate::notation::parse_color;

mod analyze;
mod clock;
mod framing;
mod record;

use clock::Clock;
pub use clock::MOVE_TIME_SPEND;
pub use framing::{run, run_with, MAX_LINE_BYTES};

/// Commands after which the SGF record is written.
const RECORDED: &[&str] = &[
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "kgs-genmove_cleanup",
];
use crate::position::{Color, Point, Position};

/// Every command, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "kgs-rules",
    "kgs-genmove_cleanup",
    "quit",
    // The seed's tuning workflow: why this move? (see `go::explain`).
    "katachi-explain",
    "katachi-values",
    "katachi-value-labels",
    "katachi-patterns-at",
    "gogui-analyze_commands",
];

/// GoGui's analyze commands (`type/label/command`), as
/// `gogui-analyze_commands` lists them: a board of candidate values, the
/// same as labels, the patterns behind a point, the full explanation.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "dboard/Candidate values/katachi-values %c",
    "sboard/Candidate value labels/katachi-value-labels %c",
    "string/Patterns at point/katachi-patterns-at %c %p",
    "string/Why this move?/katachi-explain %c",
];

/// Options of a GTP session beyond the protocol.
#[derive(Clone, Debug, Default)]
pub struct GtpOptions {
    /// Record the game as SGF to this file after every move (GNU Go's
    /// `-o`), with an `LB` label on every move considered.
    pub record: Option<std::path::PathBuf>,
    /// Evaluate every pattern (GNU Go's `-a`): the labels then show every
    /// pattern's value.
    pub all_patterns: bool,
    /// Play by this pattern database instead of the builtin one
    /// (`katachi gtp --db FILE`).
    pub patterns: Option<std::sync::Arc<crate::go::movegen::PatternSet>>,
    /// Choose among the pattern candidates by playouts
    /// (`katachi gtp --playouts N`); `None` plays the heaviest candidate,
    /// as the seed's engine.
    pub search: Option<crate::go::search::SearchOptions>,
    /// The rule set (`katachi gtp --rules`; `kgs-rules` changes it).
    pub rules: RuleSet,
    /// The seed of the engine's random choices (`katachi gtp --seed`);
    /// `None` keeps the engine's fixed default.
    pub seed: Option<u64>,
    /// Search each move with [`default_playouts`] of the board's side in
    /// place of `search`'s playouts (`katachi gtp` without
    /// `--playouts`): the board size is the controller's to change.
    ///
    /// [`default_playouts`]: crate::go::search::default_playouts
    pub playouts_by_size: bool,
    /// The thinking time of a move when the controller sets no clock
    /// (`katachi gtp --move-time`): every answer comes within it, the
    /// search spending [`MOVE_TIME_SPEND`] of it. `time_settings`
    /// replaces it.
    pub move_time: Option<std::time::Duration>,
}

/// The engine state behind the protocol.
#[derive(Debug)]
pub struct Gtp {
    game: Game,
    /// Time settings, once the controller sent them: the search then
    /// plays by the clock instead of a fixed number of playouts.
    clock: Option<Clock>,
    /// The clock the time budgets are read on ([`Gtp::with_timer`]), and
    /// its reading when the command being answered arrived.
    timer: Box<dyn crate::go::deadline::Clock>,
    arrived: std::time::Duration,
    /// Handicap stones of the current game, to rebuild it after a panic.
    handicap: usize,
    /// Free handicap stones of the current game, for the same.
    free_handicap: Vec<Point>,
    quit: bool,
    /// Setup stones of the current game (SGF `AB`/`AW` from `loadsgf`).
    setup: Vec<(Color, Point)>,
    options: GtpOptions,
    /// Labels of the moves considered before each move of the history,
    /// by its index, for the SGF record.
    labels: std::collections::BTreeMap<usize, Vec<(Point, String)>>,
}

impl Default for Gtp {
    fn default() -> Self {
        Gtp::new()
    }
}

type Reply = Result<String, String>;

/// `Ok` when a command has exactly `n` arguments, else GTP's `syntax error`.
fn want(args: &[&str], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err("syntax error".to_string())
    }
}

impl Gtp {
    /// A 19x19 board, komi 7.5.
    pub fn new() -> Gtp {
        let mut game = Game::new(19);
        game.set_komi(7.5);
        Gtp {
            game,
            clock: None,
            timer: Box::new(crate::go::deadline::WallClock::start()),
            arrived: std::time::Duration::ZERO,
            handicap: 0,
            free_handicap: Vec::new(),
            quit: false,
            setup: Vec::new(),
            options: GtpOptions::default(),
            labels: std::collections::BTreeMap::new(),
        }
    }

    /// A session with `options` (recording, all patterns).
    pub fn with_options(options: GtpOptions) -> Gtp {
        let mut g = Gtp::new();
        if let Some(set) = &options.patterns {
            g.game.set_patterns(set.clone());
        }
        g.game.set_eval_options(EvalOptions {
            all_patterns: options.all_patterns,
        });
        g.game.set_search(options.search);
        g.game.set_rules(options.rules);
        if let Some(seed) = options.seed {
            g.game.seed(seed);
        }
        g.options = options;
        g
    }

    /// Reads the time budgets on `timer` instead of the machine's clock
    /// (a test's clock).
    pub fn with_timer(mut self, timer: Box<dyn crate::go::deadline::Clock>) -> Gtp {
        self.timer = timer;
        self
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Seeds the random choices of `genmove` (kept across `boardsize` and
    /// `clear_board`), so that games are reproducible.
    pub fn seed(&mut self, seed: u64) {
        self.game.seed(seed);
    }

    /// Has `quit` been received?
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Handles one input line; `None` when the line is empty or a comment
    /// (no response is due), otherwise the full response, blank line
    /// included.
    pub fn handle_line(&mut self, raw: &[u8]) -> Option<String> {
        self.arrived = self.timer.now();
        let text = String::from_utf8_lossy(raw);
        let cleaned: String = text
            .chars()
            .filter(|&c| c == '\t' || c == '\n' || !c.is_control())
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let line = cleaned.split('#').next().unwrap_or("");
        let mut tokens = line.split_whitespace().peekable();
        tokens.peek()?;
        let mut id = String::new();
        if let Some(t) = tokens.peek() {
            if t.bytes().all(|b| b.is_ascii_digit()) {
                id = (*t).to_string();
                tokens.next();
            }
        }
        let args: Vec<&str> = tokens.collect();
        let reply = match args.split_first() {
            None => Err("syntax error".to_string()),
            Some((cmd, rest)) => {
                match catch_unwind(AssertUnwindSafe(|| self.dispatch(cmd, rest))) {
                    Ok(r) => r,
                    Err(_) => {
                        self.recover();
                        Err("internal error".to_string())
                    }
                }
            }
        };
        let (mark, body) = match reply {
            Ok(t) => ('=', t),
            Err(t) => ('?', t),
        };
        // A blank line would end the response early.
        // A multi-line body that starts with a newline (showboard) starts
        // on the line after the status.
        let sep = if body.starts_with('\n') { '\n' } else { ' ' };
        let body: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
        let body = body.join("\n");
        Some(if body.is_empty() {
            format!("{mark}{id}\n\n")
        } else {
            format!("{mark}{id}{sep}{body}\n\n")
        })
    }

    /// Rebuilds the game from its move record after a caught panic.
    fn recover(&mut self) {
        let size = self.game.size();
        let komi = self.game.komi();
        let moves = self.game.history().to_vec();
        // Same size, komi, seed, pattern database and options.
        let mut game = self.game.resized(size);
        game.set_komi(komi);
        if self.handicap > 0 && game.fixed_handicap(self.handicap).is_err() {
            self.handicap = 0;
        }
        if !self.free_handicap.is_empty() && game.free_handicap(&self.free_handicap).is_err() {
            self.free_handicap.clear();
        }
        if !self.setup.is_empty() && game.setup(&self.setup).is_err() {
            self.setup.clear();
        }
        for (c, m) in moves {
            if game.play(c, m).is_err() {
                break;
            }
        }
        self.game = game;
    }

    fn dispatch(&mut self, cmd: &str, args: &[&str]) -> Reply {
        let reply = self.command(cmd, args);
        if reply.is_ok() && RECORDED.contains(&cmd) {
            self.labels.retain(|&k, _| k < self.game.history().len());
            self.write_record();
        }
        reply
    }

    fn command(&mut self, cmd: &str, args: &[&str]) -> Reply {
        let want = |n: usize| want(args, n);
        match cmd {
            "protocol_version" => want(0).map(|()| "2".into()),
            "name" => want(0).map(|()| "katachi".into()),
            "version" => want(0).map(|()| env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                want(1)?;
                Ok(COMMANDS.contains(&args[0]).to_string())
            }
            "list_commands" => want(0).map(|()| COMMANDS.join("\n")),
            "boardsize" => {
                want(1)?;
                let n: usize = args[0].parse().map_err(|_| "syntax error")?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.game = self.game.resized(n);
                self.handicap = 0;
                self.free_handicap.clear();
                self.setup.clear();
                Ok(String::new())
            }
            "clear_board" => {
                want(0)?;
                self.game.clear();
                self.handicap = 0;
                self.free_handicap.clear();
                self.setup.clear();
                Ok(String::new())
            }
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "komi" => {
                want(1)?;
                let k: f32 = args[0].parse().map_err(|_| "syntax error")?;
                if !k.is_finite() {
                    return Err("syntax error".into());
                }
                self.game.set_komi(k);
                Ok(String::new())
            }
            "play" => {
                want(2)?;
                let c = parse_color(args[0]).ok_or("syntax error")?;
                let m = parse_move(args[1], self.game.size()).map_err(|e| e.to_string())?;
                self.game
                    .play(c, m)
                    .map(|()| String::new())
                    .map_err(|_| "illegal move".into())
            }
            "genmove" => {
                want(1)?;
                let c = parse_color(args[0]).ok_or("syntax error")?;
                let index = self.game.history().len();
                if self.options.record.is_some() {
                    let eval = self.evaluate(c);
                    let labels = explain::labels(&eval, self.options.all_patterns);
                    self.labels.insert(index, labels);
                }
                let d = self.timed(c, |game, clock| game.gen_decision_on(c, clock));
                Ok(match d {
                    Decision::Move(m) => format_move(m, self.game.size()),
                    Decision::Resign => "resign".into(),
                })
            }
            "kgs-genmove_cleanup" => {
                want(1)?;
                let c = parse_color(args[0]).ok_or("syntax error")?;
                let m = self.timed(c, |game, clock| {
                    let saved = game.search_options();
                    if let Some(opts) = saved {
                        game.set_search(Some(crate::go::search::SearchOptions {
                            cleanup: true,
                            resign_threshold: 0.0,
                            ..opts
                        }));
                    }
                    let m = game.genmove_on(c, clock);
                    game.set_search(saved);
                    m
                });
                Ok(format_move(m, self.game.size()))
            }
            "kgs-rules" => {
                want(1)?;
                let rules = RuleSet::parse(args[0]).ok_or("unknown rules")?;
                self.game.set_rules(rules);
                Ok(String::new())
            }
            "kgs-time_settings" => self.kgs_time_settings(args),
            "final_status_list" => {
                want(1)?;
                let wanted = Status::parse(args[0]).ok_or("syntax error")?;
                Ok(self.status_list(wanted))
            }
            "place_free_handicap" => {
                want(1)?;
                let n: usize = args[0].parse().map_err(|_| "syntax error")?;
                let size = self.game.size();
                let pts = Game::free_handicap_points(size, n).ok_or("invalid number of stones")?;
                self.game.free_handicap(&pts)?;
                self.free_handicap = pts.clone();
                Ok(pts
                    .into_iter()
                    .map(|p| format_move(Move::Play(p), size))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            "set_free_handicap" => {
                if args.len() < 2 {
                    return Err("syntax error".into());
                }
                let size = self.game.size();
                let mut pts: Vec<Point> = Vec::new();
                for a in args {
                    match parse_move(a, size).map_err(|e| e.to_string())? {
                        Move::Play(p) if !pts.contains(&p) => pts.push(p),
                        _ => return Err("bad vertex list".into()),
                    }
                }
                self.game.free_handicap(&pts)?;
                self.free_handicap = pts;
                Ok(String::new())
            }
            "undo" => {
                want(0)?;
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "showboard" => want(0).map(|()| self.showboard()),
            "final_score" => {
                want(0)?;
                let dead = self.game.dead_stones();
                let s = self.game.final_score(&dead);
                Ok(if s > 0.0 {
                    format!("B+{s}")
                } else if s < 0.0 {
                    format!("W+{}", -s)
                } else {
                    "0".into()
                })
            }
            "fixed_handicap" => {
                want(1)?;
                let n: usize = args[0].parse().map_err(|_| "syntax error")?;
                let pts = self.game.fixed_handicap(n)?;
                self.handicap = n;
                let size = self.game.size();
                Ok(pts
                    .into_iter()
                    .map(|p| format_move(Move::Play(p), size))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            "quit" => {
                want(0)?;
                self.quit = true;
                Ok(String::new())
            }
            "loadsgf" => self.loadsgf(args),
            "katachi-explain"
            | "katachi-values"
            | "katachi-value-labels"
            | "katachi-patterns-at"
            | "gogui-analyze_commands" => self.analyze(cmd, args),
            _ => Err("unknown command".into()),
        }
    }

    /// `final_status_list`'s answer: the strings of `wanted` status, one
    /// a line, stones in reading order.
    fn status_list(&self, wanted: Status) -> String {
        use crate::go::position::GoPosition;
        let size = self.game.size();
        let goban = self.game.goban();
        let mut done: Vec<Point> = Vec::new();
        let mut lines = Vec::new();
        for (p, s) in self.game.statuses() {
            if s != wanted || done.contains(&p) {
                continue;
            }
            let mut stones = goban.string(p);
            stones.sort();
            done.extend_from_slice(&stones);
            lines.push(
                stones
                    .into_iter()
                    .map(|q| format_move(Move::Play(q), size))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        lines.join("\n")
    }

    /// The board with coordinates, black `X`, white `O`.
    fn showboard(&self) -> String {
        let g = self.game.goban();
        let n = g.side();
        let letters: String = crate::notation::COLUMN_LETTERS[..n]
            .iter()
            .map(|&b| format!(" {}", b as char))
            .collect();
        let mut out = format!("\n  {letters}\n");
        for i in 0..n {
            let row = n - i;
            out.push_str(&format!("{row:2}"));
            for j in 0..n {
                let ch = match g.stone(Point::new(i as i32, j as i32)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {row}\n"));
        }
        out.push_str(&format!("  {letters}\n"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::framing::read_line;
    use super::*;
    use std::io::{self, BufRead};

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Time settings are accepted and checked, the search then runs by
    /// the clock, and the fixed-playout options
    /// come back after the move.
    #[test]
    fn time_settings_and_time_left() {
        let search = crate::go::search::SearchOptions {
            playouts: 50,
            ..Default::default()
        };
        let mut g = Gtp::with_options(GtpOptions {
            search: Some(search),
            ..GtpOptions::default()
        });
        let mut reply = |line: &str| g.handle_line(line.as_bytes()).unwrap();
        assert_eq!(reply("boardsize 9"), "=\n\n");
        assert_eq!(reply("time_settings 60 10 5"), "=\n\n");
        assert_eq!(reply("time_left black 1 0"), "=\n\n");
        assert_eq!(reply("time_left w 0.5 3"), "=\n\n");
        for bad in [
            "time_settings 60 10",
            "time_settings -1 0 0",
            "time_settings a 0 0",
            "time_left b -3 0",
            "time_left b nan 0",
            "time_left purple 3 0",
        ] {
            assert_eq!(reply(bad), "? syntax error\n\n", "{bad}");
        }
        assert!(reply("genmove b").starts_with("= "));
        assert!(reply("genmove w").starts_with("= "));
        assert!(reply("known_command time_left").contains("true"));
        assert_eq!(g.game().search_options(), Some(search));
    }

    /// A position read with `loadsgf` is searched as the session was
    /// started: with its search options, rules and seed (they live in the
    /// game, which the record replaces), and with the record's komi.
    #[test]
    fn loadsgf_keeps_the_engine_and_takes_the_records_komi() {
        let search = crate::go::search::SearchOptions {
            playouts: 64,
            ..Default::default()
        };
        let rules = RuleSet::parse("japanese").unwrap();
        let mut g = Gtp::with_options(GtpOptions {
            search: Some(search),
            rules,
            seed: Some(7),
            ..GtpOptions::default()
        });
        let seed = g.game().random_seed();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sgf/fight.sgf");
        let mut reply = |line: &str| g.handle_line(line.as_bytes()).unwrap();
        assert_eq!(reply(&format!("loadsgf {path}")), "= black\n\n");
        assert_eq!(g.game().search_options(), Some(search));
        assert_eq!(g.game().rules(), rules);
        assert_eq!(g.game().random_seed(), seed);
        assert_eq!(g.game().komi(), 6.5);
        assert_eq!(g.game().size(), 9);
    }

    #[test]
    fn ids_errors_comments_and_vertices() {
        let out = session(
            "# a comment\n\n12 protocol_version\nfoo\n3 play b i5\nplay B d4\nplay w D4\n\
             play black z1\nboardsize 3\nboardsize x\n7 undo\nundo\nknown_command play\n\
             known_command bogus\nplay b\tpass # tab\nfinal_score\nquit\nname\n",
        );
        let want = [
            "=12 2",
            "? unknown command",
            "?3 invalid coordinate",
            "=",
            "? illegal move",
            "? invalid coordinate",
            "? unacceptable size",
            "? syntax error",
            "=7",
            "? cannot undo",
            "= true",
            "= false",
            "=",
            "= W+7.5",
            "=",
        ];
        let got: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
        assert_eq!(got, want);
    }

    /// An endless line without a newline, handed out in chunks as a pipe
    /// would: it is never held whole.
    struct Flood {
        left: usize,
        chunk: Vec<u8>,
        then: std::io::Cursor<Vec<u8>>,
    }

    impl io::Read for Flood {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl io::BufRead for Flood {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.left > 0 {
                let n = self.left.min(self.chunk.len());
                return Ok(&self.chunk[..n]);
            }
            self.then.fill_buf()
        }
        fn consume(&mut self, n: usize) {
            if self.left > 0 {
                self.left -= n;
            } else {
                self.then.consume(n);
            }
        }
    }

    #[test]
    fn over_long_lines_are_answered_and_skipped_unbuffered() {
        // 10 MB without a newline, then a valid command.
        let flood = |head: &str, rest: &str| {
            let mut chunk = head.as_bytes().to_vec();
            chunk.resize(8192, b'x');
            Flood {
                left: 10_000_000,
                chunk,
                then: std::io::Cursor::new(rest.as_bytes().to_vec()),
            }
        };
        let mut out = Vec::new();
        run(flood("7 play b ", "\n8 name\n"), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "?7 line too long\n\n=8 katachi\n\n"
        );
        // Without an id, and ending the input.
        let mut out = Vec::new();
        run(flood("play b ", ""), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "? line too long\n\n");
        // The line buffer never held more than the bound.
        let mut line = Vec::new();
        let mut input = flood("1 name", "\nname\n");
        assert_eq!(read_line(&mut input, &mut line).unwrap(), Some(true));
        assert_eq!(line.len(), MAX_LINE_BYTES);
        assert!(line.capacity() < 2 * MAX_LINE_BYTES);
        assert_eq!(read_line(&mut input, &mut line).unwrap(), Some(false));
        assert_eq!(line, b"name");
        assert_eq!(read_line(&mut input, &mut line).unwrap(), None);
        // A line of exactly the bound is read.
        let exact = format!("name{}\n", " ".repeat(MAX_LINE_BYTES - 4));
        assert_eq!(session(&exact), "= katachi\n\n");
        let over = format!("name{}\nname\n", " ".repeat(MAX_LINE_BYTES - 3));
        assert_eq!(session(&over), "? line too long\n\n= katachi\n\n");
    }

    #[test]
    fn handicap_and_showboard() {
        let out = session("boardsize 9\nfixed_handicap 3\nfixed_handicap 2\nshowboard\n");
        assert!(
            out.starts_with("=\n\n= C3 G7 C7\n\n? board not empty\n\n=\n   A B C D E F G H J\n"),
            "{out}"
        );
        assert!(out.contains(" 7 . . X . . . X . . 7\n"), "{out}");
        assert!(out.ends_with("\n\n"));
    }
}
