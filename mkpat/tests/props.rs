//! Property tests of the pattern compiler.
//!
//! (a) expansion tries each distinct placement exactly once;
//! (b) no input makes the compiler panic, and every span lies in the source;
//! (c) renumbering is idempotent and touches only header lines;
//! (d) a grid drawn by `Grid::draw` parses back to itself.
#![cfg(feature = "compiler")]

use mkpat::geometry::{Geometry, Symmetries};
use mkpat::grid::{Grid, Spec};
use mkpat::tables::Cell;
use mkpat::transform::{self, SymmetryClass, TransformSet};

/// A square class's group as the geometry module's set.
fn sq(g: TransformSet) -> Symmetries {
    Symmetries(u16::from(g.0))
}
use mkpat::{Compiled, Options};
use proptest::prelude::*;
use proptest::sample::select;

const CELLS: [char; 6] = ['?', '.', 'O', 'X', 'o', 'x'];

fn spec(c: char) -> Spec {
    Spec::from_char(c).unwrap()
}

/// Where cell `(r, c)` of a `rows × cols` grid lands under transformation
/// `t`, in the transformed grid's own coordinates (as `Grid::transformed`
/// places it).
fn image(t: u8, rows: usize, cols: usize, r: usize, c: usize) -> (usize, usize) {
    let corners = [
        (0, 0),
        (rows as i32 - 1, cols as i32 - 1),
        (0, cols as i32 - 1),
        (rows as i32 - 1, 0),
    ];
    let mapped = corners.map(|(i, j)| transform::apply(t, i, j));
    let min_i = mapped.iter().map(|p| p.0).min().unwrap();
    let min_j = mapped.iter().map(|p| p.1).min().unwrap();
    let (i, j) = transform::apply(t, r as i32, c as i32);
    ((i - min_i) as usize, (j - min_j) as usize)
}

/// The database text of one seed pattern.
fn database(grid: &Grid, number: u32, class: char) -> String {
    format!(
        "# pattern {number}\n\n{}\n:{class},40,0,0,0,0,OX,0,NULL\n",
        grid.draw()
    )
}

fn compile(text: &str) -> Compiled {
    mkpat::compile("prop.db", text.as_bytes(), &Options::default())
}

/// A random grid with exactly one move and at least one stone.
fn any_grid() -> impl Strategy<Value = Grid> {
    (1usize..=6, 1usize..=6)
        .prop_flat_map(|(rows, cols)| {
            (
                Just((rows, cols)),
                prop::collection::vec(select(&CELLS[..]), rows * cols),
                0..rows * cols,
                0..rows * cols,
                select(&['O', 'X'][..]),
                0u8..16,
            )
        })
        .prop_filter("room for a move and a stone", |((r, c), _, m, s, _, _)| {
            r * c >= 2 && m != s
        })
        .prop_map(|((rows, cols), cells, mv, stone, color, edges)| {
            let mut cells: Vec<Spec> = cells.into_iter().map(spec).collect();
            cells[mv] = Spec::Move;
            cells[stone] = spec(color);
            Grid {
                geometry: Geometry::Square,
                rows,
                cols,
                cells,
                edges,
            }
        })
}

