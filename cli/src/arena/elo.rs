//! Elo difference and its 95% confidence interval from a match's wins, draws and losses.
//!
//! The formula (the logistic Elo model, normal approximation of the mean game score):
//! - score `s = (W + D/2) / N` from the first engine's view, each game scoring 1, ½ or 0;
//! - per-game variance `σ² = (W(1−s)² + D(½−s)² + L(0−s)²) / N` (the spread of the observed
//!   game scores, so draws narrow the interval as they should);
//! - standard error of the mean `se = σ / √N`, interval of the score `s ± 1.959964·se`;
//! - Elo of a score `x` is `−400·log₁₀(1/x − 1)`, applied to `s` and to both interval ends.
//!
//! Key invariant: no infinities ever come out. A score (or an interval end) of 0 or 1 or beyond
//! has no finite Elo; it is reported as `None`, printed "out of range" (e.g. a 100% score).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_964;

/// The Elo difference of a score share `x` (0 < x < 1), `None` outside that range.
#[must_use]
pub fn elo_of_score(x: f64) -> Option<f64> {
    // `+ 0.0` turns the -0.0 of an even score into 0.0 (printed "+0.0", not "-0.0").
    (x > 0.0 && x < 1.0).then(|| -400.0 * (1.0 / x - 1.0).log10() + 0.0)
}

/// The expected score share of a side that is `elo` points stronger.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of one engine (or one side of a pairing).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// A tally.
    #[must_use]
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same games from the opponent's view.
    #[must_use]
    pub const fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Adds another tally.
    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// The Elo estimate of these games.
    #[must_use]
    pub fn elo(&self) -> EloEstimate {
        EloEstimate::from_wdl(*self)
    }
}

/// An Elo difference with its 95% interval. `None` marks a value out of range (a score of 0% or
/// 100%, or an interval end beyond them).
#[derive(Copy, Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Games the estimate rests on.
    pub games: u64,
    /// The score share `s`, 0.0..=1.0 (0.5 without games).
    pub score: f64,
    /// The Elo difference of `s`.
    pub elo: Option<f64>,
    /// The Elo of the interval's lower end.
    pub lower: Option<f64>,
    /// The Elo of the interval's upper end.
    pub upper: Option<f64>,
}

impl EloEstimate {
    /// The estimate from a tally (see the module docs for the formula). Without games: score ½,
    /// Elo 0 and an interval out of range on both ends.
    #[must_use]
    pub fn from_wdl(wdl: Wdl) -> EloEstimate {
        let n = wdl.games();
        if n == 0 {
            return EloEstimate {
                games: 0,
                score: 0.5,
                elo: Some(0.0),
                lower: None,
                upper: None,
            };
        }
        let games = n as f64;
        let s = wdl.points() / games;
        let variance = (wdl.wins as f64 * (1.0 - s).powi(2)
            + wdl.draws as f64 * (0.5 - s).powi(2)
            + wdl.losses as f64 * s.powi(2))
            / games;
        let margin = Z_95 * (variance / games).sqrt();
        EloEstimate {
            games: n,
            score: s,
            elo: elo_of_score(s),
            lower: elo_of_score(s - margin),
            upper: elo_of_score(s + margin),
        }
    }

    /// Half the interval's width in Elo, when both ends are in range.
    #[must_use]
    pub fn margin(&self) -> Option<f64> {
        Some((self.upper? - self.lower?) / 2.0)
    }
}

fn signed(value: Option<f64>) -> String {
    value.map_or_else(|| "out of range".to_string(), |v| format!("{v:+.1}"))
}

impl fmt::Display for EloEstimate {
    /// E.g. `+120.4 [+50.6, +201.2]`, or `out of range (score 100.0%)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.elo {
            None => write!(f, "out of range (score {:.1}%)", 100.0 * self.score),
            Some(_) if self.games == 0 => write!(f, "no games"),
            Some(elo) => write!(
                f,
                "{elo:+.1} [{}, {}]",
                signed(self.lower),
                signed(self.upper)
            ),
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
    fn elo_of_known_scores() {
        // 75%: -400·log10(1/3) = 400·0.4771213 = 190.85
        assert!(close(elo_of_score(0.75).unwrap(), 190.85, 0.01));
        assert!(close(elo_of_score(0.5).unwrap(), 0.0, 1e-12));
        assert!(elo_of_score(0.5).unwrap().is_sign_positive());
        assert!(Wdl::new(3, 0, 3).elo().to_string().starts_with("+0.0 ["));
        // 2/3: 400·log10(2) = 120.41
        assert!(close(elo_of_score(2.0 / 3.0).unwrap(), 120.41, 0.01));
        assert!(close(elo_of_score(0.25).unwrap(), -190.85, 0.01));
        assert_eq!(elo_of_score(1.0), None);
        assert_eq!(elo_of_score(0.0), None);
        assert_eq!(elo_of_score(-0.1), None);
        assert!(close(score_of_elo(190.85), 0.75, 1e-4));
    }

    #[test]
    fn interval_by_hand() {
        // W30 D20 L10: s = 40/60 = 0.666667; σ² = (30·(1/3)² + 20·(1/6)² + 10·(2/3)²)/60
        // = 8.33333/60 = 0.1388889; se = √(0.1388889/60) = 0.0481125; margin = 0.0942990;
        // ends 0.5723677 and 0.7609657 -> Elo +50.64 and +201.16; centre +120.41.
        let e = Wdl::new(30, 20, 10).elo();
        assert_eq!(e.games, 60);
        assert!(close(e.score, 0.666_667, 1e-6));
        assert!(close(e.elo.unwrap(), 120.41, 0.01));
        assert!(close(e.lower.unwrap(), 50.64, 0.02), "{e:?}");
        assert!(close(e.upper.unwrap(), 201.16, 0.02), "{e:?}");
        assert_eq!(e.to_string(), "+120.4 [+50.6, +201.2]");
        // Seen from the other side, everything is mirrored.
        let f = Wdl::new(10, 20, 30).elo();
        assert!(close(f.elo.unwrap(), -120.41, 0.01));
        assert!(close(f.lower.unwrap(), -201.16, 0.02));
    }

    #[test]
    fn draws_narrow_the_interval() {
        let decisive = Wdl::new(60, 0, 40).elo();
        let drawish = Wdl::new(30, 60, 10).elo();
        assert!(close(decisive.score, drawish.score, 1e-12));
        assert!(drawish.margin().unwrap() < decisive.margin().unwrap());
    }

    #[test]
    fn extreme_scores_are_out_of_range_not_infinite() {
        let all = Wdl::new(10, 0, 0).elo();
        assert_eq!(all.elo, None);
        assert_eq!(all.to_string(), "out of range (score 100.0%)");
        let none = Wdl::new(0, 0, 7).elo();
        assert_eq!(none.elo, None);
        assert_eq!(none.to_string(), "out of range (score 0.0%)");
        // W3 L1: s = 0.75, σ² = 0.1875, se = 0.2165, upper end 1.17 > 1: out of range;
        // lower end 0.3257 -> -126.4.
        let few = Wdl::new(3, 0, 1).elo();
        assert_eq!(few.upper, None);
        assert!(close(few.lower.unwrap(), -126.4, 0.1), "{few:?}");
        assert_eq!(few.to_string(), "+190.8 [-126.4, out of range]");
        assert_eq!(Wdl::default().elo().to_string(), "no games");
    }
}
