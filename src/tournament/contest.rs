//! The hexagonal contest's side of tournaments (seed 003): any program
//! that speaks the contest's file protocol as a player, and the contest's
//! game log as the record of a game on the hexagon.
//!
//! A file-protocol player (`NAME=file:COMMAND`) is started once for the
//! whole match, as the contest starts its teams: `sh -c COMMAND` in a
//! folder of its own (`OUT/players/NAME/`, its output in
//! `player-NAME.log` there), `{team}` in the command replaced by the
//! player's name (its team) and `{dir}` by the folder. Each move it is
//! asked for is one exchange of the protocol, the judge's own
//! ([`crate::contest::judge::exchange`]): its old `move_NAME.txt`
//! deleted, `state_NAME.txt` written atomically with its stones as `1`
//! and the opponent's as `2`, its answer awaited until the referee's move
//! limit. A late, malformed or tampered answer, or a cell off the board,
//! fails the player (the referee charges the game); a taken cell is the
//! referee's to refuse. A game needs no message of its own: the protocol
//! starts one at move 1 or 2, and the player knows it from the state.
//!
//! So `katachi tournament --game hex` plays any two contest players, or
//! one against katachi's built-in ones, with the same protocol code as
//! `katachi hex judge`, and keeps the judge's log format for its records.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::five::{FiveReferee, FiveSetup};
use super::referee::{End, Referee, Side};
use crate::contest::judge::{exchange, state_for, Answer, Started};
use crate::contest::log::{Ending, GameLog, LoggedMove, Violation};
use crate::five::{FiveBoard, Outcome, Rule};
use crate::hexagon::{HexLayout, CONTEST_SIDE};
use crate::position::{Color, Point, Position};

/// How long a contest player waits for a move when the tournament has no
/// move limit: the contest's own.
pub const CONTEST_LIMIT: Duration = Duration::from_secs(5);

/// How often the tournament looks for a move file.
const POLL: Duration = Duration::from_millis(2);

/// A program that speaks the contest's file protocol.
#[derive(Debug)]
pub struct ContestPlayer {
    name: String,
    command: String,
    dir: PathBuf,
    started: Option<Started>,
    board: Option<FiveBoard>,
    limit: Option<Duration>,
}

impl ContestPlayer {
    /// Starts `command` (its `{team}` and `{dir}` replaced) in
    /// `players/NAME/` under `out`.
    pub fn spawn(name: &str, command: &str, out: &Path) -> Result<ContestPlayer, String> {
        let team_ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !team_ok {
            return Err(format!(
                "player `{name}`: a file-protocol player's name is its team, part of file names: letters, digits, `-` and `_`"
            ));
        }
        if !command.contains("{team}") {
            return Err(format!(
                "player `{name}`: the command must name its team with `{{team}}` (e.g. `file:katachi hex player --team {{team}}`)"
            ));
        }
        let dir = out.join("players").join(name);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let command = command
            .replace("{team}", name)
            .replace("{dir}", &shell_quote(&dir.display().to_string()));
        let started = Started::start(&dir, &[(name.to_string(), command.clone())])
            .map_err(|e| format!("player `{name}`: {e}"))?;
        Ok(ContestPlayer {
            name: name.to_string(),
            command,
            dir,
            started: Some(started),
            board: None,
            limit: None,
        })
    }

    /// The command as started.
    pub fn command(&self) -> &str {
        &self.command
    }
}

