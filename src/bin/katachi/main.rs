//! `katachi`: the command-line face of the runtime matcher.
//!
//! `katachi match` prints every geometric match of a pattern database in a
//! positions file, in the conformance corpus's format, so that a `diff`
//! against GNU Go's own output proves the matcher; `--repeat` turns the
//! same scan into a throughput measurement. `katachi gtp` plays Go;
//! `katachi explain` and `katachi hits` are the seed's tuning workflow
//! ("why this move?", which patterns pull their weight) over SGF games;
//! `katachi tournament` plays engines against each other
//! (`katachi::tournament::runner`); `katachi play` is five in a row in
//! the terminal (`katachi::play`); `katachi hex` the hexagonal contest's
//! judge, player and pictures (`katachi::contest`).
//!
//! The binary's files: `args.rs` (the command line), `matching.rs`
//! (`match`), `tuning.rs` (`explain`, `hits`), `tournament.rs` (`tournament`),
//! `games.rs` (SGF files and folders), `play.rs` (`play`'s flags), `hex.rs`
//! (`hex`); `gtp`
//! is the library's `katachi::gtp`.

mod args;
mod explain_five;
mod games;
mod hex;
mod judge;
mod learn;
mod learn_five;
mod matching;
mod personality;
mod play;
mod tournament;
mod tune;
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
            &db,
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
            top,
            db,
            rule,
            depth,
            by_depth,
            ..
        } if is_psq(&load) => report(explain_five::run(
            &load,
            until,
            top,
            db.as_deref(),
            rule.into(),
            depth,
            by_depth,
        )),
        Command::Explain {
            load,
            until,
            all_patterns,
            top,
            db,
            playouts,
            prior_visits,
            ..
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
        Command::Tournament(args) => tournament::run(args),
        Command::Play(args) => play::run(args),
        Command::Hex(args) => hex::run(args),
        Command::Personality(args) => personality::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Judge(args) => judge::run(args),
        Command::LearnMoves(args) => learn::run(args),
        Command::Gtp {
            output,
            all_patterns,
            db,
            personality,
            rules,
            seed,
            move_time,
            search,
        } => {
            let mut patterns = match db.as_deref().map(load_patterns).transpose() {
                Ok(p) => p,
                Err(msg) => {
                    eprintln!("{msg}");
                    return ExitCode::FAILURE;
                }
            };
            let playouts_by_size = search.playouts_by_size();
            let table = match search
                .predictor_table
                .as_deref()
                .map(katachi::go::predictor::Predictor::read_file)
            {
                Some(Ok(t)) => Some(t),
                Some(Err(msg)) => {
                    eprintln!("katachi gtp: {msg}");
                    return ExitCode::FAILURE;
                }
                None => None,
            };
            let mut search = search.options().map(|mut s| {
                if let Some(t) = table {
                    // Read once for the process's life: the searches of
                    // every move share it.
                    s.predictor = Some(Box::leak(Box::new(t)));
                }
                s
            });
            if let Some(path) = personality.as_deref() {
                let set = patterns
                    .clone()
                    .unwrap_or_else(katachi::go::movegen::PatternSet::builtin);
                match katachi::go::personality::load_file(path, &set) {
                    Ok(loaded) => {
                        search = search.map(|s| loaded.factors.search(s));
                        patterns = Some(loaded.patterns);
                    }
                    Err(msg) => {
                        eprintln!("{msg}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            let options = katachi::gtp::GtpOptions {
                record: output,
                all_patterns,
                patterns,
                search,
                rules,
                seed,
                playouts_by_size,
                move_time,
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

/// Whether `path` names a piskvork record (`.psq`, any case): a game of
/// five in a row rather than an SGF game of Go.
fn is_psq(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("psq"))
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
