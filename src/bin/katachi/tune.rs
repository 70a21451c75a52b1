//! `katachi tune`: the command line of `katachi::tournament::tune`.

use std::path::PathBuf;
use std::process::ExitCode;

use katachi::tournament::runner::Game;
use katachi::tournament::tune::{score_of, tune, Factor, Objective, TuneConfig};
use katachi::tournament::Settings;

/// `katachi tune`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// The starting personality (its `game` says which engine plays).
    start: String,
    /// Where to write the tuned personality (atomically; an existing file
    /// is kept as a backup).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The factors to tune, comma-separated: engine factors by key
    /// (`tactics`), pattern factors as `classes.C`, `kinds.four`,
    /// `patterns.NAME`.
    #[arg(long, value_delimiter = ',', required = true)]
    factors: Vec<String>,
    /// SPSA iterations.
    #[arg(long, default_value_t = 20)]
    iterations: usize,
    /// Openings an iteration, each played with both colours.
    #[arg(long, default_value_t = 4)]
    openings: usize,
    /// Random moves in each opening.
    #[arg(long, default_value_t = 2)]
    opening_moves: usize,
    /// Openings of the final measurement, tuned against start and, with
    /// `--against`, start and tuned each against that player (each
    /// opening played twice; 0: no measurement).
    #[arg(long, default_value_t = 20)]
    measure_openings: usize,
    /// The engine's settings before `personality=`: Go `katachi` (the
    /// pattern engine) or `katachi:playouts=N`; five in a row, Pente and
    /// the hexagon `katachi:depth=N` (fixed work) or `katachi:ms=N`.
    #[arg(long, default_value = "katachi")]
    engine: String,
    /// The board's side.
    #[arg(long)]
    size: Option<usize>,
    /// Five in a row: the rule (default: freestyle, or pente for a
    /// `game = "pente"` file; a file is tuned only under its game's
    /// rules).
    #[arg(long, value_enum)]
    rule: Option<crate::args::RuleArg>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SPSA's step gain (log2 units for percent factors).
    #[arg(long, default_value_t = 1.0)]
    gain: f64,
    /// SPSA's perturbation (log2 units for percent factors).
    #[arg(long, default_value_t = 0.5)]
    perturbation: f64,
    /// A fixed opponent (a player as the tournament names it, without
    /// NAME=: `katachi`, `greedy`, `katachi:depth=2`) that each perturbed
    /// personality plays instead of the other.
    #[arg(long, value_name = "PLAYER")]
    against: Option<String>,
    /// Score a match by its wins or, for Go, by the mean margin on the
    /// board.
    #[arg(long, value_enum, default_value = "wins")]
    objective: ObjectiveArg,
    /// Play each match as N shards of its schedule at once, one thread
    /// each (the cores to use); the games, and so the run, are the same
    /// for any N.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    shards: u16,
    /// The folder for each iteration's tournament (default: OUTPUT's name
    /// with `.tune`).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ObjectiveArg {
    Wins,
    Margin,
}

pub(crate) fn run(a: TuneArgs) -> ExitCode {
    crate::report(tune_cli(a))
}

