//! Ratings from game results: the Bradley–Terry model fitted by maximum
//! likelihood, on the Elo scale, with error bars.
//!
//! Each player `i` has a strength `γᵢ = e^θᵢ`; `i` beats `j` with
//! probability `γᵢ / (γᵢ + γⱼ)`. A draw counts as half a win for each
//! side (as Ordo and BayesElo's default do). The fit is Hunter's MM
//! algorithm (Hunter 2004, "MM algorithms for generalized Bradley–Terry
//! models"): `γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)`, `Wᵢ` the score of `i`, `nᵢⱼ`
//! the games between `i` and `j`, which converges to the maximum of the
//! likelihood whenever one exists.
//!
//! One does not when a player won (or lost) every game: its strength runs
//! off to infinity. [`Fit::prior_games`] adds, for every player, that many
//! virtual drawn games against one virtual opponent, the same for all
//! (BayesElo's "prior" in spirit), which keeps every rating finite and
//! pulls ratings from few games together; 0 is the plain maximum
//! likelihood.
//!
//! Ratings are reported on the Elo scale (`400 / ln 10` per unit of `θ`),
//! relative to the field's mean (they sum to 0). Error bars come from the
//! observed Fisher information of `θ` at the fit: the standard error of a
//! player's rating relative to that mean is the square root of the
//! matching diagonal entry of the information's pseudo-inverse (the
//! information is singular along "add a constant to every θ", which the
//! zero-mean convention removes); a 95 % interval is ±1.96 of it.

/// Elo points per unit of log-strength.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The results between two players, from the first one's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Pairing {
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// The first player's score: wins plus half the draws.
    pub fn score(self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Virtual drawn games per player against one virtual opponent.
    pub prior_games: f64,
}

impl Default for Fit {
    fn default() -> Self {
        Fit { prior_games: 1.0 }
    }
}

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo points relative to the field's mean.
    pub elo: f64,
    /// The standard error of `elo`, in Elo points (`f64::INFINITY` for a
    /// player with no game and no prior).
    pub stderr: f64,
}

impl Rating {
    /// Half the width of the 95 % interval.
    pub fn margin95(self) -> f64 {
        1.96 * self.stderr
    }
}

/// The table of results between `n` players: `results[i][j]` is `i`'s
/// record against `j` (so `results[j][i]` is its mirror).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    n: usize,
    table: Vec<Pairing>,
}

impl Results {
    pub fn new(players: usize) -> Results {
        Results {
            n: players,
            table: vec![Pairing::default(); players * players],
        }
    }

    pub fn players(&self) -> usize {
        self.n
    }

    /// Records one game between `a` and `b`: `score` is `a`'s (1 a win,
    /// ½ a draw, 0 a loss).
    ///
    /// # Panics
    /// When `a == b` or either is out of range: a caller's bug.
    pub fn add(&mut self, a: usize, b: usize, outcome: Outcome) {
        assert!(a != b && a < self.n && b < self.n, "players {a} and {b}");
        let (ab, ba) = (a * self.n + b, b * self.n + a);
        match outcome {
            Outcome::Win => {
                self.table[ab].wins += 1;
                self.table[ba].losses += 1;
            }
            Outcome::Draw => {
                self.table[ab].draws += 1;
                self.table[ba].draws += 1;
            }
            Outcome::Loss => {
                self.table[ab].losses += 1;
                self.table[ba].wins += 1;
            }
        }
    }

    /// `a`'s record against `b`.
    pub fn pairing(&self, a: usize, b: usize) -> Pairing {
        self.table[a * self.n + b]
    }

    /// The ratings of every player.
    pub fn ratings(&self, fit: Fit) -> Vec<Rating> {
        let n = self.n;
        if n == 0 {
            return Vec::new();
        }
        let theta = self.solve(fit);
        let info = self.information(&theta, fit);
        let cov = centred_covariance(&info, n);
        let mean = theta.iter().sum::<f64>() / n as f64;
        (0..n)
            .map(|i| Rating {
                elo: ELO_PER_NAT * (theta[i] - mean),
                stderr: cov.as_ref().map_or(f64::INFINITY, |c| {
                    ELO_PER_NAT * c[i * n + i].max(0.0).sqrt()
                }),
            })
            .collect()
    }

