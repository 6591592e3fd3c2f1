//! Squares, pieces and the bitboard board of up to 19x19, with OTN position records.
//!
//! Key invariant: square index `= (rank - 1) * dim + file` with `a1 = 0`; a [`Board`] holds one
//! 32-bit row mask per rank for each side (bit `file`; rows and bits past `dim` stay zero),
//! the defenders' rows include the king, and `king` names his square. A board is `Copy`, about
//! 160 bytes, and needs no allocation whatever the variant.

use plies::NotationError;

/// The largest supported board side.
pub const MAX_DIM: usize = 19;
/// Squares in the largest board.
pub const MAX_SQUARES: usize = MAX_DIM * MAX_DIM;
/// "No square".
pub(crate) const NO_SQUARE: u16 = u16::MAX;

/// One bit per square: `rows[rank][file]`, rank 0 = rank 1.
pub type Rows = [u32; MAX_DIM];

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

/// The pieces of a position: per side one row mask per rank, and the king's square.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// `[attackers, defenders (king included)]`.
    pub(crate) rows: [Rows; 2],
    /// The king's square, [`NO_SQUARE`] when there is none.
    pub(crate) king: u16,
    /// Board side.
    pub(crate) dim: u8,
}

impl Board {
    /// An empty `dim` board.
    #[must_use]
    pub fn empty(dim: usize) -> Board {
        assert!(
            (1..=MAX_DIM).contains(&dim),
            "board side {dim} out of range"
        );
        Board {
            rows: [[0; MAX_DIM]; 2],
            king: NO_SQUARE,
            dim: dim as u8,
        }
    }

    /// The board side.
    #[inline]
    #[must_use]
    pub fn dim(&self) -> usize {
        usize::from(self.dim)
    }

    /// The piece on `sq`.
    #[inline]
    #[must_use]
    pub fn get(&self, sq: usize) -> Piece {
        let dim = self.dim();
        self.at(sq / dim, sq % dim, sq)
    }

    /// The piece on rank index `r`, file `f` (square `sq`).
    #[inline]
    pub(crate) fn at(&self, r: usize, f: usize, sq: usize) -> Piece {
        let bit = 1u32 << f;
        if self.rows[0][r] & bit != 0 {
            Piece::Attacker
        } else if self.rows[1][r] & bit != 0 {
            if sq == usize::from(self.king) {
                Piece::King
            } else {
                Piece::Defender
            }
        } else {
            Piece::Empty
        }
    }

    /// The king's square, if he is on the board.
    #[inline]
    #[must_use]
    pub fn king(&self) -> Option<usize> {
        (self.king != NO_SQUARE).then_some(usize::from(self.king))
    }

    /// The attackers' rows.
    #[inline]
    #[must_use]
    pub fn attackers(&self) -> &Rows {
        &self.rows[0]
    }

    /// The defenders' rows (king included).
    #[inline]
    #[must_use]
    pub fn defenders(&self) -> &Rows {
        &self.rows[1]
    }

    /// Puts `piece` (not `Empty`) on the empty square `sq` at rank index `r`, file `f`.
    #[inline]
    pub(crate) fn put(&mut self, r: usize, f: usize, sq: usize, piece: Piece) {
        let side = usize::from(piece != Piece::Attacker);
        self.rows[side][r] |= 1 << f;
        if piece == Piece::King {
            self.king = sq as u16;
        }
    }

    /// Empties square `sq` at rank index `r`, file `f` (the king's square too: he is then gone).
    #[inline]
    pub(crate) fn remove(&mut self, r: usize, f: usize, sq: usize) {
        self.rows[0][r] &= !(1 << f);
        self.rows[1][r] &= !(1 << f);
        if sq == usize::from(self.king) {
            self.king = NO_SQUARE;
        }
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
        if !(1..=MAX_DIM).contains(&dim) {
            return Err(NotationError::new(
                text,
                format!("board side {dim} out of range"),
            ));
        }
        let mut board = Board::empty(dim);
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
                board.put(rank, file, rank * dim + file, piece);
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

    /// Writes the OTN position record (rank 1 first), readable by [`Board::parse`]. `dim` must
    /// be the board's side.
    #[must_use]
    pub fn to_otn(&self, dim: usize) -> String {
        debug_assert_eq!(dim, self.dim());
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
