//! `katachi play`'s state machine: every key, click, tick of the clock and
//! answer of the engine is an [`Event`] given to [`App::handle`], which
//! changes the state and returns the [`Effect`]s the shell must carry out
//! (start or stop the engine's thread). Nothing here reads the terminal,
//! the clock or a thread, so tests drive a whole game with events and
//! read what `view::render` draws of it.

use std::time::Duration;

use super::view;
use super::worker::{Answer, Job, Reply, Task};
use crate::five::engine::Reason;
use crate::five::explain::Explanation;
use crate::five::record::{read_psq, write_psq, Record, TimedMove};
use crate::five::{FiveBoard, IllegalMove, Outcome, Rule, DIRECTIONS};
use crate::position::{Color, Point, Position};

/// The board sizes offered on the start screen (any side from 5 to 26 can
/// be asked for with `--size`).
pub const QUICK_SIZES: [usize; 3] = [15, 19, 20];

/// The pauses between moves of a game between computers that `+` and `-`
/// step through.
pub const PACES: [Duration; 7] = [
    Duration::ZERO,
    Duration::from_millis(50),
    Duration::from_millis(100),
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_millis(1000),
    Duration::from_millis(2000),
];

/// Who plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    HumanHuman,
    HumanComputer,
    ComputerComputer,
}

impl Mode {
    pub const ALL: [Mode; 3] = [
        Mode::HumanHuman,
        Mode::HumanComputer,
        Mode::ComputerComputer,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Mode::HumanHuman => "human vs human",
            Mode::HumanComputer => "human vs computer",
            Mode::ComputerComputer => "computer vs computer",
        }
    }
}

/// The rules in the order the start screen offers them.
pub const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Exact, Rule::Renju];

pub fn rule_label(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Exact => "exactly five",
        Rule::Renju => "renju",
    }
}

/// A stone's letter on the screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Symbol {
    X,
    O,
}

impl Symbol {
    pub fn other(self) -> Symbol {
        match self {
            Symbol::X => Symbol::O,
            Symbol::O => Symbol::X,
        }
    }

    pub fn char(self) -> char {
        match self {
            Symbol::X => 'X',
            Symbol::O => 'O',
        }
    }
}

/// What the user chose on the command line; `None` is asked on the
/// start screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Choices {
    pub rule: Option<Rule>,
    pub size: Option<usize>,
    pub mode: Option<Mode>,
    /// The human's symbol (player one's in a game between humans).
    pub symbol: Option<Symbol>,
    /// Whether the human (player one) moves first, as Black.
    pub human_first: Option<bool>,
}

/// How the game is played once chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    pub rule: Rule,
    pub size: usize,
    pub mode: Mode,
    pub symbol: Symbol,
    pub human_first: bool,
    /// The computer's time for a move.
    pub think: Duration,
    /// The computer's deepest search (plies).
    pub depth: u32,
    /// The pause between moves of a game between computers.
    pub pace: Duration,
    /// Colours on the screen (off under `NO_COLOR`): without them the
    /// highlights are bold and reversed text.
    pub colour: bool,
}

impl Settings {
    /// The seed's game: freestyle on 15x15, the human first with X, one
    /// second a computer move.
    pub fn new(choices: Choices) -> Settings {
        Settings {
            rule: choices.rule.unwrap_or(Rule::Freestyle),
            size: choices.size.unwrap_or(15),
            mode: choices.mode.unwrap_or(Mode::HumanComputer),
            symbol: choices.symbol.unwrap_or(Symbol::X),
            human_first: choices.human_first.unwrap_or(true),
            think: Duration::from_secs(1),
            depth: 8,
            pace: Duration::from_millis(500),
            colour: true,
        }
    }

