//! `katachi`: the command-line face of the runtime matcher.
//!
//! `katachi match` prints every geometric match of a pattern database in a
//! positions file, in the conformance corpus's format, so that a `diff`
//! against GNU Go's own output proves the matcher; `--repeat` turns the
//! same scan into a throughput measurement. `katachi gtp` plays Go;
//! `katachi explain` and `katachi hits` are the seed's tuning workflow
//! ("why this move?", which patterns pull their weight) over SGF games.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use katachi::go::evaluation::EvalOptions;
use katachi::go::explain;
use katachi::go::search::SearchOptions;
use katachi::matcher::{Match, Matcher};
use katachi::positions::{parse_positions, PositionRecord};
use katachi::tuning::{Evaluator, HitCounter};
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
        /// Draw each position with the points patterns propose, and list
        /// the patterns behind each point, instead of the conformance
        /// format.
        #[arg(long, conflicts_with_all = ["repeat", "stats", "stats_out"])]
        show: bool,
        /// The positions file, or SGF games (a `.sgf` file or a folder of
        /// them) replayed position by position.
        #[arg(value_name = "POSITIONS")]
        positions: String,
    },
    /// Play Go over the Go Text Protocol (version 2) on stdin and stdout.
    Gtp {
        /// Record the game as SGF to FILE (GNU Go's `-o`), rewritten
        /// atomically after every move, with an `LB` label showing the
        /// value of every move considered.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Evaluate every pattern, no best-first pruning (GNU Go's `-a`):
        /// the SGF labels then show every pattern's value (`24/8/5`).
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// Play by the pattern database in FILE, compiled in memory
        /// (leniently; helpers katachi lacks are warnings and valued as
        /// no helper; 2.6 constraints interpreted), instead of the
        /// builtin one.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Why this move? Explain the best candidates at a move of an SGF game.
    ///
    /// Loads FILE, replays its main line up to, not including, move N
    /// (GNU Go's `-l FILE -L N`), and prints for the best K candidates of
    /// the player to move every pattern behind each (name, source line,
    /// transformation, the diagram as it lies on the board, weight, wind,
    /// bonuses, helper, class checks), the rejected reasons, and how much
    /// each candidate's value must rise to beat the chosen move.
    #[command(verbatim_doc_comment)]
    Explain {
        /// The SGF game.
        #[arg(short = 'l', long = "load", value_name = "FILE")]
        load: String,
        /// Stop before move N (moves count from 1, passes included);
        /// without it, after the last move.
        #[arg(short = 'L', long = "until", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        until: Option<u32>,
        /// Evaluate every pattern, no best-first pruning (GNU Go's `-a`).
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// How many candidates to explain.
        #[arg(long, value_name = "K", default_value_t = 5)]
        top: usize,
        /// Pattern database to compile in memory instead of the builtin one.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// Also run the search with N playouts, as `katachi gtp` does by
        /// default, and show how it spent them and which move it chose
        /// (0: the pattern evaluation alone).
        #[arg(long, value_name = "N", default_value_t = 0)]
        playouts: u32,
        /// Virtual visits of each root prior (see `gtp --prior-visits`).
        #[arg(long, value_name = "V", default_value_t = SearchOptions::default().prior_visits, value_parser = visits)]
        prior_visits: f32,
    },
    /// Count, over SGF games, how often each pattern fires and how often
    /// it is behind the move played and the move the engine would choose.
    Hits {
        /// SGF files, or folders whose `*.sgf` files are read.
        #[arg(value_name = "GAMES", required = true)]
        games: Vec<std::path::PathBuf>,
        /// Also write the counts as TSV for `mkpat html --hits FILE`.
        #[arg(long, value_name = "FILE")]
        tsv: Option<String>,
        /// Evaluate every pattern, no best-first pruning.
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// Pattern database to compile in memory instead of the builtin one.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
    },
}

/// How `katachi gtp` chooses among the pattern candidates.
#[derive(clap::Args, Debug)]
struct SearchArgs {
    /// Random games per move for the pattern-guided search: the pattern
    /// candidates are the root's moves, their values its priors, and the
    /// most played wins. 0 plays the heaviest candidate, as the seed's
    /// engine (and `katachi explain` without `--playouts`).
    #[arg(long, value_name = "N", default_value_t = SearchOptions::default().playouts)]
    playouts: u32,
    /// Virtual visits of each root prior: how many playouts a pattern
    /// value is worth against what the random games say (0: no priors,
    /// the candidates alone come from the patterns).
    #[arg(long, value_name = "V", default_value_t = SearchOptions::default().prior_visits, value_parser = visits)]
    prior_visits: f32,
    /// Playouts without the shapes of `patterns/playout.db` (captures,
    /// escapes and random moves only).
    #[arg(long)]
    no_shapes: bool,
    /// Below the root, give a node visited N times the pattern
    /// evaluation of its position as priors for its replies (0: the root
    /// only).
    #[arg(long, value_name = "N", default_value_t = SearchOptions::default().knowledge_visits)]
    knowledge_visits: u32,
    /// Open every candidate at the root from the first playout, instead
    /// of the pattern engine's best few first and one more as the visits
    /// grow (progressive widening, on boards of 13x13 and up).
    #[arg(long)]
    no_widening: bool,
}

