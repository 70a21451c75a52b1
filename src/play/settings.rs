//! What `katachi play` plays: the [`Choices`] the command line made, the
//! [`Settings`] of a game (rule, board, players, symbols, the computer's
//! time, the pace, colours), and the start screen's rows ([`Menu`]) that
//! ask for what the command line left out.

use std::time::Duration;

use crate::five::Rule;
use crate::position::Color;

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
pub const RULES: [Rule; 4] = [Rule::Freestyle, Rule::Exact, Rule::Renju, Rule::Pente];

pub fn rule_label(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Exact => "exactly five",
        Rule::Renju => "renju",
        Rule::Pente => "pente",
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
    /// The start screen on its first row, offering `size` among the sizes.
    pub fn new(size: usize) -> Menu {
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
