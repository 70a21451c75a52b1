//! Tournaments: complete games between players, refereed, recorded and
//! rated — playing strength, which no unit test can measure.
//!
//! Every game is played by one loop, [`referee::referee`], over a
//! [`Referee`] that owns the game's rules and record: an illegal move, a
//! crash, a move over the time limit or a resignation loses, whatever the
//! game.
//!
//! This file is Go's side: the [`Player`] trait and its players (katachi's
//! engine, a random legal-move player, any engine over GTP), the
//! [`GoReferee`] and [`play_game_from`], one refereed game. The referee is
//! a [`Game`]: every move is checked against its rules, a game ends after
//! two passes in a row or at a move cap, and it is scored by area in the
//! Tromp-Taylor way with komi, as [`Game::score`] does. That is only fair
//! when the games are played out (dead stones captured): katachi's
//! `genmove` plays them out, and GNU Go should run with `--chinese-rules
//! --capture-all-dead`. Five in a row's side is [`five`] (its referee on
//! a [`FiveBoard`](crate::five::FiveBoard), its players) and [`gomocup`]
//! (any Gomocup brain in a child process).
//!
//! The rest knows no game: [`schedule`] (who plays whom, with which
//! opening and colour; shards), [`ledger`] (the finished games, merged
//! shards, the standings) and [`ratings`] (Bradley–Terry Elo with error
//! bars). [`runner`] puts them together for `katachi tournament` and the
//! benchmark `benches/games.rs`.

pub mod contest;
pub mod five;
pub mod gomocup;
pub mod judge;
pub mod ledger;
pub mod openings;
pub mod pente;
pub mod players;
pub mod ratings;
pub mod referee;
pub mod runner;
pub mod schedule;
pub mod spsa;
pub mod tune;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::go::evaluation::EvalOptions;
use crate::go::movegen::PatternSet;
use crate::go::notation::{format_move, parse_move};
use crate::go::search::SearchOptions;
use crate::go::{Game, Move};
use crate::notation::color_word;
use crate::position::{Color, Point, Position};
use crate::sgf::Record;
pub use referee::{Clock, End, Fingerprint, Referee, Side};

/// One side of a game.
pub trait Player {
    /// A short name for tables and SGF `PB`/`PW`.
    fn name(&self) -> String;
    /// Starts a new game; `seed` varies from game to game.
    fn new_game(&mut self, size: usize, komi: f32, seed: u64) -> Result<(), String>;
    /// The opponent (or this player) played `mv`.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String>;
    /// This player's move for `color` (already played on its own board);
    /// `None` to resign.
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String>;
    /// The referee's limit on one move: a player that can be interrupted
    /// (an engine in another process) stops waiting after it. The referee
    /// charges a move over the limit as lost on time either way.
    fn set_move_limit(&mut self, _limit: Option<Duration>) {}
}

/// katachi's engine on a pattern database.
#[derive(Debug)]
pub struct Katachi {
    name: String,
    game: Game,
    patterns: Arc<PatternSet>,
    eval: EvalOptions,
    search: Option<SearchOptions>,
}

impl Katachi {
    pub fn new(name: &str, patterns: Arc<PatternSet>, eval: EvalOptions) -> Katachi {
        Katachi {
            name: name.to_string(),
            game: Game::new(9),
            patterns,
            eval,
            search: None,
        }
    }

    /// Chooses among the pattern candidates by playouts
    /// ([`crate::go::search`]) instead of playing the heaviest.
    pub fn with_search(mut self, search: Option<SearchOptions>) -> Katachi {
        self.search = search;
        self
    }
}

impl Player for Katachi {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, size: usize, komi: f32, seed: u64) -> Result<(), String> {
        let mut g = Game::new(size);
        g.set_komi(komi);
        g.seed(seed);
        g.set_patterns(self.patterns.clone());
        g.set_eval_options(self.eval);
        g.set_search(self.search);
        self.game = g;
        Ok(())
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.game.play(color, mv).map_err(|e| e.to_string())
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        Ok(match self.game.gen_decision(color) {
            crate::go::Decision::Move(m) => Some(m),
            crate::go::Decision::Resign => None,
        })
    }
}

/// A random legal move that does not fill an own one-point eye; a pass
/// when there is none.
#[derive(Debug)]
pub struct RandomPlayer {
    game: Game,
    rng: u64,
}

impl Default for RandomPlayer {
    fn default() -> Self {
        RandomPlayer::new()
    }
}

impl RandomPlayer {
    pub fn new() -> RandomPlayer {
        RandomPlayer {
            game: Game::new(9),
            rng: 1,
        }
    }

