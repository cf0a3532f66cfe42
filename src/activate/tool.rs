//! The skill tool: what the model calls to load a skill (`view_skill` by default; the client guide
//! calls it `activate_skill`). Its definition carries the visible skills as an enum; a call
//! without `path` returns the instructions wrapped in `<skill_content>` with the skill's directory
//! and its files (listed, not read); a call with `path` returns that file. Nothing here throws:
//! an unknown skill, a bad path or a missing file is a tool result that says so.

use super::expand::{expand_body, Commands};
use super::fork::{fork_note, fork_of};
use super::session::SkillSession;
use super::tool_io::{ClientOutput, ToolDefinition, ToolInput, ToolOptions, ToolResult};
use super::wrap::{already_loaded, display_directory, wrap_activation};
use crate::content::{neutralize_file, plain_line, INVALID_INPUT_PREFIX, UNKNOWN_SKILL_PREFIX};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{FileRequest, FilesRequest, SkillMeta, SkillRegistry};
use crate::text::clean_hidden;

/// The tool definition for the visible skills, or None when there are none (then there is no
/// tool to offer).
pub fn tool_definition(visible: &[String], catalog: Option<&str>, opts: &ToolOptions) -> Option<ToolDefinition> {
    if visible.is_empty() {
        return None;
    }
    let lead = "Load a skill: call with a skill's name to get its instructions (and the list of its files), \
                or with a name and a path relative to the skill's directory to read one of its files.";
    // The names as every other output shows them ([`crate::text::hides`]); a name holding such a
    // character is refused at parse (`name-hidden-chars`), so each is the name a call gives.
    let shown: Vec<std::borrow::Cow<'_, str>> = visible.iter().map(|n| clean_hidden(n)).collect();
    let name = serde_json::json!({ "type": "string", "enum": shown, "description": "The skill's name." });
    Some(definition(lead.to_string(), name, None, catalog, opts))
}

/// The one shape of the tool's definition: `lead` then the catalog as its description, and an
/// input schema of `name` (the given property), `query` when the tool searches (then `name` is
/// not required), `path` and `force`.
pub(super) fn definition(
    lead: String,
    name: serde_json::Value,
    query: Option<&str>,
    catalog: Option<&str>,
    opts: &ToolOptions,
) -> ToolDefinition {
    let mut description = lead;
    if let Some(c) = catalog {
        description.push_str("\n\n");
        description.push_str(c);
    }
    let mut properties = serde_json::Map::new();
    properties.insert("name".into(), name);
    if let Some(q) = query {
        properties.insert("query".into(), serde_json::json!({ "type": "string", "description": q }));
    }
    properties.insert(
        "path".into(),
        serde_json::json!({ "type": "string", "description": "A file of the skill, relative to its directory. Leave out to load the instructions." }),
    );
    properties.insert(
        "force".into(),
        serde_json::json!({ "type": "boolean", "description": "Load the instructions again although they were loaded earlier in this conversation (when they are no longer in your context)." }),
    );
    let mut schema = serde_json::Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), properties.into());
    if query.is_none() {
        schema.insert("required".into(), serde_json::json!(["name"]));
    }
    schema.insert("additionalProperties".into(), false.into());
    ToolDefinition { name: opts.tool_name.clone(), description, input_schema: schema.into() }
}

/// A failed call's result: the diagnostic, and the text the model is shown.
pub(super) fn error_result(input: &ToolInput, d: Diagnostic, content: String) -> ToolResult {
    ToolResult {
        client: ClientOutput::new(&input.name, input.path.clone(), content.clone()),
        content,
        is_error: true,
        path: input.path.clone(),
        error: Some(d),
        ..ToolResult::for_skill(&input.name)
    }
}

/// The answer to a call for a skill the host has not approved (`d` says why).
pub fn refused(input: &ToolInput, d: Diagnostic) -> ToolResult {
    let content = d.message.clone();
    error_result(input, d, content)
}

/// The line the UI stream shows for a file read (its path and size ride beside it).
pub const FILE_READ: &str = "File read.";

/// Media types by extension, for what binary files are.
fn media_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "wasm" => "application/wasm",
        "ttf" | "otf" | "woff" | "woff2" => "font",
        "xlsx" | "docx" | "pptx" => "application/vnd.openxmlformats-officedocument",
        _ => "application/octet-stream",
    }
}

/// Runs one call of the tool. `visible` is what the tool's enum offers (a hidden skill is
/// refused like an unknown one); `now` is the host's clock for the session record.
pub async fn execute(
    registry: &SkillRegistry,
    session: &mut SkillSession,
    input: &ToolInput,
    visible: &[String],
    opts: &ToolOptions,
    now: f64,
) -> ToolResult {
    let plan = plan(registry, session, input, visible, opts);
    let result = run(plan, opts).await;
    session.record_result(&result, now);
    result
}

