//! Large vectors of atomics, all zero at the start, for the tables that fill much of a machine's
//! memory (transposition tables, endgame table builders): the operating system maps their pages
//! lazily, so memory is used only where an element is written, and on Linux a large vector asks
//! for transparent huge pages, so its random reads miss the address cache (TLB) far less often.
//!
//! Key invariant: [`zeroed_vec`] returns an ordinary `Vec` (freed as any other) whose elements
//! are all zero, and a request the system refuses is an [`AllocError`], never an abort.

use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

/// Element types whose all-zero bytes are a valid value (0): the atomics a table holds.
pub trait Zeroed: sealed::Sealed + Sized {}

mod sealed {
    /// Only the atomics below are [`super::Zeroed`].
    pub trait Sealed {}
}

macro_rules! zeroed {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Zeroed for $t {}
    )*};
}
zeroed!(AtomicU8, AtomicU32, AtomicU64);

/// The system refused an array: how many bytes it was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes asked for.
    pub bytes: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate {} MB: not enough memory",
            self.bytes.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for AllocError {}

/// Arrays from this size on ask for huge pages (one huge page is 2 MB on x86-64 and arm64).
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

/// A vector of `len` zero elements of `T` (its length and capacity `len`), from one zeroed
/// allocation the system maps lazily; on Linux, one of 2 MB or more asks for transparent huge
/// pages before any of it is touched. A request the system refuses is an error.
pub fn zeroed_vec<T: Zeroed>(len: usize) -> Result<Vec<T>, AllocError> {
    let refused = AllocError {
        bytes: len.saturating_mul(size_of::<T>()),
    };
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| refused)?;
    // SAFETY: the layout has a non-zero size; the pointer is checked for null below.
    let memory = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if memory.is_null() {
        return Err(refused);
    }
    #[cfg(target_os = "linux")]
    advise_huge(memory.cast(), layout.size());
    // SAFETY: `memory` was allocated by the global allocator with the layout of `len` elements
    // of `T` (what a vector of capacity `len` frees with), and holds `len` of them: all-zero
    // bytes, a valid `T` (see [`Zeroed`]).
    Ok(unsafe { Vec::from_raw_parts(memory, len, len) })
}

/// Asks for huge pages for the whole 2 MB pages inside `bytes` from `start` (advice only:
/// where the system has them off, or for memory already touched, nothing changes).
#[cfg(target_os = "linux")]
fn advise_huge(start: *mut u8, bytes: usize) {
    let from = (start as usize).next_multiple_of(HUGE);
    let to = (start as usize + bytes) / HUGE * HUGE;
    if to > from {
        // SAFETY: `from..to` lies inside the allocation of `bytes` at `start`, which this
        // process owns; the advice changes how its pages are backed, never their contents.
        let _ = unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn small_and_large_vectors_start_at_zero_and_keep_what_is_written() {
        for len in [0, 1, 1000, (3 << 20) / 8 + 5] {
            let array = zeroed_vec::<AtomicU64>(len).unwrap();
            assert_eq!((array.len(), array.capacity()), (len, len));
            assert!(array.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            for (i, x) in array.iter().enumerate().step_by(997) {
                x.store(i as u64 + 1, Ordering::Relaxed);
            }
            for (i, x) in array.iter().enumerate() {
                let expected = if i % 997 == 0 { i as u64 + 1 } else { 0 };
                assert_eq!(x.load(Ordering::Relaxed), expected);
            }
            let plain: Vec<u64> = array.into_iter().map(AtomicU64::into_inner).collect();
            assert_eq!(plain.iter().filter(|&&x| x != 0).count(), len.div_ceil(997));
        }
        let bytes = zeroed_vec::<AtomicU8>(5 << 20).unwrap();
        bytes[(5 << 20) - 1].store(7, Ordering::Relaxed);
        let sum: u64 = bytes
            .iter()
            .map(|x| u64::from(x.load(Ordering::Relaxed)))
            .sum();
        assert_eq!(sum, 7);
    }

    #[test]
    fn a_vector_the_system_cannot_hold_is_an_error() {
        let err = zeroed_vec::<AtomicU64>(usize::MAX / 8).unwrap_err();
        assert_eq!(err.bytes, usize::MAX / 8 * 8);
        assert!(err.to_string().starts_with("cannot allocate "), "{err}");
    }
}
