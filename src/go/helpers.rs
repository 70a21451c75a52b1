//! Helper functions named by katachi's own pattern database.
//!
//! mkpat reads this file at build time: every `pub fn` here with the helper
//! signature `fn(&HelperContext<'_>) -> i32` may be named on an attribute
//! line, and the build fails at the `.db` line that names any other. A
//! helper returns the value of the move (at most the pattern's weight), or
//! 0 to reject the match. Offsets are counted from the move in the
//! untransformed diagram; `ctx.offset` maps them through the transformation.
//!
//! Each helper's comment shows a diagram it serves, on the left as it is
//! written in `patterns/patterns.db`, on the right with letters on the
//! points the helper inspects (`*` is always the move). Every pattern that
//! names a helper has the cells it inspects at the same offsets; the tests
//! below check that against the compiled tables. `docs/patterns.md` lists
//! which patterns use which helper.
//!
//! The helpers read the position as it is before the move. Liberty counts
//! after the move come from [`GoPosition::liberties_after`], which ignores
//! captures: the helpers are cheap tactical filters, not a reading engine.

use crate::go::position::{GoPosition, HelperContext};
use crate::position::Point;

/// Accepts the move only when the stone played would not be in atari at
/// once (two or more liberties): a cheap guard for extending, blocking and
/// hane moves. It inspects only the move, so it serves any diagram, e.g.
///
/// ```text
/// ?OO.?        ?OO.?
/// .XX*.        .XX*.     * must have two liberties once played
/// ?...?        ?...?
/// -----        -----
/// ```
pub fn not_self_atari_helper(ctx: &HelperContext<'_>) -> i32 {
    if ctx.position.liberties_after(ctx.move_point, ctx.color) >= 2 {
        ctx.weight
    } else {
        0
    }
}

/// Captures the opponent string at `a`, which must be in atari (its one
/// liberty is then `*`). Capturing more stones is worth more: one stone
/// earns 2/3 of the weight, two 5/6, three or more all of it. Capturing a
/// string that has one of our strings in atari earns the full weight
/// whatever its size, since the capture also rescues our stones.
///
/// ```text
/// ?O??        ?O??
/// OX*x        Oa*x
/// ?o??        ?o??
/// ```
pub fn capture_helper(ctx: &HelperContext<'_>) -> i32 {
    let a = ctx.offset(0, -1);
    if !ctx.theirs(a) || ctx.position.liberties(a) != 1 {
        return 0;
    }
    let string = ctx.position.string(a);
    let rescues = string
        .iter()
        .flat_map(|s| s.neighbours())
        .any(|q| ctx.mine(q) && ctx.position.liberties(q) == 1);
    let w = ctx.weight;
    if rescues {
        w
    } else {
        w * (string.len().min(3) as i32 + 3) / 6
    }
}

/// Ataris the opponent string at `a`, which must have exactly two
/// liberties, `*` and one more, `l`. The stone played must not be in atari
/// itself. The atari is worth the full weight when `a` cannot escape by
/// extending to `l` (it would have at most one liberty left), three
/// quarters when it would have two (it can be chased, as in a ladder), and
/// half when it escapes with three or more (a mere forcing move).
///
/// ```text
/// ?O??        ?O??
/// .X*.        la*.
/// ?OO?        ?OO?
/// ```
pub fn atari_helper(ctx: &HelperContext<'_>) -> i32 {
    let a = ctx.offset(0, -1);
    if !ctx.theirs(a) {
        return 0;
    }
    let libs = liberty_points(ctx.position, a);
    if libs.len() != 2 || !libs.contains(&ctx.move_point) {
        return 0;
    }
    if ctx.position.liberties_after(ctx.move_point, ctx.color) < 2 {
        return 0;
    }
    let l = if libs[0] == ctx.move_point {
        libs[1]
    } else {
        libs[0]
    };
    // Extending at `l` keeps `*` as a liberty in the count; our move takes it.
    let escape = ctx
        .position
        .liberties_after(l, ctx.color.other())
        .saturating_sub(1);
    let w = ctx.weight;
    match escape {
        0 | 1 => w,
        2 => w * 3 / 4,
        _ => w / 2,
    }
}

