//! The move-quality screen for five in a row: single moves instead of
//! whole games, each judged by a stronger brain.
//!
//! A match between engines tells a change apart only when it is worth
//! several games in a hundred; most changes to a search or a database are
//! worth less, and a match long enough to see them takes hours. The
//! screen asks a finer question: positions drawn from the games of
//! tournaments (the side a named player was to move), each candidate
//! brain's move on each, and a judge (a brain that prints its
//! evaluation: Rapfi's `MESSAGE ... Eval +35`, or one wrapped to) asked
//! for the position before the move and after it. A candidate's move is
//! worth the judge's evaluation after it, for the side that moved, as a
//! win rate (`1 / (1 + e^(-eval / scale))`, a mate 0 or 1), and the moves
//! that walk into a mate the judge finds are counted. Positions the judge
//! already counts as lost for the side to move are left out: every move
//! there is as bad. Candidates are compared on the same positions
//! (paired), so the position's own difficulty cancels out. A position
//! the rules decide (a five just made, a full board, a five to make) is
//! not put to the judge: a judge may answer it at once without an
//! evaluation, and the winning move, or the one that left a five, would
//! drop out of the figures.
//!
//! Every brain is asked each position in a process of its own (`START`,
//! `INFO`, `BOARD`, the move, `END`): no brain carries anything from one
//! position to the next, and the answers are the same however the
//! positions are shared between the jobs, for brains that are
//! deterministic at a fixed amount of work (give the judge and the
//! candidates a node limit, not a clock). The answers are kept in a JSON
//! file, so that a screen run again asks only what is new: another
//! candidate costs its own moves and the judgements of the moves no
//! earlier candidate made.
//!
//! A screen's mean can hide where the moves part: [`phases`] gives the
//! same comparison band by band of stones on the board (`katachi judge
//! --by-stones N`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::gomocup::{board_block, gomocup_rule, is_talk};
use super::ledger;
use super::{stop, Engine, SETUP_LIMIT};
use crate::five::engine::rule_of_gomocup;
use crate::five::record::read_psq_for;
use crate::five::{FiveBoard, Outcome, Rule};
use crate::position::Color;
use crate::position::Point;

/// A position to judge: a prefix of a recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// The rule as `INFO rule` gives it (0 freestyle, 1 exactly five, 4
    /// renju).
    pub rule: u32,
    pub size: usize,
    /// The stones in the order they were played, `(x, y)` from 0 as the
    /// protocol writes them (`x` the column).
    pub stones: Vec<(u8, u8)>,
}

impl Position {
    /// The `BOARD` block for the side to move (its stones `1`).
    fn board_lines(&self) -> Vec<String> {
        let n = self.stones.len();
        board_block(
            self.stones
                .iter()
                .enumerate()
                .map(|(k, &(x, y))| (i32::from(x), i32::from(y), k % 2 == n % 2)),
        )
    }

    /// The position after `mv` is played.
    fn after(&self, mv: (u8, u8)) -> Position {
        let mut p = self.clone();
        p.stones.push(mv);
        p
    }

    /// The verdict the rules give, for the side to move: lost when the
    /// last stone made five, drawn when it filled the board, won when
    /// the side to move can make five at once. A judge asked such a
    /// position may answer at once with no evaluation (Rapfi does), and
    /// the move before it (a winning one, or one that leaves a five)
    /// would then be left out of the figures. `None` otherwise (or when
    /// the stones are not a game under the rule).
    fn by_rules(&self) -> Option<Verdict> {
        let rule = rule_of_gomocup(self.rule)?;
        let mut board = FiveBoard::new(self.size, rule).ok()?;
        let mut outcome = None;
        for &(x, y) in &self.stones {
            outcome = board.play(Point::new(i32::from(y), i32::from(x))).ok()?;
        }
        match outcome {
            Some(Outcome::Win(_)) => Some(Verdict::Mate {
                win: false,
                plies: 0,
            }),
            Some(Outcome::Draw) => Some(Verdict::Eval(0)),
            None => {
                let me = board.to_move();
                board
                    .points()
                    .any(|p| board.wins_at(p, me) && board.is_legal(p))
                    .then_some(Verdict::Mate {
                        win: true,
                        plies: 1,
                    })
            }
        }
    }
}

/// What the judge says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// An evaluation in the judge's units.
    Eval(i32),
    /// A forced win (`win`) or loss in `plies`.
    Mate { win: bool, plies: u32 },
}

impl Verdict {
    /// The same verdict for the other side.
    pub fn flipped(self) -> Verdict {
        match self {
            Verdict::Eval(v) => Verdict::Eval(-v),
            Verdict::Mate { win, plies } => Verdict::Mate { win: !win, plies },
        }
    }

    /// As a win rate: a mate 1 or 0, an evaluation through the logistic
    /// curve with `scale` judge units to e.
    pub fn win_rate(self, scale: f64) -> f64 {
        match self {
            Verdict::Eval(v) => 1.0 / (1.0 + (-f64::from(v) / scale).exp()),
            Verdict::Mate { win, .. } => f64::from(u8::from(win)),
        }
    }

    /// Whether the side to move is mated.
    pub fn is_lost(self) -> bool {
        matches!(self, Verdict::Mate { win: false, .. })
    }
}

