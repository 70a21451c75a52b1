//! The Go engine's incremental structures against recomputation: random
//! sequences of moves, passes and undos keep the strings, liberty counts,
//! hash and the matcher's merged boards equal to what the stones alone
//! give, and undoing everything restores the empty board exactly. Also:
//! the rules agree with a plain flood-fill model of captures and suicide.

use katachi::go::{Goban, Illegal};
use katachi::{Color, Point, Position};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Play(i32, i32, bool),
    Pass,
    Undo,
}

fn op(n: i32) -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..n, 0..n, any::<bool>()).prop_map(|(i, j, w)| Op::Play(i, j, w)),
        1 => Just(Op::Pass),
        2 => Just(Op::Undo),
    ]
}

/// The stones after `color` plays `p` on `before`, by flood fill: the
/// model the incremental board must agree with. `None` when illegal
/// (ko aside).
fn model_play(before: &Goban, p: Point, color: Color) -> Option<Vec<Option<Color>>> {
    let n = before.size() as i32;
    if before.stone(p).is_some() {
        return None;
    }
    let mut cells: Vec<Option<Color>> = before.points().map(|q| before.stone(q)).collect();
    let at = |q: Point| (q.i * n + q.j) as usize;
    cells[at(p)] = Some(color);
    let on = |q: Point| (0..n).contains(&q.i) && (0..n).contains(&q.j);
    let group_libs = |cells: &[Option<Color>], s: Point| -> (Vec<Point>, usize) {
        let c = cells[at(s)];
        let mut group = vec![s];
        let mut libs = Vec::new();
        let mut k = 0;
        while k < group.len() {
            for q in group[k].neighbours() {
                if !on(q) {
                    continue;
                }
                if cells[at(q)] == c && !group.contains(&q) {
                    group.push(q);
                } else if cells[at(q)].is_none() && !libs.contains(&q) {
                    libs.push(q);
                }
            }
            k += 1;
        }
        let l = libs.len();
        (group, l)
    };
    for q in p.neighbours() {
        if on(q) && cells[at(q)] == Some(color.other()) {
            let (group, libs) = group_libs(&cells, q);
            if libs == 0 {
                for s in group {
                    cells[at(s)] = None;
                }
            }
        }
    }
    (group_libs(&cells, p).1 > 0).then_some(cells)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn play_pass_undo_stay_consistent(n in 5usize..10, ops in proptest::collection::vec(op(9), 1..200)) {
        let mut g = Goban::new(n);
        let mut snapshots = vec![g.board().clone()];
        for o in ops {
            match o {
                Op::Play(i, j, w) => {
                    let p = Point::new(i, j);
                    let c = if w { Color::White } else { Color::Black };
                    let model = if g.on_board(p) { model_play(&g, p, c) } else { None };
                    match g.play(p, c) {
                        Ok(_) => {
                            let cells: Vec<Option<Color>> = g.points().map(|q| g.stone(q)).collect();
                            prop_assert_eq!(Some(cells), model);
                            snapshots.push(g.board().clone());
                        }
                        Err(Illegal::Ko) => prop_assert!(model.is_some()),
                        Err(_) => prop_assert!(model.is_none()),
                    }
                }
                Op::Pass => {
                    g.pass();
                    snapshots.push(g.board().clone());
                }
                Op::Undo => {
                    if g.undo() {
                        snapshots.pop();
                    }
                    prop_assert_eq!(Some(g.board()), snapshots.last());
                }
            }
            prop_assert!(g.verify().is_ok(), "{:?}", g.verify());
        }
        while g.undo() {}
        prop_assert_eq!(g.board(), &snapshots[0]);
        prop_assert_eq!(g.stones_hash(), 0);
    }
}
