//! `katachi play`'s state machine: every key, click, tick of the clock and
//! answer of the engine is an [`Event`] given to [`App::handle`], which
//! changes the state and returns the [`Effect`]s the shell must carry out
//! (start or stop the engine's thread). Nothing here reads the terminal,
//! the clock or a thread, so tests drive a whole game with events and
//! read what `view::render` draws of it.

use std::time::Duration;

pub use super::settings::{
    rule_label, Choices, Menu, MenuRow, Mode, Settings, Symbol, PACES, QUICK_SIZES, RULES,
};
pub use super::text::{hint_of, parse_vertex, reason_text, vertex};
use super::view;
use super::worker::{Answer, Job, Reply, Task};
use crate::five::record::{read_psq_for, write_psq, Record, ReplayError, TimedMove};
use crate::five::{FiveBoard, IllegalMove, Outcome, Rule};
use crate::position::{Color, Point, Position};

/// How deep a hint searches: deep enough to see a threat coming, quick
/// enough in a debug build (the hint has no clock: the same position gets
/// the same hint).
const HINT_DEPTH: u32 = 4;

/// An engine question in flight.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pending {
    Move(u64),
    Hint(u64),
}

/// The engine's suggestion for the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Hint {
    pub point: Option<Point>,
    /// The explanation, a line each, with the board's coordinates.
    pub lines: Vec<String>,
}

/// A game under way or over.
#[derive(Clone, Debug)]
pub struct Game {
    pub board: FiveBoard,
    pub cursor: Point,
    /// Black's forbidden points while Black is to move under renju.
    pub forbidden: Vec<Point>,
    /// The winning row, once there is one.
    pub win_row: Vec<Point>,
    pub hint: Option<Hint>,
    /// Why the computer played the last move, in words.
    pub last_reason: Option<String>,
    /// A game between computers waits for the user.
    pub paused: bool,
    pending: Option<Pending>,
    /// When the next computer move may be asked for (the pace).
    next_think_at: Duration,
    /// One move asked for by the user while paused.
    step: bool,
    /// A hint asked for and not yet handed to the engine.
    want_hint: bool,
}

impl Game {
    fn new(board: FiveBoard) -> Game {
        let n = board.size() as i32;
        let mut g = Game {
            cursor: board.last_move().unwrap_or(Point::new(n / 2, n / 2)),
            board,
            forbidden: Vec::new(),
            win_row: Vec::new(),
            hint: None,
            last_reason: None,
            paused: false,
            pending: None,
            next_think_at: Duration::ZERO,
            step: false,
            want_hint: false,
        };
        g.refresh();
        g
    }

    /// The forbidden points and the winning row after the board changed.
    fn refresh(&mut self) {
        let b = &self.board;
        self.forbidden =
            if b.rule() == Rule::Renju && b.to_move() == Color::Black && b.outcome().is_none() {
                let n = b.size() as i32;
                (0..n)
                    .flat_map(|i| (0..n).map(move |j| Point::new(i, j)))
                    .filter(|&p| b.is_forbidden(p))
                    .collect()
            } else {
                Vec::new()
            };
        self.win_row = b.win_row();
    }

    /// Whether the computer is thinking of a move.
    pub fn thinking(&self) -> bool {
        matches!(self.pending, Some(Pending::Move(_)))
    }

    /// Whether a hint is asked for.
    pub fn hinting(&self) -> bool {
        self.want_hint || matches!(self.pending, Some(Pending::Hint(_)))
    }
}

/// The keys the app knows, whatever the terminal sent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    Char(char),
    /// A letter with Control held.
    Ctrl(char),
    Enter,
    Esc,
    Backspace,
    Up,
    Down,
    Left,
    Right,
}

/// What happens to the app.
#[derive(Clone, Debug)]
pub enum Event {
    Key(Key),
    /// A left click (or tap) at a cell of the screen.
    Click {
        column: u16,
        row: u16,
    },
    /// The terminal's new size.
    Resize {
        width: u16,
        height: u16,
    },
    /// The time since the app started (the shell's clock).
    Tick(Duration),
    /// The engine answered.
    Answer(Answer),
}

/// What the shell must do for the app.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Hand this job to the engine's thread (boxed: a board is large).
    Think(Box<Job>),
    /// Stop the engine's current job: its answer is no longer wanted.
    Stop,
}

