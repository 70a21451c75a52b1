//! How a user's `--seed` becomes the state of a xorshift generator.
//!
//! A xorshift generator must not start at zero (it stays there), and the
//! first way this code base kept it off zero, `seed | 1`, made every even
//! seed the same generator as the odd seed after it: `--seed 8` and
//! `--seed 9` drew the same openings, and `katachi gtp --seed 2` played
//! as `--seed 3`. These functions give every seed a state of its own
//! while an odd seed keeps the state it always had, so that the
//! matches written down with odd seeds replay as they were.
//!
//! It also holds the splitmix64 finaliser that the engines' hashed
//! random terms, the Zobrist keys and the contest's openings share.

/// The golden-ratio constant the generators here mix with.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The splitmix64 finaliser: nearby inputs to unrelated outputs (a
/// random term hashed from a key, so that it does not depend on how
/// often it is asked for). `const`: the Zobrist keys are computed at
/// compile time.
pub const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The state for a generator seeded with `seed`: `seed` itself, or a
/// fixed odd number for 0. One seed in 2^64 (that number) shares it.
pub fn state(seed: u64) -> u64 {
    if seed == 0 {
        GOLDEN
    } else {
        seed
    }
}

/// The state of the `k`-th of several generators drawn from one `seed`
/// (the tournament's `k`-th opening): for an odd seed what it always
/// was, `(seed ^ k·GOLDEN) | 1`; for an even seed, a state of its own,
/// mixed and odd, so that it no longer repeats the odd seed after it.
pub fn stream(seed: u64, k: u64) -> u64 {
    let x = seed ^ k.wrapping_mul(GOLDEN);
    if seed & 1 == 1 {
        x | 1
    } else {
        splitmix(x) | 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_seed_is_not_the_odd_seed_after_it() {
        for seed in (0..200).step_by(2) {
            assert_ne!(state(seed), state(seed + 1), "seed {seed}");
            for k in 0..40 {
                assert_ne!(stream(seed, k), stream(seed + 1, k), "seed {seed}, k {k}");
            }
        }
    }

    #[test]
    fn states_are_never_zero_and_odd_seeds_keep_theirs() {
        for seed in 0..1000u64 {
            assert_ne!(state(seed), 0);
            for k in 0..8 {
                assert_ne!(stream(seed, k), 0);
            }
        }
        // What `seed | 1` gave before, for the seeds the README's matches use.
        for seed in [1u64, 7, 9, 41, 4001] {
            assert_eq!(state(seed), seed | 1);
            for k in 0..40u64 {
                assert_eq!(stream(seed, k), (seed ^ k.wrapping_mul(GOLDEN)) | 1);
            }
        }
    }

    #[test]
    fn the_streams_of_one_seed_differ() {
        for seed in [2u64, 8, 10, 42] {
            let mut all: Vec<u64> = (0..100).map(|k| stream(seed, k)).collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), 100, "seed {seed}");
        }
    }
}
