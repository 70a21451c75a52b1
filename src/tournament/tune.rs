//! `katachi tune`: a personality's factors improved by self-play. SPSA
//! ([`super::spsa`]) perturbs the chosen factors both ways; the two
//! personalities play a small match through the tournament runner
//! ([`super::runner`], a folder per iteration; with `shards` > 1 each
//! match is played as that many shards of its schedule at once, one
//! thread each, and their ledgers merged — the same games, so the same
//! run, on more cores); the
//! score moves the factors. The result is written as a personality file
//! (the start's text with the tuned values), then measured against the
//! start in a fresh tournament with error bars and, when there is a
//! reference opponent, start and tuned each against the reference on
//! the same openings (how near the tuned file came back to the
//! reference's strength).
//!
//! What the perturbed pair is measured by: their games against each
//! other (self-play, the default), or each one's games against a fixed
//! reference opponent (`reference`, any tournament player: the gradient
//! is then of strength against that opponent, which a pair that only
//! mirrors each other cannot show). The score is wins (and half the
//! draws) or, for Go, the mean margin on the board, a finer signal than
//! wins where games are close.
//!
//! Percent factors with a positive default are tuned in log2 space (a
//! step doubles or halves), the others in units of 100; values are
//! rounded to whole numbers for the files the games read.

use std::path::{Path, PathBuf};

use super::ledger::Standings;
use super::ratings::Fit;
use super::runner::{self, Config, Game, PlayerSpec};
use super::schedule::{Format, Shard};
use super::spsa::{Param, Spsa, Step};
use super::Settings;
use mkpat::personality::{set_factors, FactorDef, Personality};

/// One factor to tune: its section (`engine`, `classes`, `kinds`,
/// `patterns`), key, bounds and default.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    pub section: String,
    pub key: String,
    pub min: i64,
    pub max: i64,
    pub default: i64,
}

impl Factor {
    /// The engine factor `def`.
    pub fn engine(def: &FactorDef) -> Factor {
        Factor {
            section: "engine".into(),
            key: def.key.into(),
            min: def.min,
            max: def.max,
            default: def.default,
        }
    }

    /// A pattern factor (`classes.C`, `kinds.four`, `patterns.NAME`).
    pub fn pattern(section: &str, key: &str) -> Factor {
        Factor {
            section: section.into(),
            key: key.into(),
            min: 0,
            max: mkpat::personality::PATTERN_FACTOR_MAX,
            default: 100,
        }
    }

    fn log(&self) -> bool {
        self.default > 0
    }

    fn theta_of(&self, v: i64) -> f64 {
        if self.log() {
            (v.max(1) as f64 / self.default as f64).log2()
        } else {
            v as f64 / 100.0
        }
    }

    fn value_of_theta(&self, t: f64) -> i64 {
        let v = if self.log() {
            self.default as f64 * t.exp2()
        } else {
            t * 100.0
        };
        (v.round() as i64).clamp(self.min, self.max)
    }

    /// The factor's value in a personality.
    pub fn value_in(&self, p: &Personality) -> i64 {
        let list = match self.section.as_str() {
            "engine" => &p.engine,
            "classes" => &p.classes,
            "kinds" => &p.kinds,
            _ => &p.patterns,
        };
        list.iter()
            .find(|s| s.key == self.key)
            .map_or(self.default, |s| s.value)
    }
}

/// Everything a tuning run is made of.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub game: Game,
    /// The starting personality's text and where it came from.
    pub start: String,
    pub start_name: String,
    pub factors: Vec<Factor>,
    /// The player spec before `personality=`: `katachi`,
    /// `katachi:playouts=N` (Go), `katachi:ms=N` (five in a row).
    pub engine: String,
    pub iterations: usize,
    /// Openings a side an iteration (each played with both colours).
    pub openings: usize,
    pub opening_moves: usize,
    /// Openings of the final measurement (each played twice).
    pub measure_openings: usize,
    pub settings: Settings,
    pub seed: u64,
    /// SPSA's gains (in log2 units for percent factors).
    pub a: f64,
    pub c: f64,
    /// A fixed opponent (a tournament player spec without its name, e.g.
    /// `katachi` or `greedy`) each perturbed personality plays instead of
    /// the other; `None`: they play each other.
    pub reference: Option<String>,
    /// What a match is scored by.
    pub objective: Objective,
    /// Each match is played as this many shards of its schedule, at once
    /// (1: in one run). A game is a function of its place in the
    /// schedule, so the outcome does not depend on it.
    pub shards: usize,
    /// The folder for the iterations' tournaments and personalities.
    pub work: PathBuf,
}

