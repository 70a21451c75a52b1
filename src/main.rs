//! `katachi`: the command-line face of the runtime matcher.
//!
//! `katachi match` prints every geometric match of a pattern database in a
//! positions file, in the conformance corpus's format, so that a `diff`
//! against GNU Go's own output proves the matcher; `--repeat` turns the
//! same scan into a throughput measurement.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use katachi::matcher::{Match, Matcher};
use katachi::positions::{parse_positions, PositionRecord};
use mkpat::tables::Tables;

#[derive(Parser, Debug)]
#[command(
    name = "katachi",
    version,
    about = "Pattern matcher for board games, fed by mkpat-compiled pattern databases",
    long_about = "katachi matches pattern databases (GNU Go's patterns.db language, \
                  compiled by mkpat) against board positions with GNU Go's \
                  grid-optimised matcher."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print every geometric match of a database in a positions file.
    ///
    /// Only the diagrams are tested, with their edge and corner markers:
    /// no class letters, helpers, weights or constraints. Output is one
    /// line per match, `pos pattern trans move_i move_j` (pos counts
    /// positions from 0; move is the board point under `*`, row from the
    /// top, column from the left), sorted per position by pattern name
    /// (byte order), then trans, then move.
    ///
    /// Positions file format (blank line between positions):
    /// `to_move X` or `to_move O` (X = black, O = white), the board size,
    /// then that many rows of `.`, `X` and `O`.
    #[command(verbatim_doc_comment)]
    Match {
        /// Pattern database to compile in memory (leniently: wrong
        /// symmetry classes and unknown helpers are warnings, printed on
        /// stderr). Without it, the database built into katachi is used.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// Scan all positions K times and print one throughput summary
        /// line (positions/s, matches/s, matches per pass) instead of the
        /// matches.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
        repeat: Option<u32>,
        /// Print per-pattern hit counts instead of the matches: a table
        /// sorted by matches, patterns that never matched flagged.
        #[arg(long, conflicts_with = "repeat")]
        stats: bool,
        /// Also write the hit counts as TSV to FILE, for `mkpat html
        /// --hits FILE` (implies --stats).
        #[arg(long, value_name = "FILE", conflicts_with = "repeat")]
        stats_out: Option<String>,
        /// The positions file.
        #[arg(value_name = "POSITIONS")]
        positions: String,
    },
    /// Play Go over the Go Text Protocol (version 2) on stdin and stdout.
    Gtp,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Match {
            db,
            repeat,
            stats,
            stats_out,
            positions,
        } => match run_match(
            db.as_deref(),
            repeat,
            (stats || stats_out.is_some()).then_some(stats_out.as_deref()),
            &positions,
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("{msg}");
                ExitCode::FAILURE
            }
        },
        Command::Gtp => {
            match katachi::gtp::run(std::io::stdin().lock(), std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("katachi gtp: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `stats`: `Some(out)` prints hit counts instead of matches, and writes
/// them as TSV to `out` when given.
fn run_match(
    db_path: Option<&str>,
    repeat: Option<u32>,
    stats: Option<Option<&str>>,
    positions_path: &str,
) -> Result<(), String> {
    let bytes = std::fs::read(positions_path)
        .map_err(|e| format!("katachi: cannot read {positions_path}: {e}"))?;
    let positions = parse_positions(positions_path, &bytes).map_err(|e| e.to_string())?;
    match db_path {
        None => run_with(katachi::builtin::TABLES, &positions, repeat, stats),
        Some(path) => {
            let src =
                std::fs::read(path).map_err(|e| format!("katachi: cannot read {path}: {e}"))?;
            let compiled = mkpat::compile(
                path,
                &src,
                &mkpat::Options {
                    lenient: true,
                    ..Default::default()
                },
            );
            eprint!("{}", compiled.render());
            let errors = compiled.error_count();
            let db = compiled.database.ok_or_else(|| {
                format!("katachi: {path}: {errors} error(s): the pattern database does not compile")
            })?;
            run_with(db.tables(), &positions, repeat, stats)
        }
    }
}

fn run_with(
    tables: Tables<'_>,
    positions: &[PositionRecord],
    repeat: Option<u32>,
    stats: Option<Option<&str>>,
) -> Result<(), String> {
    let matcher = Matcher::new(tables);
    if let Some(out) = stats {
        let hits = katachi::stats::hit_counts(&matcher, positions);
        if let Some(path) = out {
            std::fs::write(path, hits.to_tsv())
                .map_err(|e| format!("katachi: cannot write {path}: {e}"))?;
        }
        print!("{}", katachi::stats::table(&hits));
        return Ok(());
    }
    if let Some(k) = repeat {
        let start = Instant::now();
        let mut total = 0u64;
        for _ in 0..k {
            for p in positions {
                matcher.scan(&p.board, p.to_move, |_| total += 1);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let scanned = positions.len() as f64 * f64::from(k);
        println!(
            "{} positions x {k} passes in {secs:.3} s: {:.0} positions/s, {:.0} matches/s, {} matches per pass",
            positions.len(),
            scanned / secs,
            total as f64 / secs,
            total / u64::from(k)
        );
        return Ok(());
    }
    let mut out = String::new();
    let mut found: Vec<Match> = Vec::new();
    for (n, p) in positions.iter().enumerate() {
        found.clear();
        matcher.scan(&p.board, p.to_move, |m| found.push(m));
        found.sort_by(|a, b| {
            let (pa, pb) = (
                &tables.patterns[a.pattern as usize],
                &tables.patterns[b.pattern as usize],
            );
            pa.name
                .as_bytes()
                .cmp(pb.name.as_bytes())
                .then(a.trans.cmp(&b.trans))
                .then(a.move_point.cmp(&b.move_point))
        });
        for m in &found {
            let name = &tables.patterns[m.pattern as usize].name;
            use std::fmt::Write;
            let _ = writeln!(
                out,
                "{n} {name} {} {} {}",
                m.trans, m.move_point.i, m.move_point.j
            );
        }
    }
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("katachi: cannot write the matches: {e}"))
}
