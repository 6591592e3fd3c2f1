//! One stored analysis ([`Analysis`]): its key (game, variant, position, searcher family), what
//! the search found, and who searched it; as a row of the store and as one JSON line of
//! `store export` / `store import` ([`AnalysisLine`]).
//!
//! Key invariant: an [`Analysis`] holds only valid values (a depth of at least 1, a score in
//! the range of its kind, text of the game's own notation): [`AnalysisLine::check`] is the
//! one way in from outside, and it names what is wrong.

use serde::{Deserialize, Serialize};

use plies::{Notation, Score};

/// The deepest depth a stored analysis may claim (a score records at most this many plies).
pub(crate) const MAX_DEPTH: u32 = Score::MAX_PLY;

/// One analysis of one position, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Analysis {
    /// The game's name (the program's name: `kalah`).
    pub game: String,
    /// The rules or variant the position is played under; the game's name for a game without
    /// variants (a game whose variants change the rules, such as tafl, writes them into the
    /// position text itself).
    pub variant: String,
    /// The position in the game's own notation, as the game writes it (so one position has one
    /// text).
    pub position: String,
    /// The searcher family (`pvs`, `alphabeta`, `minimax`), with the evaluator preset when it
    /// is not the game's default (`pvs eval=NAME`): one analysis is kept per family.
    pub family: String,
    /// The depth of the last completed iteration, at least 1.
    pub depth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// The best move, in the game's notation.
    pub best: String,
    /// The principal variation, moves in the game's notation separated by spaces.
    pub pv: String,
    /// The positions searched.
    pub nodes: u64,
    /// The engine: the program's name.
    pub engine: String,
    /// The engine's version (plies-cli's).
    pub version: String,
    /// The searcher as it was set (`pvs:threads=2`).
    pub searcher: String,
    /// When it was written: milliseconds since the Unix epoch.
    pub written: i64,
}

/// Whether a stored score is the position's value or a bound on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value (a completed iteration's root score).
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

