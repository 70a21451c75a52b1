//! The terminal's events as the app's: crossterm's keys, mouse and
//! resizes become [`Event`]s, and the rest is dropped. Tests send
//! crossterm events through [`event`] to reach the app the way a
//! terminal does.

use crossterm::event::{
    Event as Term, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};

use super::app::{Event, Key};

/// The app's event for a terminal event, if it has one.
pub fn event(e: &Term) -> Option<Event> {
    match e {
        Term::Key(k) => key(k).map(Event::Key),
        Term::Mouse(m) => mouse(m),
        Term::Resize(width, height) => Some(Event::Resize {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

fn key(k: &KeyEvent) -> Option<Key> {
    // Terminals that report releases (kitty's protocol, Windows) would
    // otherwise type every key twice.
    if k.kind == KeyEventKind::Release {
        return None;
    }
    Some(match k.code {
        KeyCode::Char(c) if k.modifiers.contains(KeyModifiers::CONTROL) => {
            Key::Ctrl(c.to_ascii_lowercase())
        }
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Tab => Key::Char('\t'),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        _ => return None,
    })
}

fn mouse(m: &MouseEvent) -> Option<Event> {
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Event::Click {
            column: m.column,
            row: m.row,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    #[test]
    fn keys_clicks_and_resizes_are_kept_the_rest_dropped() {
        let press = |code, modifiers| {
            Term::Key(KeyEvent {
                code,
                modifiers,
                kind: KeyEventKind::Press,
                state: KeyEventState::NONE,
            })
        };
        assert!(matches!(
            event(&press(KeyCode::Char('h'), KeyModifiers::NONE)),
            Some(Event::Key(Key::Char('h')))
        ));
        assert!(matches!(
            event(&press(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Event::Key(Key::Ctrl('c')))
        ));
        let mut release = press(KeyCode::Enter, KeyModifiers::NONE);
        if let Term::Key(k) = &mut release {
            k.kind = KeyEventKind::Release;
        }
        assert!(event(&release).is_none());
        let click = |kind| {
            Term::Mouse(MouseEvent {
                kind,
                column: 9,
                row: 4,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert!(matches!(
            event(&click(MouseEventKind::Down(MouseButton::Left))),
            Some(Event::Click { column: 9, row: 4 })
        ));
        assert!(event(&click(MouseEventKind::Moved)).is_none());
        assert!(matches!(
            event(&Term::Resize(100, 30)),
            Some(Event::Resize {
                width: 100,
                height: 30
            })
        ));
        assert!(event(&Term::FocusGained).is_none());
    }
}
