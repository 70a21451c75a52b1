//! A move predictor for the tree search: how likely a strong player is to
//! play each point, from a few features of the point, with weights
//! learnt from game records.
//!
//! Why: on 19x19 a search of some ten thousand light playouts a move
//! spends them on the candidates its root opens first, and the pattern
//! engine's order says little about which of a position's 300 points a
//! good player would look at (measured against GNU Go's own values of the
//! moves: `docs/go-strength.md`). Coulom's "Elo ratings of move patterns"
//! (2007) gave Monte Carlo programs that order: every point is a team of
//! features (its 3x3 shape, its distance to the last two moves, its
//! lines, what it captures or puts in atari), each feature has a strength
//! γ, a team's strength is the product of its features', and the
//! probability that a point is the move is its strength over the sum of
//! every legal point's. The strengths are fitted to the moves of strong
//! games by minorization–maximization ([`fit`]).
//!
//! [`Predictor`] holds the strengths (from the text table
//! `patterns/go-moves.gamma`, built into katachi, or a file of the same
//! form); [`point_features`] computes a point's features on the
//! playouts' [`FastBoard`], cheaply enough for every node the tree
//! expands.

pub mod fit;

use std::collections::HashMap;
use std::sync::OnceLock;

use super::fastboard::{FastBoard, BLACK, EMPTY, WHITE};
use super::shapes::RING;
use crate::bradley_terry;

/// The feature groups of a point, in a team's order. A point has at most
/// one feature of each group; a group it has none of counts as γ = 1.
pub const GROUPS: [&str; 9] = [
    "shape",
    "last",
    "last2",
    "lines",
    "capture",
    "escape",
    "selfatari",
    "atari",
    "nearest",
];

/// How many groups a point's [`Features`] hold.
pub const GROUP_COUNT: usize = GROUPS.len();

/// Which groups a table writes in hexadecimal: the shape's keys.
const HEX_GROUPS: [bool; GROUP_COUNT] =
    [true, false, false, false, false, false, false, false, false];

/// No feature of a group.
pub const NONE: u32 = u32::MAX;

/// A point's features: one value (or [`NONE`]) per group of [`GROUPS`].
/// The shape is a canonical key ([`canonical_shape`]); the others are
/// small numbers.
pub type Features = [u32; GROUP_COUNT];

/// The largest distance bucket to the last moves: Coulom's distance
/// `dx + dy + max(dx, dy)` from 2 (next to it) up to this, everything
/// further in this bucket.
pub const FAR: u32 = 17;

/// The nearest stone's distance (in king moves) counted up to this.
pub const NEAREST_MAX: u32 = 6;

/// A line counted up to this (0 is the edge).
pub const LINE_MAX: u32 = 6;

/// Where each neighbour of the shape code ([`RING`]) goes under each of the eight
/// symmetries of the square.
fn permutations() -> [[usize; 8]; 8] {
    let mut out = [[0usize; 8]; 8];
    for (t, perm) in out.iter_mut().enumerate() {
        for (i, &(di, dj)) in RING.iter().enumerate() {
            let (a, b) = transform(t, di, dj);
            perm[i] = RING
                .iter()
                .position(|&o| o == (a, b))
                .expect("a symmetry maps neighbours to neighbours");
        }
    }
    out
}

/// The `t`-th symmetry of the square (0 the identity) applied to an
/// offset.
pub fn transform(t: usize, di: i32, dj: i32) -> (i32, i32) {
    let (a, b) = if t & 4 != 0 { (dj, di) } else { (di, dj) };
    let a = if t & 1 != 0 { -a } else { a };
    let b = if t & 2 != 0 { -b } else { b };
    (a, b)
}

/// The raw shape key of a point: the 3x3 code of [`FastBoard::neighbourhood`]
/// (two bits a neighbour: empty, own, the opponent's, the edge) and,
/// above it, one bit per orthogonal neighbour (N, S, W, E) whose string
/// is in atari.
pub fn raw_shape(board: &FastBoard, k: u16, c: u8) -> u32 {
    let code = board.neighbourhood(k, c) as u32;
    let eight = board.eight(k);
    let mut atari = 0u32;
    for (i, &q) in eight[..4].iter().enumerate() {
        let v = board.at(q);
        if (v == BLACK || v == WHITE) && board.in_atari(q) {
            atari |= 1 << i;
        }
    }
    code | atari << 16
}

