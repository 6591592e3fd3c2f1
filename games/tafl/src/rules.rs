//! The rules descriptor [`Rules`]: a variant's parameters (read from an OpenTafl rules string
//! by `rules_otn`) and the per-square tables derived from them (roles, neighbours, row masks
//! of special squares, per-piece stop/pass masks).
//!
//! Key invariants: the derived tables are rebuilt by `derive_tables` whenever parameters
//! change, so they always agree with the parameters; rules are interned
//! ([`intern`]): equal rules share one `&'static Rules`, so positions carry a plain reference.

use std::sync::Mutex;

use crate::board::{MAX_DIM, Piece, Rows};

/// A set of piece kinds, as a bit mask over [`Piece`] codes (bit `1 << piece as u8`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceSet(pub u8);

impl PieceSet {
    /// Every piece kind.
    pub const ALL: PieceSet = PieceSet(0b1110);
    /// No piece kind.
    pub const NONE: PieceSet = PieceSet(0);
    /// Attackers only.
    pub const ATTACKERS: PieceSet = PieceSet(1 << Piece::Attacker as u8);
    /// The king only.
    pub const KING: PieceSet = PieceSet(1 << Piece::King as u8);
    /// Defenders and the king.
    pub const DEFENDING: PieceSet = PieceSet(1 << Piece::Defender as u8 | 1 << Piece::King as u8);

    /// Whether `piece` is in the set.
    #[inline]
    #[must_use]
    pub fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece as u8) != 0
    }
}

/// What a threefold repetition does (`tfr`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Repetition {
    /// `d`: the game is drawn.
    Draw,
    /// `w`: the side that makes the move producing the third occurrence loses (as OpenTafl
    /// plays it, see docs/rules/tafl.md).
    MoverLoses,
    /// `l`: the side that makes the move producing the third occurrence wins.
    MoverWins,
    /// `i`: repetitions are ignored.
    Ignore,
    /// The official Copenhagen rule (extension key `tfrd:y`, not OTN): a threefold repetition
    /// loses for the defenders, whoever completes it.
    DefendersLose,
}

/// Whether the king takes part in captures (`ka`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum KingArmed {
    /// `y`: as hammer (moving) and anvil.
    Yes,
    /// `n`: never.
    No,
    /// `a`: only as the anvil.
    Anvil,
    /// `h`: only as the hammer.
    Hammer,
}

impl KingArmed {
    /// Whether the moving king captures.
    #[must_use]
    pub fn hammer(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::Hammer)
    }
    /// Whether the king helps capture as the standing piece.
    #[must_use]
    pub fn anvil(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::Anvil)
    }
}

/// How the king is captured (`ks`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum KingStrength {
    /// `s` (or `y`): surrounded on all four sides (hostile squares count).
    Strong,
    /// `c`: strong on or next to the throne, weak elsewhere.
    Throne,
    /// `m`: middleweight: every neighbouring square on the board must be an attacker or
    /// hostile, so unlike a strong king he can be captured against the board edge (OpenTafl:
    /// "captured against the edge, provided all adjacent spaces are hostile or enemies").
    Middleweight,
    /// `w` (or `n`): captured between two like any piece.
    Weak,
}

/// Shieldwall captures (`sw`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Shieldwall {
    /// `n`: none.
    None,
    /// `w`: weak, corners cannot close a wall.
    Weak,
    /// `s`: strong, a corner may close a wall.
    Strong,
}

/// Square roles, per square of the board.
pub(crate) const CORNER: u8 = 1;
/// The throne (centre) role bit.
pub(crate) const THRONE: u8 = 2;
/// The attacker fortress role bit.
pub(crate) const AFORT: u8 = 4;
/// The defender fortress role bit.
pub(crate) const DFORT: u8 = 8;

