//! The helpers `patterns/shapes.db` names. mkpat reads this file at build
//! time: every `pub fn NAME(ctx: &HelperContext<'_>) -> i32` may be named
//! on an attribute line, and the build fails at the line naming another.

use crate::HelperContext;

/// `OO*` is worth its weight only when the line through it has room for
/// five: the move, the two stones and enough points beyond, on the board
/// and not the opponent's. Offsets are counted in the diagram as written
/// (`ctx.offset` places them on the board whatever the transformation).
pub fn room_for_five(ctx: &HelperContext<'_>) -> i32 {
    let open = |dj: i32| {
        let p = ctx.offset(0, dj);
        ctx.position.on_board(p) && !ctx.theirs(p)
    };
    // West of the stones (columns -3, -4, ...) and east of the move.
    let west = (3..7).take_while(|&k| open(-k)).count();
    let east = (1..5).take_while(|&k| open(k)).count();
    if 3 + west + east >= 5 {
        ctx.weight
    } else {
        0
    }
}
