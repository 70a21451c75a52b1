//! The manager's side of the Gomoku AI protocol: any Gomocup brain
//! (`pbrain-*`) in a child process as a five-in-a-row tournament player.
//!
//! A game is `START size` (answered `OK`), the `INFO` values
//! (`timeout_turn` and `timeout_match` from the referee's clocks in
//! milliseconds, `rule` 0 freestyle, 1 exactly five, 4 renju,
//! `game_type 1`), then for each move asked: `INFO time_left` when the
//! game has a clock, and `BEGIN` on an empty board, `TURN x,y` with the
//! opponent's last move, or a `BOARD` block (the opening's stones, `1`
//! the brain's own, `2` the opponent's) when the brain has not seen the
//! position yet. The brain answers `x,y` (0-based, `x` the column);
//! `MESSAGE` and `DEBUG` lines before it are read past. The brain is
//! sent `END` when it is let go.
//!
//! As with the GTP player, the brain's output is read by a thread of its
//! own, so that the referee stops waiting at the move limit (plus a
//! second's grace, so that it sees the limit passed and charges a loss
//! on time). A brain that exits, answers `ERROR`, `UNKNOWN` or anything
//! that is not a move fails and is stopped; the next game starts it
//! afresh. Its move is checked by the referee, not here.

use std::time::{Duration, Instant};

use super::five::{FiveReferee, FiveSetup};
use super::referee::Side;
use super::{stop, Engine, SETUP_LIMIT};
use crate::five::Rule;
use crate::position::{Color, Point};

/// A Gomocup brain in a child process.
#[derive(Debug)]
pub struct GomocupPlayer {
    name: String,
    program: String,
    args: Vec<String>,
    engine: Option<Engine>,
    /// The stones of the game so far, in order.
    stones: Vec<(Point, Color)>,
    /// How many of `stones` the brain knows; `None` before its first
    /// move of the game (it is then shown the whole board).
    told: Option<usize>,
    move_limit: Option<Duration>,
    game_left: Option<Duration>,
    /// Whether the game has a game clock (`time_left` is then sent).
    game_clock: bool,
    /// This side's clocks for the coming game (move limit, game time),
    /// when the referee told them: with time odds they differ from the
    /// setup's, which are the match's.
    clocks: Option<(Option<Duration>, Option<Duration>)>,
    /// When the brain last answered (see [`SETTLE`]).
    answered: Option<Instant>,
}

/// How long a brain is left alone after its answer before the next
/// command: Rapfi, for one, still counts itself as thinking for a moment
/// after it prints its move and drops a command that arrives then (and
/// reads the coordinates after it as an unknown command). A manager run
/// by hand never sends that fast; an instant opponent in a tournament
/// does. The wait is before the command is sent, so it is charged to no
/// one's clock.
const SETTLE: Duration = Duration::from_millis(30);

/// `INFO rule`'s value for a rule; `None` for Pente, which the protocol
/// does not name (and whose captures its boards cannot say).
pub fn gomocup_rule(rule: Rule) -> Option<u32> {
    match rule {
        Rule::Freestyle => Some(0),
        Rule::Exact => Some(crate::gomocup::rule::EXACTLY_FIVE),
        Rule::Renju => Some(crate::gomocup::rule::RENJU),
        Rule::Pente => None,
    }
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

impl GomocupPlayer {
    /// Starts `program` with `args`.
    pub fn spawn(name: &str, program: &str, args: &[String]) -> Result<GomocupPlayer, String> {
        let mut p = GomocupPlayer {
            name: name.to_string(),
            program: program.to_string(),
            args: args.to_vec(),
            engine: None,
            stones: Vec::new(),
            told: None,
            move_limit: None,
            game_left: None,
            game_clock: false,
            clocks: None,
            answered: None,
        };
        p.engine = Some(Engine::spawn(&p.program, &p.args)?);
        Ok(p)
    }

    /// Sends `lines`, then, if `answer`, reads the answer within `limit`:
    /// the first line that is not empty, `MESSAGE` or `DEBUG`. On any
    /// failure the brain is stopped.
    fn send(&mut self, lines: &[String], answer: bool, limit: Duration) -> Result<String, String> {
        let result = self.exchange(lines, answer, limit);
        if result.is_err() {
            if let Some(e) = self.engine.take() {
                stop(e, "END");
            }
        }
        result
    }

    fn exchange(
        &mut self,
        lines: &[String],
        answer: bool,
        limit: Duration,
    ) -> Result<String, String> {
        let name = self.name.clone();
        if let Some(since) = self.answered.map(|t| t.elapsed()) {
            std::thread::sleep(SETTLE.saturating_sub(since));
        }
        let e = self
            .engine
            .as_mut()
            .ok_or_else(|| format!("{name} is not running"))?;
        e.send(&name, lines)?;
        if !answer {
            return Ok(String::new());
        }
        let asked = lines.first().map_or("", String::as_str);
        let deadline = Instant::now() + limit;
        loop {
            let line = e.next_line(&name, asked, deadline, limit)?;
            let line = line.trim();
            if line.is_empty() || is_talk(line) {
                continue;
            }
            self.answered = Some(Instant::now());
            return Ok(line.to_string());
        }
    }

    /// What to send for the next move of `me`.
    fn request(&self, me: Color) -> Vec<String> {
        let unseen = &self.stones[self.told.unwrap_or(0)..];
        match (self.told, unseen) {
            (_, []) if self.stones.is_empty() => vec!["BEGIN".into()],
            (Some(_), &[(p, c)]) if c != me => vec![format!("TURN {},{}", p.j, p.i)],
            _ => board_block(self.stones.iter().map(|&(p, c)| (p.j, p.i, c == me))),
        }
    }
}

/// A `BOARD` block: each stone as `x,y,field` (`1` the brain's own,
/// `own`; `2` the opponent's), then `DONE`.
pub(super) fn board_block(stones: impl IntoIterator<Item = (i32, i32, bool)>) -> Vec<String> {
    let mut block = vec!["BOARD".to_string()];
    for (x, y, own) in stones {
        block.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
    }
    block.push("DONE".into());
    block
}

/// Whether a brain's line is talk (`MESSAGE`, `DEBUG`) rather than an
/// answer.
pub(super) fn is_talk(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("MESSAGE") || word.eq_ignore_ascii_case("DEBUG")
}

/// A brain's move, `x,y` from 0.
pub(super) fn parse_move(answer: &str) -> Option<Point> {
    let (x, y) = answer.split_once(',')?;
    let (x, y): (i32, i32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    Some(Point::new(y, x))
}

impl Drop for GomocupPlayer {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            stop(e, "END");
        }
    }
}

