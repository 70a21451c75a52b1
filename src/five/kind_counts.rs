//! How many matches of each threat kind one colour makes at one point,
//! packed so that the valuation's update changes all of them at once.
//!
//! The valuation's update replaces one window's facts by another's at
//! every point a stone's lines reach: up to 32 replacements a stone, each
//! of which used to add and take away the eleven kinds' counts one by
//! one, a loop in the middle of the engine's hottest path. Here the
//! counts are sixteen-bit lanes of three words (lane `k` holds the count
//! of `Kind::ALL[k]`, four lanes a word), so that a replacement is three
//! additions and three subtractions, and the questions the searches ask
//! (the strongest kind, whether a four is made) read a word or two.
//!
//! The lanes never carry into each other: a count is a number of matches
//! filed at the point (the patterns of that kind matching there: a few
//! in the builtin databases), never below zero and, as the sixteen-bit
//! counts this replaces, never 65,536 (checked in debug builds); and a
//! replacement takes away only what an earlier one added, so adding
//! first and taking away second keeps every lane within its bits.

use mkpat::tables::Kind;

/// How many threat kinds there are.
const KINDS: usize = Kind::ALL.len();

/// Lanes a word holds.
const LANES: usize = 4;

/// Words the counts take.
const WORDS: usize = KINDS.div_ceil(LANES);

/// The kinds of a four (five and the fours) are the first four, one
/// word's lanes: whether a point makes a four reads that word alone.
const FOURS: usize = 4;
const _: () = {
    assert!(FOURS == LANES);
    let mut k = 0;
    while k < KINDS {
        assert!(Kind::ALL[k].is_four() == (k < FOURS));
        assert!(Kind::ALL[k] as usize == k);
        k += 1;
    }
};

/// The count of each threat kind, one sixteen-bit lane a kind (the
/// default: none of any kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindCounts([u64; WORDS]);

impl KindCounts {
    /// The word and the shift of `kind`'s lane.
    #[inline]
    fn lane(kind: Kind) -> (usize, u32) {
        let k = kind as usize;
        (k / LANES, (k % LANES) as u32 * 16)
    }

    /// One more match of `kind`.
    #[inline]
    pub fn add(&mut self, kind: Kind) {
        debug_assert!(self.count(kind) < u16::MAX, "{kind:?} counted 65,535 times");
        let (w, s) = Self::lane(kind);
        self.0[w] += 1 << s;
    }

    /// One match of `kind` fewer (one that was added).
    #[inline]
    pub fn remove(&mut self, kind: Kind) {
        debug_assert!(self.count(kind) > 0, "{kind:?} not counted");
        let (w, s) = Self::lane(kind);
        self.0[w] -= 1 << s;
    }

    /// These counts with what `before` counted replaced by what `after`
    /// counts (`before` was added earlier): added first, so that no lane
    /// goes below zero on the way.
    #[inline]
    pub fn replace(&mut self, before: &KindCounts, after: &KindCounts) {
        for ((w, a), b) in self.0.iter_mut().zip(after.0).zip(before.0) {
            *w = w.wrapping_add(a).wrapping_sub(b);
        }
    }

    /// How many matches of `kind` there are.
    #[inline]
    pub fn count(&self, kind: Kind) -> u16 {
        let (w, s) = Self::lane(kind);
        (self.0[w] >> s) as u16
    }

    /// The strongest kind counted (the first in `Kind::ALL`'s order).
    #[inline]
    pub fn strongest(&self) -> Option<Kind> {
        let w = self.0.iter().position(|&w| w != 0)?;
        let lane = self.0[w].trailing_zeros() as usize / 16;
        Some(Kind::ALL[w * LANES + lane])
    }

    /// Whether a kind of four (five or a four) is counted.
    #[inline]
    pub fn has_four(&self) -> bool {
        self.0[0] != 0
    }

    /// Whether the kinds of four are counted alike in both.
    #[inline]
    pub fn same_fours(&self, other: &KindCounts) -> bool {
        self.0[0] == other.0[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain model: one count a kind.
    fn check(packed: &KindCounts, model: &[u16; KINDS]) {
        for (k, &kind) in Kind::ALL.iter().enumerate() {
            assert_eq!(packed.count(kind), model[k], "{kind:?}");
        }
        let first = model.iter().position(|&n| n > 0).map(|k| Kind::ALL[k]);
        assert_eq!(packed.strongest(), first);
        assert_eq!(packed.has_four(), model[..FOURS].iter().any(|&n| n > 0));
    }

    proptest! {
        /// Adding, removing and replacing agree with one count a kind:
        /// a random walk of matches filed and dropped, and of sets of
        /// matches (a window's facts) replaced by others.
        #[test]
        fn packed_counts_agree_with_one_count_a_kind(
            steps in prop::collection::vec((0usize..3, 0usize..KINDS, prop::collection::vec(0u16..40, KINDS)), 1..80),
        ) {
            let mut packed = KindCounts::default();
            let mut model = [0u16; KINDS];
            // The facts last added as a whole, to be replaced next.
            let mut held = (KindCounts::default(), [0u16; KINDS]);
            for (op, k, counts) in steps {
                let kind = Kind::ALL[k];
                match op {
                    0 => {
                        packed.add(kind);
                        model[k] += 1;
                    }
                    1 if model[k] > held.1[k] => {
                        packed.remove(kind);
                        model[k] -= 1;
                    }
                    _ => {
                        let mut after = KindCounts::default();
                        for (k, &n) in counts.iter().enumerate() {
                            for _ in 0..n {
                                after.add(Kind::ALL[k]);
                            }
                        }
                        let same = after.same_fours(&held.0);
                        prop_assert_eq!(same, counts[..FOURS] == held.1[..FOURS]);
                        packed.replace(&held.0, &after);
                        for ((m, &a), &b) in model.iter_mut().zip(&counts).zip(&held.1) {
                            *m = *m + a - b;
                        }
                        held = (after, counts.try_into().unwrap());
                    }
                }
                check(&packed, &model);
            }
        }
    }

    #[test]
    fn the_strongest_kind_reads_across_words() {
        let mut c = KindCounts::default();
        assert_eq!(c.strongest(), None);
        c.add(Kind::Shape);
        c.add(Kind::Two);
        assert_eq!(c.strongest(), Some(Kind::Two));
        assert!(!c.has_four());
        c.add(Kind::BrokenFour);
        assert_eq!(c.strongest(), Some(Kind::BrokenFour));
        assert!(c.has_four());
        c.remove(Kind::BrokenFour);
        c.remove(Kind::Two);
        assert_eq!(c.strongest(), Some(Kind::Shape));
        assert_eq!(c.count(Kind::Shape), 1);
    }
}
