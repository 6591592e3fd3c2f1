//! Unit tests of `plies::bits`: every helper checked against a bit-by-bit reference on
//! values of widths 8, 32 and 128.
//!
//! Key invariant: test code only; expected values come from testing one bit at a time.

use super::*;

/// The members of `bits` found one bit at a time, lowest first (the reference).
fn members(bits: u128, width: u32) -> Vec<u32> {
    (0..width).filter(|&i| (bits >> i) & 1 == 1).collect()
}

/// Values with few, many, low, high and scattered bits.
fn samples() -> Vec<u128> {
    let mut values = vec![0, 1, 2, 3, 0x80, 0xff, 0x8000_0001, u128::MAX, 1 << 127];
    let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
    for _ in 0..40 {
        x = x
            .wrapping_mul(0x2545_F491_4F6C_DD1D)
            .wrapping_add(0x1405_7B7E_F767_814F);
        values.push(x);
        values.push(x & (x >> 17) & (x >> 41));
    }
    values
}

#[test]
fn set_bits_visits_every_member_lowest_first() {
    for v in samples() {
        assert_eq!(set_bits(v).collect::<Vec<_>>(), members(v, 128), "{v:#x}");
        assert_eq!(set_bits(v).len(), members(v, 128).len());
        let v32 = v as u32;
        assert_eq!(
            set_bits(v32).collect::<Vec<_>>(),
            members(u128::from(v32), 32)
        );
        let v8 = v as u8;
        assert_eq!(set_bits(v8).collect::<Vec<_>>(), members(u128::from(v8), 8));
    }
}

#[test]
fn pop_lowest_takes_one_member_at_a_time() {
    let mut bits: u32 = 0b1001_0000_0000_0000_0000_0000_0000_0110;
    assert_eq!(pop_lowest(&mut bits), Some(1));
    assert_eq!(bits, 0b1001_0000_0000_0000_0000_0000_0000_0100);
    assert_eq!(pop_lowest(&mut bits), Some(2));
    assert_eq!(pop_lowest(&mut bits), Some(28));
    assert_eq!(pop_lowest(&mut bits), Some(31));
    assert_eq!(bits, 0);
    assert_eq!(pop_lowest(&mut bits), None);
    assert_eq!(bits, 0);
    let mut it = set_bits(0b1100u16);
    assert_eq!(it.next(), Some(2));
    assert_eq!(it.remaining(), 0b1000);
}

#[test]
fn lowest_and_highest_match_the_member_list() {
    for v in samples() {
        let m = members(v, 128);
        assert_eq!(lowest(v), m.first().copied(), "{v:#x}");
        assert_eq!(highest(v), m.last().copied(), "{v:#x}");
        let m32 = members(u128::from(v as u32), 32);
        assert_eq!(lowest(v as u32), m32.first().copied());
        assert_eq!(highest(v as u32), m32.last().copied());
    }
}

#[test]
fn bit_span_sets_exactly_the_range() {
    for lo in 0..=32 {
        for hi in 0..=32 {
            let expected: u64 = (0..32).filter(|&i| i >= lo && i < hi).map(|i| 1 << i).sum();
            assert_eq!(u64::from(bit_span::<u32>(lo, hi)), expected, "{lo}..{hi}");
        }
    }
    assert_eq!(bit_span::<u128>(0, 128), u128::MAX);
    assert_eq!(bit_span::<u128>(100, 128), u128::MAX << 100);
}

#[test]
#[should_panic(expected = "exceeds 32 bits")]
fn bit_span_past_the_width_is_refused() {
    let _ = bit_span::<u32>(0, 33);
}
