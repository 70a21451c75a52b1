//! Fitting the predictor's strengths to the moves of games:
//! minorization–maximization for the generalized Bradley–Terry model
//! (Hunter 2004; Coulom 2007 for move patterns).
//!
//! Each position is a competition among its legal points, each point a
//! team of features, and the point played won. With the other groups
//! held, the likelihood's minorizer has a closed-form maximum for one
//! group's strengths:
//!
//! γᵢ ← Wᵢ / Σⱼ Cᵢⱼ / Eⱼ
//!
//! where `Wᵢ` counts the winning teams holding feature `i`, `Eⱼ` is the
//! sum of the strengths of competition `j`'s teams and `Cᵢⱼ` the sum over
//! its teams holding `i` of their strength without `γᵢ`. Each update
//! raises the likelihood (a test holds it to that), so the groups are
//! updated in turn until it stops rising. Every feature also plays one
//! virtual win and one virtual loss against a team of strength 1, so
//! that a feature never seen winning keeps a finite strength.

use std::collections::HashMap;

use super::{legal_features, nearest_stones, Context, Features, Predictor, GROUP_COUNT, NONE};
use crate::go::fastboard::{cell, FastBoard};
use crate::position::{Color, Point};

/// Competitions: teams as dense feature indices, grouped by position.
#[derive(Clone, Debug)]
pub struct Competitions {
    /// Per group, feature value → dense index into the strengths.
    index: Vec<HashMap<u32, u32>>,
    /// Per dense index: its group and value.
    features: Vec<(usize, u32)>,
    /// Every team's features as dense indices ([`ABSENT`] for none).
    teams: Vec<[u32; GROUP_COUNT]>,
    /// Where each competition's teams start in `teams` (and the end).
    starts: Vec<usize>,
    /// The winning team of each competition, as an index into `teams`.
    winners: Vec<usize>,
}

/// No feature of a group in a team.
const ABSENT: u32 = u32::MAX;

impl Default for Competitions {
    fn default() -> Competitions {
        Competitions::new()
    }
}

impl Competitions {
    /// No competition yet.
    pub fn new() -> Competitions {
        Competitions {
            index: vec![HashMap::new(); GROUP_COUNT],
            features: Vec::new(),
            teams: Vec::new(),
            starts: vec![0],
            winners: Vec::new(),
        }
    }

    /// Adds a competition: the teams of a position's legal points, and
    /// which of them won. Ignored when `winner` is out of range.
    pub fn push(&mut self, teams: &[Features], winner: usize) {
        if winner >= teams.len() {
            return;
        }
        let base = self.teams.len();
        for t in teams {
            let mut dense = [ABSENT; GROUP_COUNT];
            for (g, &v) in t.iter().enumerate() {
                if v == NONE {
                    continue;
                }
                let next = self.features.len() as u32;
                let id = *self.index[g].entry(v).or_insert(next);
                if id == next {
                    self.features.push((g, v));
                }
                dense[g] = id;
            }
            self.teams.push(dense);
        }
        self.winners.push(base + winner);
        self.starts.push(self.teams.len());
    }

    /// How many competitions.
    pub fn len(&self) -> usize {
        self.winners.len()
    }

    pub fn is_empty(&self) -> bool {
        self.winners.is_empty()
    }

    /// How many teams in all.
    pub fn teams(&self) -> usize {
        self.teams.len()
    }

    /// How many distinct features.
    pub fn feature_count(&self) -> usize {
        self.features.len()
    }

    fn strength(&self, gammas: &[f64], t: &[u32; GROUP_COUNT]) -> f64 {
        t.iter()
            .filter(|&&i| i != ABSENT)
            .map(|&i| gammas[i as usize])
            .product()
    }

    /// The mean log-likelihood of the winners under `gammas`.
    fn log_likelihood(&self, gammas: &[f64]) -> f64 {
        let mut sum = 0.0;
        for j in 0..self.len() {
            let (a, b) = (self.starts[j], self.starts[j + 1]);
            let e: f64 = self.teams[a..b]
                .iter()
                .map(|t| self.strength(gammas, t))
                .sum();
            sum += (self.strength(gammas, &self.teams[self.winners[j]]) / e).ln();
        }
        sum / self.len().max(1) as f64
    }

