//! The contest's judge: plays a game between two teams through the file
//! protocol ([`super::protocol`]) and says who won and why
//! ([`super::log`]).
//!
//! For each move the judge deletes the team's old `move_N.txt`, writes its
//! `state_N.txt` atomically and waits, polling, for a `move_N.txt` within
//! the limit. The team to move loses at once for:
//!
//! - `late`: no move file within the limit (counted from the state file
//!   written to the move file read);
//! - `tampered`: its state file was changed or removed when its move came;
//! - `malformed`: a move file that does not parse (read twice, a short
//!   while apart, the same both times: a player that writes its file in
//!   place is not charged for the judge reading it half written), or that
//!   names another move number than the one asked;
//! - `outside`: a cell outside 0–216;
//! - `taken`: a cell already taken.
//!
//! Otherwise the stone is placed on a rules board ([`FiveBoard::hexagon`],
//! five or more by default, exactly five with `exact`): a five wins, a
//! full board is a draw. The first team plays the odd moves. An opening
//! (cells the judge places itself, alternately for the first and second
//! team) lets a match of deterministic players vary its games.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::log::{Ending, GameLog, LoggedMove, Violation};
use super::protocol::{self, Cell, State, CELLS};
use crate::five::{FiveBoard, Outcome, Rule};
use crate::hexagon::{HexLayout, CONTEST_SIDE};
use crate::position::{Color, Position};

/// How long a malformed move file must stay the same before it counts.
const SETTLE: Duration = Duration::from_millis(250);

/// What the judge needs: the folder, the teams, the limit, the rule.
#[derive(Clone, Debug)]
pub struct Judge {
    pub dir: PathBuf,
    /// The two teams' numbers (or names: letters, digits, `-`, `_`).
    pub teams: [String; 2],
    /// The time a move may take.
    pub limit: Duration,
    /// Exactly five wins (else five or more).
    pub exact: bool,
    /// How often the judge looks for a move file.
    pub poll: Duration,
}

/// Why the judge itself could not go on (not a team's fault).
#[derive(Debug)]
pub enum JudgeError {
    /// A team name that cannot be part of a file name.
    BadTeam(String),
    /// Both teams have the same name.
    SameTeams,
    /// An opening that is not a list of distinct cells without a five.
    BadOpening(String),
    /// A file the judge could not read, remove or write.
    Io {
        path: PathBuf,
        error: io::Error,
    },
    Write(mkpat::output::Error),
    /// A player's command could not be started.
    Start {
        command: String,
        error: io::Error,
    },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::BadTeam(t) => write!(
                f,
                "team `{t}`: a team is named by letters, digits, `-` and `_` (it is part of file names)"
            ),
            JudgeError::SameTeams => write!(f, "the two teams must differ"),
            JudgeError::BadOpening(why) => write!(f, "the opening: {why}"),
            JudgeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            JudgeError::Write(e) => write!(f, "{e}"),
            JudgeError::Start { command, error } => {
                write!(f, "could not start `{command}`: {error}")
            }
        }
    }
}

impl std::error::Error for JudgeError {}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> JudgeError + '_ {
    move |error| JudgeError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// What a team answered to a state file ([`exchange`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move file that parses and answers the move asked, and the time
    /// from the state file written to the move file read.
    Move(protocol::Move, Duration),
    /// The rule the team broke, and how.
    Broke(Violation, String),
}

impl Judge {
    /// A judge of `teams` in `dir` with a limit, five or more winning.
    pub fn new(dir: impl Into<PathBuf>, teams: [String; 2], limit: Duration) -> Judge {
        Judge {
            dir: dir.into(),
            teams,
            limit,
            exact: false,
            poll: Duration::from_millis(2),
        }
    }

    fn check_teams(&self) -> Result<(), JudgeError> {
        for t in &self.teams {
            let ok = !t.is_empty()
                && t.len() <= 64
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !ok {
                return Err(JudgeError::BadTeam(t.clone()));
            }
        }
        if self.teams[0] == self.teams[1] {
            return Err(JudgeError::SameTeams);
        }
        Ok(())
    }

    /// The log's file name for a game that `first` (0 or 1) starts:
    /// `game-log-FIRST-SECOND.txt`.
    pub fn log_name(&self, first: usize) -> String {
        format!(
            "game-log-{}-{}.txt",
            self.teams[first],
            self.teams[1 - first]
        )
    }

