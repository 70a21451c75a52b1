//! katachi's team in the hexagonal contest: waits for `state_N.txt` to
//! change, answers with `move_N.txt`, game after game, until it is ended
//! (a signal, or `idle` time without a new state).
//!
//! A move is the five-in-a-row engine's on the hexagon
//! ([`Engine`]`<`[`Hexagon`]`>`, `patterns/hexfive.db`), within a budget
//! well inside the judge's limit. The player only reads the state file.
//! What it reads is checked: a file that does not parse is read again a
//! moment later (a judge that writes in place may have been caught
//! half-way), then salvaged as well as it can be (the first number as the
//! move number, unreadable cells empty) and answered; a board whose stone
//! counts do not fit the move number, or that does not follow from the
//! last one by one opponent stone, is reported and played from as it is.
//! Every such finding goes to the log (standard error), never a panic.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use mkpat::geometry::Hexagon;

use super::protocol::{self, Cell, Move, State, CELLS};
use crate::five::database::FiveDatabase;
use crate::five::engine::{Engine, Limits, Reason, DEFAULT_TABLE_BYTES};
use crate::five::line_records::line_records;
use crate::five::players::greedy;
use crate::five::{FiveBoard, Rule};
use crate::hexagon::{HexLayout, CONTEST_SIDE};
use crate::position::{Color, Point, Position};

/// The player's settings.
#[derive(Clone, Debug)]
pub struct PlayerOptions {
    pub dir: PathBuf,
    pub team: String,
    /// The time a move may take, from the state file seen to the move
    /// file written (the judge allows 5 s).
    pub budget: Duration,
    /// Exactly five wins (the judge's `--exact`).
    pub exact: bool,
    /// How often the state file is looked at.
    pub poll: Duration,
    /// Stop after this long without a new state (`None`: never).
    pub idle: Option<Duration>,
    /// Who chooses the moves.
    pub engine: HexEngine,
    /// katachi's engine values with this database (a personality's
    /// re-weighing of `patterns/hexfive.db`, `--personality`) instead of
    /// the builtin one; the baselines ignore it.
    pub database: Option<Arc<FiveDatabase<Hexagon>>>,
    /// katachi's engine searches every move to this depth with no clock
    /// instead of within `budget` (fixed work: the same answer on any
    /// machine; a depth that fits the judge's limit is the user's call).
    pub depth: Option<u32>,
}

/// Who chooses a player's moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HexEngine {
    /// katachi's five-in-a-row engine on the hexagon.
    Katachi,
    /// The plan of seed 003's notes ([`crate::five::line_records`]).
    LineRecords,
    /// One move ahead ([`crate::five::players::greedy`]).
    Greedy,
}

impl PlayerOptions {
    pub fn new(dir: impl Into<PathBuf>, team: &str) -> PlayerOptions {
        PlayerOptions {
            dir: dir.into(),
            team: team.to_string(),
            budget: DEFAULT_BUDGET,
            exact: false,
            poll: Duration::from_millis(2),
            idle: None,
            engine: HexEngine::Katachi,
            database: None,
            depth: None,
        }
    }
}

/// The default budget: well inside the judge's 5 s, with room for a
/// loaded machine (the longest move of the 200 benchmark games at this
/// budget took 1.46 s, judge's clock), and the setting whose strength
/// the README reports.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(1000);

/// A state file older than this when the player starts is a former
/// game's, and is not answered.
const STALE: Duration = Duration::from_secs(10);

/// How long a state that does not parse is given to be completed.
const SETTLE: Duration = Duration::from_millis(50);

/// What identifies one writing of the state file: a judge that renames a
/// new file into place changes its inode; one that writes in place, its
/// time or length.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Seen {
    inode: u64,
    modified: Option<SystemTime>,
    bytes: Vec<u8>,
}

fn seen(path: &Path) -> io::Result<Seen> {
    let stamp = |meta: &fs::Metadata| {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        (inode, meta.modified().ok(), meta.len())
    };
    // The file's stamp before and after its bytes: the same both times,
    // or the judge replaced it meanwhile and it is read again.
    loop {
        let before = stamp(&fs::metadata(path)?);
        let bytes = fs::read(path)?;
        let (inode, modified, len) = stamp(&fs::metadata(path)?);
        if (inode, modified, len) == before && len == bytes.len() as u64 {
            return Ok(Seen {
                inode,
                modified,
                bytes,
            });
        }
    }
}

