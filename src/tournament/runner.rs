//! `katachi tournament` for Go: players from specs, seeded random
//! openings, the schedule played game by game into a folder — one SGF
//! record per game, the ledger, the standings — resumable and shardable.
//!
//! The folder holds `ledger.jsonl` ([`super::ledger`]), `gNNNN.sgf` per
//! game and `standings.{md,csv,json}`, rewritten after every game. A run
//! with the same arguments over the same folder plays only the games the
//! ledger lacks; `--shard K/N` plays one part of the schedule, and
//! [`merge_folders`] joins the parts' ledgers into the whole's standings.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ledger::{self, Ending, GameRecord, Standings, Winner};
use super::ratings::Fit;
use super::schedule::{self, Format, Scheduled, Shard};
use super::{play_game_from, End, GtpPlayer, Katachi, Player, RandomPlayer, Settings};
use crate::go::evaluation::EvalOptions;
use crate::go::movegen::PatternSet;
use crate::go::search::SearchOptions;
use crate::go::Move;
use crate::position::Color;

/// A player as named on the command line: `NAME=KIND`, where KIND is
/// `katachi` (optionally `katachi:playouts=N,db=FILE`), `random`, or
/// `gtp:COMMAND ARGS…` (any GTP engine, e.g. `gtp:gnugo --mode gtp`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub name: String,
    pub kind: PlayerKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// katachi's engine: pattern moves only (`search` none) or the
    /// search; `all_patterns` values every pattern (no best-first).
    Katachi {
        search: Option<SearchOptions>,
        db: Option<String>,
        all_patterns: bool,
    },
    /// A random legal move that does not fill its own eye.
    Random,
    /// An external engine over GTP: the program and its arguments.
    Gtp(Vec<String>),
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let usage =
            "a player is NAME=katachi[:playouts=N,db=FILE], NAME=random or NAME=gtp:COMMAND [ARGS]";
        let (name, kind) = s.split_once('=').ok_or_else(|| format!("`{s}`: {usage}"))?;
        if name.is_empty() || name.contains(['/', '\\', '\n']) {
            return Err(format!("`{s}`: a player's name is a word without slashes"));
        }
        let kind = if let Some(cmd) = kind.strip_prefix("gtp:") {
            let words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                return Err(format!("`{s}`: `gtp:` needs the engine's command"));
            }
            PlayerKind::Gtp(words)
        } else if kind == "random" {
            PlayerKind::Random
        } else if kind == "katachi" || kind.starts_with("katachi:") {
            let mut playouts = 0;
            let mut db = None;
            for opt in kind
                .strip_prefix("katachi:")
                .unwrap_or("")
                .split(',')
                .filter(|o| !o.is_empty())
            {
                match opt.split_once('=') {
                    Some(("playouts", n)) => {
                        playouts = n
                            .parse()
                            .map_err(|_| format!("`{s}`: playouts={n} is not a number"))?
                    }
                    Some(("db", f)) => db = Some(f.to_string()),
                    _ => {
                        return Err(format!(
                            "`{s}`: unknown katachi option `{opt}` (playouts=N, db=FILE)"
                        ))
                    }
                }
            }
            PlayerKind::Katachi {
                search: (playouts > 0).then(|| SearchOptions {
                    playouts,
                    ..SearchOptions::default()
                }),
                db,
                all_patterns: false,
            }
        } else {
            return Err(format!("`{s}`: unknown kind `{kind}`; {usage}"));
        };
        Ok(PlayerSpec {
            name: name.to_string(),
            kind,
        })
    }
}

impl PlayerSpec {
    /// Starts the player (loads its database, spawns its program).
    pub fn start(&self) -> Result<Box<dyn Player>, String> {
        Ok(match &self.kind {
            PlayerKind::Random => Box::new(Named(self.name.clone(), RandomPlayer::new())),
            PlayerKind::Gtp(cmd) => Box::new(GtpPlayer::spawn(&self.name, &cmd[0], &cmd[1..])?),
            PlayerKind::Katachi {
                search,
                db,
                all_patterns,
            } => {
                let patterns = match db {
                    None => PatternSet::builtin(),
                    Some(path) => Arc::new(PatternSet::load(path).map_err(|e| e.to_string())?),
                };
                let eval = EvalOptions {
                    all_patterns: *all_patterns,
                };
                Box::new(Katachi::new(&self.name, patterns, eval).with_search(*search))
            }
        })
    }
}

/// A player under another name (the tournament's), so that two random
/// players can be told apart.
struct Named<P>(String, P);

