//! SGF game records: loading a game at a given move, and recording one
//! with the move generator's values as labels.
//!
//! The seed's tuning workflow runs on SGF files: GNU Go's `-l FILE -L N`
//! loads a game and stops before move `N` so one can ask "why this move?",
//! and `-o FILE` records a game with an `LB` label on every move the engine
//! considered, showing its value, so that wrong weights are seen at a
//! glance. [`load`] and [`Record`] are katachi's halves of that. Parsing
//! (and writing) goes through the `sgf-parse` crate, never a hand parser.
//!
//! Loading follows the main line (first child at every branch): `SZ`
//! (square boards 5 to 19), `KM`, `HA` (informative: the stones come as
//! `AB`), `AB`/`AW` setup stones (anywhere on the main line; like a
//! handicap they become the game's starting position, so undo stops at
//! them), `PL`, and `B`/`W` moves with passes (`B[]`, and `B[tt]` on boards
//! up to 19x19). `AE` (removing stones) is refused, and so is a value of
//! one of these properties that does not parse (`SZ[abc]`, `B[e]`): the
//! error names the node or move and the value.
//!
//! Files are read as UTF-8 when they are, and as Latin-1 otherwise (the
//! usual `CA[ISO-8859-1]` of older servers), after a leading byte-order
//! mark. Bounds: a file of at most [`crate::input::MAX_INPUT_BYTES`],
//! at most [`MAX_NODES`] nodes in all and [`MAX_LINE_NODES`] on any one
//! line of play (the parser's tree is as deep as its longest line).

use std::borrow::Cow;
use std::path::Path;

use sgf_parse::go::{self, Prop};
use sgf_parse::SgfNode;

use crate::board::Board;
use crate::go::game::{MAX_SIZE, MIN_SIZE};
use crate::go::strings::Illegal;
use crate::go::{Game, Move};
use crate::position::{Color, Point, Position};

/// The most nodes an SGF file may hold, all game trees and variations
/// together: a bound on the memory the parsed tree takes.
pub const MAX_NODES: usize = 100_000;

/// The most nodes on one line of play (so also the most moves of a game):
/// the parsed tree nests one level a node, and it is dropped recursively.
pub const MAX_LINE_NODES: usize = 10_000;

/// A game loaded at some move.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The position after the replayed moves, with the game's komi.
    pub game: Game,
    /// The colour to move: the player of the first move not replayed, or
    /// `PL`, or the other colour than the last move, or white after a
    /// handicap, or black.
    pub to_move: Color,
    /// The setup stones of the starting position (handicap included).
    pub setup: Vec<(Color, Point)>,
    /// The `HA` value, 0 when absent.
    pub handicap: usize,
    /// How many moves (passes included) were replayed.
    pub moves: usize,
    /// How many moves the main line has in all.
    pub total_moves: usize,
}

/// `LB` labels: (point, text), in the order written.
pub type Labels = Vec<(Point, String)>;

fn color_of(c: sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

/// A point as SGF letters and as a GTP vertex: `dd (D16)`.
fn describe(p: Point, size: usize) -> String {
    format!("{} ({})", sgf_point(p), crate::notation::vertex(p, size))
}

/// SGF letters of a point that may be off the board.
fn letters(p: go::Point) -> String {
    let letter = |v: u8| match v {
        0..=25 => (b'a' + v) as char,
        _ => (b'A' + v - 26) as char,
    };
    format!("{}{}", letter(p.x), letter(p.y))
}

fn point_of(p: go::Point, size: usize) -> Result<Point, String> {
    if usize::from(p.x) >= size || usize::from(p.y) >= size {
        return Err(format!(
            "point {} is off the {size}x{size} board",
            letters(p)
        ));
    }
    Ok(Point::new(i32::from(p.y), i32::from(p.x)))
}

fn move_of(m: &go::Move, size: usize) -> Result<Move, String> {
    match m {
        go::Move::Pass => Ok(Move::Pass),
        // FF[3]'s pass: `tt` on boards up to 19x19.
        go::Move::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => Ok(Move::Pass),
        go::Move::Move(p) => point_of(*p, size).map(Move::Play),
    }
}

/// Why a stone cannot be placed or played, in words.
fn illegal_words(e: Illegal) -> &'static str {
    match e {
        Illegal::OffBoard => "the point is off the board",
        Illegal::Occupied => "the point already holds a stone",
        Illegal::Suicide => "the stone would have no liberties (suicide)",
        Illegal::Ko => "it retakes a ko at once",
        Illegal::Superko => "it recreates an earlier position (superko)",
    }
}

