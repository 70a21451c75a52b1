//! Openings for Go tournaments: seeded random ones, or a file of them.
//!
//! An openings file has one opening a line: GTP vertices (`D4`, `pass`)
//! separated by spaces, Black first; `#` starts a comment and blank lines
//! are skipped. Every opening is replayed by the rules on the tournament's
//! board, so a vertex off the board, an occupied point, a suicide or a ko
//! is an error at its line and column — every error of the file at once,
//! each with its line and a caret.

use crate::go::notation::parse_move;
use crate::go::{Game, Move};
use crate::position::{Color, Point, Position};
use mkpat::diag::{self, Diagnostic, SourceFile, Span};

/// `n` openings of `moves` random moves each on an empty board, from
/// `seed`: legal moves on the board's inner points (off the first line),
/// the same for every run with the same arguments.
pub fn random(size: usize, n: usize, moves: usize, seed: u64) -> Vec<Vec<Move>> {
    (0..n)
        .map(|k| {
            let mut x = crate::seeding::stream(seed, k as u64);
            let mut game = Game::new(size);
            let mut out = Vec::new();
            let mut color = Color::Black;
            let last = size as i32 - 1;
            let inner: Vec<Point> = (0..size as i32)
                .flat_map(|i| (0..size as i32).map(move |j| Point::new(i, j)))
                .filter(|p| size < 5 || (1..last).contains(&p.i) && (1..last).contains(&p.j))
                .collect();
            for _ in 0..moves {
                let legal: Vec<Point> = inner
                    .iter()
                    .copied()
                    .filter(|&p| game.goban().is_empty(p) && game.goban().is_legal(p, color))
                    .collect();
                if legal.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let p = legal[(x % legal.len() as u64) as usize];
                if game.play(color, Move::Play(p)).is_err() {
                    break;
                }
                out.push(Move::Play(p));
                color = color.other();
            }
            out
        })
        .collect()
}

/// The openings of a file (`name` is shown in messages), replayed on a
/// `size` board; on any error, every diagnostic rendered.
pub fn parse(name: &str, bytes: &[u8], size: usize) -> Result<Vec<Vec<Move>>, String> {
    let (source, mut diags) = SourceFile::from_bytes(name, bytes);
    let mut out = Vec::new();
    for (start, line, _) in diag::lines(&source.text) {
        let text = line.split('#').next().unwrap_or("");
        let mut game = Game::new(size);
        let mut color = Color::Black;
        let mut opening = Vec::new();
        let mut ok = true;
        let mut at = 0;
        for word in text.split_whitespace() {
            let offset = start + at + text[at..].find(word).expect("a word of the line");
            at = offset - start + word.len();
            let span = Span::new(offset, offset + word.len());
            let mv = match parse_move(word, size) {
                Ok(mv) => mv,
                Err(e) => {
                    diags.push(
                        Diagnostic::error(span, format!("`{word}` is not a move on this board: {e}"))
                            .note(format!("a move is a vertex such as D4 (A to {}, I skipped; 1 to {size}) or `pass`", column_letter(size))),
                    );
                    ok = false;
                    break;
                }
            };
            if let Err(e) = game.play(color, mv) {
                diags.push(
                    Diagnostic::error(span, format!("{word} is illegal here: {e}"))
                        .note("an opening is replayed from the empty board, Black first"),
                );
                ok = false;
                break;
            }
            opening.push(mv);
            color = color.other();
        }
        if ok && !opening.is_empty() {
            out.push(opening);
        }
    }
    if out.is_empty() && diags.is_empty() {
        diags.push(
            Diagnostic::error(Span::at(0), "no opening in this file").note(
                "one opening a line: moves such as `D4 F6`, Black first; `#` starts a comment",
            ),
        );
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        let errors = diags.iter().filter(|d| d.is_error()).count();
        Err(format!(
            "{}{name}: {errors} error(s) in the openings",
            source.render_all(&diags)
        ))
    }
}

/// The last column's letter of a `size` board (GTP skips `I`).
fn column_letter(size: usize) -> char {
    let k = size.saturating_sub(1) as u8;
    let c = b'A' + k + u8::from(k >= 8);
    char::from(c.min(b'Z'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let a = random(9, 4, 3, 7);
        assert_eq!(a, random(9, 4, 3, 7));
        assert_ne!(a, random(9, 4, 3, 8));
        assert!(a.iter().all(|o| o.len() == 3));
        assert!(a.windows(2).any(|w| w[0] != w[1]), "{a:?}");
    }

    #[test]
    fn an_even_seed_draws_other_openings_than_the_odd_seed_after_it() {
        // `--seed 2` and `--seed 3` drew the same openings until the
        // seeding was fixed (`crate::seeding`).
        for seed in [0u64, 2, 8, 10] {
            let (a, b) = (random(13, 10, 2, seed), random(13, 10, 2, seed + 1));
            let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
            assert!(same <= 1, "seed {seed}: {same} of 10 the same");
        }
    }

    #[test]
    fn a_file_of_openings_is_read_and_replayed() {
        let text = b"# two openings\nD4 F6   # the first\n\n  C3 pass G7\n";
        let o = parse("o.txt", text, 9).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(
            o[0],
            [Move::Play(Point::new(5, 3)), Move::Play(Point::new(3, 5))]
        );
        assert_eq!(o[1][1], Move::Pass);
    }

    #[test]
    fn every_bad_move_is_located() {
        let text = b"D4 D4\nE5 Z9\nC3 J10\n";
        let err = parse("o.txt", text, 9).unwrap_err();
        assert!(
            err.contains("o.txt:1:4: error: D4 is illegal here"),
            "{err}"
        );
        assert!(
            err.contains("o.txt:2:4: error: `Z9` is not a move on this board"),
            "{err}"
        );
        assert!(err.contains("o.txt:3:4: error: `J10`"), "{err}");
        assert!(err.contains("A to J, I skipped; 1 to 9"), "{err}");
        assert!(err.ends_with("o.txt: 3 error(s) in the openings"), "{err}");
        let err = parse("e.txt", b"# nothing\n", 9).unwrap_err();
        assert!(err.contains("no opening in this file"), "{err}");
        // Not UTF-8: located, not a panic.
        assert!(parse("b.txt", b"D4 \xff\n", 9).is_err());
    }
}
