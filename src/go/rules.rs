//! The rule sets a Go game is played under, and what each one changes.
//!
//! GTP controllers and servers play under different rules: GoGui and
//! Sabaki let the user choose, KGS sends `kgs-rules japanese|chinese|aga|
//! new_zealand`, computer tournaments often use Tromp–Taylor. The rules
//! differ in four things, and a [`RuleSet`] answers each:
//!
//! | rule set | scoring | ko | suicide | dead stones |
//! | --- | --- | --- | --- | --- |
//! | `chinese` (`area`) | area | simple ko | illegal | removed by agreement |
//! | `japanese` (`territory`) | territory and prisoners | simple ko | illegal | removed by agreement |
//! | `tromp-taylor` | area | positional superko | legal | none: every stone counts |
//! | `aga` | area (its pass stones make it equal to territory) | superko | illegal | removed by agreement |
//! | `new_zealand` | area | superko | legal | removed by agreement |
//!
//! AGA and New Zealand rules ban *situational* superko (a position with
//! the same player to move); katachi enforces the positional kind for
//! them, which forbids a few more moves and never allows one they forbid
//! in practice. Under territory scoring every stone a player puts on the
//! board costs a point against area scoring (territory difference = area
//! difference − (black stones played − white stones played)), which is
//! why the endgame each one rewards differs: area scoring forgives
//! filling one's own territory, territory scoring does not.
//!
//! Dead stones are found by [`super::ownership`]: which side owns each
//! point at the end of many random games from the position.

/// How a finished game is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones plus empty regions bordered by one colour.
    Area,
    /// Empty regions bordered by one colour plus prisoners.
    Territory,
}

/// A rule set (see the module documentation for what each one means).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleSet {
    /// Area scoring, simple ko, no suicide, dead stones removed.
    #[default]
    Chinese,
    /// Territory scoring, simple ko, no suicide, dead stones removed.
    Japanese,
    /// Area scoring of every stone on the board, positional superko,
    /// suicide allowed.
    TrompTaylor,
    /// Area scoring (with pass stones), superko, no suicide.
    Aga,
    /// Area scoring, superko, suicide allowed.
    NewZealand,
}

/// Every rule set, for help texts and tests.
pub const RULE_SETS: [RuleSet; 5] = [
    RuleSet::Chinese,
    RuleSet::Japanese,
    RuleSet::TrompTaylor,
    RuleSet::Aga,
    RuleSet::NewZealand,
];

impl RuleSet {
    /// A rule set by the names GTP controllers, KGS and the command line
    /// use (case-insensitive): `chinese`/`area`, `japanese`/`territory`,
    /// `tromp-taylor` (or `tromp_taylor`, `tt`), `aga`, `new_zealand` (or
    /// `new-zealand`, `nz`).
    pub fn parse(name: &str) -> Option<RuleSet> {
        let name = name.to_ascii_lowercase().replace('_', "-");
        Some(match name.as_str() {
            "chinese" | "area" => RuleSet::Chinese,
            "japanese" | "territory" => RuleSet::Japanese,
            "tromp-taylor" | "tt" => RuleSet::TrompTaylor,
            "aga" => RuleSet::Aga,
            "new-zealand" | "nz" => RuleSet::NewZealand,
            _ => return None,
        })
    }

    /// The rule set's name as [`RuleSet::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Chinese => "chinese",
            RuleSet::Japanese => "japanese",
            RuleSet::TrompTaylor => "tromp-taylor",
            RuleSet::Aga => "aga",
            RuleSet::NewZealand => "new_zealand",
        }
    }

    pub fn scoring(self) -> Scoring {
        match self {
            RuleSet::Japanese => Scoring::Territory,
            _ => Scoring::Area,
        }
    }

    /// Is recreating an earlier position of the game illegal?
    pub fn superko(self) -> bool {
        matches!(
            self,
            RuleSet::TrompTaylor | RuleSet::Aga | RuleSet::NewZealand
        )
    }

    /// May a move take the last liberty of its own string (which is then
    /// removed)?
    pub fn suicide(self) -> bool {
        matches!(self, RuleSet::TrompTaylor | RuleSet::NewZealand)
    }

    /// Are dead stones taken off before counting? (Under Tromp–Taylor
    /// every stone on the board counts: the game is played out.)
    pub fn removes_dead(self) -> bool {
        self != RuleSet::TrompTaylor
    }
}

impl std::fmt::Display for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_map() {
        for r in RULE_SETS {
            assert_eq!(RuleSet::parse(r.name()), Some(r));
        }
        assert_eq!(RuleSet::parse("AREA"), Some(RuleSet::Chinese));
        assert_eq!(RuleSet::parse("territory"), Some(RuleSet::Japanese));
        assert_eq!(RuleSet::parse("Tromp_Taylor"), Some(RuleSet::TrompTaylor));
        assert_eq!(RuleSet::parse("new-zealand"), Some(RuleSet::NewZealand));
        assert_eq!(RuleSet::parse("ing"), None);
        assert_eq!(RuleSet::parse(""), None);
    }
}
