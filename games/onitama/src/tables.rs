//! Onitama positions numbered for endgame tables ([`plies::solve`]): [`MaterialSet`], every
//! position of one deal with both masters and a given number of students a side.
//!
//! A number is, from the most significant part down: the side to move (2), the arrangement of
//! the five dealt cards (30: red's two, blue's two of the other three, the last on the side),
//! red's master square (25), blue's master square among the other 24, red's students among the
//! 23 squares left (a set ranked in the combinatorial number system), blue's among the rest.
//!
//! Key invariant: [`MaterialSet::position`] and [`MaterialSet::index`] are inverse on every
//! number of the set except the holes, the numbers with both masters on the enemy temples (a
//! game cannot get there: it ends when the first arrives); a capture of a student leaves the set for the one with a
//! student less, a capture of a master or a master on the enemy temple ends the game.

use plies::Side;
use plies::solve::PositionSet;

use crate::card::Card;
use crate::state::{BLUE_TEMPLE, Onitama, RED_TEMPLE};

/// Binomial coefficients up to 25 choose 25.
const fn binomials() -> [[u64; 26]; 26] {
    let mut table = [[0u64; 26]; 26];
    let mut n = 0;
    while n < 26 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
}

static CHOOSE: [[u64; 26]; 26] = binomials();

/// Every position of one deal with both masters, `students[0]` red and `students[1]` blue
/// students (see the module docs).
#[derive(Clone, Debug)]
pub struct MaterialSet {
    /// The five dealt cards, in id order.
    deal: [Card; 5],
    students: [u8; 2],
    /// The arrangements of the deal: red's hand, blue's hand (card indices into `deal`).
    arrangements: Vec<([usize; 2], [usize; 2], usize)>,
}

impl MaterialSet {
    /// The set of `deal` (five distinct cards, in any order) with `red` and `blue` students
    /// (0 to 4 each). Its numbers with both masters on the enemy temples are holes.
    ///
    /// # Panics
    /// If a card is dealt twice or a side has more than four students.
    #[must_use]
    pub fn new(deal: [Card; 5], red: u8, blue: u8) -> MaterialSet {
        let mut deal = deal;
        deal.sort_by_key(|c| c.id());
        assert!(deal.windows(2).all(|w| w[0] != w[1]), "a card dealt twice");
        assert!(red <= 4 && blue <= 4, "at most four students a side");
        let mut arrangements = Vec::with_capacity(30);
        for a in 0..5 {
            for b in a + 1..5 {
                let rest: Vec<usize> = (0..5).filter(|&i| i != a && i != b).collect();
                for c in 0..3 {
                    for d in c + 1..3 {
                        let side = (0..3).find(|&i| i != c && i != d).expect("one left");
                        arrangements.push(([a, b], [rest[c], rest[d]], rest[side]));
                    }
                }
            }
        }
        MaterialSet {
            deal,
            students: [red, blue],
            arrangements,
        }
    }

    /// The set of the same deal with other student counts.
    #[must_use]
    pub fn with_students(&self, red: u8, blue: u8) -> MaterialSet {
        MaterialSet::new(self.deal, red, blue)
    }

    /// The number of students of each side, red first.
    #[must_use]
    pub fn students(&self) -> [u8; 2] {
        self.students
    }

    fn combinations(&self) -> [u64; 2] {
        let [a, b] = self.students.map(usize::from);
        [CHOOSE[23][a], CHOOSE[23 - a][b]]
    }

    /// The index of the card arrangement of `state`, if its cards are this deal's.
    fn arrangement(&self, state: &Onitama) -> Option<usize> {
        let position = |card: Card| self.deal.iter().position(|&c| c == card);
        let mut red = [
            position(state.hand(Side::First)[0])?,
            position(state.hand(Side::First)[1])?,
        ];
        let mut blue = [
            position(state.hand(Side::Second)[0])?,
            position(state.hand(Side::Second)[1])?,
        ];
        red.sort_unstable();
        blue.sort_unstable();
        let side = position(state.side_card())?;
        self.arrangements
            .iter()
            .position(|&(r, b, s)| r == red && b == blue && s == side)
    }
}

