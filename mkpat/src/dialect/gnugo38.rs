//! GNU Go 3.x's dialect: its record, its classification letters, its value
//! functions and the transformations each symmetry class tries.
//!
//! GNU Go 3.8's databases write `:SYMMETRY,CLASSES` and then, in any
//! order, value functions (`value(30)`, `shape(-2)`, `terri(0.5)`,
//! `threatens_eye(a)` …) and at most one helper name. Which functions a
//! database may use is its `attribute_map` (`general`, `value_only`,
//! `owl_attack`, `owl_defense`, `none`). Values are written with up to
//! three decimals; the record keeps them in thousandths so that it stays
//! exact, `Copy` and hashable.
//!
//! Unlike katachi's own dialects, a 3.x pattern is tried in exactly the
//! transformations GNU Go tries for its declared class
//! ([`transformations`]), even when the diagram has more symmetry: that
//! is what GNU Go reports (the same placement once per transformation)
//! and what conformance compares, `trans` numbers included.

use crate::geometry::{ClassDef, Symmetries};

/// The classification letters, bit `k` for the `k`-th letter.
pub const CLASS_LETTERS: &str = "sOoXxDCcnBAbeEadIJjtTUWFNY";

/// The bit of classification letter `c`, if it is one (`-` is "none").
pub fn class_bit(c: char) -> Option<u32> {
    CLASS_LETTERS.find(c).map(|k| 1 << k)
}

/// The letters of `bits`, in [`CLASS_LETTERS`] order (`-` for none).
pub fn class_text(bits: u32) -> String {
    let s: String = CLASS_LETTERS
        .chars()
        .enumerate()
        .filter(|(k, _)| bits & (1 << k) != 0)
        .map(|(_, c)| c)
        .collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

/// Is `c` a label in a 3.x constraint diagram (GNU Go's: every ASCII
/// letter but `o x O Q X Y`)?
pub fn is_label(c: char) -> bool {
    c.is_ascii_alphabetic() && !"oxOQXY".contains(c)
}

/// Class `O`, new in 3.x: symmetric under the half turn. GNU Go tries
/// transformations 2 to 5, one per coset of the half turn's group.
pub const CLASS_O: ClassDef = ClassDef {
    letter: 'O',
    group: Symmetries(1 | 1 << 2),
    description: "symmetric under a half turn: transformations 2, 3, 4 and 5 are tried",
};

/// The transformations GNU Go 3.x tries for a pattern of class `letter`
/// (its `trfno`): all eight for `8`, 0–3 for `| - \ /`, 0–1 for `X +`,
/// 2–5 for `O`. GNU Go reads an unknown letter as `8`.
pub const fn transformations(letter: char) -> &'static [u8] {
    match letter {
        '|' | '-' | '\\' | '/' => &[0, 1, 2, 3],
        'X' | '+' => &[0, 1],
        'O' => &[2, 3, 4, 5],
        _ => &[0, 1, 2, 3, 4, 5, 6, 7],
    }
}

/// GNU Go 3.x's record: the classification letters and the values the
/// attribute line gives, in thousandths (0 when not written).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Go38Values {
    /// [`CLASS_LETTERS`] bits.
    pub class: u32,
    /// `value(N)` or `minvalue(N)` (owl and `value_only` maps: the
    /// pattern's own value).
    pub value: i32,
    pub max_value: i32,
    /// `terri(N)` or `minterri(N)`.
    pub min_terri: i32,
    pub max_terri: i32,
    pub shape: i32,
    /// `followup(N)` or `followup_value(N)`.
    pub followup: i32,
    pub reverse_followup: i32,
    /// The owl maps' label attributes: the label (a letter of the
    /// constraint diagram, or `*`) as a byte, 0 when absent.
    pub threatens_to_capture: u8,
    pub threatens_eye: u8,
    pub reverse_sente: u8,
}

impl Go38Values {
    /// The table's sort key and a best-first scan's bound: the largest of
    /// the values, in whole units rounded up.
    pub fn max_weight(&self) -> i64 {
        let top = [self.value, self.max_value, self.min_terri, self.max_terri]
            .into_iter()
            .max()
            .unwrap_or(0)
            .max(0);
        i64::from(top).div_euclid(1000) + i64::from(top % 1000 != 0)
    }
}

impl Go38Values {
    /// The value functions as a database writes them (`value(30),shape(2)`),
    /// those that are not zero, in a fixed order; the label attributes
    /// last.
    pub fn fields_text(&self) -> String {
        let mut out: Vec<String> = [
            ("value", self.value),
            ("maxvalue", self.max_value),
            ("terri", self.min_terri),
            ("maxterri", self.max_terri),
            ("shape", self.shape),
            ("followup", self.followup),
            ("reverse_followup", self.reverse_followup),
        ]
        .into_iter()
        .filter(|(_, v)| *v != 0)
        .map(|(n, v)| format!("{n}({})", milli_text(v)))
        .collect();
        for (n, l) in [
            ("threatens_to_capture", self.threatens_to_capture),
            ("threatens_eye", self.threatens_eye),
            ("reverse_sente", self.reverse_sente),
        ] {
            if l != 0 {
                out.push(format!("{n}({})", char::from(l)));
            }
        }
        out.join(",")
    }
}

