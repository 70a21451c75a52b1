//! A move predictor for five in a row: how likely a strong player is to
//! play each candidate point, from a few features of the point, with
//! strengths learnt from a strong engine's games.
//!
//! Why: the search opens a node's moves in the order of the pattern
//! values and keeps the first twelve of them; a strong player's move was
//! the first of that order in under half of the positions measured. Every
//! point is a team of features (Coulom's "Elo ratings of move patterns",
//! as the Go predictor): the combination of the line shapes it makes for
//! the side to move and the one it takes from the opponent, the pair of
//! their strongest, its distance to the last two moves and to the edge,
//! the stones around it and its rank by the values; its strength is the
//! product of its features' strengths, fitted by
//! [`crate::bradley_terry`]. It ranks the strong player's move first more
//! often than the values do, yet the search with it chose no better
//! moves (`docs/five-strength.md`, twenty-fourth sitting): the engine uses
//! it only when asked.
//!
//! A line shape is the class of what a stone at the point makes along
//! one line, read from the four points on each side
//! ([`combination`]): a five, an open four (two points make five), a
//! four, an open three (a point makes an open four), a three, an open
//! two, a two, room for a five, or nothing.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::rules::{FiveBoard, Rule};
use crate::bradley_terry::{self, TableError};
use crate::position::{Color, Point, Position};

/// The feature groups of a point, in a team's order: the combination of
/// its line classes for the side to move ([`combination`]) and for the
/// opponent, its distance to the last move and to the one before
/// ([`FAR`]), its distance to the edge (up to 4), the stones around it
/// (the side to move's times 9 plus the opponent's, in the 3x3), its
/// rank in the pattern values' order (up to [`RANK_MAX`]) and the pair
/// of its strongest classes (the side to move's times 9 plus the
/// opponent's).
pub const GROUPS: [&str; 8] = [
    "mine", "theirs", "last", "last2", "edge", "around", "rank", "pair",
];

/// How many groups a point's [`Features`] hold.
pub const GROUP_COUNT: usize = GROUPS.len();

/// No feature of a group.
pub const NONE: u32 = u32::MAX;

/// A point's features: one value (or [`NONE`]) per group of [`GROUPS`].
pub type Features = [u32; GROUP_COUNT];

/// The line classes, weakest first.
pub const DEAD: u8 = 0;
pub const ALIVE: u8 = 1;
pub const TWO: u8 = 2;
pub const OPEN_TWO: u8 = 3;
pub const THREE: u8 = 4;
pub const OPEN_THREE: u8 = 5;
pub const FOUR: u8 = 6;
pub const OPEN_FOUR: u8 = 7;
pub const FIVE: u8 = 8;

/// Coulom's distance to the last moves, `dx + dy + max(dx, dy)`,
/// counted up to this.
pub const FAR: u32 = 16;

/// The rank in the pattern values' order counted up to this.
pub const RANK_MAX: u32 = 16;

/// A neighbour of the window: empty, own, blocked (the opponent's or
/// off the board).
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const BLOCKED: u8 = 2;

/// The window: four points each side of the centre (slot 4), the
/// centre the stone just placed.
type Window = [u8; 9];

fn makes_five(w: &Window, exact: bool) -> bool {
    let (mut l, mut r) = (4, 4);
    while l > 0 && w[l - 1] == OWN {
        l -= 1;
    }
    while r < 8 && w[r + 1] == OWN {
        r += 1;
    }
    let len = r - l + 1;
    if exact {
        len == 5
    } else {
        len >= 5
    }
}

fn five_points(w: &Window, exact: bool) -> usize {
    (0..9)
        .filter(|&q| {
            w[q] == EMPTY && {
                let mut v = *w;
                v[q] = OWN;
                makes_five(&v, exact)
            }
        })
        .count()
}

/// The class of a window (its centre own), by the definitions above.
fn classify(w: &Window, exact: bool, depth: u8) -> u8 {
    if makes_five(w, exact) {
        return FIVE;
    }
    match five_points(w, exact) {
        0 => {}
        1 => return FOUR,
        _ => return OPEN_FOUR,
    }
    if depth == 0 {
        return DEAD;
    }
    let mut best = DEAD;
    for q in 0..9 {
        if w[q] != EMPTY {
            continue;
        }
        let mut v = *w;
        v[q] = OWN;
        let c = classify(&v, exact, depth - 1);
        // One stone more: a four from a three, an open four from an
        // open three, and so on down.
        let down = match c {
            OPEN_FOUR => OPEN_THREE,
            FOUR => THREE,
            OPEN_THREE => OPEN_TWO,
            THREE => TWO,
            _ => DEAD,
        };
        best = best.max(down);
    }
    if best == DEAD {
        // Room for a five: a run of five points through the centre with
        // nothing blocked.
        let room = (0..5).any(|s| (s..s + 5).all(|q| w[q] != BLOCKED));
        if room {
            return ALIVE;
        }
    }
    best
}

