//! "Why this move?": an [`Evaluation`] rendered as text for a person
//! tuning the pattern database.
//!
//! The seed's tuning advice is to make the *minimum* weight change that
//! promotes the right move, which needs three things on one screen: which
//! patterns stand behind each candidate, term by term (weight, wind,
//! bonus, connection, helper, class checks); each pattern's diagram as it
//! lies on the board (its grid transformed by the matched transformation,
//! beside the board window it covers, with coordinates); and how far each
//! candidate is from the chosen move. The move generator builds the
//! verdict once as data ([`Evaluation`]); this module only prints it, so
//! `katachi explain`, the GTP `katachi-explain` and GoGui commands, and the
//! SGF labels can never disagree with the move played. Output is
//! deterministic: same evaluation and position, same text.

use std::fmt::Write;

use mkpat::grid::{Grid, Spec};
use mkpat::tables::Tables;
use mkpat::transform::TRANSFORM_NAMES;

use super::evaluation::{Candidate, Evaluation, PatternReason, Reason, RejectReason, Rejected};
use super::notation::format_move;
use crate::notation::{color_word, vertex};
use crate::position::{Color, Point, Position};

/// What to show and where the patterns came from.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub tables: Tables<'a>,
    /// The database's file, for `file:line` locations.
    pub db: &'a str,
    pub color: Color,
    /// How many candidates to explain.
    pub top: usize,
    /// Whether the evaluation ran with every pattern (`-a`).
    pub all_patterns: bool,
}

/// How much `c`'s value must rise to beat the chosen move strictly.
pub fn needed(best: &Candidate, c: &Candidate) -> i32 {
    best.value - c.value + 1
}

/// How a candidate stands against the chosen move: `(chosen)` after
/// `before_chosen`, or `needs +D to beat the chosen move` after
/// `before_needs`; empty when nothing is chosen.
fn standing(
    best: Option<&Candidate>,
    c: &Candidate,
    before_chosen: &str,
    before_needs: &str,
) -> String {
    match best {
        Some(b) if b.point == c.point => format!("{before_chosen}(chosen)"),
        Some(b) => format!(
            "{before_needs}needs +{} to beat the chosen move",
            needed(b, c)
        ),
        None => String::new(),
    }
}

/// The full explanation of the best `ctx.top` candidates.
pub fn explain(eval: &Evaluation, position: &dyn Position, ctx: &Context<'_>) -> String {
    let size = position.size();
    let mut out = String::new();
    let shown = eval.candidates.len().min(ctx.top);
    let _ = writeln!(
        out,
        "{} to move on {size}x{size}; {} candidate(s), {shown} shown; {} rejected; {}",
        color_word(ctx.color),
        eval.candidates.len(),
        eval.rejected.len(),
        if ctx.all_patterns {
            "every pattern evaluated (--all-patterns)".to_string()
        } else {
            format!("{} match(es) pruned (best first)", eval.pruned)
        }
    );
    let best = eval.best();
    match best {
        Some(b) => {
            let _ = writeln!(
                out,
                "chosen move: {} (value {})",
                vertex(b.point, size),
                b.value
            );
        }
        None => {
            let _ = writeln!(out, "chosen move: none (no candidate worth a move)");
        }
    }
    for (k, c) in eval.candidates.iter().take(ctx.top).enumerate() {
        let _ = write!(
            out,
            "\n{}. {}  value {}",
            k + 1,
            vertex(c.point, size),
            c.value
        );
        out.push_str(&standing(best, c, "  ", "  "));
        out.push('\n');
        for r in &c.reasons {
            reason(&mut out, r, position, ctx);
        }
        let here: Vec<&Rejected> = eval
            .rejected
            .iter()
            .filter(|r| r.point == c.point)
            .collect();
        for r in here {
            let _ = writeln!(out, "   rejected here: {}", rejected_line(r));
        }
    }
    let elsewhere: Vec<&Rejected> = eval
        .rejected
        .iter()
        .filter(|r| {
            !eval
                .candidates
                .iter()
                .take(ctx.top)
                .any(|c| c.point == r.point)
        })
        .collect();
    if !elsewhere.is_empty() {
        let _ = writeln!(out, "\nrejected elsewhere:");
        for r in elsewhere {
            let _ = writeln!(out, "   {}: {}", vertex(r.point, size), rejected_line(r));
        }
    }
    out
}

