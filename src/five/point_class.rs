//! What a move at one empty point makes across its lines: the
//! combination a gomoku player names (a four-three, a double three),
//! read from the strongest threat kind the point makes along each line.
//!
//! A point's threat kinds (`KindCounts`) count the database's matches:
//! one line can make a four and, by another pattern, an open three, and
//! one open three is often matched twice (by the patterns seen from
//! either side). Whether a point is a four-three or a double three is a
//! question about lines, not matches, so the valuation keeps beside each
//! point's matches the strongest kind of each line through it (one count
//! a line, `LineKinds`, from each window's `Facts::line`), and a class
//! is a function of those counts alone (`LineKinds::class_code`).
//!
//! The leaf table ([`LeafWeights`](super::leaf::LeafWeights)) weighs the
//! number of points of each class each side has: a shape's count of
//! matches says how much it threatens, a point's class whether two of
//! them meet where one move makes both, which is how most games of five
//! in a row are won.

use mkpat::tables::Kind;

/// The class of an empty point for one colour: the first that fits, in
/// this order. "Four" is a four or a broken four, "three" an open or
/// split three (one that becomes a straight four), "closed three" the
/// database's `three`; a point that makes a five has no class (the
/// threat rule and the searches see it), nor has one that makes nothing
/// a class names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PointClass {
    /// An open four along a line.
    OpenFour,
    /// Fours along two lines or more.
    DoubleFour,
    /// A four along one line and a three along another.
    FourThree,
    /// A four, and a closed three or a two along another line.
    FourPlus,
    /// A four alone.
    Four,
    /// Threes along two lines or more.
    DoubleThree,
    /// A three, and a closed three or a two along another line.
    ThreePlus,
    /// A three alone.
    Three,
    /// A closed three, and another closed three or a two.
    ClosedThreePlus,
    /// Twos along two lines or more.
    DoubleTwo,
    /// A closed three alone.
    ClosedThree,
    /// A two alone.
    Two,
}

impl PointClass {
    /// Every class, in the order a point is tried against them (and of
    /// their discriminants, which index per-class arrays).
    pub const ALL: [PointClass; 12] = [
        PointClass::OpenFour,
        PointClass::DoubleFour,
        PointClass::FourThree,
        PointClass::FourPlus,
        PointClass::Four,
        PointClass::DoubleThree,
        PointClass::ThreePlus,
        PointClass::Three,
        PointClass::ClosedThreePlus,
        PointClass::DoubleTwo,
        PointClass::ClosedThree,
        PointClass::Two,
    ];

    /// The name written in leaf tables.
    pub const fn name(self) -> &'static str {
        match self {
            PointClass::OpenFour => "open-four",
            PointClass::DoubleFour => "double-four",
            PointClass::FourThree => "four-three",
            PointClass::FourPlus => "four-plus",
            PointClass::Four => "four",
            PointClass::DoubleThree => "double-three",
            PointClass::ThreePlus => "three-plus",
            PointClass::Three => "three",
            PointClass::ClosedThreePlus => "closed-three-plus",
            PointClass::DoubleTwo => "double-two",
            PointClass::ClosedThree => "closed-three",
            PointClass::Two => "two",
        }
    }

    /// The class named `name`.
    pub fn from_name(name: &str) -> Option<PointClass> {
        PointClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The class of a point whose lines' strongest kinds are counted in
    /// `lines` (the valuation keeps the code, `LineKinds::class_code`).
    #[cfg(test)]
    pub(super) fn of(lines: LineKinds) -> Option<PointClass> {
        PointClass::from_code(lines.class_code())
    }

    /// The class of [`LineKinds::class_code`]'s `code`.
    #[inline]
    pub(super) fn from_code(code: u8) -> Option<PointClass> {
        PointClass::ALL.get(usize::from(code)).copied()
    }
}

/// The strongest threat kind of each line through a point, counted by
/// category: five, open four, four (a four or a broken four), three (an
/// open or a split three), closed three, two. The counts are the digits
/// of one number in base 5 (category `c` is worth 5^c), which a point's
/// at most four lines never carry out of, so that a line comes and goes
/// by one addition, and the class is one look-up of the number
/// ([`CODES`], 5^6 entries). A line whose strongest kind is none of these
/// (a capture, a shape) counts nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct LineKinds(u16);

/// The categories a line counts in.
const CATEGORIES: u32 = 6;

/// How many numbers the digits make: 5^6.
const NUMBERS: usize = 5usize.pow(CATEGORIES);

impl LineKinds {
    /// One line whose strongest kind is `kind`.
    #[inline]
    pub(super) fn line(kind: Option<Kind>) -> LineKinds {
        let category = match kind {
            Some(Kind::Five) => 0,
            Some(Kind::OpenFour) => 1,
            Some(Kind::Four | Kind::BrokenFour) => 2,
            Some(Kind::OpenThree | Kind::SplitThree) => 3,
            Some(Kind::Three) => 4,
            Some(Kind::Two) => 5,
            Some(Kind::Capture | Kind::CaptureThreat | Kind::Shape) | None => {
                return LineKinds(0);
            }
        };
        LineKinds(5u16.pow(category))
    }

    /// These counts with the line `before` (counted earlier) replaced by
    /// `after`.
    #[inline]
    pub(super) fn replace(&mut self, before: LineKinds, after: LineKinds) {
        self.0 = self.0.wrapping_add(after.0).wrapping_sub(before.0);
    }

