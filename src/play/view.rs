//! What `katachi play` draws: [`render`] turns an [`App`] into a frame.
//!
//! The screen is a function of the app alone, so that tests render into
//! ratatui's `TestBackend` and compare the text. Where things are is
//! computed here once ([`board_geometry`], [`menu_targets`]) and read by
//! the app too, to turn a click into a point or a choice.
//!
//! A game screen is a title line, the board with its coordinates on all
//! four sides and a panel beside it (players, last move, thinking, the
//! hint, the keys), then a message line and the line the user types on.
//! A point is two cells wide: the stone and, before it, a separator that
//! the highlights draw on (`[X]` the cursor, `(X)` the last move), so a
//! 15x15 board is 35 columns and fits an 80x24 terminal with its panel.
//! A board taller or wider than the terminal shows the part around the
//! cursor. Without colours every highlight is also in the text or bold
//! and reversed, so the screen reads the same over any terminal.

use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::{rule_label, vertex, App, Game, Menu, MenuRow, Mode, Screen, Settings};
use crate::position::{Color, Point, Position};

/// Columns of a board beside its points: the row numbers on both sides
/// and the separator after the last point.
const BOARD_FRAME: u16 = 5;

/// Where the board lies on the screen and which part of it shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// The top left corner (the row numbers' column, the letters' row).
    pub x: u16,
    pub y: u16,
    pub size: usize,
    /// The first row and column shown, and how many.
    pub first_row: usize,
    pub rows: usize,
    pub first_col: usize,
    pub cols: usize,
    /// Whether the letters are drawn under the board too.
    pub bottom_letters: bool,
}

impl Geometry {
    /// The screen column of the stone of board column `j` (shown).
    pub fn stone_x(&self, j: usize) -> u16 {
        self.x + 3 + 2 * (j - self.first_col) as u16
    }

    /// The screen row of board row `i` (shown).
    pub fn stone_y(&self, i: usize) -> u16 {
        self.y + 1 + (i - self.first_row) as u16
    }

    /// The columns the board takes.
    pub fn width(&self) -> u16 {
        2 * self.cols as u16 + BOARD_FRAME
    }

    pub fn height(&self) -> u16 {
        1 + self.rows as u16 + u16::from(self.bottom_letters)
    }

    /// The point under a screen cell: a stone's cell or the separator
    /// after it.
    pub fn point_at(&self, column: u16, row: u16) -> Option<Point> {
        let r = usize::from(row.checked_sub(self.y + 1)?);
        let o = usize::from(column.checked_sub(self.x + 2)?);
        let k = o.saturating_sub(1) / 2;
        (r < self.rows && k < self.cols && o <= 2 * self.cols)
            .then(|| Point::new((self.first_row + r) as i32, (self.first_col + k) as i32))
    }
}

/// The game screen's board area: below the title, above the message and
/// the typed line.
fn board_area(screen: Rect) -> Rect {
    Rect::new(
        screen.x,
        screen.y + 1,
        screen.width,
        screen.height.saturating_sub(3),
    )
}

/// Where the board of side `size` goes on a screen, showing the cursor.
pub fn board_geometry(screen: Rect, size: usize, cursor: Point) -> Geometry {
    let area = board_area(screen);
    let cols = usize::from(area.width.saturating_sub(BOARD_FRAME) / 2).clamp(1, size);
    let h = usize::from(area.height);
    let (rows, bottom_letters) = if h >= size + 2 {
        (size, true)
    } else {
        (h.saturating_sub(1).clamp(1, size), false)
    };
    // The part shown is centred on the cursor as far as the edges allow.
    let first = |at: i32, shown: usize| {
        (at.max(0) as usize)
            .saturating_sub(shown / 2)
            .min(size - shown)
    };
    Geometry {
        x: area.x,
        y: area.y,
        size,
        first_row: first(cursor.i, rows),
        rows,
        first_col: first(cursor.j, cols),
        cols,
        bottom_letters,
    }
}

/// A choice of the start screen where it is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Target {
    /// The row of [`MenuRow::ALL`] and the choice in it.
    pub row: usize,
    pub choice: usize,
    pub rect: Rect,
}

/// Where the label column of the start screen ends.
const MENU_LABELS: u16 = 16;