impl Bound {
    /// The word stored and exported.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        }
    }

    /// The bound a word names.
    pub(crate) fn parse(text: &str) -> Option<Bound> {
        match text {
            "exact" => Some(Bound::Exact),
            "lower" => Some(Bound::Lower),
            "upper" => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// A score's kind and number as stored: `("cp", centipawns)`, `("win_in", plies)` or
/// `("loss_in", plies)`.
pub(crate) fn score_parts(score: Score) -> (&'static str, i64) {
    match score.plies_to_end() {
        Some(plies) if score.is_win() => ("win_in", i64::from(plies)),
        Some(plies) => ("loss_in", i64::from(plies)),
        None => ("cp", i64::from(score.raw())),
    }
}

/// The score of a stored kind and number, or `None` when they are not one (an unknown kind, a
/// number out of the kind's range).
pub(crate) fn score_of(kind: &str, value: i64) -> Option<Score> {
    let max_eval = i64::from(Score::MAX_EVAL.raw());
    let plies = || u32::try_from(value).ok().filter(|&p| p <= Score::MAX_PLY);
    match kind {
        "cp" if (-max_eval..=max_eval).contains(&value) => Some(Score::cp(value as i32)),
        "win_in" => plies().map(Score::win_in),
        "loss_in" => plies().map(Score::loss_in),
        _ => None,
    }
}

/// An analysis as one JSON line of `store export` and `store import`: the row's columns, the
/// score as analyze's JSON writes it (`{"cp": 12}`, `{"win_in": 5}`, `{"loss_in": 4}`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalysisLine {
    /// [`Analysis::game`].
    pub game: String,
    /// [`Analysis::variant`].
    pub variant: String,
    /// [`Analysis::position`].
    pub position: String,
    /// [`Analysis::family`].
    pub family: String,
    /// [`Analysis::depth`].
    pub depth: u32,
    /// [`Analysis::score`]: one key, `cp`, `win_in` or `loss_in`.
    pub score: std::collections::BTreeMap<String, i64>,
    /// [`Analysis::bound`]: `exact`, `lower` or `upper`.
    pub bound: String,
    /// [`Analysis::best`].
    pub best: String,
    /// [`Analysis::pv`].
    pub pv: String,
    /// [`Analysis::nodes`].
    pub nodes: u64,
    /// [`Analysis::engine`].
    pub engine: String,
    /// [`Analysis::version`].
    pub version: String,
    /// [`Analysis::searcher`].
    pub searcher: String,
    /// [`Analysis::written`].
    pub written: i64,
}

impl From<&Analysis> for AnalysisLine {
    fn from(analysis: &Analysis) -> AnalysisLine {
        let (kind, value) = score_parts(analysis.score);
        AnalysisLine {
            game: analysis.game.clone(),
            variant: analysis.variant.clone(),
            position: analysis.position.clone(),
            family: analysis.family.clone(),
            depth: analysis.depth,
            score: std::iter::once((kind.to_string(), value)).collect(),
            bound: analysis.bound.as_str().to_string(),
            best: analysis.best.clone(),
            pv: analysis.pv.clone(),
            nodes: analysis.nodes,
            engine: analysis.engine.clone(),
            version: analysis.version.clone(),
            searcher: analysis.searcher.clone(),
            written: analysis.written,
        }
    }
}

impl AnalysisLine {
    /// The analysis this line describes, checked against the game `G` called `game`: the line
    /// is of that game, its position parses and is not over, its best move is legal there and
    /// its PV is a legal line starting with it; the position is stored as the game writes it.
    /// The error says what is wrong (the caller adds where).
    pub(crate) fn check<G: Notation>(self, game: &str) -> Result<Analysis, String> {
        if self.game != game {
            return Err(format!(
                "the analysis is of the game '{}', not {game}",
                self.game
            ));
        }
        for (name, text) in [
            ("variant", &self.variant),
            ("family", &self.family),
            ("engine", &self.engine),
            ("version", &self.version),
            ("searcher", &self.searcher),
        ] {
            if text.trim().is_empty() {
                return Err(format!("{name} is empty"));
            }
        }
        let state = G::parse_position(&self.position).map_err(|e| format!("position: {e}"))?;
        if state.outcome().is_some() {
            return Err("position: the game is over there".to_string());
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(format!("depth {}: expected 1 to {MAX_DEPTH}", self.depth));
        }
        let score = match self.score.iter().next() {
            Some((kind, &value)) if self.score.len() == 1 => score_of(kind, value)
                .ok_or_else(|| format!("score {{\"{kind}\": {value}}}: out of range"))?,
            _ => {
                return Err(
                    "score: expected one of {\"cp\": N}, {\"win_in\": N}, {\"loss_in\": N}"
                        .to_string(),
                );
            }
        };
        let bound = Bound::parse(&self.bound).ok_or_else(|| {
            format!(
                "bound '{}': expected exact, lower or upper",
                plies::excerpt(&self.bound)
            )
        })?;
        let best = state
            .parse_move(&self.best)
            .map_err(|e| format!("best: {e}"))?;
        let pv = state.parse_line(&self.pv).map_err(|e| format!("pv: {e}"))?;
        if pv.first().is_some_and(|&first| first != best) {
            return Err("pv: its first move is not the best move".to_string());
        }
        if i64::try_from(self.nodes).is_err() {
            return Err(format!("nodes {}: too large", self.nodes));
        }
        Ok(Analysis {
            game: self.game,
            variant: self.variant,
            position: state.format_position(),
            family: self.family,
            depth: self.depth,
            score,
            bound,
            best: state.format_move(best),
            pv: state.format_line(&pv),
            nodes: self.nodes,
            engine: self.engine,
            version: self.version,
            searcher: self.searcher,
            written: self.written,
        })
    }
}
