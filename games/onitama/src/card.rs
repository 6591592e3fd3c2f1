//! The 32 movement cards (16 of the base game, 16 of the Sensei's Path expansion), their stamps,
//! and the per-(card, player, square) target masks built at compile time.
//!
//! Key invariants: card ids are `0..32` in the order of [`CARDS`] (base cards 0..16 in the order
//! of the rules table, then the expansion); offsets `(dx, dy)` are from the holder's view
//! (`dx > 0` = the holder's right, `dy > 0` = forward): red's forward is toward rank 5 and its
//! right toward file e, blue's are the opposite, so for blue both are negated. The target masks
//! include every on-board destination, whatever stands there.

use std::fmt;

use plies::Side;

use crate::bitboard::Bitboard;
use crate::square::Square;

/// What is printed on a card: its name (as written in notation), stamp colour and offsets.
#[derive(Debug)]
pub struct CardSpec {
    /// Name in notation: lower case, one word (`seasnake` for Sea Snake).
    pub name: &'static str,
    /// The colour of the stamp: the side that moves first when this card starts on the side.
    pub stamp: Side,
    /// Offsets `(dx, dy)` from the holder's view (right, forward).
    pub offsets: &'static [(i8, i8)],
}

const RED: Side = Side::First;
const BLUE: Side = Side::Second;

const fn spec(name: &'static str, stamp: Side, offsets: &'static [(i8, i8)]) -> CardSpec {
    CardSpec {
        name,
        stamp,
        offsets,
    }
}

/// Every card, indexed by card id.
pub static CARDS: [CardSpec; 32] = [
    spec("tiger", BLUE, &[(0, 2), (0, -1)]),
    spec("crab", BLUE, &[(0, 1), (-2, 0), (2, 0)]),
    spec("monkey", BLUE, &[(-1, 1), (1, 1), (-1, -1), (1, -1)]),
    spec("crane", BLUE, &[(0, 1), (-1, -1), (1, -1)]),
    spec("dragon", RED, &[(-2, 1), (2, 1), (-1, -1), (1, -1)]),
    spec("elephant", RED, &[(-1, 1), (1, 1), (-1, 0), (1, 0)]),
    spec("mantis", RED, &[(-1, 1), (1, 1), (0, -1)]),
    spec("boar", RED, &[(0, 1), (-1, 0), (1, 0)]),
    spec("frog", RED, &[(-1, 1), (-2, 0), (1, -1)]),
    spec("goose", BLUE, &[(-1, 1), (-1, 0), (1, 0), (1, -1)]),
    spec("horse", RED, &[(0, 1), (-1, 0), (0, -1)]),
    spec("eel", BLUE, &[(-1, 1), (1, 0), (-1, -1)]),
    spec("rabbit", BLUE, &[(1, 1), (2, 0), (-1, -1)]),
    spec("rooster", RED, &[(1, 1), (-1, 0), (1, 0), (-1, -1)]),
    spec("ox", BLUE, &[(0, 1), (1, 0), (0, -1)]),
    spec("cobra", RED, &[(-1, 0), (1, 1), (1, -1)]),
    spec("giraffe", BLUE, &[(-2, 1), (2, 1), (0, -1)]),
    spec("kirin", RED, &[(-1, 2), (1, 2), (0, -2)]),
    spec("phoenix", BLUE, &[(-1, 1), (1, 1), (-2, 0), (2, 0)]),
    spec("turtle", RED, &[(-2, 0), (2, 0), (-1, -1), (1, -1)]),
    spec("dog", BLUE, &[(-1, 1), (-1, 0), (-1, -1)]),
    spec("fox", RED, &[(1, 1), (1, 0), (1, -1)]),
    spec("bear", BLUE, &[(0, 1), (-1, 1), (1, -1)]),
    spec("panda", RED, &[(0, 1), (1, 1), (-1, -1)]),
    spec("viper", RED, &[(0, 1), (-2, 0), (1, -1)]),
    spec("seasnake", BLUE, &[(0, 1), (2, 0), (-1, -1)]),
    spec("rat", RED, &[(0, 1), (-1, 0), (1, -1)]),
    spec("mouse", BLUE, &[(0, 1), (1, 0), (-1, -1)]),
    spec("iguana", RED, &[(0, 1), (-2, 1), (1, -1)]),
    spec("tanuki", BLUE, &[(0, 1), (2, 1), (-1, -1)]),
    spec("otter", RED, &[(-1, 1), (2, 0), (1, -1)]),
    spec("sable", BLUE, &[(1, 1), (-2, 0), (-1, -1)]),
];

/// `TARGETS[card][player][square]`: the squares a piece of `player` on `square` reaches with
/// `card` (as raw 25-bit masks).
pub(crate) static TARGETS: [[[u32; 25]; 2]; 32] = build_targets();