/// Every choice of the start screen and where it is drawn.
pub fn menu_targets(screen: Rect, menu: &Menu, s: &Settings) -> Vec<Target> {
    let mut out = Vec::new();
    for (r, &row) in MenuRow::ALL.iter().enumerate() {
        let y = screen.y + 2 + 2 * r as u16;
        let mut x = screen.x + MENU_LABELS;
        let (choices, _) = menu.choices(row, s);
        for (k, c) in choices.iter().enumerate() {
            let w = c.chars().count() as u16 + 2;
            if y < screen.bottom() && x + w <= screen.right() {
                out.push(Target {
                    row: r,
                    choice: k,
                    rect: Rect::new(x, y, w, 1),
                });
            }
            x += w + 1;
        }
    }
    out
}

/// The styles of the screen, with or without colours.
#[derive(Clone, Copy, Debug)]
struct Palette {
    colour: bool,
}

impl Palette {
    fn stone(&self, c: Color) -> Style {
        if !self.colour {
            return Style::new().add_modifier(Modifier::BOLD);
        }
        Style::new().add_modifier(Modifier::BOLD).fg(match c {
            Color::Black => Tint::LightCyan,
            Color::White => Tint::LightYellow,
        })
    }

    fn win(&self) -> Style {
        let s = Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED);
        if self.colour {
            s.fg(Tint::LightGreen)
        } else {
            s
        }
    }

    fn cursor(&self) -> Style {
        let s = Style::new().add_modifier(Modifier::BOLD);
        if self.colour {
            s.fg(Tint::LightMagenta)
        } else {
            s
        }
    }

    fn last(&self) -> Style {
        let s = Style::new().add_modifier(Modifier::BOLD);
        if self.colour {
            s.fg(Tint::LightRed)
        } else {
            s
        }
    }

    fn faint(&self) -> Style {
        if self.colour {
            Style::new().fg(Tint::DarkGray)
        } else {
            Style::new()
        }
    }

    fn forbidden(&self) -> Style {
        if self.colour {
            Style::new().fg(Tint::Red)
        } else {
            Style::new()
        }
    }

    fn title(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    fn chosen(&self) -> Style {
        let s = Style::new().add_modifier(Modifier::BOLD);
        if self.colour {
            s.fg(Tint::LightGreen)
        } else {
            s
        }
    }
}

/// Draws the app.
pub fn render(app: &App, frame: &mut Frame<'_>) {
    let p = Palette {
        colour: app.settings.colour,
    };
    match &app.screen {
        Screen::Start(menu) => render_menu(app, menu, p, frame),
        Screen::Game(g) => render_game(app, g, p, frame),
    }
}

fn render_menu(app: &App, menu: &Menu, p: Palette, frame: &mut Frame<'_>) {
    let area = frame.area();
    let title = Line::styled(pad(" katachi play - five in a row", area.width), p.title());
    frame.render_widget(Paragraph::new(title), Rect::new(0, 0, area.width, 1));
    let targets = menu_targets(area, menu, &app.settings);
    for (r, &row) in MenuRow::ALL.iter().enumerate() {
        let y = area.y + 2 + 2 * r as u16;
        if y >= area.bottom() {
            break;
        }
        let mark = if menu.row == r { "> " } else { "  " };
        frame.render_widget(
            Paragraph::new(Line::styled(format!("{mark}{}", row.label()), p.cursor())),
            Rect::new(area.x, y, MENU_LABELS.min(area.width), 1),
        );
        let (choices, chosen) = menu.choices(row, &app.settings);
        for t in targets.iter().filter(|t| t.row == r) {
            let text = &choices[t.choice];
            let (l, r, style) = if t.choice == chosen && row != MenuRow::Start {
                ('[', ']', p.chosen())
            } else if row == MenuRow::Start {
                ('[', ']', p.title())
            } else {
                (' ', ' ', Style::new())
            };
            frame.render_widget(
                Paragraph::new(Line::styled(format!("{l}{text}{r}"), style)),
                t.rect,
            );
        }
    }
    let help = [
        "Up/Down: a line   Left/Right or a click: a choice",
        "Enter: start      q: quit",
    ];
    let y = area.y + 3 + 2 * MenuRow::ALL.len() as u16;
    for (k, h) in help.iter().enumerate() {
        let y = y + k as u16;
        if y < area.bottom() {
            frame.render_widget(
                Paragraph::new(Line::styled(format!("  {h}"), p.faint())),
                Rect::new(area.x, y, area.width, 1),
            );
        }
    }
}