/// The judge's verdict in its output: the value after the last
/// occurrence of the word `key` (`Eval` in `MESSAGE Depth 14-32 | Eval
/// -62 | Time 845ms`), an integer, or `M` and the plies to a mate, with a
/// sign for the side (`+M19`, `-M4`; no sign is a win). Punctuation
/// around the value (`Eval: 35,`) is ignored.
pub fn parse_verdict<S: AsRef<str>>(lines: &[S], key: &str) -> Option<Verdict> {
    let mut found = None;
    for line in lines {
        let words: Vec<&str> = line.as_ref().split_whitespace().collect();
        for (k, w) in words.iter().enumerate() {
            if w.trim_end_matches([':', '=']).eq_ignore_ascii_case(key) {
                if let Some(v) = words.get(k + 1).and_then(|v| value(v)) {
                    found = Some(v);
                }
            }
        }
    }
    found
}

fn value(word: &str) -> Option<Verdict> {
    let w = word.trim_matches(|c: char| matches!(c, ',' | ';' | '|' | ':' | '=' | '(' | ')'));
    let (negative, rest) = match w.as_bytes().first()? {
        b'-' => (true, &w[1..]),
        b'+' => (false, &w[1..]),
        _ => (false, w),
    };
    if let Some(plies) = rest.strip_prefix(['M', 'm']) {
        let plies = plies.parse().ok()?;
        return Some(Verdict::Mate {
            win: !negative,
            plies,
        });
    }
    let v: i32 = rest.parse().ok()?;
    Some(Verdict::Eval(if negative { -v } else { v }))
}

/// A Gomocup brain asked one position at a time.
#[derive(Clone, Debug)]
pub struct Brain {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
}

impl Brain {
    /// A brain from a command line (`PROGRAM ARGS...`, split at spaces).
    pub fn from_command(name: &str, command: &str) -> Result<Brain, String> {
        let mut words = command.split_whitespace().map(str::to_string);
        let program = words
            .next()
            .ok_or_else(|| format!("{name}: an empty command"))?;
        Ok(Brain {
            name: name.to_string(),
            program,
            args: words.collect(),
        })
    }

    /// The command line as given (the key its answers are kept under).
    pub fn command(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The brain's move on `pos` and the `MESSAGE` and `DEBUG` lines it
    /// printed before it, in a process started for this position alone.
    pub fn ask(&self, pos: &Position, move_ms: u64) -> Result<((u8, u8), Vec<String>), String> {
        let rule = pos.rule;
        let mut e = Engine::spawn(&self.program, &self.args)?;
        let result = (|| {
            let mut lines = vec![
                format!("START {}", pos.size),
                format!("INFO timeout_turn {move_ms}"),
                "INFO timeout_match 0".into(),
                "INFO time_left 2147483647".into(),
                format!("INFO rule {rule}"),
            ];
            lines.extend(pos.board_lines());
            e.send(&self.name, &lines)?;
            let limit = Duration::from_millis(move_ms) + SETUP_LIMIT;
            let deadline = Instant::now() + limit;
            let mut said = Vec::new();
            let mut started = false;
            loop {
                let line = e.next_line(&self.name, "BOARD", deadline, limit)?;
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                if is_talk(line) {
                    said.push(line.to_string());
                    continue;
                }
                if !started && line.eq_ignore_ascii_case("OK") {
                    started = true;
                    continue;
                }
                return parse_move(line, pos.size)
                    .map(|mv| (mv, said))
                    .ok_or_else(|| format!("{} answered `{line}`, not a move", self.name));
            }
        })();
        stop(e, "END");
        result
    }
}

/// A brain's move on a board of `size`, as `(x, y)`.
fn parse_move(line: &str, size: usize) -> Option<(u8, u8)> {
    let p = super::gomocup::parse_move(line)?;
    let on = |v: i32| u8::try_from(v).ok().filter(|&v| usize::from(v) < size);
    Some((on(p.j)?, on(p.i)?))
}

/// Which positions to draw from tournament folders.
#[derive(Clone, Debug)]
pub struct Draw {
    /// Tournament folders (each with its `ledger.jsonl` and records).
    pub folders: Vec<PathBuf>,
    /// The player whose turns are drawn (as the ledger names it).
    pub player: String,
    pub rule: Rule,
    /// Stones on the board: at least `from`, at most `to`.
    pub from: usize,
    pub to: usize,
    /// How many positions at most.
    pub count: usize,
    pub seed: u64,
}

/// The positions `draw` asks for: every distinct prefix of a recorded
/// game where the player was to move, not the whole game (a position
/// with a move after it), shuffled by the seed, the first `count`.
pub fn draw_positions(draw: &Draw) -> Result<Vec<Position>, String> {
    let rule = gomocup_rule(draw.rule)
        .ok_or("the Gomocup protocol has no Pente rule: Pente cannot be screened")?;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut names = std::collections::BTreeSet::new();
    let mut played = 0;
    for folder in &draw.folders {
        let (games, _) = ledger::read(&folder.join("ledger.jsonl"))?;
        if games.is_empty() {
            return Err(format!("{}: no games in its ledger", folder.display()));
        }
        for g in games {
            names.insert(g.first.clone());
            names.insert(g.second.clone());
            let first = g.first == draw.player;
            let second = g.second == draw.player;
            if !first && !second {
                continue;
            }
            played += 1;
            let Some(file) = &g.record else { continue };
            let path = folder.join(file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let record = read_psq_for(&text, draw.rule)
                .map_err(|e| e.located(&path.display().to_string()))?;
            let stones: Vec<(u8, u8)> = record
                .moves
                .iter()
                .map(|m| (m.point.j as u8, m.point.i as u8))
                .collect();
            let last = stones.len().saturating_sub(1).min(draw.to);
            for n in draw.from..=last {
                if !(if n % 2 == 0 { first } else { second }) {
                    continue;
                }
                let pos = Position {
                    rule,
                    size: record.width,
                    stones: stones[..n].to_vec(),
                };
                if seen.insert(pos.clone()) {
                    out.push(pos);
                }
            }
        }
    }
    if played == 0 {
        let names: Vec<String> = names.into_iter().collect();
        return Err(format!(
            "no game of `{}` in those ledgers (their players: {})",
            draw.player,
            names.join(", ")
        ));
    }
    // Fisher-Yates by the seed's stream.
    for k in (1..out.len()).rev() {
        let r = crate::seeding::splitmix(crate::seeding::state(draw.seed).wrapping_add(k as u64))
            % (k as u64 + 1);
        out.swap(k, r as usize);
    }
    out.truncate(draw.count);
    Ok(out)
}

/// Everything a screen has asked, kept between runs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Screen {
    /// The judge's command line and the word before its evaluation:
    /// verdicts from another judge are not mixed in.
    pub judge: String,
    pub positions: Vec<Position>,
    /// Each candidate's moves by position index, under its command line.
    pub moves: BTreeMap<String, BTreeMap<usize, (u8, u8)>>,
    /// The judge's verdict of each position (`"7"`, for the side to move)
    /// and of each position after a move (`"7:3,9"`, for the side to move
    /// after it); `None` when the judge printed none.
    pub verdicts: BTreeMap<String, Option<Verdict>>,
}

impl Screen {
    /// Reads a screen file (`None` when there is none).
    pub fn load(path: &Path) -> Result<Option<Screen>, String> {
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{}: not a screen file: {e}", path.display()))
    }

