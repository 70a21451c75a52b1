//! Helper functions named by katachi's own pattern database.
//!
//! mkpat reads this file at build time: every `pub fn` here with the helper
//! signature `fn(&HelperContext<'_>) -> i32` may be named on an attribute
//! line, and the build fails at the `.db` line that names any other. A
//! helper returns the value of the move (at most the pattern's weight), or
//! 0 to reject the match. Offsets are counted from the move in the
//! untransformed diagram; `ctx.offset` maps them through the transformation.

use crate::position::HelperContext;

/// Accepts the move only when the stone played would not be in atari at
/// once (two or more liberties): a cheap guard for extending moves.
pub fn not_self_atari_helper(ctx: &HelperContext<'_>) -> i32 {
    if ctx.position.liberties_after(ctx.move_point, ctx.color) >= 2 {
        ctx.pattern.weight
    } else {
        0
    }
}