/// Which screen is up.
#[derive(Clone, Debug)]
pub enum Screen {
    Start(Menu),
    Game(Box<Game>),
}

/// `katachi play`: the settings, the screen, the typed line and the
/// message under the board.
#[derive(Clone, Debug)]
pub struct App {
    pub settings: Settings,
    pub screen: Screen,
    /// What the user is typing: a point or a command.
    pub line: String,
    pub message: String,
    /// The last time the shell told (see [`Event::Tick`]).
    pub now: Duration,
    /// The terminal's size.
    pub width: u16,
    pub height: u16,
    jobs: u64,
    quit: bool,
}

impl App {
    /// The app for the user's choices: the start screen when the rule,
    /// the board or the players are not chosen, else the game at once.
    pub fn new(choices: Choices, settings: Settings, width: u16, height: u16) -> App {
        let all_given = choices.rule.is_some() && choices.size.is_some() && choices.mode.is_some();
        let mut app = App {
            settings,
            screen: Screen::Start(Menu::new(settings.size)),
            line: String::new(),
            message: String::new(),
            now: Duration::ZERO,
            width,
            height,
            jobs: 0,
            quit: false,
        };
        if all_given {
            app.start_game();
        }
        app
    }

    /// Whether the user asked to leave.
    pub fn quit(&self) -> bool {
        self.quit
    }

    pub fn game(&self) -> Option<&Game> {
        match &self.screen {
            Screen::Game(g) => Some(g),
            Screen::Start(_) => None,
        }
    }

    fn game_mut(&mut self) -> Option<&mut Game> {
        match &mut self.screen {
            Screen::Game(g) => Some(g),
            Screen::Start(_) => None,
        }
    }

    /// Whether the game is over (and the screen asks to play again).
    pub fn over(&self) -> bool {
        self.game().is_some_and(|g| g.board.outcome().is_some())
    }

    /// Takes an event; returns what the shell must do.
    pub fn handle(&mut self, event: Event) -> Vec<Effect> {
        let mut effects = Vec::new();
        match event {
            Event::Tick(now) => self.now = now,
            Event::Resize { width, height } => {
                self.width = width;
                self.height = height;
            }
            Event::Key(Key::Ctrl('c')) => {
                effects.push(Effect::Stop);
                self.quit = true;
            }
            Event::Key(key) => {
                if let Screen::Start(_) = self.screen {
                    self.menu_key(key);
                } else {
                    self.game_key(key, &mut effects);
                }
            }
            Event::Click { column, row } => self.click(column, row, &mut effects),
            Event::Answer(a) => self.answer(a),
        }
        self.think(&mut effects);
        effects
    }

    fn menu_key(&mut self, key: Key) {
        let Screen::Start(menu) = &mut self.screen else {
            return;
        };
        let rows = MenuRow::ALL.len();
        match key {
            Key::Up => menu.row = (menu.row + rows - 1) % rows,
            Key::Down | Key::Char('\t') => menu.row = (menu.row + 1) % rows,
            Key::Left | Key::Right => {
                let row = MenuRow::ALL[menu.row];
                let (choices, at) = menu.choices(row, &self.settings);
                let n = choices.len();
                let next = if key == Key::Left {
                    (at + n - 1) % n
                } else {
                    (at + 1) % n
                };
                let menu = menu.clone();
                self.choose(&menu, row, next);
            }
            Key::Enter => self.start_game(),
            Key::Char('q') | Key::Esc => self.quit = true,
            _ => {}
        }
    }

    /// Takes choice `k` of a start screen row.
    fn choose(&mut self, menu: &Menu, row: MenuRow, k: usize) {
        let s = &mut self.settings;
        match row {
            MenuRow::Rule => {
                s.rule = RULES[k % RULES.len()];
                if s.rule == Rule::Pente {
                    // Pente is played on 19x19 (another side stays
                    // selectable on the next row).
                    s.size = 19;
                }
            }
            MenuRow::Size => s.size = menu.sizes[k % menu.sizes.len()],
            MenuRow::Mode => s.mode = Mode::ALL[k % Mode::ALL.len()],
            MenuRow::Symbol => s.symbol = if k == 0 { Symbol::X } else { Symbol::O },
            MenuRow::First => s.human_first = k == 0,
            MenuRow::Start => self.start_game(),
        }
    }

