//! `katachi tournament` for Go and five in a row: players from specs,
//! seeded random openings (or a file of them), the schedule played game
//! by game into a folder — one record per game, the ledger, the standings
//! — resumable and shardable.
//!
//! The folder holds `ledger.jsonl` ([`super::ledger`]), one record per
//! game (`gNNNN.sgf` for Go, `gNNNN.psq` for five in a row) and
//! `standings.{md,csv,json}`, rewritten after every game. A run
//! with the same arguments over the same folder plays only the games the
//! ledger lacks; `--shard K/N` plays one part of the schedule, and
//! [`merge_folders`] joins the parts' ledgers into the whole's standings.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::five::{self as five_play, FiveReferee, FiveSetup};
use super::ledger::{self, Ending, GameRecord, Standings, Winner};
use super::ratings::Fit;
use super::referee::{Referee, Side};
use super::schedule::{self, Format, Scheduled, Shard};
use super::{play_game_from, End, Player, Settings};
use crate::five::Rule;
use crate::go::Move;
use crate::position::{Color, Point};

pub use super::players::{PlayerKind, PlayerSpec};

/// The game a tournament plays.
#[derive(Clone, Debug, PartialEq)]
pub enum Game {
    /// Go, with `Config::openings_file` its openings file.
    Go,
    /// Five in a row by `rule`; openings from a Gomocup openings file
    /// (instead of `Config::openings` random ones), checked by the rules.
    Five {
        rule: Rule,
        openings_file: Option<Vec<Vec<Point>>>,
    },
    /// Five in a row on the hexagonal board of seed 003's contest (217
    /// cells), five or more or exactly five by `rule`; random openings
    /// near the centre, the judge's; records in the judge's log format.
    Hex { rule: Rule },
}

/// Everything a tournament is run with.
#[derive(Clone, Debug)]
pub struct Config {
    pub game: Game,
    pub players: Vec<PlayerSpec>,
    pub format: Format,
    /// Distinct openings; each is played twice per pairing.
    pub openings: usize,
    /// Go's openings read from a file (`--openings-file`), instead of
    /// `openings` random ones.
    pub openings_file: Option<Vec<Vec<Move>>>,
    /// Random moves in each opening.
    pub opening_moves: usize,
    pub seed: u64,
    pub settings: Settings,
    /// Time odds (`--time-odds NAME=FACTOR`): these players' move and
    /// game time are the settings' times the factor, whatever colour
    /// they play; the others have the settings' clocks.
    pub time_odds: Vec<(String, f64)>,
    pub out: PathBuf,
    pub shard: Option<Shard>,
    pub fit: Fit,
}

impl Config {
    /// The factor on `name`'s clocks: its time odds, or 1.
    fn odds_of(&self, name: &str) -> f64 {
        self.time_odds
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map_or(1.0, |&(_, f)| f)
    }

