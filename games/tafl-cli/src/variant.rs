//! Choosing a tafl position on the command line: a built-in variant or an OTN rules string
//! ([`VariantArgs`]), and the options every generic command that takes `--position` gets
//! ([`TaflPositions`]: `--variant`, `--rules`, `--side`).
//!
//! Key invariant: a variant name is checked by clap against the built-in list, so a bad one
//! is a usage error naming the known ones.

use clap::{Args, FromArgMatches};
use plies::Notation;
use plies_cli::{CliError, PositionOptions};
use plies_tafl::{Tafl, VARIANTS, start_of, variant};

/// The canonical name of the built-in variant `text`, or an error listing the known ones.
pub(crate) fn known_variant(text: &str) -> Result<String, String> {
    variant(text).map(|v| v.name.to_string()).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        format!("unknown variant; known: {}", names.join(", "))
    })
}

/// A variant: a built-in one or an OTN rules string.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct VariantArgs {
    /// A built-in variant (copenhagen, brandub, tablut, ...): its start position.
    #[arg(long, value_name = "NAME", value_parser = known_variant, conflicts_with = "rules")]
    variant: Option<String>,
    /// An OTN rules string ("dim:7 ks:w ... start:/.../"): its start position.
    #[arg(long, value_name = "OTN")]
    rules: Option<String>,
}

impl VariantArgs {
    /// The start position chosen, `fallback` (a variant) when none is.
    pub(crate) fn start(&self, fallback: &str) -> Result<Tafl, CliError> {
        match (&self.variant, &self.rules) {
            (_, Some(rules)) => Tafl::parse_position(rules)
                .map_err(|e| CliError::Invalid(format!("bad --rules: {e}"))),
            (Some(name), None) => {
                start_of(name).map_err(|e| CliError::Invalid(format!("bad --variant: {e}")))
            }
            (None, None) => {
                start_of(fallback).map_err(|e| CliError::Invalid(format!("bad variant: {e}")))
            }
        }
    }
}

/// The tafl options of every command that takes `--position`.
#[derive(Args, Debug)]
struct TaflPositionArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// With `--position /record/`: the side to move, a (attackers, the default) or d.
    #[arg(long, value_name = "a|d")]
    side: Option<String>,
}

/// `--variant`, `--rules` and `--side` on the generic commands.
pub(crate) struct TaflPositions;

impl PositionOptions for TaflPositions {
    fn args(&self) -> Vec<clap::Arg> {
        TaflPositionArgs::augment_args(clap::Command::new("tafl"))
            .get_arguments()
            .cloned()
            .collect()
    }

    fn position_text(
        &self,
        matches: &clap::ArgMatches,
        position: Option<&str>,
    ) -> Result<Option<String>, String> {
        let args = TaflPositionArgs::from_arg_matches(matches).map_err(|e| e.to_string())?;
        let VariantArgs { variant, rules } = args.variant;
        match position {
            Some(record) if record.starts_with('/') => {
                if rules.is_some() {
                    return Err("--position /record/ goes with --variant, not --rules".into());
                }
                let base = variant.unwrap_or_else(|| "copenhagen".to_string());
                let side = args.side.unwrap_or_else(|| "a".to_string());
                Ok(Some(format!("{base} {record} {side}")))
            }
            _ if args.side.is_some() => Err("--side goes with --position /record/".into()),
            Some(_) if variant.is_some() || rules.is_some() => Err(
                "--position: a whole position goes alone (with --variant, give a /record/)".into(),
            ),
            Some(text) => Ok(Some(text.to_string())),
            None => Ok(variant.or(rules)),
        }
    }
}
