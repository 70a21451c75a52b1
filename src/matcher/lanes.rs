//! Placement lanes: a variant's reach north, west, south and east of its
//! anchor as four byte lanes of a `u32`, tested against the room a board
//! point has (and, for re-scans, the least reach that covers a changed
//! point) sixteen entries at a time, without branches.

use crate::position::Point;

/// The placement test of one variant in four byte lanes (north, west,
/// south, east): each lane holds how far the transformed diagram reaches
/// from the anchor towards that side (`-min_i`, `-min_j`, `max_i`,
/// `max_j`, all 0..=25) in its low seven bits, and its high bit is set
/// when that side must lie on the board edge. See [`Place::fits`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place(pub(super) u32);

/// The high bit of each byte lane.
pub(super) const LANE_HIGH: u32 = 0x8080_8080;

/// Four values 0..=127 packed into byte lanes (north, west, south, east).
#[inline(always)]
pub(super) fn lanes(north: i32, west: i32, south: i32, east: i32) -> u32 {
    north as u32 | (west as u32) << 8 | (south as u32) << 16 | (east as u32) << 24
}

impl Place {
    /// How far the diagram reaches, per lane.
    #[inline(always)]
    pub(super) fn need(self) -> u32 {
        self.0 & !LANE_HIGH
    }

    /// Does the placement fit? `room` holds the anchor's distances to the
    /// four sides of the board: the diagram must reach no further
    /// (`need <= room`), and exactly that far on an edge side. `least`
    /// holds lower bounds on `need` (0 for a full scan; for
    /// [`Matcher::scan_near`], how far it must reach to cover the changed
    /// point). Lane-parallel compares of 7-bit values: `(x | 0x80) - y`
    /// keeps a lane's high bit exactly when `x >= y`, and no lane borrows
    /// from the next. Branch-free, so the bucket loop tests it alongside
    /// the grid test.
    #[inline(always)]
    pub(super) fn fits(self, room: u32, least: u32) -> bool {
        let need = self.need();
        let edge_bits = self.0 & LANE_HIGH;
        // 0x7f in the lanes of edge sides.
        let edge = edge_bits - (edge_bits >> 7);
        let ge_least = (self.0 | LANE_HIGH) - least;
        let le_room = (room | LANE_HIGH) - need;
        (ge_least & le_room & LANE_HIGH == LANE_HIGH) & ((need ^ room) & edge == 0)
    }
}

/// The anchor's distances to the board sides, as [`Place::fits`] takes
/// them.
#[inline(always)]
pub(super) fn room_of(anchor: Point, n: i32) -> u32 {
    lanes(anchor.i, anchor.j, n - 1 - anchor.i, n - 1 - anchor.j)
}

/// How far a placement anchored on `anchor` must reach to cover `changed`.
#[inline(always)]
pub(super) fn least_to_cover(anchor: Point, changed: Point) -> u32 {
    lanes(
        (anchor.i - changed.i).max(0),
        (anchor.j - changed.j).max(0),
        (changed.i - anchor.i).max(0),
        (changed.j - anchor.j).max(0),
    )
}

/// Lane-wise maximum of two [`lanes`] values.
pub(super) fn lanes_max(a: u32, b: u32) -> u32 {
    (0..4).fold(0, |acc, k| {
        let s = 8 * k;
        acc | ((a >> s) & 0xff).max((b >> s) & 0xff) << s
    })
}
