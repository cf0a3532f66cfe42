//! The options, results and reports of the transcript operations.

use crate::content::DEFAULT_TOOL_NAME;
use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The message shape of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
pub enum TranscriptFormat {
    /// Vercel AI SDK `ModelMessage[]`.
    #[serde(rename = "ai-sdk")]
    AiSdk,
    /// OpenAI Chat Completions messages.
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic Messages `messages`.
    #[serde(rename = "anthropic")]
    Anthropic,
}

/// One tool name or several (`"view_skill"`, `["view_skill", "activate_skill"]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolNames {
    /// One tool name.
    One(String),
    /// Several tool names.
    Many(Vec<String>),
}

impl Default for ToolNames {
    fn default() -> Self {
        ToolNames::One(DEFAULT_TOOL_NAME.to_string())
    }
}

impl ToolNames {
    /// Whether `name` is one of them.
    pub fn contains(&self, name: &str) -> bool {
        match self {
            ToolNames::One(n) => n == name,
            ToolNames::Many(v) => v.iter().any(|n| n == name),
        }
    }
}

/// Options shared by every operation; each uses the fields that concern it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct CompactOptions {
    /// The transcript's shape; detected when absent (AI SDK when nothing tells).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub format: Option<TranscriptFormat>,
    /// The skill tool's name, or names: only their results are the skill tool's. Without it,
    /// `view_skill` and every tool that answered a call with a genuine `<skill_content>` answer
    /// for the skill the call names (see the attribution rule in this module's documentation).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "string | string[]", optional))]
    pub tool_name: Option<ToolNames>,
    /// Compaction keeps this many of the most recent activations whole (default 0).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub keep_recent: usize,
    /// Re-attachment: tokens per skill at most (default 5,000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub per_skill_tokens: u32,
    /// Re-attachment: tokens in all at most (default 25,000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub total_tokens: u32,
    /// A message whose text is longer than this is passed through unread (default 8,000,000).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_message_chars: usize,
    /// Fail on the first unreadable message instead of passing it through.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub strict: bool,
}

impl Default for CompactOptions {
    fn default() -> Self {
        CompactOptions {
            format: None,
            tool_name: None,
            keep_recent: 0,
            per_skill_tokens: 5000,
            total_tokens: 25000,
            max_message_chars: 8_000_000,
            strict: false,
        }
    }
}

/// What a piece of skill content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum UseKind {
    /// A skill's instructions returned by the skill tool (no `path`).
    Activation,
    /// A file of a skill returned by the skill tool (`path` given).
    File,
    /// A `<skill_content>` block in a user message (`/skill` injection, re-attachment).
    Injected,
    /// An `already-loaded` pointer to content earlier in the conversation.
    Pointer,
    /// Content already compacted to metadata.
    Compacted,
    /// No skill content: the skill tool failed (an error result, an unknown skill, bad input), or
    /// its result is not an answer the tool writes (a note says so).
    Error,
}

/// One skill tool call and its result, or one `<skill_content>` block in a user message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillUse {
    /// The skill's name.
    pub name: String,
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    /// The file read, when the call read one rather than the instructions.
    pub path: Option<String>,
    /// The message holding the call (none for injected content).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub call_index: Option<usize>,
    /// The message holding the result or the block (none for a call still without a result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub result_index: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The tool call's id.
    pub call_id: Option<String>,
    /// Size of the result's text (or of the block).
    pub chars: usize,
    /// Lines of the result's text.
    pub lines: usize,
    /// Estimated tokens of the result's text.
    pub tokens: u32,
    /// What the content is (full, a pointer, compacted ...).
    pub kind: UseKind,
}

/// A message passed through unread, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    /// The message's index.
    pub index: usize,
    /// Why it was skipped (a stable code).
    pub code: String,
    /// Why it was skipped, for people.
    pub message: String,
}

/// What [`super::find`] returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Found {
    /// The transcript's shape.
    pub format: TranscriptFormat,
    /// The uses, in transcript order.
    pub uses: Vec<SkillUse>,
    /// Messages that could not be read.
    pub skipped: Vec<Skipped>,
    /// Findings about the transcript: what could not be attributed (`skill-content-unattributed`,
    /// `skill-result-unrecognised`, `skill-content-other-tool`), an assumed format ...; each
    /// message begins with `message N: ` when it is about one message.
    pub notes: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
/// What a change did to a message.
pub enum ChangeAction {
    /// Skill content replaced by a compaction marker.
    Compacted,
    /// A repeated activation replaced by a pointer to the first.
    Deduped,
    /// The message was removed (pruning).
    Removed,
    /// A message was added (re-attachment).
    Appended,
}

/// One change an operation made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// The message's index in the input (for `appended`, in the output).
    pub index: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The skill the change is about, when there is one.
    pub skill: Option<String>,
    /// What was done.
    pub action: ChangeAction,
    /// Characters of the message before.
    pub chars_before: usize,
    /// Characters of the message after.
    pub chars_after: usize,
    /// Estimated tokens of the message before.
    pub tokens_before: u32,
    /// Estimated tokens of the message after.
    pub tokens_after: u32,
}

/// What an operation did. Totals are over the messages' JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CompactReport {
    /// The transcript's shape.
    pub format: TranscriptFormat,
    /// Every change, in transcript order.
    pub changes: Vec<Change>,
    /// Indexes (in the input) of the messages pruning removed.
    pub removed: Vec<usize>,
    /// Messages passed through unread.
    pub skipped: Vec<Skipped>,
    /// Skills re-attachment left out for the budget.
    pub omitted: Vec<String>,
    /// Findings about the operation: what could not be attributed (as in [`Found::notes`]), a
    /// budget pruning cannot meet, a re-attachment already there ...
    pub notes: Vec<Diagnostic>,
    /// Characters of the input.
    pub chars_before: u64,
    /// Characters of the output.
    pub chars_after: u64,
    /// Estimated tokens of the input.
    pub tokens_before: u64,
    /// Estimated tokens of the output.
    pub tokens_after: u64,
    /// Pruning: whether the result fits the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub fits: Option<bool>,
}

/// A new transcript and what changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Compacted {
    #[cfg_attr(feature = "tsify", tsify(type = "unknown[]"))]
    /// The new transcript, in the input's shape.
    pub transcript: Value,
    /// What changed.
    pub report: CompactReport,
}

/// Skill content the host has for re-attachment (e.g. `ToolResult.content` of activations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillContent {
    /// The skill's name.
    pub name: String,
    /// The content, as the tool returned it.
    pub content: String,
}

/// `opts` with `tool_name` among its tool names (a skill tool's transcript operations read the
/// uses of that tool as well as of the names the caller gave).
pub fn with_tool_name(opts: &CompactOptions, tool_name: &str) -> CompactOptions {
    let mut opts = opts.clone();
    opts.tool_name = Some(match opts.tool_name.take() {
        None => ToolNames::One(tool_name.to_string()),
        Some(ToolNames::One(n)) if n == tool_name => ToolNames::One(n),
        Some(ToolNames::One(n)) => ToolNames::Many(vec![n, tool_name.to_string()]),
        Some(ToolNames::Many(mut v)) => {
            if !v.iter().any(|n| n == tool_name) {
                v.push(tool_name.to_string());
            }
            ToolNames::Many(v)
        }
    });
    opts
}
