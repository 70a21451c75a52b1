//! `katachi play`: five in a row in the terminal, for people.
//!
//! The seed's Pishquorky, played on katachi's engine: any rule (freestyle,
//! exactly five, renju), any board from 5x5 to 26x26, human against
//! human, against the computer, or the computer against itself at a pace
//! the user sets. Moves by the arrows and Enter, by typing a point (`h8`)
//! or by a click; undo, a hint with the engine's reasons, save and load
//! (`.psq`), a new game.
//!
//! The app is a state machine ([`app::App::handle`] takes an
//! [`app::Event`], returns the [`app::Effect`]s; [`settings`] what it
//! plays, [`text`] its words) drawn by a pure function ([`view::render`]), so tests play whole games with events and read the
//! screens from ratatui's `TestBackend`. [`run`] is the shell: it reads
//! the terminal through crossterm ([`input`]), runs the engine on its own
//! thread ([`worker`]) so that the screen answers while the computer
//! thinks, and draws.

pub mod app;
pub mod input;
pub mod settings;
pub mod text;
pub mod view;
pub mod worker;

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

pub use app::{App, Choices, Effect, Event, Mode, Settings, Symbol};
use worker::Worker;

/// How long the shell waits for a key before it looks at the engine and
/// the clock again (the spinner's and the pace's grain).
const TICK: Duration = Duration::from_millis(40);

/// Whether the `NO_COLOR` convention asks for no colours: the variable
/// set and not empty.
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Plays in the terminal until the user quits, the computer evaluating
/// with the patterns of `dbs` for the game's rule. `mouse`: read clicks
/// (which keeps the terminal from selecting text with the mouse).
pub fn run(
    choices: Choices,
    settings: Settings,
    dbs: worker::Databases,
    mouse: bool,
) -> io::Result<()> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(io::Error::other(
            "katachi play needs a terminal on its standard input and output",
        ));
    }
    let _guard = Guard::enter(mouse)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let size = terminal.size()?;
    let mut app = App::new(choices, settings, size.width, size.height);
    let mut worker = Worker::spawn_with(dbs);
    let start = Instant::now();
    loop {
        let mut effects = app.handle(Event::Tick(start.elapsed()));
        while let Some(a) = worker.try_recv() {
            effects.extend(app.handle(Event::Answer(a)));
        }
        apply(effects, &mut worker);
        if app.quit() {
            break;
        }
        terminal.draw(|f| view::render(&app, f))?;
        // Every key already typed is taken before the next drawing, so
        // that a fast typist (or tmux) is never behind the screen.
        let mut wait = TICK;
        while event::poll(wait)? {
            if let Some(e) = input::event(&event::read()?) {
                apply(app.handle(e), &mut worker);
            }
            if app.quit() {
                break;
            }
            wait = Duration::ZERO;
        }
    }
    Ok(())
}

fn apply(effects: Vec<Effect>, worker: &mut Worker) {
    for e in effects {
        match e {
            Effect::Think(job) => worker.submit(*job),
            Effect::Stop => worker.stop(),
        }
    }
}

/// The terminal in raw mode on the alternate screen while the game is
/// up; put back on the way out, by an error or a panic too.
#[derive(Debug)]
struct Guard {
    mouse: bool,
}

impl Guard {
    fn enter(mouse: bool) -> io::Result<Guard> {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            leave(mouse);
            hook(info);
        }));
        enable_raw_mode()?;
        let guard = Guard { mouse };
        execute!(io::stdout(), EnterAlternateScreen)?;
        if mouse {
            execute!(io::stdout(), EnableMouseCapture)?;
        }
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        leave(self.mouse);
    }
}

/// Puts the terminal back (twice is harmless: after a panic, then by the
/// guard).
fn leave(mouse: bool) {
    let mut out = io::stdout();
    if mouse {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(out, LeaveAlternateScreen, crossterm::cursor::Show);
    let _ = disable_raw_mode();
    let _ = out.flush();
}
