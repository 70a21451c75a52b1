//! Which games a tournament plays, in a fixed order, so that it can be
//! resumed and split across machines.
//!
//! The schedule is a pure function of the players, the format and the
//! openings: every game has an index and an id (`g0042`), and
//!
//! - every pairing plays every opening twice, colours swapped, because a
//!   deterministic engine replays one game forever and the first move's
//!   advantage decides many five-in-a-row games;
//! - `--shard K/N` plays the games whose index is `K − 1` modulo `N`, so N
//!   machines with the same arguments play disjoint parts whose union is
//!   the whole (a Slurm array job or GNU parallel just passes K);
//! - a resumed run skips the games whose records exist.
//!
//! Nothing here knows a game: openings are opaque indices into whatever
//! list of opening moves the game's front end made.

use std::collections::BTreeSet;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of players.
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scheduled {
    /// Position in the whole schedule, from 0.
    pub index: usize,
    /// The players (indices into the tournament's list): `first` moves
    /// first (Black).
    pub first: usize,
    pub second: usize,
    /// The opening, an index into the front end's list.
    pub opening: usize,
}

impl Scheduled {
    /// The game's id, the stem of its record's file name.
    pub fn id(&self) -> String {
        format!("g{:04}", self.index)
    }
}

/// The K-th of N parts (K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}`: a shard is K/N with 1 <= K <= N, e.g. 3/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// The whole schedule: for each pairing (in player order), for each
/// opening, the game with the lower-numbered player first, then the one
/// with colours swapped.
pub fn schedule(players: usize, format: Format, openings: usize) -> Vec<Scheduled> {
    let pairs: Vec<(usize, usize)> = match format {
        Format::RoundRobin => (0..players)
            .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..players).map(|b| (0, b)).collect(),
    };
    let mut out = Vec::new();
    for (a, b) in pairs {
        for opening in 0..openings.max(1) {
            for (first, second) in [(a, b), (b, a)] {
                out.push(Scheduled {
                    index: out.len(),
                    first,
                    second,
                    opening,
                });
            }
        }
    }
    out
}

/// The games of `shard` (all of them without one) that have no record
/// yet among `done` (game ids).
pub fn to_play(all: &[Scheduled], shard: Option<Shard>, done: &BTreeSet<String>) -> Vec<Scheduled> {
    all.iter()
        .filter(|g| shard.is_none_or(|s| g.index % s.n == s.k - 1))
        .filter(|g| !done.contains(&g.id()))
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pairing_plays_every_opening_with_both_colours() {
        let all = schedule(3, Format::RoundRobin, 2);
        assert_eq!(all.len(), 3 * 2 * 2);
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            for o in 0..2 {
                let with = |f, s| {
                    all.iter()
                        .filter(|g| (g.first, g.second, g.opening) == (f, s, o))
                        .count()
                };
                assert_eq!((with(a, b), with(b, a)), (1, 1), "{a} {b} {o}");
            }
        }
        assert!(all.iter().enumerate().all(|(k, g)| g.index == k));
        let gauntlet = schedule(4, Format::Gauntlet, 1);
        assert_eq!(gauntlet.len(), 6);
        assert!(gauntlet.iter().all(|g| g.first == 0 || g.second == 0));
    }

    #[test]
    fn shards_partition_the_schedule_and_resumption_skips_records() {
        let all = schedule(4, Format::RoundRobin, 3);
        for n in 1..=5 {
            let mut seen: Vec<usize> = (1..=n)
                .flat_map(|k| to_play(&all, Some(Shard { k, n }), &BTreeSet::new()))
                .map(|g| g.index)
                .collect();
            seen.sort();
            assert_eq!(seen, (0..all.len()).collect::<Vec<_>>(), "{n} shards");
        }
        let done: BTreeSet<String> = ["g0000", "g0003"].map(String::from).into();
        let left = to_play(&all, None, &done);
        assert_eq!(left.len(), all.len() - 2);
        assert!(left.iter().all(|g| g.index != 0 && g.index != 3));
    }

    #[test]
    fn shards_read_as_k_of_n() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { k: 3, n: 8 }));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("K/N"), "{bad}: {err}");
        }
    }
}
