//! Why the five-in-a-row engine plays its move: the patterns behind the
//! chosen point and the best few others, and the forced line when the
//! threat search found one — what `katachi explain` says for Go.

use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mkpat::tables::Kind;

use super::database::FiveDatabase;
use super::engine::{Engine, Limits, Reason};
use super::point_class::PointClass;
use super::rules::FiveBoard;
use super::valuation::Valuation;
use crate::notation::color_word;
use crate::position::{Color, Point};

/// One pattern's part in a point's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Because {
    /// The pattern's name in the database.
    pub pattern: String,
    pub kind: Kind,
    /// The side that makes the shape by playing the point.
    pub maker: Color,
    /// What it adds for the side to move: the pattern's `mine` when the
    /// side to move makes it, its `theirs` when taking the point stops
    /// the opponent's.
    pub value: i32,
}

/// A point and the patterns behind its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub point: Point,
    pub value: i64,
    pub because: Vec<Because>,
    /// What a move there makes across its lines for the side to move,
    /// then for the opponent ([`PointClass`]; read along the lines of a
    /// database of line patterns, `None` for another).
    pub classes: [Option<PointClass>; 2],
}

/// The engine's move and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub to_move: Color,
    pub chosen: Option<(Point, Reason)>,
    /// The chosen point first, then the best others by value.
    pub candidates: Vec<Candidate>,
}

/// Explains the move for the side to move of `game`, searching to
/// `depth` plies (no clock: the same answer every time), with up to
/// `others` other candidates.
pub fn explain(game: &FiveBoard, depth: u32, others: usize) -> Explanation {
    explain_with(game, FiveDatabase::builtin(), depth, others)
}

/// [`explain`] with the patterns of `db`.
pub fn explain_with(
    game: &FiveBoard,
    db: Arc<FiveDatabase>,
    depth: u32,
    others: usize,
) -> Explanation {
    let to_move = game.to_move();
    let mut engine = Engine::with_database(game.clone(), db.clone());
    let stop = AtomicBool::new(false);
    let zero = || Duration::ZERO;
    let chosen = engine.choose(&Limits {
        elapsed: &zero,
        budget: None,
        stop: &stop,
        max_depth: depth,
        vcf_depth: 12,
        vct_depth: 4,
        table_bytes: super::engine::DEFAULT_TABLE_BYTES,
        proof_search: false,
        max_nodes: None,
    });
    // The engine's own board and valuation: its searches took back every
    // move they tried.
    let (matcher, overlay) = (db.matcher(), db.overlay());
    let (board, valuation) = (engine.board(), engine.valuation());
    // The engine keeps the point classes only when its leaves read them;
    // the explanation names them whatever the rule.
    let classed = db.lines().map(|table| Valuation::with_lines(table, board));
    let class = |p, c| classed.as_ref().and_then(|v| v.class(p, c));
    let mut because: std::collections::BTreeMap<Point, Vec<Because>> = Default::default();
    for maker in [Color::Black, Color::White] {
        for m in matcher.matches(board, maker) {
            let p = &matcher.tables().patterns[m.pattern as usize];
            let Some(f) = overlay.values(m.pattern as usize).five() else {
                continue;
            };
            let value = if maker == to_move { f.mine } else { f.theirs };
            because.entry(m.move_point).or_default().push(Because {
                pattern: p.name.to_string(),
                kind: f.kind,
                maker,
                value,
            });
        }
    }
    let mut ranked: Vec<(i64, Point)> = valuation
        .proposed()
        .filter(|&p| game.is_legal(p))
        .map(|p| (valuation.value(p, to_move), p))
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let first = chosen.as_ref().map(|(p, _)| *p);
    let mut order: Vec<Point> = first.into_iter().collect();
    order.extend(
        ranked
            .iter()
            .map(|&(_, p)| p)
            .filter(|&p| Some(p) != first)
            .take(others),
    );
    let candidates = order
        .into_iter()
        .map(|p| {
            let mut b = because.remove(&p).unwrap_or_default();
            b.sort_by(|x, y| y.value.cmp(&x.value).then(x.pattern.cmp(&y.pattern)));
            Candidate {
                point: p,
                value: valuation.value(p, to_move),
                because: b,
                classes: [class(p, to_move), class(p, to_move.other())],
            }
        })
        .collect();
    Explanation {
        to_move,
        chosen,
        candidates,
    }
}