    /// Σⱼ Cᵢⱼ / Eⱼ for every feature (by dense index; only group `g`'s
    /// are filled), over competitions `range`.
    fn denominators(&self, gammas: &[f64], g: usize, range: std::ops::Range<usize>) -> Vec<f64> {
        let mut out = vec![0.0; gammas.len()];
        for j in range {
            let (a, b) = (self.starts[j], self.starts[j + 1]);
            let teams = &self.teams[a..b];
            let e: f64 = teams.iter().map(|t| self.strength(gammas, t)).sum();
            for t in teams {
                let i = t[g];
                if i != ABSENT {
                    out[i as usize] += self.strength(gammas, t) / gammas[i as usize] / e;
                }
            }
        }
        out
    }
}

/// Replays one game on a board of side `size`: the `setup` stones,
/// then `moves` (`None` a pass) in order, calling `visit` with the
/// position before move `i` (the board, the mover's colour, the context
/// of the last moves) and the move's point when `keep(i)` and the move
/// is not a pass. What was wrong with the record (an illegal move, a
/// point off the board) stops the replay.
pub fn replay(
    size: usize,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    keep: impl Fn(usize) -> bool,
    mut visit: impl FnMut(&FastBoard, u8, &Context<'_>, u16),
) -> Result<(), String> {
    let mut board = FastBoard::new(size);
    for &(c, p) in setup {
        let k = on_board(&board, p)?;
        if !board.is_legal(k, cell(c)) {
            return Err(format!("setup stone at {p:?} is not on an empty point"));
        }
        board.play(k, cell(c));
        board.pass();
    }
    let (mut last, mut last2) = (None, None);
    let mut nearest = Vec::new();
    for (i, &(c, mv)) in moves.iter().enumerate() {
        let c = cell(c);
        let Some(p) = mv else {
            board.pass();
            (last2, last) = (last, None);
            continue;
        };
        let k = on_board(&board, p)?;
        if !board.is_legal(k, c) {
            return Err(format!("move {} at {p:?} is illegal", i + 1));
        }
        if keep(i) {
            nearest_stones(&board, &mut nearest);
            let ctx = Context {
                last,
                last2,
                nearest: &nearest,
            };
            visit(&board, c, &ctx, k);
        }
        board.play(k, c);
        (last2, last) = (last, Some(k));
    }
    Ok(())
}

/// Adds the competitions of one game ([`replay`]): the position before
/// each kept move is a competition among the mover's legal points. The
/// number added; nothing of a game with a wrong record.
pub fn add_game(
    data: &mut Competitions,
    size: usize,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    keep: impl Fn(usize) -> bool,
) -> Result<usize, String> {
    let mut added = Vec::new();
    let mut legal = Vec::new();
    replay(size, setup, moves, keep, |board, c, ctx, k| {
        legal_features(board, c, ctx, &mut legal);
        if let Some(w) = legal.iter().position(|&(q, _)| q == k) {
            let teams: Vec<Features> = legal.iter().map(|&(_, f)| f).collect();
            added.push((teams, w));
        }
    })?;
    let n = added.len();
    for (teams, w) in added {
        data.push(&teams, w);
    }
    Ok(n)
}

fn on_board(board: &FastBoard, p: Point) -> Result<u16, String> {
    let n = board.side() as i32;
    if (0..n).contains(&p.i) && (0..n).contains(&p.j) {
        Ok(board.index(p))
    } else {
        Err(format!("{p:?} is off a board of side {n}"))
    }
}

/// What a fit did: the mean log-likelihood of the moves before it and
/// after each round (every group updated once).
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub log_likelihood: Vec<f64>,
}