    /// The human's (player one's) colour: Black moves first.
    pub fn human_color(&self) -> Color {
        if self.human_first {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn is_computer(&self, c: Color) -> bool {
        match self.mode {
            Mode::HumanHuman => false,
            Mode::HumanComputer => c != self.human_color(),
            Mode::ComputerComputer => true,
        }
    }

    pub fn symbol_of(&self, c: Color) -> Symbol {
        if c == self.human_color() {
            self.symbol
        } else {
            self.symbol.other()
        }
    }

    /// Who plays `c`, as the screen names them: `you (X)`, `computer (O)`,
    /// `X` in a game between humans.
    pub fn player(&self, c: Color) -> String {
        let s = self.symbol_of(c).char();
        match self.mode {
            Mode::HumanHuman => format!("{s}"),
            Mode::HumanComputer if self.is_computer(c) => format!("computer ({s})"),
            Mode::HumanComputer => format!("you ({s})"),
            Mode::ComputerComputer => format!("computer {s}"),
        }
    }
}

/// The rows of the start screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MenuRow {
    Rule,
    Size,
    Mode,
    Symbol,
    First,
    Start,
}

impl MenuRow {
    pub const ALL: [MenuRow; 6] = [
        MenuRow::Rule,
        MenuRow::Size,
        MenuRow::Mode,
        MenuRow::Symbol,
        MenuRow::First,
        MenuRow::Start,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MenuRow::Rule => "Rule",
            MenuRow::Size => "Board",
            MenuRow::Mode => "Players",
            MenuRow::Symbol => "You play",
            MenuRow::First => "First move",
            MenuRow::Start => "",
        }
    }
}

/// The start screen: the row under the cursor and the sizes offered.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Menu {
    pub row: usize,
    /// The quick sizes, and the one asked for with `--size` if another.
    pub sizes: Vec<usize>,
}

impl Menu {
    fn new(size: usize) -> Menu {
        let mut sizes = QUICK_SIZES.to_vec();
        if !sizes.contains(&size) {
            sizes.push(size);
            sizes.sort_unstable();
        }
        Menu { row: 0, sizes }
    }

    /// The choices of a row as the screen writes them, and which is
    /// chosen.
    pub fn choices(&self, row: MenuRow, s: &Settings) -> (Vec<String>, usize) {
        let at = |i: Option<usize>| i.unwrap_or(0);
        match row {
            MenuRow::Rule => (
                RULES.iter().map(|&r| rule_label(r).to_string()).collect(),
                at(RULES.iter().position(|&r| r == s.rule)),
            ),
            MenuRow::Size => (
                self.sizes.iter().map(|n| format!("{n}x{n}")).collect(),
                at(self.sizes.iter().position(|&n| n == s.size)),
            ),
            MenuRow::Mode => (
                Mode::ALL.iter().map(|m| m.label().to_string()).collect(),
                at(Mode::ALL.iter().position(|&m| m == s.mode)),
            ),
            MenuRow::Symbol => (
                vec!["X".into(), "O".into()],
                usize::from(s.symbol == Symbol::O),
            ),
            MenuRow::First => (
                vec!["you".into(), "the other side".into()],
                usize::from(!s.human_first),
            ),
            MenuRow::Start => (vec!["Start".into()], 0),
        }
    }
}

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
        self.win_row = win_row(b);
    }

    /// Whether the computer is thinking of a move.
    pub fn thinking(&self) -> bool {
        matches!(self.pending, Some(Pending::Move(_)))
    }

    pub fn hinting(&self) -> bool {
        matches!(self.pending, Some(Pending::Hint(_)))
    }
}

/// The stones of the row that won the game, if it was won.
pub fn win_row(b: &FiveBoard) -> Vec<Point> {
    let (Some(Outcome::Win(c)), Some(p)) = (b.outcome(), b.last_move()) else {
        return Vec::new();
    };
    let exact = match b.rule() {
        Rule::Freestyle => false,
        Rule::Exact => true,
        Rule::Renju => c == Color::Black,
    };
    let runs = b.runs_through(p, c);
    for (k, &(di, dj)) in DIRECTIONS.iter().enumerate() {
        let n = runs[k];
        if (exact && n == 5) || (!exact && n >= 5) {
            let mut row = vec![p];
            for sign in [-1, 1] {
                let mut q = Point::new(p.i + sign * di, p.j + sign * dj);
                while b.stone(q) == Some(c) {
                    row.push(q);
                    q = Point::new(q.i + sign * di, q.j + sign * dj);
                }
            }
            row.sort();
            return row;
        }
    }
    Vec::new()
}

/// The column letters: all 26, as five-in-a-row records write them (Go
/// skips `I`; renju's notation does not, and a 26-point side needs it).
const COLUMNS: &[u8; 26] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A point as the screen writes it: the column's letter, then the row
/// counted from the bottom (`H8` is the centre of 15x15).
pub fn vertex(p: Point, size: usize) -> String {
    let letter = COLUMNS.get(p.j as usize).map_or('?', |&b| b as char);
    format!("{letter}{}", size as i32 - p.i)
}

