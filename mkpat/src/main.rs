//! The `mkpat` command: the pattern compiler's tools for database authors.
//!
//! A thin shell around the library: it reads files, calls `mkpat::compile`
//! and friends, prints diagnostics and exits non-zero on failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mkpat::{codegen, html, json, output, renum, show, Compiled, Dialect, HelperSet, Options};

#[derive(Parser, Debug)]
#[command(
    name = "mkpat",
    version,
    about = "Compile, check and maintain pattern databases (GNU Go's patterns.db language)",
    long_about = "mkpat reads pattern databases written as ASCII diagrams (GNU Go 2.0's \
                  `# pattern N` dialect or GNU Go 2.6's `Pattern NAME` dialect), checks them, \
                  expands every transformation their symmetry class needs, and compiles them \
                  into the tables katachi's matcher reads.\n\n\
                  Diagnostics are printed as `file:line:col: error: ...` with the source line \
                  and a caret; every problem of a file is reported in one run. The exit status \
                  is 1 when any error was found.",
    after_help = "Examples:\n  mkpat check patterns/patterns.db\n  mkpat show patterns/patterns.db 12\n  mkpat renum patterns/patterns.db\n  mkpat compile patterns/patterns.db -o /tmp/patterns.rs\n  mkpat json patterns/patterns.db -o patterns.json\n  mkpat html patterns/patterns.db -o /tmp/catalogue"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Debug, Clone)]