/// A property as written: `SZ[1000]`, `AB[aa][bb]`.
fn written(id: &str, values: &[String]) -> String {
    let mut s = id.to_string();
    for v in values {
        s.push('[');
        s.push_str(v);
        s.push(']');
    }
    if values.is_empty() {
        s.push_str("[]");
    }
    s
}

/// SGF bytes as text: UTF-8 when they are, Latin-1 otherwise (every byte
/// a character, so nothing is refused), a leading byte-order mark
/// skipped. Older files are often Latin-1 (`CA[ISO-8859-1]`); the
/// properties katachi reads are ASCII either way.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Checks the shape of SGF text before the parser builds its tree: at
/// most [`MAX_NODES`] nodes, at most [`MAX_LINE_NODES`] on one line.
/// Counts `;` outside property values, as the parser's lexer does (an
/// upper bound on the nodes it makes).
fn check_bounds(text: &str) -> Result<(), String> {
    let (mut nodes, mut depth, mut deepest) = (0usize, 0usize, 0usize);
    let mut open: Vec<usize> = Vec::new();
    let (mut in_value, mut escaped) = (false, false);
    for b in text.bytes() {
        if in_value {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b']' => in_value = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'[' => in_value = true,
            b'(' => open.push(depth),
            b')' => depth = open.pop().unwrap_or(depth),
            b';' => {
                nodes += 1;
                depth += 1;
                deepest = deepest.max(depth);
            }
            _ => {}
        }
    }
    if nodes > MAX_NODES {
        return Err(format!(
            "the file has {nodes} nodes, more than the limit of {MAX_NODES}"
        ));
    }
    if deepest > MAX_LINE_NODES {
        return Err(format!(
            "a line of play has {deepest} nodes, more than the limit of {MAX_LINE_NODES}"
        ));
    }
    Ok(())
}

/// Parses SGF text into its first game tree's root node.
fn root(text: &str) -> Result<SgfNode<Prop>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    check_bounds(text)?;
    let trees = go::parse(text).map_err(|e| format!("not a Go SGF file: {e}"))?;
    trees
        .into_iter()
        .next()
        .ok_or_else(|| "the SGF file holds no game".to_string())
}

/// One node of the main line, as katachi replays it.
#[derive(Debug)]
struct Step {
    /// Setup stones (`AB`, `AW`), each with its node number.
    setup: Vec<(Color, Point)>,
    /// `PL`.
    pl: Option<Color>,
    /// `B` or `W`.
    mv: Option<(Color, Move)>,
    /// The node's number on the main line (the root is node 0).
    node: usize,
}

/// A game's main line, read and checked but not replayed.
#[derive(Debug)]
struct MainLine {
    size: usize,
    komi: f32,
    handicap: usize,
    steps: Vec<Step>,
}

impl MainLine {
    fn total_moves(&self) -> usize {
        self.steps.iter().filter(|s| s.mv.is_some()).count()
    }
}