    /// Writes it whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        mkpat::output::write(path, text.as_bytes()).map_err(|e| e.to_string())
    }

    /// The part of the screen whose positions have a number of stones in
    /// `stones`, numbered from 0 in their order here, with their moves
    /// and verdicts; and each one's index here, for [`Screen::absorb`].
    /// A screen of the first moves, say, drawn once from a screen of
    /// whole games.
    pub fn within(&self, stones: &RangeInclusive<usize>) -> (Screen, Vec<usize>) {
        let index: Vec<usize> = (0..self.positions.len())
            .filter(|&k| stones.contains(&self.positions[k].stones.len()))
            .collect();
        let new_of: HashMap<usize, usize> =
            index.iter().enumerate().map(|(n, &k)| (k, n)).collect();
        let renumber = |k: usize| new_of.get(&k).copied();
        let part = Screen {
            judge: self.judge.clone(),
            positions: index.iter().map(|&k| self.positions[k].clone()).collect(),
            moves: self
                .moves
                .iter()
                .map(|(c, m)| {
                    let kept = m
                        .iter()
                        .filter_map(|(&k, &mv)| Some((renumber(k)?, mv)))
                        .collect();
                    (c.clone(), kept)
                })
                .collect(),
            verdicts: self
                .verdicts
                .iter()
                .filter_map(|(key, &v)| Some((renumbered(key, renumber)?, v)))
                .collect(),
        };
        (part, index)
    }

    /// Takes in what `part`, made by [`Screen::within`] with `index`,
    /// knows (its new answers among them).
    pub fn absorb(&mut self, part: &Screen, index: &[usize]) {
        for (c, m) in &part.moves {
            let mine = self.moves.entry(c.clone()).or_default();
            for (&k, &mv) in m {
                mine.insert(index[k], mv);
            }
        }
        for (key, &v) in &part.verdicts {
            if let Some(key) = renumbered(key, |k| index.get(k).copied()) {
                self.verdicts.insert(key, v);
            }
        }
    }
}

/// A verdict's key (`"7"` or `"7:3,9"`) with its position renumbered
/// (`None` when `renumber` drops the position).
fn renumbered(key: &str, renumber: impl Fn(usize) -> Option<usize>) -> Option<String> {
    let (k, after) = match key.split_once(':') {
        Some((k, mv)) => (k, Some(mv)),
        None => (key, None),
    };
    let n = renumber(k.parse().ok()?)?;
    Some(match after {
        Some(mv) => format!("{n}:{mv}"),
        None => n.to_string(),
    })
}

/// How many answers a job asks between two saves of the screen file: a
/// screen of a thousand positions asks for half an hour, and one stopped
/// keeps what it had asked by its last save.
pub const SAVE_EVERY: usize = 16;

/// A screen file's lock, `FILE.lock`: taken before a run reads the file
/// and removed when it ends, so that two runs on one file (each saves the
/// whole file, its own answers and what it read at the start) cannot
/// drop each other's answers. It names the process that holds it; the
/// lock of a process that is gone (a run killed) is taken over where the
/// system lists its processes (Linux's `/proc`), and elsewhere says how
/// to remove it.
#[derive(Debug)]
pub struct ScreenLock {
    path: PathBuf,
}

