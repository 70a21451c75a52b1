//! Five in a row's factor table and the loading of a personality file
//! for a database.

use std::sync::{Arc, OnceLock};

use mkpat::geometry::{Hexagon, Shape, Square};
use mkpat::personality::{FactorDef, Personality, Rejected};
use mkpat::tables::Kind;

use super::{game_for_rule, FiveFactors, GAME, HEX_GAME, PENTE_GAME};
use crate::five::database::FiveDatabase;

/// The factor table: `attack-KIND` and `defence-KIND` for every threat
/// kind, then `noise`.
pub fn factor_defs() -> &'static [FactorDef] {
    static DEFS: OnceLock<Vec<FactorDef>> = OnceLock::new();
    DEFS.get_or_init(|| {
        let mut defs = Vec::new();
        for k in Kind::ALL {
            // The keys and definitions live as long as the process, as the
            // table does.
            let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
            defs.push(FactorDef {
                key: leak(format!("attack-{}", k.name())),
                default: 100,
                min: 0,
                max: 1000,
                definition: leak(format!(
                    "what making a `{}` is worth to the side that makes it, percent",
                    k.name()
                )),
            });
            defs.push(FactorDef {
                key: leak(format!("defence-{}", k.name())),
                default: 100,
                min: 0,
                max: 1000,
                definition: leak(format!(
                    "what taking the point of an opponent's `{}` is worth, percent",
                    k.name()
                )),
            });
        }
        defs.push(FactorDef {
            key: "noise",
            default: 0,
            min: 0,
            max: 10_000,
            definition: "a random 0..noise points added to each searched position's score (hashed from the position)",
        });
        defs
    })
}

impl FiveFactors {
    /// The engine factors of a checked personality.
    pub fn of(p: &Personality) -> FiveFactors {
        let defs = factor_defs();
        let mut f = FiveFactors::default();
        for k in Kind::ALL {
            f.attack[k as usize] = p.engine_value(defs, &format!("attack-{}", k.name())) as i32;
            f.defence[k as usize] = p.engine_value(defs, &format!("defence-{}", k.name())) as i32;
        }
        f.noise = p.engine_value(defs, "noise") as i32;
        f
    }
}

/// A personality loaded for a database (the square's by default, or the
/// hexagon's).
#[derive(Debug)]
pub struct Loaded<G: Shape = Square> {
    pub personality: Personality,
    pub database: Arc<FiveDatabase<G>>,
    pub factors: FiveFactors,
}

/// Reads the personality `name` (its `bytes`) for `db`: every error of
/// the file located and rendered at once.
pub fn load(name: &str, bytes: &[u8], db: &FiveDatabase) -> Result<Loaded, Rejected> {
    load_for(name, bytes, GAME, db)
}

/// [`load`] for the engine named `game` in the file ([`GAME`] on the
/// square, [`PENTE_GAME`] under Pente, [`HEX_GAME`] on the hexagon: the
/// same engine and factors, each its own database), over `db` of either
/// shape.
pub fn load_for<G: Shape>(
    name: &str,
    bytes: &[u8],
    game: &str,
    db: &FiveDatabase<G>,
) -> Result<Loaded<G>, Rejected> {
    let tables = db.matcher().tables();
    let dialect = db.overlay().dialect();
    let p = mkpat::personality::load(name, bytes, game, factor_defs(), dialect, tables.patterns)?;
    let factors = FiveFactors::of(&p);
    let overlay = factors.apply(p.overlay(dialect, tables.patterns), tables.patterns);
    let database = Arc::new(
        db.with_personality(overlay, factors.noise.into())
            .expect("an overlay made for the database's own tables"),
    );
    Ok(Loaded {
        personality: p,
        database,
        factors,
    })
}

/// [`load`] on a file (read within the input bound); the error is the
/// rendered diagnostics and a `katachi: ` summary line.
pub fn load_file(path: &str, db: &FiveDatabase) -> Result<Loaded, String> {
    load_file_for(path, GAME, db)
}

/// [`load_for`] on a file, as [`load_file`].
pub fn load_file_for<G: Shape>(
    path: &str,
    game: &str,
    db: &FiveDatabase<G>,
) -> Result<Loaded<G>, String> {
    let bytes = crate::loading::read(path).map_err(|e| format!("katachi: {}", e.message))?;
    load_for(path, &bytes, game, db)
        .map_err(|r| format!("{}katachi: {path}: {} error(s)", r.rendered, r.errors))
}

/// A hexagon personality file (`game = "hex"`) loaded for the builtin
/// hexagonal database (`patterns/hexfive.db`).
pub fn load_hex_file(path: &str) -> Result<Loaded<Hexagon>, String> {
    load_file_for(path, HEX_GAME, &FiveDatabase::hexagon())
}

/// A Pente personality file (`game = "pente"`) loaded for the builtin
/// Pente database (`patterns/pente.db`).
pub fn load_pente_file(path: &str) -> Result<Loaded, String> {
    load_file_for(path, PENTE_GAME, &FiveDatabase::pente())
}

/// A square board's personality file for the games of `rule` over `db`
/// (the rule's builtin database, or another): `game = "pente"` under
/// Pente, `game = "five"` under the other rules, so that a file written
/// for the other database is refused by its `game` line, located.
pub fn load_rule_file(
    path: &str,
    rule: crate::five::Rule,
    db: &FiveDatabase,
) -> Result<Loaded, String> {
    load_file_for(path, game_for_rule(rule), db)
}