/// A tafl variant's rules (everything but the start position).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Variant name (`name`, `_` standing for spaces in OTN).
    pub name: String,
    /// Board side, 7..=19.
    pub dim: usize,
    /// `esc:e`: the king escapes on any edge square (else on a corner).
    pub edge_escape: bool,
    /// `surf`: attackers win by encircling every defender.
    pub surround_fatal: bool,
    /// `atkf`: attackers move first.
    pub attackers_first: bool,
    /// `tfr`.
    pub repetition: Repetition,
    /// `ka`.
    pub king_armed: KingArmed,
    /// `ks`.
    pub king_strength: KingStrength,
    /// `cor`: corner squares.
    pub corners: Vec<u16>,
    /// `cen`: throne squares.
    pub thrones: Vec<u16>,
    /// `corh`.
    pub corner_hostile: PieceSet,
    /// `cenh`: throne hostile to these (occupied or not).
    pub throne_hostile: PieceSet,
    /// `cenhe`: throne hostile to these when empty.
    pub throne_hostile_empty: PieceSet,
    /// `corp`.
    pub corner_pass: PieceSet,
    /// `cenp`.
    pub throne_pass: PieceSet,
    /// `cors`.
    pub corner_stop: PieceSet,
    /// `cens`.
    pub throne_stop: PieceSet,
    /// `afor`: attacker fortress squares.
    pub attacker_forts: Vec<u16>,
    /// `dfor`: defender fortress squares.
    pub defender_forts: Vec<u16>,
    /// `aforh`: attacker fortresses (when empty) hostile to these.
    pub afort_hostile: PieceSet,
    /// `dforh`.
    pub dfort_hostile: PieceSet,
    /// `aforp`.
    pub afort_pass: PieceSet,
    /// `dforp`.
    pub dfort_pass: PieceSet,
    /// `afors`.
    pub afort_stop: PieceSet,
    /// `dfors`.
    pub dfort_stop: PieceSet,
    /// `spd`: the most squares an attacker / a defender (king included) may move; `None`
    /// is unlimited.
    pub speed: [Option<u8>; 2],
    /// `sw`.
    pub shieldwall: Shieldwall,
    /// `swf`: a shieldwall is captured only by the flanking move on the edge.
    pub shieldwall_flank: bool,
    /// `efe`: an edge fort wins for the defenders.
    pub edge_fort: bool,
    /// `linc`: Linnaean capture against the occupied throne.
    pub linnaean: bool,
    /// Per square: [`CORNER`] / [`THRONE`] bits.
    pub(crate) roles: Vec<u8>,
    /// Per square: on the board edge.
    pub(crate) edge: Vec<bool>,
    /// Per square: the neighbour in each direction (+file, -file, +rank, -rank), or `NONE`.
    pub(crate) neighbours: Vec<[u16; 4]>,
    /// Per square: (rank index, file).
    pub(crate) coords: Vec<(u8, u8)>,
    /// The bits of a row that lie on the board.
    pub(crate) row_mask: u32,
    /// Corner squares as rows.
    pub(crate) corner_rows: Rows,
    /// Throne squares as rows.
    pub(crate) throne_rows: Rows,
    /// Fortress squares (either side's) as rows.
    pub(crate) fort_rows: Rows,
    /// Squares that are neither corner nor throne (anyone may stop there), as rows.
    pub(crate) plain_rows: Rows,
    /// Per piece code: the special squares it may not stop on.
    pub(crate) no_stop: [Rows; 4],
    /// Per piece code: the special squares it may not pass through.
    pub(crate) no_pass: [Rows; 4],
    /// The edge squares as rows.
    pub(crate) edge_rows: Rows,
    /// Per square: the Manhattan distance to the nearest escape square (a corner, or with
    /// `esc:e` the edge); `2 * dim` when there is none.
    pub(crate) escape_distance: Vec<u8>,
}

/// "No square" in [`Rules`] neighbour tables.
pub(crate) const NONE: u16 = u16::MAX;

