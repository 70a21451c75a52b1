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
//! up to 19x19). `AE` (removing stones) is refused.

use std::path::Path;

use sgf_parse::go::{self, Prop};
use sgf_parse::SgfNode;

use crate::go::game::{MAX_SIZE, MIN_SIZE};
use crate::go::{Game, Move};
use crate::position::{Color, Point, Position};

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

fn point_of(p: go::Point, size: usize) -> Result<Point, String> {
    if usize::from(p.x) >= size || usize::from(p.y) >= size {
        return Err(format!(
            "point {}{} is off the {size}x{size} board",
            (b'a' + p.x) as char,
            (b'a' + p.y) as char
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

/// Parses SGF text into its first game tree's root node.
fn root(text: &str) -> Result<SgfNode<Prop>, String> {
    let trees = go::parse(text).map_err(|e| format!("not a Go SGF file: {e}"))?;
    trees
        .into_iter()
        .next()
        .ok_or_else(|| "the SGF file holds no game".to_string())
}

/// Loads the game in `text` and replays its main line up to, not
/// including, move `until` (GNU Go's `-L N`: moves count from 1, passes
/// included; `None` replays every move).
pub fn load(text: &str, until: Option<usize>) -> Result<Loaded, String> {
    let root = root(text)?;
    let mut size = 19usize;
    let mut komi = 0.0f32;
    let mut handicap = 0usize;
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) => {
                if w != h {
                    return Err(format!("board {w}x{h} is not square"));
                }
                size = usize::from(*w);
            }
            Prop::KM(k) => komi = *k as f32,
            Prop::HA(h) => handicap = usize::try_from(*h).unwrap_or(0),
            _ => {}
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
        ));
    }
    let mut game = Game::new(size);
    game.set_komi(komi);
    let limit = until.map(|n| n.saturating_sub(1));
    let mut setup: Vec<(Color, Point)> = Vec::new();
    let mut played = 0usize;
    let mut total = 0usize;
    let mut last: Option<Color> = None;
    let mut pl: Option<Color> = None;
    let mut next: Option<Color> = None;
    let mut stopped = false;
    for (k, node) in root.main_variation().enumerate() {
        let mv = node.properties().find_map(|p| match p {
            Prop::B(m) => Some((Color::Black, m)),
            Prop::W(m) => Some((Color::White, m)),
            _ => None,
        });
        if let Some((c, _)) = mv {
            total += 1;
            if !stopped && limit.is_some_and(|l| played >= l) {
                stopped = true;
                next = Some(c);
            }
        }
        if stopped {
            continue;
        }
        let mut stones: Vec<(Color, Point)> = Vec::new();
        for prop in node.properties() {
            let (c, points) = match prop {
                Prop::AB(s) => (Color::Black, s),
                Prop::AW(s) => (Color::White, s),
                Prop::AE(_) => {
                    return Err(format!("node {k}: AE (removing stones) is not supported"))
                }
                Prop::PL(c) => {
                    pl = Some(color_of(*c));
                    continue;
                }
                _ => continue,
            };
            let mut pts = points
                .iter()
                .map(|&p| point_of(p, size))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("node {k}: {e}"))?;
            pts.sort();
            stones.extend(pts.into_iter().map(|p| (c, p)));
        }
        if !stones.is_empty() {
            game.setup(&stones)
                .map_err(|e| format!("node {k}: setup stone: {e:?}"))?;
            setup = game
                .goban()
                .points()
                .filter_map(|p| game.goban().stone(p).map(|c| (c, p)))
                .collect();
            // Moves before a setup are part of the new starting position.
        }
        if let Some((c, m)) = mv {
            // A node's PL speaks about the position after its move.
            pl = pl.filter(|_| node.properties().any(|p| matches!(p, Prop::PL(_))));
            let m = move_of(m, size).map_err(|e| format!("move {}: {e}", played + 1))?;
            game.play(c, m)
                .map_err(|e| format!("move {}: illegal ({e:?})", played + 1))?;
            played += 1;
            last = Some(c);
        }
    }
    let to_move = next.or(pl).unwrap_or(match last {
        Some(c) => c.other(),
        None if handicap >= 2 => Color::White,
        None => Color::Black,
    });
    Ok(Loaded {
        game,
        to_move,
        setup,
        handicap,
        moves: played,
        total_moves: total,
    })
}

/// Reads and loads an SGF file (see [`load`]).
pub fn load_file(path: &Path, until: Option<usize>) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    load(&text, until).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every position of a game's main line with the colour to move there:
/// before each move, and after the last one. This is what `katachi match`
/// scans when it is given games instead of a positions file.
pub fn positions(text: &str) -> Result<Vec<(crate::board::Board, Color)>, String> {
    let total = load(text, Some(1))?.total_moves;
    // Replaying from the start for each position is quadratic in the
    // game's length, which stays far below a second for real games and
    // keeps one replay path (`load`) for every caller.
    (1..=total + 1)
        .map(|n| load(text, Some(n)).map(|l| (l.game.goban().board().clone(), l.to_move)))
        .collect()
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
            .contains("move 2: illegal"));
        assert!(load("(;SZ[9];B[zz])", None).unwrap_err().contains("off"));
        assert!(load("not sgf", None).is_err());
        assert!(load("(;SZ[9]AE[aa])", None).unwrap_err().contains("AE"));
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
