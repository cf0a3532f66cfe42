//! The catalog: what the model sees of the available skills up front (name, description and,
//! optionally, location), with the instructions that go with it. Filtering happens before
//! rendering, so a hidden skill is absent rather than listed and then refused; a size budget is
//! met deterministically and everything shortened or dropped is reported.

use crate::content::DEFAULT_TOOL_NAME;
use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

mod budget;
mod filter;
mod format;
mod guidance;
mod names;
mod render;

pub use filter::{audiences, filter, localized_description, Audience, Audiences, FilterItem, Verdict};
pub use format::{instructions, to_prompt};
pub use guidance::{search_guidance, search_instructions, with_pending_note, with_search_note};
pub use names::NameList;
pub use render::{names_overflow, render_catalog, render_shown, ShownSkill};

/// One skill as the catalog shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
pub struct CatalogEntry {
    /// The skill's name.
    pub name: String,
    /// The skill's description.
    pub description: String,
    /// Where the skill's SKILL.md is, as the model should be told.
    pub location: String,
}

/// How the catalog is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum CatalogFormat {
    /// `<available_skills>` with one `<skill>` per line (the client guide's layout, compact).
    #[default]
    Xml,
    /// The reference implementation's `to-prompt` layout: one tag or value per line.
    Reference,
    /// A JSON array of `{ name, description, location? }`.
    Json,
    /// A Markdown bullet list.
    Markdown,
}

/// How the model loads a skill, which decides the instructions that go with the catalog.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum ActivationStyle {
    /// The model calls the skill tool.
    #[default]
    Tool,
    /// The model reads SKILL.md files itself (it has a file-reading tool).
    Read,
}

/// The tiers models are ranked in when none are given, lowest first.
pub const DEFAULT_TIERS: [&str; 4] = ["lite", "standard", "pro", "ultra"];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
/// What the catalog shows, how it is written, and how big it may be.
pub struct CatalogOptions {
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// How the catalog is written (default `xml`).
    pub format: CatalogFormat,
    /// Show each skill's location (leave it out when the skill tool returns the directory).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub include_location: bool,
    /// `zh`, `zh-CN` ...: `description_zh` is shown where a skill has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub locale: Option<String>,
    /// Names the host has switched off.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub disabled: Vec<String>,
    /// The tier of the model the catalog is for; skills whose `min_tier` is higher are hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub model_tier: Option<String>,
    /// Tier names, lowest first (default: lite, standard, pro, ultra).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tiers: Option<Vec<String>>,
    /// The host's version, checked against `compatibility` values that are version ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub host_version: Option<String>,
    /// The agent the catalog is for: a skill that lists `agents` (in `metadata`) is offered only
    /// to the agents it names; a skill without the list, to every agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub agent: Option<String>,
    /// The most characters the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_chars: Option<u32>,
    /// The most estimated tokens the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_tokens: Option<u32>,
    /// Names to keep when skills must be dropped, most important first; the others go first,
    /// last name first.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub priority: Vec<String>,
    /// Descriptions are not cut below this many characters (default 60).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub min_description_chars: u32,
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// How the model loads a skill, for the instructions (default: through the tool).
    pub activation: ActivationStyle,
    /// The skill tool's name, for the instructions (default `view_skill`).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tool_name: String,
    /// Replaces the built-in instructions.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub instructions: Option<String>,
    /// Per scope, the path (or URI) its keys are relative to in the locations shown; overrides
    /// the location the scope's store gives.
    #[cfg_attr(feature = "tsify", tsify(optional, type = "Record<string, string>"))]
    pub scope_paths: std::collections::BTreeMap<String, String>,
}

impl Default for CatalogOptions {
    fn default() -> Self {
        CatalogOptions {
            format: CatalogFormat::Xml,
            include_location: true,
            locale: None,
            disabled: Vec::new(),
            model_tier: None,
            tiers: None,
            host_version: None,
            agent: None,
            budget_chars: None,
            budget_tokens: None,
            priority: Vec::new(),
            min_description_chars: 60,
            activation: ActivationStyle::Tool,
            tool_name: DEFAULT_TOOL_NAME.to_string(),
            instructions: None,
            scope_paths: Default::default(),
        }
    }
}

/// A skill left out of the catalog, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct HiddenSkill {
    /// The skill's name.
    pub name: String,
    /// `disabled`, `not-permitted`, `model-invocation-disabled`, `tier`, `compatibility` or
    /// `pin-mismatch` (a lockfile refused its content).
    pub reason: String,
    /// Why it was hidden, for people.
    pub message: String,
}

/// A rendered catalog, or the reason there is none, and what was left out or cut to fit.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CatalogResult {
    /// The catalog; null when no skill is visible (then there is nothing to show the model,
    /// no instructions and no tool).
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub text: Option<String>,
    /// The instructions that go with it; null when there is no catalog.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub instructions: Option<String>,
    /// The skills in the catalog, in its order.
    pub skills: Vec<String>,
    /// Skills filtered out before rendering.
    pub hidden: Vec<HiddenSkill>,
    /// Skills whose description was cut to fit the budget.
    pub shortened: Vec<String>,
    /// Skills dropped to fit the budget.
    #[cfg_attr(feature = "tsify", tsify(type = "string[]"))]
    pub dropped: NameList,
    /// Characters of `text`.
    pub chars: u32,
    /// Estimated tokens of `text`.
    pub tokens: u32,
    /// Findings about the catalog (a skill's tier or compatibility that cannot be read ...).
    pub diagnostics: Vec<Diagnostic>,
    /// The skill tool searches: the catalog ends with a note on the skills it does not list and
    /// how to find them (absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub search: bool,
}
