//! What injecting a user's message gives: the skills it invokes or mentions, ready to go into the
//! conversation, and the text to send on.

use super::fork::Fork;
use super::invoke;
use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// A skill the user invoked (`/name args`) or mentioned (`$name`), ready to go into the
/// conversation: its instructions wrapped as the tool would wrap them, arguments substituted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Injected {
    /// The skill's name.
    pub name: String,
    /// Invoked with `/name` or mentioned with `$name`.
    pub kind: invoke::InvocationKind,
    /// The arguments after a `/name` (empty for a mention).
    pub arguments: String,
    /// The instructions, wrapped in `<skill_content>`, arguments substituted; or, when the
    /// conversation holds them already, the short pointer a repeated activation gets.
    pub content: String,
    /// Bytes of the SKILL.md read (0 for a pointer given without a read).
    pub size: u64,
    /// The instructions were loaded earlier in this conversation (by the model or the user) and
    /// `content` is a short pointer to that load (see [`super::SkillSession::repeat_of`]).
    pub already_loaded: bool,
    /// Set when the skill says `context: fork`: the host may run it in a subagent instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub fork: Option<Fork>,
}

/// How a user's message is handled (`SkillTool.invoke(message, options)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct InvokeOptions {
    /// Inject the instructions in full even when the conversation holds them already (as the
    /// tool's `force`); otherwise such a skill gets the short pointer a repeated activation gets.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub force: bool,
}

/// What a user's message asks for: the skills to inject and the text to send on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Injection {
    /// The skills to put into the conversation, in the order the message names them.
    pub injected: Vec<Injected>,
    /// The message without a leading `/name args` (the text to send on).
    pub remaining: String,
    /// A leading `/name` that is no user-invocable skill.
    pub unknown: Vec<String>,
    /// Skills that could not be read.
    pub errors: Vec<Diagnostic>,
    /// Findings while serving the instructions (a `` !`command` `` the host's runner refused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub diagnostics: Vec<Diagnostic>,
}
