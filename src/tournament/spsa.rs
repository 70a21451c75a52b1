//! Simultaneous perturbation stochastic approximation (SPSA, Spall 1992):
//! the noisy optimiser `katachi tune` improves a personality's factors
//! with. No well-kept Rust crate offers it; it is a few lines.
//!
//! Each iteration perturbs every parameter at once by ±`c_k` (a random
//! sign each), measures the objective at both points — for a personality,
//! games between the two — and steps every parameter along the one
//! measured difference: two measurements an iteration, whatever the
//! number of parameters. The gains follow Spall's schedule, `a_k = a /
//! (k + 1 + A)^0.602` and `c_k = c / (k + 1)^0.101`. Everything is a
//! function of the seed.

/// One parameter: its value, the bounds it is kept in.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub value: f64,
    pub min: f64,
    pub max: f64,
}

/// The optimiser's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spsa {
    /// Step gain.
    pub a: f64,
    /// Perturbation size.
    pub c: f64,
    /// Stability constant (about a tenth of the iterations).
    pub big_a: f64,
    pub seed: u64,
}

/// What one iteration did.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub k: usize,
    /// The perturbation's signs.
    pub delta: Vec<f64>,
    /// The two points measured.
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// The measured difference (objective at `plus` less at `minus`).
    pub difference: f64,
    /// The parameters after the step.
    pub after: Vec<f64>,
}

impl Spsa {
    /// Runs `iterations` steps maximising the objective, whose noisy
    /// difference between two points `measure(plus, minus)` returns
    /// (for games, the score of `plus` against `minus`, less a half).
    /// `on_step` hears about every step.
    pub fn maximise(
        &self,
        params: &mut [Param],
        iterations: usize,
        mut measure: impl FnMut(usize, &[f64], &[f64]) -> Result<f64, String>,
        mut on_step: impl FnMut(&Step),
    ) -> Result<(), String> {
        let mut rng = crate::seeding::state(self.seed);
        for k in 0..iterations {
            let ak = self.a / (k as f64 + 1.0 + self.big_a).powf(0.602);
            let ck = self.c / (k as f64 + 1.0).powf(0.101);
            let delta: Vec<f64> = params
                .iter()
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    if rng & 1 == 0 {
                        1.0
                    } else {
                        -1.0
                    }
                })
                .collect();
            let clamp = |p: &Param, v: f64| v.clamp(p.min, p.max);
            let plus: Vec<f64> = params
                .iter()
                .zip(&delta)
                .map(|(p, d)| clamp(p, p.value + ck * d))
                .collect();
            let minus: Vec<f64> = params
                .iter()
                .zip(&delta)
                .map(|(p, d)| clamp(p, p.value - ck * d))
                .collect();
            let difference = measure(k, &plus, &minus)?;
            for (p, d) in params.iter_mut().zip(&delta) {
                // The gradient estimate is difference / (2 ck d); d is ±1.
                p.value = clamp(p, p.value + ak * difference / (2.0 * ck * d));
            }
            on_step(&Step {
                k,
                delta,
                plus,
                minus,
                difference,
                after: params.iter().map(|p| p.value).collect(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// On a concave quadratic measured with noise, as games measure a
        /// win rate, SPSA ends nearer the optimum than it started.
        #[test]
        fn spsa_climbs_a_noisy_hill(
            start in prop::collection::vec(-3.0f64..3.0, 1..4),
            seed in any::<u64>(),
        ) {
            let optimum: Vec<f64> = (0..start.len()).map(|k| k as f64 * 0.5 - 0.5).collect();
            let f = |x: &[f64]| -> f64 {
                -x.iter().zip(&optimum).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
            };
            let mut params: Vec<Param> = start
                .iter()
                .enumerate()
                .map(|(k, &v)| Param { name: format!("p{k}"), value: v, min: -4.0, max: 4.0 })
                .collect();
            let dist = |ps: &[Param]| -> f64 {
                ps.iter().zip(&optimum).map(|(p, o)| (p.value - o).powi(2)).sum::<f64>().sqrt()
            };
            let before = dist(&params);
            let mut noise = seed | 1;
            let spsa = Spsa { a: 0.5, c: 0.3, big_a: 5.0, seed };
            spsa.maximise(&mut params, 300, |_, plus, minus| {
                noise ^= noise << 13;
                noise ^= noise >> 7;
                noise ^= noise << 17;
                let e = (noise % 1000) as f64 / 1000.0 - 0.5;
                Ok(f(plus) - f(minus) + 0.1 * e)
            }, |_| {}).unwrap();
            let after = dist(&params);
            prop_assert!(after < 0.35 || after < before * 0.25, "{before} -> {after}");
        }
    }

    #[test]
    fn steps_are_a_function_of_the_seed_and_stay_in_bounds() {
        let run = |seed| {
            let mut p = vec![Param {
                name: "x".into(),
                value: 3.9,
                min: -4.0,
                max: 4.0,
            }];
            let mut steps = Vec::new();
            Spsa {
                a: 5.0,
                c: 0.5,
                big_a: 1.0,
                seed,
            }
            .maximise(
                &mut p,
                20,
                |_, a, b| Ok(a[0] - b[0]),
                |s| steps.push(s.clone()),
            )
            .unwrap();
            assert!(steps.iter().all(|s| s.after[0] <= 4.0 && s.plus[0] <= 4.0));
            steps
        };
        assert_eq!(run(7), run(7));
        assert_eq!(run(7).last().unwrap().after[0], 4.0, "climbs to its bound");
    }
}
