//! What goes into the skill tool and what comes out: its options, its definition, the model's
//! input, and the result of a call (with what a UI shows of it).

use super::fork::Fork;
use crate::content::DEFAULT_TOOL_NAME;
use crate::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[cfg(feature = "tsify")]
use tsify::Tsify;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
/// How the skill tool is named, described and bounded.
pub struct ToolOptions {
    /// The tool's name (default `view_skill`; the client guide uses `activate_skill`).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tool_name: String,
    /// Put the catalog in the tool's description (for hosts that do not put it in the prompt).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub embed_catalog: bool,
    /// Keep the frontmatter in the returned instructions.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub keep_frontmatter: bool,
    /// Files listed in `<skill_resources>` at most (default 50).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_resources: u32,
    /// Largest file a `path` call returns, in bytes (default 256 KiB).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub max_file_bytes: u32,
    /// Per scope, the path (or URI) its keys are relative to in the skill directory shown to the
    /// model (e.g. the project's absolute path); overrides where the registry says the skill is.
    #[cfg_attr(feature = "tsify", tsify(optional, type = "Record<string, string>"))]
    pub scope_paths: BTreeMap<String, String>,
}

impl Default for ToolOptions {
    fn default() -> Self {
        ToolOptions {
            tool_name: DEFAULT_TOOL_NAME.into(),
            embed_catalog: false,
            keep_frontmatter: false,
            max_resources: 50,
            max_file_bytes: 256 * 1024,
            scope_paths: BTreeMap::new(),
        }
    }
}

/// The tool as a model API sees it: name, description, JSON schema of the input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// The tool's description (with the catalog when it is embedded).
    pub description: String,
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    /// The JSON schema of [`ToolInput`], the visible skills as the enum of `name`.
    pub input_schema: serde_json::Value,
}

/// What the model passes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct ToolInput {
    /// The skill to load.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// A file of the skill, relative to its directory; absent for the instructions.
    pub path: Option<String>,
    /// Return the instructions again even when this session loaded them already. `null` reads
    /// as absent (false), as OpenAI's strict mode sends an optional property it leaves out.
    #[cfg_attr(feature = "tsify", tsify(optional, type = "boolean | null"))]
    #[serde(deserialize_with = "null_as_default")]
    pub force: bool,
    /// Words to search the skills with, instead of a name (when the tool offers search).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub query: Option<String>,
}

/// A value that may be `null`, read as its default when it is.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}

/// What the UI stream shows instead of the full result: activations and file reads are reduced
/// to a line (a file read with its size), the content goes to the model only.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ClientOutput {
    /// The skill's name.
    pub name: String,
    /// The skill's name under its former key (the same as `name`).
    ///
    /// @deprecated Use `name`, as every other result does.
    pub skill_name: String,
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    /// The file read, or null for the instructions.
    pub path: Option<String>,
    /// The line to show.
    pub content: String,
    /// Bytes of the file read (file reads only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub size: Option<u64>,
}

/// One call's result: the text for the model, and facts for the host.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// What goes back to the model.
    pub content: String,
    /// The call loaded nothing (an unknown skill, a bad path, a failed read).
    pub is_error: bool,
    /// The skill asked for.
    pub name: String,
    /// The skill asked for, under its former key (the same as `name`).
    ///
    /// @deprecated Use `name`, as every other result does.
    pub skill_name: String,
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    /// The file asked for, or null for the instructions.
    pub path: Option<String>,
    /// Bytes of the file (or SKILL.md) behind the result.
    pub size: u64,
    /// The instructions were loaded earlier in this session; a short pointer was returned.
    pub already_loaded: bool,
    /// What a UI shows instead of `content`.
    pub client: ClientOutput,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// Why the call loaded nothing, when it did not.
    pub error: Option<Diagnostic>,
    /// Set when the skill says `context: fork` (Claude Code: it runs in a subagent): the host
    /// may run it through a subagent ([`super::SubagentTask`]) and answer with the subagent's report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub fork: Option<Fork>,
    /// Findings while serving the instructions (a `` !`command` `` the host's runner refused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub diagnostics: Vec<Diagnostic>,
    /// The skill's content digest (`sha256:<hex>`, see the consent guide), when the call computed
    /// or checked it: with an `approve` hook, or for a skill of a remote store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub digest: Option<String>,
}

impl ClientOutput {
    /// What a UI shows for a call of skill `name`: `content` for the instructions (`path` None)
    /// or for the file `path`.
    pub fn new(name: &str, path: Option<String>, content: String) -> Self {
        ClientOutput { name: name.to_string(), skill_name: name.to_string(), path, content, size: None }
    }
}

impl ToolResult {
    /// An empty result for a call of skill `name` (both of its name fields set), to fill in.
    pub fn for_skill(name: &str) -> Self {
        ToolResult { name: name.to_string(), skill_name: name.to_string(), ..ToolResult::default() }
    }
}
