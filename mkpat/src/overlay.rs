//! Weights overlaid at run time: a database's values, re-weighed without
//! recompiling.
//!
//! An engine's valuation reads each pattern's record through an
//! [`Overlay`], never from the tables directly. The default overlay is
//! the database's own values; a personality (or a tuner) re-weighs
//! patterns by name, by Go class letter or by five-in-a-row threat kind,
//! and the overlay recomputes every maximum weight from the new values,
//! so that a matcher built on [`Overlay::max_weights`] orders and prunes
//! its best-first scan by what the patterns are now worth.

use crate::dialect::{Dialect, Kind, Values};
use crate::tables::Pattern;

/// Each pattern's values as the valuation reads them, in table order,
/// with the maximum weights they imply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlay {
    dialect: Dialect,
    values: Vec<Values>,
    max_weight: Vec<i64>,
}

/// Which patterns a re-weighing applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// Every pattern.
    All,
    /// The patterns of this name (a five-in-a-row line pattern is two
    /// tables patterns of one name on the square).
    Name(String),
    /// Go patterns with any of these class letters ([`crate::tables::class`]).
    Class(u16),
    /// Five-in-a-row patterns of this threat kind.
    Kind(Kind),
}

impl Selector {
    /// Does the selector pick `p`, whose current values are `v`?
    pub fn picks(&self, p: &Pattern, v: &Values) -> bool {
        match (self, v) {
            (Selector::All, _) => true,
            (Selector::Name(n), _) => p.name == n.as_str(),
            (Selector::Class(bits), Values::Go(g)) => g.class & bits != 0,
            (Selector::Kind(k), Values::Five(f)) => f.kind == *k,
            _ => false,
        }
    }
}

impl Overlay {
    /// The database's own values: what every engine reads by default.
    pub fn identity(dialect: Dialect, patterns: &[Pattern]) -> Overlay {
        Overlay {
            dialect,
            values: patterns.iter().map(|p| p.values).collect(),
            max_weight: patterns.iter().map(|p| p.max_weight).collect(),
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Pattern `k`'s values (its index in the tables).
    #[inline]
    pub fn values(&self, k: usize) -> &Values {
        &self.values[k]
    }

    /// Every pattern's maximum weight under the overlay, in table order.
    pub fn max_weights(&self) -> &[i64] {
        &self.max_weight
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Re-weighs the patterns `selector` picks with `f`, recomputing their
    /// maximum weights; returns how many it picked. `patterns` are the
    /// tables' patterns the overlay was made for.
    pub fn reweigh(
        &mut self,
        patterns: &[Pattern],
        selector: &Selector,
        mut f: impl FnMut(&mut Values),
    ) -> usize {
        let mut picked = 0;
        for (k, p) in patterns.iter().enumerate().take(self.values.len()) {
            if selector.picks(p, &self.values[k]) {
                f(&mut self.values[k]);
                self.max_weight[k] = self.values[k].max_weight(self.dialect);
                picked += 1;
            }
        }
        picked
    }

    /// Scales the weights of the patterns `selector` picks by
    /// `percent`/100 (Go: the weight; GNU Go 3.x: the value; five in a row: both values), the
    /// commonest re-weighing; returns how many it picked.
    pub fn scale(&mut self, patterns: &[Pattern], selector: &Selector, percent: i32) -> usize {
        let scale = |v: i32| {
            (i64::from(v) * i64::from(percent) / 100).clamp(i32::MIN.into(), i32::MAX.into()) as i32
        };
        self.reweigh(patterns, selector, |v| match v {
            Values::Go(g) => g.weight = scale(g.weight),
            Values::Five(f) => {
                f.mine = scale(f.mine);
                f.theirs = scale(f.theirs);
            }
            Values::Go38(g) => g.value = scale(g.value),
        })
    }
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;

    #[test]
    fn the_identity_is_the_database_and_a_scale_moves_the_bounds() {
        let src = b"Pattern A\n\nXO*\n\n:8,50,0,-,0,0,0,0,0,NULL\n\nPattern B\n\nX.*\n\n:8,30,0,-,0,0,0,0,0,NULL\n";
        let c = crate::compile("o.db", src, &crate::Options::default());
        let db = c.database.expect("compiles");
        let mut o = Overlay::identity(db.dialect, &db.patterns);
        assert_eq!(o.max_weights(), [50, 30]);
        assert_eq!(o.scale(&db.patterns, &Selector::Name("B".into()), 200), 1);
        assert_eq!(o.max_weights(), [50, 60]);
        assert_eq!(o.values(1).go().map(|g| g.weight), Some(60));
        assert_eq!(o.scale(&db.patterns, &Selector::Kind(Kind::Four), 200), 0);
    }
}