impl ScreenLock {
    /// Takes the lock of the screen file `screen`.
    pub fn take(screen: &Path) -> Result<ScreenLock, String> {
        let mut name = screen.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let shown = path.display();
        // Twice at most: once more after taking a dead process's lock over.
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    use std::io::Write;
                    let lock = ScreenLock { path: path.clone() };
                    write!(f, "{}", std::process::id()).map_err(|e| format!("{shown}: {e}"))?;
                    return Ok(lock);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&path)
                        .ok()
                        .and_then(|t| t.trim().parse::<u32>().ok());
                    if holder.is_some_and(process_gone) {
                        std::fs::remove_file(&path).map_err(|e| format!("{shown}: {e}"))?;
                        continue;
                    }
                    let who = holder.map_or("another run".to_string(), |pid| {
                        format!("another run (process {pid})")
                    });
                    return Err(format!(
                        "{shown}: {who} is using this screen file; wait for it to end, \
                         or remove the lock if no run is going"
                    ));
                }
                Err(e) => return Err(format!("{shown}: {e}")),
            }
        }
        Err(format!("{shown}: could not take the lock"))
    }
}

impl Drop for ScreenLock {
    fn drop(&mut self) {
        // Nothing to do when it is already gone.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` is known not to run: only where `/proc` lists
/// the processes; elsewhere never.
fn process_gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

/// Runs `work` on every item by `jobs` threads; the first error stops
/// the rest (items already started finish).
fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> Result<R, String> + Sync,
) -> Result<Vec<R>, String> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                if failed.lock().map_or(true, |f| f.is_some()) {
                    return;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(k) else { return };
                match work(item) {
                    Ok(r) => {
                        if let Ok(mut o) = out.lock() {
                            o[k] = Some(r);
                        }
                    }
                    Err(e) => {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().map_err(|_| "a job panicked")? {
        return Err(e);
    }
    Ok(out
        .into_inner()
        .map_err(|_| "a job panicked")?
        .into_iter()
        .flatten()
        .collect())
}

/// How the brains are asked.
#[derive(Clone, Debug)]
pub struct Asking {
    pub judge: Brain,
    /// The word before the judge's evaluation.
    pub key: String,
    /// `INFO timeout_turn` for every brain (give node limits in their
    /// commands for answers that do not depend on the machine's load).
    pub move_ms: u64,
    pub jobs: usize,
}

/// Asks what `screen` does not know yet: each candidate's move on every
/// position, and the judge's verdict before and after each move. Hands
/// the screen to `save` after every [`SAVE_EVERY`] answers a job, so that
/// an interrupted screen keeps what it asked (the caller writes it, or
/// the whole file it is part of, holding the file's [`ScreenLock`]);
/// says what each step is about to ask, and how far a long one has come,
/// through `progress`.
pub fn fill(
    screen: &mut Screen,
    candidates: &[Brain],
    asking: &Asking,
    save: &mut dyn FnMut(&Screen) -> Result<(), String>,
    progress: &dyn Fn(&str),
) -> Result<(), String> {
    let n = screen.positions.len();
    for c in candidates {
        let known = screen.moves.get(&c.command()).cloned().unwrap_or_default();
        let todo: Vec<usize> = (0..n).filter(|k| !known.contains_key(k)).collect();
        if !todo.is_empty() {
            progress(&format!("{}: {} moves to ask", c.name, todo.len()));
        }
        let mut done = 0;
        for chunk in todo.chunks(SAVE_EVERY * asking.jobs.max(1)) {
            let got = parallel(chunk, asking.jobs, |&k| {
                c.ask(&screen.positions[k], asking.move_ms)
                    .map(|(mv, _)| (k, mv))
            })?;
            screen.moves.entry(c.command()).or_default().extend(got);
            save(screen)?;
            let before = done;
            done += chunk.len();
            if done < todo.len() && tenth(before, todo.len()) < tenth(done, todo.len()) {
                progress(&format!("{}: {done} of {} asked", c.name, todo.len()));
            }
        }
    }
    // Every verdict the figures need: each position, and each position
    // after each candidate's move there.
    let mut wanted: Vec<(String, Position)> = Vec::new();
    for (k, pos) in screen.positions.iter().enumerate() {
        wanted.push((k.to_string(), pos.clone()));
    }
    for c in candidates {
        for (&k, &mv) in &screen.moves[&c.command()] {
            wanted.push((
                format!("{k}:{},{}", mv.0, mv.1),
                screen.positions[k].after(mv),
            ));
        }
    }
    let mut asks: Vec<(String, Position)> = Vec::new();
    let mut seen = HashSet::new();
    for (key, pos) in wanted {
        let known = screen.verdicts.get(&key);
        if matches!(known, Some(Some(_))) || !seen.insert(key.clone()) {
            continue;
        }
        // The rules first: a decided position needs no judge (and one the
        // judge said nothing of, in a file written before, is mended).
        match pos.by_rules() {
            Some(v) => {
                screen.verdicts.insert(key, Some(v));
            }
            None if known.is_none() => asks.push((key, pos)),
            None => {}
        }
    }
    if !asks.is_empty() {
        progress(&format!("the judge: {} positions to judge", asks.len()));
    }
    if asks.is_empty() {
        // The rules' verdicts alone, or nothing new: saved all the same.
        return save(screen);
    }
    let mut done = 0;
    for chunk in asks.chunks(SAVE_EVERY * asking.jobs.max(1)) {
        let got = parallel(chunk, asking.jobs, |(key, pos)| {
            asking
                .judge
                .ask(pos, asking.move_ms)
                .map(|(_, said)| (key.clone(), parse_verdict(&said, &asking.key)))
        })?;
        screen.verdicts.extend(got);
        save(screen)?;
        let before = done;
        done += chunk.len();
        if done < asks.len() && tenth(before, asks.len()) < tenth(done, asks.len()) {
            progress(&format!("the judge: {done} of {} judged", asks.len()));
        }
    }
    Ok(())
}

/// Which tenth of `total` `done` has reached: a long step says how far
/// it has come once a tenth, not at every save.
fn tenth(done: usize, total: usize) -> usize {
    done * 10 / total.max(1)
}

/// One candidate's figures on the screen's open positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    pub name: String,
    /// Positions judged (open, the move's verdict known).
    pub positions: usize,
    /// The mean win rate after its moves, for the side that moved.
    pub win_rate: f64,
    /// Moves after which the judge finds a mate against the mover.
    pub into_mate: usize,
    /// Against the first candidate on the positions both have: the mean
    /// paired difference, its standard error, and how many moves differ
    /// (`None` for the first itself).
    pub paired: Option<(f64, f64, usize)>,
}

/// The figures of each candidate (the first is the reference), on the
/// positions the judge does not already count as lost for the side to
/// move.
pub fn figures(screen: &Screen, candidates: &[Brain], scale: f64) -> Vec<Figures> {
    figures_where(screen, candidates, scale, |_| true)
}

/// [`figures`] on the positions `keep` accepts.
fn figures_where(
    screen: &Screen,
    candidates: &[Brain],
    scale: f64,
    keep: impl Fn(&Position) -> bool,
) -> Vec<Figures> {
    let open: Vec<usize> = (0..screen.positions.len())
        .filter(|&k| keep(&screen.positions[k]))
        .filter(|k| matches!(screen.verdicts.get(&k.to_string()), Some(Some(v)) if !v.is_lost()))
        .collect();
    // The mover's verdict after its move, by position.
    let after = |c: &Brain| -> BTreeMap<usize, ((u8, u8), Verdict)> {
        let Some(moves) = screen.moves.get(&c.command()) else {
            return BTreeMap::new();
        };
        open.iter()
            .filter_map(|&k| {
                let mv = *moves.get(&k)?;
                let v = (*screen.verdicts.get(&format!("{k}:{},{}", mv.0, mv.1))?)?;
                Some((k, (mv, v.flipped())))
            })
            .collect()
    };
    let reference = candidates.first().map(after).unwrap_or_default();
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mine = after(c);
            let rates: Vec<f64> = mine.values().map(|(_, v)| v.win_rate(scale)).collect();
            let paired = (i > 0).then(|| {
                let pairs: Vec<(f64, bool)> = mine
                    .iter()
                    .filter_map(|(k, (mv, v))| {
                        let (rmv, rv) = reference.get(k)?;
                        Some((v.win_rate(scale) - rv.win_rate(scale), mv != rmv))
                    })
                    .collect();
                let d: Vec<f64> = pairs.iter().map(|p| p.0).collect();
                let (m, se) = mean_and_error(&d);
                (m, se, pairs.iter().filter(|p| p.1).count())
            });
            Figures {
                name: c.name.clone(),
                positions: rates.len(),
                win_rate: mean_and_error(&rates).0,
                into_mate: mine.values().filter(|(_, v)| v.is_lost()).count(),
                paired,
            }
        })
        .collect()
}