/// The key of a raw shape under symmetry `t`.
fn apply(raw: u32, perm: &[usize; 8]) -> u32 {
    let mut out = 0u32;
    for (i, &to) in perm.iter().enumerate() {
        out |= ((raw >> (2 * i)) & 3) << (2 * to);
        if i < 4 && raw & (1 << (16 + i)) != 0 {
            out |= 1 << (16 + to);
        }
    }
    out
}

/// The canonical key of a raw shape: the least key among its eight
/// symmetric images, so that a shape and its rotations and reflections
/// share one strength.
pub fn canonical_shape(raw: u32) -> u32 {
    static PERMS: OnceLock<[[usize; 8]; 8]> = OnceLock::new();
    let perms = PERMS.get_or_init(permutations);
    perms.iter().map(|p| apply(raw, p)).min().unwrap_or(raw)
}

/// Coulom's distance between two points, bucketed: 2 next to each other,
/// up to [`FAR`].
pub fn distance_bucket(board: &FastBoard, a: u16, b: u16) -> u32 {
    let (p, q) = (board.point(a), board.point(b));
    let (dx, dy) = ((p.i - q.i).unsigned_abs(), (p.j - q.j).unsigned_abs());
    (dx + dy + dx.max(dy)).min(FAR)
}

/// The lines of a point (0 the edge), the smaller first, each counted up
/// to [`LINE_MAX`], as one number.
pub fn lines_of(board: &FastBoard, k: u16) -> u32 {
    let n = board.side() as i32;
    let p = board.point(k);
    let li = p.i.min(n - 1 - p.i).min(LINE_MAX as i32) as u32;
    let lj = p.j.min(n - 1 - p.j).min(LINE_MAX as i32) as u32;
    let (a, b) = (li.min(lj), li.max(lj));
    a * (LINE_MAX + 1) + b
}

/// Per point of the board (by index), the distance in king moves to the
/// nearest stone, up to [`NEAREST_MAX`] (that value also when the board
/// is empty). Two passes of a distance transform over the bordered
/// board.
pub fn nearest_stones(board: &FastBoard, out: &mut Vec<u8>) {
    let n = board.side();
    let w = n + 2;
    out.clear();
    out.resize(w * w, NEAREST_MAX as u8);
    for k in board.indices() {
        if board.at(k) != EMPTY {
            out[k as usize] = 0;
        }
    }
    let cap = NEAREST_MAX as u8;
    // Forward: the neighbours above and to the left; backward: below and
    // to the right. Border cells stay at the cap and never lower a point.
    for k in board.indices() {
        let k = k as usize;
        let m = [k - w - 1, k - w, k - w + 1, k - 1]
            .iter()
            .map(|&q| out[q])
            .min()
            .unwrap_or(cap);
        out[k] = out[k].min(m.saturating_add(1)).min(cap);
    }
    for k in board.indices().rev() {
        let k = k as usize;
        let m = [k + w + 1, k + w, k + w - 1, k + 1]
            .iter()
            .map(|&q| out[q])
            .min()
            .unwrap_or(cap);
        out[k] = out[k].min(m.saturating_add(1)).min(cap);
    }
}

/// What the search knows of a position beyond its stones: the last two
/// moves (`None` for a pass or the start) and the nearest-stone map of
/// [`nearest_stones`].
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub last: Option<u16>,
    pub last2: Option<u16>,
    pub nearest: &'a [u8],
}

/// The features of a legal move of colour `c` on the empty point `k`.
pub fn point_features(board: &FastBoard, k: u16, c: u8, ctx: &Context<'_>) -> Features {
    let mut f = raw_features(board, k, c, ctx);
    f[0] = canonical_shape(f[0]);
    f
}

