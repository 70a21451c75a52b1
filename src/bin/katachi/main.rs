//! `katachi`: the command-line face of the runtime matcher.
//!
//! `katachi match` prints every geometric match of a pattern database in a
//! positions file, in the conformance corpus's format, so that a `diff`
//! against GNU Go's own output proves the matcher; `--repeat` turns the
//! same scan into a throughput measurement. `katachi gtp` plays Go;
//! `katachi explain` and `katachi hits` are the seed's tuning workflow
//! ("why this move?", which patterns pull their weight) over SGF games;
//! `katachi tournament` plays engines against each other
//! (`katachi::tournament::runner`).
//!
//! The binary's files: `args.rs` (the command line), `matching.rs`
//! (`match`), `tuning.rs` (`explain`, `hits`), `games.rs` (SGF files and
//! folders); `gtp` is the library's `katachi::gtp`.

mod args;
mod games;
mod matching;
mod tuning;

use std::process::ExitCode;

use clap::Parser;
use katachi::go::search::SearchOptions;
use katachi::tuning::Evaluator;

use args::{Cli, Command};
use matching::{run_match, Output};
use tuning::{run_explain, run_hits};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Match {
            db,
            repeat,
            stats,
            stats_out,
            show,
            positions,
        } => match run_match(
            db.as_deref(),
            Output {
                repeat,
                stats: (stats || stats_out.is_some()).then_some(stats_out.as_deref()),
                show,
            },
            &positions,
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("{msg}");
                ExitCode::FAILURE
            }
        },
        Command::Explain {
            load,
            until,
            all_patterns,
            top,
            db,
            playouts,
            prior_visits,
        } => report(run_explain(
            &load,
            until,
            all_patterns,
            top,
            db.as_deref(),
            SearchOptions {
                playouts,
                prior_visits,
                ..SearchOptions::default()
            },
        )),
        Command::Hits {
            games,
            tsv,
            all_patterns,
            db,
        } => report(run_hits(
            &games,
            tsv.as_deref(),
            all_patterns,
            db.as_deref(),
        )),
        Command::Tournament {
            players,
            gauntlet,
            openings,
            opening_moves,
            openings_file,
            seed,
            size,
            komi,
            cap,
            move_time,
            game_time,
            shard,
            prior,
            out,
            merge,
        } => {
            use katachi::tournament::{ratings::Fit, runner, schedule::Format, Settings};
            let fit = Fit { prior_games: prior };
            let standings = if !merge.is_empty() {
                runner::merge_folders(&merge, fit)
            } else if !(katachi::go::game::MIN_SIZE..=katachi::go::game::MAX_SIZE).contains(&size) {
                Err(format!(
                    "--size {size}: Go is played here on {}..={}",
                    katachi::go::game::MIN_SIZE,
                    katachi::go::game::MAX_SIZE
                ))
            } else {
                let openings_file = match &openings_file {
                    None => None,
                    Some(path) => {
                        let read = katachi::input::read_file(path)
                            .map_err(|e| format!("{}: {e}", path.display()))
                            .and_then(|bytes| {
                                katachi::tournament::openings::parse(
                                    &path.display().to_string(),
                                    &bytes,
                                    size,
                                )
                            });
                        match read {
                            Ok(o) => Some(o),
                            Err(e) => {
                                eprintln!("{e}");
                                return ExitCode::FAILURE;
                            }
                        }
                    }
                };
                let config = runner::Config {
                    players,
                    openings_file,
                    format: if gauntlet {
                        Format::Gauntlet
                    } else {
                        Format::RoundRobin
                    },
                    openings,
                    opening_moves,
                    seed,
                    settings: Settings {
                        size,
                        komi,
                        move_cap: cap,
                        move_time: match seconds("--move-time", move_time) {
                            Ok(t) => t,
                            Err(e) => {
                                eprintln!("katachi tournament: {e}");
                                return ExitCode::FAILURE;
                            }
                        },
                        game_time: match seconds("--game-time", game_time) {
                            Ok(t) => t,
                            Err(e) => {
                                eprintln!("katachi tournament: {e}");
                                return ExitCode::FAILURE;
                            }
                        },
                    },
                    out: out.expect("clap requires --out without --merge"),
                    shard,
                    fit,
                };
                run_with_progress(&config)
            };
            match standings {
                Ok(s) => match emit(&s.markdown()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => {
                        eprintln!("katachi tournament: {e}");
                        ExitCode::FAILURE
                    }
                },
                Err(e) => {
                    eprintln!("katachi tournament: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Gtp {
            output,
            all_patterns,
            db,
            search,
        } => {
            let patterns = match db.as_deref().map(load_patterns).transpose() {
                Ok(p) => p,
                Err(msg) => {
                    eprintln!("{msg}");
                    return ExitCode::FAILURE;
                }
            };
            let options = katachi::gtp::GtpOptions {
                record: output,
                all_patterns,
                patterns,
                search: search.options(),
            };
            match katachi::gtp::run_with(std::io::stdin().lock(), std::io::stdout().lock(), options)
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("katachi gtp: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// A time limit given in seconds: positive and finite, or absent.
fn seconds(flag: &str, value: Option<f64>) -> Result<Option<std::time::Duration>, String> {
    match value {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Some(std::time::Duration::from_secs_f64(t))),
        Some(t) => Err(format!("{flag} {t}: a positive number of seconds")),
    }
}

/// Runs a tournament with a progress bar on a terminal (the leaders'
/// ratings as its message), one line per game otherwise.
fn run_with_progress(
    config: &katachi::tournament::runner::Config,
) -> Result<katachi::tournament::ledger::Standings, String> {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use katachi::tournament::runner::{run, Progress};
    use std::io::IsTerminal;
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
    let result = run(config, |p| match p {
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

/// A pattern database for the move generator, its warnings on stderr.
fn load_patterns(path: &str) -> Result<std::sync::Arc<katachi::go::movegen::PatternSet>, String> {
    let set = read_patterns(path)?;
    for w in set.warnings() {
        eprintln!("katachi: {w}");
    }
    Ok(std::sync::Arc::new(set))
}

/// A pattern database compiled in memory, read within
/// [`katachi::input::MAX_INPUT_BYTES`]; on failure, the compiler's
/// diagnostics then `katachi: ` and the summary.
pub(crate) fn read_patterns(path: &str) -> Result<katachi::go::movegen::PatternSet, String> {
    katachi::go::movegen::PatternSet::load(path)
        .map_err(|e| format!("{}katachi: {}", e.diagnostics, e.message))
}

fn report(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

/// The move generator's evaluator over the builtin database or the one
/// at `db_path` (compiled leniently; its warnings on stderr).
fn evaluator(db_path: Option<&str>) -> Result<Evaluator, String> {
    let Some(path) = db_path else {
        return Ok(Evaluator::builtin());
    };
    let e = Evaluator::new(std::sync::Arc::new(read_patterns(path)?));
    for w in e.set().warnings() {
        eprintln!("katachi: {w}");
    }
    Ok(e)
}

/// Writes to standard output. A reader that went away (`| head`) ends the
/// output quietly rather than with a panic; other failures are errors.
pub(crate) fn emit(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("katachi: cannot write the output: {e}")),
    }
}
