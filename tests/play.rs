//! `katachi play` without a terminal: the app driven by events (keys,
//! clicks through crossterm's mouse events, the engine's answers) and
//! its screens rendered into ratatui's `TestBackend`, pinned by insta
//! snapshots. The engine runs synchronously here ([`worker::work`] with
//! a clock that never moves), so every game is the same every time.
#![cfg(feature = "compiler")]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crossterm::event::{
    Event as Term, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton,
    MouseEvent, MouseEventKind,
};
use katachi::five::record::read_psq;
use katachi::five::{Outcome, Rule};
use katachi::play::app::{Event, Key, Screen};
use katachi::play::{input, view, worker, App, Choices, Effect, Mode, Settings, Symbol};
use katachi::{Color, Point, Position};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::Terminal;

const W: u16 = 80;
const H: u16 = 24;

fn settings(choices: Choices) -> Settings {
    Settings {
        depth: 2,
        colour: false,
        pace: Duration::ZERO,
        ..Settings::new(choices)
    }
}

fn app(choices: Choices) -> App {
    App::new(choices, settings(choices), W, H)
}

fn game(rule: Rule, size: usize, mode: Mode) -> App {
    app(Choices {
        rule: Some(rule),
        size: Some(size),
        mode: Some(mode),
        ..Choices::default()
    })
}

/// Runs the app's effects as the shell does, the engine answering at
/// once; returns how many jobs were answered.
fn run(app: &mut App, effects: Vec<Effect>) -> usize {
    let mut queue = effects;
    let mut answered = 0;
    while let Some(e) = queue.pop() {
        if let Effect::Think(job) = e {
            let a = worker::work(&job, &AtomicBool::new(false), &|| Duration::ZERO);
            answered += 1;
            queue.extend(app.handle(Event::Answer(a)));
        }
    }
    answered
}

fn send(app: &mut App, e: Event) -> usize {
    let effects = app.handle(e);
    run(app, effects)
}

/// A terminal event through the app's input path.
fn term(app: &mut App, e: Term) -> usize {
    let e = input::event(&e).expect("an event the app takes");
    send(app, e)
}

fn press(code: KeyCode) -> Term {
    Term::Key(KeyEvent {
        code,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    })
}

fn click(column: u16, row: u16) -> Term {
    Term::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// Types a line and Enter.
fn typed(app: &mut App, line: &str) {
    for c in line.chars() {
        term(app, press(KeyCode::Char(c)));
    }
    term(app, press(KeyCode::Enter));
}

fn buffer(app: &App) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(app.width, app.height)).unwrap();
    t.draw(|f| view::render(app, f)).unwrap();
    t.backend().buffer().clone()
}

/// The screen as text, one line a row, trailing blanks cut.
fn screen(app: &App) -> String {
    let b = buffer(app);
    let mut out = String::new();
    for y in 0..b.area.height {
        let line: String = (0..b.area.width)
            .map(|x| b[(x, y)].symbol().to_string())
            .collect();
        out += line.trim_end();
        out.push('\n');
    }
    out
}

