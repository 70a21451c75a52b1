//! Dialects: the attribute line of each game, as a parameter.
//!
//! A database's patterns share a game-neutral part — diagram, anchor,
//! move, extent, edges, maximum weight, always-run — which the matcher
//! reads, and each carries a dialect record, [`Values`], which only the
//! engine of that game reads. This module holds the records (always
//! built: generated tables name them) and what each dialect says about
//! them: its maximum weight, what a best-first scan must always run, its
//! name. The compiler's side of each dialect — its header, attribute line,
//! checks and texts — is in [`syntax`] and [`five`] (feature `compiler`).
//!
//! Four dialects today: GNU Go 2.0's (the seed's) and GNU Go 2.6's, which
//! share one record ([`GoValues`]), GNU Go 3.x's ([`gnugo38`]: classes,
//! value functions, owl attributes), and katachi's five-in-a-row dialect
//! ([`FiveValues`]): threat kinds with a value for the side to move and
//! one for the opponent, and line patterns written once for every line
//! direction of the geometry.

use crate::tables::{class, Assistance};

#[cfg(feature = "compiler")]
pub mod five;
pub mod gnugo38;
#[cfg(feature = "compiler")]
pub mod go38_check;
#[cfg(feature = "compiler")]
pub mod syntax;

/// The languages of pattern databases that katachi reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub enum Dialect {
    /// GNU Go 2.0's (the seed's): `# pattern N` headers and
    /// `:trfno,patwt,ucutoff,uvalue,mycutoff,myvalue,class,bonus,helper`.
    /// The default: what a file without headers is read as.
    #[default]
    Seed,
    /// GNU Go 2.6's: `Pattern NAME` headers, an assistance field, and
    /// optional constraint diagrams with `;` expressions.
    GnuGo26,
    /// katachi's five-in-a-row dialect: a `dialect: five` line, `Pattern
    /// NAME` headers and `:SYMMETRY,KIND,MINE,THEIRS` attribute lines.
    Five,
    /// GNU Go 3.x's (3.8's fourteen databases): `Pattern NAME` headers,
    /// `:SYMMETRY,CLASSES[,value(N)…][,helper]` attribute lines, the cells
    /// `, ! Q Y` beside the 2.6 ones, class `O`, directive lines
    /// (`attribute_map`, `goal_elements`, `callback_data`), constraint
    /// diagrams with `;` constraints and `>` actions, and (in connection
    /// databases) patterns without a move.
    GnuGo38,
}

impl Dialect {
    pub const ALL: [Dialect; 4] = [
        Dialect::Seed,
        Dialect::GnuGo26,
        Dialect::Five,
        Dialect::GnuGo38,
    ];

    /// The name used on the command line, in `dialect:` lines, generated
    /// modules and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Seed => "seed",
            Dialect::GnuGo26 => "gnugo-2.6",
            Dialect::Five => "five",
            Dialect::GnuGo38 => "gnugo-3.8",
        }
    }

    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Is this one of GNU Go's 2.x dialects, whose record is [`GoValues`]
    /// (the one katachi's Go engine values)? GNU Go 3.x's record is
    /// [`gnugo38::Go38Values`].
    pub const fn is_go(self) -> bool {
        matches!(self, Dialect::Seed | Dialect::GnuGo26)
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A pattern's dialect record: what the engine's valuation reads.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Values {
    /// Both GNU Go dialects'.
    Go(GoValues),
    /// The five-in-a-row dialect's.
    Five(FiveValues),
    /// GNU Go 3.x's.
    Go38(gnugo38::Go38Values),
}

impl Values {
    /// The Go record, if this is one.
    pub const fn go(&self) -> Option<&GoValues> {
        match self {
            Values::Go(v) => Some(v),
            Values::Five(_) | Values::Go38(_) => None,
        }
    }

    /// The five-in-a-row record, if this is one.
    pub const fn five(&self) -> Option<&FiveValues> {
        match self {
            Values::Five(v) => Some(v),
            Values::Go(_) | Values::Go38(_) => None,
        }
    }

    /// The GNU Go 3.x record, if this is one.
    pub const fn go38(&self) -> Option<&gnugo38::Go38Values> {
        match self {
            Values::Go38(v) => Some(v),
            Values::Go(_) | Values::Five(_) => None,
        }
    }

    /// The most a match of the pattern can be worth under `dialect`: the
    /// table's sort key and a best-first scan's bound. An `i64`: wind and
    /// moyo products of numbers in the allowed range reach 10^10.
    pub fn max_weight(&self, dialect: Dialect) -> i64 {
        match self {
            Values::Go(v) => v.max_weight(dialect),
            Values::Five(v) => v.max_weight(),
            Values::Go38(v) => v.max_weight(),
        }
    }

    /// May a best-first scan skip the pattern once its maximum weight
    /// cannot beat the best found? Not when its value is not bounded by
    /// that weight (Go's classes `D A L C B`, valued by the engine).
    pub const fn always_run(&self) -> bool {
        match self {
            Values::Go(v) => v.class & class::ALWAYS_RUN != 0,
            Values::Five(_) | Values::Go38(_) => false,
        }
    }
}

/// The record of both GNU Go dialects: the attribute line's numbers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GoValues {
    pub weight: i32,
    pub assistance: Assistance,
    /// Classification letters ([`class`] bits).
    pub class: u16,
    /// Seed dialect `bonus`; 2.6 dialect `obonus`.
    pub bonus: i32,
    /// 2.6 dialect only (0 in the seed's).
    pub xbonus: i32,
    pub splitbonus: i32,
    pub minrand: i32,
    pub maxrand: i32,
}

