//! `context: fork` (Claude Code): a skill meant to run in a subagent, as the tool's answer and an
//! injection name it, and the line an activation opens with for a model that runs it itself.

use crate::content::plain_line;
use crate::discover::SkillMeta;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// A skill meant to run in a subagent (`context: fork`), and the subagent type it names.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Fork {
    /// The `agent` field: the subagent type (`Explore`, `Plan`, `general-purpose` ...), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub agent: Option<String>,
}

/// The [`Fork`] of a skill that says `context: fork` (in any case), else None.
pub fn fork_of(meta: &SkillMeta) -> Option<Fork> {
    let forks = meta.skill.context.as_deref().is_some_and(|c| c.trim().eq_ignore_ascii_case("fork"));
    forks.then(|| Fork { agent: meta.skill.agent.clone() })
}

/// The line an activation of a `context: fork` skill opens with, for a model whose host does not
/// route it to a subagent.
pub(super) fn fork_note(fork: &Fork) -> String {
    let agent = match &fork.agent {
        Some(a) => format!(" (agent: {})", plain_line(a)),
        None => String::new(),
    };
    format!(
        "(This skill is meant to run in a subagent{agent}, with these instructions as its task; \
         where you can delegate to a subagent, do so and use its report. Otherwise follow them here.)\n\n"
    )
}
