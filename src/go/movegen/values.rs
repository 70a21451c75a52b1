//! What the move generator's own reasons are worth (captures, saves,
//! dragons, the opening, cleaning up) and its random terms, hashed from a
//! key so that they do not depend on how often a position was evaluated.

use crate::go::score::DragonStatus;

/// The value of capturing an opponent string of `stones` stones that
/// could otherwise escape.
pub fn capture_value(stones: usize) -> i32 {
    (35 + 10 * stones as i32).min(150)
}

/// The value of saving an own string of `stones` stones that can be
/// captured and saved.
pub fn save_value(stones: usize) -> i32 {
    (40 + 10 * stones as i32).min(150)
}

/// The most a [`Reason::Dragon`](crate::go::evaluation::Reason::Dragon) is worth.
pub const DRAGON_CAP: i32 = 90;

/// The most stones on the board for [`Reason::Opening`](crate::go::evaluation::Reason::Opening) (0: the empty
/// board only — answering an opponent's first stone was measured worse).
pub const OPENING_STONES: usize = 0;

/// The smallest board side with [`Reason::Corner`] and
/// [`Reason::OpenSide`] (and the search's choice among the open corners,
/// `SearchOptions::corners`). On 13x13 they were measured: the search
/// restricted to the open corners in the opening won 7 of 20 games
/// against GNU Go level 10 where the same engine without them had won 10
/// of the same 20 (`docs/go-strength.md`, "The corners"), so 13x13 plays
/// as before.
///
/// [`Reason::Corner`]: crate::go::evaluation::Reason::Corner
/// [`Reason::OpenSide`]: crate::go::evaluation::Reason::OpenSide
pub const FUSEKI_FROM_SIDE: usize = 17;

/// The side of a corner's square that must be empty of stones for the
/// corner to count as empty: 8 points on 19x19, 7 on 17x17 (GNU Go's
/// fuseki looked at an 8x8 square on 19x19).
pub fn corner_square(side: usize) -> i32 {
    (side * 8 / 19) as i32
}

/// What a corner point is worth by its lines from the two edges (0: the
/// first line) and the stones in the corner's square (0 or 1), or `None`
/// for a point that is not one of the corner's opening points: in an
/// empty corner the 4-4 point most, then the 3-4 points, then the 3-3
/// point; in a corner with one stone (not next to the point: the other
/// key point of a corner taken on its 3-5 or 4-5 point, an enclosure or
/// an approach) a little less. Above every pattern of GNU Go 2.6's
/// database but its few largest: that database was written for an
/// engine whose separate fuseki module took the corners first, and a
/// search on a big board does not find them by itself (its random games
/// cannot see a corner's worth forty moves early).
pub fn corner_value(a: i32, b: i32, stones: usize) -> Option<i32> {
    let base = match (a.min(b), a.max(b)) {
        (3, 3) => 90,
        (2, 3) => 88,
        (2, 2) => 85,
        _ => return None,
    };
    match stones {
        0 => Some(base),
        1 => Some(base - 4),
        _ => None,
    }
}

/// What the middle of an open stretch of `run` points on the third or
/// fourth line of a side is worth ([`Reason::OpenSide`]): a big point,
/// below the empty corners, more the longer the stretch.
///
/// [`Reason::OpenSide`]: crate::go::evaluation::Reason::OpenSide
pub fn open_side_value(run: i32, third_line: bool) -> i32 {
    70 + run.min(8) + i32::from(third_line)
}

/// What a move that turned the weak dragon `before` into `after` is
/// worth: for an own dragon (`mine`) its gain, for an opponent's its loss.
pub(super) fn dragon_change_value(
    before: &crate::go::dragons::Dragon,
    after: &crate::go::dragons::Dragon,
    mine: bool,
    size: i32,
) -> i32 {
    use DragonStatus::*;
    let rank = |s: DragonStatus| match s {
        Dead => 0,
        Critical => 1,
        Unknown => 2,
        Alive => 3,
    };
    let eyes = |d: &crate::go::dragons::Dragon| d.half_eyes.min(4) as i32;
    if mine {
        if after.status == Alive && before.status != Alive {
            35 + 3 * size
        } else if rank(after.status) < rank(before.status) {
            0
        } else if eyes(after) > eyes(before) {
            20 + 4 * (eyes(after) - eyes(before)) + 2 * size
        } else if rank(after.status) > rank(before.status) {
            25 + 2 * size
        } else {
            0
        }
    } else if after.status == Dead && before.status != Dead {
        35 + 3 * size
    } else if rank(after.status) > rank(before.status) {
        0
    } else if eyes(after) < eyes(before) {
        18 + 4 * (eyes(before) - eyes(after)) + size
    } else {
        0
    }
}

/// The value of capturing a string in atari that is dead whoever moves
/// first: cleaning up, worth a little more than filling.
pub(super) fn cleanup_value(stones: usize) -> i32 {
    (16 + stones as i32).min(24)
}

/// A number in `lo..=hi` from the key.
pub(super) fn random_in(key: u64, lo: i32, hi: i32) -> i32 {
    if hi <= lo {
        return lo;
    }
    lo + (crate::seeding::splitmix(key) % (hi - lo + 1) as u64) as i32
}
