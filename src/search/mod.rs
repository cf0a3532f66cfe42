//! Skill search: a ranked search over skill names, descriptions (every locale) and the words of
//! each body's opening, for catalogs too large for any budget. [`SearchIndex`] is BM25 over
//! posting lists with the name weighted above the description and the description above the
//! body; [`tokenize`] reads English, code identifiers and CJK text alike; names
//! and the words of names are found through typos ([`fuzzy`]). The registry builds the index at
//! discovery, rebuilds it when a refresh changes anything, and keeps it in its snapshots
//! ([`encode`]), so a cold start begins with it.

mod build;
pub mod encode;
mod evidence;
mod format;
pub mod fuzzy;
mod index;
mod tally;
mod tokenize;
mod topk;
mod varint;

pub use build::{BodyEvidence, SearchDoc, BODY_WEIGHT, DESCRIPTION_WEIGHT, NAME_WEIGHT};
pub use evidence::{body_words, BODY_WORDS_BYTES};
pub use index::{SearchIndex, MAX_QUERY_CHARS, MAX_QUERY_TERMS};
pub use tokenize::{is_cjk, stem, terms, tokenize, MAX_TERM_BYTES};
pub use topk::TopK;

use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// Results a search returns at most, whatever the caller asks.
pub const MAX_SEARCH_LIMIT: u32 = 100;
/// Results a search returns when the caller does not say (`limit`).
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;

/// What a search is asked for besides the query.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SearchOptions {
    /// Results at most (default 10, at most 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub limit: Option<u32>,
    /// Only skills of this scope (`project`, `user` ... or one the host names).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub scope: Option<String>,
}

impl SearchOptions {
    /// The limit to use: the one asked for, within 1..=[`MAX_SEARCH_LIMIT`].
    pub fn limit(&self) -> usize {
        self.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).clamp(1, MAX_SEARCH_LIMIT) as usize
    }
}

/// One skill a search found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// The skill's name (what the skill tool takes).
    pub name: String,
    /// Its description (in the configured locale when it has one).
    pub description: String,
    /// The scope it comes from.
    pub scope: String,
    /// Where its SKILL.md is, as the model is shown it.
    pub location: String,
    /// The BM25 score (higher is better; comparable only within one search).
    pub score: f32,
}

#[cfg(test)]
mod tests;
