//! The rules descriptor: an OpenTafl rules string (OTN) parsed into [`Rules`], and written back.
//!
//! Key invariants: every key of rules/tafl.md is understood or rejected with an error naming
//! the key; unknown keys are tolerated; [`Rules::to_otn`] writes every supported key
//! explicitly, so parsing its output gives an equal [`Rules`]. Rules are interned
//! ([`intern`]): equal rules share one `&'static Rules`, so positions carry a plain reference.

use std::sync::Mutex;

use plies::NotationError;

use crate::board::{Board, MAX_DIM, Piece, Rows, parse_square, square_name};

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

    /// Whether `piece` is in the set.
    #[inline]
    #[must_use]
    pub fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece as u8) != 0
    }

    /// Reads OTN piece letters (`tcnkmg` attackers, `TCNKMG` defenders; `K` is the king).
    fn parse(key: &str, value: &str) -> Result<PieceSet, NotationError> {
        let mut set = 0u8;
        for c in value.chars() {
            match c {
                't' | 'c' | 'n' | 'k' | 'm' | 'g' => set |= 1 << Piece::Attacker as u8,
                'T' | 'C' | 'N' | 'M' | 'G' => set |= 1 << Piece::Defender as u8,
                'K' => set |= 1 << Piece::King as u8,
                _ => return Err(bad(key, value, "expected piece letters from tcnkmgTCNKMG")),
            }
        }
        Ok(PieceSet(set))
    }

    /// The OTN letters of the set (special pieces included for the kinds they stand beside).
    fn to_otn(self) -> String {
        let mut s = String::new();
        if self.contains(Piece::Attacker) {
            s.push_str("tcnkmg");
        }
        if self.contains(Piece::Defender) {
            s.push_str("TCNMG");
        }
        if self.contains(Piece::King) {
            s.push('K');
        }
        s
    }
}

/// What a threefold repetition does (`tfr`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Repetition {
    /// `d`: the game is drawn.
    Draw,
    /// `w`: the side that makes the move producing the third occurrence loses (as OpenTafl
    /// plays it, see rules/tafl.md).
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
    /// Squares that are neither corner nor throne (anyone may stop there), as rows.
    pub(crate) plain_rows: Rows,
    /// Per piece code: the special squares it may not stop on.
    pub(crate) no_stop: [Rows; 4],
    /// Per piece code: the special squares it may not pass through.
    pub(crate) no_pass: [Rows; 4],
    /// The edge squares as rows.
    pub(crate) edge_rows: Rows,
}

/// "No square" in [`Rules`] neighbour tables.
pub(crate) const NONE: u16 = u16::MAX;

fn bad(key: &str, value: &str, reason: &str) -> NotationError {
    NotationError::new(
        format!("{key}:{value}"),
        format!("rules key '{key}': {reason}"),
    )
}

fn yes_no(key: &str, value: &str) -> Result<bool, NotationError> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(bad(key, value, "expected y or n")),
    }
}

fn squares(key: &str, value: &str, dim: usize) -> Result<Vec<u16>, NotationError> {
    let mut out = Vec::new();
    for part in value.split(',').filter(|p| !p.is_empty()) {
        let sq = parse_square(part, dim).ok_or_else(|| {
            bad(
                key,
                value,
                &format!("'{part}' is not a square of this board"),
            )
        })?;
        if !out.contains(&(sq as u16)) {
            out.push(sq as u16);
        }
    }
    Ok(out)
}