    /// The maximum-likelihood log-strengths, the prior's virtual opponent
    /// at 0 (without a prior the scale is free, and the mean is kept 0).
    fn solve(&self, fit: Fit) -> Vec<f64> {
        let n = self.n;
        let games = |i: usize, j: usize| f64::from(self.pairing(i, j).games());
        let score: Vec<f64> = (0..n)
            .map(|i| {
                (0..n).map(|j| self.pairing(i, j).score()).sum::<f64>() + 0.5 * fit.prior_games
            })
            .collect();
        let mut gamma = vec![1.0f64; n];
        for _ in 0..100_000 {
            let mut next = vec![0.0; n];
            for i in 0..n {
                let denom: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| games(i, j) / (gamma[i] + gamma[j]))
                    .sum::<f64>()
                    + fit.prior_games / (gamma[i] + 1.0);
                next[i] = if denom > 0.0 {
                    score[i] / denom
                } else {
                    gamma[i]
                };
            }
            let mean = if fit.prior_games > 0.0 {
                0.0
            } else {
                next.iter()
                    .map(|g| g.max(f64::MIN_POSITIVE).ln())
                    .sum::<f64>()
                    / n as f64
            };
            let mut change = 0.0f64;
            for (g, x) in gamma.iter_mut().zip(&next) {
                let x = (x.max(f64::MIN_POSITIVE).ln() - mean).exp();
                change = change.max((x / *g).ln().abs());
                *g = x;
            }
            if change < 1e-13 {
                break;
            }
        }
        let mut theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
        // MM closes in slowly when the prior's pull on the scale is weak;
        // a few Newton steps finish the job, each kept only if it brings
        // the likelihood equations closer to solved (where the maximum
        // does not exist, the information is singular and none is taken).
        let mut residual = self.gradient(&theta, fit, &score);
        for _ in 0..50 {
            let size = residual.iter().fold(0.0f64, |m, g| m.max(g.abs()));
            if size < 1e-12 {
                break;
            }
            let info = self.information(&theta, fit);
            let inverse = if fit.prior_games > 0.0 {
                invert(&mut info.clone(), n)
            } else {
                centred_covariance(&info, n)
            };
            let Some(inverse) = inverse else { break };
            let next: Vec<f64> = (0..n)
                .map(|i| {
                    theta[i]
                        + (0..n)
                            .map(|j| inverse[i * n + j] * residual[j])
                            .sum::<f64>()
                })
                .collect();
            let next_residual = self.gradient(&next, fit, &score);
            let next_size = next_residual.iter().fold(0.0f64, |m, g| m.max(g.abs()));
            if next_size.is_nan() || next_size >= size {
                break;
            }
            theta = next;
            residual = next_residual;
        }
        theta
    }

    /// The likelihood equations' residuals at `theta`: each player's score
    /// (with the prior's half points) minus its expected score.
    fn gradient(&self, theta: &[f64], fit: Fit, score: &[f64]) -> Vec<f64> {
        let n = self.n;
        (0..n)
            .map(|i| {
                let p = |a: f64, b: f64| 1.0 / (1.0 + (b - a).exp());
                let expected: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| f64::from(self.pairing(i, j).games()) * p(theta[i], theta[j]))
                    .sum::<f64>()
                    + fit.prior_games * p(theta[i], 0.0);
                score[i] - expected
            })
            .collect()
    }

    /// The observed information of θ (a weighted graph Laplacian, plus the
    /// prior's games on the diagonal).
    fn information(&self, theta: &[f64], fit: Fit) -> Vec<f64> {
        let n = self.n;
        let mut info = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let w = f64::from(self.pairing(i, j).games()) * p * (1.0 - p);
                info[i * n + j] -= w;
                info[i * n + i] += w;
            }
            let p = 1.0 / (1.0 + (-theta[i]).exp());
            info[i * n + i] += fit.prior_games * p * (1.0 - p);
        }
        info
    }
}

