//! What a game's benchmark is made of: the recorded node-count signatures, the positions to
//! prove and the depth ladder. The data lives here, beside the harness, so a game crate can
//! declare its benchmark without depending on the command line; `plies-cli`'s `bench` command
//! runs it.
//!
//! Key invariant: a signature is the total of positions made by one-thread, fixed-depth searches
//! (deterministic), so a mismatch means the search changed, never noise.

/// The total node count of the game's bench positions searched to `depth` (iterations
/// `1..=depth`, one fresh searcher each): the quick bench at that depth, and the ladder at that
/// rung, must both give it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchSignature {
    /// The search depth.
    pub depth: u32,
    /// The expected total of positions made.
    pub nodes: u64,
}

/// A position the whole benchmark searches until its score is a proven win or loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchProof {
    /// The position, in the game's notation.
    pub position: &'static str,
    /// The deepest iteration tried; a position not proven by then is reported as such.
    pub max_depth: u32,
    /// The expected positions made up to the proving iteration (`None`: not recorded, not
    /// checked).
    pub nodes: Option<u64>,
}

impl BenchProof {
    /// A proof search of `position` up to `max_depth`, without a recorded node count.
    #[must_use]
    pub const fn new(position: &'static str, max_depth: u32) -> BenchProof {
        BenchProof {
            position,
            max_depth,
            nodes: None,
        }
    }

    /// The same with its expected node count.
    #[must_use]
    pub const fn nodes(self, nodes: u64) -> BenchProof {
        BenchProof {
            nodes: Some(nodes),
            ..self
        }
    }
}

/// What a game's benchmark holds beyond the quick bench of `GameCli` (in `plies-cli`): the depth ladder, the
/// proof positions and the recorded signatures. Built with [`BenchSuite::new`] and the builder
/// methods (all `const`), and set as `GameCli::bench` (in `plies-cli`); the default is the empty
/// suite (no ladder beyond the bench depth, no proofs, nothing checked).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchSuite {
    /// The depths `bench --full` reports for every bench position (ascending).
    pub ladder: &'static [u32],
    /// The positions `bench --full` searches to their proven result.
    pub proofs: &'static [BenchProof],
    /// The recorded totals per depth.
    pub signatures: &'static [BenchSignature],
}

impl BenchSuite {
    /// The empty suite.
    #[must_use]
    pub const fn new() -> BenchSuite {
        BenchSuite {
            ladder: &[],
            proofs: &[],
            signatures: &[],
        }
    }

    /// With the depth ladder `depths` (ascending).
    #[must_use]
    pub const fn ladder(self, depths: &'static [u32]) -> BenchSuite {
        BenchSuite {
            ladder: depths,
            ..self
        }
    }

    /// With the proof positions `proofs`.
    #[must_use]
    pub const fn proofs(self, proofs: &'static [BenchProof]) -> BenchSuite {
        BenchSuite { proofs, ..self }
    }

    /// With the recorded totals `signatures`.
    #[must_use]
    pub const fn signatures(self, signatures: &'static [BenchSignature]) -> BenchSuite {
        BenchSuite { signatures, ..self }
    }

    /// The recorded total for `depth`, if any.
    #[must_use]
    pub fn signature(&self, depth: u32) -> Option<u64> {
        self.signatures
            .iter()
            .find(|s| s.depth == depth)
            .map(|s| s.nodes)
    }
}