impl Side<FiveReferee> for GomocupPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &FiveSetup, _seed: u64) -> Result<(), String> {
        let rule = gomocup_rule(setup.rule)
            .ok_or_else(|| format!("{}: the Gomocup protocol has no Pente rule", self.name))?;
        if self.engine.is_none() {
            self.engine = Some(Engine::spawn(&self.program, &self.args)?);
        }
        self.stones.clear();
        self.told = None;
        let (move_time, game_time) = self.clocks.unwrap_or((setup.move_time, setup.game_time));
        self.game_clock = game_time.is_some();
        let start = format!("START {}", setup.size);
        let ok = self.send(std::slice::from_ref(&start), true, SETUP_LIMIT)?;
        if !ok.eq_ignore_ascii_case("OK") {
            if let Some(e) = self.engine.take() {
                stop(e, "END");
            }
            return Err(format!("{} answered `{start}` with `{ok}`", self.name));
        }
        let mut info = Vec::new();
        if let Some(t) = move_time {
            info.push(format!("INFO timeout_turn {}", millis(t).max(1)));
        }
        info.push(format!(
            "INFO timeout_match {}",
            game_time.map_or(0, millis)
        ));
        info.push(format!("INFO rule {rule}"));
        info.push("INFO game_type 1".into());
        self.send(&info, false, SETUP_LIMIT).map(|_| ())
    }

    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        self.stones.push((p, color));
        Ok(())
    }

    fn set_move_limit(&mut self, limit: Option<Duration>, game_left: Option<Duration>) {
        self.move_limit = limit;
        self.game_left = game_left;
    }

    fn set_clocks(&mut self, move_time: Option<Duration>, game_time: Option<Duration>) {
        self.clocks = Some((move_time, game_time));
    }

    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        let mut lines = Vec::new();
        if let Some(left) = self.game_left.filter(|_| self.game_clock) {
            lines.push(format!("INFO time_left {}", millis(left)));
        }
        lines.extend(self.request(color));
        // A second's grace, so that the referee sees the limit passed.
        let limit = self
            .move_limit
            .map_or(SETUP_LIMIT, |l| l + Duration::from_secs(1));
        let answer = self.send(&lines, true, limit)?;
        let Some(p) = parse_move(&answer) else {
            if let Some(e) = self.engine.take() {
                stop(e, "END");
            }
            return Err(format!(
                "{} answered `{}` with `{answer}`, not a move",
                self.name,
                lines.last().map_or("", String::as_str)
            ));
        };
        self.stones.push((p, color));
        self.told = Some(self.stones.len());
        Ok(Some(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_as_column_then_row() {
        assert_eq!(parse_move("3,10"), Some(Point::new(10, 3)));
        assert_eq!(parse_move(" 0 , 1 "), Some(Point::new(1, 0)));
        for bad in ["", "3", "a,b", "OK", "1,2,3"] {
            assert_eq!(parse_move(bad), None, "{bad}");
        }
    }
}