    fn next(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn new_game(&mut self, size: usize, komi: f32, seed: u64) -> Result<(), String> {
        self.game = Game::new(size);
        self.game.set_komi(komi);
        self.rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        Ok(())
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.game.play(color, mv).map_err(|e| e.to_string())
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        let g = self.game.goban();
        let mut moves: Vec<Point> = g
            .points()
            .filter(|&p| {
                let eye = p
                    .neighbours()
                    .iter()
                    .all(|&q| !g.on_board(q) || g.stone(q) == Some(color));
                !eye && g.is_legal(p, color)
            })
            .collect();
        let mv = loop {
            if moves.is_empty() {
                break Move::Pass;
            }
            let k = (self.next() % moves.len() as u64) as usize;
            let p = moves.swap_remove(k);
            // Positional repetition would make the game endless.
            let mut probe = self.game.goban().clone();
            if probe.play(p, color).is_ok() && !self.game.seen_position(probe.stones_hash()) {
                break Move::Play(p);
            }
        };
        self.game.play(color, mv).map_err(|e| e.to_string())?;
        Ok(Some(mv))
    }
}

/// An engine over GTP in a child process (e.g. `gnugo --mode gtp`).
///
/// Its answers are read by a thread of their own, so that the referee can
/// stop waiting: a `genmove` unanswered within the move limit (plus a
/// second's grace) fails, and the engine is killed; so is one that exited
/// or answered nonsense. The next game starts it afresh.
#[derive(Debug)]
pub struct GtpPlayer {
    name: String,
    program: String,
    args: Vec<String>,
    engine: Option<Engine>,
    size: usize,
    move_limit: Option<Duration>,
}

/// A running engine: its process, its input, and its output's lines.
#[derive(Debug)]
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long the setup commands may take (`boardsize`, `play`…).
const SETUP_LIMIT: Duration = Duration::from_secs(60);

impl GtpPlayer {
    /// Starts `program` with `args`.
    pub fn spawn(name: &str, program: &str, args: &[String]) -> Result<GtpPlayer, String> {
        let mut p = GtpPlayer {
            name: name.to_string(),
            program: program.to_string(),
            args: args.to_vec(),
            engine: None,
            size: 19,
            move_limit: None,
        };
        p.engine = Some(p.start()?);
        Ok(p)
    }

    fn start(&self) -> Result<Engine, String> {
        Engine::spawn(&self.program, &self.args)
    }

    /// Sends one command; the response text, or its error.
    pub fn ask(&mut self, cmd: &str) -> Result<String, String> {
        self.ask_within(cmd, SETUP_LIMIT)
    }

    /// [`GtpPlayer::ask`], waiting at most `limit` for the answer; on any
    /// failure the engine is stopped (and restarted by the next game).
    fn ask_within(&mut self, cmd: &str, limit: Duration) -> Result<String, String> {
        let answer = self.exchange(cmd, limit);
        if answer.is_err() {
            if let Some(e) = self.engine.take() {
                stop(e, "quit");
            }
        }
        answer
    }

    fn exchange(&mut self, cmd: &str, limit: Duration) -> Result<String, String> {
        let name = self.name.clone();
        let e = self
            .engine
            .as_mut()
            .ok_or_else(|| format!("{name} is not running"))?;
        e.send(&name, &[cmd])?;
        let deadline = Instant::now() + limit;
        let mut text = String::new();
        loop {
            let line = e.next_line(&name, cmd, deadline, limit)?;
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push_str(&line);
            text.push('\n');
        }
        let body = text.trim();
        match body.chars().next() {
            Some('=') => Ok(body[1..]
                .trim_start_matches(char::is_numeric)
                .trim()
                .to_string()),
            _ => Err(format!("{name} answered `{cmd}` with `{body}`")),
        }
    }
}

impl Engine {
    /// Starts `program` with `args`, its output's lines read by a thread
    /// of their own (its standard error is dropped).
    fn spawn(program: &str, args: &[String]) -> Result<Engine, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Sends `lines` to the program, one a line, and flushes them.
    fn send<S: AsRef<str>>(&mut self, name: &str, lines: &[S]) -> Result<(), String> {
        for line in lines {
            writeln!(self.stdin, "{}", line.as_ref()).map_err(|err| format!("{name}: {err}"))?;
        }
        self.stdin.flush().map_err(|err| format!("{name}: {err}"))
    }

    /// The program's next line before `deadline`, when `asked` was sent
    /// with `limit` to answer: a silence or a closed pipe is the player's
    /// failure, said in words.
    fn next_line(
        &self,
        name: &str,
        asked: &str,
        deadline: Instant,
        limit: Duration,
    ) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{name} did not answer `{asked}` within {:.1} s",
                limit.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{name} closed the connection")),
        }
    }
}