/// The state salvaged from a file that does not parse: the first number
/// as the move number, line 2's words as cells (what is not 0, 1 or 2
/// empty, missing cells empty). `None` without a move number.
pub fn salvage(bytes: &[u8]) -> Option<State> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    let move_number: u32 = lines
        .next()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|n| (1..=CELLS as u32).contains(n))?;
    let mut cells: Vec<Cell> = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .take(CELLS)
        .map(|w| match w {
            "1" => Cell::Mine,
            "2" => Cell::Theirs,
            _ => Cell::Empty,
        })
        .collect();
    cells.resize(CELLS, Cell::Empty);
    Some(State { move_number, cells })
}

/// What is odd about a state, in words (empty when nothing is).
pub fn check_state(state: &State, last: Option<&(State, u32)>) -> Vec<String> {
    let mut notes = Vec::new();
    let mine = state.cells.iter().filter(|&&c| c == Cell::Mine).count();
    let theirs = state.cells.iter().filter(|&&c| c == Cell::Theirs).count();
    let n = state.move_number as usize;
    // The first team plays the odd moves.
    let (want_mine, want_theirs) = if n % 2 == 1 {
        ((n - 1) / 2, (n - 1) / 2)
    } else {
        ((n - 2) / 2, n / 2)
    };
    if (mine, theirs) != (want_mine, want_theirs) {
        notes.push(format!(
            "move {n} should follow {want_mine} stones of mine and {want_theirs} of the opponent's; \
             the board has {mine} and {theirs}"
        ));
    }
    if let Some((before, played)) = last {
        let follows = state.move_number == before.move_number + 2
            && state.cells[*played as usize] == Cell::Mine
            && before
                .cells
                .iter()
                .zip(&state.cells)
                .enumerate()
                .filter(|&(k, (a, b))| a != b && k != *played as usize)
                .map(|(_, (a, b))| (*a, *b))
                .eq([(Cell::Empty, Cell::Theirs)]);
        if !follows && state.move_number > 2 {
            notes.push(format!(
                "move {n} does not follow from move {} (my cell {played} and one opponent stone): \
                 a new game, or a board changed; playing from it as it is",
                before.move_number
            ));
        }
    }
    notes
}

/// The rules board of a state: the side to move's stones are `me`'s.
fn board_of(state: &State, rule: Rule) -> FiveBoard {
    let layout = HexLayout::new(CONTEST_SIDE);
    let mut board = FiveBoard::hexagon(CONTEST_SIDE, rule).expect("the contest board");
    let me = if state.move_number % 2 == 1 {
        Color::Black
    } else {
        Color::White
    };
    for (p, c) in layout.points().zip(&state.cells) {
        let stone = match c {
            Cell::Empty => continue,
            Cell::Mine => me,
            Cell::Theirs => me.other(),
        };
        board.put(p, stone).expect("each cell once");
    }
    board.set_to_move(me);
    board
}

/// The engine's answer to `state` within `budget`, and why (in words).
/// Always a cell when one is empty, whatever the board says.
pub fn answer(state: &State, exact: bool, budget: Duration) -> Option<(u32, String)> {
    answer_with(HexEngine::Katachi, state, exact, budget)
}

/// [`answer`] by `engine` (the baselines ignore the budget).
pub fn answer_with(
    engine: HexEngine,
    state: &State,
    exact: bool,
    budget: Duration,
) -> Option<(u32, String)> {
    answer_by(engine, None, state, exact, Effort::Budget(budget))
}

/// How hard katachi's engine looks for a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effort {
    /// Deepening until the time is spent (the contest).
    Budget(Duration),
    /// To this depth, no clock, forced wins by fours only: the same move
    /// on any machine under any load (the pinned tests; `katachi
    /// personality diff`'s setting on the square board).
    Depth(u32),
}