    /// The time odds of game `g`, Black's (the first player's) and
    /// White's.
    fn odds(&self, g: &Scheduled, names: &[String]) -> [f64; 2] {
        [
            self.odds_of(&names[g.first]),
            self.odds_of(&names[g.second]),
        ]
    }
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
    for p in &config.players {
        p.check(&config.game)?;
    }
    for (name, factor) in &config.time_odds {
        if !names.contains(name) {
            return Err(format!(
                "--time-odds {name}={factor}: no player is named {name} (the players: {})",
                names.join(", ")
            ));
        }
        if !(factor.is_finite() && *factor > 0.0) {
            return Err(format!(
                "--time-odds {name}={factor}: the factor must be a positive number"
            ));
        }
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
    let openings = match &config.game {
        Game::Go => config.openings_file.as_ref().map(Vec::len),
        Game::Five { openings_file, .. } => openings_file.as_ref().map(Vec::len),
        Game::Hex { .. } => None,
    }
    .unwrap_or(config.openings);
    let all = schedule::schedule(names.len(), config.format, openings);
    let done_ids: BTreeSet<String> = done.iter().map(|g| g.id.clone()).collect();
    let todo = schedule::to_play(&all, config.shard, &done_ids);
    let mut table = Table::new(config)?;
    progress(Progress::Start {
        to_play: todo.len(),
        done_before: done.len(),
    });
    let mut games = done;
    let mut standings = None;
    for (k, g) in todo.iter().enumerate() {
        let record = table.play(config, g, &names)?;
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
        // A failure says what failed: the loser's program's words.
        let line = match &record.reason {
            Some(why) => format!("{line} ({why})"),
            None => line,
        };
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
    if let Game::Five {
        rule,
        openings_file,
    } = &config.game
    {
        out +=
            &format!("game five in a row, rule {rule:?}, openings from a file {openings_file:?}\n");
    }
    // Only when given, so that the folders of earlier runs still resume.
    for p in &config.players {
        let factor = config.odds_of(&p.name);
        if factor != 1.0 {
            out += &format!("time odds {} = {factor}\n", p.name);
        }
    }
    if let Game::Hex { rule } = &config.game {
        out += &format!("game five in a row on the contest's hexagon, rule {rule:?}\n");
    }
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

/// The players, started, and the openings, of the tournament's game.
enum Table {
    Go {
        players: Vec<Box<dyn Player>>,
        openings: Vec<Vec<Move>>,
    },
    Five {
        players: Vec<Box<dyn Side<FiveReferee>>>,
        openings: Vec<Vec<Point>>,
        setup: FiveSetup,
    },
}

impl Table {
    fn new(config: &Config) -> Result<Table, String> {
        let s = config.settings;
        Ok(match &config.game {
            Game::Go => Table::Go {
                openings: match &config.openings_file {
                    Some(lines) => lines.clone(),
                    None => super::openings::random(
                        s.size,
                        config.openings.max(1),
                        config.opening_moves,
                        config.seed,
                    ),
                },
                players: config
                    .players
                    .iter()
                    .map(PlayerSpec::start)
                    .collect::<Result<_, _>>()?,
            },
            Game::Five {
                rule,
                openings_file,
            } => {
                let openings = match openings_file {
                    Some(lines) => lines.clone(),
                    None => five_play::random_openings(
                        s.size,
                        *rule,
                        config.openings.max(1),
                        config.opening_moves,
                        config.seed,
                    )?,
                };
                Table::five(config, *rule, false, s.size, openings)?
            }
            Game::Hex { rule } => {
                let openings = super::contest::hex_openings(
                    config.openings.max(1),
                    config.opening_moves,
                    config.seed,
                );
                Table::five(config, *rule, true, crate::hexagon::CONTEST_SIDE, openings)?
            }
        })
    }

    /// Five in a row's table, on the square board or the hexagon: the
    /// players started for the game.
    fn five(
        config: &Config,
        rule: Rule,
        hexagon: bool,
        size: usize,
        openings: Vec<Vec<Point>>,
    ) -> Result<Table, String> {
        Ok(Table::Five {
            openings,
            setup: FiveSetup {
                size,
                rule,
                hexagon,
                move_time: config.settings.move_time,
                game_time: config.settings.game_time,
            },
            players: config
                .players
                .iter()
                .map(|p| p.start_five(&config.game, &config.out))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Plays game `g`, writes its record beside the ledger, and returns
    /// its ledger line.
    fn play(
        &mut self,
        config: &Config,
        g: &Scheduled,
        names: &[String],
    ) -> Result<GameRecord, String> {
        let seed = config.seed ^ (g.index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
        match self {
            Table::Go { players, openings } => {
                let (first, second) = pair(players, g);
                play_go(config, first, second, seed, g, &openings[g.opening], names)
            }
            Table::Five {
                players,
                openings,
                setup,
            } => {
                let (first, second) = pair(players, g);
                let r = five_play::play_five_game(
                    first.as_mut(),
                    second.as_mut(),
                    *setup,
                    config.settings.move_cap,
                    config.odds(g, names),
                    seed,
                    &openings[g.opening],
                )?;
                let file = format!("{}.{}", g.id(), r.referee.extension());
                let text = if setup.hexagon {
                    // The judge's log, which names the rule a failing
                    // player broke.
                    let end = (&r.end, r.error.as_deref().unwrap_or(""));
                    super::contest::game_log(
                        &r.referee,
                        [&names[g.first], &names[g.second]],
                        Some(end),
                    )
                    .to_string()
                } else {
                    r.referee.record(
                        &names[g.first],
                        &names[g.second],
                        &five_play::result_text(&r),
                    )
                };
                crate::mkpat::output::write(&config.out.join(&file), text.as_bytes())
                    .map_err(|e| e.to_string())?;
                Ok(GameRecord {
                    id: g.id(),
                    first: names[g.first].clone(),
                    second: names[g.second].clone(),
                    opening: g.opening,
                    winner: match r.winner() {
                        Some(Color::Black) => Winner::First,
                        Some(Color::White) => Winner::Second,
                        None => Winner::Draw,
                    },
                    margin: r.referee.verdict().1,
                    moves: r.referee.moves() as u32,
                    seconds: [r.time[0].0.as_secs_f64(), r.time[1].0.as_secs_f64()],
                    ending: ending(r.end),
                    record: Some(file),
                    fingerprint: Some(r.referee.fingerprint().to_string()),
                    reason: r.error,
                })
            }
        }
    }
}

/// The two players of `g` (distinct indices), first then second.
fn pair<'a, T>(players: &'a mut [T], g: &Scheduled) -> (&'a mut T, &'a mut T) {
    // Two distinct indices: split the slice to borrow both.
    if g.first < g.second {
        let (lo, hi) = players.split_at_mut(g.second);
        (&mut lo[g.first], &mut hi[0])
    } else {
        let (lo, hi) = players.split_at_mut(g.first);
        (&mut hi[0], &mut lo[g.second])
    }
}

/// The ledger's word for how a game ended.
fn ending(end: End) -> Ending {
    match end {
        End::Rules => Ending::Rules,
        End::Cap => Ending::Cap,
        End::Resigned(_) => Ending::Resigned,
        End::Illegal(_) => Ending::Illegal,
        End::Forfeit(_) => Ending::Crash,
        End::Timeout(_) => Ending::Timeout,
    }
}

fn play_go(
    config: &Config,
    first: &mut Box<dyn Player>,
    second: &mut Box<dyn Player>,
    seed: u64,
    g: &Scheduled,
    opening: &[Move],
    names: &[String],
) -> Result<GameRecord, String> {
    let r = play_game_from(
        first.as_mut(),
        second.as_mut(),
        config.settings,
        config.odds(g, names),
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
    let ending = ending(r.end);
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
        fingerprint: Some(r.fingerprint.to_string()),
        reason: r.error,
    })
}

fn write_standings(out: &Path, s: &Standings) -> Result<(), String> {
    for (name, text) in [
        ("standings.md", s.markdown()),
        ("standings.csv", s.csv()),
        ("pairs.csv", s.pairs_csv()),
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
