//! Human-readable views of compiled patterns: `mkpat show` and `mkpat stats`.

use std::fmt::Write;

use crate::check::CheckedPattern;
use crate::tables::{class, Assistance, Database, Pattern, Values};

/// A pattern's attribute line as its dialect writes it (the Go dialects'
/// first four fields; the five-in-a-row dialect's whole line).
pub fn attribute_text(p: &Pattern) -> String {
    match &p.values {
        Values::Go(g) => format!(
            ":{},{},{},{}",
            p.symmetry,
            g.weight,
            assistance_text(g.assistance),
            class::to_string(g.class)
        ),
        Values::Five(f) => format!(
            ":{},{},{},{}",
            if f.line {
                "line".to_string()
            } else {
                p.symmetry.to_string()
            },
            f.kind.name(),
            f.mine,
            f.theirs
        ),
        Values::Go38(g) => {
            let fields = g.fields_text();
            format!(
                ":{},{}{}{}",
                p.symmetry,
                crate::dialect::gnugo38::class_text(g.class),
                if fields.is_empty() { "" } else { "," },
                fields
            )
        }
    }
}

/// The assistance as written on a 2.6 attribute line.
pub fn assistance_text(a: Assistance) -> String {
    match a {
        Assistance::None => "0".into(),
        Assistance::Wind {
            ucutoff,
            uvalue,
            mycutoff,
            myvalue,
        } => format!("wind({ucutoff},{uvalue},{mycutoff},{myvalue})"),
        Assistance::Moyo { cutoff, value } => format!("moyo({cutoff},{value})"),
    }
}