impl<P: Player> Player for Named<P> {
    fn name(&self) -> String {
        self.0.clone()
    }
    fn new_game(&mut self, size: usize, komi: f32, seed: u64) -> Result<(), String> {
        self.1.new_game(size, komi, seed)
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.1.play(color, mv)
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        self.1.genmove(color)
    }
}

/// Everything a tournament is run with.
#[derive(Clone, Debug)]
pub struct Config {
    pub players: Vec<PlayerSpec>,
    pub format: Format,
    /// Distinct openings; each is played twice per pairing.
    pub openings: usize,
    /// Openings read from a file (`--openings-file`), instead of
    /// `openings` random ones.
    pub openings_file: Option<Vec<Vec<Move>>>,
    /// Random moves in each opening.
    pub opening_moves: usize,
    pub seed: u64,
    pub settings: Settings,
    pub out: PathBuf,
    pub shard: Option<Shard>,
    pub fit: Fit,
}

/// What a run tells its caller as it goes.
#[derive(Debug)]
pub enum Progress<'a> {
    /// The games this run will play (after resumption and sharding).
    Start { to_play: usize, done_before: usize },
    /// A game ended: how many this run has played, its line, and the
    /// standings of everything so far.
    Game {
        played: usize,
        line: &'a str,
        standings: &'a Standings,
    },
    /// Something to say that is not a game (a ledger repaired).
    Note(&'a str),
}