impl GoValues {
    /// The weight plus every bonus that can be added to it (GNU Go's own
    /// bound: the seed's weight, wind and bonus; 2.6 adds the split bonus,
    /// the random term's top and both colour bonuses).
    pub fn max_weight(&self, dialect: Dialect) -> i64 {
        let wide = i64::from;
        let base = wide(self.weight) + self.assistance.max_bonus() + wide(self.bonus.max(0));
        match dialect {
            Dialect::GnuGo26 => {
                base + wide(self.splitbonus) + wide(self.maxrand) + wide(self.xbonus.max(0))
            }
            _ => base,
        }
    }
}

/// What a five-in-a-row move makes: the threat kinds a search reasons
/// with. A pattern's `*` is the move; the kind is what the side that plays
/// it (the diagram's `O`) has after it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// Five in a row: the game is won.
    Five,
    /// A straight four, `.OOOO.`: two points make five, one move cannot
    /// stop both.
    OpenFour,
    /// A four: exactly one point makes five (`XOOOO.`, `OO.OO`); the
    /// opponent must take it.
    Four,
    /// A four with a gap inside (`OOO.O`, `OO.OO`): a four, drawn apart.
    BrokenFour,
    /// Three in a row with room to become a straight four (`..OOO..`).
    OpenThree,
    /// A three with a gap that becomes a straight four (`.O.OO.`).
    SplitThree,
    /// A closed three: it can become a four, not a straight one.
    Three,
    /// Two that can become an open three.
    Two,
    /// Pente: the move brackets exactly two opponent stones (`*XXO`),
    /// which are captured.
    Capture,
    /// Pente: the move threatens a capture next move (`*XX.`).
    CaptureThreat,
    /// Any other shape: valued, not a threat the search reasons with.
    Shape,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Five,
        Kind::OpenFour,
        Kind::Four,
        Kind::BrokenFour,
        Kind::OpenThree,
        Kind::SplitThree,
        Kind::Three,
        Kind::Two,
        Kind::Capture,
        Kind::CaptureThreat,
        Kind::Shape,
    ];

    /// The name written in databases.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Five => "five",
            Kind::OpenFour => "open-four",
            Kind::Four => "four",
            Kind::BrokenFour => "broken-four",
            Kind::OpenThree => "open-three",
            Kind::SplitThree => "split-three",
            Kind::Three => "three",
            Kind::Two => "two",
            Kind::Capture => "capture",
            Kind::CaptureThreat => "capture-threat",
            Kind::Shape => "shape",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Does the move make a four or five (a move the opponent must
    /// answer at once: what a VCF search plays)?
    pub const fn is_four(self) -> bool {
        matches!(
            self,
            Kind::Five | Kind::OpenFour | Kind::Four | Kind::BrokenFour
        )
    }

    /// Does the move make an open three (answered next move, or it
    /// becomes a straight four: what a VCT search adds to fours)?
    pub const fn is_three(self) -> bool {
        matches!(self, Kind::OpenThree | Kind::SplitThree)
    }
}

/// The five-in-a-row dialect's record.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct FiveValues {
    pub kind: Kind,
    /// The move's value when the diagram's `O` is the side to move (what
    /// making the shape is worth).
    pub mine: i32,
    /// Its value when `O` is the opponent: what taking the point from
    /// them, and so stopping the shape, is worth.
    pub theirs: i32,
    /// Written as a line pattern: one row, placed along every line
    /// direction of the geometry.
    pub line: bool,
}

impl FiveValues {
    /// The larger of the two values: a pattern is matched for either side.
    pub fn max_weight(&self) -> i64 {
        i64::from(self.mine.max(self.theirs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Dialect::ALL {
            assert_eq!(Dialect::from_name(d.name()), Some(d));
        }
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        assert_eq!(Kind::from_name("fours"), None);
    }

    #[test]
    fn go_max_weight_adds_what_each_dialect_adds() {
        let v = GoValues {
            weight: 10,
            assistance: Assistance::Moyo {
                cutoff: 2,
                value: 3,
            },
            class: 0,
            bonus: -4,
            xbonus: 5,
            splitbonus: 7,
            minrand: 0,
            maxrand: 11,
        };
        assert_eq!(v.max_weight(Dialect::Seed), 10 + 6);
        assert_eq!(v.max_weight(Dialect::GnuGo26), 10 + 6 + 7 + 11 + 5);
    }
}