/// Reads the root properties and every node of the main line, refusing
/// values that do not parse and points off the board.
fn main_line(text: &str) -> Result<MainLine, String> {
    let root = root(text)?;
    let mut size = 19usize;
    let mut komi = 0.0f32;
    let mut handicap = 0usize;
    let range = format!("a number from {MIN_SIZE} to {MAX_SIZE}");
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) => {
                if w != h {
                    return Err(format!("SZ[{w}:{h}]: the board {w}x{h} is not square"));
                }
                size = usize::from(*w);
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return Err(format!(
                        "SZ[{size}]: board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
                    ));
                }
            }
            Prop::KM(k) => komi = *k as f32,
            Prop::HA(h) => handicap = usize::try_from(*h).unwrap_or(0),
            Prop::Invalid(id, values) => match id.as_str() {
                "SZ" => {
                    return Err(format!(
                        "{}: expected the board size, {range}",
                        written(id, values)
                    ))
                }
                // KM[] is common for "no komi".
                "KM" if values.iter().all(|v| v.trim().is_empty()) => {}
                "KM" => {
                    return Err(format!(
                        "{}: expected the komi, a number",
                        written(id, values)
                    ))
                }
                // HA[0] and HA[1] (no handicap) are common, and the crate
                // refuses them.
                "HA" if matches!(values.as_slice(), [v] if matches!(v.trim(), "0" | "1" | "")) => {}
                "HA" => {
                    return Err(format!(
                        "{}: expected the handicap, a number of stones",
                        written(id, values)
                    ))
                }
                _ => {}
            },
            _ => {}
        }
    }
    let mut steps = Vec::new();
    let mut moves = 0usize;
    for (k, node) in root.main_variation().enumerate() {
        let mut step = Step {
            setup: Vec::new(),
            pl: None,
            mv: None,
            node: k,
        };
        for prop in node.properties() {
            match prop {
                Prop::B(m) | Prop::W(m) if step.mv.is_none() => {
                    let c = if matches!(prop, Prop::B(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    moves += 1;
                    let id = if c == Color::Black { "B" } else { "W" };
                    let m = move_of(m, size).map_err(|e| {
                        let value = match m {
                            go::Move::Pass => String::new(),
                            go::Move::Move(p) => letters(*p),
                        };
                        format!("move {moves} (node {k}): {id}[{value}]: {e}")
                    })?;
                    step.mv = Some((c, m));
                }
                Prop::AB(points) | Prop::AW(points) => {
                    let c = if matches!(prop, Prop::AB(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mut pts = points
                        .iter()
                        .map(|&p| point_of(p, size))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| {
                            let id = if c == Color::Black { "AB" } else { "AW" };
                            format!("node {k}: {id}: {e}")
                        })?;
                    pts.sort();
                    step.setup.extend(pts.into_iter().map(|p| (c, p)));
                }
                Prop::AE(_) => {
                    return Err(format!("node {k}: AE (removing stones) is not supported"))
                }
                Prop::PL(c) => step.pl = Some(color_of(*c)),
                Prop::Invalid(id, values) => {
                    let what = match id.as_str() {
                        "B" | "W" => {
                            moves += 1;
                            return Err(format!(
                                "move {moves} (node {k}): {} is not a move: expected two letters \
                                 (column, row), or an empty value for a pass",
                                written(id, values)
                            ));
                        }
                        "AB" | "AW" | "AE" => "a list of points, two letters each",
                        "PL" => "the player to move, B or W",
                        _ => continue,
                    };
                    return Err(format!(
                        "node {k}: {}: expected {what}",
                        written(id, values)
                    ));
                }
                _ => {}
            }
        }
        steps.push(step);
    }
    Ok(MainLine {
        size,
        komi,
        handicap,
        steps,
    })
}

/// Replays a main line, calling `before_move` with the game and the
/// player before each move; stops before move `stop` (counting from 0)
/// when given.
fn replay(
    line: &MainLine,
    stop: Option<usize>,
    mut before_move: impl FnMut(&Game, Color),
) -> Result<Loaded, String> {
    let size = line.size;
    let mut game = Game::new(size);
    game.set_komi(line.komi);
    let mut setup: Vec<(Color, Point)> = Vec::new();
    let mut played = 0usize;
    let mut last: Option<Color> = None;
    let mut pl: Option<Color> = None;
    let mut next: Option<Color> = None;
    for step in &line.steps {
        if let Some((c, _)) = step.mv {
            before_move(&game, c);
            if stop.is_some_and(|s| played >= s) {
                next = Some(c);
                break;
            }
        }
        let k = step.node;
        for &(c, p) in &step.setup {
            // One stone at a time, so that the error names it.
            game.setup(&[(c, p)]).map_err(|e| {
                let id = if c == Color::Black { "AB" } else { "AW" };
                format!(
                    "node {k}: {id} stone at {}: {}",
                    describe(p, size),
                    illegal_words(e)
                )
            })?;
        }
        if !step.setup.is_empty() {
            // Moves before a setup are part of the new starting position.
            setup = game
                .goban()
                .points()
                .filter_map(|p| game.goban().stone(p).map(|c| (c, p)))
                .collect();
        }
        if step.pl.is_some() {
            pl = step.pl;
        }
        if let Some((c, m)) = step.mv {
            // A node's PL speaks about the position after its move.
            pl = step.pl;
            game.play(c, m).map_err(|e| {
                let (id, at) = match m {
                    Move::Pass => (c, "a pass".to_string()),
                    Move::Play(p) => (c, describe(p, size)),
                };
                let id = if id == Color::Black { "B" } else { "W" };
                format!(
                    "move {} (node {k}): {id} at {at} is illegal: {}",
                    played + 1,
                    illegal_words(e)
                )
            })?;
            played += 1;
            last = Some(c);
        }
    }
    let to_move = next.or(pl).unwrap_or(match last {
        Some(c) => c.other(),
        None if line.handicap >= 2 => Color::White,
        None => Color::Black,
    });
    Ok(Loaded {
        game,
        to_move,
        setup,
        handicap: line.handicap,
        moves: played,
        total_moves: line.total_moves(),
    })
}

/// Loads the game in `text` and replays its main line up to, not
/// including, move `until` (GNU Go's `-L N`: moves count from 1, passes
/// included; `None` replays every move). The whole main line is checked
/// (values, points on the board), the moves replayed only up to `until`.
pub fn load(text: &str, until: Option<usize>) -> Result<Loaded, String> {
    let line = main_line(text)?;
    replay(&line, until.map(|n| n.saturating_sub(1)), |_, _| {})
}

/// Reads an SGF file within [`crate::input::MAX_INPUT_BYTES`] and decodes
/// it (see [`decode`]).
pub fn read_file(path: &Path) -> Result<String, String> {
    let bytes = crate::input::read_file(path)?;
    Ok(decode(&bytes).into_owned())
}

/// Reads and loads an SGF file (see [`load`]).
pub fn load_file(path: &Path, until: Option<usize>) -> Result<Loaded, String> {
    read_file(path)
        .and_then(|text| load(&text, until))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Every position of a game's main line with the colour to move there:
/// before each move, and after the last one. This is what `katachi match`
/// scans when it is given games instead of a positions file. One parse,
/// one replay: a snapshot of the board before each move.
pub fn positions(text: &str) -> Result<Vec<(Board, Color)>, String> {
    let line = main_line(text)?;
    let mut out = Vec::with_capacity(line.total_moves() + 1);
    let end = replay(&line, None, |game, c| {
        out.push((game.goban().board().clone(), c));
    })?;
    out.push((end.game.goban().board().clone(), end.to_move));
    Ok(out)
}

/// A game being recorded: its start and its moves, each with the labels
/// of the moves considered before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub size: usize,
    pub komi: f32,
    pub handicap: usize,
    pub setup: Vec<(Color, Point)>,
    /// Every move, with the `LB` labels (point, text) to put on its node.
    pub moves: Vec<(Color, Move, Labels)>,
}

fn sgf_point(p: Point) -> String {
    format!(
        "{}{}",
        (b'a' + p.j as u8) as char,
        (b'a' + p.i as u8) as char
    )
}

impl Record {
    /// An empty record of a board of side `size`.
    pub fn new(size: usize, komi: f32) -> Record {
        Record {
            size,
            komi,
            handicap: 0,
            setup: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The record as SGF text (`FF[4]`, one game), deterministic: setup
    /// stones in board order, labels in the order given.
    pub fn to_sgf(&self) -> String {
        let raw = |id: &str, values: Vec<String>| Prop::Unknown(id.to_string(), values);
        let mut root = vec![
            Prop::FF(4),
            Prop::GM(1),
            Prop::CA(sgf_parse::SimpleText {
                text: "UTF-8".into(),
            }),
            Prop::AP((
                sgf_parse::SimpleText {
                    text: "katachi".into(),
                },
                sgf_parse::SimpleText {
                    text: env!("CARGO_PKG_VERSION").into(),
                },
            )),
            Prop::SZ((self.size as u8, self.size as u8)),
            Prop::KM(f64::from(self.komi)),
        ];
        if self.handicap >= 2 {
            root.push(Prop::HA(self.handicap as i64));
        }
        for (c, id) in [(Color::Black, "AB"), (Color::White, "AW")] {
            let mut pts: Vec<Point> = self
                .setup
                .iter()
                .filter(|s| s.0 == c)
                .map(|s| s.1)
                .collect();
            pts.sort();
            if !pts.is_empty() {
                root.push(raw(id, pts.into_iter().map(sgf_point).collect()));
            }
        }
        // Build the main line from its end: each node owns the next.
        let mut child: Option<SgfNode<Prop>> = None;
        for (c, m, labels) in self.moves.iter().rev() {
            let value = match m {
                Move::Pass => String::new(),
                Move::Play(p) => sgf_point(*p),
            };
            let mut props = vec![raw(if *c == Color::Black { "B" } else { "W" }, vec![value])];
            if !labels.is_empty() {
                props.push(raw(
                    "LB",
                    labels
                        .iter()
                        .map(|(p, t)| format!("{}:{}", sgf_point(*p), escape(t)))
                        .collect(),
                ));
            }
            child = Some(SgfNode::new(props, child.into_iter().collect(), false));
        }
        let root = SgfNode::new(root, child.into_iter().collect(), true);
        let mut out = root.serialize();
        out.push('\n');
        out
    }

    /// Writes the SGF through [`mkpat::output::write`]: a regular file is
    /// replaced atomically (a reader never sees half a game) keeping its
    /// mode and owner, a symbolic link is kept and its target replaced, a
    /// device or FIFO is written through (a FIFO blocks until it has a
    /// reader), a read-only file or a folder is refused.
    pub fn write(&self, path: &Path) -> Result<(), mkpat::output::Error> {
        mkpat::output::write(path, self.to_sgf().as_bytes())
    }
}

/// SGF text escaping for a raw property value.
fn escape(t: &str) -> String {
    t.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stones(g: &Game) -> Vec<(Color, Point)> {
        g.goban()
            .points()
            .filter_map(|p| g.goban().stone(p).map(|c| (c, p)))
            .collect()
    }

    #[test]
    fn loads_setup_komi_and_stops_before_move_n() {
        let sgf = "(;FF[4]GM[1]SZ[9]KM[5.5]HA[2]AB[cg][gc];W[ee];B[];W[tt];B[cc](;W[dd])(;W[ff]))";
        let all = load(sgf, None).unwrap();
        assert_eq!(all.game.size(), 9);
        assert_eq!(all.game.komi(), 5.5);
        assert_eq!(all.handicap, 2);
        assert_eq!(all.moves, 5);
        assert_eq!(all.total_moves, 5);
        assert_eq!(all.to_move, Color::Black);
        // The main line takes the first variation: W D6 (dd).
        assert_eq!(all.game.goban().stone(Point::new(3, 3)), Some(Color::White));
        assert_eq!(all.game.goban().stone(Point::new(5, 5)), None);
        // -L 1: nothing replayed, white (move 1's player) to move.
        let first = load(sgf, Some(1)).unwrap();
        assert_eq!(first.moves, 0);
        assert_eq!(first.to_move, Color::White);
        assert_eq!(
            stones(&first.game),
            vec![
                (Color::Black, Point::new(2, 6)),
                (Color::Black, Point::new(6, 2))
            ]
        );
        assert_eq!(first.setup, stones(&first.game));
        // -L 4: W E5, B pass, W pass replayed; black to move.
        let at4 = load(sgf, Some(4)).unwrap();
        assert_eq!(at4.moves, 3);
        assert_eq!(at4.to_move, Color::Black);
        assert_eq!(
            at4.game.history(),
            &[
                (Color::White, Move::Play(Point::new(4, 4))),
                (Color::Black, Move::Pass),
                (Color::White, Move::Pass)
            ]
        );
        // Undo stops at the setup.
        let mut g = at4.game.clone();
        while g.undo() {}
        assert_eq!(stones(&g).len(), 2);
        // Past the end: everything.
        assert_eq!(load(sgf, Some(99)).unwrap().moves, 5);
    }

    #[test]
    fn player_to_move_from_pl_and_handicap() {
        let l = load("(;SZ[9]AB[cc]AW[gg]PL[W])", None).unwrap();
        assert_eq!(l.to_move, Color::White);
        let l = load("(;SZ[9]HA[2]AB[cc][gg])", None).unwrap();
        assert_eq!(l.to_move, Color::White);
        let l = load("(;SZ[9])", None).unwrap();
        assert_eq!(l.to_move, Color::Black);
        let l = load("(;SZ[9];B[ee])", None).unwrap();
        assert_eq!(l.to_move, Color::White);
    }

    #[test]
    fn refuses_what_it_cannot_replay() {
        assert!(load("(;SZ[4])", None).unwrap_err().contains("outside"));
        assert!(load("(;SZ[9:7])", None).unwrap_err().contains("square"));
        assert!(load("(;SZ[9];B[ee];W[ee])", None)
            .unwrap_err()
            .contains("move 2 (node 2): W at ee (E5) is illegal"));
        assert!(load("(;SZ[9];B[zz])", None).unwrap_err().contains("off"));
        assert!(load("not sgf", None).is_err());
        assert!(load("(;SZ[9]AE[aa])", None).unwrap_err().contains("AE"));
    }

    #[test]
    fn invalid_values_are_errors_naming_the_property() {
        for (sgf, want) in [
            (
                "(;SZ[1000])",
                "SZ[1000]: expected the board size, a number from 5 to 19",
            ),
            ("(;SZ[abc])", "SZ[abc]: expected the board size"),
            ("(;SZ[-1])", "SZ[-1]: expected the board size"),
            ("(;SZ[0])", "SZ[0]: board size 0 is outside 5..=19"),
            ("(;SZ[9]KM[six])", "KM[six]: expected the komi, a number"),
            ("(;SZ[9]HA[x])", "HA[x]: expected the handicap"),
            (
                "(;SZ[9];B[ee];W[e])",
                "move 2 (node 2): W[e] is not a move: expected two letters",
            ),
            ("(;SZ[9];B[eee])", "move 1 (node 1): B[eee] is not a move"),
            (
                "(;SZ[9];B[zz])",
                "move 1 (node 1): B[zz]: point zz is off the 9x9 board",
            ),
            ("(;SZ[9];AB[e])", "node 1: AB[e]: expected a list of points"),
            (
                "(;SZ[9]AW[jj])",
                "node 0: AW: point jj is off the 9x9 board",
            ),
            (
                "(;SZ[9]PL[x])",
                "node 0: PL[x]: expected the player to move, B or W",
            ),
        ] {
            let err = load(sgf, None).unwrap_err();
            assert!(err.contains(want), "{sgf}: {err}");
        }
        // A bad move is found past the move asked for, too.
        assert!(load("(;SZ[9];B[ee];W[e])", Some(1)).is_err());
        // What real files write for "no komi" and "no handicap" is fine.
        for sgf in ["(;SZ[9]KM[]HA[0])", "(;SZ[9]HA[1])"] {
            let l = load(sgf, None).unwrap();
            assert_eq!((l.handicap, l.game.komi()), (0, 0.0), "{sgf}");
        }
    }

    #[test]
    fn setup_and_move_errors_name_the_point_in_words() {
        let err = load("(;SZ[9]AW[ab][ba]AB[aa])", None).unwrap_err();
        assert_eq!(
            err,
            "node 0: AB stone at aa (A9): the stone would have no liberties (suicide)"
        );
        let err = load("(;SZ[9]AB[cc];AW[cc])", None).unwrap_err();
        assert_eq!(
            err,
            "node 1: AW stone at cc (C7): the point already holds a stone"
        );
        let err = load("(;SZ[9];B[ee];W[ee])", None).unwrap_err();
        assert_eq!(
            err,
            "move 2 (node 2): W at ee (E5) is illegal: the point already holds a stone"
        );
        assert!(!err.contains('{'));
    }

    #[test]
    fn latin1_and_byte_order_marks_are_read() {
        // `é` in Latin-1 is the byte E9, not UTF-8.
        let latin1 = b"(;CA[ISO-8859-1]PB[Jos\xe9]SZ[9];B[ee])";
        let text = decode(latin1);
        assert!(text.contains("Jos\u{e9}"));
        assert_eq!(load(&text, None).unwrap().moves, 1);
        let bom = b"\xEF\xBB\xBF(;SZ[9];B[ee])";
        assert_eq!(decode(bom), "(;SZ[9];B[ee])");
        assert_eq!(load("\u{feff}(;SZ[9];B[ee])", None).unwrap().moves, 1);
        // UTF-8 stays UTF-8.
        assert_eq!(decode("(;PB[Jos\u{e9}])".as_bytes()), "(;PB[Jos\u{e9}])");
    }

    #[test]
    fn positions_are_one_replay_equal_to_loading_at_each_move() {
        for name in ["capture.sgf", "fight.sgf", "handicap.sgf", "corner.sgf"] {
            let path = format!("{}/tests/data/sgf/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            let all = positions(&text).unwrap();
            let total = load(&text, None).unwrap().total_moves;
            assert_eq!(all.len(), total + 1, "{name}");
            for (n, (board, to_move)) in all.iter().enumerate() {
                let at = load(&text, Some(n + 1)).unwrap();
                assert_eq!(board, at.game.goban().board(), "{name} position {n}");
                assert_eq!(*to_move, at.to_move, "{name} position {n}");
            }
        }
        // A setup between moves, and PL after the last move.
        let sgf = "(;SZ[9];B[ee];AW[cc];W[gg]PL[W])";
        let all = positions(sgf).unwrap();
        for (n, (board, to_move)) in all.iter().enumerate() {
            let at = load(sgf, Some(n + 1)).unwrap();
            assert_eq!((board, *to_move), (at.game.goban().board(), at.to_move));
        }
    }

    #[test]
    fn long_games_give_one_position_a_move() {
        // The longest line allowed: the root and 9,999 passes. Replaying
        // from the start for every position took minutes at this length.
        let mut sgf = String::from("(;SZ[9]");
        for k in 0..MAX_LINE_NODES - 1 {
            sgf.push_str(if k % 2 == 0 { ";B[]" } else { ";W[]" });
        }
        sgf.push(')');
        let all = positions(&sgf).unwrap();
        assert_eq!(all.len(), MAX_LINE_NODES);
        assert_eq!(all[0].1, Color::Black);
        assert_eq!(all[1].1, Color::White);
        // The last pass is black's (an odd number of them).
        assert_eq!(all[MAX_LINE_NODES - 1].1, Color::White);
        let empty = Board::new(9);
        assert!(all.iter().all(|(b, _)| *b == empty));
    }

    #[test]
    fn trees_too_large_or_too_deep_are_refused_before_parsing() {
        let mut long = String::from("(;SZ[9]");
        for _ in 0..MAX_LINE_NODES {
            long.push_str(";B[]");
        }
        long.push(')');
        let err = load(&long, None).unwrap_err();
        assert_eq!(
            err,
            "a line of play has 10001 nodes, more than the limit of 10000"
        );
        // Nested variations are as deep: refused, not a stack overflow.
        let deep = "(;".repeat(200_000) + &")".repeat(200_000);
        assert!(load(&deep, None)
            .unwrap_err()
            .contains("more than the limit of 100000"));
        let deep = "(;".repeat(50_000) + &")".repeat(50_000);
        assert!(load(&deep, None)
            .unwrap_err()
            .contains("line of play has 50000 nodes"));
        // Many short variations: too many nodes in all.
        let wide = format!("(;SZ[9]{})", "(;B[aa])".repeat(MAX_NODES));
        assert_eq!(
            load(&wide, None).unwrap_err(),
            "the file has 100001 nodes, more than the limit of 100000"
        );
        // `;` inside a value (a comment) is not a node.
        let comment = format!("(;SZ[9]C[{}\\]x];B[ee])", ";".repeat(50_000));
        assert_eq!(load(&comment, None).unwrap().moves, 1);
    }

    #[test]
    fn records_round_trip_with_labels() {
        let mut r = Record::new(9, 6.5);
        r.handicap = 2;
        r.setup = vec![
            (Color::Black, Point::new(6, 2)),
            (Color::Black, Point::new(2, 6)),
        ];
        r.moves.push((
            Color::White,
            Move::Play(Point::new(4, 4)),
            vec![
                (Point::new(4, 4), "12".into()),
                (Point::new(2, 2), "8".into()),
            ],
        ));
        r.moves.push((Color::Black, Move::Pass, Vec::new()));
        let text = r.to_sgf();
        assert_eq!(
            text,
            "(;FF[4]GM[1]CA[UTF-8]AP[katachi:0.1.0]SZ[9:9]KM[6.5]HA[2]AB[gc][cg]\
             ;W[ee]LB[ee:12][cc:8];B[])\n"
                .replace("0.1.0", env!("CARGO_PKG_VERSION"))
        );
        let node = go::parse(&text).unwrap().remove(0);
        node.validate().unwrap();
        let second = node.children().next().unwrap();
        let lb = second
            .properties()
            .find_map(|p| match p {
                Prop::LB(l) => Some(l.clone()),
                _ => None,
            })
            .expect("LB parsed");
        assert!(lb.contains(&(
            go::Point { x: 4, y: 4 },
            sgf_parse::SimpleText { text: "12".into() }
        )));
        let back = load(&text, None).unwrap();
        assert_eq!(back.setup.len(), 2);
        assert_eq!(back.moves, 2);
        assert_eq!(back.game.komi(), 6.5);
    }
}