/// `s` as one word for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl Side<FiveReferee> for ContestPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &FiveSetup, _seed: u64) -> Result<(), String> {
        if !setup.hexagon {
            return Err(format!(
                "{} speaks the hexagonal contest's protocol (--game hex)",
                self.name
            ));
        }
        if self.started.is_none() {
            return Err(format!("{} is not running", self.name));
        }
        self.board = Some(FiveBoard::hexagon(setup.size, setup.rule).map_err(|e| e.to_string())?);
        Ok(())
    }

    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        let board = self.board.as_mut().ok_or("no game")?;
        if board.to_move() != color {
            return Err(format!("{color:?} moved out of turn"));
        }
        board.play(p).map(|_| ()).map_err(|e| e.to_string())
    }

    fn set_move_limit(&mut self, limit: Option<Duration>, _game_left: Option<Duration>) {
        self.limit = limit;
    }

    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        let board = self.board.as_ref().ok_or("no game")?;
        let layout = board.hex_layout().ok_or("not a hexagonal board")?;
        let state = state_for(board, &layout, color);
        let limit = self.limit.unwrap_or(CONTEST_LIMIT);
        let answer = exchange(&self.dir, &self.name, &state, limit, POLL).map_err(|e| {
            // The folder itself failed: this player cannot go on.
            self.started = None;
            e.to_string()
        })?;
        let m = match answer {
            Answer::Move(m, _) => m,
            Answer::Broke(violation, detail) => {
                return Err(format!("{}: {detail}", violation.word()))
            }
        };
        let Some(p) = layout.point(m.cell as usize) else {
            return Err(format!(
                "{}: move {} on cell {}, off the board",
                Violation::Outside.word(),
                m.move_number,
                m.cell
            ));
        };
        let board = self.board.as_mut().ok_or("no game")?;
        // A taken cell is the referee's to charge, as an illegal move.
        if board.stone(p).is_none() {
            board.play(p).map_err(|e| e.to_string())?;
        }
        Ok(Some(p))
    }
}

/// The game on the hexagon as the judge logs it (`teams` black first,
/// the first playing the odd moves; the limit a move, 0 for none): each
/// move with its cell and time (none for the opening's stones), and the
/// ending — a five
/// and its row, a full board, or the rule a failing player broke (`end`
/// and the referee's `error`: a file player's failure names its
/// violation; a time-out is `late`, an illegal move `taken`, any other
/// failure or a resignation `malformed`). A game stopped by the move cap,
/// or unfinished, has no result line.
pub fn game_log(referee: &FiveReferee, teams: [&str; 2], end: Option<(&End, &str)>) -> GameLog {
    let board = referee.board();
    let layout = board.hex_layout();
    let cell = |p: Point| {
        layout
            .as_ref()
            .and_then(|l| l.number(p))
            .map_or(u32::MAX, |k| k as u32)
    };
    let millis: Vec<Option<u32>> = referee.millis().collect();
    let moves = board
        .moves()
        .iter()
        .enumerate()
        .map(|(k, &p)| LoggedMove {
            number: k as u32 + 1,
            side: k % 2,
            cell: cell(p),
            millis: millis.get(k).copied().flatten().map(u64::from),
        })
        .collect();
    let side = |c: Color| usize::from(c == Color::White);
    let ending = match (board.outcome(), end) {
        (Some(Outcome::Win(c)), _) => Some(Ending::Five {
            winner: side(c),
            row: board.win_row().into_iter().map(cell).collect(),
        }),
        (Some(Outcome::Draw), _) => Some(Ending::FullBoard),
        (None, Some((end, error))) => end.loser().map(|loser| {
            let named = Violation::ALL
                .into_iter()
                .find(|v| error.starts_with(&format!("{}: ", v.word())));
            let violation = match end {
                End::Timeout(_) => Violation::Late,
                End::Illegal(_) => Violation::Taken,
                _ => named.unwrap_or(Violation::Malformed),
            };
            let detail = match named {
                Some(v) => error[v.word().len() + 2..].to_string(),
                None if error.is_empty() => format!("{end:?}"),
                None => error.to_string(),
            };
            Ending::Violation {
                loser: side(loser),
                violation,
                detail: detail.replace('\n', " "),
            }
        }),
        (None, None) => None,
    };
    let setup = referee.setup();
    GameLog {
        teams: [teams[0].to_string(), teams[1].to_string()],
        exact: setup.rule == Rule::Exact,
        limit_ms: setup
            .move_time
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        moves,
        ending,
    }
}

/// `n` openings of `stones` cells each near the centre of the contest's
/// board, the judge's ([`crate::contest::judge::random_opening`]) for
/// seeds drawn from `seed`.
pub fn hex_openings(n: usize, stones: usize, seed: u64) -> Vec<Vec<Point>> {
    let layout = HexLayout::new(CONTEST_SIDE);
    (0..n)
        .map(|k| {
            crate::contest::judge::random_opening(stones, seed.wrapping_add(k as u64))
                .into_iter()
                .filter_map(|c| layout.point(c as usize))
                .collect()
        })
        .collect()
}