    /// Plays one game that team `first` (0 or 1) starts, after the
    /// `opening` cells (placed by the judge, alternately the first
    /// team's and the second's), and returns its log (teams in playing
    /// order). The log is not written: see [`Judge::write_log`].
    pub fn play(&self, first: usize, opening: &[u32]) -> Result<GameLog, JudgeError> {
        self.check_teams()?;
        let order = [self.teams[first].clone(), self.teams[1 - first].clone()];
        let rule = if self.exact {
            Rule::Exact
        } else {
            Rule::Freestyle
        };
        let mut board = FiveBoard::hexagon(CONTEST_SIDE, rule).expect("the contest board");
        let layout = HexLayout::new(CONTEST_SIDE);
        let mut log = GameLog {
            teams: order.clone(),
            exact: self.exact,
            limit_ms: self.limit.as_millis() as u64,
            moves: Vec::new(),
            ending: None,
        };
        for (k, &cell) in opening.iter().enumerate() {
            let p = layout
                .point(cell as usize)
                .ok_or_else(|| JudgeError::BadOpening(format!("cell {cell} is off the board")))?;
            match board.play(p) {
                Ok(None) => {}
                Ok(Some(_)) => {
                    return Err(JudgeError::BadOpening(format!("cell {cell} ends the game")))
                }
                Err(e) => return Err(JudgeError::BadOpening(format!("cell {cell}: {e}"))),
            }
            log.moves.push(LoggedMove {
                number: k as u32 + 1,
                side: k % 2,
                cell,
                millis: None,
            });
        }
        loop {
            let number = log.moves.len() as u32 + 1;
            let side = (number as usize + 1) % 2;
            let me = if side == 0 {
                Color::Black
            } else {
                Color::White
            };
            let state = state_for(&board, &layout, me);
            let (m, took) = match self.ask(&order[side], &state)? {
                Answer::Move(m, took) => (m, took),
                Answer::Broke(violation, detail) => {
                    log.ending = Some(Ending::Violation {
                        loser: side,
                        violation,
                        detail,
                    });
                    return Ok(log);
                }
            };
            let broke = |violation, detail: String| Ending::Violation {
                loser: side,
                violation,
                detail,
            };
            let Some(p) = layout.point(m.cell as usize) else {
                log.ending = Some(broke(
                    Violation::Outside,
                    format!("move {number} on cell {}, outside 0-{}", m.cell, CELLS - 1),
                ));
                return Ok(log);
            };
            if board.stone(p).is_some() {
                log.ending = Some(broke(
                    Violation::Taken,
                    format!("move {number} on cell {}, already taken", m.cell),
                ));
                return Ok(log);
            }
            let outcome = board.play(p).expect("an empty cell of an unfinished game");
            log.moves.push(LoggedMove {
                number,
                side,
                cell: m.cell,
                millis: Some(took.as_millis() as u64),
            });
            match outcome {
                None => {}
                Some(Outcome::Win(_)) => {
                    let row = board
                        .win_row()
                        .into_iter()
                        .filter_map(|q| layout.number(q))
                        .map(|k| k as u32)
                        .collect();
                    log.ending = Some(Ending::Five { winner: side, row });
                    return Ok(log);
                }
                Some(Outcome::Draw) => {
                    log.ending = Some(Ending::FullBoard);
                    return Ok(log);
                }
            }
        }
    }

    /// Writes `state` for `team` and waits for its answer.
    fn ask(&self, team: &str, state: &State) -> Result<Answer, JudgeError> {
        exchange(&self.dir, team, state, self.limit, self.poll)
    }

    /// Writes `log` into the folder as `name` (atomically).
    pub fn write_log(&self, name: &str, log: &GameLog) -> Result<PathBuf, JudgeError> {
        let path = self.dir.join(name);
        protocol::write_atomically(&path, log.to_string().as_bytes()).map_err(JudgeError::Write)?;
        Ok(path)
    }
}

/// The state file of `board` for the team playing `me`: the move about
/// to be played, its stones `1`, the opponent's `2`.
pub fn state_for(board: &FiveBoard, layout: &HexLayout, me: Color) -> State {
    State {
        move_number: board.moves().len() as u32 + 1,
        cells: layout
            .points()
            .map(|p| match board.stone(p) {
                None => Cell::Empty,
                Some(c) if c == me => Cell::Mine,
                Some(_) => Cell::Theirs,
            })
            .collect(),
    }
}

