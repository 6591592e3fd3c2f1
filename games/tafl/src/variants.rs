//! The built-in variants: OpenTafl's own rules strings (docs/rules/tafl.md), Brandubh
//! "federation" and Copenhagen with the official repetition rule.
//!
//! Key invariant: the strings are OpenTafl's verbatim (our extensions only add keys OpenTafl
//! ignores), so perft numbers computed by OpenTafl apply to them.

use std::sync::OnceLock;

use plies::{NotationError, Side};

use crate::rules::{Rules, intern};
use crate::state::Tafl;

const COPENHAGEN_LAYOUT: &str =
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// A built-in variant: its lookup name and OTN rules string.
#[derive(Copy, Clone, Debug)]
pub struct Variant {
    /// Lookup name (lowercase, `_` between words).
    pub name: &'static str,
    /// The OTN rules string.
    pub rules: &'static str,
}

/// Every built-in variant.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "brandub",
        rules: "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    },
    Variant {
        name: "brandubh_federation",
        rules: "dim:7 name:Brandubh_Federation surf:n atkf:y ks:c tfr:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    },
    Variant {
        name: "tablut",
        rules: "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        name: "copenhagen",
        rules: "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Variant {
        name: "copenhagen_official",
        rules: "dim:11 name:Copenhagen_Official atkf:y tfr:w tfrd:y sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Variant {
        name: "fetlar",
        rules: "dim:11 name:Fetlar atkf:y nj:n cj:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Variant {
        name: "sea_battle",
        rules: "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        name: "tawlbwrdd",
        rules: "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    },
    Variant {
        name: "alea_evangelii",
        rules: "dim:19 name:Alea_Evangelii atkf:y tfr:w cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/",
    },
];

/// The Copenhagen start layout (shared by Copenhagen and Fetlar).
pub const COPENHAGEN_START: &str = COPENHAGEN_LAYOUT;

fn normalise(name: &str) -> String {
    name.trim()
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c == '-' || c == ' ' { '_' } else { c })
        .collect()
}

/// The built-in variant called `name` (any case; `-`, `_` or space between words; `brandubh`
/// is accepted for `brandub`).
#[must_use]
pub fn variant(name: &str) -> Option<&'static Variant> {
    let wanted = normalise(name);
    let wanted = if wanted == "brandubh" {
        "brandub".to_string()
    } else {
        wanted
    };
    VARIANTS.iter().find(|v| v.name == wanted)
}

/// The start position of an OTN rules string; the side to move follows `atkf`.
pub fn from_rules(text: &str) -> Result<Tafl, NotationError> {
    let (rules, board) = Rules::parse(text)?;
    let side = if rules.attackers_first {
        Side::First
    } else {
        Side::Second
    };
    Ok(Tafl::new(intern(rules), board, side))
}

/// The start position of the built-in variant `name`, or an error listing the known names.
pub fn start_of(name: &str) -> Result<Tafl, NotationError> {
    let v = variant(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        NotationError::new(
            name,
            format!("unknown variant; known: {}", names.join(", ")),
        )
    })?;
    from_rules(v.rules)
}

/// Every built-in variant with its start position, in the order of [`VARIANTS`] (read once).
#[must_use]
pub fn variant_starts() -> &'static [(&'static Variant, Tafl)] {
    static STARTS: OnceLock<Vec<(&'static Variant, Tafl)>> = OnceLock::new();
    STARTS.get_or_init(|| {
        VARIANTS
            .iter()
            .filter_map(|v| from_rules(v.rules).ok().map(|start| (v, start)))
            .collect()
    })
}

/// The built-in variant whose rules `rules` are (every rule and the name equal), if any: the
/// variant a position is played under, whatever its board.
#[must_use]
pub fn variant_of_rules(rules: &Rules) -> Option<&'static Variant> {
    variant_starts()
        .iter()
        .find(|(_, start)| std::ptr::eq(start.rules(), rules) || *start.rules() == *rules)
        .map(|&(v, _)| v)
}
