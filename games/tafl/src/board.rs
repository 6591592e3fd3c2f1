//! Squares, pieces and the mailbox board of up to 19x19, with OTN position records.
//!
//! Key invariant: square index `= (rank - 1) * dim + file` with `a1 = 0`; a [`Board`] holds
//! one [`Piece`] code per square in a fixed 361-byte array (squares past `dim * dim` stay
//! empty), so a board is `Copy` and needs no allocation whatever the variant.

use plies::NotationError;

/// The largest supported board side.
pub const MAX_DIM: usize = 19;
/// Squares in the largest board.
pub const MAX_SQUARES: usize = MAX_DIM * MAX_DIM;

/// What stands on a square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    /// Nothing.
    Empty = 0,
    /// An attacker taflman (`t`).
    Attacker = 1,
    /// A defender taflman (`T`).
    Defender = 2,
    /// The king (`K`), a defender.
    King = 3,
}

impl Piece {
    /// The piece of code `code` (0..=3).
    #[inline]
    #[must_use]
    pub fn from_code(code: u8) -> Piece {
        match code & 3 {
            1 => Piece::Attacker,
            2 => Piece::Defender,
            3 => Piece::King,
            _ => Piece::Empty,
        }
    }

    /// Whether this is a defender or the king.
    #[inline]
    #[must_use]
    pub fn is_defending(self) -> bool {
        matches!(self, Piece::Defender | Piece::King)
    }
}

/// The name of square `sq` on a `dim` board, e.g. `a1`, `k11`.
#[must_use]
pub fn square_name(sq: usize, dim: usize) -> String {
    format!("{}{}", (b'a' + (sq % dim) as u8) as char, sq / dim + 1)
}

/// Reads a square name (`a1`, `K11`) on a `dim` board.
#[must_use]
pub fn parse_square(text: &str, dim: usize) -> Option<usize> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let file = (file as u8 - b'a') as usize;
    let rest = chars.as_str();
    if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: usize = rest.parse().ok()?;
    (file < dim && (1..=dim).contains(&rank)).then(|| (rank - 1) * dim + file)
}

/// One piece code per square.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board(pub [u8; MAX_SQUARES]);

impl Default for Board {
    fn default() -> Board {
        Board([0; MAX_SQUARES])
    }
}

impl Board {
    /// The piece on `sq`.
    #[inline]
    #[must_use]
    pub fn get(&self, sq: usize) -> Piece {
        Piece::from_code(self.0[sq])
    }

    /// Reads an OTN position record for a `dim` board: `/row/.../row/`, rank 1 first unless
    /// `top_first` (`starti:`); digits are runs of empty squares.
    pub fn parse(text: &str, dim: usize, top_first: bool) -> Result<Board, NotationError> {
        let inner = text
            .strip_prefix('/')
            .and_then(|t| t.strip_suffix('/'))
            .ok_or_else(|| NotationError::new(text, "a position record is /row/.../row/"))?;
        let rows: Vec<&str> = inner.split('/').collect();
        if rows.len() != dim {
            return Err(NotationError::new(
                text,
                format!("expected {dim} rows, found {}", rows.len()),
            ));
        }
        let mut board = Board::default();
        let mut kings = 0;
        for (i, row) in rows.iter().enumerate() {
            let rank = if top_first { dim - 1 - i } else { i };
            let mut file = 0usize;
            let mut run = 0usize;
            let mut digits = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run.saturating_mul(10).saturating_add(d as usize);
                    digits = true;
                    continue;
                }
                if digits {
                    file = file.saturating_add(run);
                    run = 0;
                    digits = false;
                }
                let piece = match c {
                    't' => Piece::Attacker,
                    'T' => Piece::Defender,
                    'K' => Piece::King,
                    'c' | 'n' | 'm' | 'g' | 'k' | 'C' | 'N' | 'M' | 'G' => {
                        return Err(NotationError::new(
                            *row,
                            format!("piece '{c}' (berserk-type pieces) is not supported"),
                        ));
                    }
                    _ => {
                        return Err(NotationError::new(
                            *row,
                            format!("unknown piece letter '{c}'"),
                        ));
                    }
                };
                if file >= dim {
                    return Err(NotationError::new(
                        *row,
                        format!("row longer than {dim} squares"),
                    ));
                }
                if piece == Piece::King {
                    kings += 1;
                }
                board.0[rank * dim + file] = piece as u8;
                file += 1;
            }
            file = file.saturating_add(run);
            if file != dim {
                return Err(NotationError::new(
                    *row,
                    format!("row has {file} squares, expected {dim}"),
                ));
            }
        }
        if kings > 1 {
            return Err(NotationError::new(text, "more than one king"));
        }
        Ok(board)
    }

    /// Writes the OTN position record (rank 1 first), readable by [`Board::parse`].
    #[must_use]
    pub fn to_otn(&self, dim: usize) -> String {
        let mut s = String::from("/");
        for rank in 0..dim {
            let mut run = 0;
            for file in 0..dim {
                let c = match self.get(rank * dim + file) {
                    Piece::Empty => {
                        run += 1;
                        continue;
                    }
                    Piece::Attacker => 't',
                    Piece::Defender => 'T',
                    Piece::King => 'K',
                };
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(c);
            }
            if run > 0 {
                s += &run.to_string();
            }
            s.push('/');
        }
        s
    }
}
