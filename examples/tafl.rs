//! The tafl bot: perft, analysis, terminal play and bench through the generic command line
//! (any variant via `--variant NAME` or `--rules "<OTN rules string>"`), an OTEP engine for
//! OpenTafl, and an OTEP referee.
//!
//! ```sh
//! cargo run --release --example tafl -- perft --variant brandub --depth 4
//! cargo run --release --example tafl -- analyze --variant copenhagen --time 10000
//! cargo run --release --example tafl -- perft --rules "dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/" --depth 3
//! cargo run --release --example tafl -- play --variant tablut --human second --time 1000
//! cargo run --release --example tafl -- bench
//! cargo run --release --example tafl -- speed --variant copenhagen --time 10000
//! cargo run --release --example tafl -- --eval classic analyze --variant brandub --depth 6
//! cargo run --release --example tafl -- eval-arena --variant brandub -e full -e material \
//!     --games 100 --depth 4
//! cargo run --release --example tafl -- otep [--move-time MS] [--max-time MS]
//! cargo run --release --example tafl -- referee --engine "target/release/examples/tafl otep" \
//!     --engine "target/release/examples/tafl otep" --variant brandub --games 2 --move-time 1000 --out referee-out
//! ```
//!
//! Every command that takes `--position` also takes `--variant NAME` or `--rules TEXT` (its
//! start position; the tafl position text accepts both, see `plies_tafl::notation`); with
//! `--position /record/` as well, the record is the board under that variant (`--side a|d`
//! the side to move, default `a`). `--eval NAME` (before or after the command) picks the
//! evaluator preset (`material`, `distance`, `classic`, `pst`, `full`, `brandub`; default
//! `full`). All of it is declared through `GameCli` (position options, presets, commands), so
//! `--help` shows it and clap reports its errors. `speed` is
//! the issue's bench: the full searcher from a start position for a fixed time, reporting the
//! depth completed, nodes, nodes/s of wall time and of process CPU time (the machine may be
//! shared). `eval-arena` plays evaluator presets against each other with the full searcher.
//! Key invariant: the bench positions and depth fix the bench signature; change them only on
//! purpose.

use std::process::ExitCode;

fn main() -> ExitCode {
    plies_cli::main(plies_tafl_cli::tafl_cli())
}
