//! `katachi learn-moves`: fits the Go move predictor
//! (`katachi::go::predictor`) to the moves of SGF game records and
//! writes its strength table; `--check` measures a table on records
//! instead.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use katachi::go::game::Move;
use katachi::go::predictor::fit::{add_game, fit, replay, Competitions};
use katachi::go::predictor::{legal_features, Predictor};
use katachi::position::{Color, Point};

/// `katachi learn-moves`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    /// SGF files, or folders searched for `.sgf` files (any case), in
    /// every subfolder.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Where to write the strength table (atomically; an existing file
    /// is kept as FILE.bak). Without it nothing is fitted: the table of
    /// `--table` (or the built-in one) is measured on the held-out games.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The table to measure when there is no `--output`.
    #[arg(long, value_name = "FILE", conflicts_with = "output")]
    table: Option<PathBuf>,
    /// Only games on a board of this side.
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Games to fit on (after the held-out ones), at most.
    #[arg(long, default_value_t = 2000)]
    games: usize,
    /// Games held out to measure the table on (the first ones in the
    /// shuffled order).
    #[arg(long, default_value_t = 100)]
    holdout: usize,
    /// Fit on one position in this many (each game's moves 0, K, 2K...
    /// shifted by the game's number), to spread the memory over more
    /// games.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
    /// Rounds of minorization–maximization at most.
    #[arg(long, default_value_t = 30)]
    rounds: usize,
    /// The order the records are taken in (sorted by path, then shuffled
    /// by this seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for the fit (the strengths may differ in their last
    /// digits with another number of threads: sums in another order).
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// One game's start and moves.
struct Record {
    setup: Vec<(Color, Point)>,
    moves: Vec<(Color, Option<Point>)>,
}

/// The records under `path`: the file itself when given by name, the
/// `.sgf` files of a folder and its subfolders.
fn collect(path: &Path, out: &mut Vec<PathBuf>, named: bool) -> Result<(), String> {
    if path.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            collect(&entry.path(), out, false)?;
        }
    } else if named
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
    {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn read(path: &Path, size: usize) -> Result<Option<Record>, String> {
    let loaded = katachi::sgf::load_file(path, None)?;
    if loaded.game.size() != size {
        return Ok(None);
    }
    let moves = loaded
        .game
        .history()
        .iter()
        .map(|&(c, m)| {
            (
                c,
                match m {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                },
            )
        })
        .collect();
    Ok(Some(Record {
        setup: loaded.setup,
        moves,
    }))
}

/// Over every move of the held-out games: how many, how many the table
/// ranks first, in the first 5, 10 and 20, and the mean log-likelihood.
fn measure(predictor: &Predictor, size: usize, games: &[Record]) -> (usize, [usize; 4], f64) {
    let mut n = 0;
    let mut top = [0usize; 4];
    let mut ll = 0.0;
    let mut legal = Vec::new();
    for g in games {
        // A wrong record was reported when it was read for the fit; its
        // moves up to the fault still count.
        let _ = replay(
            size,
            &g.setup,
            &g.moves,
            |_| true,
            |board, c, ctx, k| {
                legal_features(board, c, ctx, &mut legal);
                if let Some((rank, p)) = predictor.rank(&legal, k) {
                    n += 1;
                    for (t, limit) in top.iter_mut().zip([1, 5, 10, 20]) {
                        if rank < limit {
                            *t += 1;
                        }
                    }
                    ll += p.ln();
                }
            },
        );
    }
    (n, top, ll / n.max(1) as f64)
}

fn print_measure(what: &str, (n, top, ll): (usize, [usize; 4], f64)) {
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!(
        "{what}: {n} moves, the move first {:.1} %, in the first 5 {:.1} %, 10 {:.1} %, 20 {:.1} %; mean log-likelihood {ll:.3}",
        pct(top[0]),
        pct(top[1]),
        pct(top[2]),
        pct(top[3])
    );
}

/// A strength table from a file; every bad line reported as
/// `FILE:LINE:COL: message`, the line and a caret.
pub(crate) fn read_table(path: &Path) -> Result<Predictor, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Predictor::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("{}:{e}", path.display()))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