fn render_game(app: &App, g: &Game, p: Palette, frame: &mut Frame<'_>) {
    let area = frame.area();
    let s = &app.settings;
    let b = &g.board;
    let n = b.size();
    let title = format!(
        " katachi play - {} {n}x{n} - {} vs {}",
        rule_label(b.rule()),
        s.player(Color::Black),
        s.player(Color::White)
    );
    frame.render_widget(
        Paragraph::new(Line::styled(pad(&title, area.width), p.title())),
        Rect::new(area.x, area.y, area.width, 1),
    );
    let geo = board_geometry(area, n, g.cursor);
    for (k, line) in board_lines(app, g, &geo, p).into_iter().enumerate() {
        frame.render_widget(
            Paragraph::new(line),
            Rect::new(geo.x, geo.y + k as u16, geo.width().min(area.width), 1),
        );
    }
    let px = geo.x + geo.width() + 2;
    if px + 12 < area.right() {
        let panel = Rect::new(px, geo.y, area.right() - px, board_area(area).height);
        frame.render_widget(
            Paragraph::new(panel_lines(app, g, p)).wrap(Wrap { trim: false }),
            panel,
        );
    }
    if area.height >= 3 {
        let y = area.bottom() - 2;
        frame.render_widget(
            Paragraph::new(Line::from(app.message.as_str())),
            Rect::new(area.x, y, area.width, 1),
        );
        let prompt = if app.over() && app.line.is_empty() {
            Line::styled("y: play again   n: quit   (or type a command)", p.cursor())
        } else {
            Line::from(vec![
                Span::styled("> ", p.cursor()),
                Span::raw(app.line.as_str()),
                Span::styled("_", p.cursor()),
            ])
        };
        frame.render_widget(
            Paragraph::new(prompt),
            Rect::new(area.x, y + 1, area.width, 1),
        );
    }
}

/// The board's lines: the letters, each row with its numbers, the
/// letters again when there is room.
fn board_lines<'a>(app: &App, g: &Game, geo: &Geometry, p: Palette) -> Vec<Line<'a>> {
    let b = &g.board;
    let n = geo.size;
    let cols = geo.first_col..geo.first_col + geo.cols;
    let letters: String = cols
        .clone()
        .map(|j| {
            let v = vertex(Point::new(0, j as i32), n);
            format!(" {}", &v[..1])
        })
        .collect();
    let letters = Line::styled(format!("  {letters}   "), p.faint());
    let mut out = vec![letters.clone()];
    let hint = g.hint.as_ref().and_then(|h| h.point);
    let last = b.last_move();
    for i in geo.first_row..geo.first_row + geo.rows {
        let number = n - i;
        let mut spans = vec![Span::styled(format!("{number:>2}"), p.faint())];
        for j in cols.clone() {
            let pt = Point::new(i as i32, j as i32);
            let left = Point::new(i as i32, j as i32 - 1);
            spans.push(separator(pt, left, g.cursor, last, p));
            spans.push(point(app, g, pt, hint, p));
        }
        let end = Point::new(i as i32, (geo.first_col + geo.cols) as i32);
        let right = Point::new(i as i32, end.j - 1);
        spans.push(separator(end, right, g.cursor, last, p));
        spans.push(Span::styled(format!("{number:<2}"), p.faint()));
        out.push(Line::from(spans));
    }
    if geo.bottom_letters {
        out.push(letters);
    }
    out
}

/// The cell before point `at` (after `left`): the cursor's and the last
/// move's brackets.
fn separator(
    at: Point,
    left: Point,
    cursor: Point,
    last: Option<Point>,
    p: Palette,
) -> Span<'static> {
    if cursor == at {
        Span::styled("[", p.cursor())
    } else if cursor == left {
        Span::styled("]", p.cursor())
    } else if last == Some(at) {
        Span::styled("(", p.last())
    } else if last == Some(left) {
        Span::styled(")", p.last())
    } else {
        Span::raw(" ")
    }
}