    /// The point's class as its index in [`PointClass::ALL`], or
    /// `PointClass::ALL.len()` for none: the first class that fits.
    #[inline]
    pub(super) fn class_code(self) -> u8 {
        CODES[usize::from(self.0)]
    }
}

/// The code of no class ([`LineKinds::class_code`]).
pub(super) const NO_CLASS: u8 = PointClass::ALL.len() as u8;

/// The class of a point with lines of each category counted (`n[c]`,
/// [`LineKinds`]' order): the first class that fits, in
/// [`PointClass::ALL`]'s order.
const fn classify(n: [u32; CATEGORIES as usize]) -> u8 {
    let [five, open_four, fours, threes, closed, twos] = n;
    let class = if five > 0 {
        return NO_CLASS;
    } else if open_four > 0 {
        PointClass::OpenFour
    } else if fours >= 2 {
        PointClass::DoubleFour
    } else if fours == 1 && threes > 0 {
        PointClass::FourThree
    } else if fours == 1 && closed + twos > 0 {
        PointClass::FourPlus
    } else if fours == 1 {
        PointClass::Four
    } else if threes >= 2 {
        PointClass::DoubleThree
    } else if threes == 1 && closed + twos > 0 {
        PointClass::ThreePlus
    } else if threes == 1 {
        PointClass::Three
    } else if closed > 0 && closed + twos >= 2 {
        PointClass::ClosedThreePlus
    } else if twos >= 2 {
        PointClass::DoubleTwo
    } else if closed > 0 {
        PointClass::ClosedThree
    } else if twos > 0 {
        PointClass::Two
    } else {
        return NO_CLASS;
    };
    class as u8
}

/// [`classify`] of every number [`LineKinds`] can hold (and of those it
/// cannot: more than four lines in all, which no board has).
const CODES: [u8; NUMBERS] = {
    let mut out = [NO_CLASS; NUMBERS];
    let mut k = 0;
    while k < NUMBERS {
        let mut n = [0u32; CATEGORIES as usize];
        let mut rest = k as u32;
        let mut c = 0;
        while c < CATEGORIES as usize {
            n[c] = rest % 5;
            rest /= 5;
            c += 1;
        }
        out[k] = classify(n);
        k += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(kinds: &[Kind]) -> LineKinds {
        let mut c = LineKinds::default();
        for &k in kinds {
            c.replace(LineKinds::default(), LineKinds::line(Some(k)));
        }
        c
    }

    #[test]
    fn the_first_class_that_fits_is_the_points() {
        use Kind::*;
        let cases: [(&[Kind], Option<PointClass>); 16] = [
            (&[], None),
            (&[Five, OpenFour], None),
            (&[OpenFour, Four], Some(PointClass::OpenFour)),
            (&[Four, BrokenFour], Some(PointClass::DoubleFour)),
            (
                &[BrokenFour, SplitThree, OpenThree],
                Some(PointClass::FourThree),
            ),
            (&[Four, Two], Some(PointClass::FourPlus)),
            (&[Four, Three], Some(PointClass::FourPlus)),
            (&[BrokenFour], Some(PointClass::Four)),
            (&[OpenThree, SplitThree, Two], Some(PointClass::DoubleThree)),
            (&[OpenThree, Two], Some(PointClass::ThreePlus)),
            (&[SplitThree], Some(PointClass::Three)),
            (&[Three, Three], Some(PointClass::ClosedThreePlus)),
            (&[Three, Two], Some(PointClass::ClosedThreePlus)),
            (&[Two, Two, Two], Some(PointClass::DoubleTwo)),
            (&[Three, Shape], Some(PointClass::ClosedThree)),
            (&[Two, Capture], Some(PointClass::Two)),
        ];
        for (kinds, want) in cases {
            assert_eq!(PointClass::of(lines(kinds)), want, "{kinds:?}");
        }
    }

    #[test]
    fn classes_are_named_and_indexed_in_order() {
        for (k, class) in PointClass::ALL.into_iter().enumerate() {
            assert_eq!(class as usize, k);
            assert_eq!(PointClass::from_code(k as u8), Some(class));
            assert_eq!(PointClass::from_name(class.name()), Some(class));
        }
        assert_eq!(PointClass::from_name("five"), None);
        assert_eq!(PointClass::from_code(PointClass::ALL.len() as u8), None);
    }

    #[test]
    fn a_line_of_a_capture_or_a_shape_counts_nothing() {
        assert_eq!(LineKinds::line(Some(Kind::Capture)), LineKinds::default());
        assert_eq!(LineKinds::line(Some(Kind::Shape)), LineKinds::default());
        assert_eq!(LineKinds::line(None), LineKinds::default());
        // Four lines of one category fill its digit without carrying:
        // four twos are a double two, not a closed three.
        assert_eq!(
            PointClass::of(lines(&[Kind::Two; 4])),
            Some(PointClass::DoubleTwo)
        );
        assert_eq!(lines(&[Kind::Two; 4]), LineKinds(4 * 5u16.pow(5)));
        // Taken away again, nothing is left.
        let mut l = lines(&[Kind::Four, Kind::SplitThree]);
        assert_eq!(PointClass::of(l), Some(PointClass::FourThree));
        l.replace(LineKinds::line(Some(Kind::Four)), LineKinds::default());
        l.replace(
            LineKinds::line(Some(Kind::SplitThree)),
            LineKinds::default(),
        );
        assert_eq!(l, LineKinds::default());
    }
}