/// One exchange of the protocol, as the judge and `katachi tournament`'s
/// file-protocol players both run it: deletes `team`'s old `move_N.txt`
/// in `dir`, writes its `state_N.txt` atomically, and waits (looking
/// every `poll`) for a move file within `limit`. The answer is a move,
/// or the rule the team broke: `late`, `malformed` (a file that does not
/// parse once it has settled, or names another move number) or
/// `tampered`. Whether the cell is on the board and empty is the
/// caller's to judge.
pub fn exchange(
    dir: &Path,
    team: &str,
    state: &State,
    limit: Duration,
    poll: Duration,
) -> Result<Answer, JudgeError> {
    let move_path = protocol::move_path(dir, team);
    let state_path = protocol::state_path(dir, team);
    match fs::remove_file(&move_path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(&move_path)(e)),
    }
    let text = state.to_text();
    protocol::write_atomically(&state_path, text.as_bytes()).map_err(JudgeError::Write)?;
    let written = Instant::now();
    let file = format!("move_{team}.txt");
    // A malformed file, and when it was first read so.
    let mut unsettled: Option<(Vec<u8>, Instant)> = None;
    let (m, took) = loop {
        let took = written.elapsed();
        let late = took > limit;
        match fs::read(&move_path) {
            Ok(bytes) => match protocol::parse_move(&file, &bytes) {
                Ok(m) if !late => break (m, took),
                Ok(_) => return Ok(late_answer(team, took, limit)),
                Err(e) => match &unsettled {
                    Some((old, at)) if *old == bytes && (at.elapsed() >= SETTLE || late) => {
                        return Ok(Answer::Broke(Violation::Malformed, one_line(&e)));
                    }
                    Some((old, _)) if *old == bytes => {}
                    _ if late => {
                        return Ok(Answer::Broke(Violation::Malformed, one_line(&e)));
                    }
                    _ => unsettled = Some((bytes, Instant::now())),
                },
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if late {
                    return Ok(late_answer(team, took, limit));
                }
            }
            Err(e) => return Err(io_error(&move_path)(e)),
        }
        std::thread::sleep(poll);
    };
    match fs::read(&state_path) {
        Ok(now) if now == text.as_bytes() => {}
        Ok(_) => {
            return Ok(Answer::Broke(
                Violation::Tampered,
                format!("state_{team}.txt was changed"),
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Answer::Broke(
                Violation::Tampered,
                format!("state_{team}.txt was removed"),
            ))
        }
        Err(e) => return Err(io_error(&state_path)(e)),
    }
    if m.move_number != state.move_number {
        return Ok(Answer::Broke(
            Violation::Malformed,
            format!(
                "move_{team}.txt says move {}, the judge asked for move {}",
                m.move_number, state.move_number
            ),
        ));
    }
    Ok(Answer::Move(m, took))
}

fn late_answer(team: &str, took: Duration, limit: Duration) -> Answer {
    Answer::Broke(
        Violation::Late,
        format!(
            "no move_{team}.txt within {} ms ({} ms)",
            limit.as_millis(),
            took.as_millis()
        ),
    )
}

/// A parse error's first line, for the log.
fn one_line(e: &protocol::ParseError) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

/// Players the judge started itself (`sh -c COMMAND` in the folder, their
/// output in `player-TEAM.log`); ended when dropped.
#[derive(Debug)]
pub struct Started {
    children: Vec<Child>,
}

impl Started {
    /// Starts each `(team, command)`.
    pub fn start(dir: &Path, commands: &[(String, String)]) -> Result<Started, JudgeError> {
        let mut started = Started {
            children: Vec::new(),
        };
        for (team, command) in commands {
            let log_path = dir.join(format!("player-{team}.log"));
            let out = fs::File::create(&log_path).map_err(io_error(&log_path))?;
            let err = out.try_clone().map_err(io_error(&log_path))?;
            let child = Command::new("sh")
                .arg("-c")
                // `exec`: the player is the child, and dropping ends it.
                .arg(format!("exec {command}"))
                .current_dir(dir)
                .stdin(Stdio::null())
                .stdout(out)
                .stderr(err)
                .spawn()
                .map_err(|error| JudgeError::Start {
                    command: command.clone(),
                    error,
                })?;
            started.children.push(child);
        }
        Ok(started)
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        for c in &mut self.children {
            // Ours, by id: it may have exited already.
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// `moves` distinct cells near the centre of the contest board (within
/// two steps of it), drawn from `seed`: an opening that varies the games
/// of deterministic players. No five fits in 19 cells two steps round the
/// centre with at most 18 stones alternating, so the opening never ends
/// a game; at most 19 moves.
pub fn random_opening(moves: usize, seed: u64) -> Vec<u32> {
    let layout = HexLayout::new(CONTEST_SIDE);
    let c = CONTEST_SIDE as i32 - 1;
    let near: Vec<u32> = layout
        .points()
        .filter(|p| {
            let (di, dj) = (p.i - c, p.j - c);
            (di.abs() + dj.abs() + (di + dj).abs()) / 2 <= 2
        })
        .map(|p| layout.number(p).expect("on the board") as u32)
        .collect();
    let mut state = seed;
    // splitmix64: the finaliser of each step's state.
    let mut next = || {
        let z = crate::seeding::splitmix(state);
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    };
    let mut pool = near;
    let mut out = Vec::new();
    while out.len() < moves.min(pool.len()) {
        let k = (next() % (pool.len() - out.len()) as u64) as usize + out.len();
        pool.swap(out.len(), k);
        out.push(pool[out.len()]);
    }
    out
}