/// A number of (virtual) visits: finite and not negative.
fn visits(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number of visits (0 or more)")),
    }
}

impl SearchArgs {
    fn options(&self) -> Option<SearchOptions> {
        (self.playouts > 0).then_some(SearchOptions {
            playouts: self.playouts,
            prior_visits: self.prior_visits,
            shapes: !self.no_shapes,
            knowledge_visits: self.knowledge_visits,
            widening: !self.no_widening,
            time_budget: None,
        })
    }
}

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

/// A pattern database for the move generator, its warnings on stderr.
fn load_patterns(path: &str) -> Result<std::sync::Arc<katachi::go::movegen::PatternSet>, String> {
    let set = read_patterns(path)?;
    for w in set.warnings() {
        eprintln!("katachi: {w}");
    }
    Ok(std::sync::Arc::new(set))
}

/// A pattern database compiled in memory, read within
/// [`katachi::input::MAX_INPUT_BYTES`].
fn read_patterns(path: &str) -> Result<katachi::go::movegen::PatternSet, String> {
    let bytes = katachi::input::read_file(std::path::Path::new(path))
        .map_err(|e| format!("katachi: {path}: {e}"))?;
    katachi::go::movegen::PatternSet::compile(path, &bytes).map_err(|e| format!("katachi: {e}"))
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

fn run_explain(
    path: &str,
    until: Option<u32>,
    all_patterns: bool,
    top: usize,
    db_path: Option<&str>,
    search: SearchOptions,
) -> Result<(), String> {
    let loaded = katachi::sgf::load_file(std::path::Path::new(path), until.map(|n| n as usize))
        .map_err(|e| format!("katachi: {e}"))?;
    let evaluator = evaluator(db_path)?;
    let game = loaded.game;
    let color = loaded.to_move;
    let eval = evaluator.evaluate(&game, color, EvalOptions { all_patterns });
    let ctx = explain::Context {
        tables: evaluator.tables(),
        db: evaluator.source(),
        color,
        top,
        all_patterns,
    };
    emit(&format!(
        "{path}: before move {} ({} of {} moves replayed)\n{}",
        loaded.moves + 1,
        loaded.moves,
        loaded.total_moves,
        explain::explain(&eval, game.goban(), &ctx)
    ))?;
    if search.playouts > 0 {
        if let Some(r) = katachi::go::search::search(&game, color, &eval, search) {
            emit(&explain::search_summary(&r, color, game.size(), top))?;
        }
    }
    Ok(())
}

/// The SGF inputs read and those that could not be, each reported on
/// stderr as it is met, so that one bad file among many does not stop a
/// run.
#[derive(Debug, Default)]
struct Failures {
    read: usize,
    failed: usize,
}

impl Failures {
    /// Reports `katachi: error: PATH: message` and counts it.
    fn report(&mut self, path: &std::path::Path, msg: &str) {
        eprintln!("katachi: error: {}: {msg}", path.display());
        self.failed += 1;
    }

    /// The run's verdict once every input was tried: an error with the
    /// count when any failed.
    fn verdict(&self) -> Result<(), String> {
        if self.failed == 0 {
            return Ok(());
        }
        Err(format!(
            "katachi: error: {} of {} SGF input(s) failed",
            self.failed,
            self.failed + self.read
        ))
    }
}

/// Is this a file name ending in `.sgf` (any case)?
fn is_sgf(p: &std::path::Path) -> bool {
    p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
}

/// The SGF files named, folders expanded to the `*.sgf` files found in
/// them and their subfolders, depth first, each folder's entries in
/// sorted order. A folder reached twice (a symbolic link back up the
/// tree) is walked once; one that cannot be read is reported and skipped.
fn sgf_files(paths: &[std::path::PathBuf], failures: &mut Failures) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut seen, &mut out, failures);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Adds the `*.sgf` files under `dir` to `out` (see [`sgf_files`]);
/// `seen` holds the real paths of the folders walked.
fn walk(
    dir: &std::path::Path,
    seen: &mut std::collections::HashSet<std::path::PathBuf>,
    out: &mut Vec<std::path::PathBuf>,
    failures: &mut Failures,
) {
    let entries = dir.canonicalize().and_then(|real| {
        let first = seen.insert(real);
        Ok((first, std::fs::read_dir(dir)?))
    });
    let mut found: Vec<std::path::PathBuf> = match entries {
        Ok((false, _)) => return,
        Ok((true, entries)) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => return failures.report(dir, &format!("cannot read the folder: {e}")),
    };
    found.sort();
    for p in found {
        if p.is_dir() {
            walk(&p, seen, out, failures);
        } else if is_sgf(&p) {
            out.push(p);
        }
    }
}

