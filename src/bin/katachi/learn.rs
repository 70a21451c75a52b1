//! `katachi learn-moves`: fits a move predictor to the moves of game
//! records and writes its strength table, or measures a table on
//! held-out records: Go's (`katachi::go::predictor`) from SGF records,
//! five in a row's (`katachi::five::predictor`) from `.psq` records.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use katachi::bradley_terry::FitReport;
use katachi::go::game::Move;
use katachi::go::predictor::fit::{add_game, fit, replay, Competitions};
use katachi::go::predictor::{legal_features, Predictor};
use katachi::position::{Color, Point};

/// `katachi learn-moves`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    /// Record files, or folders searched for them (`.sgf` for Go, `.psq`
    /// for five in a row, any case), in every subfolder.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// The game of the records.
    #[arg(long, value_enum, default_value_t = LearnGame::Go)]
    pub(crate) game: LearnGame,
    /// Five in a row's rule (exact or renju: the rules with a built-in
    /// predictor).
    #[arg(long, value_enum, default_value_t = crate::args::RuleArg::Exact)]
    pub(crate) rule: crate::args::RuleArg,
    /// Where to write the strength table (atomically; an existing file
    /// is kept as FILE.bak). Without it nothing is fitted: the table of
    /// `--table` (or the built-in one) is measured on the held-out games.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// The table to measure when there is no `--output`.
    #[arg(long, value_name = "FILE", conflicts_with = "output")]
    pub(crate) table: Option<PathBuf>,
    /// Five in a row: the moves at the start of each record not fitted
    /// on nor measured (a tournament's random opening, 3 by default in
    /// `katachi tournament --game five`).
    #[arg(long, default_value_t = 3)]
    pub(crate) opening_moves: usize,
    /// Five in a row: fit on and measure only each record's last move.
    /// For positions labelled by a stronger brain: each record is the
    /// game up to a position, then the brain's choice there (its moves
    /// before it were not the brain's). Not with `--every`: every
    /// record gives its one position.
    #[arg(long, conflicts_with = "every")]
    pub(crate) last_move_only: bool,
    /// Only games on a board of this side [default: 19 for Go, 15 for
    /// five in a row].
    #[arg(long)]
    pub(crate) size: Option<usize>,
    /// Games to fit on (after the held-out ones), at most.
    #[arg(long, default_value_t = 2000)]
    pub(crate) games: usize,
    /// Games held out to measure the table on (the first ones in the
    /// shuffled order).
    #[arg(long, default_value_t = 100)]
    pub(crate) holdout: usize,
    /// Fit on one position in this many (each game's moves 0, K, 2K...
    /// shifted by the game's number), to spread the memory over more
    /// games.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) every: u32,
    /// Rounds of minorization–maximization at most.
    #[arg(long, default_value_t = 30)]
    pub(crate) rounds: usize,
    /// The order the records are taken in (sorted by path, then shuffled
    /// by this seed).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Threads for the fit (the strengths may differ in their last
    /// digits with another number of threads: sums in another order).
    #[arg(long, default_value_t = 2)]
    pub(crate) threads: usize,
}

/// `learn-moves --game`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LearnGame {
    Go,
    /// Five in a row.
    Five,
}

/// One game's start and moves.
struct Record {
    setup: Vec<(Color, Point)>,
    moves: Vec<(Color, Option<Point>)>,
}

/// The records under `path`: the file itself when given by name, the
/// `.sgf` files of a folder and its subfolders.
fn collect(path: &Path, ext: &str, out: &mut Vec<PathBuf>, named: bool) -> Result<(), String> {
    if path.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            collect(&entry.path(), ext, out, false)?;
        }
    } else if named
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
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

pub(crate) fn run(args: LearnArgs) -> ExitCode {
    match learn(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi learn-moves: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The record files under the paths, sorted, then shuffled by the seed
/// (Fisher–Yates on a splitmix stream), so that the held-out games and
/// the fitted ones mix every source.
pub(crate) fn shuffled_files(args: &LearnArgs, ext: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, ext, &mut files, true)?;
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err(format!("no .{ext} file in the paths given"));
    }
    let mut state = args.seed;
    for i in (1..files.len()).rev() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let j = (katachi::seeding::splitmix(state) % (i as u64 + 1)) as usize;
        files.swap(i, j);
    }
    Ok(files)
}

