//! Fitting strengths to choices: minorization–maximization for the
//! generalized Bradley–Terry model (Hunter 2004; Coulom 2007 for move
//! patterns). Game-neutral: the Go move predictor and the five-in-a-row
//! one both fit their features here.
//!
//! Each competition (a position) is among teams (its candidate points),
//! each team a set of features, at most one from each of `N` groups; a
//! team's strength is the product of its features' strengths, and the
//! team chosen (the move played) won. With the other groups held, the
//! likelihood's minorizer has a closed-form maximum for one group's
//! strengths:
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
use std::fmt;

/// No feature of a group in a team (as a feature value, and as a dense
/// index).
pub const NONE: u32 = u32::MAX;

/// Competitions: teams as dense feature indices, grouped by position.
#[derive(Clone, Debug)]
pub struct Competitions<const N: usize> {
    /// Per group, feature value → dense index into the strengths.
    index: Vec<HashMap<u32, u32>>,
    /// Per dense index: its group and value.
    features: Vec<(usize, u32)>,
    /// Every team's features as dense indices ([`NONE`] for none).
    teams: Vec<[u32; N]>,
    /// Where each competition's teams start in `teams` (and the end).
    starts: Vec<usize>,
    /// The winning team of each competition, as an index into `teams`.
    winners: Vec<usize>,
}

impl<const N: usize> Default for Competitions<N> {
    fn default() -> Competitions<N> {
        Competitions::new()
    }
}

impl<const N: usize> Competitions<N> {
    /// No competition yet.
    pub fn new() -> Competitions<N> {
        Competitions {
            index: vec![HashMap::new(); N],
            features: Vec::new(),
            teams: Vec::new(),
            starts: vec![0],
            winners: Vec::new(),
        }
    }

    /// Adds a competition: the teams of a position's legal points, and
    /// which of them won. Ignored when `winner` is out of range.
    pub fn push(&mut self, teams: &[[u32; N]], winner: usize) {
        if winner >= teams.len() {
            return;
        }
        let base = self.teams.len();
        for t in teams {
            let mut dense = [NONE; N];
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

    fn strength(&self, gammas: &[f64], t: &[u32; N]) -> f64 {
        t.iter()
            .filter(|&&i| i != NONE)
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
                if i != NONE {
                    out[i as usize] += self.strength(gammas, t) / gammas[i as usize] / e;
                }
            }
        }
        out
    }
}

/// What a fit did: the mean log-likelihood of the moves before it and
/// after each round (every group updated once).
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub log_likelihood: Vec<f64>,
}

