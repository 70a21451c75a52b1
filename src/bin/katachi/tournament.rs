//! `katachi tournament`: the flags made into a tournament's configuration,
//! the run with a progress bar, the standings printed.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use katachi::five::record::read_openings;
use katachi::five::Rule;
use katachi::go::game::{MAX_SIZE, MIN_SIZE};
use katachi::tournament::five::check_opening;
use katachi::tournament::ledger::Standings;
use katachi::tournament::ratings::Fit;
use katachi::tournament::runner::{self, Config, Game, Progress};
use katachi::tournament::schedule::Format;
use katachi::tournament::{openings, Settings};

use crate::args::{GameArg, RuleArg, TournamentArgs};
use crate::emit;

/// Why a tournament did not run.
enum Failure {
    /// A message for `katachi tournament: …`.
    Message(String),
    /// An openings file's diagnostics, printed as they are rendered.
    Rendered(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Message(e)
    }
}

pub(crate) fn run(a: TournamentArgs) -> ExitCode {
    let failure = match standings(a) {
        Ok(s) => match emit(&s.markdown()) {
            Ok(()) => return ExitCode::SUCCESS,
            Err(e) => Failure::Message(e),
        },
        Err(f) => f,
    };
    match failure {
        Failure::Message(e) => eprintln!("katachi tournament: {e}"),
        Failure::Rendered(text) => eprintln!("{text}"),
    }
    ExitCode::FAILURE
}

/// Plays (or merges) the tournament the flags describe.
fn standings(a: TournamentArgs) -> Result<Standings, Failure> {
    let fit = Fit {
        prior_games: a.prior,
    };
    if !a.merge.is_empty() {
        return Ok(runner::merge_folders(&a.merge, fit, |w| {
            eprintln!("katachi: {w}")
        })?);
    }
    let (game, size, openings_file) = match a.game {
        GameArg::Go => {
            let size = a.size.unwrap_or(9);
            if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                return Err(
                    format!("--size {size}: Go is played here on {MIN_SIZE}..={MAX_SIZE}").into(),
                );
            }
            let openings_file = match &a.openings_file {
                None => None,
                Some(path) => Some(
                    katachi::input::read_file(path)
                        .map_err(|e| format!("{}: {e}", path.display()))
                        .and_then(|bytes| {
                            openings::parse(&path.display().to_string(), &bytes, size)
                        })
                        .map_err(Failure::Rendered)?,
                ),
            };
            (Game::Go, size, openings_file)
        }
        GameArg::Five => {
            use katachi::five::rules::{MAX_SIZE, MIN_SIZE};
            let size = a.size.unwrap_or(15);
            if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                return Err(format!(
                    "--size {size}: five in a row is played here on {MIN_SIZE}..={MAX_SIZE}"
                )
                .into());
            }
            let rule = Rule::from(a.rule);
            let openings_file = match &a.openings_file {
                None => None,
                Some(path) => Some(five_openings(path, size, rule).map_err(Failure::Rendered)?),
            };
            (
                Game::Five {
                    rule,
                    openings_file,
                },
                size,
                None,
            )
        }
        GameArg::Hex => {
            let side = katachi::hexagon::CONTEST_SIDE;
            if a.size.is_some_and(|s| s != side) {
                return Err(format!(
                    "--size: the contest's hexagon has side {side} (217 cells); leave --size out"
                )
                .into());
            }
            if a.openings_file.is_some() {
                return Err("--openings-file: the hexagon's openings are random ones (--openings, --opening-moves)".to_string().into());
            }
            let rule = match a.rule {
                RuleArg::Renju | RuleArg::Pente => {
                    return Err(format!(
                        "--rule {}: the hexagon is played freestyle or exact",
                        if a.rule == RuleArg::Renju {
                            "renju"
                        } else {
                            "pente"
                        }
                    )
                    .into())
                }
                r => Rule::from(r),
            };
            if a.opening_moves.is_some_and(|m| m > 19) {
                return Err("--opening-moves: at most 19 on the hexagon (the cells two steps round the centre)".to_string().into());
            }
            (Game::Hex { rule }, side, None)
        }
    };
    let default_cap = match game {
        Game::Go => 400,
        Game::Five { .. } => size * size,
        Game::Hex { .. } => katachi::contest::protocol::CELLS,
    };
    let default_opening_moves = match game {
        Game::Go => 2,
        Game::Five { .. } => 3,
        Game::Hex { .. } => 2,
    };
    let config = Config {
        game,
        players: a.players,
        format: if a.gauntlet {
            Format::Gauntlet
        } else {
            Format::RoundRobin
        },
        openings: a.openings,
        openings_file,
        opening_moves: a.opening_moves.unwrap_or(default_opening_moves),
        seed: a.seed,
        settings: Settings {
            size,
            komi: a.komi,
            move_cap: a.cap.unwrap_or(default_cap),
            move_time: seconds("--move-time", a.move_time)?,
            game_time: seconds("--game-time", a.game_time)?,
        },
        time_odds: a.time_odds,
        out: a.out.expect("clap requires --out without --merge"),
        shard: a.shard,
        fit,
    };
    Ok(run_with_progress(&config)?)
}

