//! SPSA (simultaneous perturbation stochastic approximation) driven by game results: the
//! arithmetic of one iteration, apart from any game or file.
//!
//! Iteration `k` (from 0) perturbs every weight at once by `±c_k` (the signs `Δ` drawn from the
//! run's seed and `k`), plays the weights `θ + c_k Δ` ("plus") against `θ − c_k Δ` ("minus")
//! and moves each weight by `a_k / c_k × (plus points − minus points) × Δ_i`.
//!
//! The gains follow Spall's schedule, set from the values wanted at the last iteration `N`
//! (the convention of chess engine testing frameworks): `c_k = c_end · (N / (k + 1))^γ` and
//! `a_k = r_end · c_end² · ((A + N) / (A + k + 1))^α`, with `A = N / 10`, `α = 0.602` and
//! `γ = 0.101`; `c_end` is the perturbation of each weight at the end and `r_end` the learning
//! rate there, so late in the run one game won by plus moves a weight by about
//! `2 · r_end · c_end` (the step is `a_k / c_k` per point of difference).
//!
//! Key invariant: everything here is a pure function of the run's settings, the iteration and
//! the game results, so a sharded run and an unsharded one compute the same weights.

use plies::rng::SplitMix64;
use serde::{Deserialize, Serialize};

/// Spall's exponent of the learning rate's decay.
pub(crate) const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's decay.
pub(crate) const GAMMA: f64 = 0.101;

/// The gains of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Gains {
    /// Iterations of the whole run (`N`).
    pub iterations: u32,
    /// Each weight's perturbation at the last iteration.
    pub c_end: Vec<f64>,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

impl Gains {
    /// The default perturbation of a weight starting at `value`: a tenth of it, at least 2, so
    /// that the two sides of a game differ enough for results to carry a signal.
    pub(crate) fn default_c_end(value: i32) -> f64 {
        (f64::from(value).abs() / 10.0).max(2.0)
    }

    /// `A`, the stability constant: a tenth of the run.
    fn big_a(&self) -> f64 {
        f64::from(self.iterations) / 10.0
    }

    /// The perturbation of weight `i` at iteration `k`.
    pub(crate) fn c(&self, i: usize, k: u32) -> f64 {
        let n = f64::from(self.iterations.max(1));
        self.c_end[i] * (n / f64::from(k + 1)).powf(GAMMA)
    }

    /// The step size of weight `i` at iteration `k`.
    pub(crate) fn a(&self, i: usize, k: u32) -> f64 {
        let n = f64::from(self.iterations.max(1));
        let a = self.big_a();
        self.r_end
            * self.c_end[i]
            * self.c_end[i]
            * ((a + n) / (a + f64::from(k) + 1.0)).powf(ALPHA)
    }
}

