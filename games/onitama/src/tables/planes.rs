//! What one material's table is, as stored: distances (a byte a position, `plies::solve::Table`)
//! or win/draw/loss planes (a word a layout, from `wdl.rs`), and the planes' file format.
//!
//! A planes file is `PLIESWDL`, a version (u32), the key's length (u32) and bytes, the layout
//! count (u64), the words (u64 each), then a checksum of the words (u64); all little-endian.
//! Key invariant: a file is read only when its magic, version, key and count are those
//! expected and its checksum matches, so a damaged or foreign file is refused, never used.

use std::io::{Read, Write};

use plies::solve::{Table, TableValue};

use super::sweep::split;

/// The first bytes of a planes file.
const MAGIC: &[u8; 8] = b"PLIESWDL";
/// The format's version.
const VERSION: u32 = 1;
/// The longest key a file may hold.
const MAX_KEY: u32 = 4096;

/// One material's table.
pub(super) enum Stored {
    /// With distances.
    Distances(Table),
    /// Win/draw/loss: per layout, wins in bits 0-29 and losses in bits 32-61 (both: a hole).
    Planes(Vec<u64>),
}

impl Stored {
    /// The value of position `index` (`layout * 30 + arrangement`); `None` for a hole.
    #[inline]
    pub(super) fn value(&self, index: u64) -> Option<TableValue> {
        match self {
            Stored::Distances(table) => table.value(index),
            Stored::Planes(words) => {
                let (won, lost) = split(*words.get(usize::try_from(index / 30).ok()?)?);
                let bit = 1 << (index % 30);
                match (won & bit != 0, lost & bit != 0) {
                    (true, true) => None,
                    (true, false) => Some(TableValue::Won),
                    (false, true) => Some(TableValue::Lost),
                    (false, false) => Some(TableValue::Draw),
                }
            }
        }
    }

    /// Positions stored.
    pub(super) fn size(&self) -> u64 {
        match self {
            Stored::Distances(table) => table.size(),
            Stored::Planes(words) => words.len() as u64 * 30,
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> u64 {
        match self {
            Stored::Distances(table) => table.bytes(),
            Stored::Planes(words) => words.len() as u64 * 8,
        }
    }
}

/// The checksum of `words`: FNV-1a over the words, a word at a time.
fn checksum(words: &[u64]) -> u64 {
    words.iter().fold(0xcbf2_9ce4_8422_2325, |h, &w| {
        (h ^ w).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The size of a planes file of `key` and `layouts` words.
pub(super) fn file_size(key: &str, layouts: u64) -> u64 {
    8 + 4 + 4 + key.len() as u64 + 8 + layouts.saturating_mul(8) + 8
}

/// Writes `words` under `key`.
pub(super) fn write(key: &str, words: &[u64], out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&(key.len() as u32).to_le_bytes())?;
    out.write_all(key.as_bytes())?;
    out.write_all(&(words.len() as u64).to_le_bytes())?;
    let mut buffer = Vec::with_capacity(8 * 4096);
    for chunk in words.chunks(4096) {
        buffer.clear();
        for w in chunk {
            buffer.extend_from_slice(&w.to_le_bytes());
        }
        out.write_all(&buffer)?;
    }
    out.write_all(&checksum(words).to_le_bytes())?;
    out.flush()
}

/// Reads the planes of `key`, `layouts` words, from `input`.
///
/// # Errors
/// One line saying why the file is not good planes of that key and size.
pub(super) fn read(key: &str, layouts: u64, input: &mut dyn Read) -> Result<Vec<u64>, String> {
    let io = |e: std::io::Error| format!("cannot read it: {e}");
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic).map_err(io)?;
    if &magic != MAGIC {
        return Err("not a plies planes file".into());
    }
    let mut four = [0u8; 4];
    input.read_exact(&mut four).map_err(io)?;
    if u32::from_le_bytes(four) != VERSION {
        return Err(format!(
            "planes file version {}, expected {VERSION}",
            u32::from_le_bytes(four)
        ));
    }
    input.read_exact(&mut four).map_err(io)?;
    let length = u32::from_le_bytes(four);
    if length > MAX_KEY {
        return Err(format!("a key of {length} bytes, the most is {MAX_KEY}"));
    }
    let mut stored = vec![0u8; length as usize];
    input.read_exact(&mut stored).map_err(io)?;
    if stored != key.as_bytes() {
        return Err(format!(
            "planes of '{}', not of '{key}'",
            String::from_utf8_lossy(&stored)
        ));
    }
    let mut eight = [0u8; 8];
    input.read_exact(&mut eight).map_err(io)?;
    if u64::from_le_bytes(eight) != layouts {
        return Err(format!(
            "{} layouts, expected {layouts}",
            u64::from_le_bytes(eight)
        ));
    }
    let count = usize::try_from(layouts).map_err(|_| "too many layouts".to_string())?;
    let mut words = Vec::with_capacity(count);
    let mut buffer = vec![0u8; 8 * 4096];
    while words.len() < count {
        let take = (count - words.len()).min(4096);
        input.read_exact(&mut buffer[..take * 8]).map_err(io)?;
        words.extend(
            buffer[..take * 8]
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes"))),
        );
    }
    input.read_exact(&mut eight).map_err(io)?;
    if u64::from_le_bytes(eight) != checksum(&words) {
        return Err("damaged: the checksum does not match".into());
    }
    Ok(words)
}