fn reason(out: &mut String, r: &Reason, position: &dyn Position, ctx: &Context<'_>) {
    let size = position.size();
    match r {
        Reason::Capture {
            string,
            stones,
            value,
        } => {
            let _ = writeln!(
                out,
                "   capture: takes the string at {} ({stones} stone(s)), value {value}",
                vertex(*string, size)
            );
        }
        Reason::Save {
            string,
            stones,
            value,
        } => {
            let _ = writeln!(
                out,
                "   save: rescues the string at {} ({stones} stone(s)), value {value}",
                vertex(*string, size)
            );
        }
        Reason::Dragon {
            dragon,
            stones,
            mine,
            value,
        } => {
            let what = if *mine {
                "strengthens the weak dragon"
            } else {
                "attacks the weak dragon"
            };
            let _ = writeln!(
                out,
                "   dragon: {what} at {} ({stones} stone(s)), value {value}",
                vertex(*dragon, size)
            );
        }
        Reason::Opening { value } => {
            let _ = writeln!(
                out,
                "   opening: a 3-3 / 4-4 area point far from every stone, value {value}"
            );
        }
        Reason::Corner { stones, value } => {
            let what = if *stones == 0 {
                "no stone".to_string()
            } else {
                format!("{stones} stone(s), none next to it")
            };
            let _ = writeln!(
                out,
                "   corner: a 4-4, 3-4 or 3-3 point of a corner with {what}, value {value}"
            );
        }
        Reason::OpenSide { run, value } => {
            let _ = writeln!(
                out,
                "   open side: the middle of {run} open point(s) on the third or fourth line, value {value}"
            );
        }
        Reason::Pattern(p) => pattern_reason(out, p, position, ctx),
        Reason::Fill { value } => {
            let _ = writeln!(
                out,
                "   fill: no pattern or tactical reason; neither an own eye nor self-atari, value {value}"
            );
        }
    }
}