/// Prints the fit's rounds, and returns the table's header: `what` (the
/// predictor and the command, its last line ending where " to N
/// positions" follows), the data and the fit, and the file that defines
/// the groups.
pub(crate) fn fit_header(
    what: &str,
    groups_file: &str,
    args: &LearnArgs,
    positions: usize,
    fitted: usize,
    size: usize,
    report: &FitReport,
) -> String {
    for (round, ll) in report.log_likelihood.iter().enumerate() {
        eprintln!("round {round}: mean log-likelihood {ll:.4}");
    }
    // A labelled position's record teaches only its last move, so it is
    // not a game sampled every so many moves.
    let sampled = if args.last_move_only {
        format!("of {fitted} {size}x{size} records, the last move of each")
    } else {
        format!(
            "of {fitted} {size}x{size} games, one position in {}",
            args.every
        )
    };
    format!(
        "{what} to {positions} positions\n\
         {sampled}, seed {}; {} rounds, mean\n\
         log-likelihood {:.4} (uniform {:.4}).\n\
         Lines: GROUP VALUE GAMMA; see {groups_file} for the groups.",
        args.seed,
        report.log_likelihood.len() - 1,
        report.log_likelihood.last().copied().unwrap_or(0.0),
        report.log_likelihood[0],
    )
}

/// Writes `text` to `output` atomically, an existing file kept as `.bak`.
pub(crate) fn write_table(output: &Path, text: &str) -> Result<(), String> {
    match std::fs::read(output) {
        Ok(original) => {
            let backup = mkpat::output::replace_with_backup(output, &original, text.as_bytes())
                .map_err(|e| e.to_string())?;
            eprintln!("kept the earlier table as {}", backup.display());
        }
        Err(_) => mkpat::output::write(output, text.as_bytes()).map_err(|e| e.to_string())?,
    }
    Ok(())
}

fn learn(args: &LearnArgs) -> Result<(), String> {
    if args.game == LearnGame::Five {
        return crate::learn_five::learn(args);
    }
    if args.last_move_only {
        return Err("--last-move-only: only for five in a row (--game five)".to_string());
    }
    let size = args.size.unwrap_or(19);
    if !(2..=19).contains(&size) {
        return Err(format!("--size {size}: the board's side is 2 to 19"));
    }
    let files = shuffled_files(args, "sgf")?;
    let mut held = Vec::new();
    let mut data = Competitions::new();
    let (mut skipped, mut wrong, mut fitted) = (0usize, 0usize, 0usize);
    let fitting = args.output.is_some();
    for path in &files {
        if held.len() >= args.holdout && (!fitting || fitted >= args.games) {
            break;
        }
        let record = match read(path, size) {
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
        match add_game(&mut data, size, &record.setup, &record.moves, |i| {
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
            Some(path) => Predictor::read_file(path)?,
            None => Predictor::builtin().clone(),
        };
        print_measure("held out", measure(&table, size, &held));
        print_measure("uniform", measure(&Predictor::uniform(), size, &held));
        return Ok(());
    };
    if data.is_empty() {
        return Err("no position to fit on".to_string());
    }
    let (predictor, report) = fit(&data, args.rounds, 1e-4, args.threads);
    let header = fit_header(
        "katachi's Go move predictor: strengths (gamma) of point features,\n\
         fitted by `katachi learn-moves` (minorization-maximization)",
        "src/go/predictor.rs",
        args,
        data.len(),
        fitted,
        size,
        &report,
    );
    write_table(output, &predictor.to_text(&header))?;
    eprintln!("wrote {} ({} strengths)", output.display(), predictor.len());
    if !held.is_empty() {
        print_measure("held out", measure(&predictor, size, &held));
        print_measure("uniform", measure(&Predictor::uniform(), size, &held));
    }
    Ok(())
}
