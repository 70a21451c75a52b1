//! Fixture helpers module for mkpat's tests. It is read as text by
//! `mkpat::HelperSet::from_source`, never compiled.

use crate::position::HelperContext;

/// Refuses a move that would be a self-atari.
pub fn not_self_atari_helper(ctx: &HelperContext<'_>) -> i32 {
    ctx.weight()
}

/// The seed's example helper.
pub fn sente_hane_helper(ctx: &HelperContext<'_>) -> i32 {
    ctx.weight()
}

/// Any path ending in `HelperContext` will do.
pub fn defend_bamboo_helper(c: &crate::position::HelperContext) -> i32 {
    0
}

/// Has the wrong signature: takes coordinates and returns nothing useful.
pub fn wrong_signature_helper(ti: i32, tj: i32) -> bool {
    false
}

/// Not public: not a helper.
fn private_helper(ctx: &HelperContext<'_>) -> i32 {
    0
}