/// A game's outcome for the first player named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The covariance of θ under the zero-mean convention: with `C = 11ᵀ/n`,
/// `(I + C)⁻¹ − C` is the pseudo-inverse of a matrix whose null space is
/// the constant vector, and the plain inverse's centred form otherwise.
/// `None` when the players do not form one connected field (some ratings
/// cannot be compared).
fn centred_covariance(info: &[f64], n: usize) -> Option<Vec<f64>> {
    let c = 1.0 / n as f64;
    let mut a: Vec<f64> = info.iter().map(|x| x + c).collect();
    let inv = invert(&mut a, n)?;
    // Centre: P·inv·P with P = I − C, so that the ratings' covariance is
    // that of values relative to their mean.
    let mut row_mean = vec![0.0; n];
    let mut col_mean = vec![0.0; n];
    let mut all = 0.0;
    for i in 0..n {
        for j in 0..n {
            let x = inv[i * n + j];
            row_mean[i] += x * c;
            col_mean[j] += x * c;
            all += x * c * c;
        }
    }
    Some(
        (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                inv[k] - row_mean[i] - col_mean[j] + all
            })
            .collect(),
    )
}

/// Gauss–Jordan inversion with partial pivoting; `None` when singular.
fn invert(a: &mut [f64], n: usize) -> Option<Vec<f64>> {
    let mut inv: Vec<f64> = (0..n * n)
        .map(|k| if k / n == k % n { 1.0 } else { 0.0 })
        .collect();
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&x, &y| a[x * n + col].abs().total_cmp(&a[y * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-12 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
            inv.swap(col * n + k, pivot * n + k);
        }
        let d = a[col * n + col];
        for k in 0..n {
            a[col * n + k] /= d;
            inv[col * n + k] /= d;
        }
        for r in 0..n {
            if r != col {
                let f = a[r * n + col];
                if f != 0.0 {
                    for k in 0..n {
                        a[r * n + k] -= f * a[col * n + k];
                        inv[r * n + k] -= f * inv[col * n + k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Fit = Fit { prior_games: 0.0 };

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn three_wins_in_four_is_400_log10_3_apart() {
        let mut r = Results::new(2);
        for o in [Outcome::Win, Outcome::Win, Outcome::Win, Outcome::Loss] {
            r.add(0, 1, o);
        }
        let [a, b] = r.ratings(PLAIN)[..] else {
            unreachable!()
        };
        // By hand: γa/γb = 3, so the gap is 400·log10 3 = 190.85 Elo,
        // split ±95.42 about the mean.
        assert!(
            close(a.elo - b.elo, 400.0 * 3f64.log10(), 1e-6),
            "{a:?} {b:?}"
        );
        assert!(close(a.elo, -b.elo, 1e-9));
        // Var(θa − θb) = 1 / (n p (1 − p)) = 1 / (4 · 0.75 · 0.25) = 4/3;
        // each rating is half the gap: SE = ½·√(4/3) nats = 100.30 Elo.
        let se = 0.5 * (4.0f64 / 3.0).sqrt() * ELO_PER_NAT;
        assert!(
            close(a.stderr, se, 1e-6) && close(b.stderr, se, 1e-6),
            "{a:?}"
        );
        assert!(close(a.margin95(), 1.96 * se, 1e-6));
    }

    #[test]
    fn draws_count_half_and_a_tie_is_zero() {
        let mut r = Results::new(2);
        r.add(0, 1, Outcome::Draw);
        r.add(1, 0, Outcome::Win);
        r.add(0, 1, Outcome::Win);
        assert_eq!(
            r.pairing(0, 1),
            Pairing {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            r.pairing(1, 0),
            Pairing {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        let ratings = r.ratings(PLAIN);
        assert!(close(ratings[0].elo, 0.0, 1e-9) && close(ratings[1].elo, 0.0, 1e-9));
    }

    #[test]
    fn a_chain_of_players_adds_up() {
        // A beats B 3:1 and B beats C 3:1, A never meets C: the model says
        // A is 2·190.85 above C, B in the middle.
        let mut r = Results::new(3);
        for _ in 0..30 {
            r.add(0, 1, Outcome::Win);
            r.add(1, 2, Outcome::Win);
        }
        for _ in 0..10 {
            r.add(0, 1, Outcome::Loss);
            r.add(1, 2, Outcome::Loss);
        }
        let x = r.ratings(PLAIN);
        let gap = 400.0 * 3f64.log10();
        assert!(close(x[0].elo - x[1].elo, gap, 1e-6), "{x:?}");
        assert!(close(x[1].elo - x[2].elo, gap, 1e-6), "{x:?}");
        assert!(close(x[1].elo, 0.0, 1e-6));
        // B is measured against both: its error bar is the narrowest.
        assert!(x[1].stderr < x[0].stderr && x[1].stderr < x[2].stderr);
    }

    #[test]
    fn a_perfect_score_stays_finite_with_the_prior() {
        let mut r = Results::new(2);
        for _ in 0..5 {
            r.add(0, 1, Outcome::Win);
        }
        let x = r.ratings(Fit::default());
        assert!(x[0].elo.is_finite() && x[0].elo > 0.0, "{x:?}");
        assert!(x[0].stderr.is_finite());
        // Without the prior the maximum does not exist: the fit runs off
        // and the field falls apart into two.
        let plain = r.ratings(PLAIN);
        assert!(plain[0].elo > x[0].elo);
    }

    #[test]
    fn players_with_no_common_games_have_no_error_bar() {
        let mut r = Results::new(4);
        r.add(0, 1, Outcome::Win);
        r.add(1, 0, Outcome::Win);
        r.add(2, 3, Outcome::Win);
        r.add(3, 2, Outcome::Win);
        // Two separate fields: ratings across them are not comparable.
        assert!(r.ratings(PLAIN).iter().all(|x| x.stderr.is_infinite()));
        // The prior links everyone to the mean.
        assert!(r
            .ratings(Fit::default())
            .iter()
            .all(|x| x.stderr.is_finite()));
    }

    proptest::proptest! {
        /// At the fit, each player's expected score (its games and the
        /// prior's) equals its actual score: the likelihood equations.
        #[test]
        fn the_fit_solves_the_likelihood_equations(
            cells in proptest::collection::vec((1u32..6, 0u32..3, 1u32..6), 6),
            prior in 0.0f64..3.0,
        ) {
            let n = 4;
            let mut r = Results::new(n);
            let mut k = 0;
            for a in 0..n {
                for b in a + 1..n {
                    let (w, d, l) = cells[k];
                    k += 1;
                    for _ in 0..w { r.add(a, b, Outcome::Win); }
                    for _ in 0..d { r.add(a, b, Outcome::Draw); }
                    for _ in 0..l { r.add(a, b, Outcome::Loss); }
                }
            }
            let fit = Fit { prior_games: prior };
            let x = r.ratings(fit);
            let mean: f64 = x.iter().map(|r| r.elo).sum::<f64>() / n as f64;
            proptest::prop_assert!(mean.abs() < 1e-6);
            // The fit's own log-strengths, the prior's opponent at 0.
            let theta = r.solve(fit);
            for i in 0..n {
                let p = |a: f64, b: f64| 1.0 / (1.0 + (b - a).exp());
                let mut expected = prior * p(theta[i], 0.0);
                let mut actual = 0.5 * prior;
                for j in (0..n).filter(|&j| j != i) {
                    let g = r.pairing(i, j);
                    expected += f64::from(g.games()) * p(theta[i], theta[j]);
                    actual += g.score();
                }
                proptest::prop_assert!((expected - actual).abs() < 1e-6, "{} {} {}", i, expected, actual);
                proptest::prop_assert!(x[i].stderr.is_finite() && x[i].stderr > 0.0);
            }
        }
    }
}