impl Rules {
    /// Default rules for a `dim` board (OpenTafl's defaults: corner escape, strong armed
    /// king, throne in the centre, corners at the four corners).
    pub(crate) fn defaults(dim: usize) -> Rules {
        let last = dim - 1;
        let mut rules = Rules {
            name: String::new(),
            dim,
            edge_escape: false,
            surround_fatal: true,
            attackers_first: true,
            repetition: Repetition::Draw,
            king_armed: KingArmed::Yes,
            king_strength: KingStrength::Strong,
            corners: vec![
                0,
                last as u16,
                (last * dim) as u16,
                (last * dim + last) as u16,
            ],
            thrones: vec![((dim / 2) * dim + dim / 2) as u16],
            corner_hostile: PieceSet::ALL,
            throne_hostile: PieceSet::ATTACKERS,
            throne_hostile_empty: PieceSet::ALL,
            corner_pass: PieceSet::KING,
            throne_pass: PieceSet::ALL,
            corner_stop: PieceSet::KING,
            throne_stop: PieceSet::KING,
            attacker_forts: Vec::new(),
            defender_forts: Vec::new(),
            afort_hostile: PieceSet::DEFENDING,
            dfort_hostile: PieceSet::ATTACKERS,
            afort_pass: PieceSet::ALL,
            dfort_pass: PieceSet::ALL,
            afort_stop: PieceSet::ALL,
            dfort_stop: PieceSet::DEFENDING,
            speed: [None, None],
            shieldwall: Shieldwall::None,
            shieldwall_flank: true,
            edge_fort: false,
            linnaean: false,
            roles: Vec::new(),
            edge: Vec::new(),
            neighbours: Vec::new(),
            coords: Vec::new(),
            row_mask: 0,
            corner_rows: [0; MAX_DIM],
            throne_rows: [0; MAX_DIM],
            fort_rows: [0; MAX_DIM],
            plain_rows: [0; MAX_DIM],
            no_stop: [[0; MAX_DIM]; 4],
            no_pass: [[0; MAX_DIM]; 4],
            edge_rows: [0; MAX_DIM],
            escape_distance: Vec::new(),
        };
        rules.derive_tables();
        rules
    }

    pub(crate) fn derive_tables(&mut self) {
        let dim = self.dim;
        self.roles = vec![0; dim * dim];
        for &c in &self.corners {
            self.roles[c as usize] |= CORNER;
        }
        for &t in &self.thrones {
            self.roles[t as usize] |= THRONE;
        }
        for &t in &self.attacker_forts {
            self.roles[t as usize] |= AFORT;
        }
        for &t in &self.defender_forts {
            self.roles[t as usize] |= DFORT;
        }
        self.edge = (0..dim * dim)
            .map(|sq| {
                let (f, r) = (sq % dim, sq / dim);
                f == 0 || r == 0 || f + 1 == dim || r + 1 == dim
            })
            .collect();
        self.neighbours = (0..dim * dim)
            .map(|sq| {
                let (f, r) = (sq % dim, sq / dim);
                [
                    if f + 1 < dim { (sq + 1) as u16 } else { NONE },
                    if f > 0 { (sq - 1) as u16 } else { NONE },
                    if r + 1 < dim { (sq + dim) as u16 } else { NONE },
                    if r > 0 { (sq - dim) as u16 } else { NONE },
                ]
            })
            .collect();
        self.coords = (0..dim * dim)
            .map(|sq| ((sq / dim) as u8, (sq % dim) as u8))
            .collect();
        self.row_mask = if dim >= 32 {
            u32::MAX
        } else {
            (1u32 << dim) - 1
        };
        self.edge_rows = crate::bits::edge_rows(dim, self.row_mask);
        self.escape_distance = (0..dim * dim)
            .map(|sq| {
                let (f, r) = (sq % dim, sq / dim);
                let d = if self.edge_escape {
                    f.min(r).min(dim - 1 - f).min(dim - 1 - r)
                } else {
                    self.corners
                        .iter()
                        .map(|&c| {
                            let (cf, cr) = (c as usize % dim, c as usize / dim);
                            cf.abs_diff(f) + cr.abs_diff(r)
                        })
                        .min()
                        .unwrap_or(2 * dim)
                };
                d.min(2 * dim) as u8
            })
            .collect();
        self.corner_rows = [0; MAX_DIM];
        self.fort_rows = [0; MAX_DIM];
        self.throne_rows = [0; MAX_DIM];
        self.plain_rows = [0; MAX_DIM];
        self.no_stop = [[0; MAX_DIM]; 4];
        self.no_pass = [[0; MAX_DIM]; 4];
        for r in 0..dim {
            self.plain_rows[r] = self.row_mask;
        }
        for sq in 0..dim * dim {
            let (r, f) = (sq / dim, sq % dim);
            let bit = 1u32 << f;
            let corner = self.is_corner(sq);
            let throne = self.is_throne(sq);
            let afort = self.roles[sq] & AFORT != 0;
            let dfort = self.roles[sq] & DFORT != 0;
            if corner {
                self.corner_rows[r] |= bit;
            }
            if throne {
                self.throne_rows[r] |= bit;
            }
            if afort || dfort {
                self.fort_rows[r] |= bit;
            }
            if corner || throne || afort || dfort {
                self.plain_rows[r] &= !bit;
            }
            for piece in [Piece::Attacker, Piece::Defender, Piece::King] {
                let stop = (!corner || self.corner_stop.contains(piece))
                    && (!throne || self.throne_stop.contains(piece))
                    && (!afort || self.afort_stop.contains(piece))
                    && (!dfort || self.dfort_stop.contains(piece));
                let pass = (!corner || self.corner_pass.contains(piece))
                    && (!throne || self.throne_pass.contains(piece))
                    && (!afort || self.afort_pass.contains(piece))
                    && (!dfort || self.dfort_pass.contains(piece));
                if !stop {
                    self.no_stop[piece as usize][r] |= bit;
                }
                if !pass {
                    self.no_pass[piece as usize][r] |= bit;
                }
            }
        }
    }

