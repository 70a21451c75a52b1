//! Pictures of the contest board as SVG: what the contest's
//! `show_chessboard` drew, from a state file or a game log.
//!
//! The board is drawn as it lies on the page: 17 rows of hexagonal cells
//! (pointy side up), each row half a cell from the next, cell 0 the first
//! of the top row ([`crate::hexagon`]). A stone is a disc on its cell: the
//! first player's black and the second's white (from a game log), or, from
//! a state file that knows only "mine" and "the opponent's", mine dark
//! blue and theirs light orange, with a legend saying so. The last move
//! carries a red ring, a winning row a red line through its stones, and
//! with `numbers` every cell its number. The output is deterministic text
//! (fixed precision, no time stamps), so pictures diff.

use std::fmt::Write;

use super::log::{Ending, GameLog};
use super::protocol::{Cell, State};
use crate::hexagon::{HexLayout, CONTEST_SIDE};
use crate::position::Point;

/// What a stone is drawn as.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stone {
    Black,
    White,
    Mine,
    Theirs,
}

/// What a picture shows.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Picture {
    /// The stones, by cell number.
    pub stones: Vec<(u32, Stone)>,
    /// The cell of the last move, marked.
    pub last: Option<u32>,
    /// A winning row's cells, joined by a line.
    pub row: Vec<u32>,
    /// Every cell's number written on it.
    pub numbers: bool,
    /// A line of text under the board.
    pub caption: String,
}

impl Picture {
    /// A state file's board: mine and the opponent's.
    pub fn of_state(state: &State) -> Picture {
        Picture {
            stones: state
                .cells
                .iter()
                .enumerate()
                .filter_map(|(k, c)| match c {
                    Cell::Empty => None,
                    Cell::Mine => Some((k as u32, Stone::Mine)),
                    Cell::Theirs => Some((k as u32, Stone::Theirs)),
                })
                .collect(),
            caption: format!(
                "move {} to play: dark = the state file's own stones (1), light = the opponent's (2)",
                state.move_number
            ),
            ..Picture::default()
        }
    }

    /// A game log's board after its last move: true colours, the last
    /// move, the winning row.
    pub fn of_log(log: &GameLog) -> Picture {
        let stones = log
            .moves
            .iter()
            .filter(|m| (m.cell as usize) < HexLayout::new(CONTEST_SIDE).cells())
            .map(|m| {
                let s = if m.side == 0 {
                    Stone::Black
                } else {
                    Stone::White
                };
                (m.cell, s)
            })
            .collect();
        let result = match (&log.ending, log.winner()) {
            (Some(Ending::FullBoard), _) => "a draw: the board is full".to_string(),
            (Some(Ending::Five { .. }), Some(w)) => format!("{} wins with five", log.teams[w]),
            (Some(Ending::Violation { violation, .. }), Some(w)) => format!(
                "{} wins: {} broke the rule ({})",
                log.teams[w],
                log.teams[1 - w],
                violation.word()
            ),
            _ => "unfinished".to_string(),
        };
        Picture {
            stones,
            last: log.moves.last().map(|m| m.cell),
            row: match &log.ending {
                Some(Ending::Five { row, .. }) => row.clone(),
                _ => Vec::new(),
            },
            numbers: false,
            caption: format!(
                "black {} (first), white {}: {} moves; {result}",
                log.teams[0],
                log.teams[1],
                log.moves.len()
            ),
        }
    }
}

/// A cell's radius (centre to corner) in SVG units.
const R: f64 = 20.0;
const MARGIN: f64 = 16.0;

/// The centre of cell `p` on the page.
fn centre(layout: HexLayout, p: Point) -> (f64, f64) {
    let w = 3f64.sqrt() * R;
    let n1 = layout.side() as f64 - 1.0;
    // Row `i`'s first column is `n1 − i` above the middle row: shifting by
    // half a cell a row lines the rows up as the contest draws them.
    let x = w * (f64::from(p.j) + f64::from(p.i) / 2.0 - n1 / 2.0) + MARGIN + w / 2.0;
    let y = 1.5 * R * f64::from(p.i) + MARGIN + R;
    (x, y)
}