/// The cells of `rect` drawn reversed, as `#`, the others as `.`.
fn reversed(app: &App, rect: Rect) -> String {
    let b = buffer(app);
    let mut out = String::new();
    for y in rect.top()..rect.bottom() {
        for x in rect.left()..rect.right() {
            out.push(if b[(x, y)].modifier.contains(Modifier::REVERSED) {
                '#'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn board(app: &App) -> &katachi::five::FiveBoard {
    &app.game().expect("a game").board
}

#[test]
fn the_start_screen_asks_what_the_flags_left_out() {
    let mut a = app(Choices::default());
    assert!(matches!(a.screen, Screen::Start(_)));
    insta::assert_snapshot!("start_screen", screen(&a));
    // Down to the board, right twice: 20x20; down to the players, right:
    // computer vs computer; Enter starts it.
    send(&mut a, Event::Key(Key::Down));
    send(&mut a, Event::Key(Key::Right));
    send(&mut a, Event::Key(Key::Right));
    send(&mut a, Event::Key(Key::Down));
    send(&mut a, Event::Key(Key::Right));
    assert_eq!(a.settings.size, 20);
    assert_eq!(a.settings.mode, Mode::ComputerComputer);
    let effects = a.handle(Event::Key(Key::Enter));
    assert_eq!(board(&a).size(), 20);
    // The computer opens at once (the pace waits only between moves).
    assert!(matches!(effects.as_slice(), [Effect::Think(_)]));
}

#[test]
fn the_rule_board_and_players_given_skip_the_start_screen() {
    let a = game(Rule::Renju, 9, Mode::HumanHuman);
    assert_eq!(board(&a).rule(), Rule::Renju);
    assert_eq!(board(&a).size(), 9);
    // A size given that the screen does not offer is offered too.
    let a = app(Choices {
        size: Some(9),
        ..Choices::default()
    });
    assert!(screen(&a).contains("9x9"), "{}", screen(&a));
}

#[test]
fn the_start_screen_takes_clicks() {
    let mut a = app(Choices::default());
    let area = Rect::new(0, 0, W, H);
    let Screen::Start(menu) = &a.screen else {
        panic!()
    };
    let targets = view::menu_targets(area, menu, &a.settings);
    let renju = targets
        .iter()
        .find(|t| t.row == 0 && t.choice == 2)
        .expect("renju drawn");
    term(&mut a, click(renju.rect.x + 1, renju.rect.y));
    assert_eq!(a.settings.rule, Rule::Renju);
    let o = targets
        .iter()
        .find(|t| t.row == 3 && t.choice == 1)
        .unwrap();
    term(&mut a, click(o.rect.x, o.rect.y));
    assert_eq!(a.settings.symbol, Symbol::O);
    let start = targets.iter().find(|t| t.row == 5).unwrap();
    term(&mut a, click(start.rect.x + 2, start.rect.y));
    assert_eq!(board(&a).rule(), Rule::Renju);
    assert!(
        screen(&a).contains("you (O) vs computer (X)"),
        "{}",
        screen(&a)
    );
}

#[test]
fn mid_game_against_the_computer() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanComputer);
    // The centre by the keyboard, then a point typed: each answered.
    assert_eq!(term(&mut a, press(KeyCode::Enter)), 1);
    assert_eq!(board(&a).stone(Point::new(7, 7)), Some(Color::Black));
    typed(&mut a, "j9");
    assert_eq!(board(&a).moves().len(), 4);
    assert_eq!(board(&a).stone(Point::new(6, 9)), Some(Color::Black));
    insta::assert_snapshot!("mid_game", screen(&a));
}

#[test]
fn a_click_plays_where_it_lands() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanHuman);
    let g = a.game().unwrap();
    let geo = view::board_geometry(Rect::new(0, 0, W, H), 15, g.cursor);
    // On the stone's cell, then on the separator after a point.
    term(&mut a, click(geo.stone_x(3), geo.stone_y(4)));
    assert_eq!(board(&a).stone(Point::new(4, 3)), Some(Color::Black));
    term(&mut a, click(geo.stone_x(10) + 1, geo.stone_y(12)));
    assert_eq!(board(&a).stone(Point::new(12, 10)), Some(Color::White));
    // Off the board (the title, a row number): nothing.
    term(&mut a, click(0, 0));
    term(&mut a, click(geo.x, geo.stone_y(5)));
    assert_eq!(board(&a).moves().len(), 2);
}

#[test]
fn a_win_highlights_the_row_and_offers_another_game() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanHuman);
    for (b, w) in [("a1", "a2"), ("b1", "b2"), ("c1", "c2"), ("d1", "d2")] {
        typed(&mut a, b);
        typed(&mut a, w);
    }
    typed(&mut a, "e1");
    assert_eq!(board(&a).outcome(), Some(Outcome::Win(Color::Black)));
    assert!(a.over());
    let text = screen(&a);
    insta::assert_snapshot!("win", text);
    // The row of the board with the five (row 1, the last one) has its
    // five stones reversed, and nothing else on the board is.
    let geo = view::board_geometry(Rect::new(0, 0, W, H), 15, Point::new(14, 4));
    let rect = Rect::new(geo.x, geo.y, geo.width(), geo.height());
    insta::assert_snapshot!("win_highlight", reversed(&a, rect));
    // Play again: a fresh board with the same settings.
    term(&mut a, press(KeyCode::Char('y')));
    assert_eq!(board(&a).moves().len(), 0);
    assert!(!a.over());
}