/// One band of the game: the positions with `stones` stones on the
/// board, and every candidate's [`Figures`] on them.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    pub stones: std::ops::RangeInclusive<usize>,
    pub figures: Vec<Figures>,
}

/// The figures band by band, `width` stones to a band (from none), up to
/// the band of the most crowded position: where in a game two brains'
/// moves part, and which of them gains there. A whole screen's mean can
/// hide a gap that only the first moves after the opening hold (Rapfi
/// against katachi, `docs/five-strength.md`).
pub fn phases(screen: &Screen, candidates: &[Brain], scale: f64, width: usize) -> Vec<Phase> {
    let width = width.max(1);
    let most = screen.positions.iter().map(|p| p.stones.len()).max();
    let Some(most) = most else {
        return Vec::new();
    };
    (0..=most / width)
        .map(|band| {
            let stones = band * width..=band * width + width - 1;
            let figures = figures_where(screen, candidates, scale, |p| {
                stones.contains(&p.stones.len())
            });
            Phase { stones, figures }
        })
        .collect()
}

/// The bands as a Markdown table: a row a band, the positions the first
/// candidate was judged on and each other candidate's paired difference
/// with it (and how many of its moves differ).
pub fn phase_table(phases: &[Phase]) -> String {
    let rows: Vec<(String, &[Figures])> = phases
        .iter()
        .map(|p| {
            let band = format!("{}–{}", p.stones.start(), p.stones.end());
            (band, p.figures.as_slice())
        })
        .collect();
    split_table("stones", &rows)
}

/// The figures of each colour to move, Black first: a screen's
/// positions are drawn from both sides of the games, and a brain may
/// lose its ground as one colour only (the side the openings favour
/// plays other positions than the side they do not). A position's
/// side to move is Black when an even number of moves has been played
/// (no rule of five in a row passes; Pente's captures remove stones,
/// not moves).
pub fn colours(screen: &Screen, candidates: &[Brain], scale: f64) -> Vec<(Color, Vec<Figures>)> {
    [Color::Black, Color::White]
        .into_iter()
        .map(|c| {
            let figures = figures_where(screen, candidates, scale, |p| {
                (p.stones.len() % 2 == 0) == (c == Color::Black)
            });
            (c, figures)
        })
        .collect()
}

/// [`colours`] as a Markdown table, a row a colour, as [`phase_table`]
/// has a row a band.
pub fn colour_table(colours: &[(Color, Vec<Figures>)]) -> String {
    let rows: Vec<(String, &[Figures])> = colours
        .iter()
        .map(|(c, f)| {
            let name = match c {
                Color::Black => "Black",
                Color::White => "White",
            };
            (name.to_string(), f.as_slice())
        })
        .collect();
    split_table("to move", &rows)
}