struct Read {
    /// Force the dialect instead of reading it from a `dialect:` line or
    /// detecting it from the first header.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Read a foreign database for its geometry: wrong symmetry classes and
    /// unknown helpers become warnings.
    #[arg(long)]
    lenient: bool,
    /// The helpers module (Rust source) whose functions the database may
    /// name. Default: `src/helpers.rs`, or else the one `src/GAME/helpers.rs`
    /// (katachi's is `src/go/helpers.rs`), beside the database's folder,
    /// then in the current folder; unchecked (with a note) when there is
    /// none, an error when several games have one.
    #[arg(long, value_name = "FILE")]
    helpers: Option<PathBuf>,
    /// Do not check helper names.
    #[arg(long, conflicts_with = "helpers")]
    no_helpers: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum DialectArg {
    /// `# pattern N` headers (GNU Go 2.0, the seed).
    Seed,
    /// `Pattern NAME` headers, assistance, constraints (GNU Go 2.6).
    #[value(name = "gnugo-2.6")]
    Gnugo26,
    /// katachi's five in a row: threat kinds, values for each side, line
    /// patterns (`dialect: five`).
    Five,
    /// `Pattern NAME` headers, `:SYMMETRY,CLASSES,value(N)…` lines,
    /// constraints and actions (GNU Go 3.x).
    #[value(name = "gnugo-3.8")]
    Gnugo38,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check databases and report every problem (exit 1 on any error).
    Check {
        #[command(flatten)]
        read: Read,
        /// Treat warnings as errors.
        #[arg(long)]
        deny_warnings: bool,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the Rust module that build.rs would generate for a database.
    Compile {
        #[command(flatten)]
        read: Read,
        file: PathBuf,
        /// The engine module the tables name: its `helpers` (the HELPERS
        /// registry, when helper names are checked), `position::HelperFn`
        /// and `constraint`. Default: from the helpers file's place,
        /// `crate::GAME` for `src/GAME/helpers.rs` (katachi's `crate::go`),
        /// else `crate`.
        #[arg(long, value_name = "PATH")]
        engine_module: Option<String>,
        /// Write the module here instead of standard output.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Draw one pattern in every transformation it is tried in, with masks.
    Show {
        #[command(flatten)]
        read: Read,
        file: PathBuf,
        /// The pattern's number or name.
        pattern: String,
    },
    /// Renumber `# pattern N` headers 1, 2, 3… in file order (GNU Go's
    /// `make renum`). The old file is kept as FILE.bak, or FILE.bak.1,
    /// FILE.bak.2… when that exists (a backup is never overwritten); the
    /// new one is written atomically. A symbolic link is kept: the file it
    /// leads to is renumbered, and backed up in that file's folder.
    Renum { file: PathBuf },
    /// Print counts that describe a database.
    Stats {
        #[command(flatten)]
        read: Read,
        file: PathBuf,
    },
    /// Write the compiled database as JSON (schema: docs/json.md): every
    /// pattern with its diagram, attributes and transformations with masks.
    Json {
        #[command(flatten)]
        read: Read,
        file: PathBuf,
        /// Write the JSON here instead of standard output.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Write this personality instead (TOML, checked against the
        /// database): its factors and every pattern's weight under it.
        #[arg(long, value_name = "FILE")]
        personality: Option<PathBuf>,
    },
    /// Write a static HTML catalogue of a database into a folder: every
    /// pattern drawn as a board, filters, a page per pattern with its
    /// transformations and masks. Open DIR/index.html in a browser; it works
    /// from file:// and loads nothing from the network.
    Html {
        #[command(flatten)]
        read: Read,
        /// A pattern database, or a JSON file written by `mkpat json`.
        file: PathBuf,
        /// The folder to write (created if missing; its index.html,
        /// style.css, app.js and data.js are replaced).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Hit counts to show, as written by `katachi match --stats-out`.
        #[arg(long, value_name = "FILE")]
        hits: Option<PathBuf>,
        /// Personalities (TOML, checked against the database) whose
        /// weights the catalogue shows beside the database's, one column
        /// each, stepped with "next player" and "prior player" (the
        /// database must be a `.db`, not JSON).
        #[arg(long, value_name = "FILE", num_args = 1..)]
        personality: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("mkpat: error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    mkpat::input::read_file(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// What a `src` folder holds in the way of helpers modules.
enum HelpersIn {
    None,
    One(PathBuf),
    /// Several games' modules and no `src/helpers.rs`: ambiguous.
    Several(Vec<PathBuf>),
}

/// The helpers module of a `src` folder: `src/helpers.rs`, else the one
/// `src/GAME/helpers.rs` (an engine's, such as `src/go/helpers.rs`).
fn helpers_in(src: &Path) -> HelpersIn {
    let top = src.join("helpers.rs");
    if top.is_file() {
        return HelpersIn::One(top);
    }
    let mut games: Vec<PathBuf> = std::fs::read_dir(src)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("helpers.rs"))
        .filter(|p| p.is_file())
        .collect();
    games.sort();
    match games.len() {
        0 => HelpersIn::None,
        1 => HelpersIn::One(games.remove(0)),
        _ => HelpersIn::Several(games),
    }
}

/// The engine module of a helpers file at `src/GAME/helpers.rs`
/// (`crate::GAME`), or `crate`.
fn engine_module(helpers: Option<&Path>) -> String {
    let game = helpers.and_then(Path::parent).filter(|d| {
        d.parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "src")
    });
    match game.and_then(Path::file_name) {
        Some(g) => format!("crate::{}", g.to_string_lossy()),
        None => "crate".into(),
    }
}

fn options(read: &Read, db_path: &Path) -> Result<Options, String> {
    options_and_helpers(read, db_path).map(|(o, _)| o)
}

/// [`options`], and the helpers file they were read from.
fn options_and_helpers(read: &Read, db_path: &Path) -> Result<(Options, Option<PathBuf>), String> {
    let helpers_path = if read.no_helpers {
        None
    } else if let Some(h) = &read.helpers {
        Some(h.clone())
    } else {
        // Beside the database's folder (a katachi checkout's
        // `patterns/x.db`), then in the current folder's `src/`.
        let dirs = db_path
            .parent()
            .map(|d| d.join("..").join("src"))
            .into_iter()
            .chain([PathBuf::from("src")]);
        let mut found = None;
        for dir in dirs {
            match helpers_in(&dir) {
                HelpersIn::One(p) => {
                    found = Some(p);
                    break;
                }
                HelpersIn::Several(all) => {
                    let all: Vec<String> = all.iter().map(|p| p.display().to_string()).collect();
                    return Err(format!(
                        "{}: which helpers module? {} (name one with --helpers FILE)",
                        db_path.display(),
                        all.join(", ")
                    ));
                }
                HelpersIn::None => {}
            }
        }
        if found.is_none() {
            eprintln!(
                "mkpat: note: helper names are not checked: no src/helpers.rs or src/GAME/helpers.rs beside {} or here (--helpers FILE names one)",
                db_path.display()
            );
        }
        found
    };
    let helpers = match &helpers_path {
        Some(p) => {
            let src = String::from_utf8_lossy(&read_file(p)?).into_owned();
            Some(HelperSet::from_source(&src).map_err(|e| {
                format!("{}:{e}: the helpers module is not valid Rust", p.display())
            })?)
        }
        None => None,
    };
    let opts = Options {
        dialect: read.dialect.map(|d| match d {
            DialectArg::Seed => Dialect::Seed,
            DialectArg::Gnugo26 => Dialect::GnuGo26,
            DialectArg::Five => Dialect::Five,
            DialectArg::Gnugo38 => Dialect::GnuGo38,
        }),
        lenient: read.lenient,
        helpers,
    };
    Ok((opts, helpers_path))
}

fn compile(read: &Read, path: &Path) -> Result<Compiled, String> {
    let bytes = read_file(path)?;
    let opts = options(read, path)?;
    Ok(mkpat::compile(&path.display().to_string(), &bytes, &opts))
}

/// Prints diagnostics; fails when there was an error.
fn report(c: &Compiled) -> Result<(), String> {
    eprint!("{}", c.render());
    if c.is_ok() {
        Ok(())
    } else {
        Err(format!(
            "{}: {} error(s), {} warning(s)",
            c.source.name,
            c.error_count(),
            c.warning_count()
        ))
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check {
            read,
            deny_warnings,
            files,
        } => {
            let mut failed = false;
            for f in &files {
                let c = compile(&read, f)?;
                eprint!("{}", c.render());
                let (e, w) = (c.error_count(), c.warning_count());
                let n = c.checked.len();
                println!(
                    "{}: {} dialect, {n} patterns checked, {e} error(s), {w} warning(s)",
                    f.display(),
                    c.dialect.name()
                );
                if e > 0 || (deny_warnings && w > 0) {
                    failed = true;
                }
            }
            Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Compile {
            read,
            file,
            engine_module: module,
            output,
        } => {
            let bytes = read_file(&file)?;
            let (opts, helpers_file) = options_and_helpers(&read, &file)?;
            let helpers = opts.helpers.clone();
            let input = file.display().to_string();
            let c = mkpat::compile(&input, &bytes, &opts);
            report(&c)?;
            let db = c.database.as_ref().expect("no error");
            let module = module.unwrap_or_else(|| engine_module(helpers_file.as_deref()));
            let engine = codegen::EnginePaths::of(&module);
            let code = codegen::generate(
                db,
                &c.checked,
                &engine.options(&input, c.dialect.name(), helpers.as_ref()),
            );
            match output {
                Some(o) => output::write(&o, code.as_bytes()).map_err(|e| e.to_string())?,
                None => {
                    let _ = std::io::stdout().write_all(code.as_bytes());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show {
            read,
            file,
            pattern,
        } => {
            let c = compile(&read, &file)?;
            report(&c)?;
            let db = c.database.as_ref().expect("no error");
            match show::show(db, &c.checked, &pattern) {
                Some(s) => {
                    print!("{s}");
                    Ok(ExitCode::SUCCESS)
                }
                None => Err(format!(
                    "{}: {}",
                    file.display(),
                    show::not_found(db, &pattern)
                )),
            }
        }
        Command::Renum { file } => {
            let bytes = read_file(&file)?;
            let text = String::from_utf8(bytes).map_err(|_| {
                format!(
                    "{}: not UTF-8; `mkpat check` locates the bad bytes; file untouched",
                    file.display()
                )
            })?;
            match renum::renumber(&text) {
                Ok(r) => {
                    if r.changed == 0 {
                        println!("{}: {} patterns, already numbered 1..{}; file untouched", file.display(), r.total, r.total);
                        return Ok(ExitCode::SUCCESS);
                    }
                    let bak = output::replace_with_backup(&file, text.as_bytes(), r.text.as_bytes())
                        .map_err(|e| e.to_string())?;
                    println!(
                        "{}: renumbered {} of {} patterns 1..{}; the old file is {}",
                        file.display(),
                        r.changed,
                        r.total,
                        r.total,
                        bak.display()
                    );
                    renum_personalities(&file, &r)

                }
                // Named patterns keep their names, and so the personalities
                // beside the database (their names and fingerprint) stay
                // right: nothing to rewrite.
                Err(renum::RenumError::NotNumbered(dialect)) => Err(format!(
                    "{}: patterns of the `{}` dialect are named, not numbered (the personalities beside it keep naming them); file untouched",
                    file.display(),
                    dialect.name()
                )),
                Err(renum::RenumError::Parse(diags)) => {
                    let src = mkpat::SourceFile::new(file.display().to_string(), text);
                    eprint!("{}", src.render_all(&diags));
                    Err(format!(
                        "{}: does not parse ({} error(s)); file untouched",
                        file.display(),
                        diags.len()
                    ))
                }
            }
        }
        Command::Stats { read, file } => {
            let c = compile(&read, &file)?;
            report(&c)?;
            print!("{}", show::stats(c.database.as_ref().expect("no error")));
            print!("{}", show::constraint38_stats(&c.checked));
            Ok(ExitCode::SUCCESS)
        }
        Command::Json {
            read,
            file,
            output,
            personality,
        } => {
            let c = compile(&read, &file)?;
            report(&c)?;
            let text = match personality {
                None => json::export_compiled(&c).expect("no error").to_json(),
                Some(path) => {
                    let db = c.database.as_ref().expect("no error");
                    let p = read_personality(&path, db)?;
                    mkpat::personality::json::export(
                        &p,
                        &path.display().to_string(),
                        &file.display().to_string(),
                        db.dialect,
                        &db.patterns,
                    )
                    .to_json()
                }
            };
            match output {
                Some(o) => output::write(&o, text.as_bytes()).map_err(|e| e.to_string())?,
                None => {
                    let _ = std::io::stdout().write_all(text.as_bytes());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Html {
            read,
            file,
            output,
            hits,
            personality,
        } => {
            let mut personalities = Vec::new();
            let db = if file.extension().is_some_and(|e| e == "json") {
                if !personality.is_empty() {
                    return Err(format!(
                        "{}: --personality needs the database itself (a .db), not its JSON",
                        file.display()
                    ));
                }
                let text = String::from_utf8_lossy(&read_file(&file)?).into_owned();
                json::JsonDatabase::from_json(&text)
                    .map_err(|e| format!("{}: not a `mkpat json` file: {e}", file.display()))?
            } else {
                let c = compile(&read, &file)?;
                report(&c)?;
                let tables = c.database.as_ref().expect("no error");
                let mut failed = 0;
                for path in &personality {
                    match read_personality(path, tables) {
                        Ok(p) => personalities.push(mkpat::personality::json::export(
                            &p,
                            &path.display().to_string(),
                            &file.display().to_string(),
                            tables.dialect,
                            &tables.patterns,
                        )),
                        Err(e) => {
                            eprintln!("{e}");
                            failed += 1;
                        }
                    }
                }
                if failed > 0 {
                    return Err(format!("{failed} personality file(s) rejected"));
                }
                json::export_compiled(&c).expect("no error")
            };
            let hits = match hits {
                Some(h) => {
                    let text = String::from_utf8_lossy(&read_file(&h)?).into_owned();
                    let parsed = mkpat::hits::Hits::parse_tsv(&text)
                        .map_err(|e| format!("{}:{e}", h.display()))?;
                    let unknown = html::unknown_hit_names(&db, &parsed);
                    if !unknown.is_empty() {
                        eprintln!(
                            "mkpat: warning: {}: {} pattern name(s) not in {}: {}",
                            h.display(),
                            unknown.len(),
                            file.display(),
                            unknown
                                .iter()
                                .take(5)
                                .copied()
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                    }
                    Some(parsed)
                }
                None => None,
            };
            std::fs::create_dir_all(&output)
                .map_err(|e| format!("cannot create {}: {e}", output.display()))?;
            for f in html::site_with(&db, hits.as_ref(), &personalities) {
                let path = output.join(f.path);
                output::write(&path, f.text.as_bytes()).map_err(|e| e.to_string())?;
            }
            println!(
                "{}: {} patterns; open {}",
                file.display(),
                db.patterns.len(),
                output.join("index.html").display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The personality files beside a renumbered database (`*.toml` in its
/// folder and in its `personalities/` subfolder) that were written for it
/// (the old fingerprint): their pattern names follow the new numbers and
/// their fingerprint the new database, each written atomically with a
/// backup. Files for other databases are left alone; a file that cannot
/// be read or rewritten is an error (the database is renumbered already).
fn renum_personalities(db: &Path, r: &renum::Renumbered) -> Result<ExitCode, String> {
    let dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut files: Vec<PathBuf> = Vec::new();
    for d in [dir.to_path_buf(), dir.join("personalities")] {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "toml") && p.is_file() {
                files.push(p);
            }
        }
    }
    files.sort();
    let (old, new) = &r.fingerprints;
    let mut failed = 0;
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let Ok(p) = mkpat::personality::Personality::parse(&text) else {
            // Not a personality, or a broken one: not ours to touch.
            continue;
        };
        if &p.fingerprint != old {
            continue;
        }
        match mkpat::personality::rename_patterns(&text, &r.renames, new) {
            Ok(updated) => {
                let bak = output::replace_with_backup(&f, text.as_bytes(), updated.as_bytes())
                    .map_err(|e| e.to_string())?;
                println!(
                    "{}: personality updated to the new numbers; the old file is {}",
                    f.display(),
                    bak.display()
                );
            }
            Err(e) => {
                eprintln!("mkpat: error: {}: not updated: {e}", f.display());
                failed += 1;
            }
        }
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A personality file checked against a compiled database's patterns;
/// every error rendered.
fn read_personality(
    path: &Path,
    db: &mkpat::Database,
) -> Result<mkpat::personality::Personality, String> {
    let bytes = read_file(path)?;
    mkpat::personality::json::read_for_database(
        &path.display().to_string(),
        &bytes,
        db.dialect,
        &db.patterns,
    )
    .map_err(|r| format!("{}{}: {} error(s)", r.rendered, path.display(), r.errors))
}