const fn build_targets() -> [[[u32; 25]; 2]; 32] {
    let mut table = [[[0u32; 25]; 2]; 32];
    let mut card = 0;
    while card < 32 {
        let offsets = CARDS[card].offsets;
        let mut player = 0;
        while player < 2 {
            let sign: i32 = if player == 0 { 1 } else { -1 };
            let mut square = 0;
            while square < 25 {
                let file = (square % 5) as i32;
                let rank = (square / 5) as i32;
                let mut mask = 0u32;
                let mut k = 0;
                while k < offsets.len() {
                    let x = file + sign * offsets[k].0 as i32;
                    let y = rank + sign * offsets[k].1 as i32;
                    if x >= 0 && x < 5 && y >= 0 && y < 5 {
                        mask |= 1 << (y * 5 + x);
                    }
                    k += 1;
                }
                table[card][player][square] = mask;
                square += 1;
            }
            player += 1;
        }
        card += 1;
    }
    table
}

/// A card, by id `0..32` (see [`CARDS`]).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    /// Number of cards (base game and expansion).
    pub const COUNT: usize = 32;
    /// Number of cards of the base game (ids `0..16`).
    pub const BASE_COUNT: usize = 16;

    /// Tiger.
    pub const TIGER: Card = Card(0);
    /// Crab.
    pub const CRAB: Card = Card(1);
    /// Monkey.
    pub const MONKEY: Card = Card(2);
    /// Crane.
    pub const CRANE: Card = Card(3);
    /// Dragon.
    pub const DRAGON: Card = Card(4);
    /// Elephant.
    pub const ELEPHANT: Card = Card(5);
    /// Mantis.
    pub const MANTIS: Card = Card(6);
    /// Boar.
    pub const BOAR: Card = Card(7);
    /// Frog.
    pub const FROG: Card = Card(8);
    /// Goose.
    pub const GOOSE: Card = Card(9);
    /// Horse.
    pub const HORSE: Card = Card(10);
    /// Eel.
    pub const EEL: Card = Card(11);
    /// Rabbit.
    pub const RABBIT: Card = Card(12);
    /// Rooster.
    pub const ROOSTER: Card = Card(13);
    /// Ox.
    pub const OX: Card = Card(14);
    /// Cobra.
    pub const COBRA: Card = Card(15);

    /// The card with this id, if `id < 32`.
    #[inline]
    #[must_use]
    pub const fn new(id: u8) -> Option<Card> {
        if (id as usize) < Self::COUNT {
            Some(Card(id))
        } else {
            None
        }
    }

    /// Every card, by id.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..Self::COUNT as u8).map(Card)
    }

    /// The id `0..32`.
    #[inline]
    #[must_use]
    pub const fn id(self) -> usize {
        self.0 as usize
    }

    /// What is printed on the card.
    #[inline]
    #[must_use]
    pub fn spec(self) -> &'static CardSpec {
        &CARDS[self.id()]
    }

    /// The notation name (lower case, one word).
    #[inline]
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The stamp colour.
    #[inline]
    #[must_use]
    pub fn stamp(self) -> Side {
        self.spec().stamp
    }

    /// The squares a piece of `player` on `from` reaches with this card (whatever stands there).
    #[inline]
    #[must_use]
    pub fn targets(self, player: Side, from: Square) -> Bitboard {
        Bitboard(TARGETS[self.id()][player.index()][from.index()])
    }

    /// The card whose moves are this one's seen in a mirror (each offset's `dx` negated):
    /// the card a position reflected from file a to file e uses instead. Symmetric cards are
    /// their own mirror; the others pair up (Frog and Rabbit, Goose and Rooster, Horse and Ox,
    /// Eel and Cobra among the base cards).
    #[must_use]
    pub fn mirror(self) -> Card {
        let offsets = self.spec().offsets;
        let reflected = |spec: &CardSpec| {
            spec.offsets.len() == offsets.len()
                && offsets
                    .iter()
                    .all(|&(dx, dy)| spec.offsets.contains(&(-dx, dy)))
        };
        CARDS
            .iter()
            .position(reflected)
            .map_or(self, |id| Card(id as u8))
    }

    /// Reads a card name, any case. Sea Snake may be written `seasnake`, `sea-snake` or
    /// `sea_snake`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Card> {
        let lower = text.to_ascii_lowercase();
        let name = match lower.as_str() {
            "sea-snake" | "sea_snake" => "seasnake",
            other => other,
        };
        CARDS
            .iter()
            .position(|spec| spec.name == name)
            .map(|id| Card(id as u8))
    }
}

impl fmt::Display for Card {
    /// The notation name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
