//! The index: bucket keys from the anchor's eight neighbours, the
//! entries of each bucket (the masks the key leaves open, the variant id,
//! the placement lanes), and how `Matcher::new` builds them.

use mkpat::tables::{grid_shift, Extent};
use mkpat::transform::side;

use super::lanes::{lanes_max, Place};
use crate::board::OFF_BOARD;

/// The window cells whose values form the bucket key: the anchor's eight
/// neighbours. They are the cells most patterns constrain, so the key
/// splits the variants finely, and eight 2-bit values (65,536 keys) keep
/// the index small because a variant lands only in compatible buckets.
pub(super) const KEY_CELLS: [(i32, i32); 8] = crate::position::EIGHT_NEIGHBOURS;
pub(super) const KEY_BITS: u32 = 2 * KEY_CELLS.len() as u32;
pub(super) const KEYS: usize = 1 << KEY_BITS;

/// The bucket key of a composite: the key cells' 2-bit values.
///
/// Window rows are 8 bits apart in the composite; the three cells of the
/// row above the anchor are contiguous (bits 26..32), as are those of the
/// row below (bits 10..16), and the anchor's west and east neighbours sit
/// at bits 22 and 18.
#[inline(always)]
pub(super) fn key_of(m: u32) -> usize {
    let above = (m >> 26) & 0x3f;
    let west = (m >> 22) & 3;
    let east = (m >> 18) & 3;
    let below = (m >> 10) & 0x3f;
    (above | west << 6 | east << 8 | below << 10) as usize
}

/// The window cells outside the key and the anchor, packed into 14 bits:
/// the row two below the anchor (bits 0..8 of the composite, kept in
/// place) and the cells two columns right of it in the rows above, at and
/// below the anchor (composite bits 8, 16 and 24, moved to 8, 10 and 12).
/// A bucket already fixes the anchor's colour and the key cells, so the
/// grid test only has these cells left to check.
#[inline(always)]
pub(super) fn outer_of(m: u32) -> u16 {
    ((m & 0x3ff) | ((m >> 6) & 0xc00) | ((m >> 12) & 0x3000)) as u16
}

/// The key cell `k`'s position inside [`key_of`]'s result.
pub(super) fn key_cell_shift(k: usize) -> u32 {
    let (r, c) = KEY_CELLS[k];
    let composite_shift = grid_shift(r, c).expect("inside the window");
    key_of(1 << composite_shift).trailing_zeros()
}

/// Variant numbers in the buckets: `u16` while the tables hold at most
/// 65,536 variants (GNU Go 2.6 has 8,912), `u32` beyond.
#[derive(Clone, Debug)]
pub(super) enum Ids {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Ids {
    pub(super) fn new(ids: &[u32], variants: usize) -> Ids {
        if variants <= 1 << 16 {
            Ids::Narrow(ids.iter().map(|&v| v as u16).collect())
        } else {
            Ids::Wide(ids.to_vec())
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, e: usize) -> u32 {
        match self {
            Ids::Narrow(v) => u32::from(v[e]),
            Ids::Wide(v) => v[e],
        }
    }

    pub(super) fn width(&self) -> usize {
        match self {
            Ids::Narrow(_) => 2,
            Ids::Wide(_) => 4,
        }
    }
}

/// Buckets of variants, struct of arrays: bucket `b` is the range
/// `starts[b]..starts[b + 1]` of `and`, `val` and `var`, in variant order.
/// `and` and `val` are the grid masks of the cells the bucket leaves open
/// ([`outer_of`]); `reach` is, per bucket, the lane-wise maximum of its
/// variants' [`Place::need`], so that a re-scan can skip a bucket none of
/// whose variants reaches the changed point.
#[derive(Clone, Debug)]
pub(super) struct Index {
    pub(super) starts: Vec<u32>,
    pub(super) and: Vec<u16>,
    pub(super) val: Vec<u16>,
    pub(super) place: Vec<Place>,
    pub(super) var: Ids,
    pub(super) reach: Vec<u32>,
}

impl Index {
    #[inline(always)]
    pub(super) fn range(&self, bucket: usize) -> std::ops::Range<usize> {
        self.starts[bucket] as usize..self.starts[bucket + 1] as usize
    }