/// [`answer_with`] with katachi's engine valuing with `db` (the builtin
/// hexagonal database when `None`) at `effort`.
pub fn answer_by(
    engine: HexEngine,
    db: Option<&Arc<FiveDatabase<Hexagon>>>,
    state: &State,
    exact: bool,
    effort: Effort,
) -> Option<(u32, String)> {
    let rule = if exact { Rule::Exact } else { Rule::Freestyle };
    let board = board_of(state, rule);
    let layout = HexLayout::new(CONTEST_SIDE);
    let baseline = match engine {
        HexEngine::Katachi => None,
        HexEngine::LineRecords => Some((line_records(&board), "line records")),
        HexEngine::Greedy => Some((greedy(&board), "greedy")),
    };
    if let Some((p, why)) = baseline {
        return Some((layout.number(p?)? as u32, why.to_string()));
    }
    let start = Instant::now();
    let elapsed = || start.elapsed();
    let stop = AtomicBool::new(false);
    let mut engine = match db {
        None => Engine::<Hexagon>::on(board.clone()),
        Some(db) => Engine::<Hexagon>::with_database(board.clone(), db.clone()),
    };
    let limits = match effort {
        Effort::Budget(budget) => Limits {
            elapsed: &elapsed,
            budget: Some(budget),
            stop: &stop,
            max_depth: 10,
            vcf_depth: 16,
            vct_depth: 6,
            table_bytes: DEFAULT_TABLE_BYTES,
            proof_search: false,
            max_nodes: None,
        },
        Effort::Depth(depth) => Limits::at_depth(depth, &stop),
    };
    let found = engine.choose(&limits);
    let (p, why) = match found {
        Some((p, reason)) => (p, describe(&reason)),
        // The engine plays no move once the board holds a five (a board
        // the judge should not have sent): the empty cell nearest the
        // centre.
        None => {
            let c = Point::new(CONTEST_SIDE as i32 - 1, CONTEST_SIDE as i32 - 1);
            let p = board
                .points()
                .filter(|&p| board.stone(p).is_none())
                .min_by_key(|p| {
                    let (di, dj) = (p.i - c.i, p.j - c.j);
                    (di.abs() + dj.abs() + (di + dj).abs(), p.i, p.j)
                })?;
            (
                p,
                "no move from the engine: the empty cell nearest the centre".into(),
            )
        }
    };
    Some((layout.number(p)? as u32, why))
}

fn describe(reason: &Reason) -> String {
    match reason {
        Reason::Opening => "opening".into(),
        Reason::Wins => "wins".into(),
        Reason::Blocks => "blocks a five".into(),
        Reason::Vcf(line) => format!("forced win by fours ({} moves)", line.len()),
        Reason::Vct(line) => format!("forced win by threes and fours ({} moves)", line.len()),
        Reason::Search {
            score,
            depth,
            defends,
        } => format!(
            "search depth {depth} score {score}{}",
            if *defends { " (defends)" } else { "" }
        ),
        Reason::OnlyDefence => "the one move that stops a forced win".into(),
    }
}

/// Why the player stopped (an error of its own files, not of the judge's).
#[derive(Debug)]
pub enum PlayerError {
    BadTeam(String),
    Io { path: PathBuf, error: io::Error },
    Write(mkpat::output::Error),
}

impl std::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerError::BadTeam(t) => write!(
                f,
                "team `{t}`: a team is named by letters, digits, `-` and `_`"
            ),
            PlayerError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            PlayerError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// Plays until idle for `options.idle` (forever without it); every move