/// Asks an engine to quit with `quit` (its protocol's word) and closes
/// its input, then kills it if it has not ended within 2 s; whether it
/// ended by itself. The input is closed so that a wrapper whose first
/// stage is a filter (`sed -u … | brain`) ends too: the brain exits at
/// `quit`, but the filter only at the end of its input, and the wrapper
/// waits for both.
fn stop(e: Engine, quit: &str) -> bool {
    let Engine {
        mut child,
        mut stdin,
        ..
    } = e;
    let _ = writeln!(stdin, "{quit}");
    let _ = stdin.flush();
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    false
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            stop(e, "quit");
        }
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, size: usize, komi: f32, _seed: u64) -> Result<(), String> {
        self.size = size;
        if self.engine.is_none() {
            self.engine = Some(self.start()?);
        }
        self.ask(&format!("boardsize {size}"))?;
        self.ask("clear_board")?;
        self.ask(&format!("komi {komi}"))?;
        Ok(())
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let cmd = format!("play {} {}", color_word(color), format_move(mv, self.size));
        self.ask(&cmd).map(|_| ())
    }
    fn set_move_limit(&mut self, limit: Option<Duration>) {
        self.move_limit = limit;
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        // A second's grace, so that the referee sees the limit passed.
        let limit = self
            .move_limit
            .map_or(SETUP_LIMIT, |l| l + Duration::from_secs(1));
        let answer = self.ask_within(&format!("genmove {}", color_word(color)), limit)?;
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(None);
        }
        parse_move(&answer, self.size)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

/// The conditions of every game of a match.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub size: usize,
    pub komi: f32,
    /// Moves (passes included) after which a game is stopped and scored
    /// as it stands.
    pub move_cap: usize,
    /// The most one move may take: a player over it loses on time (an
    /// engine in another process is no longer waited for).
    pub move_time: Option<Duration>,
    /// The most all of one side's moves of a game may take together.
    pub game_time: Option<Duration>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            size: 9,
            komi: 7.5,
            move_cap: 400,
            move_time: None,
            game_time: None,
        }
    }
}

/// One game's outcome.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub black: String,
    pub white: String,
    pub winner: Color,
    /// Black's area minus white's, minus komi (when counted).
    pub score: f32,
    pub end: End,
    pub moves: usize,
    /// Total thinking time and number of moves, per colour (black, white).
    pub time: [(Duration, usize); 2],
    /// The game as SGF, with `PB`, `PW` and `RE`.
    pub sgf: String,
    /// The moves, folded (to tell a game that repeats another).
    pub fingerprint: Fingerprint,
    /// What went wrong, for a forfeit.
    pub error: Option<String>,
}

impl GameResult {
    /// SGF's `RE` value: `B+3.5`, `W+R`, `B+F`.
    pub fn result_text(&self) -> String {
        go_result_text(self.winner, self.end, self.score)
    }
}

fn go_result_text(winner: Color, end: End, score: f32) -> String {
    let w = if winner == Color::Black { 'B' } else { 'W' };
    match end {
        End::Resigned(_) => format!("{w}+R"),
        End::Forfeit(_) | End::Illegal(_) => format!("{w}+F"),
        End::Timeout(_) => format!("{w}+T"),
        _ => format!("{w}+{}", score.abs()),
    }
}

/// Go's rules as the tournament's referee: a [`Game`] (legality,
/// repetition, area scoring with komi) and the SGF record of the moves.
#[derive(Debug)]
pub struct GoReferee {
    game: Game,
    record: Record,
    /// Passes in a row since the opening.
    passes: usize,
}

impl GoReferee {
    pub fn new(size: usize, komi: f32) -> GoReferee {
        let mut game = Game::new(size);
        game.set_komi(komi);
        GoReferee {
            game,
            record: Record::new(size, komi),
            passes: 0,
        }
    }

    /// The position as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

impl Referee for GoReferee {
    type Move = Move;
    /// The board size and komi.
    type Setup = (usize, f32);

    fn setup(&self) -> (usize, f32) {
        (self.game.goban().size(), self.game.komi())
    }

    fn play(&mut self, color: Color, mv: Move, _took: Duration) -> Result<(), String> {
        self.game.play(color, mv).map_err(|e| e.to_string())?;
        self.record.moves.push((color, mv, Vec::new()));
        if mv == Move::Pass {
            self.passes += 1;
        } else {
            self.passes = 0;
        }
        Ok(())
    }

    fn play_opening(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.play(color, mv, Duration::ZERO)?;
        // An opening's passes do not count towards the two that end the
        // game: the players have not passed.
        self.passes = 0;
        Ok(())
    }

    fn over(&self) -> bool {
        self.passes >= 2
    }