/// The main search's exact score of each of `points` for the side to
/// move of `game`, at every depth from 1 to `depth`
/// ([`Engine::scores_by_depth`]): the candidates' scores side by side as
/// the search deepens, where a choice shows only its best move's. The
/// scores of one depth compare with each other; from one depth to the
/// next they may swing by the value of a three (whose move it is at the
/// horizon changes with the depth's parity), which is the search's
/// business to read, and this table's to show.
pub fn scores_by_depth(
    game: &FiveBoard,
    db: Arc<FiveDatabase>,
    points: &[Point],
    depth: u32,
) -> Vec<Vec<i64>> {
    Engine::with_database(game.clone(), db).scores_by_depth(points, depth)
}

/// [`scores_by_depth`] as a table: a row a point (numbered as on the
/// board of [`board_text`]), a column a depth.
pub fn depth_table(points: &[Point], scores: &[Vec<i64>]) -> String {
    let depth = scores.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::from(
        "the main search's score of each, depth by depth (full window; \
         won/lost N: a forced line of N plies):\n",
    );
    let _ = write!(out, "{:>10}", "depth");
    for d in 1..=depth {
        let _ = write!(out, " {d:>11}");
    }
    out.push('\n');
    let shown = |v: i64| {
        let win = super::engine::WIN;
        if v > win / 2 {
            format!("won {}", win - v)
        } else if v < -win / 2 {
            format!("lost {}", win + v)
        } else {
            v.to_string()
        }
    };
    for (k, (&p, row)) in points.iter().zip(scores).enumerate() {
        let mark = char::from_digit(k as u32 + 1, 36).unwrap_or('?');
        let _ = write!(out, "{:>3} {:>6}", mark, xy(p));
        for &v in row {
            let _ = write!(out, " {:>11}", shown(v));
        }
        out.push('\n');
    }
    out
}

/// A point as Gomocup writes it: `x,y`, 0-based, x the column.
fn xy(p: Point) -> String {
    format!("{},{}", p.j, p.i)
}

/// The board as Gomocup's coordinates see it: columns `x` across, rows
/// `y` down, both from 0; `X` Black, `O` White, the last move in
/// brackets and the candidates of `explanation` (when given) numbered
/// `1`, `2`… in order (1 the chosen point) on their empty points.
pub fn board_text(game: &FiveBoard, explanation: Option<&Explanation>) -> String {
    use crate::position::Position;
    let n = game.size() as i32;
    let mut out = String::from("    ");
    for x in 0..n {
        let _ = write!(out, "{x:>3}");
    }
    out.push('\n');
    let last = game.last_move();
    let mark = |p: Point| -> Option<char> {
        let e = explanation?;
        let k = e.candidates.iter().position(|c| c.point == p)?;
        char::from_digit(k as u32 + 1, 36)
    };
    for y in 0..n {
        let _ = write!(out, "{y:>3} ");
        for x in 0..n {
            let p = Point::new(y, x);
            let c = match game.stone(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => mark(p).unwrap_or('.'),
            };
            // Three characters a point, as the header: the bracket
            // closing the last move's, the one opening it, the stone.
            let close = if x > 0 && Some(Point::new(y, x - 1)) == last {
                ']'
            } else {
                ' '
            };
            let open = if Some(p) == last { '[' } else { ' ' };
            let _ = write!(out, "{close}{open}{c}");
        }
        if last == Some(Point::new(y, n - 1)) {
            out.push(']');
        }
        out.push('\n');
    }
    out
}