/// [`point_features`] with the shape's raw key ([`raw_shape`]) instead
/// of its canonical one: what [`Predictor::strength_raw`] takes, which
/// looks the raw key up in a table instead of trying eight symmetries.
pub fn raw_features(board: &FastBoard, k: u16, c: u8, ctx: &Context<'_>) -> Features {
    let mut f = [NONE; GROUP_COUNT];
    f[0] = raw_shape(board, k, c);
    if let Some(l) = ctx.last {
        f[1] = distance_bucket(board, k, l);
    }
    if let Some(l) = ctx.last2 {
        f[2] = distance_bucket(board, k, l);
    }
    f[3] = lines_of(board, k);
    // Captures, escapes and ataris, from the strings next to the point.
    let other = 3 - c;
    let mut captured = 0usize;
    let mut own_in_atari = false;
    let mut ataris = false;
    let mut seen = [0u16; 4];
    let mut nseen = 0;
    for q in board.neighbours(k) {
        let v = board.at(q);
        if v != BLACK && v != WHITE {
            continue;
        }
        let id = board.string_id(q);
        if seen[..nseen].contains(&id) {
            continue;
        }
        seen[nseen] = id;
        nseen += 1;
        let libs = board.liberty_count(q, 3);
        if v == other {
            if libs == 1 {
                captured += board.string_size(q);
            } else if libs == 2 {
                ataris = true;
            }
        } else if libs == 1 {
            own_in_atari = true;
        }
    }
    let (libs, _, stones) = board.after_move(k, c);
    if captured > 0 {
        f[4] = match (own_in_atari, captured) {
            (true, _) => 0,
            (false, 1) => 1,
            (false, 2..=3) => 2,
            _ => 3,
        };
    } else {
        if own_in_atari {
            // 0: still in atari after it, 1: two liberties, 2: more.
            f[5] = (libs.min(3) as u32).saturating_sub(1);
        }
        if libs <= 1 {
            f[6] = u32::from(stones >= 2);
        }
    }
    if ataris && (libs >= 2 || captured > 0) {
        f[7] = 0;
    }
    f[8] = ctx.nearest[k as usize] as u32;
    f
}

/// Every legal point of colour `c` (empty, not the ko point, not
/// suicide) with its features, in board order, into `out`.
pub fn legal_features(board: &FastBoard, c: u8, ctx: &Context<'_>, out: &mut Vec<(u16, Features)>) {
    out.clear();
    for &k in board.empty_points() {
        if board.is_legal(k, c) {
            out.push((k, point_features(board, k, c, ctx)));
        }
    }
    out.sort_unstable_by_key(|&(k, _)| k);
}

/// The fitted strengths: one table per group, feature value → γ.
#[derive(Clone, Debug, Default)]
pub struct Predictor {
    gammas: Vec<HashMap<u32, f32>>,
    /// The shape strength of every raw key (2²⁰ of them), built on the
    /// first [`Predictor::strength_raw`]: the search asks for every
    /// child of every node it expands.
    raw_shapes: OnceLock<Vec<f32>>,
}

impl PartialEq for Predictor {
    fn eq(&self, other: &Predictor) -> bool {
        self.gammas == other.gammas
    }
}

/// How many raw shape keys there are: 16 bits of neighbours, 4 of
/// ataris.
const RAW_SHAPES: usize = 1 << 20;

pub use crate::bradley_terry::TableError;

impl Predictor {
    /// A predictor whose every strength is 1 (every legal point alike).
    pub fn uniform() -> Predictor {
        Predictor::from_gammas(vec![HashMap::new(); GROUP_COUNT])
    }