/// The class table of one colour under one rule: indexed by the window's
/// code, two bits a neighbour (0 empty, 1 black, 2 white, 3 off the
/// board), the neighbours from the farthest on one side to the farthest
/// on the other.
fn class_table(color: Color, exact: bool) -> Vec<u8> {
    let own = if color == Color::Black { 1 } else { 2 };
    let mut memo: HashMap<Window, u8> = HashMap::new();
    (0..1usize << 16)
        .map(|code| {
            let mut w = [OWN; 9];
            for (s, slot) in [0, 1, 2, 3, 5, 6, 7, 8].into_iter().enumerate() {
                let v = (code >> (2 * s)) & 3;
                w[slot] = match v {
                    0 => EMPTY,
                    v if v == own => OWN,
                    _ => BLOCKED,
                };
            }
            *memo.entry(w).or_insert_with(|| classify(&w, exact, 2))
        })
        .collect()
}

/// The class tables for Black and White under `rule`.
fn tables(rule: Rule) -> &'static [Vec<u8>; 2] {
    static TABLES: [OnceLock<[Vec<u8>; 2]>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let k = match rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
        Rule::Pente => 3,
    };
    TABLES[k].get_or_init(|| {
        [
            class_table(Color::Black, rule.exact_for(Color::Black)),
            class_table(Color::White, rule.exact_for(Color::White)),
        ]
    })
}

/// The code of the window through `p` along `(di, dj)`.
fn window_code(game: &FiveBoard, p: Point, (di, dj): (i32, i32)) -> usize {
    let n = game.size() as i32;
    let mut code = 0usize;
    for (s, k) in [-4, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
        let q = Point::new(p.i + k * di, p.j + k * dj);
        let v = if q.i < 0 || q.j < 0 || q.i >= n || q.j >= n {
            3
        } else {
            match game.stone(q) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            }
        };
        code |= v << (2 * s);
    }
    code
}

/// The four line classes of a stone of `color` at `p`, strongest first,
/// as one number (base 9).
pub fn combination(game: &FiveBoard, p: Point, color: Color) -> u32 {
    let t = &tables(game.rule())[usize::from(color == Color::White)];
    let mut c: [u8; 4] = [0; 4];
    for (k, &d) in super::DIRECTIONS.iter().enumerate() {
        c[k] = t[window_code(game, p, d)];
    }
    c.sort_unstable_by(|a, b| b.cmp(a));
    c.iter().fold(0u32, |acc, &x| acc * 9 + u32::from(x))
}

/// Coulom's distance `dx + dy + max(dx, dy)`, up to [`FAR`].
fn distance(a: Point, b: Point) -> u32 {
    let (dx, dy) = ((a.i - b.i).unsigned_abs(), (a.j - b.j).unsigned_abs());
    (dx + dy + dx.max(dy)).min(FAR)
}

/// The features of `p` for the side to move, `rank` its place in the
/// pattern values' order (0 the best valued).
pub fn point_features(game: &FiveBoard, p: Point, rank: usize) -> Features {
    let me = game.to_move();
    let moves = game.moves();
    let n = game.size() as i32;
    let mut f = [NONE; GROUP_COUNT];
    f[0] = combination(game, p, me);
    f[1] = combination(game, p, me.other());
    if let Some(&last) = moves.last() {
        f[2] = distance(p, last);
    }
    if moves.len() >= 2 {
        f[3] = distance(p, moves[moves.len() - 2]);
    }
    f[4] = p.i.min(p.j).min(n - 1 - p.i).min(n - 1 - p.j).min(4) as u32;
    let (mut mine, mut theirs) = (0u32, 0u32);
    for di in -1..=1 {
        for dj in -1..=1 {
            match game.stone(Point::new(p.i + di, p.j + dj)) {
                Some(c) if c == me => mine += 1,
                Some(_) => theirs += 1,
                None => {}
            }
        }
    }
    f[5] = mine * 9 + theirs;
    f[6] = (rank as u32).min(RANK_MAX);
    f[7] = (f[0] / 729) * 9 + f[1] / 729;
    f
}

/// The fitted strengths: one table per group, feature value → γ, and
/// the same as dense arrays for the search, which asks for a node's
/// candidates at every node it expands.
#[derive(Clone, Debug)]
pub struct Predictor {
    gammas: Vec<HashMap<u32, f32>>,
    dense: Vec<Vec<f32>>,
}

