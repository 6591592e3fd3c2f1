//! The sequential probability ratio test: stop a match as soon as the games so far decide
//! between "the first engine is `elo0` stronger" (H0) and "it is `elo1` stronger" (H1).
//!
//! The log-likelihood ratio uses the normal approximation of the mean game score (the same
//! per-game variance as [`crate::arena::elo`]): with `s0`, `s1` the expected scores of `elo0` and
//! `elo1`, mean score `x̄`, per-game variance `σ²` over `N` games,
//! `LLR = (s1 − s0)(2x̄ − s0 − s1) / (2σ²/N)`. The test accepts H1 once
//! `LLR ≥ ln((1 − β)/α)`, H0 once `LLR ≤ ln(β/(1 − α))`, and continues in between.
//!
//! Key invariant: with no spread in the results yet (no games, or all alike) the LLR is 0 and the
//! test continues: a verdict needs evidence of the variance.

use serde::{Deserialize, Serialize};

use crate::arena::elo::{Wdl, score_of_elo};

/// What the test says so far.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum SprtVerdict {
    /// Not decided: play on.
    Continue,
    /// H0 holds: the difference is about `elo0` (the change did not help).
    AcceptH0,
    /// H1 holds: the difference is about `elo1` (the change helped).
    AcceptH1,
}

/// An SPRT with its hypotheses (Elo of the first engine over the second) and error rates.
#[derive(Copy, Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates 5% and 5%.
    #[must_use]
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The lower and upper LLR bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 given the first engine's results `wdl`.
    #[must_use]
    pub fn llr(&self, wdl: Wdl) -> f64 {
        let n = wdl.games();
        if n == 0 {
            return 0.0;
        }
        let games = n as f64;
        let x = wdl.points() / games;
        let variance = (wdl.wins as f64 * (1.0 - x).powi(2)
            + wdl.draws as f64 * (0.5 - x).powi(2)
            + wdl.losses as f64 * x.powi(2))
            / games;
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * variance / games)
    }

    /// The verdict on `wdl`.
    #[must_use]
    pub fn verdict(&self, wdl: Wdl) -> SprtVerdict {
        let llr = self.llr(wdl);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn bounds_by_hand() {
        // ln(0.05/0.95) = -2.9444, ln(0.95/0.05) = ln 19 = 2.9444
        let (lower, upper) = Sprt::new(0.0, 10.0).bounds();
        assert!(close(lower, -2.9444, 1e-4));
        assert!(close(upper, 2.9444, 1e-4));
    }

    #[test]
    fn llr_by_hand() {
        // H0 0, H1 +100: s0 = 0.5, s1 = 1/(1+10^-0.25) = 0.640065.
        // W30 D20 L10: x = 2/3, σ² = 0.1388889 -> LLR = 0.140065·0.193268/(2·0.1388889/60) = 5.847
        let sprt = Sprt::new(0.0, 100.0);
        assert!(close(sprt.llr(Wdl::new(30, 20, 10)), 5.847, 0.001));
        assert_eq!(sprt.verdict(Wdl::new(30, 20, 10)), SprtVerdict::AcceptH1);
        // W10 D20 L10: x = 0.5, σ² = 0.125 -> LLR = 0.140065·(-0.140065)/(2·0.125/40) = -3.139
        assert!(close(sprt.llr(Wdl::new(10, 20, 10)), -3.139, 0.001));
        assert_eq!(sprt.verdict(Wdl::new(10, 20, 10)), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(Wdl::new(3, 2, 2)), SprtVerdict::Continue);
    }

    #[test]
    fn no_spread_means_no_verdict() {
        let sprt = Sprt::new(0.0, 50.0);
        assert_eq!(sprt.llr(Wdl::default()), 0.0);
        assert_eq!(sprt.verdict(Wdl::new(5, 0, 0)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(Wdl::new(0, 9, 0)), SprtVerdict::Continue);
    }
}