    /// Whether `sq` is a corner square.
    #[inline]
    #[must_use]
    pub fn is_corner(&self, sq: usize) -> bool {
        self.roles[sq] & CORNER != 0
    }

    /// Whether `sq` is a throne square.
    #[inline]
    #[must_use]
    pub fn is_throne(&self, sq: usize) -> bool {
        self.roles[sq] & THRONE != 0
    }

    /// Whether `sq` is an attacker or defender fortress square (`afor` / `dfor`).
    #[inline]
    #[must_use]
    pub fn is_fortress(&self, sq: usize) -> bool {
        self.roles[sq] & (AFORT | DFORT) != 0
    }

    /// Whether an empty `sq` is hostile to `victim` by its role (corner, throne, fortress).
    #[inline]
    pub(crate) fn empty_hostile(&self, sq: usize, victim: Piece) -> bool {
        let role = self.roles[sq];
        role != 0
            && ((role & CORNER != 0 && self.corner_hostile.contains(victim))
                || (role & THRONE != 0
                    && (self.throne_hostile_empty.contains(victim)
                        || self.throne_hostile.contains(victim)))
                || (role & AFORT != 0 && self.afort_hostile.contains(victim))
                || (role & DFORT != 0 && self.dfort_hostile.contains(victim)))
    }

    /// Whether `sq` lies on the board edge.
    #[inline]
    #[must_use]
    pub fn is_edge(&self, sq: usize) -> bool {
        self.edge[sq]
    }
}

static INTERNED: Mutex<Vec<&'static Rules>> = Mutex::new(Vec::new());

/// The shared `&'static` copy of `rules`: equal rules are stored once (leaked on first use,
/// so the memory held is bounded by the number of distinct rule sets a process sees).
#[must_use]
pub fn intern(rules: Rules) -> &'static Rules {
    let mut table = INTERNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(found) = table.iter().find(|r| ***r == rules) {
        return found;
    }
    let leaked: &'static Rules = Box::leak(Box::new(rules));
    table.push(leaked);
    leaked
}