impl PartialEq for Predictor {
    fn eq(&self, other: &Predictor) -> bool {
        self.gammas == other.gammas
    }
}

impl Predictor {
    /// A predictor whose every strength is 1 (every point alike).
    pub fn uniform() -> Predictor {
        Predictor::from_gammas(vec![HashMap::new(); GROUP_COUNT])
    }

    /// Strengths from their table per group.
    pub fn from_gammas(gammas: Vec<HashMap<u32, f32>>) -> Predictor {
        assert_eq!(gammas.len(), GROUP_COUNT);
        let dense = gammas
            .iter()
            .map(|t| {
                let n = t.keys().max().map_or(0, |&m| m as usize + 1);
                let mut v = vec![1.0f32; n];
                for (&k, &g) in t {
                    v[k as usize] = g;
                }
                v
            })
            .collect();
        Predictor { gammas, dense }
    }

    /// The built-in table of `rule` (`patterns/five-exact.gamma`,
    /// `patterns/five-renju.gamma`, fitted to Rapfi's self-play under
    /// those rules); `None` under freestyle and Pente, which have none.
    /// The engine uses it only when asked (`pbrain-katachi --predictor`).
    pub fn builtin(rule: Rule) -> Option<&'static Predictor> {
        static EXACT: OnceLock<Predictor> = OnceLock::new();
        static RENJU: OnceLock<Predictor> = OnceLock::new();
        let (cell, text) = match rule {
            Rule::Exact => (&EXACT, include_str!("../../patterns/five-exact.gamma")),
            Rule::Renju => (&RENJU, include_str!("../../patterns/five-renju.gamma")),
            Rule::Freestyle | Rule::Pente => return None,
        };
        Some(cell.get_or_init(|| {
            Predictor::parse(text)
                .expect("the built-in five-in-a-row tables read (a test holds them)")
        }))
    }

    /// The strength of feature `value` of group `g` (1 for [`NONE`] and
    /// for a feature the table does not hold).
    pub fn gamma(&self, g: usize, value: u32) -> f32 {
        self.dense[g].get(value as usize).copied().unwrap_or(1.0)
    }

    /// A team's strength: the product of its features'.
    pub fn strength(&self, f: &Features) -> f32 {
        f.iter()
            .enumerate()
            .map(|(g, &v)| self.gamma(g, v))
            .product()
    }

    /// How many strengths the table holds.
    pub fn len(&self) -> usize {
        self.gammas.iter().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a table ([`bradley_terry::parse_table`]; every value
    /// decimal). Every bad line is reported.
    pub fn parse(text: &str) -> Result<Predictor, Vec<TableError>> {
        bradley_terry::parse_table(text, &GROUPS, &[]).map(Predictor::from_gammas)
    }

    /// Reads the table at `path`; every bad line reported located
    /// ([`bradley_terry::read_table`]).
    pub fn read_file(path: &std::path::Path) -> Result<Predictor, String> {
        bradley_terry::read_table(path, &GROUPS, &[]).map(Predictor::from_gammas)
    }

    /// The table as text, in the form [`Predictor::parse`] reads.
    pub fn to_text(&self, header: &str) -> String {
        bradley_terry::write_table(&self.gammas, &GROUPS, &[], header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The class of the centre of `row` (nine characters: `X` own, `O`
    /// the opponent's, `.` empty, `#` off the board; the centre `X`).
    fn class(row: &str, exact: bool) -> u8 {
        let w: Vec<u8> = row
            .chars()
            .map(|c| match c {
                'X' => OWN,
                '.' => EMPTY,
                _ => BLOCKED,
            })
            .collect();
        classify(&w.try_into().unwrap(), exact, 2)
    }

    #[test]
    fn line_classes_follow_their_definitions() {
        for (row, want) in [
            ("..XXXXX..", FIVE),
            (".XXXX....", OPEN_FOUR),
            ("OXXXX....", FOUR),
            ("..XXX.X..", FOUR),
            ("X.XXX.X..", OPEN_FOUR),
            ("..XXX....", OPEN_THREE),
            ("..X.XX...", OPEN_THREE),
            (".OXXX....", THREE),
            (".OXXX..O.", THREE),
            ("...XX....", OPEN_TWO),
            ("..X.X....", OPEN_TWO),
            ("..OXX....", TWO),
            ("....X....", ALIVE),
            ("#O.OXO...", DEAD),
            ("O..OX.O..", DEAD),
        ] {
            assert_eq!(class(row, true), want, "{row}");
        }
        // Six in a row is a five only where an overline wins.
        assert_eq!(class(".XXXXXX..", false), FIVE);
        assert_ne!(class(".XXXXXX..", true), FIVE);
        // A four whose only five would be an overline is none under
        // exactly five.
        assert_eq!(class("XX.XXX...", false), FOUR);
        assert_ne!(class("XX.XXX...", true), FOUR);
    }

    #[test]
    fn the_class_tables_read_the_board_as_the_windows_say() {
        let mut game = FiveBoard::new(15, Rule::Exact).unwrap();
        // Black: an open three along row 7 through (7, 7) when Black
        // plays there; White blocks the column.
        for p in [(7, 5), (0, 0), (7, 6), (8, 7)] {
            game.play(Point::new(p.0, p.1)).unwrap();
        }
        assert_eq!(game.to_move(), Color::Black);
        let mine = combination(&game, Point::new(7, 7), Color::Black);
        assert_eq!(mine / 729, u32::from(OPEN_THREE), "{mine}");
        let f = point_features(&game, Point::new(7, 7), 3);
        assert_eq!(f[0], mine);
        assert_eq!(f[2], distance(Point::new(7, 7), Point::new(8, 7)));
        assert_eq!(f[2], 2);
        // The move before the last: Black's own at (7, 6).
        assert_eq!(f[3], 2);
        assert_eq!(f[4], 4);
        // Two own stones and one of the opponent's around.
        assert_eq!(f[5], 9 + 1);
        assert_eq!(f[6], 3);
        assert_eq!(f[7], (f[0] / 729) * 9 + f[1] / 729);
    }

    /// `p` under the `t`-th symmetry of a board of side `n`.
    fn turn(t: usize, n: i32, p: Point) -> Point {
        let (i, j) = if t & 4 != 0 { (p.j, p.i) } else { (p.i, p.j) };
        let i = if t & 1 != 0 { n - 1 - i } else { i };
        let j = if t & 2 != 0 { n - 1 - j } else { j };
        Point::new(i, j)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every feature of every point is the same on the board turned
        /// or mirrored (the rank is given, not read).
        #[test]
        fn features_do_not_depend_on_the_boards_symmetry(
            moves in proptest::collection::vec((0i32..13, 0i32..13), 1..40),
            t in 1usize..8,
            rule in prop_oneof![Just(Rule::Exact), Just(Rule::Renju), Just(Rule::Freestyle)],
        ) {
            let n = 13;
            let mut a = FiveBoard::new(n as usize, rule).unwrap();
            let mut b = FiveBoard::new(n as usize, rule).unwrap();
            for (i, j) in moves {
                let p = Point::new(i, j);
                if a.outcome().is_some() || !a.is_legal(p) {
                    continue;
                }
                let q = turn(t, n, p);
                // Renju's forbidden points are symmetric too.
                prop_assert!(b.is_legal(q));
                a.play(p).unwrap();
                b.play(q).unwrap();
            }
            for p in a.points().collect::<Vec<_>>() {
                if a.stone(p).is_none() {
                    prop_assert_eq!(point_features(&a, p, 5), point_features(&b, turn(t, n, p), 5));
                }
            }
        }
    }

    #[test]
    fn tables_read_back_and_report_every_bad_line() {
        let mut g = vec![HashMap::new(); GROUP_COUNT];
        g[0].insert(6561 - 1, 2.5f32);
        g[2].insert(2, 30.0);
        let p = Predictor::from_gammas(g);
        let text = p.to_text("test");
        assert!(text.starts_with("# test\n"));
        assert_eq!(Predictor::parse(&text).unwrap(), p);
        assert_eq!(p.gamma(2, 2), 30.0);
        assert_eq!(p.gamma(2, 3), 1.0);
        assert_eq!(p.gamma(2, NONE), 1.0);
        let bad = "mine 0x12 1.0\nlast 2\nwhat 3 1\nlast 3 -1\nlast 2 1\nlast 2 2\n";
        let errors = Predictor::parse(bad).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 6]);
        assert_eq!(errors[0].column, 6);
        assert!(errors[2].message.contains("unknown group `what`"));
        assert_eq!(errors[3].column, 8);
    }

    #[test]
    fn the_built_in_tables_read_for_exact_five_and_renju_only() {
        for rule in [Rule::Exact, Rule::Renju] {
            let p = Predictor::builtin(rule).expect("a built-in table");
            assert!(p.len() > 500, "{rule:?}: {}", p.len());
            assert!(p.gammas.iter().all(|g| !g.is_empty()), "{rule:?}");
            // The move next to the last one is likelier than one far
            // from it.
            assert!(p.gamma(2, 2) > p.gamma(2, FAR), "{rule:?}");
        }
        assert!(Predictor::builtin(Rule::Freestyle).is_none());
        assert!(Predictor::builtin(Rule::Pente).is_none());
    }
}