impl Explanation {
    /// The explanation as text: the move and its reason, then each
    /// candidate with its patterns.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let side = color_word(self.to_move);
        match &self.chosen {
            None => {
                let _ = writeln!(out, "{side} to move: no move (the game is over)");
            }
            Some((p, why)) => {
                let reason = match why {
                    Reason::Opening => "the opening point".to_string(),
                    Reason::Wins => "it makes five".to_string(),
                    Reason::Blocks => "it stops the opponent's five".to_string(),
                    Reason::Vcf(line) => format!(
                        "a forced win by fours: {}",
                        line.iter().map(|&q| xy(q)).collect::<Vec<_>>().join(" ")
                    ),
                    Reason::Vct(line) => format!(
                        "a forced win by threes and fours: {}",
                        line.iter().map(|&q| xy(q)).collect::<Vec<_>>().join(" ")
                    ),
                    Reason::Search {
                        score,
                        depth,
                        defends,
                    } => format!(
                        "the search's choice at depth {depth} (score {score}){}",
                        if *defends {
                            ", stopping the opponent's forced win"
                        } else {
                            ""
                        }
                    ),
                    Reason::OnlyDefence => {
                        "the one move that stops the opponent's forced win".to_string()
                    }
                };
                let _ = writeln!(out, "{side} to move plays {}: {reason}", xy(*p));
            }
        }
        let other = color_word(self.to_move.other());
        for c in &self.candidates {
            let classes: Vec<String> = c
                .classes
                .iter()
                .zip([side, other])
                .filter_map(|(class, who)| class.map(|k| format!("{who}'s {}", k.name())))
                .collect();
            let _ = write!(out, "  {} worth {}", xy(c.point), c.value);
            if !classes.is_empty() {
                let _ = write!(out, ": {}", classes.join(", "));
            }
            out.push('\n');
            for b in &c.because {
                let whose = if b.maker == self.to_move {
                    "makes"
                } else {
                    "stops the opponent's"
                };
                let _ = writeln!(
                    out,
                    "    {} {} ({}) +{}",
                    whose,
                    b.kind.name(),
                    b.pattern,
                    b.value
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::five::rules::Rule;

    /// A board of `rule` with `stones` (row, column, colour) and `to_move`.
    fn board(rule: Rule, stones: &[(i32, i32, Color)], to_move: Color) -> FiveBoard {
        let mut b = FiveBoard::new(15, rule).unwrap();
        for &(i, j, c) in stones {
            b.put(Point::new(i, j), c).unwrap();
        }
        b.set_to_move(to_move);
        b
    }

    /// Black's open three on row 7, White to move.
    fn open_three() -> FiveBoard {
        board(
            Rule::Freestyle,
            &[
                (7, 5, Color::Black),
                (7, 6, Color::Black),
                (7, 7, Color::Black),
                (8, 8, Color::White),
                (9, 9, Color::White),
            ],
            Color::White,
        )
    }

    #[test]
    fn an_open_three_is_explained_by_its_patterns() {
        let b = open_three();
        let e = explain(&b, 2, 3);
        let (p, _) = e.chosen.clone().expect("a move");
        // White must stop the open three at one of its ends.
        assert!(
            [Point::new(7, 4), Point::new(7, 8)].contains(&p),
            "{}",
            e.text()
        );
        let first = &e.candidates[0];
        assert_eq!(first.point, p);
        assert!(first
            .because
            .iter()
            .any(|b| b.maker == Color::Black && b.kind == Kind::OpenFour));
        assert!(
            e.text().contains("stops the opponent's open-four"),
            "{}",
            e.text()
        );
        // The point is where Black would make an open four.
        assert_eq!(first.classes[1], Some(PointClass::OpenFour));
        assert!(e.text().contains("black's open-four"), "{}", e.text());
        assert!(e.candidates.len() >= 2);
    }

    #[test]
    fn the_scores_by_depth_see_a_three_left_open() {
        let b = open_three();
        let db = FiveDatabase::builtin();
        // A block of the open three, a point far from it, and a stone.
        let points = [Point::new(7, 8), Point::new(0, 0), Point::new(7, 7)];
        let scores = scores_by_depth(&b, db.clone(), &points, 3);
        assert_eq!(scores[0].len(), 3);
        assert!(scores[2].is_empty(), "an occupied point has no scores");
        // Ignoring the three loses at once: Black's straight four, then
        // five, within three plies.
        assert!(scores[1][2] < -super::super::engine::WIN / 2, "{scores:?}");
        assert!(scores[0][2] > scores[1][2]);
        let table = depth_table(&points, &scores);
        assert!(table.contains("  1    8,7 "), "{table}");
        assert_eq!(table.lines().count(), 5, "{table}");
    }

    #[test]
    fn the_best_score_by_depth_is_the_choices_score_at_that_depth() {
        // A quiet position: no threat to answer, so a choice searches its
        // first twelve candidates, and below depth 4 (no reductions) the
        // table cannot change a score.
        let b = board(
            Rule::Exact,
            &[
                (7, 7, Color::Black),
                (8, 9, Color::White),
                (5, 6, Color::Black),
                (9, 5, Color::White),
            ],
            Color::Black,
        );
        let db = FiveDatabase::builtin();
        let engine = Engine::with_database(b.clone(), db.clone());
        let root: Vec<Point> = engine.candidates().into_iter().take(12).collect();
        let scores = scores_by_depth(&b, db.clone(), &root, 3);
        let stop = AtomicBool::new(false);
        for d in 1..=3 {
            let mut engine = Engine::with_database(b.clone(), db.clone());
            let mut limits = Limits::at_depth(d, &stop);
            limits.table_bytes = super::super::engine::DEFAULT_TABLE_BYTES;
            let Some((p, Reason::Search { score, depth, .. })) = engine.choose(&limits) else {
                panic!("a searched move at depth {d}");
            };
            assert_eq!(depth, d);
            let best = scores.iter().map(|s| s[d as usize - 1]).max().unwrap();
            assert_eq!(score, best, "depth {d}: {scores:?}");
            let k = root.iter().position(|&q| q == p).unwrap();
            assert_eq!(scores[k][d as usize - 1], best, "depth {d}");
        }
    }
}
