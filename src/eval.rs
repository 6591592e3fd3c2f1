//! Scores and evaluators: how good a position is for the side to move.
//!
//! Key invariants:
//! - every [`Score`] is from the view of the side to move in the position it belongs to;
//! - heuristic scores lie in `-Score::MAX_EVAL..=Score::MAX_EVAL`, strictly between the decisive
//!   ones, so a heuristic value can never be mistaken for a win or a loss;
//! - a decisive score carries its distance in plies from the root of the search
//!   ([`Score::win_in`], [`Score::loss_in`]); the transposition table stores it relative to the
//!   node instead ([`Score::to_tt`], [`Score::from_tt`]) so it stays right at any depth;
//! - every value fits an `i16`, so packed table entries can hold a score.

use std::fmt;
use std::ops::Neg;

use crate::game::{Game, Outcome};

/// A position's value for the side to move: a heuristic value, a draw, or a win/loss in a number
/// of plies.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(i32);

impl Score {
    /// The deepest ply a decisive score can record; searches never go deeper.
    pub const MAX_PLY: u32 = 1000;
    /// The raw value of a win at this very node (zero plies away).
    const WIN_RAW: i32 = 32_000;
    /// Above every real score; used as the initial alpha-beta window.
    pub const INFINITY: Score = Score(Self::WIN_RAW + 1);
    /// The value of a drawn position.
    pub const DRAW: Score = Score(0);
    /// The largest heuristic value; evaluators are clamped to `±MAX_EVAL`.
    pub const MAX_EVAL: Score = Score(Self::WIN_RAW - Self::MAX_PLY as i32 - 1);

    /// A heuristic value, clamped to `±MAX_EVAL`.
    ///
    /// The scale is the evaluator's own: nothing in the library fixes what one unit is worth.
    /// The convention the bundled games follow, and the one printed scores and tuned weights
    /// read best with, is "centipawn-like": about 100 for one ordinary piece or an equally
    /// clear advantage, so that scores printed by `analyze` or `play` and hand-set weights
    /// read alike across games. Values past `±MAX_EVAL` (about 31,000) are clamped, so a sum
    /// of terms should stay well inside it.
    #[inline]
    #[must_use]
    pub const fn cp(value: i32) -> Score {
        let max = Self::MAX_EVAL.0;
        Score(if value > max {
            max
        } else if value < -max {
            -max
        } else {
            value
        })
    }

    /// A win for the side to move, `plies` plies from the search root.
    #[inline]
    #[must_use]
    pub const fn win_in(plies: u32) -> Score {
        debug_assert!(plies <= Self::MAX_PLY);
        Score(Self::WIN_RAW - plies as i32)
    }

    /// A loss for the side to move, `plies` plies from the search root.
    #[inline]
    #[must_use]
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Self::win_in(plies).0)
    }

    /// The terminal value of a finished position at `ply` plies from the root, for the side
    /// `to_move` whose view scores take there.
    #[inline]
    #[must_use]
    pub fn terminal(outcome: Outcome, to_move: crate::game::Side, ply: u32) -> Score {
        match outcome {
            Outcome::Draw => Score::DRAW,
            Outcome::Win(winner) if winner == to_move => Score::win_in(ply),
            Outcome::Win(_) => Score::loss_in(ply),
        }
    }

    /// The raw integer: heuristic values as they are, decisive values near `±32000`.
    #[inline]
    #[must_use]
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Rebuilds a score from [`Score::raw`] (e.g. out of a table entry).
    #[inline]
    #[must_use]
    pub const fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// Is this a win for the side to move?
    #[inline]
    #[must_use]
    pub const fn is_win(self) -> bool {
        self.0 > Self::MAX_EVAL.0 && self.0 <= Self::WIN_RAW
    }

    /// Is this a loss for the side to move?
    #[inline]
    #[must_use]
    pub const fn is_loss(self) -> bool {
        self.0 < -Self::MAX_EVAL.0 && self.0 >= -Self::WIN_RAW
    }

    /// A win or a loss.
    #[inline]
    #[must_use]
    pub const fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }

    /// For a decisive score, the plies from the root to the end of the game.
    #[inline]
    #[must_use]
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_win() {
            Some((Self::WIN_RAW - self.0) as u32)
        } else if self.is_loss() {
            Some((Self::WIN_RAW + self.0) as u32)
        } else {
            None
        }
    }

    /// The score to store in a transposition table at a node `ply` plies from the root:
    /// decisive scores become relative to that node.
    #[inline]
    #[must_use]
    pub const fn to_tt(self, ply: u32) -> Score {
        if self.is_win() {
            Score(self.0 + ply as i32)
        } else if self.is_loss() {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Score::to_tt`]: a stored score read back at a node `ply` plies from the root.
    #[inline]
    #[must_use]
    pub const fn from_tt(self, ply: u32) -> Score {
        if self.is_win() {
            Score(self.0 - ply as i32)
        } else if self.is_loss() {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `+35`, `-120`, `0`, `win in 5`, `loss in 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.is_win() => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None if self.0 > 0 => write!(f, "+{}", self.0),
            None => write!(f, "{}", self.0),
        }
    }
}