/// The perturbation signs of iteration `k`: one `+1` or `-1` per weight, from `seed` and `k`.
pub(crate) fn signs(seed: u64, k: u32, weights: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(
        seed ^ 0x5350_5341_0000_0000 ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    (0..weights)
        .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
        .collect()
}

/// Weights as the evaluator takes them: each rounded to the nearest whole number, clamped to
/// `±MAX_WEIGHT`.
pub(crate) fn rounded(theta: &[f64]) -> Vec<i32> {
    theta
        .iter()
        .map(|&v| v.round().clamp(-MAX_WEIGHT, MAX_WEIGHT) as i32)
        .collect()
}

/// The largest weight the tuner will set ([`plies::weights::MAX_WEIGHT`]).
pub(crate) const MAX_WEIGHT: f64 = plies::weights::MAX_WEIGHT as f64;

/// The plus and minus weights of iteration `k`.
pub(crate) fn perturbed(gains: &Gains, seed: u64, k: u32, theta: &[f64]) -> [Vec<i32>; 2] {
    let delta = signs(seed, k, theta.len());
    let shifted = |sign: f64| -> Vec<f64> {
        theta
            .iter()
            .enumerate()
            .map(|(i, &v)| v + sign * gains.c(i, k) * delta[i])
            .collect()
    };
    [rounded(&shifted(1.0)), rounded(&shifted(-1.0))]
}

/// The weights after iteration `k`, whose games gave the plus side `difference` = points of
/// plus minus points of minus (each game: 1 for a win, 0.5 a draw).
pub(crate) fn updated(
    gains: &Gains,
    seed: u64,
    k: u32,
    theta: &[f64],
    difference: f64,
) -> Vec<f64> {
    let delta = signs(seed, k, theta.len());
    theta
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if gains.c_end[i] == 0.0 {
                return v; // fixed: never perturbed, never moved
            }
            let step = gains.a(i, k) / gains.c(i, k) * difference * delta[i];
            (v + step).clamp(-MAX_WEIGHT, MAX_WEIGHT)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gains(n: u32, weights: usize) -> Gains {
        Gains {
            iterations: n,
            c_end: vec![4.0; weights],
            r_end: 0.002,
        }
    }

    #[test]
    fn gains_reach_their_end_values() {
        let g = gains(100, 1);
        assert!((g.c(0, 99) - 4.0).abs() < 1e-9);
        assert!((g.a(0, 99) - 0.002 * 16.0).abs() < 1e-9);
        assert!(g.c(0, 0) > g.c(0, 50) && g.c(0, 50) > g.c(0, 99));
        assert!(g.a(0, 0) > g.a(0, 50) && g.a(0, 50) > g.a(0, 99));
        // c_0 = 4 * 100^0.101
        assert!((g.c(0, 0) - 4.0 * 100f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn fixed_weights_never_move() {
        let gains = Gains {
            iterations: 10,
            c_end: vec![0.0, 3.0],
            r_end: 0.01,
        };
        let theta = [50.0, 50.0];
        for k in 0..10 {
            let [plus, minus] = perturbed(&gains, 3, k, &theta);
            assert_eq!((plus[0], minus[0]), (50, 50));
            assert_ne!(plus[1], minus[1]);
            let next = updated(&gains, 3, k, &theta, 4.0);
            assert_eq!(next[0], 50.0);
            assert_ne!(next[1], 50.0);
        }
    }

    #[test]
    fn signs_are_seeded_and_balanced() {
        assert_eq!(signs(7, 3, 50), signs(7, 3, 50));
        assert_ne!(signs(7, 3, 50), signs(7, 4, 50));
        assert_ne!(signs(7, 3, 50), signs(8, 3, 50));
        let total: f64 = (0..200).flat_map(|k| signs(1, k, 10)).sum();
        assert!(total.abs() < 200.0, "2000 signs sum to {total}");
    }

    #[test]
    fn plus_and_minus_straddle_theta() {
        let g = gains(10, 3);
        let theta = [10.0, -5.0, 0.0];
        let [plus, minus] = perturbed(&g, 1, 0, &theta);
        let delta = signs(1, 0, 3);
        for i in 0..3 {
            let c = g.c(i, 0);
            assert_eq!(f64::from(plus[i]), (theta[i] + c * delta[i]).round());
            assert_eq!(f64::from(minus[i]), (theta[i] - c * delta[i]).round());
        }
    }

    /// On a noisy one-game "match" whose winning chance falls with the distance of the weights
    /// from a hidden optimum, SPSA walks the weights to the optimum.
    #[test]
    fn finds_the_optimum_of_a_noisy_match() {
        let optimum = [30.0, -20.0, 5.0, 60.0];
        let n = 3000;
        let g = Gains {
            iterations: n,
            c_end: vec![3.0; 4],
            r_end: 0.02,
        };
        let mut theta = vec![0.0; 4];
        let mut noise = SplitMix64::new(99);
        let strength = |w: &[i32]| -> f64 {
            -w.iter()
                .zip(optimum)
                .map(|(&v, o)| (f64::from(v) - o).powi(2))
                .sum::<f64>()
                / 400.0
        };
        for k in 0..n {
            let [plus, minus] = perturbed(&g, 5, k, &theta);
            // Probability that plus beats minus: logistic in their strength difference.
            let p = 1.0 / (1.0 + (strength(&minus) - strength(&plus)).exp());
            let mut difference = 0.0;
            for _ in 0..2 {
                difference += if noise.unit() < p { 1.0 } else { -1.0 };
            }
            theta = updated(&g, 5, k, &theta, difference);
        }
        for (t, o) in theta.iter().zip(optimum) {
            assert!((t - o).abs() < 6.0, "tuned {theta:?}, optimum {optimum:?}");
        }
    }
}