    fn moves(&self) -> usize {
        self.game.history().len()
    }

    /// Go has no draws: a zero score (only with an integer komi) is
    /// White's.
    fn verdict(&self) -> (Option<Color>, f64) {
        let score = self.game.score();
        let winner = if score > 0.0 {
            Color::Black
        } else {
            Color::White
        };
        (Some(winner), f64::from(score))
    }

    fn extension(&self) -> &'static str {
        "sgf"
    }

    fn record(&self, black: &str, white: &str, result: &str) -> String {
        let sgf = self.record.to_sgf();
        let escape = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
        let extra = format!("PB[{}]PW[{}]RE[{result}]", escape(black), escape(white));
        match sgf.strip_prefix("(;") {
            Some(rest) => format!("(;{extra}{rest}"),
            None => sgf,
        }
    }

    fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(self.game.history().iter().map(|(_, mv)| match mv {
            Move::Play(p) => (p.i, p.j),
            Move::Pass => (-1, -1),
        }))
    }
}

/// A Go [`Player`] as a side of the game loop.
struct GoSide<'a>(&'a mut dyn Player);

impl Side<GoReferee> for GoSide<'_> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn new_game(&mut self, &(size, komi): &(usize, f32), seed: u64) -> Result<(), String> {
        self.0.new_game(size, komi, seed)
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.0.play(color, mv)
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        self.0.genmove(color)
    }
    fn set_move_limit(&mut self, limit: Option<Duration>, _game_left: Option<Duration>) {
        self.0.set_move_limit(limit);
    }
}

impl Settings {
    /// The clocks and the cap, Black's and White's clocks `odds` times
    /// the match's ([`referee::EVEN`] for the same).
    pub fn clock(&self, odds: [f64; 2]) -> Clock {
        Clock {
            move_cap: self.move_cap,
            move_time: self.move_time,
            game_time: self.game_time,
            odds,
        }
    }
}

/// Plays one game; `seed` goes to both players.
pub fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    settings: Settings,
    seed: u64,
) -> GameResult {
    play_game_from(black, white, settings, referee::EVEN, seed, &[])
}

/// [`play_game`] after `opening`: moves the referee plays for both sides
/// (Black first) and tells both players, before the first `genmove`.
/// An opening move the rules refuse stops the opening there. Black's and
/// White's clocks are `odds` times the settings' ([`referee::EVEN`] for
/// the same).
pub fn play_game_from(
    black: &mut dyn Player,
    white: &mut dyn Player,
    settings: Settings,
    odds: [f64; 2],
    seed: u64,
    opening: &[Move],
) -> GameResult {
    let r = referee::referee(
        GoReferee::new(settings.size, settings.komi),
        &mut GoSide(black),
        &mut GoSide(white),
        settings.clock(odds),
        seed,
        opening,
    );
    let winner = r.winner().expect("Go has no draws");
    let score = r.referee.game.score();
    let (black, white) = (black.name(), white.name());
    let sgf = r
        .referee
        .record(&black, &white, &go_result_text(winner, r.end, score));
    GameResult {
        black,
        white,
        winner,
        score,
        end: r.end,
        moves: r.referee.moves(),
        time: r.time,
        sgf,
        fingerprint: r.referee.fingerprint(),
        error: r.error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program that ends only at the end of its input, alone or as a
    /// wrapper's filter stage, ends by itself when stopped: its input is
    /// closed, not left open until it is killed.
    #[test]
    fn stopping_an_engine_closes_its_input() {
        for (program, args) in [
            ("cat", vec![]),
            (
                "sh",
                vec!["-c".to_string(), "sed -u s/quit/END/ | cat".to_string()],
            ),
        ] {
            let e = Engine::spawn(program, &args).expect("a shell tool starts");
            assert!(stop(e, "quit"), "{program} {args:?}");
        }
    }

    #[test]
    fn a_game_against_the_random_player_is_refereed_and_recorded() {
        let mut k = Katachi::new("katachi", PatternSet::builtin(), EvalOptions::default());
        let mut r = RandomPlayer::new();
        let settings = Settings {
            size: 7,
            komi: 0.5,
            move_cap: 300,
            move_time: None,
            game_time: None,
        };
        let res = play_game(&mut k, &mut r, settings, 9);
        assert!(res.error.is_none(), "{:?}", res.error);
        assert!(res.moves > 10);
        assert!(
            res.sgf.starts_with("(;PB[katachi]PW[random]RE["),
            "{}",
            res.sgf
        );
        assert!(res.sgf.contains("SZ[7"), "{}", res.sgf);
        assert_eq!(res.time[0].1 + res.time[1].1, res.moves);
    }
}