/// Extends our string at `a`, which is in atari, by playing on its last
/// liberty `*`. Accepted only when the extended string has at least three
/// liberties: with two the opponent ataris again and may run it down in a
/// ladder, with one the extension is useless.
///
/// ```text
/// ?X..?        ?X..?
/// XO*..        Xa*..
/// ?X..O        ?X..O
/// ```
pub fn escape_helper(ctx: &HelperContext<'_>) -> i32 {
    let a = ctx.offset(0, -1);
    if !ctx.mine(a) || ctx.position.liberties(a) != 1 {
        return 0;
    }
    if ctx.position.liberties_after(ctx.move_point, ctx.color) >= 3 {
        ctx.weight
    } else {
        0
    }
}

/// Cuts the opponent's diagonal `a`–`b` beside our stone `c`. Rejected
/// when `a` and `b` are already one string (nothing to cut), when the
/// cutting stone would be in atari, or when `c` has a single liberty (the
/// opponent captures it and the cut falls apart). The cut is worth the full
/// weight when it leaves `a` or `b` with two liberties or fewer, three
/// quarters otherwise.
///
/// ```text
/// OX?        ca?
/// X*.        b*.
/// ?..        ?..
/// ```
pub fn cut_helper(ctx: &HelperContext<'_>) -> i32 {
    let (a, b, c) = (ctx.offset(-1, 0), ctx.offset(0, -1), ctx.offset(-1, -1));
    if !ctx.theirs(a) || !ctx.theirs(b) || !ctx.mine(c) {
        return 0;
    }
    if ctx.position.string(a).contains(&b) {
        return 0;
    }
    if ctx.position.liberties_after(ctx.move_point, ctx.color) < 2 || ctx.position.liberties(c) < 2
    {
        return 0;
    }
    // `*` is a liberty of both strings; the cut takes it away.
    let weakest = ctx
        .position
        .liberties(a)
        .min(ctx.position.liberties(b))
        .saturating_sub(1);
    let w = ctx.weight;
    if weakest <= 2 {
        w
    } else {
        w * 3 / 4
    }
}

/// Connects our diagonal `a`–`b` against the opponent's stone `c`, which
/// threatens to cut at `*`. Rejected when `a` and `b` are already one
/// string, and when `c` is in atari: capturing it is the better way to
/// connect, and the capture patterns propose that. The connection is worth
/// the full weight when `a` or `b` has two liberties or fewer (the cut
/// would hurt at once), four fifths otherwise.
///
/// ```text
/// XO?        ca?
/// O*X        b*X
/// ?X.        ?X.
/// ```
pub fn connect_helper(ctx: &HelperContext<'_>) -> i32 {
    let (a, b, c) = (ctx.offset(-1, 0), ctx.offset(0, -1), ctx.offset(-1, -1));
    if !ctx.mine(a) || !ctx.mine(b) || !ctx.theirs(c) {
        return 0;
    }
    if ctx.position.string(a).contains(&b) || ctx.position.liberties(c) == 1 {
        return 0;
    }
    let weakest = ctx.position.liberties(a).min(ctx.position.liberties(b));
    let w = ctx.weight;
    if weakest <= 2 {
        w
    } else {
        w * 4 / 5
    }
}

/// Hane at the head of the opponent's stones `b`, diagonally in front of
/// our stone `a`. The opponent answers a hane by cutting at `c`, so the
/// hane is accepted only when, after that cut, both the hane stone and `a`
/// keep at least two liberties. It is worth the full weight when it also
/// leaves `b` short of liberties (three or fewer), four fifths otherwise.
///
/// ```text
/// ?.*.?        ?c*.?
/// ?OX.?        ?ab.?
/// ?OX..        ?OX..
/// ??o??        ??o??
/// ```
pub fn head_hane_helper(ctx: &HelperContext<'_>) -> i32 {
    let (a, b, c) = (ctx.offset(1, -1), ctx.offset(1, 0), ctx.offset(0, -1));
    if !ctx.mine(a) || !ctx.theirs(b) || !ctx.position.is_empty(c) {
        return 0;
    }
    // `c` touches both the hane stone and `a`: the cut takes one liberty
    // from each.
    let hane = ctx.position.liberties_after(ctx.move_point, ctx.color);
    let ours = ctx.position.liberties(a);
    if hane.saturating_sub(1) < 2 || ours.saturating_sub(1) < 2 {
        return 0;
    }
    let w = ctx.weight;
    if ctx.position.liberties(b).saturating_sub(1) <= 3 {
        w
    } else {
        w * 4 / 5
    }
}

