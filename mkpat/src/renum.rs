//! `mkpat renum`: GNU Go's `make renum`, as a pure text transformation.
//!
//! Headers are renumbered 1, 2, 3… in file order; every other byte of the
//! file is kept as it was. The binary does the file handling (backup, atomic
//! write); this module only decides the new text, or refuses.

use std::collections::BTreeMap;

use crate::ast::Dialect;
use crate::diag::Diagnostic;
use crate::parse;

/// Why a database was not renumbered.
#[derive(Debug)]
pub enum RenumError {
    /// The file does not parse; nothing was changed.
    Parse(Vec<Diagnostic>),
    /// The database is not in the seed dialect, whose patterns are
    /// numbered: the others' (GNU Go 2.6's, 3.8's, the five-in-a-row
    /// dialect's) have names, which renumbering would not change.
    NotNumbered(Dialect),
}

/// The outcome of a renumbering.
#[derive(Debug, PartialEq, Eq)]
pub struct Renumbered {
    pub text: String,
    /// Headers whose number changed.
    pub changed: usize,
    pub total: usize,
    /// Each old number and the new numbers of the patterns that bore it
    /// (several when it was duplicated), for the personalities that name
    /// them ([`crate::personality::rename_patterns`]).
    pub renames: BTreeMap<String, Vec<String>>,
    /// The database's fingerprint before and after
    /// ([`crate::personality::fingerprint`]).
    pub fingerprints: (String, String),
}

/// Renumbers the `# pattern N` headers of `text`. Duplicate numbers are
/// what it exists to fix, so only syntax errors make it refuse.
pub fn renumber(text: &str) -> Result<Renumbered, RenumError> {
    let (db, diags) = parse::parse(text, None);
    if db.dialect != Dialect::Seed {
        return Err(RenumError::NotNumbered(db.dialect));
    }
    let errors: Vec<Diagnostic> = diags.into_iter().filter(|d| d.is_error()).collect();
    if !errors.is_empty() {
        return Err(RenumError::Parse(errors));
    }
    let old: Vec<&str> = db.patterns.iter().map(|p| p.name.text.as_str()).collect();
    let mut out = String::with_capacity(text.len() + 64);
    let mut next = 1usize;
    let mut changed = 0;
    // A byte-order mark is before the first line: kept as it was.
    if let Some((start, _, _)) = crate::diag::lines(text).next() {
        out.push_str(&text[..start]);
    }
    for (_, body, ending) in crate::diag::lines(text) {
        match parse::header_seed(body) {
            Some(num) => {
                let at = body.find(num).expect("the number is in the header");
                let new = next.to_string();
                if num != new {
                    changed += 1;
                }
                out.push_str(&body[..at]);
                out.push_str(&new);
                out.push_str(&body[at + num.len()..]);
                next += 1;
            }
            None => out.push_str(body),
        }
        out.push_str(ending);
    }
    let total = next - 1;
    let mut renames: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (k, name) in old.iter().enumerate() {
        renames
            .entry(name.to_string())
            .or_default()
            .push((k + 1).to_string());
    }
    let news: Vec<String> = (1..=total).map(|k| k.to_string()).collect();
    let fingerprints = (
        crate::personality::fingerprint(Dialect::Seed, old.iter().copied()),
        crate::personality::fingerprint(Dialect::Seed, news.iter().map(String::as_str)),
    );
    Ok(Renumbered {
        text: out,
        changed,
        total,
        renames,
        fingerprints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_cr_line_endings_and_a_bom_are_kept() {
        let src = "\u{FEFF}# pattern 7\rO*\r:8,1,0,0,0,0,-,0,NULL\r\r# pattern 7\rX*\r:8,1,0,0,0,0,-,0,NULL\r";
        let r = renumber(src).unwrap();
        assert_eq!(r.total, 2);
        assert_eq!(r.changed, 2);
        assert_eq!(
            r.text,
            "\u{FEFF}# pattern 1\rO*\r:8,1,0,0,0,0,-,0,NULL\r\r# pattern 2\rX*\r:8,1,0,0,0,0,-,0,NULL\r"
        );
    }

    #[test]
    fn a_file_without_patterns_is_refused() {
        match renumber("# just a comment\n") {
            Err(RenumError::Parse(d)) => assert_eq!(d[0].message, "no pattern in this file"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn renumbers_headers_and_keeps_every_other_byte() {
        let src = "# intro\r\n# pattern 7\r\nO*\r\n:8,1,0,0,0,0,-,0,NULL\r\n\r\n# pattern 7   \r\nX*\r\n:8,1,0,0,0,0,-,0,NULL";
        let r = renumber(src).unwrap();
        assert_eq!(
            r.text,
            "# intro\r\n# pattern 1\r\nO*\r\n:8,1,0,0,0,0,-,0,NULL\r\n\r\n# pattern 2   \r\nX*\r\n:8,1,0,0,0,0,-,0,NULL"
        );
        assert_eq!((r.changed, r.total), (2, 2));
        assert_eq!(r.renames["7"], ["1", "2"]);
    }

    #[test]
    fn refuses_a_file_that_does_not_parse() {
        let src = "# pattern 1\nO*\n:8,1,0\n";
        assert!(matches!(renumber(src), Err(RenumError::Parse(_))));
    }
}