/// One pattern's contribution: where it comes from, its terms and its
/// diagram on the board.
pub fn pattern_reason(
    out: &mut String,
    p: &PatternReason,
    position: &dyn Position,
    ctx: &Context<'_>,
) {
    let size = position.size();
    let _ = writeln!(
        out,
        "   pattern {} ({}:{}), transformation {} ({}), anchor {}: value {}",
        p.name,
        ctx.db,
        p.line,
        p.trans,
        TRANSFORM_NAMES[usize::from(p.trans & 7)],
        vertex(p.anchor, size),
        p.value
    );
    let mut terms = format!(
        "     weight {}, wind {:+}, bonus {:+}, connection {:+}",
        p.weight, p.assistance, p.bonus, p.connection
    );
    match &p.helper {
        Some((name, v)) => {
            let _ = write!(
                terms,
                "; helper {name} returned {v} (replaces weight and wind)"
            );
        }
        None => terms.push_str("; no helper"),
    }
    let classes: String = if p.classes.is_empty() {
        "none".into()
    } else {
        p.classes
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(out, "{terms}; classes checked: {classes}");
    if let Some(d) = diagram_on_board(p, position, ctx) {
        for line in d.lines() {
            let _ = writeln!(out, "     {line}");
        }
    }
}

/// A rejected reason in one line.
pub fn rejected_line(r: &Rejected) -> String {
    let who = match &r.pattern {
        Some(name) => format!("pattern {name} (transformation {})", r.trans),
        None => "direct reason".to_string(),
    };
    let why = match &r.why {
        RejectReason::Class(c, s) => format!("class `{c}` failed: {s}"),
        RejectReason::Unsafe(s) => format!("unsafe: {s}"),
        RejectReason::Helper(h) => format!("helper {h} returned 0"),
        RejectReason::Value(v) => format!("valued {v}, nothing to propose"),
        RejectReason::MissingHelper(h) => format!("names helper {h}, which katachi does not have"),
        RejectReason::Constraint(c) => format!("constraint false: {c}"),
        RejectReason::Illegal => "illegal move".to_string(),
    };
    format!("{who}: {why}")
}

/// The pattern's diagram before transformation, rebuilt from its
/// elements (every cell not a `?`) and its extent.
fn pattern_grid(tables: Tables<'_>, index: usize) -> Option<(Grid, i32, i32)> {
    let p = tables.patterns.get(index)?;
    let x = p.extent;
    let rows = (x.max_i - x.min_i + 1) as usize;
    let cols = (x.max_j - x.min_j + 1) as usize;
    let mut cells = vec![Spec::Any; rows * cols];
    let at = |di: i32, dj: i32| {
        (di - i32::from(x.min_i)) as usize * cols + (dj - i32::from(x.min_j)) as usize
    };
    for e in tables.elements_of(p) {
        cells[at(e.di(), e.dj())] = Spec::Is(e.cell());
    }
    cells[at(i32::from(p.move_di), i32::from(p.move_dj))] = Spec::Move;
    Some((
        Grid {
            geometry: mkpat::geometry::Geometry::Square,
            rows,
            cols,
            cells,
            edges: p.edges,
        },
        i32::from(x.min_i),
        i32::from(x.min_j),
    ))
}

/// The board window under a pattern (one line of margin) beside the
/// pattern's transformed diagram, both with board coordinates. The board
/// shows `X` black, `O` white; the diagram its own letters (`O` the side
/// to move).
pub fn diagram_on_board(
    p: &PatternReason,
    position: &dyn Position,
    ctx: &Context<'_>,
) -> Option<String> {
    let (grid, _, _) = pattern_grid(ctx.tables, p.pattern as usize)?;
    let pat = &ctx.tables.patterns[p.pattern as usize];
    let placed = grid.transformed(p.trans);
    let tx = pat.extent.transformed(p.trans);
    // The transformed grid's cell (0, 0) lies at anchor + transformed min.
    let top = p.anchor.i + i32::from(tx.min_i);
    let left = p.anchor.j + i32::from(tx.min_j);
    let n = position.size() as i32;
    let lo_i = (top - 1).max(0);
    let hi_i = (top + placed.rows as i32).min(n - 1);
    let lo_j = (left - 1).max(0);
    let hi_j = (left + placed.cols as i32).min(n - 1);
    let cell = |i: i32, j: i32| -> Option<char> {
        let (r, c) = (i - top, j - left);
        if r < 0 || c < 0 || r >= placed.rows as i32 || c >= placed.cols as i32 {
            return None;
        }
        Some(placed.get(r as usize, c as usize).as_char())
    };
    let letters: String = (lo_j..=hi_j)
        .map(|j| {
            format!(
                " {}",
                vertex(Point::new(0, j), n as usize)
                    .chars()
                    .next()
                    .unwrap_or('?')
            )
        })
        .collect();
    let width = letters.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "   {:width$}     pattern (O = {})",
        "board",
        color_word(ctx.color)
    );
    let _ = writeln!(out, "  {letters:width$}    {letters}");
    for i in lo_i..=hi_i {
        let row = n - i;
        let board: String = (lo_j..=hi_j)
            .map(|j| {
                let ch = match position.stone(Point::new(i, j)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                format!(" {ch}")
            })
            .collect();
        let diagram: String = (lo_j..=hi_j)
            .map(|j| format!(" {}", cell(i, j).unwrap_or(' ')))
            .collect();
        let _ = writeln!(out, "{row:2}{board:width$}  {row:2}{}", diagram.trim_end());
    }
    Some(out)
}

/// The patterns behind one point (GoGui's "Patterns at point").
pub fn patterns_at(
    eval: &Evaluation,
    point: Point,
    position: &dyn Position,
    ctx: &Context<'_>,
) -> String {
    let size = position.size();
    let mut out = String::new();
    match eval.candidates.iter().find(|c| c.point == point) {
        Some(c) => {
            let _ = write!(out, "{}: value {}", vertex(point, size), c.value);
            out.push_str(&standing(eval.best(), c, " ", ", "));
            out.push('\n');
            for r in &c.reasons {
                reason(&mut out, r, position, ctx);
            }
        }
        None => {
            let _ = writeln!(out, "{}: not a candidate", vertex(point, size));
        }
    }
    for r in eval.rejected.iter().filter(|r| r.point == point) {
        let _ = writeln!(out, "   rejected: {}", rejected_line(r));
    }
    out
}

/// Each candidate's value by point, for boards and labels.
fn value_map(eval: &Evaluation, size: usize) -> Vec<Option<i32>> {
    let mut map = vec![None; size * size];
    for c in &eval.candidates {
        let (i, j) = (c.point.i, c.point.j);
        if (0..size as i32).contains(&i) && (0..size as i32).contains(&j) {
            map[i as usize * size + j as usize] = Some(c.value);
        }
    }
    map
}

/// GoGui `dboard`: one line per row, top row first, each candidate's
/// value, 0 elsewhere.
pub fn values_dboard(eval: &Evaluation, size: usize) -> String {
    let map = value_map(eval, size);
    map.chunks(size)
        .map(|row| {
            row.iter()
                .map(|v| v.unwrap_or(0).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// GoGui `sboard`: one line per row, top row first, each candidate's
/// value as a label, `""` elsewhere.
pub fn values_sboard(eval: &Evaluation, size: usize) -> String {
    let map = value_map(eval, size);
    map.chunks(size)
        .map(|row| {
            row.iter()
                .map(|v| v.map_or_else(|| "\"\"".to_string(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// SGF labels for the considered moves: each candidate's value, or with
/// `all_patterns` every reason's value, largest first (`24/8/5`), as
/// GNU Go's `-o` with `-a`.
pub fn labels(eval: &Evaluation, all_patterns: bool) -> Vec<(Point, String)> {
    eval.candidates
        .iter()
        .map(|c| {
            let text = if all_patterns && c.reasons.len() > 1 {
                let mut vs: Vec<i32> = c.reasons.iter().map(Reason::value).collect();
                vs.sort_by(|a, b| b.cmp(a));
                vs.iter().map(i32::to_string).collect::<Vec<_>>().join("/")
            } else {
                c.value.to_string()
            };
            (c.point, text)
        })
        .collect()
}

/// The search's verdict as text: how the playouts were spent among the
/// pattern candidates (the `top` most played) and the move chosen.
pub fn search_summary(
    r: &super::search::SearchResult,
    color: crate::position::Color,
    size: usize,
    top: usize,
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let side = color_word(color);
    let best = &r.children[0];
    let _ = writeln!(
        out,
        "\nsearch: {} playouts among {} candidates; {side} wins {:.0}% of them",
        r.playouts,
        r.children.len(),
        100.0 * r.winrate
    );
    let _ = writeln!(
        out,
        "chosen by the search: {} (pattern value {}, {} playouts, {:.0}% won)",
        format_move(best.mv, size),
        best.value,
        best.visits,
        100.0 * best.winrate
    );
    let _ = writeln!(out, "      move  value  playouts  won");
    for (i, c) in r.children.iter().take(top.max(1)).enumerate() {
        let _ = writeln!(
            out,
            "{:>4}. {:<4} {:>5}  {:>8}  {:>3.0}%",
            i + 1,
            format_move(c.mv, size),
            c.value,
            c.visits,
            100.0 * c.winrate
        );
    }
    out
}