/// Makes an eye at `e`: accepted only when, once `*` is played, every
/// neighbour of `e` on the board is ours, and the diagonals of `e` make it
/// a real eye rather than a false one: no opponent stone on them when `e`
/// is on the edge or in the corner, at most one in the centre.
///
/// ```text
/// ?X??        ?X??
/// OO*O        OO*O
/// OO.O        OOeO
/// ?OOX        ?OOX
/// ```
pub fn eye_helper(ctx: &HelperContext<'_>) -> i32 {
    let e = ctx.offset(1, 0);
    if !ctx.position.is_empty(e) {
        return 0;
    }
    let enclosed = e
        .neighbours()
        .into_iter()
        .filter(|&q| ctx.position.on_board(q))
        .all(|q| q == ctx.move_point || ctx.mine(q));
    if !enclosed {
        return 0;
    }
    let diagonals =
        [(-1, -1), (-1, 1), (1, -1), (1, 1)].map(|(di, dj)| Point::new(e.i + di, e.j + dj));
    let on_edge = diagonals.iter().any(|&q| !ctx.position.on_board(q));
    let hostile = diagonals.iter().filter(|&&q| ctx.theirs(q)).count();
    if hostile <= usize::from(!on_edge) {
        ctx.weight
    } else {
        0
    }
}

