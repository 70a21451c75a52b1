//! Go's engine factors: what a personality's `[engine]` table may set for
//! the move generator and the search, each with its default and its
//! one-line definition, and the loading of a personality for a pattern
//! set (its pattern factors checked against the set's database and
//! applied as an overlay).
//!
//! Every factor is a percentage of what the engine does as built (100),
//! except `noise`, a random number of points added to every pattern's
//! value (0: none). The random terms are hashed from the game's seed, so a
//! personality's games are as repeatable as the default's.

/// The game name personality files for this engine carry.
pub const GAME: &str = "go";

/// Go's engine factors, as numbers the move generator reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoFactors {
    /// Direct tactical reasons (capture, save, clean up), percent.
    pub tactics: i32,
    /// Weak-dragon reasons, percent.
    pub dragons: i32,
    /// Wind (seed) or moyo (2.6) assistance, percent.
    pub wind: i32,
    /// The existing random terms (2.6 `minrand..maxrand`, the fill's),
    /// percent.
    pub random: i32,
    /// A random 0..=noise points added to every pattern's value.
    pub noise: i32,
    /// The search's trust in pattern priors: percent of its prior visits.
    pub prior: i32,
}

impl Default for GoFactors {
    fn default() -> GoFactors {
        GoFactors {
            tactics: 100,
            dragons: 100,
            wind: 100,
            random: 100,
            noise: 0,
            prior: 100,
        }
    }
}

impl GoFactors {
    /// Can no pattern's value exceed its maximum weight under these
    /// factors (so that a best-first scan may prune)?
    pub fn within_max_weights(&self) -> bool {
        self.wind <= 100 && self.random == 100 && self.noise == 0
    }

    /// The search's options with the prior visits scaled by `prior`.
    pub fn search(
        &self,
        mut search: crate::go::search::SearchOptions,
    ) -> crate::go::search::SearchOptions {
        search.prior_visits *= self.prior as f32 / 100.0;
        search
    }
}

/// `value` scaled by `percent`/100 (saturating, rounded toward zero).
pub fn percent(value: i32, percent: i32) -> i32 {
    (i64::from(value) * i64::from(percent) / 100).clamp(i32::MIN.into(), i32::MAX.into()) as i32
}

#[cfg(feature = "compiler")]
mod file;
#[cfg(feature = "compiler")]
pub use file::{load, load_file, Loaded, FACTORS};

/// The pattern engine's move (no search; seed 1) in each position, with
/// `set` (a personality's or the default): what `katachi personality
/// diff` compares and the pinned tests assert.
pub fn moves_over(
    set: &std::sync::Arc<crate::go::movegen::PatternSet>,
    positions: &[crate::positions::PositionRecord],
) -> Vec<crate::go::Move> {
    use crate::position::{Point, Position};
    positions
        .iter()
        .map(|p| {
            let n = p.board.size();
            let mut g = crate::go::Game::new(n);
            g.seed(1);
            g.set_patterns(set.clone());
            g.set_search(None);
            let mut stones = Vec::new();
            for i in 0..n as i32 {
                for j in 0..n as i32 {
                    let q = Point::new(i, j);
                    if let Some(c) = p.board.stone(q) {
                        stones.push((c, q));
                    }
                }
            }
            // A positions file's stones are legal as set up; one that is
            // not (a string without liberties) is valued on what was set.
            let _ = g.setup(&stones);
            g.choose_move(p.to_move)
        })
        .collect()
}