#[test]
fn renju_refuses_a_forbidden_point_for_black() {
    let mut a = game(Rule::Renju, 15, Mode::HumanHuman);
    // Black G8, J8, H9, H7 around H8 (two threes through it); White far.
    for (b, w) in [("g8", "a1"), ("j8", "a3"), ("h9", "a5"), ("h7", "a7")] {
        typed(&mut a, b);
        typed(&mut a, w);
    }
    typed(&mut a, "h8");
    assert_eq!(board(&a).moves().len(), 8, "H8 was refused");
    assert_eq!(board(&a).stone(Point::new(7, 7)), None);
    assert!(a.message.contains("H8 is forbidden"), "{}", a.message);
    insta::assert_snapshot!("renju_forbidden", screen(&a));
    // Black plays elsewhere; White may play there.
    typed(&mut a, "o15");
    typed(&mut a, "h8");
    assert_eq!(board(&a).stone(Point::new(7, 7)), Some(Color::White));
}

#[test]
fn undo_against_the_computer_takes_back_its_reply_too() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanComputer);
    typed(&mut a, "h8");
    typed(&mut a, "a1");
    assert_eq!(board(&a).moves().len(), 4);
    typed(&mut a, "u");
    assert_eq!(board(&a).moves().len(), 2);
    assert_eq!(board(&a).to_move(), Color::Black);
    typed(&mut a, "undo");
    assert_eq!(board(&a).moves().len(), 0);
    typed(&mut a, "u");
    assert_eq!(a.message, "nothing to undo");
}

#[test]
fn the_screen_answers_while_the_computer_thinks() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanComputer);
    // The human moves; the engine's job is handed out but not answered.
    let effects = a.handle(Event::Key(Key::Enter));
    let [Effect::Think(job)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(a.game().unwrap().thinking());
    let before = a.game().unwrap().cursor;
    a.handle(Event::Key(Key::Up));
    assert_eq!(a.game().unwrap().cursor.i, before.i - 1);
    a.handle(Event::Tick(Duration::from_millis(300)));
    assert!(
        screen(&a).contains("computer (O) thinking"),
        "{}",
        screen(&a)
    );
    // A move typed now is refused: it is the computer's turn.
    typed(&mut a, "a1");
    assert_eq!(board(&a).moves().len(), 1);
    // Undo while it thinks stops it; its late answer is dropped.
    let effects = a.handle(Event::Key(Key::Char('u')));
    assert!(effects.is_empty());
    let effects = a.handle(Event::Key(Key::Enter));
    assert!(matches!(effects.as_slice(), [Effect::Stop]), "{effects:?}");
    assert_eq!(board(&a).moves().len(), 0);
    let late = worker::work(job, &AtomicBool::new(false), &|| Duration::ZERO);
    a.handle(Event::Answer(late));
    assert_eq!(board(&a).moves().len(), 0);
}

#[test]
fn a_hint_gives_the_engines_move_and_reasons() {
    let mut a = game(Rule::Freestyle, 15, Mode::HumanHuman);
    for m in ["h8", "h9", "j8", "j9", "k8", "a1"] {
        typed(&mut a, m);
    }
    // Black's H8 J8 K8 is an open three: the hint makes it a four, on
    // its row.
    typed(&mut a, "h");
    let g = a.game().unwrap();
    let hint = g.hint.as_ref().expect("a hint");
    let p = hint.point.expect("a point");
    assert_eq!(g.cursor, p, "the cursor goes to the hint");
    assert!(p.i == 7, "{hint:?}");
    assert!(hint.lines.iter().any(|l| l.contains("makes")), "{hint:?}");
    let text = screen(&a);
    assert!(text.contains("hint:"), "{text}");
    // Enter plays it.
    typed(&mut a, "");
    assert_eq!(board(&a).last_move(), Some(p));
    assert!(a.game().unwrap().hint.is_none());
}

#[test]
fn computer_against_computer_plays_to_the_end_at_its_pace() {
    let mut a = game(Rule::Exact, 9, Mode::ComputerComputer);
    a.settings.pace = Duration::from_millis(100);
    // The first move at once, the next only when the pace allows.
    assert_eq!(send(&mut a, Event::Tick(Duration::ZERO)), 1);
    assert_eq!(send(&mut a, Event::Tick(Duration::from_millis(50))), 0);
    assert_eq!(send(&mut a, Event::Tick(Duration::from_millis(100))), 1);
    // Paused, the clock moves nothing; a step plays one move.
    send(&mut a, Event::Key(Key::Char(' ')));
    assert_eq!(send(&mut a, Event::Tick(Duration::from_secs(5))), 0);
    assert_eq!(send(&mut a, Event::Key(Key::Char('.'))), 1);
    assert_eq!(send(&mut a, Event::Tick(Duration::from_secs(6))), 0);
    assert_eq!(board(&a).moves().len(), 3);
    // Faster, faster: no pause at all; go on to the end.
    send(&mut a, Event::Key(Key::Char('+')));
    assert_eq!(a.settings.pace, Duration::from_millis(50));
    send(&mut a, Event::Key(Key::Char('+')));
    assert_eq!(a.settings.pace, Duration::ZERO);
    send(&mut a, Event::Key(Key::Char(' ')));
    let mut t = 7;
    while !a.over() && t < 200 {
        send(&mut a, Event::Tick(Duration::from_secs(t)));
        t += 1;
    }
    assert!(a.over(), "{}", screen(&a));
    assert!(a.message.contains("Play again?"), "{}", a.message);
    term(&mut a, press(KeyCode::Char('n')));
    assert!(a.quit());
}