/// A Gomocup openings file for a `size` board, each opening replayed by
/// `rule`; on any error, every one rendered `FILE:LINE:COLUMN: error: …`
/// with the line and a caret.
fn five_openings(
    path: &std::path::Path,
    size: usize,
    rule: Rule,
) -> Result<Vec<Vec<katachi::Point>>, String> {
    let name = path.display().to_string();
    let bytes = katachi::input::read_file(path).map_err(|e| format!("{name}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let openings = read_openings(&text, size).map_err(|errors| {
        let mut out = String::new();
        for e in &errors {
            out += &e.located(&name);
            out.push('\n');
        }
        out + &format!("{name}: {} error(s) in the openings", errors.len())
    })?;
    if openings.is_empty() {
        return Err(format!("{name}: no opening in this file"));
    }
    // Each opening's line: the file's lines that are not blank, in order.
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().trim_start_matches('\u{feff}').is_empty());
    for (o, (n, line)) in openings.iter().zip(lines) {
        check_opening(o, size, rule).map_err(|(stone, why)| {
            format!(
                "{name}:{}: error: stone {} of the opening: {why}\n{line}",
                n + 1,
                stone + 1
            )
        })?;
    }
    Ok(openings)
}

/// A time limit given in seconds: positive and finite, or absent.
fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, String> {
    match value {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(format!("{flag} {t}: a positive number of seconds")),
    }
}

/// Runs a tournament with a progress bar on a terminal (the leaders'
/// ratings as its message), one line per game otherwise.
fn run_with_progress(config: &Config) -> Result<Standings, String> {
    let terminal = std::io::stderr().is_terminal();
    let bar = ProgressBar::with_draw_target(
        None,
        if terminal {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) =
        ProgressStyle::with_template("[{elapsed_precise}] {wide_bar} {pos}/{len} games  {msg}")
    {
        bar.set_style(style);
    }
    let result = runner::run(config, |p| match p {
        Progress::Start { to_play, .. } => bar.set_length(to_play as u64),
        Progress::Game {
            played,
            line,
            standings,
        } => {
            if terminal {
                let leaders: Vec<String> = standings
                    .players
                    .iter()
                    .take(3)
                    .map(|s| format!("{} {:+.0}", s.player, s.elo))
                    .collect();
                bar.set_position(played as u64);
                bar.set_message(leaders.join(", "));
            } else {
                eprintln!("{line}");
            }
        }
        Progress::Note(text) => {
            if terminal {
                bar.println(text);
            } else {
                eprintln!("{text}");
            }
        }
    });
    bar.finish_and_clear();
    result
}
