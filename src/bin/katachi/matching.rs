//! `katachi match`: every geometric match of a database over a positions
//! file or SGF games, as the conformance format, a listing, hit counts or
//! a throughput figure.

use std::time::Instant;

use katachi::matcher::{Match, Matcher};
use katachi::positions::{parse_positions, PositionRecord};
use mkpat::tables::Tables;

use crate::emit;
use crate::games::{is_sgf, sgf_files, Failures};

/// The positions to scan: a positions file, or SGF games (a `.sgf` file
/// or a folder of them) replayed position by position. A game that
/// cannot be read is reported in `failures` and skipped.
pub(crate) fn read_positions(
    path: &str,
    failures: &mut Failures,
) -> Result<Vec<PositionRecord>, String> {
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

pub(crate) fn run_match(
    db_paths: &[String],
    output: Output<'_>,
    positions_path: &str,
) -> Result<(), String> {
    let mut failures = Failures::default();
    let positions = read_positions(positions_path, &mut failures)?;
    if db_paths.is_empty() {
        match_tables(katachi::go::builtin::TABLES, &positions, output)?;
    } else {
        let db = compile_for_matching(db_paths)?;
        match_tables(db.tables(), &positions, output)?;
    }
    failures.verdict()
}

/// The files of `--db` compiled into one square table, in any dialect
/// (only geometry is matched here), with the options of every other
/// `--db`: leniently, helpers named against katachi's Go helpers. The
/// compiler's warnings go to stderr; an error ends the command.
fn compile_for_matching(paths: &[String]) -> Result<mkpat::Database, String> {
    let mut files = Vec::new();
    for p in paths {
        let bytes = katachi::loading::read(p).map_err(|e| format!("katachi: {}", e.message))?;
        files.push((p.as_str(), bytes));
    }
    let options = mkpat::Options {
        lenient: true,
        helpers: Some(mkpat::HelperSet {
            functions: katachi::go::builtin::HELPERS
                .iter()
                .map(|(name, _)| (name.to_string(), Ok(())))
                .collect(),
        }),
        ..Default::default()
    };
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    let set = mkpat::compile_many(&refs, &options);
    eprint!("{}", set.render());
    let errors = set.error_count();
    let Some(db) = set.database else {
        return Err(format!(
            "katachi: {}: {errors} error(s): the pattern database does not compile",
            paths.join(" + ")
        ));
    };
    if let Err(e) = db.tables_as::<mkpat::geometry::Square>() {
        return Err(format!(
            "katachi: {}: {e}: matching reads square positions",
            paths.join(" + ")
        ));
    }
    Ok(db)
}

/// What `katachi match` prints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output<'a> {
    /// Throughput over K passes instead of the matches.
    pub(crate) repeat: Option<u32>,
    /// `Some(out)`: hit counts instead of the matches, also written as TSV
    /// to `out` when given.
    pub(crate) stats: Option<Option<&'a str>>,
    /// The human listing instead of the conformance format.
    pub(crate) show: bool,
}

pub(crate) fn match_tables(
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
                matcher.scan_unordered(&p.board, p.to_move, |_| total += 1);
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
    let text = katachi::listing::conformance_lines(tables, positions.len(), |n| {
        let p = &positions[n];
        let mut found: Vec<Match> = Vec::new();
        matcher.scan_unordered(&p.board, p.to_move, |m| found.push(m));
        found
    });
    emit(&text)
}