/// Thousandths as a decimal: `2500` is `2.5`, `-30` is `-0.03`.
pub fn milli_text(v: i32) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    let (whole, frac) = (a / 1000, a % 1000);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{frac:03}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}

/// One value function of the attribute line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueField {
    Value,
    MaxValue,
    MinTerri,
    MaxTerri,
    Shape,
    Followup,
    ReverseFollowup,
    ThreatensToCapture,
    ThreatensEye,
    ReverseSente,
}

impl ValueField {
    /// Does it take a label (`threatens_eye(a)`) rather than a number?
    pub const fn takes_label(self) -> bool {
        matches!(
            self,
            ValueField::ThreatensToCapture | ValueField::ThreatensEye | ValueField::ReverseSente
        )
    }
}

/// The attribute maps a 3.x database chooses with `attribute_map NAME`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum AttributeMap {
    /// No value functions (the default).
    #[default]
    None,
    General,
    ValueOnly,
    OwlAttack,
    OwlDefense,
}

impl AttributeMap {
    pub const ALL: [AttributeMap; 5] = [
        AttributeMap::None,
        AttributeMap::General,
        AttributeMap::ValueOnly,
        AttributeMap::OwlAttack,
        AttributeMap::OwlDefense,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            AttributeMap::None => "none",
            AttributeMap::General => "general",
            AttributeMap::ValueOnly => "value_only",
            AttributeMap::OwlAttack => "owl_attack",
            AttributeMap::OwlDefense => "owl_defense",
        }
    }

    pub fn from_name(name: &str) -> Option<AttributeMap> {
        AttributeMap::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The value functions of this map, by the names databases write.
    pub const fn fields(self) -> &'static [(&'static str, ValueField)] {
        match self {
            AttributeMap::None => &[],
            AttributeMap::General => &[
                ("value", ValueField::Value),
                ("minvalue", ValueField::Value),
                ("maxvalue", ValueField::MaxValue),
                ("terri", ValueField::MinTerri),
                ("minterri", ValueField::MinTerri),
                ("maxterri", ValueField::MaxTerri),
                ("shape", ValueField::Shape),
                ("followup", ValueField::Followup),
                ("followup_value", ValueField::Followup),
                ("reverse_followup", ValueField::ReverseFollowup),
            ],
            AttributeMap::ValueOnly => &[("value", ValueField::Value)],
            AttributeMap::OwlAttack | AttributeMap::OwlDefense => &[
                ("value", ValueField::Value),
                ("threatens_to_capture", ValueField::ThreatensToCapture),
                ("threatens_eye", ValueField::ThreatensEye),
                ("reverse_sente", ValueField::ReverseSente),
            ],
        }
    }

    /// The value function `name` of this map.
    pub fn field(self, name: &str) -> Option<ValueField> {
        self.fields()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn class_o_tries_one_transformation_per_coset_of_the_half_turn() {
        let g = Geometry::Square;
        assert!(CLASS_O.group.is_group(g));
        let tried = transformations('O');
        let mut covered = 0u16;
        for &t in tried {
            for s in CLASS_O.group.iter() {
                covered |= 1 << g.compose(s, t);
            }
        }
        assert_eq!(covered, 0xff, "the four cover all eight");
    }

    #[test]
    fn the_other_classes_try_their_coset_representatives() {
        let g = Geometry::Square;
        for c in g.classes() {
            assert_eq!(
                transformations(c.letter),
                c.group.coset_representatives(g).as_slice(),
                "class {}",
                c.letter
            );
        }
    }

    #[test]
    fn class_letters_round_trip() {
        let bits = class_bit('O').unwrap() | class_bit('Y').unwrap() | class_bit('s').unwrap();
        assert_eq!(class_text(bits), "sOY");
        assert_eq!(class_text(0), "-");
        assert_eq!(class_bit('-'), None);
        assert_eq!(class_bit('Z'), None);
    }

    #[test]
    fn thousandths_read_as_written() {
        assert_eq!(milli_text(2500), "2.5");
        assert_eq!(milli_text(-30), "-0.03");
        assert_eq!(milli_text(2980), "2.98");
        assert_eq!(milli_text(25), "0.025");
        assert_eq!(milli_text(30000), "30");
        let v = Go38Values {
            value: 30000,
            shape: -500,
            threatens_eye: b'a',
            ..Default::default()
        };
        assert_eq!(v.fields_text(), "value(30),shape(-0.5),threatens_eye(a)");
    }

    #[test]
    fn max_weight_rounds_up_whole_units() {
        let v = Go38Values {
            value: 2500,
            ..Default::default()
        };
        assert_eq!(v.max_weight(), 3);
        let v = Go38Values {
            min_terri: 4000,
            ..Default::default()
        };
        assert_eq!(v.max_weight(), 4);
        assert_eq!(Go38Values::default().max_weight(), 0);
    }
}