/// A 32-bit grid mask as a 4x4 picture of 2-bit cells.
pub fn mask_rows(mask: u32) -> [String; 4] {
    std::array::from_fn(|r| {
        (0..4)
            .map(|c| {
                let shift = 30 - 2 * (4 * r + c);
                format!("{:02b}", (mask >> shift) & 3)
            })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// `mkpat show`: the pattern drawn in every transformation it is tried in,
/// with its anchor, move and grid masks.
pub fn show(db: &Database, checked: &[CheckedPattern], name: &str) -> Option<String> {
    let c = checked.iter().find(|c| c.name == name)?;
    let mut out = String::new();
    // A line pattern on the square is two tables patterns of one name.
    for p in db.patterns.iter().filter(|p| p.name == name) {
        let grid = if c.grid.rows == 1 && p.extent.max_i > p.extent.min_i {
            crate::dialect::five::diagonal(&c.grid)
        } else {
            c.grid.clone()
        };
        show_part(&mut out, db, &grid, p);
    }
    (!out.is_empty()).then_some(out)
}

fn show_part(out: &mut String, db: &Database, grid: &crate::grid::Grid, p: &Pattern) {
    if !out.is_empty() {
        out.push('\n');
    }
    header(out, p);
    let (ar, ac) = grid.anchor().expect("a stone");
    for v in db.view().variants_of(p) {
        let g = grid.transformed(v.trans);
        let _ = writeln!(
            out,
            "\ntransformation {} ({}): anchor at {}, move at ({:+},{:+}), extent rows {:+}..{:+} cols {:+}..{:+}",
            v.trans,
            db.geometry.transform_name(v.trans),
            if (ar, ac) == (0, 0) { "the top-left cell".to_string() } else { "the same stone".to_string() },
            v.move_di,
            v.move_dj,
            v.extent.min_i,
            v.extent.max_i,
            v.extent.min_j,
            v.extent.max_j,
        );
        let drawn: Vec<String> = g.draw().lines().map(str::to_string).collect();
        let (and, val) = (mask_rows(v.and_mask), mask_rows(v.val_mask));
        let width = drawn
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(8);
        let _ = writeln!(out, "  {:width$}   and_mask      val_mask", "diagram");
        for k in 0..drawn.len().max(4) {
            let d = drawn.get(k).map_or("", String::as_str);
            let (a, b) = if k < 4 {
                (and[k].as_str(), val[k].as_str())
            } else {
                ("", "")
            };
            let _ = writeln!(out, "  {d:width$}   {a:11}   {b}");
        }
        let _ = writeln!(
            out,
            "  and_mask {:#010x}  val_mask {:#010x}",
            v.and_mask, v.val_mask
        );
    }
}

fn header(out: &mut String, p: &Pattern) {
    let _ = writeln!(
        out,
        "pattern {} (line {}){}",
        p.name,
        p.line,
        if p.description.is_empty() {
            String::new()
        } else {
            format!(": {}", p.description)
        }
    );
    let _ = match &p.values {
        Values::Go(g) => writeln!(
            out,
            "  symmetry `{}`, weight {}, assistance {}, class {}, bonus {}, max weight {}, helper {}",
            p.symmetry,
            g.weight,
            assistance_text(g.assistance),
            class::to_string(g.class),
            g.bonus,
            p.max_weight,
            p.helper.as_deref().unwrap_or("none")
        ),
        Values::Five(f) => writeln!(
            out,
            "  symmetry `{}`{}, kind {}, mine {}, theirs {}, max weight {}",
            p.symmetry,
            if f.line { " (a line pattern)" } else { "" },
            f.kind.name(),
            f.mine,
            f.theirs,
            p.max_weight
        ),
        Values::Go38(g) => writeln!(
            out,
            "  symmetry `{}`, class {}, values {}, max weight {}, helper {}",
            p.symmetry,
            crate::dialect::gnugo38::class_text(g.class),
            match g.fields_text() {
                t if t.is_empty() => "none".to_string(),
                t => t,
            },
            p.max_weight,
            p.helper.as_deref().unwrap_or("none")
        ),
    };
    let _ = writeln!(
        out,
        "  anchor {} ; {} elements ; {} transformations",
        p.anchor.as_char(),
        p.elements.len,
        p.variants.len
    );
}

/// `mkpat stats`: counts that tell a database's shape at a glance.
/// Why `show` found no pattern `name`: the message, with up to three
/// patterns whose names are close (edit distance at most a third of the
/// longer name, and at least 2), or none when nothing is close.
pub fn not_found(db: &Database, name: &str) -> String {
    let mut close: Vec<(usize, &str)> = db
        .patterns
        .iter()
        .map(|p| (strsim::levenshtein(&p.name, name), &*p.name))
        .filter(|(d, n)| *d <= 2.max(n.len().max(name.len()) / 3))
        .collect();
    close.sort();
    let close: Vec<String> = close
        .iter()
        .take(3)
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    if close.is_empty() {
        format!("no pattern `{name}` (and none with a close name)")
    } else {
        format!("no pattern `{name}`; closest: {}", close.join(", "))
    }
}

pub fn stats(db: &Database) -> String {
    let mut out = String::new();
    let n = db.patterns.len();
    let with_helper = db.patterns.iter().filter(|p| p.helper.is_some()).count();
    let with_assist = db
        .patterns
        .iter()
        .filter(|p| {
            p.values
                .go()
                .is_some_and(|g| g.assistance != Assistance::None)
        })
        .count();
    let edge = db.patterns.iter().filter(|p| p.edges != 0).count();
    let corner = db
        .patterns
        .iter()
        .filter(|p| (p.edges & 3 != 0) && (p.edges & 12 != 0))
        .count();
    let _ = writeln!(out, "patterns          {n}");
    let _ = writeln!(out, "variants          {}", db.variants.len());
    let _ = writeln!(out, "elements          {}", db.elements.len());
    let _ = writeln!(out, "with helper       {with_helper}");
    let _ = writeln!(out, "with assistance   {with_assist}");
    let _ = writeln!(out, "at an edge        {edge} ({corner} in a corner)");
    let mut by_sym: Vec<(char, usize)> = Vec::new();
    for p in &db.patterns {
        match by_sym.iter_mut().find(|(c, _)| *c == p.symmetry) {
            Some((_, k)) => *k += 1,
            None => by_sym.push((p.symmetry, 1)),
        }
    }
    by_sym.sort();
    let _ = writeln!(
        out,
        "by symmetry       {}",
        by_sym
            .iter()
            .map(|(c, k)| format!("{c}:{k}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(
        out,
        "anchor            O:{} X:{}",
        db.patterns
            .iter()
            .filter(|p| p.anchor.as_char() == 'O')
            .count(),
        db.patterns
            .iter()
            .filter(|p| p.anchor.as_char() == 'X')
            .count()
    );
    if let (Some(hi), Some(lo)) = (db.patterns.first(), db.patterns.last()) {
        let _ = writeln!(
            out,
            "max weight        {}..{}",
            lo.max_weight, hi.max_weight
        );
    }
    let cells: usize = db.patterns.iter().map(|p| p.elements.len as usize).sum();
    if n > 0 {
        let _ = writeln!(out, "elements/pattern  {:.1}", cells as f64 / n as f64);
    }
    out
}

/// `mkpat stats`' lines on GNU Go 3.x constraints and actions: how many
/// patterns have each, every function called with the number of patterns
/// calling it, and those katachi's Go engine cannot evaluate. Empty for
/// the other dialects.
pub fn constraint38_stats(checked: &[CheckedPattern]) -> String {
    let mut out = String::new();
    let with: Vec<&crate::constraint38::Checked> = checked
        .iter()
        .filter_map(|p| p.constraint38.as_ref())
        .collect();
    if with.is_empty() {
        return out;
    }
    let conditions = with.iter().filter(|k| k.condition.is_some()).count();
    let actions = with.iter().filter(|k| !k.actions.is_empty()).count();
    let _ = writeln!(out, "with constraint   {conditions}");
    let _ = writeln!(out, "with actions      {actions}");
    // Patterns calling each function, in table order.
    let mut uses: Vec<(&str, usize)> = Vec::new();
    for k in &with {
        let mut names: Vec<String> = Vec::new();
        let mut visit = |e: &crate::constraint38::Expr| {
            e.walk(&mut |x| {
                if let crate::constraint38::ExprKind::Call(n, _, _) = &x.kind {
                    if !names.contains(n) {
                        names.push(n.clone());
                    }
                }
            })
        };
        if let Some(c) = &k.condition {
            visit(c);
        }
        for s in &k.actions {
            s.exprs(&mut |e| visit(e));
        }
        for n in names {
            // Names outside the table were reported by the checker.
            let Some(f) = crate::constraint38::function(&n) else {
                continue;
            };
            match uses.iter_mut().find(|(u, _)| *u == f.name) {
                Some((_, c)) => *c += 1,
                None => uses.push((f.name, 1)),
            }
        }
    }
    uses.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let list = |evaluable: bool| {
        uses.iter()
            .filter(|(n, _)| {
                crate::constraint38::function(n).is_some_and(|f| f.evaluable() == evaluable)
            })
            .map(|(n, c)| format!("{n}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        "functions katachi evaluates (patterns)  {}",
        list(true)
    );
    let _ = writeln!(
        out,
        "functions katachi cannot evaluate       {}",
        list(false)
    );
    // What the lowering decided, and why the rest is not.
    let lowered: Vec<&crate::constraint38::Lowered> = checked
        .iter()
        .filter_map(|p| p.lowered38.as_ref())
        .collect();
    let decided = lowered.iter().filter(|l| l.condition.is_some()).count();
    let returns = lowered.iter().filter(|l| l.action.is_some()).count();
    let _ = writeln!(
        out,
        "constraints katachi decides   {decided} of {conditions} (compiled and interpreted)"
    );
    let _ = writeln!(out, "returning actions it decides  {returns}");
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for l in &lowered {
        for r in &l.undecided {
            match reasons.iter_mut().find(|(u, _)| u == r) {
                Some((_, c)) => *c += 1,
                None => reasons.push((r, 1)),
            }
        }
    }
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let undecided = lowered.iter().filter(|l| !l.undecided.is_empty()).count();
    let _ = writeln!(
        out,
        "constraints or actions katachi cannot decide  {undecided} pattern(s)"
    );
    if !reasons.is_empty() {
        let list: Vec<String> = reasons.iter().map(|(r, c)| format!("{r}:{c}")).collect();
        let _ = writeln!(out, "undecided because (patterns)  {}", list.join(" "));
    }
    out
}

#[cfg(test)]
mod not_found_tests {
    #[test]
    fn closest_names_or_none() {
        let src = b"# pattern 17\n\nXO.\n.*.\n\n:8,50,0,0,0,0,-,0,NULL\n";
        let c = crate::compile("t.db", src, &crate::Options::default());
        let db = c.database.expect("compiles");
        assert_eq!(super::not_found(&db, "7"), "no pattern `7`; closest: `17`");
        assert_eq!(
            super::not_found(&db, "zzzzzzzzz"),
            "no pattern `zzzzzzzzz` (and none with a close name)"
        );
        let empty = crate::Database::default();
        assert!(!super::not_found(&empty, "A").contains("closest"));
    }
}