/// Engine knowledge about a game, separate from its rules: a heuristic value of a position that
/// is not over, from the view of the side to move. A game may have several evaluators.
///
/// Implementations return values within `±Score::MAX_EVAL` (use [`Score::cp`]); searchers score
/// finished positions themselves from [`Game::outcome`], so `evaluate` is never asked about one.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The heuristic value of `state` for its side to move.
    fn evaluate(&self, state: &G) -> Score;
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    #[inline]
    fn evaluate(&self, state: &G) -> Score {
        (**self).evaluate(state)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    #[inline]
    fn evaluate(&self, state: &G) -> Score {
        (**self).evaluate(state)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for std::sync::Arc<E> {
    #[inline]
    fn evaluate(&self, state: &G) -> Score {
        (**self).evaluate(state)
    }
}

/// An evaluator whose weights a tuner can read and set, as a flat list of integers.
pub trait Tunable {
    /// One name per weight, in the order of [`Tunable::parameters`].
    fn parameter_names(&self) -> Vec<String>;
    /// The current weights.
    fn parameters(&self) -> Vec<i32>;
    /// Replaces every weight.
    ///
    /// # Errors
    /// [`ParameterError`] (changing nothing) if `values` has the wrong length or a value the
    /// evaluator cannot take.
    fn set_parameters(&mut self, values: &[i32]) -> Result<(), ParameterError>;
}

/// Why a [`Tunable`] evaluator refused a list of weights.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParameterError {
    /// Not one value per weight.
    WrongCount {
        /// How many weights the evaluator has.
        expected: usize,
        /// How many values it was given.
        got: usize,
    },
    /// A value beyond the largest weight allowed (`±max`).
    OutOfRange {
        /// The weight's name.
        name: String,
        /// The value given.
        value: i32,
        /// The largest weight allowed, either sign.
        max: i32,
    },
}

impl fmt::Display for ParameterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterError::WrongCount { expected, got } => {
                write!(f, "expected {expected} weights, got {got}")
            }
            ParameterError::OutOfRange { name, value, max } => {
                write!(f, "weight {name} = {value} is beyond ±{max}")
            }
        }
    }
}

impl std::error::Error for ParameterError {}

/// Declares a [`Tunable`] evaluator whose weights are its fields, each an `i32`, listed once:
/// the struct (with `Copy`, `Clone`, `Debug`, `PartialEq` and `Eq`), its weight names (the field
/// names, in declaration order, as the associated constant `WEIGHT_NAMES`), its `Default`
/// (the values after `=`) and its [`Tunable`] implementation (names, get and set in that
/// order; a list of the wrong length is refused with [`ParameterError::WrongCount`] and
/// changes nothing).
///
/// ```
/// plies::tunable_weights! {
///     /// Material and mobility.
///     pub struct Weights {
///         /// Per piece.
///         pub material: i32 = 100,
///         /// Per legal move.
///         pub mobility: i32 = 3,
///     }
/// }
/// use plies::Tunable;
/// let mut w = Weights::default();
/// assert_eq!(w.parameter_names(), ["material", "mobility"]);
/// assert_eq!(w.parameters(), [100, 3]);
/// w.set_parameters(&[7, 8]).unwrap();
/// assert_eq!((w.material, w.mobility), (7, 8));
/// assert!(w.set_parameters(&[1]).is_err());
/// assert_eq!(Weights::WEIGHT_NAMES, ["material", "mobility"]);
/// ```
#[macro_export]
macro_rules! tunable_weights {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field_vis:vis $field:ident : i32 = $default:expr
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        $vis struct $name {
            $(
                $(#[$field_meta])*
                $field_vis $field: i32,
            )+
        }

        impl $name {
            /// The names of the weights (the fields), in the order of
            /// [`Tunable::parameters`]($crate::Tunable::parameters).
            pub const WEIGHT_NAMES: &'static [&'static str] = &[$(stringify!($field)),+];
        }

        impl ::core::default::Default for $name {
            fn default() -> $name {
                $name {
                    $($field: $default,)+
                }
            }
        }

        impl $crate::Tunable for $name {
            fn parameter_names(&self) -> ::std::vec::Vec<::std::string::String> {
                $name::WEIGHT_NAMES
                    .iter()
                    .map(|name| ::std::string::ToString::to_string(name))
                    .collect()
            }

            fn parameters(&self) -> ::std::vec::Vec<i32> {
                ::std::vec![$(self.$field),+]
            }

            fn set_parameters(&mut self, values: &[i32]) -> ::core::result::Result<(), $crate::ParameterError> {
                if values.len() != $name::WEIGHT_NAMES.len() {
                    return ::core::result::Result::Err($crate::ParameterError::WrongCount {
                        expected: $name::WEIGHT_NAMES.len(),
                        got: values.len(),
                    });
                }
                let mut values = values.iter().copied();
                $(
                    self.$field = values.next().unwrap_or(self.$field);
                )+
                ::core::result::Result::Ok(())
            }
        }
    };
}

#[cfg(test)]
mod tests;