/// A point's cell: its stone, `.`, `!` for a point forbidden to Black
/// under renju, `*` for the hint.
fn point(app: &App, g: &Game, pt: Point, hint: Option<Point>, p: Palette) -> Span<'static> {
    let s = &app.settings;
    match g.board.stone(pt) {
        Some(c) => {
            let style = if g.win_row.contains(&pt) {
                p.win()
            } else {
                p.stone(c)
            };
            Span::styled(s.symbol_of(c).char().to_string(), style)
        }
        None if hint == Some(pt) => Span::styled("*", p.cursor()),
        None if g.forbidden.contains(&pt) && !s.is_computer(Color::Black) => {
            Span::styled("!", p.forbidden())
        }
        None => Span::styled(".", p.faint()),
    }
}

/// The panel: the players and whose move, the last move, the engine, the
/// hint and the keys.
fn panel_lines<'a>(app: &App, g: &Game, p: Palette) -> Vec<Line<'a>> {
    let s = &app.settings;
    let b = &g.board;
    let n = b.size();
    let mut out = Vec::new();
    let moves = b.moves().len();
    match b.outcome() {
        Some(crate::five::Outcome::Win(c)) => out.push(Line::styled(
            format!("{} wins after {moves} moves", s.player(c)),
            p.win(),
        )),
        Some(crate::five::Outcome::Draw) => {
            out.push(Line::styled(format!("a draw after {moves} moves"), p.win()))
        }
        None => out.push(Line::styled(
            format!("move {}: {} to play", moves + 1, s.player(b.to_move())),
            p.chosen(),
        )),
    }
    if let Some(last) = b.last_move() {
        let who = s.player(b.to_move().other());
        out.push(Line::from(format!("last: {} by {who}", vertex(last, n))));
        if let Some(why) = &g.last_reason {
            out.push(Line::styled(format!("  {why}"), p.faint()));
        }
    } else {
        out.push(Line::from(""));
    }
    if g.thinking() {
        // A spinner turned by the shell's ticks: the screen is alive.
        let spin = ['|', '/', '-', '\\'][(app.now.as_millis() / 125 % 4) as usize];
        out.push(Line::styled(
            format!("{} thinking {spin}", s.player(b.to_move())),
            p.last(),
        ));
    } else if g.hinting() {
        out.push(Line::styled("looking for a hint...", p.last()));
    } else if s.mode == Mode::ComputerComputer && b.outcome().is_none() {
        let state = if g.paused { "paused" } else { "playing" };
        out.push(Line::from(format!(
            "{state}, {} ms between moves",
            s.pace.as_millis()
        )));
    } else {
        out.push(Line::from(""));
    }
    if b.rule() == crate::five::Rule::Pente {
        // Both sides' captured pairs: the fifth wins.
        out.push(Line::from(format!(
            "pairs taken: {} {}, {} {} (5 win)",
            s.symbol_of(Color::Black).char(),
            b.captures(Color::Black),
            s.symbol_of(Color::White).char(),
            b.captures(Color::White),
        )));
    }
    if b.rule() == crate::five::Rule::Renju
        && !g.forbidden.is_empty()
        && !s.is_computer(Color::Black)
    {
        out.push(Line::styled(
            format!("! forbidden for {}", s.symbol_of(Color::Black).char()),
            p.forbidden(),
        ));
    }
    if let Some(h) = &g.hint {
        out.push(Line::from(""));
        out.push(Line::styled("hint:", p.cursor()));
        out.extend(h.lines.iter().map(|l| Line::from(l.clone())));
    }
    out.push(Line::from(""));
    let keys: &[&str] = if s.mode == Mode::ComputerComputer {
        &[
            "space pause/go on  . one move",
            "+ faster  - slower",
            "type + Enter: u undo, n new,",
            "s FILE save, l FILE load, q quit",
        ]
    } else {
        &[
            "arrows + Enter, a click, or",
            "type a point (h8) + Enter",
            "type + Enter: u undo, h hint,",
            "n new, s FILE save, l FILE load,",
            "q quit",
        ]
    };
    out.extend(keys.iter().map(|k| Line::styled(*k, p.faint())));
    out
}

/// `text` padded with spaces to `width` columns (a full-width bar).
fn pad(text: &str, width: u16) -> String {
    format!("{text:<w$}", w = usize::from(width))
}