/// Reads `h8`, `H8`, `h 8` on a board of side `size`.
pub fn parse_vertex(s: &str, size: usize) -> Option<Point> {
    let s = s.trim();
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let j = COLUMNS.iter().position(|&b| b as char == letter)?;
    let row: usize = chars.as_str().trim().parse().ok()?;
    (j < size && (1..=size).contains(&row)).then(|| Point::new((size - row) as i32, j as i32))
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
    /// Hand this job to the engine's thread.
    Think(Job),
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
            MenuRow::Rule => s.rule = RULES[k % RULES.len()],
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
            // Asked for by `think` below.
            g.pending = Some(Pending::Hint(0));
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
        let task = if g.pending == Some(Pending::Hint(0)) {
            g.pending = Some(Pending::Hint(next_id));
            Task::Hint { depth: 4 }
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
        effects.push(Effect::Think(Job {
            id: next_id,
            board: g.board.clone(),
            task,
        }));
        self.jobs = next_id;
    }
}

/// A game record read from `path` and replayed under `rule`.
fn load_record(path: &str, rule: Rule) -> Result<FiveBoard, String> {
    let bytes = crate::input::read_file(std::path::Path::new(path))
        .map_err(|e| format!("cannot load: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let record = read_psq(&text).map_err(|e| format!("cannot load {path}: {e}"))?;
    if record.width != record.height {
        return Err(format!(
            "cannot load {path}: a {}x{} board is not square",
            record.width, record.height
        ));
    }
    let mut board = FiveBoard::new(record.width, rule).map_err(|e| e.to_string())?;
    for (k, m) in record.moves.iter().enumerate() {
        board.play(m.point).map_err(|e| {
            format!(
                "cannot load {path}: move {} ({}) under {}: {e}",
                k + 1,
                vertex(m.point, record.width),
                rule_label(rule)
            )
        })?;
    }
    Ok(board)
}

/// Why the engine chose its move, in words, with the board's coordinates.
pub fn reason_text(why: &Reason, size: usize) -> String {
    match why {
        Reason::Opening => "the opening point".into(),
        Reason::Wins => "it makes five".into(),
        Reason::Blocks => "it stops a five".into(),
        Reason::Vcf(line) => format!(
            "a forced win by fours: {}",
            line.iter()
                .map(|&p| vertex(p, size))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Reason::Search { depth, .. } => format!("its search's best (depth {depth})"),
    }
}

/// The hint the panel shows: the engine's move, its reason, the best
/// candidates and the patterns behind them.
pub fn hint_of(e: &Explanation, size: usize) -> Hint {
    let mut lines = Vec::new();
    let point = e.chosen.as_ref().map(|(p, _)| *p);
    if let Some((p, why)) = &e.chosen {
        lines.push(format!("{}: {}", vertex(*p, size), reason_text(why, size)));
    }
    for c in e.candidates.iter().take(3) {
        lines.push(format!("{} worth {}", vertex(c.point, size), c.value));
        for b in c.because.iter().take(2) {
            let whose = if b.maker == e.to_move {
                "makes"
            } else {
                "stops"
            };
            lines.push(format!("  {whose} {} +{}", b.kind.name(), b.value));
        }
    }
    Hint { point, lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_use_all_26_letters() {
        assert_eq!(vertex(Point::new(7, 7), 15), "H8");
        assert_eq!(vertex(Point::new(0, 8), 15), "I15");
        assert_eq!(vertex(Point::new(25, 25), 26), "Z1");
        for n in [5, 15, 26] {
            for i in 0..n as i32 {
                for j in 0..n as i32 {
                    let p = Point::new(i, j);
                    assert_eq!(parse_vertex(&vertex(p, n), n), Some(p));
                    assert_eq!(parse_vertex(&vertex(p, n).to_lowercase(), n), Some(p));
                }
            }
        }
        assert_eq!(parse_vertex("p1", 15), None);
        assert_eq!(parse_vertex("a16", 15), None);
        assert_eq!(parse_vertex("a0", 15), None);
        assert_eq!(parse_vertex("undo", 15), None);
        assert_eq!(parse_vertex("h", 15), None);
    }

    #[test]
    fn the_winning_row_is_the_five_not_the_other_lines() {
        let mut b = FiveBoard::new(15, Rule::Freestyle).unwrap();
        // Black along row 10 from A, White above it.
        for k in 0..4 {
            b.play(Point::new(5, k)).unwrap();
            b.play(Point::new(4, k)).unwrap();
        }
        assert!(win_row(&b).is_empty());
        b.play(Point::new(5, 4)).unwrap();
        assert_eq!(
            win_row(&b),
            (0..5).map(|j| Point::new(5, j)).collect::<Vec<_>>()
        );
    }
}