/// A planned call: everything needed to finish it without the registry (so a JS host never holds
/// the registry across an await).
pub enum ToolPlan {
    /// Answered without a read.
    Done(ToolResult),
    /// Load a skill's instructions and list its files.
    Activate {
        /// The skill.
        meta: Box<SkillMeta>,
        /// The read of its SKILL.md.
        file: FileRequest,
        /// The listing of its files, when resources are listed.
        files: Option<FilesRequest>,
        /// The call.
        input: ToolInput,
        /// The host's runner for `` !`command` `` preprocessing.
        commands: Option<Commands>,
    },
    /// Read one file of a skill.
    Read {
        /// The read.
        file: FileRequest,
        /// The call.
        input: ToolInput,
    },
}

/// Plans a call: answers it at once when no read is needed (unknown skill, bad input, already
/// loaded), or names the reads that finish it ([`run`]).
pub fn plan(
    registry: &SkillRegistry,
    session: &SkillSession,
    input: &ToolInput,
    visible: &[String],
    opts: &ToolOptions,
) -> ToolPlan {
    let unknown = || {
        let msg = unknown_message(&input.name, visible);
        ToolPlan::Done(error_result(input, Diagnostic::error(codes::SKILL_UNKNOWN, msg.clone()), msg))
    };
    if !visible.iter().any(|v| v == &input.name) {
        return unknown();
    }
    let Some(meta) = registry.get(&input.name) else { return unknown() };
    match input.path.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        None => {
            if let Some(earlier) = session.repeat_of(&input.name, input.force) {
                let content = already_loaded(&meta, earlier, opts);
                return ToolPlan::Done(ToolResult {
                    client: ClientOutput::new(&input.name, None, "Skill already loaded.".into()),
                    content,
                    already_loaded: true,
                    ..ToolResult::for_skill(&input.name)
                });
            }
            match registry.file_request(&input.name, None) {
                Ok(file) => {
                    let file = if opts.keep_frontmatter { file.keep_frontmatter() } else { file };
                    let files = registry.files_request(&input.name);
                    ToolPlan::Activate {
                        meta: Box::new(meta),
                        file,
                        files,
                        input: ToolInput { path: None, ..input.clone() },
                        commands: None,
                    }
                }
                Err(r) => ToolPlan::Done(from_file_error(input, r.error, visible)),
            }
        }
        Some(path) => match registry.file_request(&input.name, Some(under_directory(path, &meta, opts))) {
            Ok(mut file) => {
                file.max_bytes = Some(opts.max_file_bytes);
                ToolPlan::Read { file, input: input.clone() }
            }
            Err(r) => ToolPlan::Done(from_file_error(input, r.error, visible)),
        },
    }
}

/// A path the model gives for a skill's file, relative to the skill's directory: a path under the
/// directory as the model is shown it (what a resolved `${CLAUDE_SKILL_DIR}/...` reads as, an
/// absolute path or a store URI) is taken relative to it; any other path is as given.
fn under_directory<'a>(path: &'a str, meta: &SkillMeta, opts: &ToolOptions) -> &'a str {
    let dir = display_directory(meta, opts);
    let dir = dir.trim_end_matches('/');
    match path.strip_prefix(dir).and_then(|rest| rest.strip_prefix('/')) {
        Some(rest) if !dir.is_empty() && !rest.is_empty() => rest,
        _ => path,
    }
}

impl ToolPlan {
    /// The plan with the host's runner for `` !`command` `` preprocessing (an activation runs the
    /// commands of the body through it; other plans have none).
    pub fn with_commands(mut self, runner: Option<Commands>) -> ToolPlan {
        if let ToolPlan::Activate { commands, .. } = &mut self {
            *commands = runner;
        }
        self
    }
}

/// The answer to a call for a skill the tool does not offer: what exists instead.
pub fn unknown_message(name: &str, visible: &[String]) -> String {
    let name = plain_line(name);
    if visible.is_empty() {
        format!("{UNKNOWN_SKILL_PREFIX} '{name}'; no skills are available.")
    } else {
        format!("{UNKNOWN_SKILL_PREFIX} '{name}'. The skills are: {}.", names_line(visible))
    }
}

/// Names as one plain line, comma-separated: at most [`crate::discover::MAX_NAMES_LISTED`] of
/// them, then how many more there are (an answer stays short at any number of skills).
fn names_line(names: &[String]) -> String {
    let most = crate::discover::MAX_NAMES_LISTED;
    let mut line = names.iter().take(most).map(|n| plain_line(n)).collect::<Vec<_>>().join(", ");
    if names.len() > most {
        line.push_str(&format!(" and {} more", names.len() - most));
    }
    line
}