/// Fits the strengths of `data`'s features by `rounds` rounds of
/// minorization–maximization on `threads` threads (the competitions
/// split between them; the result does not depend on how many, up to
/// rounding), stopping early when a round gains less than `tolerance` in
/// mean log-likelihood.
pub fn fit(
    data: &Competitions,
    rounds: usize,
    tolerance: f64,
    threads: usize,
) -> (Predictor, FitReport) {
    let n = data.feature_count();
    let mut gammas = vec![1.0f64; n];
    let mut wins = vec![0.0f64; n];
    for &w in &data.winners {
        for &i in &data.teams[w] {
            if i != ABSENT {
                wins[i as usize] += 1.0;
            }
        }
    }
    let mut report = FitReport {
        log_likelihood: vec![data.log_likelihood(&gammas)],
    };
    let threads = threads.max(1);
    let chunk = data.len().div_ceil(threads).max(1);
    for _ in 0..rounds {
        for g in 0..GROUP_COUNT {
            let parts: Vec<Vec<f64>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let range = (t * chunk).min(data.len())..((t + 1) * chunk).min(data.len());
                        let gammas = &gammas;
                        s.spawn(move || data.denominators(gammas, g, range))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a fitting thread does not panic"))
                    .collect()
            });
            // The threads' parts summed in thread order: the same sums
            // on every run.
            let mut denom: Vec<f64> = vec![0.0; n];
            for part in &parts {
                for (d, p) in denom.iter_mut().zip(part) {
                    *d += p;
                }
            }
            for (i, &(group, _)) in data.features.iter().enumerate() {
                if group != g {
                    continue;
                }
                let prior = 2.0 / (gammas[i] + 1.0);
                gammas[i] = (wins[i] + 1.0) / (denom[i] + prior);
            }
        }
        let ll = data.log_likelihood(&gammas);
        let gain = ll - report.log_likelihood.last().copied().unwrap_or(f64::MIN);
        report.log_likelihood.push(ll);
        if gain < tolerance {
            break;
        }
    }
    let mut tables = vec![HashMap::new(); GROUP_COUNT];
    for (i, &(g, v)) in data.features.iter().enumerate() {
        tables[g].insert(v, gammas[i] as f32);
    }
    (Predictor::from_gammas(tables), report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator (splitmix64) for the synthetic competitions.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        crate::seeding::splitmix(*state)
    }

    fn synthetic(truth: &[[f64; 4]; 2], positions: usize, seed: u64) -> Competitions {
        let mut state = seed;
        let mut data = Competitions::new();
        for _ in 0..positions {
            let teams: Vec<Features> = (0..10)
                .map(|_| {
                    let mut f = [NONE; GROUP_COUNT];
                    f[1] = (next(&mut state) % 4) as u32;
                    f[3] = (next(&mut state) % 4) as u32;
                    f
                })
                .collect();
            let s: Vec<f64> = teams
                .iter()
                .map(|t| truth[0][t[1] as usize] * truth[1][t[3] as usize])
                .collect();
            let total: f64 = s.iter().sum();
            let mut x = (next(&mut state) >> 11) as f64 / (1u64 << 53) as f64 * total;
            let mut winner = 0;
            for (k, v) in s.iter().enumerate() {
                if x < *v {
                    winner = k;
                    break;
                }
                x -= v;
            }
            data.push(&teams, winner);
        }
        data
    }

    #[test]
    fn mm_recovers_known_strengths_and_never_lowers_the_likelihood() {
        let truth = [[1.0, 4.0, 0.5, 2.0], [1.0, 0.25, 3.0, 1.0]];
        let data = synthetic(&truth, 6000, 7);
        let (p, report) = fit(&data, 60, 1e-9, 2);
        for w in report.log_likelihood.windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "{:?}", report.log_likelihood);
        }
        // Strengths are known up to a factor per group: compare ratios
        // to the first value.
        for (g, group) in [(0usize, 1usize), (1, 3)] {
            let base = p.gamma(group, 0) as f64;
            for v in 1..4 {
                let got = p.gamma(group, v as u32) as f64 / base;
                let want = truth[g][v] / truth[g][0];
                assert!(
                    (got / want).ln().abs() < 0.15,
                    "group {group} value {v}: {got} against {want}"
                );
            }
        }
    }

    #[test]
    fn the_fit_does_not_depend_on_the_threads() {
        let truth = [[1.0, 4.0, 0.5, 2.0], [1.0, 0.25, 3.0, 1.0]];
        let data = synthetic(&truth, 500, 3);
        let (one, _) = fit(&data, 5, 0.0, 1);
        let (three, _) = fit(&data, 5, 0.0, 3);
        for g in [1, 3] {
            for v in 0..4 {
                let (a, b) = (one.gamma(g, v), three.gamma(g, v));
                assert!((a / b - 1.0).abs() < 1e-4, "{a} {b}");
            }
        }
    }
}
