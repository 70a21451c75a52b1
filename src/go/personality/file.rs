//! Go's factor table and the loading of a personality file for a
//! pattern set.

use std::sync::Arc;

use mkpat::personality::{FactorDef, Personality, Rejected};

use super::{GoFactors, GAME};
use crate::go::movegen::PatternSet;

/// Go's engine factors with their defaults, bounds and definitions.
pub const FACTORS: [FactorDef; 6] = [
    FactorDef {
        key: "tactics",
        default: 100,
        min: 0,
        max: 400,
        definition:
            "direct tactical reasons (capture, save, clean up a string), percent of their value",
    },
    FactorDef {
        key: "dragons",
        default: 100,
        min: 0,
        max: 400,
        definition: "moves that strengthen a weak own dragon or weaken an opponent's, percent",
    },
    FactorDef {
        key: "wind",
        default: 100,
        min: 0,
        max: 400,
        definition: "wind (seed) or moyo (GNU Go 2.6) assistance added to pattern weights, percent",
    },
    FactorDef {
        key: "random",
        default: 100,
        min: 0,
        max: 1000,
        definition: "the engine's random terms (2.6 minrand..maxrand, the fill's), percent",
    },
    FactorDef {
        key: "noise",
        default: 0,
        min: 0,
        max: 100,
        definition:
            "a random 0..noise points added to every pattern's value (hashed from the seed)",
    },
    FactorDef {
        key: "prior",
        default: 100,
        min: 0,
        max: 400,
        definition: "how much the search trusts pattern priors: percent of its prior visits",
    },
];

impl GoFactors {
    /// The engine factors of a checked personality (defaults where it
    /// says nothing).
    pub fn of(p: &Personality) -> GoFactors {
        let v = |k: &str| p.engine_value(&FACTORS, k) as i32;
        GoFactors {
            tactics: v("tactics"),
            dragons: v("dragons"),
            wind: v("wind"),
            random: v("random"),
            noise: v("noise"),
            prior: v("prior"),
        }
    }
}

/// A personality loaded for a pattern set: the file, the set re-weighed
/// by its pattern factors, and its engine factors.
#[derive(Debug)]
pub struct Loaded {
    pub personality: Personality,
    pub patterns: Arc<PatternSet>,
    pub factors: GoFactors,
}

/// Reads the personality `name` (its `bytes`) for `set`: every error of
/// the file located and rendered at once.
pub fn load(name: &str, bytes: &[u8], set: &PatternSet) -> Result<Loaded, Rejected> {
    let tables = set.tables();
    let p = mkpat::personality::load(name, bytes, GAME, &FACTORS, set.dialect(), tables.patterns)?;
    let overlay = p.overlay(set.dialect(), tables.patterns);
    let factors = GoFactors::of(&p);
    let patterns = Arc::new(
        set.reweighed(overlay, factors)
            .expect("an overlay made for the set's own tables"),
    );
    Ok(Loaded {
        factors,
        personality: p,
        patterns,
    })
}

/// [`load`] on a file (read within the input bound); the error is the
/// rendered diagnostics and a `katachi: ` summary line.
pub fn load_file(path: &str, set: &PatternSet) -> Result<Loaded, String> {
    let bytes = crate::loading::read(path).map_err(|e| format!("katachi: {}", e.message))?;
    load(path, &bytes, set)
        .map_err(|r| format!("{}katachi: {path}: {} error(s)", r.rendered, r.errors))
}