fn tune_cli(a: TuneArgs) -> Result<(), String> {
    let bytes = mkpat::input::read_file(std::path::Path::new(&a.start))
        .map_err(|e| format!("katachi: {}: {e}", a.start))?;
    let start = String::from_utf8(bytes).map_err(|_| format!("katachi: {}: not UTF-8", a.start))?;
    // The file must load for its engine before any game is played.
    let given: Option<katachi::five::Rule> = a.rule.map(Into::into);
    let (game, defs): (Game, &[mkpat::personality::FactorDef]) =
        match mkpat::personality::Personality::parse(&start)
            .map(|p| p.game)
            .as_deref()
        {
            // A square board's file plays the rules of its game (`five`:
            // freestyle unless told; `pente`: Pente) over that rule's
            // database; a `--rule` of the other game's makes its `game`
            // line a located error.
            Ok(g @ ("five" | "pente")) => {
                let rule = given.unwrap_or_else(|| katachi::five::personality::own_rule(g));
                let db = katachi::five::database::FiveDatabase::for_rule(rule);
                katachi::five::personality::load_rule_file(&a.start, rule, &db)?;
                (
                    Game::Five {
                        rule,
                        openings_file: None,
                    },
                    katachi::five::personality::factor_defs(),
                )
            }
            Ok("hex") => {
                katachi::five::personality::load_hex_file(&a.start)?;
                (
                    Game::Hex {
                        rule: given.unwrap_or(katachi::five::Rule::Freestyle),
                    },
                    katachi::five::personality::factor_defs(),
                )
            }
            _ => {
                let set = katachi::go::movegen::PatternSet::builtin();
                katachi::go::personality::load_file(&a.start, &set)?;
                (Game::Go, &katachi::go::personality::FACTORS)
            }
        };
    let mut factors = Vec::new();
    for f in &a.factors {
        let engine_key = match f.split_once('.') {
            Some(("engine", k)) => Some(k),
            None => Some(f.as_str()),
            _ => None,
        };
        let factor = match (f.split_once('.'), engine_key) {
            (Some((s @ ("classes" | "kinds" | "patterns"), k)), _) => Factor::pattern(s, k),
            (_, Some(k)) if defs.iter().any(|d| d.key == k) => {
                Factor::engine(defs.iter().find(|d| d.key == k).expect("found"))
            }
            _ => {
                let keys: Vec<&str> = defs.iter().map(|d| d.key).collect();
                return Err(format!(
                    "katachi: --factors: unknown factor `{f}`{}",
                    mkpat::personality::nearest(f, keys.iter().copied())
                        .map(|k| format!(" (did you mean `{k}`?)"))
                        .unwrap_or_default()
                ));
            }
        };
        factors.push(factor);
    }
    let size = a.size.unwrap_or(match game {
        Game::Go => 9,
        Game::Hex { .. } => katachi::hexagon::CONTEST_SIDE,
        Game::Five {
            rule: katachi::five::Rule::Pente,
            ..
        } => 19,
        _ => 15,
    });
    let work = a.work.clone().unwrap_or_else(|| {
        let mut w = a.output.clone().into_os_string();
        w.push(".tune");
        PathBuf::from(w)
    });
    let config = TuneConfig {
        game,
        start,
        start_name: a.start.clone(),
        factors: factors.clone(),
        engine: a.engine.clone(),
        iterations: a.iterations,
        openings: a.openings,
        opening_moves: a.opening_moves,
        measure_openings: a.measure_openings,
        settings: Settings {
            size,
            ..Settings::default()
        },
        seed: a.seed,
        a: a.gain,
        c: a.perturbation,
        reference: a.against.clone(),
        objective: match a.objective {
            ObjectiveArg::Wins => Objective::Score,
            ObjectiveArg::Margin => Objective::Margin,
        },
        shards: usize::from(a.shards),
        work: work.clone(),
    };
    let names: Vec<String> = factors
        .iter()
        .map(|f| format!("{}.{}", f.section, f.key))
        .collect();
    let outcome = tune(&config, |step, values| {
        let shown: Vec<String> = names
            .iter()
            .zip(values)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        eprintln!(
            "iteration {}: plus-minus {:+.2}, now {}",
            step.k + 1,
            step.difference,
            shown.join(" ")
        );
    })?;
    mkpat::output::write(&a.output, outcome.text.as_bytes())
        .map_err(|e| format!("katachi: {e}"))?;
    let mut out = format!("{}: tuned in {}\n", a.output.display(), work.display());
    for (n, v) in names.iter().zip(&outcome.values) {
        out += &format!("  {n} = {v}\n");
    }
    if let Some(s) = &outcome.measured {
        let tuned = s.players.iter().find(|p| p.player == "a");
        let start = s.players.iter().find(|p| p.player == "b");
        if let (Some(t), Some(b)) = (tuned, start) {
            out += &format!(
                "measured, tuned against start: {} games, score {:.1} %, W-D-L {}, Elo difference {:+.0} ± {:.0} (95 %)\n",
                s.games,
                100.0 * score_of(s, "a"),
                wdl(t),
                t.elo - b.elo,
                t.elo_margin95.hypot(b.elo_margin95)
            );
        }
    }
    if let (Some(m), Some(r)) = (&outcome.against_reference, &a.against) {
        for (what, s) in [("start", &m.start), ("tuned", &m.tuned)] {
            if let Some(p) = s.players.iter().find(|p| p.player == "a") {
                out += &format!(
                    "measured, {what} against {r}: {} games, score {:.1} %, W-D-L {}, mean margin {:+.1}\n",
                    s.games,
                    100.0 * score_of(s, "a"),
                    wdl(p),
                    p.mean_margin
                );
            }
        }
    }
    crate::emit(&out)
}

/// A player's wins, draws and losses as `W-D-L`.
fn wdl(p: &katachi::tournament::ledger::Standing) -> String {
    format!("{}-{}-{}", p.wins, p.draws, p.losses)
}