/// Plays the games of the schedule that the folder's ledger lacks (in this
/// shard), recording each; `progress` hears about each game as it ends.
/// Returns the standings of everything in the ledger.
pub fn run(config: &Config, mut progress: impl FnMut(Progress<'_>)) -> Result<Standings, String> {
    if config.players.len() < 2 {
        return Err("a tournament needs at least two players".into());
    }
    let names: Vec<String> = config.players.iter().map(|p| p.name.clone()).collect();
    if names.iter().collect::<BTreeSet<_>>().len() != names.len() {
        return Err("two players have the same name".into());
    }
    std::fs::create_dir_all(&config.out).map_err(|e| format!("{}: {e}", config.out.display()))?;
    check_same_tournament(config)?;
    let ledger_path = config.out.join("ledger.jsonl");
    let (done, warning) = ledger::read(&ledger_path)?;
    if let Some(w) = warning {
        progress(Progress::Note(&w));
        // Drop the cut line, so that appends start on a fresh line.
        ledger::write(&ledger_path, &done)?;
    }
    let openings = config
        .openings_file
        .as_ref()
        .map_or(config.openings, Vec::len);
    let all = schedule::schedule(names.len(), config.format, openings);
    let done_ids: BTreeSet<String> = done.iter().map(|g| g.id.clone()).collect();
    let todo = schedule::to_play(&all, config.shard, &done_ids);
    let lines = match &config.openings_file {
        Some(lines) => lines.clone(),
        None => super::openings::random(
            config.settings.size,
            config.openings.max(1),
            config.opening_moves,
            config.seed,
        ),
    };
    let mut players: Vec<Box<dyn Player>> = config
        .players
        .iter()
        .map(PlayerSpec::start)
        .collect::<Result<_, _>>()?;
    progress(Progress::Start {
        to_play: todo.len(),
        done_before: done.len(),
    });
    let mut games = done;
    let mut standings = None;
    for (k, g) in todo.iter().enumerate() {
        let record = play_one(config, &mut players, g, &lines[g.opening], &names)?;
        ledger::append(&ledger_path, &record)?;
        let line = format!(
            "[{}/{}] {} {} vs {}: {}",
            k + 1,
            todo.len(),
            record.id,
            record.first,
            record.second,
            match record.winner {
                Winner::First => format!("{} wins", record.first),
                Winner::Second => format!("{} wins", record.second),
                Winner::Draw => "draw".into(),
            }
        );
        games.push(record);
        let now = Standings::new(&names, &games, config.fit)?;
        write_standings(&config.out, &now)?;
        progress(Progress::Game {
            played: k + 1,
            line: &line,
            standings: &now,
        });
        standings = Some(now);
    }
    match standings {
        Some(s) => Ok(s),
        // Nothing played (all in the ledger already): the standings of
        // what is there.
        None => {
            let s = Standings::new(&names, &games, config.fit)?;
            write_standings(&config.out, &s)?;
            Ok(s)
        }
    }
}

/// What makes two runs the same tournament (a shard may differ): kept in
/// `DIR/tournament.txt` by the first run, so that resuming with other
/// players, openings or rules is refused instead of mixing two
/// tournaments in one ledger.
fn identity(config: &Config) -> String {
    let mut out = String::new();
    for p in &config.players {
        out += &format!("player {} = {:?}\n", p.name, p.kind);
    }
    let s = config.settings;
    out += &format!(
        "format {:?}\nopenings {} of {} moves, seed {}, from a file {:?}\nsize {}, komi {}, move cap {}, move time {:?}, game time {:?}\n",
        config.format,
        config.openings,
        config.opening_moves,
        config.seed,
        config.openings_file,
        s.size,
        s.komi,
        s.move_cap,
        s.move_time,
        s.game_time
    );
    out
}

fn check_same_tournament(config: &Config) -> Result<(), String> {
    let path = config.out.join("tournament.txt");
    let want = identity(config);
    match std::fs::read_to_string(&path) {
        Ok(found) if found == want => Ok(()),
        Ok(found) => Err(format!(
            "{} holds another tournament; start a new folder, or resume with its arguments:\n{found}",
            config.out.display()
        )),
        Err(_) => crate::mkpat::output::write(&path, want.as_bytes()).map_err(|e| e.to_string()),
    }
}

fn play_one(
    config: &Config,
    players: &mut [Box<dyn Player>],
    g: &Scheduled,
    opening: &[Move],
    names: &[String],
) -> Result<GameRecord, String> {
    // Two distinct indices: split the slice to borrow both.
    let (first, second) = if g.first < g.second {
        let (lo, hi) = players.split_at_mut(g.second);
        (&mut lo[g.first], &mut hi[0])
    } else {
        let (lo, hi) = players.split_at_mut(g.first);
        (&mut hi[0], &mut lo[g.second])
    };
    let seed = config.seed ^ (g.index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let r = play_game_from(
        first.as_mut(),
        second.as_mut(),
        config.settings,
        seed,
        opening,
    );
    let file = format!("{}.sgf", g.id());
    crate::mkpat::output::write(&config.out.join(&file), r.sgf.as_bytes())
        .map_err(|e| e.to_string())?;
    let winner = if r.winner == Color::Black {
        Winner::First
    } else {
        Winner::Second
    };
    let ending = match r.end {
        End::Passes => Ending::Rules,
        End::Cap => Ending::Cap,
        End::Resigned(_) => Ending::Resigned,
        End::Illegal(_) => Ending::Illegal,
        End::Forfeit(_) => Ending::Crash,
        End::Timeout(_) => Ending::Timeout,
    };
    Ok(GameRecord {
        id: g.id(),
        first: names[g.first].clone(),
        second: names[g.second].clone(),
        opening: g.opening,
        winner,
        margin: f64::from(r.score),
        moves: r.moves as u32,
        seconds: [r.time[0].0.as_secs_f64(), r.time[1].0.as_secs_f64()],
        ending,
        record: Some(file),
    })
}

fn write_standings(out: &Path, s: &Standings) -> Result<(), String> {
    for (name, text) in [
        ("standings.md", s.markdown()),
        ("standings.csv", s.csv()),
        ("standings.json", s.json()),
    ] {
        crate::mkpat::output::write(&out.join(name), text.as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The standings of several folders' ledgers merged (the shards of one
/// tournament): the players are those the ledgers name, in order of
/// appearance. `note` hears of a ledger whose last line was cut short.
pub fn merge_folders(
    folders: &[PathBuf],
    fit: Fit,
    mut note: impl FnMut(&str),
) -> Result<Standings, String> {
    let mut ledgers = Vec::new();
    for f in folders {
        let path = f.join("ledger.jsonl");
        if !path.exists() {
            return Err(format!("{}: no ledger here", path.display()));
        }
        let (games, warning) = ledger::read(&path)?;
        if let Some(w) = warning {
            note(&w);
        }
        ledgers.push(games);
    }
    let games = ledger::merge(&ledgers)?;
    let mut names: Vec<String> = Vec::new();
    for g in &games {
        for n in [&g.first, &g.second] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    Standings::new(&names, &games, fit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_read_and_refuse() {
        let p: PlayerSpec = "gnugo=gtp:gnugo --mode gtp --level 0".parse().unwrap();
        assert_eq!(p.name, "gnugo");
        assert_eq!(
            p.kind,
            PlayerKind::Gtp(
                ["gnugo", "--mode", "gtp", "--level", "0"]
                    .map(String::from)
                    .into()
            )
        );
        let k: PlayerSpec = "k=katachi:playouts=500,db=x.db".parse().unwrap();
        assert_eq!(
            k.kind,
            PlayerKind::Katachi {
                search: Some(SearchOptions {
                    playouts: 500,
                    ..SearchOptions::default()
                }),
                db: Some("x.db".into()),
                all_patterns: false,
            }
        );
        assert_eq!(
            "r=random".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::Random
        );
        for bad in [
            "nameless",
            "a=chess",
            "a=gtp:",
            "a=katachi:depth=3",
            "=random",
            "a/b=random",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }
}
