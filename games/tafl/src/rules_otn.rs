//! Reading and writing the OTN rules string: [`Rules::parse`] and [`Rules::to_otn`].
//!
//! Key invariants: every key in [`KNOWN_KEYS`] is understood (or, for the jump modes of
//! berserk pieces this crate does not have, checked and deliberately ignored) and a bad value
//! is an error naming the key; any other key is an error naming it and listing the known ones
//! (a typo must not silently change the rules); the start position must hold exactly one
//! king; [`Rules::to_otn`] writes every supported key explicitly, so parsing its output gives
//! equal [`Rules`].

use plies::NotationError;

use crate::board::{Board, MAX_DIM, Piece, parse_square, square_name};
use crate::rules::{KingArmed, KingStrength, PieceSet, Repetition, Rules, Shieldwall};

/// The OTN form of a piece set (the `corh`, `cenp`, ... values).
impl PieceSet {
    /// Reads OTN piece letters (`tcnkmg` attackers, `TCNKMG` defenders; `K` is the king).
    pub(crate) fn parse(key: &str, value: &str) -> Result<PieceSet, NotationError> {
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
    pub(crate) fn to_otn(self) -> String {
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

pub(crate) fn bad(key: &str, value: &str, reason: &str) -> NotationError {
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

/// `spd`: `-1` (unlimited), one speed for every piece, or `attackers,defenders,`.
fn speeds(key: &str, value: &str) -> Result<[Option<u8>; 2], NotationError> {
    let one = |text: &str| -> Result<Option<u8>, NotationError> {
        match text.trim().parse::<i32>() {
            Ok(-1) => Ok(None),
            Ok(n) if (1..=18).contains(&n) => Ok(Some(n as u8)),
            _ => Err(bad(
                key,
                value,
                &format!("'{text}' is not a speed (-1 or 1..18)"),
            )),
        }
    };
    let parts: Vec<&str> = value.split(',').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [all] => {
            let s = one(all)?;
            Ok([s, s])
        }
        [attackers, defenders] => Ok([one(attackers)?, one(defenders)?]),
        _ => Err(bad(
            key,
            value,
            "expected one speed or 'attackers,defenders,' (per-piece-type lists are not supported)",
        )),
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

/// The board size of a rules string's first token, `dim:<size>`.
fn leading_dim(first: &str) -> Result<usize, NotationError> {
    if first.is_empty() {
        return Err(NotationError::new("", "empty rules string"));
    }
    let dim_text = first
        .strip_prefix("dim:")
        .ok_or_else(|| NotationError::new(first, "a rules string starts with dim:<size>"))?;
    dim_text
        .parse()
        .ok()
        .filter(|d| (7..=MAX_DIM).contains(d))
        .ok_or_else(|| bad("dim", dim_text, "expected a board size 7..19"))
}

/// Every key a rules string may hold: OpenTafl's keys (its notation spec) plus this crate's
/// extensions `name`, `spd`, `linc` and `tfrd`. `kj`, `nj`, `cj`, `mj` and `gj` (jump modes)
/// are known but ignored: their values are checked, and only the pieces they govern (knights,
/// commanders, ...) jump, which this crate does not support (a jumping king is rejected).
pub const KNOWN_KEYS: &[&str] = &[
    "dim", "name", "esc", "surf", "atkf", "tfr", "tfrd", "ka", "ks", "kj", "nj", "cj", "mj", "gj",
    "spd", "ber", "cor", "cen", "afor", "dfor", "corh", "cenh", "cenhe", "aforh", "dforh", "corp",
    "cenp", "aforp", "dforp", "cors", "cens", "afors", "dfors", "sw", "swf", "efe", "linc",
    "start", "starti",
];

impl Rules {
    /// Parses an OTN rules string: `dim:` first, `start:`/`starti:` last (required), other keys
    /// (from [`KNOWN_KEYS`]) in any order. Returns the rules and the start board, which holds
    /// exactly one king.
    ///
    /// # Errors
    /// A missing or misplaced `dim:`/`start:`, an unknown key (named, with the known keys
    /// listed), a bad value (naming its key), or a start position without a king.
    pub fn parse(text: &str) -> Result<(Rules, Board), NotationError> {
        let (rules, board) = Rules::parse_any_board(text)?;
        if board.king().is_none() {
            return Err(NotationError::new(
                text.trim(),
                "the start position has no king (K)",
            ));
        }
        Ok((rules, board))
    }

    /// [`Rules::parse`] without the king check, for a written position (`turn:` given) whose
    /// board may be a finished game with the king captured.
    pub(crate) fn parse_any_board(text: &str) -> Result<(Rules, Board), NotationError> {
        let mut tokens = text.split_whitespace();
        let dim = leading_dim(tokens.next().unwrap_or(""))?;
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
                "dim" => return Err(bad(key, value, "dim: must come first, once")),
                _ => rules.set_key(token, key, value)?,
            }
        }
        let board =
            board.ok_or_else(|| NotationError::new(text.trim(), "missing start:<position>"))?;
        rules.derive_tables();
        Ok((rules, board))
    }

    /// Sets the value of one key of a rules string (`token`, split into `key` and `value`),
    /// any key but `dim`, `start` and `starti`.
    fn set_key(&mut self, token: &str, key: &str, value: &str) -> Result<(), NotationError> {
        if self.set_square_key(key, value)? {
            return Ok(());
        }
        match key {
            "name" => self.name = value.replace('_', " "),
            "esc" => {
                self.edge_escape = match value {
                    "c" => false,
                    "e" => true,
                    _ => return Err(bad(key, value, "expected c or e")),
                }
            }
            "tfrd" => {
                let on = yes_no(key, value)?;
                self.repetition = if on {
                    Repetition::DefendersLose
                } else {
                    self.repetition
                };
            }
            "surf" => self.surround_fatal = yes_no(key, value)?,
            "atkf" => self.attackers_first = yes_no(key, value)?,
            "tfr" => {
                let repetition = match value {
                    "d" => Repetition::Draw,
                    "w" => Repetition::MoverLoses,
                    "l" => Repetition::MoverWins,
                    "i" => Repetition::Ignore,
                    _ => return Err(bad(key, value, "expected d, w, l or i")),
                };
                // `tfrd:y` (in either order) overrides the plain repetition rule.
                if self.repetition != Repetition::DefendersLose {
                    self.repetition = repetition;
                }
            }
            "ka" => {
                self.king_armed = match value {
                    "y" => KingArmed::Yes,
                    "n" => KingArmed::No,
                    "a" => KingArmed::Anvil,
                    "h" => KingArmed::Hammer,
                    _ => return Err(bad(key, value, "expected y, n, a or h")),
                }
            }
            "ks" => {
                self.king_strength = match value {
                    "s" | "y" => KingStrength::Strong,
                    "c" => KingStrength::Throne,
                    "w" | "n" => KingStrength::Weak,
                    "m" => KingStrength::Middleweight,
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
            "spd" => self.speed = speeds(key, value)?,
            "ber" => match value {
                "n" => {}
                "c" | "m" => return Err(bad(key, value, "berserk is not supported")),
                _ => return Err(bad(key, value, "expected n, c or m")),
            },
            "sw" => {
                self.shieldwall = match value {
                    "n" => Shieldwall::None,
                    "w" => Shieldwall::Weak,
                    "s" => Shieldwall::Strong,
                    _ => return Err(bad(key, value, "expected n, w or s")),
                }
            }
            "swf" => self.shieldwall_flank = yes_no(key, value)?,
            "efe" => self.edge_fort = yes_no(key, value)?,
            "linc" => self.linnaean = yes_no(key, value)?,
            _ => {
                return Err(NotationError::new(
                    token,
                    format!(
                        "unknown rules key '{key}' (known keys: {})",
                        KNOWN_KEYS.join(" ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Sets a key of the special squares: where they are (`cor`, `cen`, `afor`, `dfor`) and
    /// which pieces they are hostile to, let pass or let stop. `false` for any other key.
    fn set_square_key(&mut self, key: &str, value: &str) -> Result<bool, NotationError> {
        let dim = self.dim;
        match key {
            "cor" => self.corners = squares(key, value, dim)?,
            "cen" => self.thrones = squares(key, value, dim)?,
            "afor" => self.attacker_forts = squares(key, value, dim)?,
            "dfor" => self.defender_forts = squares(key, value, dim)?,
            "corh" => self.corner_hostile = PieceSet::parse(key, value)?,
            "cenh" => self.throne_hostile = PieceSet::parse(key, value)?,
            "cenhe" => self.throne_hostile_empty = PieceSet::parse(key, value)?,
            "corp" => self.corner_pass = PieceSet::parse(key, value)?,
            "cenp" => self.throne_pass = PieceSet::parse(key, value)?,
            "cors" => self.corner_stop = PieceSet::parse(key, value)?,
            "cens" => self.throne_stop = PieceSet::parse(key, value)?,
            "aforh" => self.afort_hostile = PieceSet::parse(key, value)?,
            "dforh" => self.dfort_hostile = PieceSet::parse(key, value)?,
            "aforp" => self.afort_pass = PieceSet::parse(key, value)?,
            "dforp" => self.dfort_pass = PieceSet::parse(key, value)?,
            "afors" => self.afort_stop = PieceSet::parse(key, value)?,
            "dfors" => self.dfort_stop = PieceSet::parse(key, value)?,
            _ => return Ok(false),
        }
        Ok(true)
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
                KingStrength::Middleweight => "m",
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
        let speed = |v: Option<u8>| v.map_or_else(|| "-1".to_string(), |n| n.to_string());
        // One value when both sides move alike (OpenTafl's own form), else `a,d,`.
        let spd = if self.speed[0] == self.speed[1] {
            speed(self.speed[0])
        } else {
            format!("{},{},", speed(self.speed[0]), speed(self.speed[1]))
        };
        s += &format!(
            " afor:{} dfor:{} aforh:{} dforh:{} aforp:{} dforp:{} afors:{} dfors:{} spd:{}",
            list(&self.attacker_forts),
            list(&self.defender_forts),
            self.afort_hostile.to_otn(),
            self.dfort_hostile.to_otn(),
            self.afort_pass.to_otn(),
            self.dfort_pass.to_otn(),
            self.afort_stop.to_otn(),
            self.dfort_stop.to_otn(),
            spd,
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
}

#[cfg(test)]
mod tests;