/// The picture as an SVG document.
pub fn svg(picture: &Picture) -> String {
    let layout = HexLayout::new(CONTEST_SIDE);
    let w = 3f64.sqrt() * R;
    let n = layout.array_side() as f64;
    let width = w * n + 2.0 * MARGIN;
    let board_height = 1.5 * R * (n - 1.0) + 2.0 * R + 2.0 * MARGIN;
    let height = board_height + 28.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#e8c888"/>"##
    );
    let stone_at = |k: u32| picture.stones.iter().find(|s| s.0 == k).map(|s| s.1);
    for (k, p) in layout.points().enumerate() {
        let (x, y) = centre(layout, p);
        let corners: Vec<String> = (0..6)
            .map(|c| {
                let a = std::f64::consts::PI / 3.0 * f64::from(c) + std::f64::consts::PI / 6.0;
                format!("{:.1},{:.1}", x + R * a.cos(), y + R * a.sin())
            })
            .collect();
        let _ = writeln!(
            out,
            r##"<polygon points="{}" fill="#f3dca8" stroke="#8a6a3a" stroke-width="1"/>"##,
            corners.join(" ")
        );
        let stone = stone_at(k as u32);
        if let Some(s) = stone {
            let (fill, stroke) = match s {
                Stone::Black => ("#111111", "#000000"),
                Stone::White => ("#fafafa", "#555555"),
                Stone::Mine => ("#1f3b73", "#0d1f40"),
                Stone::Theirs => ("#f4b183", "#9c5a2a"),
            };
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>"#,
                R * 0.72
            );
        }
        if picture.numbers {
            let dark = matches!(stone, Some(Stone::Black | Stone::Mine));
            let _ = writeln!(
                out,
                r##"<text x="{x:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="{}">{k}</text>"##,
                y + 3.0,
                if dark { "#ffffff" } else { "#3a2a10" }
            );
        }
    }
    let points: Vec<(f64, f64)> = picture
        .row
        .iter()
        .filter_map(|&k| layout.point(k as usize))
        .map(|p| centre(layout, p))
        .collect();
    if let (Some(a), Some(b)) = (points.first(), points.last()) {
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d01010" stroke-width="4" stroke-linecap="round" opacity="0.8"/>"##,
            a.0, a.1, b.0, b.1
        );
    }
    if let Some(p) = picture.last.and_then(|k| layout.point(k as usize)) {
        let (x, y) = centre(layout, p);
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#d01010" stroke-width="3"/>"##,
            R * 0.82
        );
    }
    if !picture.caption.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#222222">{}</text>"##,
            width / 2.0,
            board_height + 14.0,
            escape(&picture.caption)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// An SVG document rasterised to PNG (resvg; text in the system's fonts,
/// DejaVu Sans or Arial when there).
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the picture has no size")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// Text made safe inside an SVG element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::log::LoggedMove;
    use crate::contest::protocol::CELLS;

    #[test]
    fn the_rows_lie_as_the_contest_draws_them() {
        let layout = HexLayout::new(CONTEST_SIDE);
        let at = |k: usize| centre(layout, layout.point(k).unwrap());
        // Row 0 is centred over the middle row: cells 4 and 108 (the
        // centre) share a column; 100 is the middle row's left end.
        assert!((at(4).0 - at(108).0).abs() < 1e-9);
        assert!(at(100).0 < at(0).0 && at(100).0 < at(216).0);
        assert!(
            (at(0).0 - at(208).0).abs() < 1e-9,
            "the bottom row under the top"
        );
        // Neighbours are one cell width apart.
        let w = 3f64.sqrt() * R;
        for (a, b) in [(108, 109), (108, 91), (108, 125), (0, 9)] {
            let (p, q) = (at(a), at(b));
            let d = ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
            assert!((d - w).abs() < 1e-9, "{a}-{b}: {d}");
        }
    }

    #[test]
    fn a_state_and_a_log_are_drawn_with_their_marks() {
        let mut cells = vec![Cell::Empty; CELLS];
        cells[108] = Cell::Mine;
        cells[92] = Cell::Theirs;
        let state = State {
            move_number: 3,
            cells,
        };
        let mut pic = Picture::of_state(&state);
        pic.last = Some(92);
        pic.numbers = true;
        let s = svg(&pic);
        assert_eq!(s.matches("<polygon").count(), 217);
        assert_eq!(s.matches(r##"fill="#1f3b73""##).count(), 1);
        assert_eq!(s.matches(r##"fill="#f4b183""##).count(), 1);
        assert_eq!(
            s.matches(r##"stroke="#d01010" stroke-width="3""##).count(),
            1,
            "the last move"
        );
        assert!(s.contains(">216</text>"));
        assert_eq!(s, svg(&pic), "deterministic");
        let log = GameLog {
            teams: ["1".into(), "2".into()],
            exact: false,
            limit_ms: 5000,
            moves: [100, 0, 101, 1, 102, 2, 103, 3, 104]
                .iter()
                .enumerate()
                .map(|(k, &cell)| LoggedMove {
                    number: k as u32 + 1,
                    side: k % 2,
                    cell,
                    millis: Some(1),
                })
                .collect(),
            ending: Some(Ending::Five {
                winner: 0,
                row: vec![100, 101, 102, 103, 104],
            }),
        };
        let s = svg(&Picture::of_log(&log));
        assert_eq!(s.matches(r##"fill="#111111""##).count(), 5);
        assert_eq!(s.matches(r##"fill="#fafafa""##).count(), 4);
        assert_eq!(s.matches("<line").count(), 1, "the winning row");
        assert!(s.contains("1 wins with five"));
        assert_eq!(s.matches("<text").count(), 1, "the caption only");
    }
}
