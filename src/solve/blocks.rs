//! Blocks of position numbers, the unit the solvers track changes in: what the open positions of
//! a block were seen to move into (other blocks, and outside values of known distance), so that
//! a pass can skip a block nothing it depends on has changed for.
//!
//! Key invariant: a block's [`Links`] name every block that a move of one of its positions that
//! was still open after the solver's first pass leads into, and every pass in which an outside
//! value seen from such a position can first decide it; or they are `None` (too many to list),
//! and then the block is looked at in every pass.

use std::sync::atomic::{AtomicU32, Ordering};

/// Positions per block.
pub(super) const BLOCK: u64 = 1 << 12;
/// A block whose moves lead into more blocks than this (or whose outside values wake it in more
/// passes) is not tracked: it is looked at in every pass.
const MAX_LINKS: usize = 64;

/// What a block's links are being gathered from, by the one thread that looks at it in the
/// first pass.
#[derive(Default)]
pub(super) struct Notes {
    targets: Vec<u32>,
    wakes: Vec<u32>,
    many: bool,
}

impl Notes {
    /// A move of an open position leads into position `index` of the set.
    pub(super) fn target(&mut self, index: u64) {
        let block = (index / BLOCK) as u32;
        if !self.many && self.targets.last() != Some(&block) {
            self.targets.push(block);
            self.many = crowded(&mut self.targets);
        }
    }

    /// An outside value seen from an open position can first decide it in pass `pass`.
    pub(super) fn wake(&mut self, pass: u32) {
        if !self.many && self.wakes.last() != Some(&pass) {
            self.wakes.push(pass);
            self.many = crowded(&mut self.wakes);
        }
    }

    /// The block's links, or `None` when they are too many to list.
    pub(super) fn finish(mut self) -> Option<Links> {
        if self.many {
            return None;
        }
        for list in [&mut self.targets, &mut self.wakes] {
            list.sort_unstable();
            list.dedup();
            if list.len() > MAX_LINKS {
                return None;
            }
        }
        Some(Links {
            targets: self.targets.into_boxed_slice(),
            wakes: self.wakes.into_boxed_slice(),
        })
    }
}

/// Sorts and dedups a list grown past twice [`MAX_LINKS`]; whether it then holds too many.
fn crowded(list: &mut Vec<u32>) -> bool {
    if list.len() <= 2 * MAX_LINKS {
        return false;
    }
    list.sort_unstable();
    list.dedup();
    list.len() > MAX_LINKS
}

/// The blocks a block's open positions move into, and the passes outside values wake it in.
pub(super) struct Links {
    /// Sorted, each once.
    targets: Box<[u32]>,
    /// Sorted, each once.
    wakes: Box<[u32]>,
}

impl Links {
    /// Whether a block it leads into changed in pass `since` or later (`changed`: per block,
    /// the last pass that decided one of its positions).
    pub(super) fn changed_since(&self, changed: &[AtomicU32], since: u32) -> bool {
        self.targets
            .iter()
            .any(|&t| changed[t as usize].load(Ordering::Relaxed) >= since)
    }

    /// Whether an outside value can first decide one of its positions in pass `pass`.
    pub(super) fn wakes_in(&self, pass: u32) -> bool {
        self.wakes.binary_search(&pass).is_ok()
    }
}
