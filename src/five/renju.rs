//! Renju's forbidden points for Black, fast enough for a search.
//!
//! Black's stone on an empty point `p` is *forbidden* when it makes, with
//! `p` among the stones,
//!
//! - no exact five in any direction (a five always wins, whatever else the
//!   move makes), and
//! - an overline (six or more in a row), or
//! - two fours or more: a *four* is four stones of a line that one more
//!   stone makes an exact five; `.XXXX.` is one four (the same four
//!   stones, completed at either end), while `X.XXX.X` or `XX.XX.XX`
//!   played in the middle are two fours on one line; or
//! - two threes or more: a *three* is a line, with no four on it, that
//!   one more Black stone turns into a straight four (four in a row whose
//!   two ends each make an exact five) — and only if that stone is itself
//!   not forbidden, which is decided by the same definition, recursively
//!   (each level adds a stone, so it ends).
//!
//! Only the four lines through `p` are read, eleven cells each (five
//! either side): every four and straight four that includes `p` lies
//! within them. The check places its trial stones on a copy of the
//! board's array, so it allocates nothing. `tests.rs` holds the plain
//! model it is tested against (`reference`).

use super::rules::{Grid, BLACK, EMPTY};

/// Whether a forbidden shape is possible at all at `at`: the smallest
/// (a double three, or `X.XXX.X`) needs four more Black stones on the
/// lines through it, within five points. Cheap, and most points fail it,
/// so a search rarely pays for [`forbidden`]'s copy of the board.
pub(super) fn may_be_forbidden(g: &Grid, at: usize) -> bool {
    let near: usize = g
        .steps()
        .iter()
        .map(|&step| line(g, at, step).iter().filter(|&&c| c == BLACK).count())
        .sum();
    near >= 4
}

/// Whether Black on the empty cell `at` is forbidden.
pub(super) fn forbidden(g: &mut Grid, at: usize) -> bool {
    debug_assert_eq!(g.cells[at], EMPTY);
    g.cells[at] = BLACK;
    let answer = forbidden_placed(g, at);
    g.cells[at] = EMPTY;
    answer
}

/// [`forbidden`] with Black's stone already on `at`.
fn forbidden_placed(g: &mut Grid, at: usize) -> bool {
    // A copy: the threes below place trial stones on `g`.
    let mut all = [0; 4];
    let steps = &mut all[..g.steps().len()];
    steps.copy_from_slice(g.steps());
    let steps = &*steps;
    let mut runs = [0; 4];
    for (n, &step) in runs.iter_mut().zip(steps) {
        *n = g.run(at, step, BLACK);
    }
    if runs.contains(&5) {
        return false;
    }
    if runs.iter().any(|&n| n > 5) {
        return true;
    }
    let mut fours = 0;
    let mut without_four = [false; 4];
    for (k, &step) in steps.iter().enumerate() {
        let n = fours_on(&line(g, at, step));
        fours += n;
        without_four[k] = n == 0;
    }
    if fours >= 2 {
        return true;
    }
    let mut threes = 0;
    for (k, &step) in steps.iter().enumerate() {
        if without_four[k] && three_on(g, at, step) {
            threes += 1;
            if threes >= 2 {
                return true;
            }
        }
    }
    false
}

/// The cells `at + k·step` for `k` in `-5..=5`: index 5 is `at`.
fn line(g: &Grid, at: usize, step: isize) -> [u8; 11] {
    std::array::from_fn(|k| g.cells[(at as isize + (k as isize - 5) * step) as usize])
}

/// The fours of a line that include its centre: the five-cell windows
/// through the centre holding four Black stones and one empty point,
/// with no Black stone just outside (the five would be an overline),
/// counted once per set of four stones (a straight four's two windows
/// share theirs).
fn fours_on(l: &[u8; 11]) -> u32 {
    // `gap[s]`: the empty cell of window `s..s + 5` when it makes a five.
    let mut gap = [None; 6];
    let mut count = 0;
    for s in 1..=5 {
        let window = &l[s..s + 5];
        if window.iter().any(|&c| c != BLACK && c != EMPTY)
            || window.iter().filter(|&&c| c == BLACK).count() != 4
            || l[s - 1] == BLACK
            || l[s + 5] == BLACK
        {
            continue;
        }
        let e = s + window.iter().position(|&c| c == EMPTY).expect("one empty");
        gap[s] = Some(e);
        count += 1;
        if s > 1 && gap[s - 1] == Some(s - 1) && e == s + 4 {
            count -= 1; // `.XXXX.`: one four, two ways to complete it
        }
    }
    count
}

/// Whether a Black stone on the line through `at` (within three points,
/// so that the straight four includes `at`) makes a straight four through
/// `at` and is itself not forbidden.
fn three_on(g: &mut Grid, at: usize, step: isize) -> bool {
    let l = line(g, at, step);
    for k in (2..=8).filter(|&k| k != 5 && l[k] == EMPTY) {
        let mut m = l;
        m[k] = BLACK;
        if straight_four(&m) {
            let q = (at as isize + (k as isize - 5) * step) as usize;
            if !forbidden(g, q) {
                return true;
            }
        }
    }
    false
}

/// Whether the row through the centre is a straight four: exactly four
/// stones, an empty point at each end, and each end making an exact five.
fn straight_four(m: &[u8; 11]) -> bool {
    let mut a = 5;
    while a > 0 && m[a - 1] == BLACK {
        a -= 1;
    }
    let mut b = 5;
    while b < 10 && m[b + 1] == BLACK {
        b += 1;
    }
    b + 1 - a == 4
        && a >= 2
        && b <= 8
        && m[a - 1] == EMPTY
        && m[b + 1] == EMPTY
        && m[a - 2] != BLACK
        && m[b + 2] != BLACK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> [u8; 11] {
        let v: Vec<u8> = s
            .bytes()
            .map(|c| match c {
                b'X' => BLACK,
                b'.' => EMPTY,
                _ => super::super::rules::WHITE,
            })
            .collect();
        v.try_into().unwrap()
    }

    #[test]
    fn fours_on_one_line() {
        // The centre (index 5) is the move.
        assert_eq!(fours_on(&cells("...XXXX....")), 1); // straight four
        assert_eq!(fours_on(&cells("..OXXXX....")), 1); // closed four
        assert_eq!(fours_on(&cells("..OXXXXO...")), 0); // dead
        assert_eq!(fours_on(&cells("...X.XXX.X.")), 2); // X.XXX.X
        assert_eq!(fours_on(&cells("..XX.XX.XX.")), 2); // XX.XX.XX
        assert_eq!(fours_on(&cells("..X.XXX....")), 1);
        assert_eq!(fours_on(&cells(".XX.XX.....")), 1);
        assert_eq!(fours_on(&cells("X.X.XX.....")), 0);
        assert_eq!(fours_on(&cells(".X.XXXX....")), 1); // the left end makes six
        assert_eq!(fours_on(&cells("...XXX.....")), 0);
    }

    #[test]
    fn straight_fours() {
        assert!(straight_four(&cells("...XXXX....")));
        assert!(straight_four(&cells("....XXXX...")));
        assert!(!straight_four(&cells("..OXXXX....")));
        assert!(!straight_four(&cells(".X.XXXX....")));
        assert!(!straight_four(&cells("...XXXXX...")));
        assert!(!straight_four(&cells("...XXX.....")));
    }
}