    fn start_game(&mut self) {
        let board = FiveBoard::new(self.settings.size, self.settings.rule)
            .expect("sizes are checked by the command line and the menu");
        self.start_with(board);
        self.message = format!("{} to move", self.settings.player(Color::Black));
    }

    fn start_with(&mut self, board: FiveBoard) {
        let mut game = Game::new(board);
        game.paused = false;
        game.next_think_at = self.now;
        self.screen = Screen::Game(Box::new(game));
        self.line.clear();
    }

    fn game_key(&mut self, key: Key, effects: &mut Vec<Effect>) {
        let over = self.over();
        let cvc = self.settings.mode == Mode::ComputerComputer;
        let line_empty = self.line.is_empty();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let n = g.board.size() as i32;
        let step = |p: Point, di: i32, dj: i32| {
            Point::new((p.i + di).clamp(0, n - 1), (p.j + dj).clamp(0, n - 1))
        };
        match key {
            Key::Up => g.cursor = step(g.cursor, -1, 0),
            Key::Down => g.cursor = step(g.cursor, 1, 0),
            Key::Left => g.cursor = step(g.cursor, 0, -1),
            Key::Right => g.cursor = step(g.cursor, 0, 1),
            Key::Esc => {
                self.line.clear();
                g.hint = None;
            }
            Key::Backspace => {
                self.line.pop();
            }
            Key::Char('y') if over && line_empty => {
                effects.push(Effect::Stop);
                self.start_game();
            }
            Key::Char('n') if over && line_empty => self.quit = true,
            Key::Char(' ') if cvc && line_empty && !over => {
                g.paused = !g.paused;
                self.message = if g.paused {
                    "paused: space goes on, . plays one move".into()
                } else {
                    "going on".into()
                };
            }
            Key::Char('.') if cvc && line_empty => {
                g.paused = true;
                g.step = true;
            }
            Key::Char(c @ ('+' | '-')) if cvc && line_empty => {
                let at = PACES
                    .iter()
                    .position(|&p| p >= self.settings.pace)
                    .unwrap_or(PACES.len() - 1);
                let at = if c == '+' {
                    at.saturating_sub(1)
                } else {
                    (at + 1).min(PACES.len() - 1)
                };
                self.settings.pace = PACES[at];
                self.message = format!("pace: {} ms between moves", PACES[at].as_millis());
            }
            Key::Enter if line_empty => {
                let p = g.cursor;
                self.human_move(p, effects);
            }
            Key::Enter => {
                let line = std::mem::take(&mut self.line);
                self.command(&line, effects);
            }
            Key::Char(c) if !c.is_control() => self.line.push(c),
            _ => {}
        }
    }

    /// Runs a typed line: a point, or a command word and its argument.
    fn command(&mut self, line: &str, effects: &mut Vec<Effect>) {
        let Some(size) = self.game().map(|g| g.board.size()) else {
            return;
        };
        if let Some(p) = parse_vertex(line, size) {
            if let Some(g) = self.game_mut() {
                g.cursor = p;
            }
            self.human_move(p, effects);
            return;
        }
        let line = line.trim();
        let (word, arg) = line.split_once(' ').unwrap_or((line, ""));
        let arg = arg.trim();
        match word.to_ascii_lowercase().as_str() {
            "u" | "undo" => self.undo(effects),
            "h" | "hint" | "?" => self.hint(),
            "n" | "new" => {
                effects.push(Effect::Stop);
                self.screen = Screen::Start(Menu::new(self.settings.size));
                self.message.clear();
            }
            "s" | "save" if !arg.is_empty() => self.save(arg),
            "l" | "load" if !arg.is_empty() => {
                effects.push(Effect::Stop);
                self.load(arg);
            }
            "s" | "save" | "l" | "load" => {
                self.message = format!("{word} needs a file name: `{word} game.psq`");
            }
            "q" | "quit" => {
                effects.push(Effect::Stop);
                self.quit = true;
            }
            "" => {}
            _ => {
                self.message = format!(
                    "`{line}`: not a point of the board (A1 to {}) nor a command",
                    vertex(Point::new(0, size as i32 - 1), size)
                );
            }
        }
    }

