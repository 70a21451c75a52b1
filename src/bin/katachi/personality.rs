//! `katachi personality new|check|show|diff`: personality files for the
//! Go and five-in-a-row engines, the latter on the square board (`five`),
//! under Pente (`pente`, its own database) and on the hexagon (`hex`)
//! (`mkpat::personality` reads them; each engine's `personality` module
//! has its factor table).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use katachi::five::database::FiveDatabase;
use katachi::go::movegen::PatternSet;
use mkpat::geometry::Hexagon;
use mkpat::personality::{FactorDef, Personality};

/// `katachi personality`'s subcommands.
#[derive(clap::Args, Debug)]
pub(crate) struct PersonalityArgs {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Write a new personality listing every factor at its default, each
    /// with its one-line definition.
    New {
        /// The engine: go, five (the square board), pente (five in a
        /// row's engine under Pente, over patterns/pente.db) or hex (five
        /// in a row's engine on the hexagon, over patterns/hexfive.db).
        #[arg(value_enum)]
        game: GameArg,
        /// The personality's name.
        #[arg(long, default_value = "new")]
        name: String,
        /// One line saying what the personality plays like.
        #[arg(long, default_value = "")]
        description: String,
        /// The database it re-weighs (default: the game's builtin one).
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// Write here (atomically; an existing file is kept as a backup)
        /// instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check personality files against their engine and database: every
    /// error located (`file:line:col`), exit 1 when any.
    Check {
        #[arg(required = true)]
        files: Vec<String>,
        /// The database they re-weigh (default: each file's game's builtin
        /// one).
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
    },
    /// Every factor of a personality: its value, its default, its
    /// definition (`*` where it differs from the default), and how many
    /// patterns each pattern factor re-weighs.
    Show {
        file: String,
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
    },
    /// The factors two personalities set differently and, over a
    /// positions file, the moves that change (Go: the pattern engine's
    /// move, no search; five in a row: the engine at --depth under --rule;
    /// Pente: the engine at --depth under Pente, no pair taken yet).
    Diff {
        a: String,
        b: String,
        /// Positions (the format of `katachi match`: `to_move X`, the
        /// size, the rows) whose moves are compared.
        #[arg(long, value_name = "FILE")]
        positions: Option<String>,
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// Five in a row: the rule the positions are played under
        /// (default: freestyle for `five` files, pente for `pente` files;
        /// a file is compared only under its game's rules).
        #[arg(long, value_enum)]
        rule: Option<crate::args::RuleArg>,
        /// Five in a row: the search depth.
        #[arg(long, default_value_t = 4)]
        depth: u32,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GameArg {
    Go,
    Five,
    Pente,
    Hex,
}

/// A personality loaded for its engine (read from its `game`).
enum Loaded {
    Go(katachi::go::personality::Loaded, Arc<PatternSet>),
    /// A square board's: `five` or `pente` (which database it re-weighs
    /// is `db`'s business, which rules it plays its `game`'s).
    Five(katachi::five::personality::Loaded, Arc<FiveDatabase>),
    Hex(
        katachi::five::personality::Loaded<Hexagon>,
        Arc<FiveDatabase<Hexagon>>,
    ),
}

impl Loaded {
    fn personality(&self) -> &Personality {
        match self {
            Loaded::Go(l, _) => &l.personality,
            Loaded::Five(l, _) => &l.personality,
            Loaded::Hex(l, _) => &l.personality,
        }
    }

    fn defs(&self) -> &'static [FactorDef] {
        match self {
            Loaded::Go(..) => &katachi::go::personality::FACTORS,
            Loaded::Five(..) | Loaded::Hex(..) => katachi::five::personality::factor_defs(),
        }
    }

    /// The database's patterns and their default and re-weighed overlays.
    fn pattern_counts(&self, section: &str, key: &str) -> usize {
        use mkpat::overlay::Selector;
        let (patterns, overlay) = match self {
            Loaded::Go(_, set) => (set.tables().patterns, set.overlay().clone()),
            Loaded::Five(_, db) => (db.matcher().tables().patterns, db.overlay().clone()),
            Loaded::Hex(_, db) => (db.matcher().tables().patterns, db.overlay().clone()),
        };
        let selector = match section {
            "patterns" => Selector::Name(key.to_string()),
            "classes" => match key.chars().next().and_then(mkpat::tables::class::from_char) {
                Some(b) => Selector::Class(b),
                None => return 0,
            },
            _ => match mkpat::tables::Kind::from_name(key) {
                Some(k) => Selector::Kind(k),
                None => return 0,
            },
        };
        patterns
            .iter()
            .enumerate()
            .filter(|(k, p)| selector.picks(p, overlay.values(*k)))
            .count()
    }
}

/// Reads `path` for the engine its `game` names, over `db` or the
/// engine's builtin database.
fn load(path: &str, db: Option<&str>) -> Result<Loaded, String> {
    let bytes = mkpat::input::read_file(std::path::Path::new(path))
        .map_err(|e| format!("katachi: {path}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let game = Personality::parse(&text)
        .map(|p| p.game)
        .unwrap_or_default();
    match game.as_str() {
        g @ ("five" | "pente") => {
            let base = match db {
                None => FiveDatabase::for_rule(katachi::five::personality::own_rule(g)),
                Some(p) => Arc::new(FiveDatabase::load(p).map_err(|e| e.to_string())?),
            };
            let l = katachi::five::personality::load_file_for(path, g, &base)?;
            Ok(Loaded::Five(l, base))
        }
        "hex" => {
            if db.is_some() {
                return Err(format!(
                    "katachi: {path}: --db is read for the square board; the hexagon plays patterns/hexfive.db"
                ));
            }
            let l = katachi::five::personality::load_hex_file(path)?;
            Ok(Loaded::Hex(l, FiveDatabase::hexagon()))
        }
        // Go, or a file whose game the Go engine's checks will locate.
        _ => {
            let base = match db {
                None => PatternSet::builtin(),
                Some(p) => Arc::new(crate::read_patterns(p)?),
            };
            let l = katachi::go::personality::load_file(path, &base)?;
            Ok(Loaded::Go(l, base))
        }
    }
}

pub(crate) fn run(args: PersonalityArgs) -> ExitCode {
    crate::report(match args.command {
        Sub::New {
            game,
            name,
            description,
            db,
            output,
        } => new(game, &name, &description, db.as_deref(), output),
        Sub::Check { files, db } => check(&files, db.as_deref()),
        Sub::Show { file, db } => show(&file, db.as_deref()),
        Sub::Diff {
            a,
            b,
            positions,
            db,
            rule,
            depth,
        } => diff(
            &a,
            &b,
            positions.as_deref(),
            db.as_deref(),
            rule.map(Into::into),
            depth,
        ),
    })
}

fn new(
    game: GameArg,
    name: &str,
    description: &str,
    db: Option<&str>,
    output: Option<PathBuf>,
) -> Result<(), String> {
    let names = |patterns: &[mkpat::tables::Pattern]| -> Vec<String> {
        patterns.iter().map(|p| p.name.to_string()).collect()
    };
    let (gname, dialect, pnames, defs): (&str, _, Vec<String>, &[FactorDef]) = match game {
        GameArg::Go => {
            let set = match db {
                None => PatternSet::builtin(),
                Some(p) => Arc::new(crate::read_patterns(p)?),
            };
            (
                katachi::go::personality::GAME,
                set.dialect(),
                names(set.tables().patterns),
                &katachi::go::personality::FACTORS,
            )
        }
        GameArg::Hex => {
            if db.is_some() {
                return Err(
                    "katachi: --db is read for the square board; the hexagon plays patterns/hexfive.db"
                        .into(),
                );
            }
            let d = FiveDatabase::hexagon();
            (
                katachi::five::personality::HEX_GAME,
                d.overlay().dialect(),
                names(d.matcher().tables().patterns),
                katachi::five::personality::factor_defs(),
            )
        }
        GameArg::Five | GameArg::Pente => {
            let rule = if game == GameArg::Pente {
                katachi::five::Rule::Pente
            } else {
                katachi::five::Rule::Freestyle
            };
            let d = match db {
                None => FiveDatabase::for_rule(rule),
                Some(p) => Arc::new(FiveDatabase::load(p).map_err(|e| e.to_string())?),
            };
            (
                katachi::five::personality::game_for_rule(rule),
                d.overlay().dialect(),
                names(d.matcher().tables().patterns),
                katachi::five::personality::factor_defs(),
            )
        }
    };
    let fp = mkpat::personality::fingerprint(dialect, pnames.iter().map(String::as_str));
    let mut sorted = pnames.clone();
    sorted.sort();
    let text = mkpat::personality::template(
        gname,
        name,
        description,
        dialect,
        &fp,
        sorted.first().map(String::as_str),
        defs,
    );
    match output {
        None => crate::emit(&text),
        Some(path) => {
            mkpat::output::write(&path, text.as_bytes()).map_err(|e| format!("katachi: {e}"))
        }
    }
}

fn check(files: &[String], db: Option<&str>) -> Result<(), String> {
    let mut failed = 0;
    for f in files {
        match load(f, db) {
            Ok(l) => println!("{f}: ok ({})", l.personality().name),
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        Err(format!(
            "katachi: {failed} of {} file(s) rejected",
            files.len()
        ))
    } else {
        Ok(())
    }
}

fn show(file: &str, db: Option<&str>) -> Result<(), String> {
    let l = load(file, db)?;
    let p = l.personality();
    let mut out = format!(
        "{}: {}\n{}\ngame {}, database {}\n\nengine factors (value, default, definition; * where not the default):\n",
        file, p.name, p.description, p.game, p.fingerprint
    );
    for d in l.defs() {
        let v = p.engine_value(l.defs(), d.key);
        out += &format!(
            "{} {:<22} {:>6} {:>6}  {}\n",
            if v == d.default { ' ' } else { '*' },
            d.key,
            v,
            d.default,
            d.definition
        );
    }
    out += "\npattern factors (percent of the database's weight; patterns re-weighed):\n";
    let mut any = false;
    for (section, s) in p.pattern_factors() {
        any = true;
        out += &format!(
            "{} {:<22} {:>6}  {} pattern(s)\n",
            if s.value == 100 { ' ' } else { '*' },
            format!("{section}.{}", s.key),
            s.value,
            l.pattern_counts(section, &s.key)
        );
    }
    if !any {
        out += "  (none: the database's own weights)\n";
    }
    crate::emit(&out)
}

fn diff(
    a: &str,
    b: &str,
    positions: Option<&str>,
    db: Option<&str>,
    rule: Option<katachi::five::Rule>,
    depth: u32,
) -> Result<(), String> {
    let (la, lb) = (load(a, db)?, load(b, db)?);
    let (pa, pb) = (la.personality(), lb.personality());
    if pa.game != pb.game {
        return Err(format!(
            "katachi: {a} is for {}, {b} for {}: nothing to compare",
            pa.game, pb.game
        ));
    }
    let mut out = format!("factors that differ ({} | {}):\n", pa.name, pb.name);
    let mut differ = 0;
    for d in la.defs() {
        let (x, y) = (
            pa.engine_value(la.defs(), d.key),
            pb.engine_value(la.defs(), d.key),
        );
        if x != y {
            differ += 1;
            out += &format!(
                "  engine.{:<22} {:>6} | {:<6}  {}\n",
                d.key, x, y, d.definition
            );
        }
    }
    let mut keys: Vec<(&str, &str)> = pa
        .pattern_factors()
        .chain(pb.pattern_factors())
        .map(|(s, f)| (s, f.key.as_str()))
        .collect();
    keys.sort();
    keys.dedup();
    let value = |p: &Personality, section: &str, key: &str| {
        p.pattern_factors()
            .find(|(s, f)| *s == section && f.key == key)
            .map_or(100, |(_, f)| f.value)
    };
    for (section, key) in keys {
        let (x, y) = (value(pa, section, key), value(pb, section, key));
        if x != y {
            differ += 1;
            out += &format!("  {:<29} {:>6} | {:<6}\n", format!("{section}.{key}"), x, y);
        }
    }
    if differ == 0 {
        out += "  none\n";
    }
    if let Some(path) = positions {
        let bytes = mkpat::input::read_file(std::path::Path::new(path))
            .map_err(|e| format!("katachi: {path}: {e}"))?;
        let records =
            katachi::positions::parse_positions(path, &bytes).map_err(|e| e.to_string())?;
        let (ma, mb): (Vec<String>, Vec<String>) = match (&la, &lb) {
            (Loaded::Go(x, _), Loaded::Go(y, _)) => {
                let show =
                    |m: &katachi::go::Move, n: usize| katachi::go::notation::format_move(*m, n);
                let xs = katachi::go::personality::moves_over(&x.patterns, &records);
                let ys = katachi::go::personality::moves_over(&y.patterns, &records);
                records
                    .iter()
                    .zip(xs.iter().zip(&ys))
                    .map(|(r, (m, n))| (show(m, r.board.size()), show(n, r.board.size())))
                    .unzip()
            }
            (Loaded::Five(x, _), Loaded::Five(y, _)) => {
                let rule = rule_of(&pa.game, rule)?;
                let show = |m: &Option<katachi::Point>, n: usize| {
                    m.map_or("-".to_string(), |p| katachi::notation::vertex(p, n))
                };
                let xs = katachi::five::personality::moves_over(&x.database, &records, rule, depth);
                let ys = katachi::five::personality::moves_over(&y.database, &records, rule, depth);
                records
                    .iter()
                    .zip(xs.iter().zip(&ys))
                    .map(|(r, (m, n))| (show(m, r.board.size()), show(n, r.board.size())))
                    .unzip()
            }
            (Loaded::Hex(..), _) => {
                return Err(format!(
                "katachi: --positions: positions files are square boards; {a} is for the hexagon"
            ))
            }
            _ => unreachable!("same game"),
        };
        let changed: Vec<usize> = (0..records.len()).filter(|&k| ma[k] != mb[k]).collect();
        out += &format!(
            "\nmoves that change: {} of {} positions of {path}\n",
            changed.len(),
            records.len()
        );
        for k in changed {
            out += &format!(
                "  position {k} (line {}): {} | {}\n",
                records[k].line, ma[k], mb[k]
            );
        }
    }
    crate::emit(&out)
}

/// The rule a square board's personalities of `game` are compared
/// under: `--rule` if it is one of the game's, else the game's own
/// (freestyle for `five`, pente for `pente`).
fn rule_of(game: &str, rule: Option<katachi::five::Rule>) -> Result<katachi::five::Rule, String> {
    use katachi::five::personality::{game_for_rule, own_rule};
    use katachi::five::Rule;
    let own = own_rule(game);
    match rule {
        None => Ok(own),
        Some(r) if game_for_rule(r) == game => Ok(r),
        Some(r) => Err(format!(
            "katachi: --rule {}: these personalities are for `{game}`, whose games are played under {}",
            format!("{r:?}").to_lowercase(),
            if own == Rule::Pente {
                "pente"
            } else {
                "freestyle, exact or renju"
            }
        )),
    }
}