    /// The table built into katachi (`patterns/go-moves.gamma`).
    pub fn builtin() -> &'static Predictor {
        static BUILTIN: OnceLock<Predictor> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Predictor::parse(include_str!("../../patterns/go-moves.gamma"))
                .expect("the built-in move table reads (tests/go_predictor.rs)")
        })
    }

    /// Strengths from their table per group.
    pub fn from_gammas(gammas: Vec<HashMap<u32, f32>>) -> Predictor {
        assert_eq!(gammas.len(), GROUP_COUNT);
        Predictor {
            gammas,
            raw_shapes: OnceLock::new(),
        }
    }

    /// The strength of feature `value` of group `g` (1 for [`NONE`] and
    /// for a feature the table does not hold).
    pub fn gamma(&self, g: usize, value: u32) -> f32 {
        if value == NONE {
            return 1.0;
        }
        self.gammas[g].get(&value).copied().unwrap_or(1.0)
    }

    /// A team's strength: the product of its features'.
    pub fn strength(&self, f: &Features) -> f32 {
        f.iter()
            .enumerate()
            .map(|(g, &v)| self.gamma(g, v))
            .product()
    }

    /// [`Predictor::strength`] of [`raw_features`].
    pub fn strength_raw(&self, f: &Features) -> f32 {
        let table = self.raw_shapes.get_or_init(|| {
            (0..RAW_SHAPES as u32)
                .map(|raw| self.gamma(0, canonical_shape(raw)))
                .collect()
        });
        let shape = table.get(f[0] as usize).copied().unwrap_or(1.0);
        f[1..]
            .iter()
            .enumerate()
            .map(|(g, &v)| self.gamma(g + 1, v))
            .product::<f32>()
            * shape
    }

    /// Where the move at `k` ranks among `legal` (0 the likeliest; ties
    /// counted against it) and its probability; `None` when it is not
    /// among them.
    pub fn rank(&self, legal: &[(u16, Features)], k: u16) -> Option<(usize, f64)> {
        let strengths: Vec<f64> = legal.iter().map(|(_, f)| self.strength(f) as f64).collect();
        let w = legal.iter().position(|&(q, _)| q == k)?;
        let total: f64 = strengths.iter().sum();
        let rank = strengths.iter().filter(|&&s| s >= strengths[w]).count() - 1;
        Some((rank, strengths[w] / total))
    }

    /// How many strengths the table holds.
    pub fn len(&self) -> usize {
        self.gammas.iter().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a table ([`bradley_terry::parse_table`]; the shape's value
    /// in hexadecimal, `0x...`, the others decimal). Every bad line is
    /// reported.
    pub fn parse(text: &str) -> Result<Predictor, Vec<TableError>> {
        bradley_terry::parse_table(text, &GROUPS, &HEX_GROUPS).map(Predictor::from_gammas)
    }

    /// Reads the table at `path`; every bad line reported located
    /// ([`bradley_terry::read_table`]).
    pub fn read_file(path: &std::path::Path) -> Result<Predictor, String> {
        bradley_terry::read_table(path, &GROUPS, &HEX_GROUPS).map(Predictor::from_gammas)
    }

    /// The table as text, in the form [`Predictor::parse`] reads:
    /// groups in their order, values ascending, so the same strengths
    /// give the same bytes.
    pub fn to_text(&self, header: &str) -> String {
        bradley_terry::write_table(&self.gammas, &GROUPS, &HEX_GROUPS, header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Point;

    #[test]
    fn symmetries_are_a_group_of_eight_distinct_maps() {
        let perms = permutations();
        for (a, p) in perms.iter().enumerate() {
            for (b, q) in perms.iter().enumerate() {
                assert_eq!(a == b, p == q);
            }
            // Orthogonal neighbours stay orthogonal.
            for (i, &to) in p.iter().enumerate() {
                assert_eq!(i < 4, to < 4);
            }
        }
    }

    #[test]
    fn nearest_stone_distances_are_king_moves() {
        let mut b = FastBoard::new(9);
        b.play(b.index(Point::new(4, 4)), 1);
        let mut d = Vec::new();
        nearest_stones(&b, &mut d);
        for k in b.indices() {
            let p = b.point(k);
            let want = (p.i - 4).abs().max((p.j - 4).abs()).min(NEAREST_MAX as i32);
            assert_eq!(d[k as usize] as i32, want, "{p:?}");
        }
    }

    #[test]
    fn tables_read_back_and_report_every_bad_line() {
        let mut g = vec![HashMap::new(); GROUP_COUNT];
        g[0].insert(0x1_0009, 2.5f32);
        g[1].insert(2, 30.0);
        let p = Predictor::from_gammas(g);
        let text = p.to_text("test");
        assert_eq!(Predictor::parse(&text).unwrap(), p);
        let bad = "shape 12 1.0\nlast 2\nwhat 3 1\nlast 3 -1\nlast 2 1\nlast 2 2\n";
        let errors = Predictor::parse(bad).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 6]);
        assert_eq!(errors[0].column, 7);
        assert!(errors[2].message.contains("unknown group `what`"));
        assert_eq!(errors[3].column, 8);
    }
}