/// and every oddity is written to `log`. Returns the moves played.
pub fn run(options: &PlayerOptions, log: &mut dyn io::Write) -> Result<u64, PlayerError> {
    let team = &options.team;
    if team.is_empty()
        || !team
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(PlayerError::BadTeam(team.clone()));
    }
    let state_path = protocol::state_path(&options.dir, team);
    let move_path = protocol::move_path(&options.dir, team);
    let file = format!("state_{team}.txt");
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |error| PlayerError::Io { path, error }
    };
    // A state file left from an earlier contest is not answered.
    let mut last_seen = seen(&state_path).ok().filter(|s| {
        s.modified
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > STALE)
    });
    if last_seen.is_some() {
        let _ = writeln!(
            log,
            "{file}: older than {} s, not answered",
            STALE.as_secs()
        );
    }
    let mut last: Option<(State, u32)> = None;
    let mut moves = 0;
    let mut idle_since = Instant::now();
    loop {
        if options.idle.is_some_and(|d| idle_since.elapsed() > d) {
            return Ok(moves);
        }
        let now = match seen(&state_path) {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                std::thread::sleep(options.poll);
                continue;
            }
            Err(e) => return Err(io_error(&state_path)(e)),
        };
        // A state is new when it was written again and either says
        // something else than the last one answered or the judge took
        // the answer away (it deletes the move file before it asks).
        let answered = || {
            move_path.exists()
                && last.as_ref().is_some_and(|(s, _)| {
                    protocol::parse_state(&file, &now.bytes).as_ref() == Ok(s)
                })
        };
        if last_seen.as_ref() == Some(&now) || answered() {
            last_seen = Some(now);
            std::thread::sleep(options.poll);
            continue;
        }
        let start = Instant::now();
        let state = match protocol::parse_state(&file, &now.bytes) {
            Ok(s) => s,
            Err(e) => {
                // Caught half-written? Read it again a moment later.
                std::thread::sleep(SETTLE);
                let again = seen(&state_path).ok();
                if again.as_ref().is_some_and(|a| a.bytes != now.bytes) {
                    continue;
                }
                let _ = writeln!(log, "{e}");
                match salvage(&now.bytes) {
                    Some(s) => {
                        let _ = writeln!(log, "{file}: salvaged as move {}", s.move_number);
                        s
                    }
                    None => {
                        let _ = writeln!(log, "{file}: no move number; not answered");
                        last_seen = Some(now);
                        continue;
                    }
                }
            }
        };
        for note in check_state(&state, last.as_ref()) {
            let _ = writeln!(log, "{file}: {note}");
        }
        let budget = options.budget.saturating_sub(start.elapsed());
        let Some((cell, why)) = answer_by(
            options.engine,
            options.database.as_ref(),
            &state,
            options.exact,
            options.depth.map_or(Effort::Budget(budget), Effort::Depth),
        ) else {
            let _ = writeln!(log, "{file}: move {}: no empty cell", state.move_number);
            last_seen = Some(now);
            continue;
        };
        // The judge may have moved on meanwhile: answer only the state
        // that is still there.
        if seen(&state_path).ok().as_ref() != Some(&now) {
            continue;
        }
        let m = Move {
            move_number: state.move_number,
            cell,
        };
        protocol::write_atomically(&move_path, m.to_text().as_bytes())
            .map_err(PlayerError::Write)?;
        let _ = writeln!(
            log,
            "move {} cell {cell} in {} ms: {why}",
            state.move_number,
            start.elapsed().as_millis()
        );
        moves += 1;
        last = Some((state, cell));
        last_seen = Some(now);
        idle_since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(n: u32, stones: &[(usize, Cell)]) -> State {
        let mut cells = vec![Cell::Empty; CELLS];
        for &(k, c) in stones {
            cells[k] = c;
        }
        State {
            move_number: n,
            cells,
        }
    }

    #[test]
    fn the_player_completes_its_row_and_blocks_the_opponent_s() {
        // Mine along a row (100..103), theirs along another axis.
        let s = state(
            9,
            &[
                (100, Cell::Mine),
                (101, Cell::Mine),
                (102, Cell::Mine),
                (103, Cell::Mine),
                (0, Cell::Theirs),
                (10, Cell::Theirs),
                (21, Cell::Theirs),
                (33, Cell::Theirs),
            ],
        );
        let (cell, why) = answer(&s, false, Duration::from_millis(500)).unwrap();
        assert_eq!((cell, why.as_str()), (104, "wins"));
        // Theirs: 0, 10, 21, 33 on the axis from the corner to the centre.
        let s = state(
            8,
            &[
                (0, Cell::Theirs),
                (10, Cell::Theirs),
                (21, Cell::Theirs),
                (33, Cell::Theirs),
                (100, Cell::Mine),
                (120, Cell::Mine),
                (140, Cell::Mine),
            ],
        );
        let (cell, why) = answer(&s, false, Duration::from_millis(500)).unwrap();
        assert_eq!((cell, why.as_str()), (46, "blocks a five"));
    }

    #[test]
    fn odd_states_are_reported_and_salvaged() {
        let s = state(5, &[(108, Cell::Mine)]);
        let notes = check_state(&s, None);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("should follow 2 stones of mine and 2"),
            "{notes:?}"
        );
        let before = state(3, &[(108, Cell::Mine), (92, Cell::Theirs)]);
        let after = state(
            5,
            &[
                (108, Cell::Mine),
                (92, Cell::Theirs),
                (109, Cell::Mine),
                (91, Cell::Theirs),
            ],
        );
        assert!(check_state(&after, Some(&(before.clone(), 109))).is_empty());
        let notes = check_state(&after, Some(&(before, 110)));
        assert!(
            notes[0].contains("does not follow from move 3"),
            "{notes:?}"
        );
        let salvaged = salvage(b"7\n0 1 x 2").unwrap();
        assert_eq!(salvaged.move_number, 7);
        assert_eq!(
            &salvaged.cells[..4],
            &[Cell::Empty, Cell::Mine, Cell::Empty, Cell::Theirs]
        );
        assert_eq!(salvaged.cells.len(), CELLS);
        assert_eq!(salvage(b"x\n0 0"), None);
        assert_eq!(salvage(b""), None);
        assert_eq!(salvage(b"999\n"), None);
    }

    #[test]
    fn a_full_board_has_no_answer_and_a_won_one_still_has() {
        let full = State {
            move_number: 217,
            cells: vec![Cell::Theirs; CELLS],
        };
        assert_eq!(answer(&full, false, Duration::from_millis(50)), None);
        let won = state(
            9,
            &[
                (0, Cell::Theirs),
                (1, Cell::Theirs),
                (2, Cell::Theirs),
                (3, Cell::Theirs),
                (4, Cell::Theirs),
            ],
        );
        let (cell, _) = answer(&won, false, Duration::from_millis(50)).unwrap();
        assert_eq!(won.cells[cell as usize], Cell::Empty);
    }
}
