//! The machine's memory and the share of it one transposition table may take: what turns a
//! `tt=`/`Hash` request the machine cannot hold into an error naming the limit, before any
//! allocation (an operating system that overcommits would grant the table and kill the process
//! once searches touch it).
//!
//! Key invariant: every searcher the application builds goes through
//! [`check_tt`] (in [`crate::engine::EvaluatorFactory::searcher`]), so no spec, option or request
//! can ask for a table larger than [`max_tt_mb`].

use plies::spec::MAX_TT_MB;

/// The machine's physical memory in bytes (Linux `/proc/meminfo`), if known: the bound a
/// command checks a large request against before allocating.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The largest transposition table one searcher may have here, in MB: half the machine's
/// physical memory (the spec's own bound, [`MAX_TT_MB`], where the memory is unknown).
pub(crate) fn max_tt_mb() -> usize {
    physical_memory().map_or(MAX_TT_MB, |bytes| {
        usize::try_from(bytes / 2 / (1 << 20))
            .unwrap_or(MAX_TT_MB)
            .clamp(1, MAX_TT_MB)
    })
}

/// Refuses a table of `megabytes` MB above [`max_tt_mb`], naming the limit.
pub(crate) fn check_tt(megabytes: usize) -> Result<(), String> {
    let max = max_tt_mb();
    if megabytes > max {
        Err(format!(
            "a transposition table of {megabytes} MB is more than this machine allows \
             ({max} MB, half its memory)"
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit is below the machine's memory, and a table past it is refused by name.
    #[test]
    fn tables_past_half_the_memory_are_refused() {
        let max = max_tt_mb();
        assert!(max >= 1);
        if let Some(bytes) = physical_memory() {
            assert!((max as u64) << 20 <= bytes / 2, "{max} MB of {bytes} bytes");
        }
        assert!(check_tt(max).is_ok());
        if max < MAX_TT_MB {
            let error = check_tt(max + 1).unwrap_err();
            assert!(error.contains(&format!("{max} MB")), "{error}");
        }
    }
}
