//! Squares of the 5x5 board and their names.
//!
//! Key invariant (the mapping every table in this crate uses): square index
//! `= 5 * (rank - 1) + file`, with file a..e = 0..4 and rank 1..5, so a1 = 0, e1 = 4, a2 = 5,
//! c3 = 12, e5 = 24. Red starts on rank 1 and moves toward rank 5; red's right is toward file e.
//!
//! ```text
//!   5 | 20 21 22 23 24
//!   4 | 15 16 17 18 19
//!   3 | 10 11 12 13 14
//!   2 |  5  6  7  8  9
//!   1 |  0  1  2  3  4
//!       a  b  c  d  e
//! ```

use std::fmt;

/// One of the 25 squares, `a1 = 0 ..= e5 = 24` (see the module docs for the mapping).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 25;
    /// Red's temple: red master's start square, the square blue's master aims for.
    pub const C1: Square = Square(2);
    /// The centre.
    pub const C3: Square = Square(12);
    /// Blue's temple: blue master's start square, the square red's master aims for.
    pub const C5: Square = Square(22);

    /// The square with this index, if `index < 25`.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a .. 4 = e) and `rank` (0 = rank 1 .. 4 = rank 5), if on the board.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 5 && rank >= 0 && rank < 5 {
            Some(Square((rank * 5 + file) as u8))
        } else {
            None
        }
    }

    /// The index `0..25`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 4 (e).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    /// The rank, 0 (rank 1) to 4 (rank 5).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 5
    }

    /// The same square seen from the other player: rotated 180 degrees (`24 - index`).
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(24 - self.0)
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// Parses `a1`..`e5` (any case).
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = i32::from(bytes[0].to_ascii_lowercase()) - i32::from(b'a');
        let rank = i32::from(bytes[1]) - i32::from(b'1');
        Square::from_coords(file, rank)
    }
}

impl fmt::Display for Square {
    /// `a1` .. `e5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.file()),
            char::from(b'1' + self.rank())
        )
    }
}

#[cfg(test)]
mod tests;