/// What a match between the tuned player and its opponent is worth to
/// the tuner, in −1..1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Twice the score less one: wins count 1, draws a half.
    Score,
    /// The mean margin (Go's points on the board) over the board's
    /// points.
    Margin,
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// The tuned values, in the order of the factors.
    pub values: Vec<i64>,
    /// The tuned personality's text.
    pub text: String,
    /// The measurement: tuned against start (`None` when no openings).
    pub measured: Option<Standings>,
    /// With a reference opponent: the start's and the tuned
    /// personality's matches against it, on the measurement's openings
    /// (the same openings and colours for both), so that a tuned
    /// personality can be held to how near it came back to the
    /// reference's strength.
    pub against_reference: Option<ReferenceMeasure>,
}

/// The start's and the tuned personality's matches against the reference
/// opponent (player `a` in each).
#[derive(Clone, Debug)]
pub struct ReferenceMeasure {
    pub start: Standings,
    pub tuned: Standings,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

impl TuneConfig {
    fn text_with(&self, values: &[i64]) -> Result<String, String> {
        let set: Vec<(String, String, i64)> = self
            .factors
            .iter()
            .zip(values)
            .map(|(f, v)| (f.section.clone(), f.key.clone(), *v))
            .collect();
        set_factors(&self.start, &set).map_err(|e| format!("{}: {e}", self.start_name))
    }

    fn player(&self, name: &str, file: &Path) -> Result<PlayerSpec, String> {
        let sep = if self.engine.contains(':') { ',' } else { ':' };
        format!("{name}={}{sep}personality={}", self.engine, file.display()).parse()
    }

    /// A match between two personality texts in `dir`: `a`'s score.
    fn play(
        &self,
        dir: &Path,
        a: &str,
        b: &str,
        openings: usize,
        seed: u64,
    ) -> Result<Standings, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let (fa, fb) = (dir.join("a.toml"), dir.join("b.toml"));
        write(&fa, a)?;
        write(&fb, b)?;
        let players = vec![self.player("a", &fa)?, self.player("b", &fb)?];
        self.run(dir, players, openings, seed)
    }

    /// A match of personality text `a` against the reference opponent
    /// `reference` in `dir`.
    fn play_reference(
        &self,
        dir: &Path,
        a: &str,
        reference: &str,
        openings: usize,
        seed: u64,
    ) -> Result<Standings, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let fa = dir.join("a.toml");
        write(&fa, a)?;
        let players = vec![self.player("a", &fa)?, format!("b={reference}").parse()?];
        self.run(dir, players, openings, seed)
    }

    fn run(
        &self,
        dir: &Path,
        players: Vec<PlayerSpec>,
        openings: usize,
        seed: u64,
    ) -> Result<Standings, String> {
        let config = |out: PathBuf, shard: Option<Shard>| Config {
            game: self.game.clone(),
            players: players.clone(),
            format: Format::RoundRobin,
            openings,
            openings_file: None,
            opening_moves: self.opening_moves,
            seed,
            settings: self.settings,
            time_odds: Vec::new(),
            out,
            shard,
            fit: Fit::default(),
        };
        if self.shards <= 1 {
            return runner::run(&config(dir.to_path_buf(), None), |_| {});
        }
        // No more shards than games (each opening is two games), so that
        // every shard has a ledger to merge.
        let n = self.shards.min(2 * openings.max(1));
        let folders: Vec<PathBuf> = (1..=n).map(|k| dir.join(format!("shard-{k}"))).collect();
        std::thread::scope(|scope| {
            let runs: Vec<_> = folders
                .iter()
                .enumerate()
                .map(|(i, out)| {
                    let c = config(out.clone(), Some(Shard { k: i + 1, n }));
                    scope.spawn(move || runner::run(&c, |_| {}).map(|_| ()))
                })
                .collect();
            runs.into_iter().try_for_each(|r| {
                r.join()
                    .unwrap_or_else(|_| Err("a shard's thread panicked".into()))
            })
        })?;
        runner::merge_folders(&folders, Fit::default(), |_| {})
    }
}