#[test]
fn a_game_is_saved_and_loaded_as_psq() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.psq");
    let path = path.to_str().unwrap();
    let mut a = game(Rule::Freestyle, 15, Mode::HumanHuman);
    for m in ["h8", "j9", "a15"] {
        typed(&mut a, m);
    }
    typed(&mut a, &format!("s {path}"));
    assert_eq!(a.message, format!("saved 3 moves to {path}"));
    let text = std::fs::read_to_string(path).unwrap();
    let r = read_psq(&text).unwrap();
    assert_eq!((r.width, r.height), (15, 15));
    let points: Vec<Point> = r.moves.iter().map(|m| m.point).collect();
    assert_eq!(points, board(&a).moves());
    let mut b = game(Rule::Freestyle, 19, Mode::HumanHuman);
    typed(&mut b, &format!("load {path}"));
    assert_eq!(board(&b).size(), 15);
    assert_eq!(board(&b).moves(), board(&a).moves());
    assert_eq!(board(&b).to_move(), Color::White);
    assert!(b.message.starts_with("loaded 3 moves"), "{}", b.message);
    // A missing file, a record against the rule: said, the game kept.
    typed(&mut b, "l /nonexistent/x.psq");
    assert!(b.message.starts_with("cannot load"), "{}", b.message);
    std::fs::write(
        path,
        "Piskvorky 15x15, 0:0, 0\n7,8,0\n1,1,0\n9,8,0\n1,3,0\n8,7,0\n1,5,0\n8,9,0\n1,7,0\n8,8,0\n",
    )
    .unwrap();
    let mut c = game(Rule::Renju, 15, Mode::HumanHuman);
    typed(&mut c, &format!("l {path}"));
    assert!(c.message.contains("move 9 (H8)"), "{}", c.message);
    assert_eq!(board(&c).moves().len(), 0);
    typed(&mut c, "save");
    assert!(c.message.contains("needs a file name"), "{}", c.message);
}

#[test]
fn a_large_board_on_a_small_terminal_shows_the_part_around_the_cursor() {
    let mut a = game(Rule::Freestyle, 26, Mode::HumanHuman);
    a.handle(Event::Resize {
        width: 40,
        height: 16,
    });
    typed(&mut a, "z1");
    let text = screen(&a);
    // The corner's point, its letter and number are on the screen; the
    // far corner's are not.
    assert!(text.contains("[X]"), "{text}");
    assert!(text.contains(" Z"), "{text}");
    assert!(!text.contains(" A "), "{text}");
    let g = a.game().unwrap();
    let geo = view::board_geometry(Rect::new(0, 0, 40, 16), 26, g.cursor);
    assert!(geo.rows < 26 && geo.cols < 26);
    assert_eq!(
        geo.point_at(geo.stone_x(25), geo.stone_y(25)),
        Some(Point::new(25, 25))
    );
}

#[test]
fn twenty_by_twenty_fits_eighty_by_twenty_four() {
    let a = game(Rule::Freestyle, 20, Mode::HumanComputer);
    let geo = view::board_geometry(Rect::new(0, 0, W, H), 20, a.game().unwrap().cursor);
    assert_eq!((geo.rows, geo.cols), (20, 20));
    let text = screen(&a);
    assert!(text.contains("20 . . ."), "{text}");
    assert!(text.contains(" 1 . . ."), "{text}");
}

#[test]
fn without_a_terminal_or_with_a_bad_flag_the_binary_says_why() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_katachi");
    let out = Command::new(bin)
        .args(["play", "--mode", "cvc"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("katachi play needs a terminal"), "{err}");
    let out = Command::new(bin)
        .args(["play", "--size", "27"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--size"), "{err}");
}