/// The rank of the set bits of `bits` among the squares not in `taken`, in the combinatorial
/// number system (the i-th smallest free square c_i contributes C(c_i, i + 1)).
fn rank(bits: u32, taken: u32) -> u64 {
    let mut rank = 0;
    let mut free_index = 0;
    let mut chosen = 0;
    for square in 0..25 {
        if taken & (1 << square) != 0 {
            continue;
        }
        if bits & (1 << square) != 0 {
            chosen += 1;
            rank += CHOOSE[free_index][chosen];
        }
        free_index += 1;
    }
    rank
}

/// The `count` squares not in `taken` whose rank ([`rank`]) is `rank`.
fn unrank(mut rank: u64, count: usize, taken: u32) -> u32 {
    let free: Vec<u32> = (0..25).filter(|s| taken & (1 << s) == 0).collect();
    let mut bits = 0;
    let mut k = count;
    let mut n = free.len();
    while k > 0 {
        // The largest n with C(n, k) <= rank is the k-th chosen free square.
        n -= 1;
        while CHOOSE[n][k] > rank {
            n -= 1;
        }
        rank -= CHOOSE[n][k];
        bits |= 1 << free[n];
        k -= 1;
    }
    bits
}

impl PositionSet<Onitama> for MaterialSet {
    fn size(&self) -> u64 {
        let [red, blue] = self.combinations();
        2 * 30 * 25 * 24 * red * blue
    }

    fn index(&self, state: &Onitama) -> Option<u64> {
        let red_master = state.master(Side::First)?;
        let blue_master = state.master(Side::Second)?;
        if [1u32 << red_master.index(), 1 << blue_master.index()] == [BLUE_TEMPLE, RED_TEMPLE] {
            return None;
        }
        let red_students = state.students(Side::First).0;
        let blue_students = state.students(Side::Second).0;
        if red_students.count_ones() != u32::from(self.students[0])
            || blue_students.count_ones() != u32::from(self.students[1])
        {
            return None;
        }
        let cards = self.arrangement(state)? as u64;
        let [red_count, blue_count] = self.combinations();
        let rm = red_master.index() as u64;
        let bm = blue_master.index() as u64 - u64::from(blue_master.index() > red_master.index());
        let masters = (1u32 << red_master.index()) | (1 << blue_master.index());
        let rs = rank(red_students, masters);
        let bs = rank(blue_students, masters | red_students);
        let side = state.to_move().index() as u64;
        Some(((((side * 30 + cards) * 25 + rm) * 24 + bm) * red_count + rs) * blue_count + bs)
    }

    fn position(&self, index: u64) -> Option<Onitama> {
        let [red_count, blue_count] = self.combinations();
        let bs = index % blue_count;
        let rest = index / blue_count;
        let rs = rest % red_count;
        let rest = rest / red_count;
        let bm = (rest % 24) as u32;
        let rest = rest / 24;
        let rm = (rest % 25) as u32;
        let rest = rest / 25;
        let cards = (rest % 30) as usize;
        let side = if rest / 30 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let bm = bm + u32::from(bm >= rm);
        let masters = [1u32 << rm, 1u32 << bm];
        if masters == [BLUE_TEMPLE, RED_TEMPLE] {
            return None;
        }
        let taken = masters[0] | masters[1];
        let red_students = unrank(rs, usize::from(self.students[0]), taken);
        let blue_students = unrank(bs, usize::from(self.students[1]), taken | red_students);
        let (red_hand, blue_hand, side_card) = self.arrangements[cards];
        Onitama::from_parts(
            [masters[0] | red_students, masters[1] | blue_students],
            masters,
            [
                red_hand.map(|i| self.deal[i]),
                blue_hand.map(|i| self.deal[i]),
            ],
            self.deal[side_card],
            side,
        )
        .ok()
    }
}

#[cfg(test)]
mod tests;