    pub(super) fn bytes(&self) -> usize {
        4 * self.starts.len() + 4 * self.reach.len() + (8 + self.var.width()) * self.and.len()
    }
}

/// What a bucket's entries are tested against: the open cells of the
/// anchor's composite and the placement bounds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidates {
    pub(super) o: u16,
    pub(super) room: u32,
    pub(super) least: u32,
}

/// A variant as the index builder sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keyed {
    /// Anchor colour index: 0 mine, 1 theirs.
    pub(super) colour: usize,
    /// [`outer_of`] of the sharpened masks.
    pub(super) and: u16,
    pub(super) val: u16,
    /// Per key cell, the values it may hold (see [`allowed_values`]).
    pub(super) allowed: [u8; 8],
}

/// The variant's masks plus what its edge sides imply inside the window:
/// a cell beyond an edge side is off the board, `11`.
pub(super) fn sharpen(mut and: u32, mut val: u32, x: Extent, edges: u8) -> (u32, u32) {
    for r in -1..=2 {
        for col in -1..=2 {
            let beyond = (edges & side::NORTH != 0 && r < x.min_i as i32)
                || (edges & side::SOUTH != 0 && r > x.max_i as i32)
                || (edges & side::WEST != 0 && col < x.min_j as i32)
                || (edges & side::EAST != 0 && col > x.max_j as i32)
                || (edges & side::LEAST_SUM != 0 && r + col < x.min_s as i32)
                || (edges & side::MOST_SUM != 0 && r + col > x.max_s as i32);
            if beyond {
                let s = grid_shift(r, col).expect("inside the window");
                and |= OFF_BOARD << s;
                val |= OFF_BOARD << s;
            }
        }
    }
    (and, val)
}

/// The 2-bit values key cell `(r, c)` may hold for the variant to match:
/// a bit set over the four values. A cell the masks test allows what the
/// test accepts; an untested cell inside the extent must be on the board
/// (on the hexagon, inside all three bounds: a cell the diagram leaves out
/// at a corner of its rectangle may be off the board); any other cell
/// allows everything.
pub(super) fn allowed_values(and: u32, val: u32, x: Extent, r: i32, col: i32) -> u8 {
    let s = grid_shift(r, col).expect("inside the window");
    let (a, v0) = ((and >> s) & 3, (val >> s) & 3);
    let inside = x.contains(r, col);
    let mut set = 0u8;
    for v in 0..4u32 {
        let ok = if a != 0 || v0 != 0 {
            v & a == v0
        } else {
            !inside || v != OFF_BOARD
        };
        if ok {
            set |= 1 << v;
        }
    }
    set
}

/// Every key compatible with `allowed` (the product of the key cells'
/// allowed values), into `keys`, which is cleared first.
pub(super) fn keys_of(allowed: &[u8; 8], shifts: &[u32; 8], keys: &mut Vec<usize>) {
    keys.clear();
    keys.push(0);
    for k in 0..8 {
        let len = keys.len();
        let mut first = true;
        for v in 0..4usize {
            if allowed[k] & (1 << v) == 0 {
                continue;
            }
            let bits = v << shifts[k];
            if first {
                first = false;
                keys[..len].iter_mut().for_each(|key| *key |= bits);
            } else {
                for t in 0..len {
                    let key = (keys[t] & !(3 << shifts[k])) | bits;
                    keys.push(key);
                }
            }
        }
        if first {
            keys.clear();
            return;
        }
    }
}