/// What `s` is worth to player `a` under `objective`, in −1..1.
pub fn value_of(s: &Standings, objective: Objective, points: usize) -> f64 {
    match objective {
        Objective::Score => 2.0 * (score_of(s, "a") - 0.5),
        Objective::Margin => s.players.iter().find(|p| p.player == "a").map_or(0.0, |p| {
            (p.mean_margin / points.max(1) as f64).clamp(-1.0, 1.0)
        }),
    }
}

/// `a`'s score (wins and half the draws, over games) in `s`.
pub fn score_of(s: &Standings, player: &str) -> f64 {
    s.players
        .iter()
        .find(|p| p.player == player)
        .map_or(0.5, |p| {
            (f64::from(p.wins) + f64::from(p.draws) / 2.0) / f64::from(p.games.max(1))
        })
}

/// Runs the tuning: SPSA over the factors, each iteration a match in
/// `work/iter-K`; then the measurement in `work/measure` (and
/// `work/measure-reference/{start,tuned}` with a reference). `on_step`
/// hears about each iteration with the values it moved to.
pub fn tune(
    config: &TuneConfig,
    mut on_step: impl FnMut(&Step, &[i64]),
) -> Result<TuneOutcome, String> {
    let start = Personality::parse(&config.start).map_err(|_| {
        format!(
            "{}: not a personality (`katachi personality check` locates why)",
            config.start_name
        )
    })?;
    let mut params: Vec<Param> = config
        .factors
        .iter()
        .map(|f| Param {
            name: format!("{}.{}", f.section, f.key),
            value: f.theta_of(f.value_in(&start)),
            min: f.theta_of(f.min.max(1)),
            max: f.theta_of(f.max),
        })
        .collect();
    for (p, f) in params.iter_mut().zip(&config.factors) {
        if !f.log() {
            p.min = f.min as f64 / 100.0;
        }
    }
    let spsa = Spsa {
        a: config.a,
        c: config.c,
        big_a: (config.iterations as f64 / 10.0).max(1.0),
        seed: config.seed,
    };
    let values_of = |thetas: &[f64]| -> Vec<i64> {
        config
            .factors
            .iter()
            .zip(thetas)
            .map(|(f, t)| f.value_of_theta(*t))
            .collect()
    };
    spsa.maximise(
        &mut params,
        config.iterations,
        |k, plus, minus| {
            let a = config.text_with(&values_of(plus))?;
            let b = config.text_with(&values_of(minus))?;
            let dir = config.work.join(format!("iter-{k:03}"));
            let seed = config.seed.wrapping_add(1 + k as u64);
            let points = config.settings.size * config.settings.size;
            match &config.reference {
                None => {
                    let s = config.play(&dir, &a, &b, config.openings, seed)?;
                    Ok(value_of(&s, config.objective, points))
                }
                // Both on the same openings, so that the openings' luck
                // cancels in the difference.
                Some(r) => {
                    let sa =
                        config.play_reference(&dir.join("plus"), &a, r, config.openings, seed)?;
                    let sb =
                        config.play_reference(&dir.join("minus"), &b, r, config.openings, seed)?;
                    Ok((value_of(&sa, config.objective, points)
                        - value_of(&sb, config.objective, points))
                        / 2.0)
                }
            }
        },
        |step| on_step(step, &values_of(&step.after)),
    )?;
    let thetas: Vec<f64> = params.iter().map(|p| p.value).collect();
    let values = values_of(&thetas);
    let text = config.text_with(&values)?;
    let measured = if config.measure_openings > 0 {
        Some(config.play(
            &config.work.join("measure"),
            &text,
            &config.start,
            config.measure_openings,
            config.seed ^ 0x6d65_6173,
        )?)
    } else {
        None
    };
    let against_reference = match &config.reference {
        Some(r) if config.measure_openings > 0 => {
            let dir = config.work.join("measure-reference");
            // One seed for both matches: the same openings, so that the
            // difference is the personalities'.
            let seed = config.seed ^ 0x7265_6673;
            Some(ReferenceMeasure {
                start: config.play_reference(
                    &dir.join("start"),
                    &config.start,
                    r,
                    config.measure_openings,
                    seed,
                )?,
                tuned: config.play_reference(
                    &dir.join("tuned"),
                    &text,
                    r,
                    config.measure_openings,
                    seed,
                )?,
            })
        }
        _ => None,
    };
    Ok(TuneOutcome {
        values,
        text,
        measured,
        against_reference,
    })
}