    /// The human's move on `p`, if it is a human's turn.
    fn human_move(&mut self, p: Point, effects: &mut Vec<Effect>) {
        let settings = self.settings;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.board.outcome().is_some() {
            self.message = "the game is over: y plays again, n quits".into();
            return;
        }
        let c = g.board.to_move();
        if settings.is_computer(c) {
            self.message = format!("it is {}'s move", settings.player(c));
            return;
        }
        let size = g.board.size();
        match g.board.play(p) {
            Ok(_) => {
                if g.hinting() {
                    effects.push(Effect::Stop);
                    g.pending = None;
                }
                g.cursor = p;
                g.last_reason = None;
                self.after_move();
            }
            Err(IllegalMove::Occupied(_)) => {
                self.message = format!("{} is taken", vertex(p, size));
            }
            Err(IllegalMove::Forbidden(_)) => {
                self.message = format!(
                    "{} is forbidden for {} under renju: a double three, a double four or an overline",
                    vertex(p, size),
                    settings.symbol_of(Color::Black).char()
                );
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// After any move: the highlights, the message, the pace.
    fn after_move(&mut self) {
        let settings = self.settings;
        let now = self.now;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        g.hint = None;
        g.refresh();
        let size = g.board.size();
        let last = g.board.last_move().map(|p| vertex(p, size));
        g.next_think_at = if settings.mode == Mode::ComputerComputer {
            now + settings.pace
        } else {
            now
        };
        self.message = match g.board.outcome() {
            Some(Outcome::Win(c)) => format!(
                "{} wins with {}! Play again? (y/n)",
                settings.player(c),
                last.unwrap_or_default()
            ),
            Some(Outcome::Draw) => "the board is full: a draw. Play again? (y/n)".into(),
            None => format!("{} to move", settings.player(g.board.to_move())),
        };
    }

    fn undo(&mut self, effects: &mut Vec<Effect>) {
        let settings = self.settings;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.pending.is_some() {
            effects.push(Effect::Stop);
            g.pending = None;
        }
        let mut undone = 0;
        while g.board.undo().is_some() {
            undone += 1;
            // Against the computer, take back its reply too: the human
            // is to move again.
            if !settings.is_computer(g.board.to_move()) || settings.mode != Mode::HumanComputer {
                break;
            }
        }
        if settings.mode == Mode::ComputerComputer {
            g.paused = true;
        }
        if let Some(p) = g.board.last_move() {
            g.cursor = p;
        }
        g.last_reason = None;
        self.after_move();
        if undone == 0 {
            self.message = "nothing to undo".into();
        }
    }

    fn hint(&mut self) {
        let settings = self.settings;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.board.outcome().is_some() {
            self.message = "the game is over".into();
        } else if settings.is_computer(g.board.to_move()) {
            self.message = "a hint is for a human's move".into();
        } else if !g.hinting() {
            self.message = "looking for a hint...".into();
            g.want_hint = true;
        }
    }

    fn save(&mut self, path: &str) {
        let Some(g) = self.game() else { return };
        let n = g.board.size();
        let record = Record {
            width: n,
            height: n,
            moves: g
                .board
                .moves()
                .iter()
                .map(|&point| TimedMove { point, millis: 0 })
                .collect(),
        };
        let moves = record.moves.len();
        self.message = match crate::mkpat::output::write(
            std::path::Path::new(path),
            write_psq(&record).as_bytes(),
        ) {
            Ok(()) => format!("saved {moves} moves to {path}"),
            Err(e) => format!("cannot save: {e}"),
        };
    }

    fn load(&mut self, path: &str) {
        match load_record(path, self.settings.rule) {
            Ok(board) => {
                self.settings.size = board.size();
                let moves = board.moves().len();
                self.start_with(board);
                self.after_move();
                if let Some(g) = self.game_mut() {
                    // A loaded game between computers waits for the user.
                    g.paused = true;
                }
                let status = std::mem::take(&mut self.message);
                self.message = format!("loaded {moves} moves from {path}; {status}");
            }
            Err(e) => self.message = e,
        }
    }

    fn click(&mut self, column: u16, row: u16, effects: &mut Vec<Effect>) {
        let area = ratatui::layout::Rect::new(0, 0, self.width, self.height);
        match &self.screen {
            Screen::Start(menu) => {
                let menu = menu.clone();
                let hit = view::menu_targets(area, &menu, &self.settings)
                    .into_iter()
                    .find(|t| t.rect.contains(ratatui::layout::Position::new(column, row)));
                if let Some(t) = hit {
                    if let Screen::Start(m) = &mut self.screen {
                        m.row = t.row;
                    }
                    self.choose(&menu, MenuRow::ALL[t.row], t.choice);
                }
            }
            Screen::Game(g) => {
                let geometry = view::board_geometry(area, g.board.size(), g.cursor);
                if let Some(p) = geometry.point_at(column, row) {
                    if let Some(g) = self.game_mut() {
                        g.cursor = p;
                    }
                    self.human_move(p, effects);
                }
            }
        }
    }

    fn answer(&mut self, a: Answer) {
        let settings = self.settings;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let size = g.board.size();
        match (g.pending, a.reply) {
            (Some(Pending::Move(id)), Reply::Move(choice)) if id == a.id => {
                g.pending = None;
                let Some((p, why)) = choice else { return };
                let c = g.board.to_move();
                match g.board.play(p) {
                    Ok(_) => {
                        g.last_reason = Some(reason_text(&why, size));
                        g.step = false;
                        if !settings.is_computer(c.other()) {
                            // The human's eyes go to the reply.
                            g.cursor = p;
                        }
                        self.after_move();
                    }
                    Err(e) => {
                        self.message = format!("the engine's move {}: {e}", vertex(p, size));
                    }
                }
            }
            (Some(Pending::Hint(id)), Reply::Hint(e)) if id == a.id => {
                g.pending = None;
                let hint = hint_of(&e, size);
                if let Some(p) = hint.point {
                    g.cursor = p;
                    self.message = format!(
                        "hint: {} (Enter plays it; Esc hides the hint)",
                        vertex(p, size)
                    );
                }
                if let Some(g) = self.game_mut() {
                    g.hint = Some(hint);
                }
            }
            // An answer to a question no longer asked.
            _ => {}
        }
    }

    /// Asks the engine what it is to be asked: the computer's move when
    /// it is to move (at the pace, unless paused), or a hint.
    fn think(&mut self, effects: &mut Vec<Effect>) {
        let settings = self.settings;
        let now = self.now;
        let next_id = self.jobs + 1;
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let task = if g.want_hint {
            g.want_hint = false;
            g.pending = Some(Pending::Hint(next_id));
            Task::Hint { depth: HINT_DEPTH }
        } else if g.pending.is_none()
            && g.board.outcome().is_none()
            && settings.is_computer(g.board.to_move())
            && (settings.mode != Mode::ComputerComputer || !g.paused || g.step)
            && (g.step || now >= g.next_think_at)
        {
            g.pending = Some(Pending::Move(next_id));
            Task::Move {
                budget: settings.think,
                max_depth: settings.depth,
            }
        } else {
            return;
        };
        effects.push(Effect::Think(Box::new(Job {
            id: next_id,
            board: g.board.clone(),
            task,
        })));
        self.jobs = next_id;
    }
}

/// A game record read from `path` and replayed under `rule`.
fn load_record(path: &str, rule: Rule) -> Result<FiveBoard, String> {
    let bytes = crate::input::read_file(std::path::Path::new(path))
        .map_err(|e| format!("cannot load: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let record = read_psq_for(&text, rule).map_err(|e| format!("cannot load {path}: {e}"))?;
    record.replay(rule, usize::MAX).map_err(|e| match e {
        ReplayError::NotSquare { width, height } => {
            format!("cannot load {path}: a {width}x{height} board is not square")
        }
        ReplayError::Size(e) => e.to_string(),
        ReplayError::Move {
            number,
            point,
            error,
        } => format!(
            "cannot load {path}: move {number} ({}) under {}: {error}",
            vertex(point, record.width),
            rule_label(rule)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winning_row_is_the_five_not_the_other_lines() {
        let mut b = FiveBoard::new(15, Rule::Freestyle).unwrap();
        // Black along row 10 from A, White above it.
        for k in 0..4 {
            b.play(Point::new(5, k)).unwrap();
            b.play(Point::new(4, k)).unwrap();
        }
        assert!(b.win_row().is_empty());
        b.play(Point::new(5, 4)).unwrap();
        assert_eq!(
            b.win_row(),
            (0..5).map(|j| Point::new(5, j)).collect::<Vec<_>>()
        );
    }
}