/// The answer to input that is not `{ name, path? }`.
pub fn invalid_input(problem: &str, visible: &[String]) -> ToolResult {
    let content = format!(
        "{INVALID_INPUT_PREFIX} {{ name, path? }} ({}). The skills are: {}.",
        plain_line(problem),
        names_line(visible)
    );
    let input = ToolInput::default();
    error_result(&input, Diagnostic::error(codes::TOOL_INPUT_INVALID, content.clone()), content)
}

/// The answer to a call of another tool than this one (a model API hands every call over; this
/// answers only its own): an error result, worded so that compaction reads it as one.
pub fn other_tool(called: &str, visible: &[String], opts: &ToolOptions) -> ToolResult {
    let content = format!(
        "{INVALID_INPUT_PREFIX} a call of {} (this call is for '{}', a tool this does not answer). The skills are: {}.",
        plain_line(&opts.tool_name),
        plain_line(called),
        names_line(visible)
    );
    error_result(&ToolInput::default(), Diagnostic::error(codes::TOOL_UNKNOWN, content.clone()), content)
}

/// What a model API hands over as a call's arguments: JSON text (OpenAI) or a value (Anthropic,
/// the AI SDK).
#[derive(Debug, Clone, PartialEq)]
pub enum CallArguments {
    /// Arguments as JSON text, parsed here.
    Json(String),
    /// Arguments already parsed.
    Value(serde_json::Value),
}

/// Reads a call's arguments as [`ToolInput`], or says why they are not one (for [`invalid_input`]).
pub fn read_arguments(args: &CallArguments) -> Result<ToolInput, String> {
    let parsed;
    let value = match args {
        CallArguments::Json(text) if text.trim().is_empty() => return Ok(ToolInput::default()),
        CallArguments::Json(text) => {
            parsed = crate::json::from_str(text).map_err(|e| format!("the tool arguments are not JSON: {e}"))?;
            &parsed
        }
        CallArguments::Value(v) => v,
    };
    ToolInput::from_json(value).map_err(|e| e.to_string())
}

fn from_file_error(input: &ToolInput, error: Option<Diagnostic>, visible: &[String]) -> ToolResult {
    let d = error.unwrap_or_else(|| Diagnostic::error(codes::TOOL_FAILED, "the call failed"));
    let content = match d.code.as_str() {
        codes::SKILL_UNKNOWN => unknown_message(&input.name, visible),
        _ => plain_line(&d.message),
    };
    error_result(input, d, content)
}

/// Finishes a planned call: does its reads and builds the result.
pub async fn run(plan: ToolPlan, opts: &ToolOptions) -> ToolResult {
    match plan {
        ToolPlan::Done(r) => r,
        ToolPlan::Activate { meta, file, files, input, commands } => {
            let fetched = file.fetch().await;
            let Some(body) = fetched.text else {
                return from_file_error(&input, fetched.error, &[]);
            };
            let listed = match files {
                Some(f) => f.fetch(opts.max_resources as usize).await,
                None => Default::default(),
            };
            let mut diagnostics = Vec::new();
            let dir = display_directory(&meta, opts);
            let body = expand_body(&body, &meta.skill.name, &dir, commands.as_ref(), &mut diagnostics).await;
            let fork = fork_of(&meta);
            let body = match &fork {
                Some(f) => fork_note(f) + &body,
                None => body,
            };
            let content = wrap_activation(&meta, &body, &listed, opts);
            ToolResult {
                client: ClientOutput::new(&input.name, None, "Skill activated.".into()),
                content,
                path: None,
                size: fetched.size,
                fork,
                diagnostics,
                ..ToolResult::for_skill(&input.name)
            }
        }
        ToolPlan::Read { file, input } => {
            let fetched = file.fetch().await;
            let path = Some(fetched.path.clone());
            if let Some(e) = fetched.error {
                let content = match e.code.as_str() {
                    codes::FILE_NOT_FOUND => {
                        format!("The skill '{}' has no file {}.", plain_line(&input.name), plain_line(&fetched.path))
                    }
                    _ => plain_line(&e.message),
                };
                return ToolResult { path, ..error_result(&input, e, content) };
            }
            let content = match (fetched.text, fetched.bytes) {
                // A file is shown as written, except what could pass for the protocol's markup.
                (Some(t), _) => neutralize_file(&t),
                (None, Some(b)) => format!(
                    "{} is a binary file ({}, {} bytes); its content is not shown.",
                    plain_line(&fetched.path),
                    media_type(&fetched.path),
                    b.len()
                ),
                (None, None) => String::new(),
            };
            ToolResult {
                // The file goes to the model; the UI stream gets a line (a file may be 256 KiB).
                client: ClientOutput {
                    size: Some(fetched.size),
                    ..ClientOutput::new(&input.name, path.clone(), FILE_READ.into())
                },
                content,
                path,
                size: fetched.size,
                ..ToolResult::for_skill(&input.name)
            }
        }
    }
}
