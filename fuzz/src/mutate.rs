//! Seeded, structure-aware mutation of text inputs: byte edits, token edits (inputs are mostly
//! words separated by spaces, `/`, `,`, `|`, `-` or newlines), dictionary words, edge-case
//! numbers, non-UTF-8 bytes and splices of two seeds.
//!
//! Key invariant: everything is a pure function of the [`Rng`] state, so a run is repeatable
//! from its seed, and an output is never longer than [`MAX_LEN`] bytes.

pub use plies::rng::SplitMix64 as Rng;

/// The longest input a mutation produces.
pub const MAX_LEN: usize = 4096;

/// Numbers at the edges of the integer types and of the games' ranges.
pub const EDGE_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "8",
    "11",
    "13",
    "19",
    "31",
    "32",
    "64",
    "96",
    "127",
    "128",
    "255",
    "256",
    "999",
    "1000",
    "65535",
    "65536",
    "2147483647",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "1e9",
    "NaN",
    "inf",
    "-0",
    "+5",
    "0x10",
];

/// Odd text: empty, spaces, control characters, multi-byte characters.
pub const ODD_TEXT: &[&str] = &[
    "", " ", "\t", "\n", "\r\n", "\0", "é", "ß", "💥", "\u{202e}", "\u{ffff}", "ＫＱ", "--", "-",
    ":", "/", ",", "|", "x", "*",
];

/// Bytes that are not valid UTF-8 on their own.
pub const BAD_UTF8: &[&[u8]] = &[b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\x80\x80"];

/// A random element of `items`.
pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// Whether a byte separates tokens.
fn is_separator(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b'/' | b',' | b'|' | b'-' | b':' | b'.'
    )
}

/// The token spans (start, end) of `input`: maximal runs of non-separator bytes.
fn tokens(input: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &b) in input.iter().enumerate() {
        match (is_separator(b), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, input.len()));
    }
    spans
}

/// A mutant of `seed`: one to four edits drawn from `dictionary` (words that mean something to
/// the parser under test), the edge numbers, odd text, bad UTF-8 and splices with `others`.
pub fn mutate(rng: &mut Rng, seed: &[u8], dictionary: &[&str], others: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seed.to_vec();
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        edit(rng, &mut data, dictionary, others);
    }
    data.truncate(MAX_LEN);
    data
}

/// One edit of `data`.
fn edit(rng: &mut Rng, data: &mut Vec<u8>, dictionary: &[&str], others: &[Vec<u8>]) {
    let spans = tokens(data);
    let word = |rng: &mut Rng| -> Vec<u8> {
        match rng.below(4) {
            0 if !dictionary.is_empty() => pick(rng, dictionary).as_bytes().to_vec(),
            1 => pick(rng, EDGE_NUMBERS).as_bytes().to_vec(),
            2 => pick(rng, ODD_TEXT).as_bytes().to_vec(),
            _ => pick(rng, BAD_UTF8).to_vec(),
        }
    };
    match rng.below(12) {
        // Flip, set or insert a byte.
        0 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] ^= 1 << rng.below(8);
        }
        1 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] = rng.next_u64() as u8;
        }
        2 => {
            let i = rng.below(data.len() + 1);
            data.insert(i, rng.next_u64() as u8);
        }
        // Delete or duplicate a range.
        3 if !data.is_empty() => {
            let i = rng.below(data.len());
            let n = 1 + rng.below((data.len() - i).min(16));
            data.drain(i..i + n);
        }
        4 if !data.is_empty() => {
            let i = rng.below(data.len());
            let n = 1 + rng.below((data.len() - i).min(64));
            let copy: Vec<u8> = data[i..i + n].to_vec();
            let at = rng.below(data.len() + 1);
            data.splice(at..at, copy);
        }
        // Replace a token with a word, delete a token, duplicate a token, swap two tokens.
        5 | 6 if !spans.is_empty() => {
            let (s, e) = *pick(rng, &spans);
            let w = word(rng);
            data.splice(s..e, w);
        }
        7 if !spans.is_empty() => {
            let (s, e) = *pick(rng, &spans);
            data.drain(s..e);
        }
        8 if !spans.is_empty() => {
            let (s, e) = *pick(rng, &spans);
            let copy: Vec<u8> = data[s..e].to_vec();
            data.splice(e..e, copy);
        }
        9 if spans.len() >= 2 => {
            let a = rng.below(spans.len());
            let b = rng.below(spans.len());
            let (first, second) = (spans[a.min(b)], spans[a.max(b)]);
            if first != second {
                let x: Vec<u8> = data[first.0..first.1].to_vec();
                let y: Vec<u8> = data[second.0..second.1].to_vec();
                data.splice(second.0..second.1, x);
                data.splice(first.0..first.1, y);
            }
        }
        // Splice: our head with another seed's tail.
        10 if !others.is_empty() => {
            let other = pick(rng, others);
            let cut = rng.below(data.len() + 1);
            let from = rng.below(other.len() + 1);
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        // Insert a word at a random place; or truncate.
        11 => {
            let i = rng.below(data.len() + 1);
            let w = word(rng);
            data.splice(i..i, w);
        }
        _ => {
            let keep = rng.below(data.len() + 1);
            data.truncate(keep);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_separators() {
        let t = tokens(b"ab cd/e,,f");
        assert_eq!(t, vec![(0, 2), (3, 5), (6, 7), (9, 10)]);
    }

    /// Same seed, same mutants; mutants differ from the seed and stay under the cap.
    #[test]
    fn mutation_is_repeatable_and_bounded() {
        let seed = b"h1-h3 f8-i8 f10-i10".to_vec();
        let run = |s: u64| -> Vec<Vec<u8>> {
            let mut rng = Rng::new(s);
            (0..200)
                .map(|_| mutate(&mut rng, &seed, &["x"], std::slice::from_ref(&seed)))
                .collect()
        };
        assert_eq!(run(7), run(7));
        let mutants = run(7);
        assert!(mutants.iter().filter(|m| **m != seed).count() > 150);
        assert!(mutants.iter().all(|m| m.len() <= MAX_LEN));
        assert!(mutants.iter().any(|m| std::str::from_utf8(m).is_err()));
    }
}