impl Rules {
    /// Default rules for a `dim` board (OpenTafl's defaults: corner escape, strong armed
    /// king, throne in the centre, corners at the four corners).
    fn defaults(dim: usize) -> Rules {
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
            plain_rows: [0; MAX_DIM],
            no_stop: [[0; MAX_DIM]; 4],
            no_pass: [[0; MAX_DIM]; 4],
            edge_rows: [0; MAX_DIM],
        };
        rules.derive_tables();
        rules
    }

    fn derive_tables(&mut self) {
        let dim = self.dim;
        self.roles = vec![0; dim * dim];
        for &c in &self.corners {
            self.roles[c as usize] |= CORNER;
        }
        for &t in &self.thrones {
            self.roles[t as usize] |= THRONE;
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
        self.corner_rows = [0; MAX_DIM];
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
            if corner {
                self.corner_rows[r] |= bit;
            }
            if throne {
                self.throne_rows[r] |= bit;
            }
            if corner || throne {
                self.plain_rows[r] &= !bit;
            }
            for piece in [Piece::Attacker, Piece::Defender, Piece::King] {
                let stop = (!corner || self.corner_stop.contains(piece))
                    && (!throne || self.throne_stop.contains(piece));
                let pass = (!corner || self.corner_pass.contains(piece))
                    && (!throne || self.throne_pass.contains(piece));
                if !stop {
                    self.no_stop[piece as usize][r] |= bit;
                }
                if !pass {
                    self.no_pass[piece as usize][r] |= bit;
                }
            }
        }
    }

    /// Parses an OTN rules string: `dim:` first, `start:`/`starti:` last (required), other keys
    /// in any order, unknown keys ignored. Returns the rules and the start board.
    pub fn parse(text: &str) -> Result<(Rules, Board), NotationError> {
        let mut tokens = text.split_whitespace();
        let first = tokens
            .next()
            .ok_or_else(|| NotationError::new("", "empty rules string"))?;
        let dim_text = first
            .strip_prefix("dim:")
            .ok_or_else(|| NotationError::new(first, "a rules string starts with dim:<size>"))?;
        let dim: usize = dim_text
            .parse()
            .ok()
            .filter(|d| (7..=MAX_DIM).contains(d))
            .ok_or_else(|| bad("dim", dim_text, "expected a board size 7..19"))?;
        let mut rules = Rules::defaults(dim);
        let mut board = None;
        for token in tokens {
            if board.is_some() {
                return Err(NotationError::new(
                    token,
                    "nothing may follow start: in a rules string",
                ));
            }
            let Some((key, value)) = token.split_once(':') else {
                return Err(NotationError::new(token, "expected key:value"));
            };
            match key {
                "start" => board = Some(Board::parse(value, dim, false)?),
                "starti" => board = Some(Board::parse(value, dim, true)?),
                "name" => rules.name = value.replace('_', " "),
                "esc" => {
                    rules.edge_escape = match value {
                        "c" => false,
                        "e" => true,
                        _ => return Err(bad(key, value, "expected c or e")),
                    }
                }
                "tfrd" => {
                    let on = yes_no(key, value)?;
                    rules.repetition = if on {
                        Repetition::DefendersLose
                    } else {
                        rules.repetition
                    };
                }
                "surf" => rules.surround_fatal = yes_no(key, value)?,
                "atkf" => rules.attackers_first = yes_no(key, value)?,
                "tfr" if rules.repetition != Repetition::DefendersLose => {
                    rules.repetition = match value {
                        "d" => Repetition::Draw,
                        "w" => Repetition::MoverLoses,
                        "l" => Repetition::MoverWins,
                        "i" => Repetition::Ignore,
                        _ => return Err(bad(key, value, "expected d, w, l or i")),
                    }
                }
                "ka" => {
                    rules.king_armed = match value {
                        "y" => KingArmed::Yes,
                        "n" => KingArmed::No,
                        "a" => KingArmed::Anvil,
                        "h" => KingArmed::Hammer,
                        _ => return Err(bad(key, value, "expected y, n, a or h")),
                    }
                }
                "ks" => {
                    rules.king_strength = match value {
                        "s" | "y" => KingStrength::Strong,
                        "c" => KingStrength::Throne,
                        "w" | "n" => KingStrength::Weak,
                        "m" => return Err(bad(key, value, "middleweight king is not supported")),
                        _ => return Err(bad(key, value, "expected s, c, m or w")),
                    }
                }
                "kj" | "nj" | "cj" | "mj" | "gj" => {
                    if !matches!(value, "n" | "r" | "j" | "c") {
                        return Err(bad(key, value, "expected n, r, j or c"));
                    }
                    if key == "kj" && value != "n" {
                        return Err(bad(key, value, "king jumps are not supported"));
                    }
                }
                "spd" if value != "-1" => {
                    return Err(bad(key, value, "speed limits are not supported"));
                }
                "ber" => match value {
                    "n" => {}
                    "c" | "m" => return Err(bad(key, value, "berserk is not supported")),
                    _ => return Err(bad(key, value, "expected n, c or m")),
                },
                "cor" => rules.corners = squares(key, value, dim)?,
                "cen" => rules.thrones = squares(key, value, dim)?,
                "afor" | "dfor" => {
                    let listed = squares(key, value, dim)?;
                    if !listed.is_empty() {
                        return Err(bad(key, value, "fortress squares are not supported"));
                    }
                }
                "corh" => rules.corner_hostile = PieceSet::parse(key, value)?,
                "cenh" => rules.throne_hostile = PieceSet::parse(key, value)?,
                "cenhe" => rules.throne_hostile_empty = PieceSet::parse(key, value)?,
                "corp" => rules.corner_pass = PieceSet::parse(key, value)?,
                "cenp" => rules.throne_pass = PieceSet::parse(key, value)?,
                "cors" => rules.corner_stop = PieceSet::parse(key, value)?,
                "cens" => rules.throne_stop = PieceSet::parse(key, value)?,
                "aforh" | "dforh" | "aforp" | "dforp" | "afors" | "dfors" => {
                    PieceSet::parse(key, value)?;
                }
                "sw" => {
                    rules.shieldwall = match value {
                        "n" => Shieldwall::None,
                        "w" => Shieldwall::Weak,
                        "s" => Shieldwall::Strong,
                        _ => return Err(bad(key, value, "expected n, w or s")),
                    }
                }
                "swf" => rules.shieldwall_flank = yes_no(key, value)?,
                "efe" => rules.edge_fort = yes_no(key, value)?,
                "linc" => rules.linnaean = yes_no(key, value)?,
                "dim" => return Err(bad(key, value, "dim: must come first, once")),
                _ => {} // unknown keys are tolerated
            }
        }
        let board =
            board.ok_or_else(|| NotationError::new(text.trim(), "missing start:<position>"))?;
        rules.derive_tables();
        if !rules.shieldwall_flank && rules.shieldwall != Shieldwall::None {
            return Err(bad(
                "swf",
                "n",
                "shieldwalls without the flanking move are not supported",
            ));
        }
        Ok((rules, board))
    }

    /// The OTN rules string of these rules with `board` as its start position (every
    /// supported key written explicitly).
    #[must_use]
    pub fn to_otn(&self, board: &Board) -> String {
        let list = |sqs: &[u16]| -> String {
            sqs.iter()
                .map(|&s| format!("{},", square_name(s as usize, self.dim)))
                .collect()
        };
        let yn = |b: bool| if b { "y" } else { "n" };
        let mut s = format!("dim:{}", self.dim);
        if !self.name.is_empty() {
            s += &format!(" name:{}", self.name.replace(' ', "_"));
        }
        s += &format!(
            " esc:{} surf:{} atkf:{} tfr:{} ka:{} ks:{}",
            if self.edge_escape { "e" } else { "c" },
            yn(self.surround_fatal),
            yn(self.attackers_first),
            match self.repetition {
                Repetition::Draw => "d",
                Repetition::MoverLoses | Repetition::DefendersLose => "w",
                Repetition::MoverWins => "l",
                Repetition::Ignore => "i",
            },
            match self.king_armed {
                KingArmed::Yes => "y",
                KingArmed::No => "n",
                KingArmed::Anvil => "a",
                KingArmed::Hammer => "h",
            },
            match self.king_strength {
                KingStrength::Strong => "s",
                KingStrength::Throne => "c",
                KingStrength::Weak => "w",
            },
        );
        if self.repetition == Repetition::DefendersLose {
            s += " tfrd:y";
        }
        s += &format!(
            " cor:{} cen:{} corh:{} cenh:{} cenhe:{} corp:{} cenp:{} cors:{} cens:{}",
            list(&self.corners),
            list(&self.thrones),
            self.corner_hostile.to_otn(),
            self.throne_hostile.to_otn(),
            self.throne_hostile_empty.to_otn(),
            self.corner_pass.to_otn(),
            self.throne_pass.to_otn(),
            self.corner_stop.to_otn(),
            self.throne_stop.to_otn(),
        );
        s += &format!(
            " sw:{} swf:{} efe:{} linc:{} start:{}",
            match self.shieldwall {
                Shieldwall::None => "n",
                Shieldwall::Weak => "w",
                Shieldwall::Strong => "s",
            },
            yn(self.shieldwall_flank),
            yn(self.edge_fort),
            yn(self.linnaean),
            board.to_otn(self.dim)
        );
        s
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