/// A random grid made symmetric under the group of `class`: each orbit of
/// cells (and of edge sides) takes one value, the move sits on a cell that
/// every transformation of the group fixes. `None` when there is no such
/// cell or no room for a stone.
fn symmetrize(class: SymmetryClass, g: &Grid, move_pick: usize, stone_pick: usize) -> Option<Grid> {
    let group = class.group();
    // A group with a diagonal reflection needs a square: crop to one.
    let g = &if group.iter().any(|t| transform::apply(t, 1, 0).0 == 0) && g.rows != g.cols {
        let k = g.rows.min(g.cols);
        let cells = (0..k * k).map(|x| g.get(x / k, x % k)).collect();
        Grid {
            geometry: Geometry::Square,
            rows: k,
            cols: k,
            cells,
            edges: g.edges,
        }
    } else {
        g.clone()
    };
    let (rows, cols) = (g.rows, g.cols);
    // Orbits by union-find over cell indices.
    let n = rows * cols;
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        if p[x] != x {
            let r = find(p, p[x]);
            p[x] = r;
        }
        p[x]
    }
    for r in 0..rows {
        for c in 0..cols {
            for t in group.iter() {
                let (i, j) = image(t, rows, cols, r, c);
                let (a, b) = (
                    find(&mut parent, r * cols + c),
                    find(&mut parent, i * cols + j),
                );
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let roots: Vec<usize> = (0..n).map(|k| find(&mut parent, k)).collect();
    let fixed: Vec<usize> = (0..n)
        .filter(|&k| roots.iter().filter(|&&r| r == roots[k]).count() == 1)
        .collect();
    if fixed.is_empty() {
        return None;
    }
    let mv = fixed[move_pick % fixed.len()];
    let others: Vec<usize> = (0..n)
        .filter(|&k| roots[k] != mv && roots[k] == k)
        .collect();
    if others.is_empty() {
        return None;
    }
    let stone = others[stone_pick % others.len()];
    let mut cells: Vec<Spec> = (0..n)
        .map(|k| match g.cells[roots[k]] {
            Spec::Move => Spec::Is(Cell::Empty),
            s => s,
        })
        .collect();
    for k in 0..n {
        if k == mv {
            cells[k] = Spec::Move;
        } else if roots[k] == stone {
            cells[k] = Spec::Is(Cell::Mine);
        }
    }
    let edges = group
        .iter()
        .fold(0, |e, t| e | transform::transform_sides(t, g.edges));
    Some(Grid {
        geometry: Geometry::Square,
        rows,
        cols,
        cells,
        edges,
    })
}

fn any_class() -> impl Strategy<Value = SymmetryClass> {
    select(&SymmetryClass::ALL[..])
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        max_global_rejects: 1 << 20,
        ..ProptestConfig::default()
    })]

    /// (a) For a diagram whose symmetry group is exactly its class's, the
    /// variants are pairwise distinct and every one of the eight
    /// transformed diagrams is exactly one variant's.
    #[test]
    fn variants_are_the_placements_modulo_the_group(
        class in any_class(),
        g in any_grid(),
        move_pick in 0usize..64,
        stone_pick in 0usize..64,
    ) {
        let sym = symmetrize(class, &g, move_pick, stone_pick);
        prop_assume!(sym.is_some());
        let grid = sym.unwrap();
        prop_assert!(sq(class.group()).is_subset_of(grid.symmetry_group()), "construction: {:?}", grid);
        prop_assume!(grid.symmetry_group() == sq(class.group()));
        let c = compile(&database(&grid, 1, class.as_char()));
        prop_assert!(c.diagnostics.is_empty(), "{}", c.render());
        prop_assert_eq!(&c.checked[0].grid, &grid);
        let db = c.database.unwrap();
        let placed: Vec<Grid> = db.variants.iter().map(|v| grid.transformed(v.trans)).collect();
        prop_assert_eq!(placed.len(), 8 / class.group().len());
        for (a, x) in placed.iter().enumerate() {
            for y in &placed[a + 1..] {
                prop_assert_ne!(x, y);
            }
        }
        for t in 0..8 {
            let seen = grid.transformed(t);
            prop_assert_eq!(placed.iter().filter(|p| **p == seen).count(), 1, "transformation {}", t);
        }
        // Each variant's move and sides are its transformation's.
        let p = &db.patterns[0];
        for v in &db.variants {
            let (mi, mj) = transform::apply(v.trans, p.move_di.into(), p.move_dj.into());
            prop_assert_eq!((v.move_di as i32, v.move_dj as i32), (mi, mj));
            prop_assert_eq!(v.edges, transform::transform_sides(v.trans, grid.edges));
        }
    }

    /// (a) for the classes' groups themselves: the cosets partition the eight
    /// transformations.
    #[test]
    fn coset_representatives_partition_the_group(class in any_class()) {
        let g = class.group();
        let mut covered = TransformSet::default();
        for t in class.transformations() {
            let coset = TransformSet(g.iter().fold(0, |m, h| m | 1 << transform::compose(h, t)));
            prop_assert_eq!(coset.0 & covered.0, 0);
            covered = TransformSet(covered.0 | coset.0);
        }
        prop_assert_eq!(covered, TransformSet::ALL);
    }

    /// (b) Arbitrary bytes never make the compiler panic.
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_no_panic(&bytes);
    }

    /// (b) Nor do bytes drawn from the language's own alphabet, which reach
    /// much deeper into the parser.
    #[test]
    fn random_pattern_text_never_panics(
        text in prop::collection::vec(
            select(&["# pattern 1\n", "# pattern 2\n", "Pattern A\n", "\n", "\r\n", ":", ",", "8", "|", "+", "-",
                     "O", "X", "o", "x", ".", "*", "?", " ", "\t", "NULL", "0", "99999999999", "wind(1,2,3,4)",
                     "moyo(1", ")", ";", "#", "\u{e9}", "abc"][..]),
            0..120,
        )
    ) {
        let text: String = text.concat();
        check_no_panic(text.as_bytes());
        let _ = mkpat::renum::renumber(&text);
    }

    /// (b) Mutations of a valid database never make the compiler panic.
    #[test]
    fn mutated_databases_never_panic(ops in prop::collection::vec((0u8..7, any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut text = VALID.as_bytes().to_vec();
        for (op, a, b, byte) in ops {
            text = mutate(&text, op, a, b, byte);
        }
        check_no_panic(&text);
        if let Ok(s) = std::str::from_utf8(&text) {
            let _ = mkpat::renum::renumber(s);
        }
    }

    /// (c) Renumbering twice is renumbering once, and only header lines
    /// change: the numbers become 1, 2, 3… in file order. (A file without
    /// patterns is an error, so there is at least one.)
    #[test]
    fn renum_is_idempotent_and_touches_only_headers(
        pats in prop::collection::vec((any_grid(), 0u32..30, select(&["# pattern ", "#\tpattern ", "# pattern  "][..]), select(&["", "  ", "\t"][..])), 1..6),
        crlf in any::<bool>(),
        intro in select(&["", "# intro\n\n", "# pattern list\n"][..]),
    ) {
        let mut text = intro.to_string();
        for (g, n, head, tail) in &pats {
            text.push_str(&format!("{head}{n}{tail}\n\n{}\n:8,40,0,0,0,0,OX,0,NULL\n\n", g.draw()));
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let once = mkpat::renum::renumber(&text).expect("a valid database renumbers");
        let twice = mkpat::renum::renumber(&once.text).expect("still valid");
        prop_assert_eq!(&twice.text, &once.text);
        prop_assert_eq!(twice.changed, 0);
        prop_assert_eq!(once.total, pats.len());
        let old: Vec<&str> = text.split_inclusive('\n').collect();
        let new: Vec<&str> = once.text.split_inclusive('\n').collect();
        prop_assert_eq!(old.len(), new.len());
        let mut changed = 0;
        for (o, n) in old.iter().zip(&new) {
            if o != n {
                changed += 1;
                let digitless = |s: &str| s.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
                prop_assert!(o.contains("pattern"), "{:?} is not a header", o);
                prop_assert_eq!(digitless(o), digitless(n));
            }
        }
        prop_assert_eq!(changed, once.changed);
        let (ast, _) = mkpat::parse::parse(&once.text, None);
        let names: Vec<String> = ast.patterns.iter().map(|p| p.name.text.clone()).collect();
        let want: Vec<String> = (1..=pats.len()).map(|k| k.to_string()).collect();
        prop_assert_eq!(names, want);
    }

    /// (d) Drawing a grid and parsing the drawing gives the grid back.
    #[test]
    fn draw_then_parse_is_the_identity(g in any_grid(), number in 1u32..1000) {
        let c = compile(&database(&g, number, '8'));
        prop_assert_eq!(c.error_count(), 0, "{}", c.render());
        prop_assert_eq!(c.checked.len(), 1);
        prop_assert_eq!(&c.checked[0].grid, &g);
        prop_assert_eq!(&c.checked[0].name, &number.to_string());
    }
}

/// A valid database to mutate: edges, corners, classes, wind, a helper.
const VALID: &str = "# A database to mutate.\n\n# pattern 1\n\n??o|          sente hane\n?Oo|\nXX*|\n...|\n?.?|\n\n:8,70,0,0,0,0,O,0,sente_hane_helper\n\n# pattern 2\n\n+---\n|OX.\n|.*.\n\n:8,40,20,1,0,0,OX,2,NULL\n\n# pattern 3\n\n.X.\nO*O\n...\n\n:|,30,0,0,0,0,-,0,NULL\n\n# pattern 4\n\nO..\n.*.\n..O\n---\n\n:X,20,0,0,5,1,sn,0,NULL\n";

fn mutate(
    text: &[u8],
    op: u8,
    a: prop::sample::Index,
    b: prop::sample::Index,
    byte: u8,
) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = text
        .split_inclusive(|&c| c == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    if lines.is_empty() {
        return vec![byte];
    }
    let (i, j) = (a.index(lines.len()), b.index(lines.len()));
    match op {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(j, l);
        }
        2 => lines.swap(i, j),
        _ => {
            let mut t = text.to_vec();
            let (x, y) = (a.index(t.len()), b.index(t.len()));
            match op {
                3 => {
                    t.remove(x);
                }
                4 => t.insert(x, byte),
                5 => t.swap(x, y),
                _ => {
                    let c = t[x];
                    t.insert(y, c);
                }
            }
            return t;
        }
    }
    lines.concat()
}

fn check_no_panic(bytes: &[u8]) {
    let opts = Options {
        helpers: Some(mkpat::HelperSet::from_source(include_str!("data/helpers.rs")).unwrap()),
        ..Options::default()
    };
    for o in [
        opts,
        Options {
            lenient: true,
            ..Options::default()
        },
    ] {
        let c = mkpat::compile("fuzz.db", bytes, &o);
        let len = c.source.text.len();
        for d in &c.diagnostics {
            assert!(
                d.span.start < d.span.end && d.span.end <= len.max(1),
                "span {:?} outside 0..{len}: {d:?}",
                d.span
            );
            for (s, _) in &d.related {
                assert!(
                    s.start < s.end && s.end <= len.max(1),
                    "related span {s:?} outside 0..{len}"
                );
            }
        }
        let _ = c.render();
        assert_eq!(c.is_ok(), c.error_count() == 0);
        if let Some(db) = &c.database {
            let _ = mkpat::codegen::generate(
                db,
                &c.checked,
                &mkpat::codegen::CodegenOptions {
                    input: "fuzz.db",
                    dialect: c.dialect.name(),
                    helpers: None,
                    helper_fn_type: "crate::position::HelperFn",
                    constraints: None,
                },
            );
        }
    }
}