/// Puts each variant into every bucket compatible with it, in variant
/// order within each bucket, then merges the keys whose buckets hold the
/// same variants: returns the bucket of every key and the index.
pub(super) fn build_index(keyed: &[Keyed], place: &[Place]) -> (Vec<u32>, Index) {
    let shifts: [u32; 8] = std::array::from_fn(key_cell_shift);
    let mut keys = Vec::new();
    // Pass 1: bucket sizes. Pass 2: fill in variant order.
    let mut starts = vec![0u32; 2 * KEYS + 1];
    for kv in keyed {
        keys_of(&kv.allowed, &shifts, &mut keys);
        for &k in &keys {
            starts[kv.colour * KEYS + k + 1] += 1;
        }
    }
    for b in 0..2 * KEYS {
        starts[b + 1] += starts[b];
    }
    let mut fill = starts.clone();
    let mut ids = vec![0u32; starts[2 * KEYS] as usize];
    for (v, kv) in keyed.iter().enumerate() {
        keys_of(&kv.allowed, &shifts, &mut keys);
        for &k in &keys {
            let b = kv.colour * KEYS + k;
            ids[fill[b] as usize] = v as u32;
            fill[b] += 1;
        }
    }
    // Keys with the same list share one bucket.
    let mut seen: std::collections::HashMap<&[u32], u32> = std::collections::HashMap::new();
    let mut bucket_of = Vec::with_capacity(2 * KEYS);
    let mut unique_starts = vec![0u32];
    let mut unique: Vec<u32> = Vec::new();
    for b in 0..2 * KEYS {
        let list = &ids[starts[b] as usize..starts[b + 1] as usize];
        let next = (unique_starts.len() - 1) as u32;
        let id = *seen.entry(list).or_insert_with(|| {
            unique.extend_from_slice(list);
            unique_starts.push(unique.len() as u32);
            next
        });
        bucket_of.push(id);
    }
    drop(seen);
    let index = make_index(unique_starts, &unique, keyed, place);
    (bucket_of, index)
}

/// Each bucket's lane-wise greatest reach over its variants, for the
/// re-scan's skip test.
fn bucket_reach(starts: &[u32], ids: &[u32], place: &[Place]) -> Vec<u32> {
    starts
        .windows(2)
        .map(|w| {
            ids[w[0] as usize..w[1] as usize]
                .iter()
                .fold(0, |r, &v| lanes_max(r, place[v as usize].need()))
        })
        .collect()
}

/// The index over bucket lists `ids` (bucket `b` is
/// `ids[starts[b]..starts[b + 1]]`).
pub(super) fn make_index(starts: Vec<u32>, ids: &[u32], keyed: &[Keyed], place: &[Place]) -> Index {
    let reach = bucket_reach(&starts, ids, place);
    Index {
        place: ids.iter().map(|&v| place[v as usize]).collect(),
        and: ids.iter().map(|&v| keyed[v as usize].and).collect(),
        val: ids.iter().map(|&v| keyed[v as usize].val).collect(),
        var: Ids::new(ids, keyed.len()),
        starts,
        reach,
    }
}

/// The buckets of `all` restricted to the variants `keep` selects, bucket
/// for bucket (so [`Matcher::bucket_of`] serves both).
pub(super) fn filter_index(all: &Index, place: &[Place], keep: impl Fn(u32) -> bool) -> Index {
    let mut starts = vec![0u32];
    let mut ids = Vec::new();
    let mut and = Vec::new();
    let mut val = Vec::new();
    for b in 0..all.starts.len() - 1 {
        for e in all.range(b) {
            let v = all.var.get(e);
            if keep(v) {
                ids.push(v);
                and.push(all.and[e]);
                val.push(all.val[e]);
            }
        }
        starts.push(ids.len() as u32);
    }
    let reach = bucket_reach(&starts, &ids, place);
    let places = ids.iter().map(|&v| place[v as usize]).collect();
    let var = match all.var {
        Ids::Narrow(_) => Ids::Narrow(ids.iter().map(|&v| v as u16).collect()),
        Ids::Wide(_) => Ids::Wide(ids),
    };
    Index {
        place: places,
        starts,
        and,
        val,
        var,
        reach,
    }
}