/// A table of the screen split into parts (bands, colours): a row a
/// part, headed `what`, with the positions the first candidate was
/// judged on there and each other candidate's paired difference with
/// it.
fn split_table(what: &str, rows: &[(String, &[Figures])]) -> String {
    let names: Vec<&str> = rows
        .first()
        .map(|(_, f)| f.iter().skip(1).map(|f| f.name.as_str()).collect())
        .unwrap_or_default();
    let mut out = format!("| {what} | positions |");
    for n in &names {
        out += &format!(" {n} against the first |");
    }
    out += "\n| --- | ---: |";
    out += &" ---: |".repeat(names.len());
    out += "\n";
    for (label, figures) in rows {
        let judged = figures.first().map_or(0, |f| f.positions);
        out += &format!("| {label} | {judged} |");
        for f in figures.iter().skip(1) {
            out += &match f.paired {
                Some((m, se, d)) if f.positions > 0 => {
                    format!(" {m:+.4} ± {se:.4} ({d} differ) |")
                }
                _ => " |".into(),
            };
        }
        out += "\n";
    }
    out
}

/// The mean of `x` and its standard error (0 and 0 for fewer than two).
pub fn mean_and_error(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    if x.len() < 2 {
        return (x.first().copied().unwrap_or(0.0), 0.0);
    }
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// The figures as a Markdown table.
pub fn table(figures: &[Figures]) -> String {
    let mut out = String::from(
        "| candidate | positions | mean win rate | against the first (± s.e.) | moves that differ | moves into a mate |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for f in figures {
        let (paired, differ) = match f.paired {
            Some((m, se, d)) => (format!("{m:+.4} ± {se:.4}"), d.to_string()),
            None => ("(reference)".into(), String::new()),
        };
        out += &format!(
            "| {} | {} | {:.4} | {paired} | {differ} | {} |\n",
            f.name, f.positions, f.win_rate, f.into_mate
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_after_their_word() {
        let rapfi = ["MESSAGE Depth 14-32 | Eval -62 | Time 845ms | D9 G7"];
        assert_eq!(parse_verdict(&rapfi, "Eval"), Some(Verdict::Eval(-62)));
        let mate = ["MESSAGE Depth 22-15 | Eval +M19 | Time 691ms"];
        assert_eq!(
            parse_verdict(&mate, "eval"),
            Some(Verdict::Mate {
                win: true,
                plies: 19
            })
        );
        let lost = ["MESSAGE Eval -M4"];
        assert!(parse_verdict(&lost, "Eval").is_some_and(Verdict::is_lost));
        // The last one said counts; punctuation around the value is
        // ignored; a word without a value is passed over.
        let several = [
            "DEBUG score: 10,",
            "DEBUG nothing here",
            "DEBUG score: 25,",
            "DEBUG score",
        ];
        assert_eq!(parse_verdict(&several, "score"), Some(Verdict::Eval(25)));
        assert_eq!(parse_verdict(&["MESSAGE Eval x"], "Eval"), None);
        assert_eq!(parse_verdict::<&str>(&[], "Eval"), None);
    }

    #[test]
    fn a_verdict_flips_with_the_side_and_maps_to_a_win_rate() {
        let v = Verdict::Eval(250);
        assert_eq!(v.flipped(), Verdict::Eval(-250));
        assert!((v.win_rate(250.0) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
        assert!((Verdict::Eval(0).win_rate(250.0) - 0.5).abs() < 1e-12);
        let m = Verdict::Mate {
            win: true,
            plies: 3,
        };
        assert_eq!(m.win_rate(250.0), 1.0);
        assert_eq!(m.flipped().win_rate(250.0), 0.0);
        assert!(m.flipped().is_lost() && !m.is_lost());
    }

    #[test]
    fn the_board_block_gives_the_side_to_move_field_one() {
        let p = Position {
            rule: 1,
            size: 15,
            stones: vec![(7, 7), (8, 8), (7, 8)],
        };
        // White to move: the second stone is its own.
        assert_eq!(
            p.board_lines(),
            ["BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"]
        );
        assert_eq!(p.after((9, 9)).stones.len(), 4);
        assert_eq!(parse_move("3,14", 15), Some((3, 14)));
        assert_eq!(parse_move("3,15", 15), None);
        assert_eq!(parse_move("OK", 15), None);
    }

    /// A candidate's command and its moves by position.
    type Moves<'a> = (&'a str, &'a [(usize, (u8, u8))]);

    fn screen_of(verdicts: &[(&str, Option<Verdict>)], moves: &[Moves<'_>]) -> Screen {
        let pos = Position {
            rule: 1,
            size: 15,
            stones: vec![(7, 7)],
        };
        Screen {
            judge: "j".into(),
            positions: vec![pos; 3],
            moves: moves
                .iter()
                .map(|(c, m)| (c.to_string(), m.iter().copied().collect()))
                .collect(),
            verdicts: verdicts.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn a_part_by_stones_is_renumbered_and_its_answers_go_back_where_they_came_from() {
        let e = |v| Some(Verdict::Eval(v));
        let mut screen = screen_of(
            &[("0", e(1)), ("1", e(2)), ("1:3,3", e(3)), ("2:4,4", None)],
            &[("a", &[(1, (3, 3)), (2, (4, 4))])],
        );
        // One stone, two, three.
        for (k, pos) in screen.positions.iter_mut().enumerate() {
            pos.stones = (0..=k as u8).map(|i| (i, 0)).collect();
        }
        let (mut part, index) = screen.within(&(2..=3));
        assert_eq!(index, vec![1, 2]);
        assert_eq!(part.positions, screen.positions[1..].to_vec());
        assert_eq!(
            part.moves["a"].iter().collect::<Vec<_>>(),
            vec![(&0, &(3, 3)), (&1, &(4, 4))]
        );
        let keys: Vec<&str> = part.verdicts.keys().map(String::as_str).collect();
        assert_eq!(keys, vec!["0", "0:3,3", "1:4,4"]);
        assert_eq!(part.verdicts["0:3,3"], e(3));

        // New answers in the part land under the whole screen's numbers,
        // and what the whole knew outside the part stays.
        part.moves.entry("b".into()).or_default().insert(1, (5, 5));
        part.verdicts.insert("1".into(), e(9));
        part.verdicts.insert("1:5,5".into(), e(10));
        screen.absorb(&part, &index);
        assert_eq!(
            screen.moves["b"].iter().collect::<Vec<_>>(),
            vec![(&2, &(5, 5))]
        );
        assert_eq!(screen.verdicts["2"], e(9));
        assert_eq!(screen.verdicts["2:5,5"], e(10));
        assert_eq!(screen.verdicts["0"], e(1));
        assert_eq!(screen.verdicts["1:3,3"], e(3));
        assert_eq!(screen.verdicts.len(), 6);
        // The whole range is the screen itself.
        let (all, index) = screen.within(&(0..=usize::MAX));
        assert_eq!(index, vec![0, 1, 2]);
        assert_eq!(
            serde_json::to_string(&all).unwrap(),
            serde_json::to_string(&screen).unwrap()
        );
    }

    #[test]
    fn figures_pair_the_candidates_on_open_positions() {
        let a = Brain::from_command("a", "a-brain").unwrap();
        let b = Brain::from_command("b", "b-brain --x").unwrap();
        let e = |v| Some(Verdict::Eval(v));
        let screen = screen_of(
            &[
                ("0", e(0)),
                ("1", e(-100)),
                // Lost before the move: left out.
                (
                    "2",
                    Some(Verdict::Mate {
                        win: false,
                        plies: 5,
                    }),
                ),
                // After a's moves (the opponent's view).
                ("0:1,1", e(0)),
                (
                    "1:2,2",
                    Some(Verdict::Mate {
                        win: true,
                        plies: 9,
                    }),
                ),
                ("2:3,3", e(0)),
                // After b's.
                ("1:4,4", e(250)),
            ],
            &[
                ("a-brain", &[(0, (1, 1)), (1, (2, 2)), (2, (3, 3))]),
                ("b-brain --x", &[(0, (1, 1)), (1, (4, 4)), (2, (3, 3))]),
            ],
        );
        let f = figures(&screen, &[a, b], 250.0);
        assert_eq!(f[0].positions, 2);
        assert_eq!(f[0].into_mate, 1);
        assert!((f[0].win_rate - 0.25).abs() < 1e-12);
        assert_eq!(f[0].paired, None);
        let low = 1.0 / (1.0 + 1f64.exp());
        assert!((f[1].win_rate - (0.5 + low) / 2.0).abs() < 1e-12);
        assert_eq!(f[1].into_mate, 0);
        let (m, se, differ) = f[1].paired.unwrap();
        assert!((m - low / 2.0).abs() < 1e-12, "{m}");
        assert!(se > 0.0);
        assert_eq!(differ, 1);
        assert!(table(&f).contains("| b | 2 |"));
    }

    /// Two brains, `a` and `b`, on positions of 1, 2, 5 and 6 moves
    /// (White, Black, White, Black to move; bands 0–3 and 4–7 of width
    /// 4): `a` plays 1,1 on each, `b` where `b_moves` says; `verdicts`
    /// as [`screen_of`] takes them.
    fn split_fixture(
        verdicts: &[(&str, Option<Verdict>)],
        b_moves: &[(usize, (u8, u8))],
    ) -> (Screen, Brain, Brain) {
        let a = Brain::from_command("a", "a-brain").unwrap();
        let b = Brain::from_command("b", "b-brain").unwrap();
        let a_moves = [(0, (1, 1)), (1, (1, 1)), (2, (1, 1)), (3, (1, 1))];
        let mut screen = screen_of(verdicts, &[("a-brain", &a_moves), ("b-brain", b_moves)]);
        let pos = |n: u8| Position {
            rule: 1,
            size: 15,
            stones: (0..n).map(|k| (k, 9)).collect(),
        };
        screen.positions = vec![pos(1), pos(2), pos(5), pos(6)];
        (screen, a, b)
    }

    #[test]
    fn phases_pair_the_candidates_band_by_band() {
        let e = |v| Some(Verdict::Eval(v));
        // Positions of 1, 2, 5 and 6 stones; b parts from a on the
        // second (better for it) and on the fourth (worse).
        let (screen, a, b) = split_fixture(
            &[
                ("0", e(0)),
                ("1", e(0)),
                ("2", e(0)),
                ("3", e(0)),
                ("0:1,1", e(0)),
                ("1:1,1", e(0)),
                ("1:2,2", e(-250)),
                ("2:1,1", e(0)),
                ("3:1,1", e(0)),
                ("3:2,2", e(250)),
            ],
            &[(0, (1, 1)), (1, (2, 2)), (2, (1, 1)), (3, (2, 2))],
        );
        let bands = phases(&screen, &[a.clone(), b.clone()], 250.0, 4);
        assert_eq!(bands.len(), 2);
        assert_eq!(bands[0].stones, 0..=3);
        assert_eq!(bands[1].stones, 4..=7);
        let gain = 1.0 / (1.0 + (-1f64).exp()) - 0.5;
        let (m0, _, d0) = bands[0].figures[1].paired.unwrap();
        assert!((m0 - gain / 2.0).abs() < 1e-12, "{m0}");
        assert_eq!(d0, 1);
        let (m1, _, d1) = bands[1].figures[1].paired.unwrap();
        assert!((m1 + gain / 2.0).abs() < 1e-12, "{m1}");
        assert_eq!(d1, 1);
        // The whole screen's mean hides both.
        let whole = figures(&screen, &[a, b], 250.0)[1].paired.unwrap().0;
        assert!(whole.abs() < 1e-12);
        let t = phase_table(&bands);
        assert!(
            t.starts_with("| stones | positions | b against the first |"),
            "{t}"
        );
        assert!(
            t.contains(&format!("| 0–3 | 2 | {:+.4} ± ", gain / 2.0)),
            "{t}"
        );
        assert!(t.contains("(1 differ) |\n| 4–7 | 2 |"), "{t}");
        assert!(phases(&Screen::default(), &[], 250.0, 4).is_empty());
    }

    #[test]
    fn colours_split_the_screen_by_the_side_to_move() {
        let e = |v| Some(Verdict::Eval(v));
        // Positions of 1, 2, 5 and 6 moves: White to move on the first
        // and third, Black on the others. b gains on the second (Black)
        // and loses as much on the third (White); the fourth is lost
        // before the move and left out.
        let lost = Some(Verdict::Mate {
            win: false,
            plies: 2,
        });
        let (screen, a, b) = split_fixture(
            &[
                ("0", e(0)),
                ("1", e(0)),
                ("2", e(0)),
                ("3", lost),
                ("0:1,1", e(0)),
                ("1:1,1", e(0)),
                ("1:2,2", e(-250)),
                ("2:1,1", e(0)),
                ("2:2,2", e(250)),
                ("3:1,1", e(0)),
            ],
            &[(0, (1, 1)), (1, (2, 2)), (2, (2, 2)), (3, (1, 1))],
        );
        let split = colours(&screen, &[a.clone(), b.clone()], 250.0);
        assert_eq!(split.len(), 2);
        let (black, white) = (&split[0], &split[1]);
        assert_eq!(black.0, Color::Black);
        assert_eq!(white.0, Color::White);
        assert_eq!(black.1[0].positions, 1);
        assert_eq!(white.1[0].positions, 2);
        let gain = 1.0 / (1.0 + (-1f64).exp()) - 0.5;
        let (mb, _, db) = black.1[1].paired.unwrap();
        assert!((mb - gain).abs() < 1e-12, "{mb}");
        assert_eq!(db, 1);
        let (mw, _, dw) = white.1[1].paired.unwrap();
        assert!((mw + gain / 2.0).abs() < 1e-12, "{mw}");
        assert_eq!(dw, 1);
        // The whole screen nets the two.
        let whole = figures(&screen, &[a, b], 250.0)[1].paired.unwrap().0;
        assert!((whole - (gain - gain) / 3.0).abs() < 1e-12, "{whole}");
        let t = colour_table(&split);
        assert!(
            t.starts_with("| to move | positions | b against the first |"),
            "{t}"
        );
        assert!(t.contains(&format!("| Black | 1 | {gain:+.4} ± ")), "{t}");
        assert!(t.contains("(1 differ) |\n| White | 2 |"), "{t}");
    }

    #[test]
    fn a_move_that_ends_the_game_is_judged_by_the_rules() {
        // Black's four in a row on the top line, White's stones apart.
        let mut stones = Vec::new();
        for x in 0..4u8 {
            stones.push((x, 0));
            stones.push((2 * x, 5 + 2 * x));
        }
        let pos = Position {
            rule: 1,
            size: 15,
            stones,
        };
        // Black to move with four in a row: a five to play.
        assert_eq!(
            pos.by_rules(),
            Some(Verdict::Mate {
                win: true,
                plies: 1
            })
        );
        // The fifth: White, to move after it, has lost.
        assert_eq!(
            pos.after((4, 0)).by_rules(),
            Some(Verdict::Mate {
                win: false,
                plies: 0
            })
        );
        // A move elsewhere leaves White nothing to win at once.
        let mut quiet = pos.clone();
        quiet.stones.truncate(6);
        assert_eq!(quiet.by_rules(), None);
        // Under exactly five, a sixth in the row does not win, and the
        // stones left make no five for White to move.
        let mut six = pos.clone();
        six.stones.extend([(5, 0), (14, 14)]);
        let overline = six.after((4, 0));
        assert_eq!(overline.by_rules(), None);
        // Under freestyle it does.
        six.rule = 0;
        assert!(six.after((4, 0)).by_rules().is_some_and(Verdict::is_lost));
    }

    #[test]
    fn the_mean_and_its_error() {
        assert_eq!(mean_and_error(&[]), (0.0, 0.0));
        assert_eq!(mean_and_error(&[0.5]), (0.5, 0.0));
        let (m, se) = mean_and_error(&[1.0, 2.0, 3.0, 4.0]);
        assert!((m - 2.5).abs() < 1e-12);
        assert!((se - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    }
}