/// Fits the strengths of `data`'s features (one table per group, feature
/// value → strength) by `rounds` rounds of
/// minorization–maximization on `threads` threads (the competitions
/// split between them; the result does not depend on how many, up to
/// rounding), stopping early when a round gains less than `tolerance` in
/// mean log-likelihood.
pub fn fit<const N: usize>(
    data: &Competitions<N>,
    rounds: usize,
    tolerance: f64,
    threads: usize,
) -> (Vec<HashMap<u32, f32>>, FitReport) {
    let n = data.feature_count();
    let mut gammas = vec![1.0f64; n];
    let mut wins = vec![0.0f64; n];
    for &w in &data.winners {
        for &i in &data.teams[w] {
            if i != NONE {
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
        for g in 0..N {
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
    let mut tables = vec![HashMap::new(); N];
    for (i, &(g, v)) in data.features.iter().enumerate() {
        tables[g].insert(v, gammas[i] as f32);
    }
    (tables, report)
}

/// A line of a table file that does not read (a strength table here, a
/// five-in-a-row leaf table in `five::leaf`): where, the line, and what
/// was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}\n  {}\n  {}^",
            self.line,
            self.column,
            self.message,
            self.text,
            " ".repeat(self.column.saturating_sub(1))
        )
    }
}

impl std::error::Error for TableError {}

/// Reads the strength table at `path` ([`parse_table`]); every bad line
/// reported as `FILE:LINE:COL: message`, the line and a caret, in one
/// message.
pub fn read_table(
    path: &std::path::Path,
    groups: &[&str],
    hex: &[bool],
) -> Result<Vec<HashMap<u32, f32>>, String> {
    read_located(path, |text| parse_table(text, groups, hex))
}

/// Reads the table file at `path` with `parse`; every bad line reported
/// as `FILE:LINE:COL: message`, the line and a caret, in one message.
pub fn read_located<T>(
    path: &std::path::Path,
    parse: impl FnOnce(&str) -> Result<T, Vec<TableError>>,
) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("{}:{e}", path.display()))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Reads a strength table: `#` comments and blank lines, and lines
/// `GROUP VALUE GAMMA`, one group of `groups` by name, its value a whole
/// number (in hexadecimal, `0x...`, for the groups `hex` marks), the
/// strength above zero. Every bad line is reported.
pub fn parse_table(
    text: &str,
    groups: &[&str],
    hex: &[bool],
) -> Result<Vec<HashMap<u32, f32>>, Vec<TableError>> {
    let mut gammas = vec![HashMap::new(); groups.len()];
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut col = line.len() - trimmed.len() + 1;
        let mut fields = Vec::new();
        let mut rest = trimmed;
        while !rest.is_empty() {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            fields.push((col, &rest[..end]));
            let after = rest[end..].trim_start();
            col += rest.len() - after.len();
            rest = after;
        }
        let err = |column: usize, message: String| TableError {
            line: i + 1,
            column,
            text: line.to_string(),
            message,
        };
        if fields.len() != 3 {
            errors.push(err(
                col.min(line.len() + 1),
                format!(
                    "expected three fields (group, value, strength), found {}",
                    fields.len()
                ),
            ));
            continue;
        }
        let Some(g) = groups.iter().position(|&n| n == fields[0].1) else {
            errors.push(err(
                fields[0].0,
                format!(
                    "unknown group `{}`: expected one of {}",
                    fields[0].1,
                    groups.join(", ")
                ),
            ));
            continue;
        };
        let in_hex = hex.get(g).copied().unwrap_or(false);
        let value = if in_hex {
            fields[1]
                .1
                .strip_prefix("0x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        } else {
            fields[1].1.parse::<u32>().ok()
        };
        let Some(value) = value.filter(|&v| v != NONE) else {
            errors.push(err(
                fields[1].0,
                if in_hex {
                    format!("expected a {} key in hexadecimal (`0x1a2b`)", groups[g])
                } else {
                    "expected a feature value (a whole number)".to_string()
                },
            ));
            continue;
        };
        match fields[2].1.parse::<f32>() {
            Ok(gamma) if gamma.is_finite() && gamma > 0.0 => {
                if gammas[g].insert(value, gamma).is_some() {
                    errors.push(err(
                        fields[0].0,
                        format!("`{} {}` given twice", fields[0].1, fields[1].1),
                    ));
                }
            }
            _ => errors.push(err(
                fields[2].0,
                "expected a strength above zero".to_string(),
            )),
        }
    }
    if errors.is_empty() {
        Ok(gammas)
    } else {
        Err(errors)
    }
}

/// A strength table as text, in the form [`parse_table`] reads: `header`
/// as `#` comments, then the groups in their order, values ascending,
/// so the same strengths give the same bytes.
pub fn write_table(
    gammas: &[HashMap<u32, f32>],
    groups: &[&str],
    hex: &[bool],
    header: &str,
) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    for (g, table) in gammas.iter().enumerate() {
        let mut keys: Vec<&u32> = table.keys().collect();
        keys.sort();
        for k in keys {
            let value = if hex.get(g).copied().unwrap_or(false) {
                format!("0x{k:05x}")
            } else {
                k.to_string()
            };
            out.push_str(&format!("{} {} {:.6e}\n", groups[g], value, table[k]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator (splitmix64) for the synthetic competitions.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        crate::seeding::splitmix(*state)
    }

    fn synthetic(truth: &[[f64; 4]; 2], positions: usize, seed: u64) -> Competitions<4> {
        let mut state = seed;
        let mut data = Competitions::new();
        for _ in 0..positions {
            let teams: Vec<[u32; 4]> = (0..10)
                .map(|_| {
                    let mut f = [NONE; 4];
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

    fn gamma(tables: &[HashMap<u32, f32>], g: usize, v: u32) -> f64 {
        tables[g].get(&v).copied().unwrap_or(1.0) as f64
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
            let base = gamma(&p, group, 0);
            for v in 1..4 {
                let got = gamma(&p, group, v as u32) / base;
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
                let (a, b) = (gamma(&one, g, v), gamma(&three, g, v));
                assert!((a / b - 1.0).abs() < 1e-4, "{a} {b}");
            }
        }
    }
}