/// The liberties of the string through `p`, in a fixed order.
fn liberty_points(position: &dyn GoPosition, p: Point) -> Vec<Point> {
    let mut libs: Vec<Point> = Vec::new();
    for s in position.string(p) {
        for q in s.neighbours() {
            if position.is_empty(q) && !libs.contains(&q) {
                libs.push(q);
            }
        }
    }
    libs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::builtin::{ELEMENTS, PATTERNS};
    use crate::go::position::HelperFn;
    use crate::position::{Color, Position};
    use mkpat::tables::{Cell, Pattern};
    use mkpat::transform;

    // The matcher's board is the position the helpers are tested on.
    use crate::board::Board as TestBoard;

    /// Lays out `rows` (`O` black, `X` white, `.` and `*` empty, anything
    /// else left empty) on a `size` board, transformed by `trans`, with the
    /// `*` on `at`. Returns the board and the move point.
    fn place(rows: &[&str], trans: u8, size: usize, at: Point) -> TestBoard {
        let star = rows
            .iter()
            .enumerate()
            .find_map(|(r, row)| row.find('*').map(|c| (r as i32, c as i32)))
            .expect("a `*` in the test diagram");
        let mut board = TestBoard::new(size);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let (di, dj) = transform::apply(trans, r as i32 - star.0, c as i32 - star.1);
                let p = Point::new(at.i + di, at.j + dj);
                match ch {
                    'O' => {
                        board.set(p, Some(Color::Black));
                    }
                    'X' => {
                        board.set(p, Some(Color::White));
                    }
                    '.' | '*' => {
                        board.set(p, None);
                    }
                    _ => {}
                }
            }
        }
        board
    }

    /// The first built-in pattern naming `helper`.
    fn pattern_for(helper: &str) -> &'static Pattern {
        PATTERNS
            .iter()
            .find(|p| p.helper.as_deref() == Some(helper))
            .unwrap_or_else(|| panic!("no pattern names {helper}"))
    }

    /// Runs `f` for `helper`'s pattern with black as `O`.
    fn run(f: HelperFn, helper: &str, board: &TestBoard, trans: u8, at: Point) -> i32 {
        let pattern = pattern_for(helper);
        let ctx = HelperContext {
            geometry: mkpat::geometry::Geometry::Square,
            pattern,
            weight: pattern.values.go().map_or(0, |g| g.weight),
            trans,
            move_point: at,
            color: Color::Black,
            position: board,
        };
        f(&ctx)
    }

    fn weight(helper: &str) -> i32 {
        pattern_for(helper).values.go().map_or(0, |g| g.weight)
    }

    const MID: Point = Point::new(6, 6);

    #[test]
    fn every_helper_is_named_by_the_database() {
        for (name, _) in crate::go::builtin::HELPERS.iter() {
            pattern_for(name);
        }
        assert!(crate::go::builtin::HELPERS.len() >= 4);
    }

    /// An offset from the move and the cell a diagram must have there.
    type Inspected = (i32, i32, Cell);

    /// The cells each helper inspects, as offsets from the move, with the
    /// cell every pattern naming it must have there.
    const INSPECTED: &[(&str, &[Inspected])] = &[
        ("capture_helper", &[(0, -1, Cell::Theirs)]),
        ("atari_helper", &[(0, -1, Cell::Theirs)]),
        ("escape_helper", &[(0, -1, Cell::Mine)]),
        (
            "cut_helper",
            &[
                (-1, 0, Cell::Theirs),
                (0, -1, Cell::Theirs),
                (-1, -1, Cell::Mine),
            ],
        ),
        (
            "connect_helper",
            &[
                (-1, 0, Cell::Mine),
                (0, -1, Cell::Mine),
                (-1, -1, Cell::Theirs),
            ],
        ),
        (
            "head_hane_helper",
            &[
                (1, -1, Cell::Mine),
                (1, 0, Cell::Theirs),
                (0, -1, Cell::Empty),
            ],
        ),
        ("eye_helper", &[(1, 0, Cell::Empty)]),
        ("not_self_atari_helper", &[]),
    ];

    #[test]
    fn diagrams_agree_with_their_helpers() {
        for p in PATTERNS.iter() {
            let Some(h) = p.helper.as_deref() else {
                continue;
            };
            let (_, cells) = INSPECTED
                .iter()
                .find(|(n, _)| *n == h)
                .unwrap_or_else(|| panic!("pattern {} names {h}, unknown to this test", p.name));
            for &(di, dj, want) in cells.iter() {
                let (i, j) = (p.move_di as i32 + di, p.move_dj as i32 + dj);
                let found = ELEMENTS[p.elements.range()]
                    .iter()
                    .find(|e| e.di() == i && e.dj() == j)
                    .map(|e| e.cell());
                assert_eq!(
                    found,
                    Some(want),
                    "pattern {} ({h}): cell ({di},{dj}) from the move",
                    p.name
                );
            }
        }
    }

    #[test]
    fn not_self_atari() {
        let h = "not_self_atari_helper";
        let ok = ["?OO.?", ".XX*.", "?...?"];
        let cramped = ["?OOX?", ".XX*X", "?.X.?"];
        for t in [0, 3, 6] {
            let b = place(&ok, t, 13, MID);
            assert_eq!(run(not_self_atari_helper, h, &b, t, MID), weight(h));
            let b = place(&cramped, t, 13, MID);
            assert_eq!(run(not_self_atari_helper, h, &b, t, MID), 0, "trans {t}");
        }
    }

    #[test]
    fn capture_takes_strings_in_atari_only() {
        let h = "capture_helper";
        let w = weight(h);
        // One stone in atari: two thirds of the weight.
        let one = [".O..", "OX*.", ".O.."];
        // Two stones in atari: five sixths.
        let two = ["..O..", ".OXO.", ".OX*.", "..O.."];
        // Not in atari: a liberty at the bottom.
        let free = [".O..", "OX*.", "...."];
        // Capturing one stone rescues our stone in atari above it.
        let rescue = ["....", ".XOX", ".OX*", "..O."];
        for t in 0..8 {
            let run_on = |rows: &[&str]| run(capture_helper, h, &place(rows, t, 13, MID), t, MID);
            assert_eq!(run_on(&one), w * 4 / 6, "trans {t}");
            assert_eq!(run_on(&two), w * 5 / 6, "trans {t}");
            assert_eq!(run_on(&free), 0, "trans {t}");
            assert_eq!(run_on(&rescue), w, "trans {t}");
        }
        // The stone to capture is at `a` in the diagram's own frame: a
        // transformation that puts the atari'd stone elsewhere rejects.
        let b = place(&one, 0, 13, MID);
        assert_eq!(run(capture_helper, h, &b, 2, MID), 0);
    }

    #[test]
    fn atari_values_the_escape() {
        let h = "atari_helper";
        let w = weight(h);
        // After the atari, extending to `l` leaves no way out.
        let trapped = [".OO..", "O.X*.", ".OO.."];
        // Extending to `l` gets three liberties: a mere forcing move.
        let loose = [".O..", ".X*.", ".OO."];
        // Three liberties: no atari at all.
        let free = ["....", ".X*.", "...."];
        // The atari stone itself would be in atari.
        let selfatari = [".OX.", ".X*X", ".O.."];
        for t in [0, 1, 5, 7] {
            let b = place(&trapped, t, 13, MID);
            assert_eq!(run(atari_helper, h, &b, t, MID), w, "trans {t}");
            let b = place(&loose, t, 13, MID);
            assert_eq!(run(atari_helper, h, &b, t, MID), w / 2, "trans {t}");
            let b = place(&free, t, 13, MID);
            assert_eq!(run(atari_helper, h, &b, t, MID), 0, "trans {t}");
            let b = place(&selfatari, t, 13, MID);
            assert_eq!(run(atari_helper, h, &b, t, MID), 0, "trans {t}");
        }
        // A ladder-like chase: after extending, two liberties.
        let chase = [".OO..", "..X*.", "..O..", "....."];
        let b = place(&chase, 4, 13, MID);
        assert_eq!(run(atari_helper, h, &b, 4, MID), w * 3 / 4);
    }

    #[test]
    fn escape_needs_three_liberties() {
        let h = "escape_helper";
        let w = weight(h);
        let runs = [".X...", "XO*..", ".X..."];
        let caught = [".XX..", "XO*..", ".X..."];
        let not_in_atari = [".....", "XO*..", ".X..."];
        for t in [0, 2, 4, 6] {
            let b = place(&runs, t, 13, MID);
            assert_eq!(run(escape_helper, h, &b, t, MID), w, "trans {t}");
            let b = place(&caught, t, 13, MID);
            assert_eq!(run(escape_helper, h, &b, t, MID), 0, "trans {t}");
            let b = place(&not_in_atari, t, 13, MID);
            assert_eq!(run(escape_helper, h, &b, t, MID), 0, "trans {t}");
        }
        // Joining a friendly group counts its liberties.
        let joins = [".XXO.", "XO*O.", ".XX..", "....."];
        let b = place(&joins, 3, 13, MID);
        assert_eq!(run(escape_helper, h, &b, 3, MID), w);
    }

    #[test]
    fn cut_needs_a_real_separation() {
        let h = "cut_helper";
        let w = weight(h);
        // Both X stones have few liberties after the cut.
        let sharp = ["..O..", ".OX..", ".X*..", ".O...", "....."];
        // Long strings: the cut is worth three quarters.
        let open = ["..X..", ".OX..", ".X*..", ".X...", "....."];
        // X is already connected around the back.
        let joined = ["XXXX.", "X..X.", "X.OX.", "XXX*.", "....."];
        // Our stone `c` is in atari: X captures it.
        let weak = [".X...", ".OX..", ".X*..", "....."];
        for t in [0, 1, 6, 7] {
            let b = place(&sharp, t, 13, MID);
            assert_eq!(run(cut_helper, h, &b, t, MID), w, "trans {t}");
            let b = place(&open, t, 13, MID);
            assert_eq!(run(cut_helper, h, &b, t, MID), w * 3 / 4, "trans {t}");
            let b = place(&joined, t, 13, MID);
            assert_eq!(run(cut_helper, h, &b, t, MID), 0, "trans {t}");
            let b = place(&weak, t, 13, MID);
            assert_eq!(run(cut_helper, h, &b, t, MID), 0, "trans {t}");
        }
    }

    #[test]
    fn connect_mends_real_cutting_points() {
        let h = "connect_helper";
        let w = weight(h);
        let urgent = ["XX..", "XO..", "O*..", "X..."];
        let calm = [".....", ".XO..", ".O*..", "....."];
        let capture_instead = [".....", "OXO..", ".O*..", "....."];
        // `a` and `b` are one string around the move.
        let already = [".....", ".XOO.", ".O*O.", ".OOO.", "....."];
        for t in [0, 2, 3, 5] {
            let b = place(&urgent, t, 13, MID);
            assert_eq!(run(connect_helper, h, &b, t, MID), w, "trans {t}");
            let b = place(&calm, t, 13, MID);
            assert_eq!(run(connect_helper, h, &b, t, MID), w * 4 / 5, "trans {t}");
            let b = place(&capture_instead, t, 13, MID);
            assert_eq!(run(connect_helper, h, &b, t, MID), 0, "trans {t}");
            let b = place(&already, t, 13, MID);
            assert_eq!(run(connect_helper, h, &b, t, MID), 0, "trans {t}");
        }
    }

    #[test]
    fn head_hane_survives_the_cut() {
        let h = "head_hane_helper";
        let w = weight(h);
        let good = [".....", "..*..", ".OX..", ".OX..", "....."];
        // X's stones have many liberties: four fifths.
        let long = [
            ".....", "..*..", ".OX..", ".OX..", ".OX..", "..X..", ".....",
        ];
        // Our stone `a` is short of liberties: the cut hurts.
        let thin = [".....", "..*..", "XOX..", "XOX..", ".X..."];
        // The hane stone itself would be caught after the cut.
        let cramped = ["..X..", "..*X.", ".OX..", ".OX..", "....."];
        for t in [0, 1, 2, 7] {
            let b = place(&good, t, 15, Point::new(7, 7));
            assert_eq!(
                run(head_hane_helper, h, &b, t, Point::new(7, 7)),
                w,
                "trans {t}"
            );
            let b = place(&long, t, 15, Point::new(7, 7));
            assert_eq!(
                run(head_hane_helper, h, &b, t, Point::new(7, 7)),
                w * 4 / 5,
                "trans {t}"
            );
            let b = place(&thin, t, 15, Point::new(7, 7));
            assert_eq!(
                run(head_hane_helper, h, &b, t, Point::new(7, 7)),
                0,
                "trans {t}"
            );
            let b = place(&cramped, t, 15, Point::new(7, 7));
            assert_eq!(
                run(head_hane_helper, h, &b, t, Point::new(7, 7)),
                0,
                "trans {t}"
            );
        }
    }

    #[test]
    fn eye_in_the_centre() {
        let h = "eye_helper";
        let w = weight(h);
        let real = [".X...", "OO*O.", "OO.O.", ".OOX.", "....."];
        // Two opponent diagonals: a false eye.
        let false_eye = [".X...", "OX*O.", "OO.O.", ".OOX.", "....."];
        // The eye point has an open side.
        let open = [".X...", "OO*O.", "OO...", ".OOX.", "....."];
        for t in [0, 1, 4, 5] {
            let b = place(&real, t, 13, MID);
            assert_eq!(run(eye_helper, h, &b, t, MID), w, "trans {t}");
            let b = place(&false_eye, t, 13, MID);
            assert_eq!(run(eye_helper, h, &b, t, MID), 0, "trans {t}");
            let b = place(&open, t, 13, MID);
            assert_eq!(run(eye_helper, h, &b, t, MID), 0, "trans {t}");
        }
    }

    #[test]
    fn eye_on_the_edge_and_in_the_corner() {
        let h = "eye_helper";
        let w = weight(h);
        // The corner eye of the diagram `|OX?/|*O?/|.O?/+---`, rotated a
        // quarter turn clockwise (transformation 1): the bottom-left corner
        // becomes the top-left one, and `e` lies to the left of `*`.
        let corner = ["OX.", "*O.", ".O."];
        let at = Point::new(0, 1);
        let b = place(&corner, 1, 9, at);
        assert_eq!(b.stone(Point::new(0, 0)), None, "e is the corner point");
        assert_eq!(run(eye_helper, h, &b, 1, at), w);
        // One opponent stone on the single diagonal spoils a corner eye.
        let spoilt = ["OX.", "*X.", ".O."];
        let b = place(&spoilt, 1, 9, at);
        assert_eq!(run(eye_helper, h, &b, 1, at), 0);
        // The same stones away from the edge enclose nothing.
        let b = place(&corner, 1, 9, Point::new(4, 4));
        assert_eq!(run(eye_helper, h, &b, 1, Point::new(4, 4)), 0);
        // An edge eye tolerates no opponent diagonal, a centre eye one.
        let edge = [".o.O.", "OO*OX", ".O.O."];
        let at = Point::new(7, 4);
        let b = place(&edge, 0, 9, at);
        assert!(!b.on_board(Point::new(9, 4)), "e is on the first line");
        assert_eq!(run(eye_helper, h, &b, 0, at), w);
        let edge_x = [".o.O.", "OX*OX", ".O.O."];
        let b = place(&edge_x, 0, 9, at);
        assert_eq!(run(eye_helper, h, &b, 0, at), 0);
    }
}
