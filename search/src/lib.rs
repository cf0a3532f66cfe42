//! Skill search: a ranked search over skill names, descriptions (every locale) and the words of
//! each body's opening, for catalogs too large for any budget. [`SearchIndex`] is BM25 over
//! posting lists with the name weighted above the description and the description above the
//! body; [`tokenize`] reads English, code identifiers and CJK text alike; names
//! and the words of names are found through typos ([`fuzzy`]). The registry builds the index at
//! the end of a discovery (and after a refresh that changed anything, at the next search), from
//! the words discovery kept, and keeps it in its snapshots ([`encode`]), so a cold start begins
//! with it.
//!
//! A crate of its own so that the package builds it for speed while it builds most of the engine
//! for size (see the profiles in the workspace's Cargo.toml); the core re-exports it as `search`.

#![warn(missing_docs)]

mod build;
pub mod encode;
mod format;
pub mod fuzzy;
mod index;
mod tally;
mod tokenize;
mod topk;
mod varint;

pub use build::{BodyEvidence, SearchDoc, BODY_WEIGHT, DESCRIPTION_WEIGHT, NAME_WEIGHT};
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
    /// Where the query's words were found: in the name, the description, or (neither holding any)
    /// the words of the body's opening. Empty for a hit that is no search's (the nearest names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matched: Vec<MatchedField>,
}

/// A part of a skill a search found the query's words in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum MatchedField {
    /// The skill's name.
    Name,
    /// A description (any locale).
    Description,
    /// The words of the body's opening.
    Body,
}

impl MatchedField {
    /// The field's name as the tool's answer gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedField::Name => "name",
            MatchedField::Description => "description",
            MatchedField::Body => "body",
        }
    }
}

/// Where the terms `words` (a search's, [`SearchIndex::query_words`]) are found in a hit named
/// `name` with `descriptions`: the name and the descriptions when they hold any; the body when
/// neither does (the hit scored, so its body's words held one). Only a name matched as a whole
/// (a typo of it) scores with no words: that is the name.
pub fn matched_fields<'a>(
    words: &std::collections::HashSet<String>,
    name: &str,
    descriptions: impl IntoIterator<Item = &'a str>,
) -> Vec<MatchedField> {
    if words.is_empty() {
        return vec![MatchedField::Name];
    }
    let mut buf = Vec::new();
    tokenize(name, &mut buf);
    let in_name = buf.iter().any(|t| words.contains(t));
    buf.clear();
    for d in descriptions {
        tokenize(d, &mut buf);
    }
    let in_description = buf.iter().any(|t| words.contains(t));
    let mut out = Vec::with_capacity(2);
    if in_name {
        out.push(MatchedField::Name);
    }
    if in_description {
        out.push(MatchedField::Description);
    }
    if out.is_empty() {
        out.push(MatchedField::Body);
    }
    out
}

#[cfg(test)]
mod build_tests;
#[cfg(test)]
mod tests;
