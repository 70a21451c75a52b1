//! Five in a row's engine factors: what a personality's `[engine]` table
//! may set — each threat kind's value for the side that makes it
//! (`attack-KIND`) and for the side that takes the point from it
//! (`defence-KIND`), in percent, and a random term (`noise`, points) —
//! and the loading of a personality for a database (its pattern factors
//! checked against the database, both applied as one overlay).

use mkpat::overlay::{Overlay, Selector};
use mkpat::tables::{Kind, Pattern, Values};

/// The game name personality files for this engine carry.
pub const GAME: &str = "five";

/// The game name of personalities for the same engine on the hexagon
/// (seed 003's contest board): its factors are five in a row's, its
/// database is the hexagon's own (`patterns/hexfive.db`), whose
/// fingerprint the file records.
pub const HEX_GAME: &str = "hex";

/// The game name of personalities for the same engine under Pente
/// (`Rule::Pente`): its factors are five in a row's (the `capture` and
/// `capture-threat` kinds are Pente's own shapes), its database is
/// Pente's (`patterns/pente.db`), whose fingerprint the file records.
pub const PENTE_GAME: &str = "pente";

/// The game name a personality for `rule` carries on the square board:
/// [`PENTE_GAME`] under Pente (its own database), [`GAME`] under the
/// others (they share `patterns/five.db`).
pub fn game_for_rule(rule: crate::five::Rule) -> &'static str {
    match rule {
        crate::five::Rule::Pente => PENTE_GAME,
        _ => GAME,
    }
}

/// The rule a square board's personality of `game` plays when none is
/// given: Pente for [`PENTE_GAME`], freestyle for the others (the
/// inverse of [`game_for_rule`] for a game's first rule).
pub fn own_rule(game: &str) -> crate::five::Rule {
    if game == PENTE_GAME {
        crate::five::Rule::Pente
    } else {
        crate::five::Rule::Freestyle
    }
}

/// How many threat kinds there are.
const KINDS: usize = Kind::ALL.len();

/// Five in a row's engine factors, as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiveFactors {
    /// Per kind (`Kind as usize`): percent of a pattern's `mine`.
    pub attack: [i32; KINDS],
    /// Per kind: percent of a pattern's `theirs`.
    pub defence: [i32; KINDS],
    /// Up to this many points added to a searched position's score,
    /// hashed from the position.
    pub noise: i32,
}

impl Default for FiveFactors {
    fn default() -> FiveFactors {
        FiveFactors {
            attack: [100; KINDS],
            defence: [100; KINDS],
            noise: 0,
        }
    }
}

impl FiveFactors {
    /// `overlay` with each kind's values scaled for each side.
    pub fn apply(&self, mut overlay: Overlay, patterns: &[Pattern]) -> Overlay {
        for k in Kind::ALL {
            let (a, d) = (self.attack[k as usize], self.defence[k as usize]);
            if (a, d) == (100, 100) {
                continue;
            }
            overlay.reweigh(patterns, &Selector::Kind(k), |v| {
                if let Values::Five(f) = v {
                    f.mine = scale(f.mine, a);
                    f.theirs = scale(f.theirs, d);
                }
            });
        }
        overlay
    }
}

fn scale(v: i32, percent: i32) -> i32 {
    (i64::from(v) * i64::from(percent) / 100).clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

#[cfg(feature = "compiler")]
mod file;
#[cfg(feature = "compiler")]
pub use file::{
    factor_defs, load, load_file, load_file_for, load_for, load_hex_file, load_pente_file,
    load_rule_file, Loaded,
};

/// The engine's move at a fixed `depth` (no clock, forced wins by fours
/// only, a 1 MiB table) in each position under
/// `rule`, with `db` (a personality's or the default): what `katachi
/// personality diff` compares and the pinned tests assert. `None` where
/// the position is not a game of the rule or has no move.
pub fn moves_over(
    db: &std::sync::Arc<crate::five::database::FiveDatabase>,
    positions: &[crate::positions::PositionRecord],
    rule: crate::five::Rule,
    depth: u32,
) -> Vec<Option<crate::position::Point>> {
    use crate::five::engine::{Engine, Limits};
    use crate::position::{Point, Position};
    positions
        .iter()
        .map(|p| {
            let n = p.board.size();
            let mut game = crate::five::FiveBoard::new(n, rule).ok()?;
            for i in 0..n as i32 {
                for j in 0..n as i32 {
                    let q = Point::new(i, j);
                    if let Some(c) = p.board.stone(q) {
                        game.put(q, c).ok()?;
                    }
                }
            }
            game.set_to_move(p.to_move);
            let mut engine = Engine::with_database(game, db.clone());
            let stop = std::sync::atomic::AtomicBool::new(false);
            engine
                .choose(&Limits::at_depth(depth, &stop))
                .map(|(q, _)| q)
        })
        .collect()
}