fn run_hits(
    games: &[std::path::PathBuf],
    tsv: Option<&str>,
    all_patterns: bool,
    db_path: Option<&str>,
) -> Result<(), String> {
    let evaluator = evaluator(db_path)?;
    let mut counter = HitCounter::new(evaluator.tables());
    let mut failures = Failures::default();
    for f in sgf_files(games, &mut failures) {
        let added = katachi::sgf::read_file(&f).and_then(|text| {
            counter.add_game(&text, |g, c| {
                evaluator.evaluate(g, c, EvalOptions { all_patterns })
            })
        });
        match added {
            Ok(()) => failures.read += 1,
            Err(e) => failures.report(&f, &e),
        }
    }
    if let Some(path) = tsv {
        mkpat::output::write(std::path::Path::new(path), counter.to_tsv().as_bytes())
            .map_err(|e| format!("katachi: error: {e}"))?;
    }
    emit(&format!("{} game(s)\n{}", failures.read, counter.table()))?;
    failures.verdict()
}

/// The positions to scan: a positions file, or SGF games (a `.sgf` file
/// or a folder of them) replayed position by position. A game that
/// cannot be read is reported in `failures` and skipped.
fn read_positions(path: &str, failures: &mut Failures) -> Result<Vec<PositionRecord>, String> {
    let p = std::path::Path::new(path);
    let is_game = p.is_dir() || is_sgf(p);
    if !is_game {
        let bytes = katachi::input::read_file(p).map_err(|e| format!("katachi: {path}: {e}"))?;
        return parse_positions(path, &bytes).map_err(|e| e.to_string());
    }
    let mut out = Vec::new();
    for f in sgf_files(&[p.to_path_buf()], failures) {
        match katachi::sgf::read_file(&f).and_then(|text| katachi::sgf::positions(&text)) {
            Ok(game) => {
                failures.read += 1;
                out.extend(game.into_iter().map(|(board, to_move)| PositionRecord {
                    to_move,
                    board,
                    line: 0,
                }));
            }
            Err(e) => failures.report(&f, &e),
        }
    }
    Ok(out)
}

fn run_match(
    db_path: Option<&str>,
    output: Output<'_>,
    positions_path: &str,
) -> Result<(), String> {
    let mut failures = Failures::default();
    let positions = read_positions(positions_path, &mut failures)?;
    match db_path {
        None => match_tables(katachi::go::builtin::TABLES, &positions, output)?,
        Some(path) => {
            let src = katachi::input::read_file(std::path::Path::new(path))
                .map_err(|e| format!("katachi: {path}: {e}"))?;
            let compiled = mkpat::compile(
                path,
                &src,
                &mkpat::Options {
                    lenient: true,
                    // Checked against katachi's helpers so that the ones it
                    // lacks are reported (as warnings: only geometry is
                    // matched here).
                    helpers: Some(mkpat::HelperSet {
                        functions: katachi::go::builtin::HELPERS
                            .iter()
                            .map(|(name, _)| (name.to_string(), Ok(())))
                            .collect(),
                    }),
                    ..Default::default()
                },
            );
            eprint!("{}", compiled.render());
            let errors = compiled.error_count();
            let db = compiled.database.ok_or_else(|| {
                format!("katachi: {path}: {errors} error(s): the pattern database does not compile")
            })?;
            match_tables(db.tables(), &positions, output)?;
        }
    }
    failures.verdict()
}

/// What `katachi match` prints.
#[derive(Clone, Copy, Debug)]
struct Output<'a> {
    /// Throughput over K passes instead of the matches.
    repeat: Option<u32>,
    /// `Some(out)`: hit counts instead of the matches, also written as TSV
    /// to `out` when given.
    stats: Option<Option<&'a str>>,
    /// The human listing instead of the conformance format.
    show: bool,
}

fn match_tables(
    tables: Tables<'_>,
    positions: &[PositionRecord],
    output: Output<'_>,
) -> Result<(), String> {
    let matcher = Matcher::new(tables);
    if output.show {
        let mut text = String::new();
        for (n, p) in positions.iter().enumerate() {
            let found = matcher.matches(&p.board, p.to_move);
            text += &katachi::listing::listing(tables, n, &p.board, p.to_move, &found);
            text.push('\n');
        }
        return emit(&text);
    }
    if let Some(out) = output.stats {
        let hits = katachi::stats::hit_counts(&matcher, positions);
        if let Some(path) = out {
            mkpat::output::write(std::path::Path::new(path), hits.to_tsv().as_bytes())
                .map_err(|e| format!("katachi: error: {e}"))?;
        }
        return emit(&katachi::stats::table(&hits));
    }
    if let Some(k) = output.repeat {
        let start = Instant::now();
        let mut total = 0u64;
        for _ in 0..k {
            for p in positions {
                matcher.scan(&p.board, p.to_move, |_| total += 1);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let scanned = positions.len() as f64 * f64::from(k);
        return emit(&format!(
            "{} positions x {k} passes in {secs:.3} s: {:.0} positions/s, {:.0} matches/s, {} matches per pass\n",
            positions.len(),
            scanned / secs,
            total as f64 / secs,
            total / u64::from(k)
        ));
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
    emit(&out)
}

/// Writes to standard output. A reader that went away (`| head`) ends the
/// output quietly rather than with a panic; other failures are errors.
fn emit(text: &str) -> Result<(), String> {
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