pub(crate) fn run(args: LearnArgs) -> ExitCode {
    match learn(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi learn-moves: {e}");
            ExitCode::FAILURE
        }
    }
}

fn learn(args: &LearnArgs) -> Result<(), String> {
    if !(2..=19).contains(&args.size) {
        return Err(format!("--size {}: the board's side is 2 to 19", args.size));
    }
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, &mut files, true)?;
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err("no .sgf file in the paths given".to_string());
    }
    // Shuffled by the seed (Fisher–Yates on a splitmix stream), so that
    // the held-out games and the fitted ones mix every source.
    let mut state = args.seed;
    for i in (1..files.len()).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let j = (katachi::seeding::splitmix(state) % (i as u64 + 1)) as usize;
        files.swap(i, j);
    }
    let mut held = Vec::new();
    let mut data = Competitions::new();
    let (mut skipped, mut wrong, mut fitted) = (0usize, 0usize, 0usize);
    let fitting = args.output.is_some();
    for path in &files {
        if held.len() >= args.holdout && (!fitting || fitted >= args.games) {
            break;
        }
        let record = match read(path, args.size) {
            Ok(Some(r)) => r,
            Ok(None) => {
                skipped += 1;
                continue;
            }
            Err(e) => {
                eprintln!("warning: {e} (game left out)");
                wrong += 1;
                continue;
            }
        };
        if held.len() < args.holdout {
            held.push(record);
            continue;
        }
        let every = args.every as usize;
        let shift = fitted % every;
        match add_game(&mut data, args.size, &record.setup, &record.moves, |i| {
            i % every == shift
        }) {
            Ok(_) => fitted += 1,
            Err(e) => {
                eprintln!("warning: {}: {e} (game left out)", path.display());
                wrong += 1;
            }
        }
    }
    eprintln!(
        "{} records: {} held out, {fitted} fitted on ({} positions, {} points, {} features); {skipped} of another size, {wrong} unreadable",
        files.len(),
        held.len(),
        data.len(),
        data.teams(),
        data.feature_count()
    );
    let Some(output) = &args.output else {
        let table = match &args.table {
            Some(path) => read_table(path)?,
            None => Predictor::builtin().clone(),
        };
        print_measure("held out", measure(&table, args.size, &held));
        print_measure("uniform", measure(&Predictor::uniform(), args.size, &held));
        return Ok(());
    };
    if data.is_empty() {
        return Err("no position to fit on".to_string());
    }
    let (predictor, report) = fit(&data, args.rounds, 1e-4, args.threads);
    for (round, ll) in report.log_likelihood.iter().enumerate() {
        eprintln!("round {round}: mean log-likelihood {ll:.4}");
    }
    let header = format!(
        "katachi's Go move predictor: strengths (gamma) of point features,\n\
         fitted by `katachi learn-moves` (minorization-maximization) to {} positions\n\
         of {fitted} {}x{} games, one position in {}, seed {}; {} rounds, mean\n\
         log-likelihood {:.4} (uniform {:.4}).\n\
         Lines: GROUP VALUE GAMMA; see src/go/predictor.rs for the groups.",
        data.len(),
        args.size,
        args.size,
        args.every,
        args.seed,
        report.log_likelihood.len() - 1,
        report.log_likelihood.last().copied().unwrap_or(0.0),
        report.log_likelihood[0],
    );
    let text = predictor.to_text(&header);
    match std::fs::read(output) {
        Ok(original) => {
            let backup = mkpat::output::replace_with_backup(output, &original, text.as_bytes())
                .map_err(|e| e.to_string())?;
            eprintln!("kept the earlier table as {}", backup.display());
        }
        Err(_) => mkpat::output::write(output, text.as_bytes()).map_err(|e| e.to_string())?,
    }
    eprintln!("wrote {} ({} strengths)", output.display(), predictor.len());
    if !held.is_empty() {
        print_measure("held out", measure(&predictor, args.size, &held));
        print_measure("uniform", measure(&Predictor::uniform(), args.size, &held));
    }
    Ok(())
}
