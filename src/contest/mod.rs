//! The hexagonal contest of seed 003: five in a row on the 217-cell
//! board, played by separate programs through files.
//!
//! - [`protocol`]: `state_N.txt` and `move_N.txt`, read with located
//!   errors and written atomically;
//! - [`judge`]: the judge, who asks each team in turn, checks every rule
//!   and names the one broken;
//! - [`log`]: the judge's game log, written and read back;
//! - [`player`]: katachi's team, the five-in-a-row engine on the hexagon
//!   behind the files;
//! - [`picture`]: the board as SVG (and PNG) from a state file or a log.
//!
//! `docs/hex.md` describes the protocol, the numbering and how to run a
//! contest.

pub mod judge;
pub mod log;
pub mod picture;
pub mod player;
pub mod protocol;
