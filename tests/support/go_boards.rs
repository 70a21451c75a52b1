//! 9x9 Go positions shared by the tests of passing and of the GTP
//! commands (`tests/go_passing.rs`, `tests/gtp_commands.rs`).

#![allow(dead_code)] // each test crate uses some of them

/// Black's walls on columns C and F with territory on A-B and D-E, white's
/// wall on G with territory on H-J: black leads by 54 to 27 on the board.
pub const SETTLED: [&str; 9] = [". . X . . X O . ."; 9];

/// [`SETTLED`] with row 5 (from the top) replaced by `row`: the stones a
/// test adds inside the territories.
pub fn settled_with_row5(row: &'static str) -> [&'static str; 9] {
    let mut rows = SETTLED;
    rows[4] = row;
    rows
}
