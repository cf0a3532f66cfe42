//! Transcripts: finding skill content in a conversation, compacting it to metadata, protecting it
//! from pruning, pruning to a budget, re-attaching it after a compaction, and deduplicating it.
//!
//! A transcript is a JSON array of messages in one of three shapes: the Vercel AI SDK's model
//! messages (`ai-sdk`), OpenAI Chat Completions (`openai`) or Anthropic Messages (`anthropic`),
//! named by the host or detected. Every operation is a pure function: it returns a new transcript
//! in the same shape and a report of what changed. Messages that hold no skill content are cloned
//! as they were, fields unknown to this module included. A message that cannot be read (not an
//! object, an unknown role, content of the wrong type, a tool result without its call, too big or
//! too deep) is passed through unchanged and listed in the report's `skipped`, or, with
//! `strict`, makes the operation fail with a diagnostic naming its index.

use crate::catalog::estimate_tokens;
use crate::model::Diagnostic;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// Nesting deeper than this inside one message is refused (the walk is recursive).
const MAX_DEPTH: usize = 64;
/// Compaction markers are short: longer JSON-looking results are not parsed as markers.
const MAX_MARKER_CHARS: usize = 4096;

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
    One(String),
    Many(Vec<String>),
}

impl Default for ToolNames {
    fn default() -> Self {
        ToolNames::One(crate::activate::DEFAULT_TOOL_NAME.to_string())
    }
}

impl ToolNames {
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
#[serde(rename_all = "camelCase", default)]
pub struct CompactOptions {
    /// The transcript's shape; detected when absent (AI SDK when nothing tells).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub format: Option<TranscriptFormat>,
    /// The skill tool's name, or names (default `view_skill`).
    #[cfg_attr(feature = "tsify", tsify(type = "string | string[]", optional))]
    pub tool_name: ToolNames,
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
            tool_name: ToolNames::default(),
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
    /// The skill tool failed (unknown skill, bad input): no skill content.
    Error,
}

/// One skill tool call and its result, or one `<skill_content>` block in a user message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillUse {
    pub name: String,
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
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
    pub call_id: Option<String>,
    /// Size of the result's text (or of the block).
    pub chars: usize,
    pub lines: usize,
    pub tokens: u32,
    pub kind: UseKind,
}

/// A message passed through unread, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    pub index: usize,
    pub code: String,
    pub message: String,
}

/// What [`find`] returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Found {
    pub format: TranscriptFormat,
    pub uses: Vec<SkillUse>,
    pub skipped: Vec<Skipped>,
    pub notes: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum ChangeAction {
    Compacted,
    Deduped,
    Removed,
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
    pub skill: Option<String>,
    pub action: ChangeAction,
    pub chars_before: usize,
    pub chars_after: usize,
    pub tokens_before: u32,
    pub tokens_after: u32,
}

/// What an operation did. Totals are over the messages' JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CompactReport {
    pub format: TranscriptFormat,
    pub changes: Vec<Change>,
    /// Indexes (in the input) of the messages pruning removed.
    pub removed: Vec<usize>,
    pub skipped: Vec<Skipped>,
    /// Skills re-attachment left out for the budget.
    pub omitted: Vec<String>,
    pub notes: Vec<Diagnostic>,
    pub chars_before: u64,
    pub chars_after: u64,
    pub tokens_before: u64,
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
    pub transcript: Value,
    pub report: CompactReport,
}

/// Skill content the host has for re-attachment (e.g. `ToolResult.content` of activations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillContent {
    pub name: String,
    pub content: String,
}

// ---------------------------------------------------------------------------------------------
// Format detection

/// The shape of a transcript, from the first message that tells; None when none does (plain
/// text messages look alike in all three).
pub fn detect_format(transcript: &Value) -> Option<TranscriptFormat> {
    let messages = transcript.as_array()?;
    for m in messages {
        let Some(obj) = m.as_object() else { continue };
        if obj.contains_key("tool_calls") || obj.contains_key("tool_call_id") || obj.contains_key("function_call") {
            return Some(TranscriptFormat::OpenAi);
        }
        let role = obj.get("role").and_then(Value::as_str).unwrap_or("");
        if role == "developer" || role == "function" {
            return Some(TranscriptFormat::OpenAi);
        }
        match obj.get("content") {
            Some(Value::Array(parts)) => {
                for p in parts {
                    let Some(po) = p.as_object() else { continue };
                    match po.get("type").and_then(Value::as_str).unwrap_or("") {
                        "tool-call"
                        | "tool-result"
                        | "reasoning"
                        | "file"
                        | "tool-approval-request"
                        | "tool-approval-response" => return Some(TranscriptFormat::AiSdk),
                        "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "server_tool_use"
                        | "document" => return Some(TranscriptFormat::Anthropic),
                        "image_url" | "input_audio" | "refusal" => return Some(TranscriptFormat::OpenAi),
                        "image" if po.contains_key("source") => return Some(TranscriptFormat::Anthropic),
                        "image" if po.contains_key("image") => return Some(TranscriptFormat::AiSdk),
                        _ => {}
                    }
                }
                if role == "tool" {
                    return Some(TranscriptFormat::AiSdk);
                }
            }
            Some(Value::String(_)) if role == "tool" => return Some(TranscriptFormat::OpenAi),
            _ => {}
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Where text lives in a message

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SlotKind {
    /// `parent[key]` is a string (null, absent or other JSON read as text).
    Str,
    /// `parent[key]` is an array of parts; the text is that of its `{ type: "text", text }` parts.
    Parts,
    /// `parent[key]` is an AI SDK `{ type: "json" | "error-json", value }` output.
    AiJson,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Slot {
    /// JSON pointer from the transcript's root to the object holding `key`.
    parent: String,
    key: &'static str,
    kind: SlotKind,
}

fn value_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn read_slot(root: &Value, slot: &Slot) -> String {
    let v = root.pointer(&slot.parent).and_then(|p| p.get(slot.key));
    match slot.kind {
        SlotKind::Str => value_text(v),
        SlotKind::Parts => {
            let mut out = String::new();
            let mut first = true;
            for p in v.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
                if p.get("type").and_then(Value::as_str) == Some("text") {
                    if let Some(t) = p.get("text").and_then(Value::as_str) {
                        if !first {
                            out.push('\n');
                        }
                        out.push_str(t);
                        first = false;
                    }
                }
            }
            out
        }
        SlotKind::AiJson => value_text(v.and_then(|o| o.get("value"))),
    }
}

fn write_slot(root: &mut Value, slot: &Slot, text: String) {
    let Some(parent) = root.pointer_mut(&slot.parent).and_then(Value::as_object_mut) else { return };
    match slot.kind {
        SlotKind::Str => {
            parent.insert(slot.key.to_string(), Value::String(text));
        }
        SlotKind::Parts => {
            let Some(parts) = parent.get_mut(slot.key).and_then(Value::as_array_mut) else {
                parent.insert(slot.key.to_string(), Value::String(text));
                return;
            };
            let is_text = |p: &Value| {
                p.get("type").and_then(Value::as_str) == Some("text") && p.get("text").is_some_and(Value::is_string)
            };
            let mut text = Some(text);
            let mut kept = Vec::with_capacity(parts.len());
            for mut p in std::mem::take(parts) {
                if is_text(&p) {
                    if let (Some(t), Some(o)) = (text.take(), p.as_object_mut()) {
                        o.insert("text".into(), Value::String(t));
                        kept.push(p);
                    }
                } else {
                    kept.push(p);
                }
            }
            if let Some(t) = text {
                let mut o = Map::new();
                o.insert("type".into(), Value::String("text".into()));
                o.insert("text".into(), Value::String(t));
                kept.insert(0, Value::Object(o));
            }
            *parts = kept;
        }
        SlotKind::AiJson => {
            if let Some(out) = parent.get_mut(slot.key).and_then(Value::as_object_mut) {
                let error = out.get("type").and_then(Value::as_str).is_some_and(|t| t.starts_with("error"));
                out.insert("type".into(), Value::String(if error { "error-text" } else { "text" }.into()));
                out.insert("value".into(), Value::String(text));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// <skill_content> blocks

use crate::activate::{open_tag, CONTENT_CLOSE as CLOSE, CONTENT_OPEN as OPEN};

#[derive(Debug, Clone)]
struct Block {
    start: usize,
    end: usize,
    inner_start: usize,
    inner_end: usize,
    name: String,
    status: Option<String>,
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn attr(tag: &str, key: &str) -> Option<String> {
    let pat = format!(" {key}=\"");
    let at = tag.find(&pat)? + pat.len();
    let rest = tag.get(at..)?;
    let end = rest.find('"')?;
    Some(unescape(rest.get(..end)?))
}

/// The complete `<skill_content name="...">...</skill_content>` blocks of a text, in order.
fn blocks(s: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(off) = s.get(pos..).and_then(|r| r.find(OPEN)) {
        let start = pos + off;
        let after = start + OPEN.len();
        match s.get(after..).and_then(|r| r.chars().next()) {
            Some(' ') | Some('>') => {}
            _ => {
                pos = after;
                continue;
            }
        }
        let Some(gt) = s.get(after..).and_then(|r| r.find('>')).map(|g| after + g) else { break };
        let tag = s.get(after..gt).unwrap_or("");
        let Some(name) = attr(tag, "name") else {
            pos = gt + 1;
            continue;
        };
        let Some(close) = s.get(gt + 1..).and_then(|r| r.find(CLOSE)).map(|c| gt + 1 + c) else { break };
        out.push(Block {
            start,
            end: close + CLOSE.len(),
            inner_start: gt + 1,
            inner_end: close,
            name,
            status: attr(tag, "status"),
        });
        pos = close + CLOSE.len();
    }
    out
}

fn marker(name: &str, chars: usize, lines: usize) -> String {
    format!(
        "{{\"skillName\":{},\"path\":null,\"totalChars\":{chars},\"totalLines\":{lines},\"compacted\":true}}",
        Value::String(name.to_string())
    )
}

/// The skill name of a compaction marker, if `text` is one.
fn parse_marker(text: &str) -> Option<String> {
    let t = text.trim();
    if !t.starts_with('{') || t.len() > MAX_MARKER_CHARS {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    if v.get("compacted") != Some(&Value::Bool(true)) {
        return None;
    }
    Some(v.get("skillName").and_then(Value::as_str).unwrap_or("").to_string())
}

fn pointer_text(name: &str, first: usize) -> String {
    format!("{}Loaded earlier in this conversation (message {first}).{CLOSE}", open_tag(name, Some("already-loaded")))
}

// ---------------------------------------------------------------------------------------------
// Reading a transcript

struct MsgInfo {
    role: String,
    chars: usize,
    tokens: u32,
    skipped: bool,
}

struct Use {
    public: SkillUse,
    slot: Option<Slot>,
    /// Byte range of the block in the slot's text (injected content).
    span: Option<(usize, usize)>,
    /// The result's text, or the block's.
    text: String,
    /// Byte range of the content proper within `text` (inside the wrapper, when there is one).
    inner: (usize, usize),
    status: Option<String>,
}

struct Analysis {
    format: TranscriptFormat,
    info: Vec<MsgInfo>,
    uses: Vec<Use>,
    skipped: Vec<Skipped>,
    notes: Vec<Diagnostic>,
}

struct Call {
    index: usize,
    id: String,
    tool: String,
    input: Option<Value>,
}

struct ResultRef {
    id: String,
    slot: Slot,
    is_error: bool,
}

#[derive(Default)]
struct MsgParts {
    calls: Vec<Call>,
    results: Vec<ResultRef>,
    texts: Vec<Slot>,
}

type Problem = (&'static str, String);

fn bad(code: &'static str, msg: impl Into<String>) -> Problem {
    (code, msg.into())
}

/// Checks depth and counts string bytes, stopping early past the limit.
fn measure(v: &Value, depth: usize, size: &mut usize, limit: usize) -> Result<(), Problem> {
    if depth > MAX_DEPTH {
        return Err(bad("message-too-deep", format!("nested deeper than {MAX_DEPTH} levels")));
    }
    match v {
        Value::String(s) => *size += s.len(),
        Value::Array(a) => {
            for x in a {
                measure(x, depth + 1, size, limit)?;
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                *size += k.len();
                measure(x, depth + 1, size, limit)?;
            }
        }
        _ => *size += 8,
    }
    if *size > limit {
        return Err(bad("message-too-large", format!("larger than {limit} characters")));
    }
    Ok(())
}

fn ptr(i: usize, rest: &str) -> String {
    format!("/{i}{rest}")
}

fn content_kind(content: Option<&Value>, allow_null: bool, allow_string: bool) -> Result<(), Problem> {
    match content {
        None | Some(Value::Null) if allow_null => Ok(()),
        Some(Value::String(_)) if allow_string => Ok(()),
        Some(Value::Array(parts)) => match parts.iter().position(|p| !p.is_object()) {
            Some(j) => Err(bad("bad-content", format!("content part {j} is not an object"))),
            None => Ok(()),
        },
        Some(other) => Err(bad("bad-content", format!("content is {}", type_name(other)))),
        None => Err(bad("bad-content", "content is missing")),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn str_field<'a>(o: &'a Value, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

/// User text slots: the string content, or each text part.
fn user_texts(i: usize, m: &Value, out: &mut MsgParts) {
    match m.get("content") {
        Some(Value::String(_)) => out.texts.push(Slot { parent: ptr(i, ""), key: "content", kind: SlotKind::Str }),
        Some(Value::Array(parts)) => {
            for (j, p) in parts.iter().enumerate() {
                if str_field(p, "type") == Some("text") && p.get("text").is_some_and(Value::is_string) {
                    out.texts.push(Slot { parent: ptr(i, &format!("/content/{j}")), key: "text", kind: SlotKind::Str });
                }
            }
        }
        _ => {}
    }
}

fn read_message(i: usize, m: &Value, format: TranscriptFormat) -> Result<(String, MsgParts), Problem> {
    let Some(obj) = m.as_object() else {
        return Err(bad("message-not-object", format!("the message is {}, not an object", type_name(m))));
    };
    let Some(role) = obj.get("role").and_then(Value::as_str) else {
        return Err(bad("bad-role", "the message has no role"));
    };
    let content = obj.get("content");
    let mut out = MsgParts::default();
    match format {
        TranscriptFormat::OpenAi => match role {
            "system" | "developer" | "function" => content_kind(content, true, true)?,
            "user" => {
                content_kind(content, false, true)?;
                user_texts(i, m, &mut out);
            }
            "assistant" => {
                content_kind(content, true, true)?;
                match obj.get("tool_calls") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(calls)) => {
                        for (j, c) in calls.iter().enumerate() {
                            let Some(id) = str_field(c, "id") else {
                                return Err(bad("bad-tool-call", format!("tool call {j} has no id")));
                            };
                            let f = c.get("function").or_else(|| c.get("custom"));
                            let tool = f.and_then(|f| str_field(f, "name")).unwrap_or("").to_string();
                            let input = f.and_then(|f| f.get("arguments").or_else(|| f.get("input"))).cloned();
                            out.calls.push(Call { index: i, id: id.to_string(), tool, input });
                        }
                    }
                    Some(other) => return Err(bad("bad-tool-call", format!("tool_calls is {}", type_name(other)))),
                }
            }
            "tool" => {
                content_kind(content, true, true)?;
                let Some(id) = str_field(m, "tool_call_id") else {
                    return Err(bad("bad-tool-result", "the tool message has no tool_call_id"));
                };
                let kind = if matches!(content, Some(Value::Array(_))) { SlotKind::Parts } else { SlotKind::Str };
                out.results.push(ResultRef {
                    id: id.to_string(),
                    slot: Slot { parent: ptr(i, ""), key: "content", kind },
                    is_error: false,
                });
            }
            other => return Err(bad("unknown-role", format!("unknown role \"{other}\" for OpenAI messages"))),
        },
        TranscriptFormat::AiSdk => match role {
            "system" => content_kind(content, false, true)?,
            "user" => {
                content_kind(content, false, true)?;
                user_texts(i, m, &mut out);
            }
            "assistant" | "tool" => {
                content_kind(content, false, role == "assistant")?;
                for (j, p) in content.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
                    match str_field(p, "type") {
                        Some("tool-call") if role == "assistant" => {
                            let Some(id) = str_field(p, "toolCallId") else {
                                return Err(bad("bad-tool-call", format!("tool-call part {j} has no toolCallId")));
                            };
                            let tool = str_field(p, "toolName").unwrap_or("").to_string();
                            out.calls.push(Call {
                                index: i,
                                id: id.to_string(),
                                tool,
                                input: p.get("input").or_else(|| p.get("args")).cloned(),
                            });
                        }
                        Some("tool-result") if role == "tool" => {
                            let Some(id) = str_field(p, "toolCallId") else {
                                return Err(bad("bad-tool-result", format!("tool-result part {j} has no toolCallId")));
                            };
                            let part = ptr(i, &format!("/content/{j}"));
                            let (slot, is_error) = match p.get("output") {
                                Some(o @ Value::Object(_)) => {
                                    let t = str_field(o, "type").unwrap_or("");
                                    let is_error = t.starts_with("error");
                                    let out_ptr = format!("{part}/output");
                                    match (t, o.get("value")) {
                                        ("content", _) => {
                                            (Slot { parent: out_ptr, key: "value", kind: SlotKind::Parts }, is_error)
                                        }
                                        (_, Some(Value::String(_))) | ("text" | "error-text", _) => {
                                            (Slot { parent: out_ptr, key: "value", kind: SlotKind::Str }, is_error)
                                        }
                                        _ => (Slot { parent: part, key: "output", kind: SlotKind::AiJson }, is_error),
                                    }
                                }
                                Some(other) => {
                                    return Err(bad(
                                        "bad-tool-result",
                                        format!("tool-result part {j}: output is {}", type_name(other)),
                                    ))
                                }
                                None => (
                                    Slot { parent: part, key: "result", kind: SlotKind::Str },
                                    p.get("isError") == Some(&Value::Bool(true)),
                                ),
                            };
                            out.results.push(ResultRef { id: id.to_string(), slot, is_error });
                        }
                        _ => {}
                    }
                }
            }
            other => return Err(bad("unknown-role", format!("unknown role \"{other}\" for AI SDK messages"))),
        },
        TranscriptFormat::Anthropic => match role {
            "system" => content_kind(content, false, true)?,
            "user" | "assistant" => {
                content_kind(content, false, true)?;
                if role == "user" {
                    user_texts(i, m, &mut out);
                }
                for (j, p) in content.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
                    match str_field(p, "type") {
                        Some("tool_use") if role == "assistant" => {
                            let Some(id) = str_field(p, "id") else {
                                return Err(bad("bad-tool-call", format!("tool_use block {j} has no id")));
                            };
                            let tool = str_field(p, "name").unwrap_or("").to_string();
                            out.calls.push(Call { index: i, id: id.to_string(), tool, input: p.get("input").cloned() });
                        }
                        Some("tool_result") if role == "user" => {
                            let Some(id) = str_field(p, "tool_use_id") else {
                                return Err(bad(
                                    "bad-tool-result",
                                    format!("tool_result block {j} has no tool_use_id"),
                                ));
                            };
                            let kind = match p.get("content") {
                                Some(Value::Array(a)) => {
                                    if a.iter().any(|x| !x.is_object()) {
                                        return Err(bad(
                                            "bad-content",
                                            format!("tool_result block {j}: a content block is not an object"),
                                        ));
                                    }
                                    SlotKind::Parts
                                }
                                None | Some(Value::Null) | Some(Value::String(_)) => SlotKind::Str,
                                Some(other) => {
                                    return Err(bad(
                                        "bad-content",
                                        format!("tool_result block {j}: content is {}", type_name(other)),
                                    ))
                                }
                            };
                            let slot = Slot { parent: ptr(i, &format!("/content/{j}")), key: "content", kind };
                            out.results.push(ResultRef {
                                id: id.to_string(),
                                slot,
                                is_error: p.get("is_error") == Some(&Value::Bool(true)),
                            });
                        }
                        _ => {}
                    }
                }
            }
            other => return Err(bad("unknown-role", format!("unknown role \"{other}\" for Anthropic messages"))),
        },
    }
    Ok((role.to_string(), out))
}

fn input_object(input: Option<&Value>) -> Option<Value> {
    match input? {
        Value::String(s) => serde_json::from_str::<Value>(s).ok().filter(Value::is_object),
        v @ Value::Object(_) => Some(v.clone()),
        _ => None,
    }
}

fn text_stats(s: &str) -> (usize, usize, u32) {
    (s.chars().count(), s.lines().count(), estimate_tokens(s))
}

fn tool_use(
    text: &str,
    name: Option<String>,
    path: Option<String>,
    is_error: bool,
) -> (UseKind, String, (usize, usize), Option<String>) {
    let len = text.len();
    let lead = text.len() - text.trim_start().len();
    let mut kind = UseKind::Activation;
    let mut inner = (0, len);
    let mut status = None;
    let mut text_name = None;
    if is_error {
        kind = UseKind::Error;
    } else if let Some(n) = parse_marker(text) {
        kind = UseKind::Compacted;
        text_name = Some(n);
    } else if path.is_some() {
        kind = UseKind::File;
    } else if text.get(lead..).is_some_and(|t| t.starts_with(OPEN)) {
        if let Some(b) = blocks(text).into_iter().next().filter(|b| b.start == lead) {
            status = b.status.clone();
            kind = match b.status.as_deref() {
                Some("already-loaded") => UseKind::Pointer,
                Some("compacted") => UseKind::Compacted,
                _ => UseKind::Activation,
            };
            if text.get(b.end..).is_some_and(|t| t.trim().is_empty()) {
                inner = (b.inner_start, b.inner_end);
            }
            text_name = Some(b.name);
        }
    } else if text.starts_with(crate::activate::UNKNOWN_SKILL_PREFIX)
        || text.starts_with(crate::activate::INVALID_INPUT_PREFIX)
    {
        kind = UseKind::Error;
    }
    let name = name.or(text_name).unwrap_or_default();
    (kind, name, inner, status)
}

fn analyse(transcript: &Value, opts: &CompactOptions) -> Result<Analysis, Diagnostic> {
    let Some(messages) = transcript.as_array() else {
        return Err(Diagnostic::error(
            "transcript-not-array",
            format!("the transcript is {}, not an array of messages", type_name(transcript)),
        ));
    };
    let mut notes = Vec::new();
    let format = match opts.format.or_else(|| detect_format(transcript)) {
        Some(f) => f,
        None => {
            if !messages.is_empty() {
                notes.push(Diagnostic::info(
                    "format-assumed",
                    "nothing in the transcript tells its format; read as AI SDK messages",
                ));
            }
            TranscriptFormat::AiSdk
        }
    };
    let mut info = Vec::with_capacity(messages.len());
    let mut uses: Vec<Use> = Vec::new();
    let mut skipped = Vec::new();
    let mut calls: HashMap<String, Call> = HashMap::new();
    // Skill calls waiting for their result: call id -> index in `uses`.
    let mut pending: HashMap<String, usize> = HashMap::new();
    for (i, m) in messages.iter().enumerate() {
        let mut size = 0usize;
        let read = measure(m, 0, &mut size, opts.max_message_chars).and_then(|_| read_message(i, m, format));
        let read = read.and_then(|(role, parts)| match parts.results.iter().find(|r| !calls.contains_key(&r.id)) {
            Some(r) => Err(bad(
                "orphan-tool-result",
                format!("the tool result for call \"{}\" has no matching tool call before it", r.id),
            )),
            None => Ok((role, parts)),
        });
        let role = m.get("role").and_then(Value::as_str).unwrap_or("").to_string();
        let (parts, problem) = match read {
            Ok((_, p)) => (Some(p), None),
            Err(p) => (None, Some(p)),
        };
        let (chars, tokens) =
            if problem.as_ref().is_some_and(|p| p.0 == "message-too-deep" || p.0 == "message-too-large") {
                (size, (size as u64).div_ceil(4).min(u32::MAX as u64) as u32)
            } else {
                let s = m.to_string();
                (s.chars().count(), estimate_tokens(&s))
            };
        info.push(MsgInfo { role, chars, tokens, skipped: problem.is_some() });
        if let Some((code, msg)) = problem {
            let message = format!("message {i}: {msg}");
            if opts.strict {
                return Err(Diagnostic::error(code, message));
            }
            skipped.push(Skipped { index: i, code: code.to_string(), message });
            continue;
        }
        let Some(parts) = parts else { continue };
        for r in parts.results {
            let Some(call) = calls.get(&r.id) else { continue };
            if !opts.tool_name.contains(&call.tool) {
                continue;
            }
            let text = read_slot(transcript, &r.slot);
            let (chars, lines, tokens) = text_stats(&text);
            let waiting = pending.remove(&r.id).filter(|&k| uses.get(k).is_some_and(|u| u.slot.is_none()));
            if let Some(u) = waiting.and_then(|k| uses.get_mut(k)) {
                let (kind, name, inner, status) = tool_use(
                    &text,
                    Some(u.public.name.clone()).filter(|n| !n.is_empty()),
                    u.public.path.clone(),
                    r.is_error,
                );
                u.public = SkillUse { name, result_index: Some(i), chars, lines, tokens, kind, ..u.public.clone() };
                u.slot = Some(r.slot);
                u.text = text;
                u.inner = inner;
                u.status = status;
            } else {
                // A second result for the same call: read it on its own.
                let input = input_object(call.input.as_ref());
                let name = input.as_ref().and_then(|v| str_field(v, "name")).map(str::to_string);
                let path =
                    input.as_ref().and_then(|v| str_field(v, "path")).filter(|p| !p.is_empty()).map(str::to_string);
                let (kind, name, inner, status) = tool_use(&text, name, path.clone(), r.is_error);
                uses.push(Use {
                    public: SkillUse {
                        name,
                        path,
                        call_index: Some(call.index),
                        result_index: Some(i),
                        call_id: Some(r.id.clone()),
                        chars,
                        lines,
                        tokens,
                        kind,
                    },
                    slot: Some(r.slot),
                    span: None,
                    text,
                    inner,
                    status,
                });
            }
        }
        for slot in parts.texts {
            let text = read_slot(transcript, &slot);
            if !text.contains(OPEN) {
                continue;
            }
            for b in blocks(&text) {
                let block = text.get(b.start..b.end).unwrap_or("").to_string();
                let (chars, lines, tokens) = text_stats(&block);
                let kind = match b.status.as_deref() {
                    Some("already-loaded") => UseKind::Pointer,
                    Some("compacted") => UseKind::Compacted,
                    _ => UseKind::Injected,
                };
                uses.push(Use {
                    public: SkillUse {
                        name: b.name.clone(),
                        path: None,
                        call_index: None,
                        result_index: Some(i),
                        call_id: None,
                        chars,
                        lines,
                        tokens,
                        kind,
                    },
                    slot: Some(slot.clone()),
                    span: Some((b.start, b.end)),
                    text: block,
                    inner: (b.inner_start - b.start, b.inner_end - b.start),
                    status: b.status,
                });
            }
        }
        for c in parts.calls {
            if opts.tool_name.contains(&c.tool) {
                let input = input_object(c.input.as_ref());
                let name = input.as_ref().and_then(|v| str_field(v, "name")).unwrap_or("").to_string();
                let path =
                    input.as_ref().and_then(|v| str_field(v, "path")).filter(|p| !p.is_empty()).map(str::to_string);
                let kind = if path.is_some() { UseKind::File } else { UseKind::Activation };
                pending.insert(c.id.clone(), uses.len());
                uses.push(Use {
                    public: SkillUse {
                        name,
                        path,
                        call_index: Some(i),
                        result_index: None,
                        call_id: Some(c.id.clone()),
                        chars: 0,
                        lines: 0,
                        tokens: 0,
                        kind,
                    },
                    slot: None,
                    span: None,
                    text: String::new(),
                    inner: (0, 0),
                    status: None,
                });
            }
            calls.insert(c.id.clone(), c);
        }
    }
    Ok(Analysis { format, info, uses, skipped, notes })
}

// ---------------------------------------------------------------------------------------------
// Edits

enum Edit {
    Whole(String),
    Spans(Vec<(usize, usize, String)>),
}

struct Planned {
    use_index: usize,
    action: ChangeAction,
    replacement: String,
}

/// Applies replacements of uses' text (whole results or blocks) and reports them.
fn apply(transcript: &Value, a: &Analysis, planned: Vec<Planned>) -> Compacted {
    let mut report = base_report(a);
    if planned.is_empty() {
        return Compacted { transcript: transcript.clone(), report };
    }
    let mut out = transcript.clone();
    let mut edits: BTreeMap<(usize, String, &'static str), (Slot, Edit)> = BTreeMap::new();
    let mut changed_msgs = HashSet::new();
    for p in planned {
        let Some(u) = a.uses.get(p.use_index) else { continue };
        let (Some(slot), Some(index)) = (u.slot.clone(), u.public.result_index) else { continue };
        let (chars_after, _, tokens_after) = text_stats(&p.replacement);
        report.changes.push(Change {
            index,
            skill: Some(u.public.name.clone()),
            action: p.action,
            chars_before: u.public.chars,
            chars_after,
            tokens_before: u.public.tokens,
            tokens_after,
        });
        changed_msgs.insert(index);
        let key = (index, slot.parent.clone(), slot.key);
        match u.span {
            None => {
                edits.insert(key, (slot, Edit::Whole(p.replacement)));
            }
            Some((s, e)) => {
                let entry = edits.entry(key).or_insert_with(|| (slot, Edit::Spans(Vec::new())));
                if let Edit::Spans(v) = &mut entry.1 {
                    v.push((s, e, p.replacement));
                }
            }
        }
    }
    for (_, (slot, edit)) in edits {
        let text = match edit {
            Edit::Whole(t) => t,
            Edit::Spans(mut spans) => {
                let old = read_slot(&out, &slot);
                spans.sort_by_key(|s| s.0);
                let mut t = String::with_capacity(old.len());
                let mut at = 0;
                for (s, e, r) in spans {
                    if s < at {
                        continue;
                    }
                    t.push_str(old.get(at..s).unwrap_or(""));
                    t.push_str(&r);
                    at = e;
                }
                t.push_str(old.get(at..).unwrap_or(""));
                t
            }
        };
        write_slot(&mut out, &slot, text);
    }
    if let Some(msgs) = out.as_array() {
        for i in changed_msgs {
            let (Some(m), Some(before)) = (msgs.get(i), a.info.get(i)) else { continue };
            let s = m.to_string();
            report.chars_after = report.chars_after - before.chars as u64 + s.chars().count() as u64;
            report.tokens_after = report.tokens_after - before.tokens as u64 + estimate_tokens(&s) as u64;
        }
    }
    Compacted { transcript: out, report }
}

fn base_report(a: &Analysis) -> CompactReport {
    let chars: u64 = a.info.iter().map(|m| m.chars as u64).sum();
    let tokens: u64 = a.info.iter().map(|m| m.tokens as u64).sum();
    CompactReport {
        format: a.format,
        changes: Vec::new(),
        removed: Vec::new(),
        skipped: a.skipped.clone(),
        omitted: Vec::new(),
        notes: a.notes.clone(),
        chars_before: chars,
        chars_after: chars,
        tokens_before: tokens,
        tokens_after: tokens,
        fits: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Operations

/// Every skill tool call and its result, and every `<skill_content>` block in user messages, in
/// transcript order.
pub fn find(transcript: &Value, opts: &CompactOptions) -> Result<Found, Diagnostic> {
    let a = analyse(transcript, opts)?;
    Ok(Found {
        format: a.format,
        uses: a.uses.into_iter().map(|u| u.public).collect(),
        skipped: a.skipped,
        notes: a.notes,
    })
}

/// Replaces the instructions of path-omitted skill calls, and injected blocks, with a metadata
/// marker (`{"skillName":...,"path":null,"totalChars":N,"totalLines":M,"compacted":true}`),
/// keeping the `keep_recent` most recent ones whole. File reads are left alone.
pub fn compact_to_metadata(transcript: &Value, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
    let a = analyse(transcript, opts)?;
    let candidates: Vec<usize> = a
        .uses
        .iter()
        .enumerate()
        .filter(|(_, u)| u.slot.is_some() && matches!(u.public.kind, UseKind::Activation | UseKind::Injected))
        .map(|(k, _)| k)
        .collect();
    let take = candidates.len().saturating_sub(opts.keep_recent);
    let planned = candidates
        .into_iter()
        .take(take)
        .filter_map(|k| {
            let u = a.uses.get(k)?;
            let m = marker(&u.public.name, u.public.chars, u.public.lines);
            let replacement = match u.span {
                Some(_) => format!("{}{m}{CLOSE}", open_tag(&u.public.name, Some("compacted"))),
                None => m,
            };
            Some(Planned { use_index: k, action: ChangeAction::Compacted, replacement })
        })
        .collect();
    Ok(apply(transcript, &a, planned))
}

/// Union-find over messages linked by a tool call id (every tool, any of the three shapes).
fn groups(messages: &[Value]) -> Vec<usize> {
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while let Some(&up) = p.get(x) {
            if up == x {
                break;
            }
            let grand = p.get(up).copied().unwrap_or(up);
            if let Some(slot) = p.get_mut(x) {
                *slot = grand;
            }
            x = up;
        }
        x
    }
    let mut parent: Vec<usize> = (0..messages.len()).collect();
    let mut owner: HashMap<String, usize> = HashMap::new();
    let mut link = |parent: &mut Vec<usize>, id: &str, i: usize| match owner.get(id) {
        Some(&o) => {
            let (ra, rb) = (root(parent, o), root(parent, i));
            if ra != rb {
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                if let Some(s) = parent.get_mut(hi) {
                    *s = lo;
                }
            }
        }
        None => {
            owner.insert(id.to_string(), i);
        }
    };
    for (i, m) in messages.iter().enumerate() {
        if let Some(id) = str_field(m, "tool_call_id") {
            link(&mut parent, id, i);
        }
        for c in m.get("tool_calls").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(id) = str_field(c, "id") {
                link(&mut parent, id, i);
            }
        }
        for p in m.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            let id = match str_field(p, "type") {
                Some("tool-call" | "tool-result") => str_field(p, "toolCallId"),
                Some("tool_use") => str_field(p, "id"),
                Some("tool_result") => str_field(p, "tool_use_id"),
                _ => None,
            };
            if let Some(id) = id {
                link(&mut parent, id, i);
            }
        }
    }
    (0..messages.len()).map(|i| root(&mut parent, i)).collect()
}

fn protected_set(messages: &[Value], a: &Analysis, roots: &[usize]) -> Vec<bool> {
    let mut direct = vec![false; messages.len()];
    for u in &a.uses {
        if u.public.kind == UseKind::Error {
            continue;
        }
        if let Some(r) = u.public.result_index {
            for i in [Some(r), u.public.call_index].into_iter().flatten() {
                if let Some(d) = direct.get_mut(i) {
                    *d = true;
                }
            }
        }
    }
    let mut by_root = vec![false; messages.len()];
    for (i, d) in direct.iter().enumerate() {
        if *d {
            if let Some(b) = roots.get(i).and_then(|&r| by_root.get_mut(r)) {
                *b = true;
            }
        }
    }
    roots.iter().map(|&r| by_root.get(r).copied().unwrap_or(false)).collect()
}

/// Indexes of the messages that hold skill content, with the tool-call messages paired with them
/// and those calls' other results (a host that keeps these never splits a call from its result).
pub fn protect(transcript: &Value, opts: &CompactOptions) -> Result<Vec<usize>, Diagnostic> {
    let a = analyse(transcript, opts)?;
    let messages = transcript.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let roots = groups(messages);
    Ok(protected_set(messages, &a, &roots).into_iter().enumerate().filter(|(_, p)| *p).map(|(i, _)| i).collect())
}

/// Drops the oldest messages until the transcript's estimated tokens fit `budget_tokens`, never
/// skill content (see [`protect`]), the first system message or an unreadable message, and a
/// tool call only together with its results. When even dropping everything else would not fit,
/// nothing is dropped and the report says so (`fits: false`): compact the skill content first.
pub fn prune(transcript: &Value, budget_tokens: u64, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
    let a = analyse(transcript, opts)?;
    let messages = transcript.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let mut report = base_report(&a);
    let total = report.tokens_before;
    if total <= budget_tokens {
        report.fits = Some(true);
        return Ok(Compacted { transcript: transcript.clone(), report });
    }
    let roots = groups(messages);
    let protected = protected_set(messages, &a, &roots);
    let first_system = a.info.iter().position(|m| m.role == "system" || m.role == "developer");
    let mut keep_root = vec![false; messages.len()];
    for (i, m) in a.info.iter().enumerate() {
        if protected.get(i).copied().unwrap_or(false) || m.skipped || Some(i) == first_system {
            if let Some(k) = roots.get(i).and_then(|&r| keep_root.get_mut(r)) {
                *k = true;
            }
        }
    }
    let droppable = |i: usize| roots.get(i).and_then(|&r| keep_root.get(r)).is_some_and(|k| !k);
    let kept_tokens: u64 =
        a.info.iter().enumerate().filter(|(i, _)| !droppable(*i)).map(|(_, m)| m.tokens as u64).sum();
    if kept_tokens > budget_tokens {
        report.fits = Some(false);
        report.notes.push(Diagnostic::warning(
            "prune-cannot-fit",
            format!(
                "the transcript ({total} tokens) cannot fit {budget_tokens} tokens without cutting protected content ({kept_tokens} tokens kept); nothing was removed"
            ),
        ));
        return Ok(Compacted { transcript: transcript.clone(), report });
    }
    // Group tokens, groups in order of their first message (the root is the group's lowest index).
    let mut group_tokens: HashMap<usize, u64> = HashMap::new();
    for (i, m) in a.info.iter().enumerate() {
        if droppable(i) {
            if let Some(&r) = roots.get(i) {
                *group_tokens.entry(r).or_insert(0) += m.tokens as u64;
            }
        }
    }
    let mut order: Vec<usize> = group_tokens.keys().copied().collect();
    order.sort_unstable();
    let mut now = total;
    let mut dropped_roots = HashSet::new();
    for r in order {
        if now <= budget_tokens {
            break;
        }
        now -= group_tokens.get(&r).copied().unwrap_or(0);
        dropped_roots.insert(r);
    }
    let mut kept = Vec::with_capacity(messages.len());
    for (i, m) in messages.iter().enumerate() {
        if roots.get(i).is_some_and(|r| dropped_roots.contains(r)) {
            report.removed.push(i);
            let info = a.info.get(i);
            report.changes.push(Change {
                index: i,
                skill: None,
                action: ChangeAction::Removed,
                chars_before: info.map_or(0, |m| m.chars),
                chars_after: 0,
                tokens_before: info.map_or(0, |m| m.tokens),
                tokens_after: 0,
            });
            report.chars_after -= info.map_or(0, |m| m.chars as u64);
        } else {
            kept.push(m.clone());
        }
    }
    report.tokens_after = now;
    report.fits = Some(true);
    Ok(Compacted { transcript: Value::Array(kept), report })
}

/// A block for re-attachment: wrapped, escaped, cut at a line to `per` tokens. None when even
/// the wrapper and the note would not fit.
fn reattach_block(name: &str, content: &str, per: u32) -> Option<(String, usize)> {
    let trimmed = content.trim();
    let mut inner = trimmed;
    if trimmed.starts_with(OPEN) && trimmed.ends_with(CLOSE) {
        if let Some(b) = blocks(trimmed).into_iter().next().filter(|b| b.start == 0 && b.end == trimmed.len()) {
            inner = trimmed.get(b.inner_start..b.inner_end).unwrap_or("");
        }
    }
    let inner = crate::activate::neutralize_markup(inner.trim_matches('\n'));
    let open = open_tag(name, Some("reattached"));
    let full = format!("{open}\n{inner}\n{CLOSE}");
    if estimate_tokens(&full) <= per {
        return Some((full, 0));
    }
    let lines: Vec<&str> = inner.lines().collect();
    let count = |s: &str| s.chars().fold((0u64, 0u64), |(a, o), c| if c.is_ascii() { (a + 1, o) } else { (a, o + 1) });
    let tokens = |(a, o): (u64, u64)| a.div_ceil(4) + o;
    // The note with the largest possible number, so the real one fits too.
    let fixed = count(&format!("{open}\n\n[truncated: {} more lines]\n{CLOSE}", lines.len()));
    let mut acc = fixed;
    let mut kept = 0;
    for l in &lines {
        let c = count(l);
        let next = (acc.0 + c.0 + 1, acc.1 + c.1);
        if tokens(next) > per as u64 {
            break;
        }
        acc = next;
        kept += 1;
    }
    if tokens(fixed) > per as u64 {
        return None;
    }
    let more = lines.len() - kept;
    let mut text = open;
    text.push('\n');
    for l in lines.iter().take(kept) {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str(&format!("[truncated: {more} more lines]\n{CLOSE}"));
    Some((text, more))
}

/// Appends one user message holding the catalog (when given) and the latest content of each
/// skill in `contents` (newest last) whose instructions are no longer in the transcript in full,
/// each cut to `per_skill_tokens`, the most recent first until `total_tokens`. Blocks carry
/// `status="reattached"`. Running it again on its own output changes nothing.
pub fn reattach(
    transcript: &Value,
    contents: &[SkillContent],
    catalog: Option<&str>,
    opts: &CompactOptions,
) -> Result<Compacted, Diagnostic> {
    let a = analyse(transcript, opts)?;
    let mut report = base_report(&a);
    let present: HashSet<&str> = a
        .uses
        .iter()
        .filter(|u| u.slot.is_some())
        .filter(|u| {
            u.public.kind == UseKind::Activation
                || (u.public.kind == UseKind::Injected && u.status.as_deref() != Some("reattached"))
        })
        .map(|u| u.public.name.as_str())
        .collect();
    // The latest content of each skill, newest first.
    let mut seen = HashSet::new();
    let mut newest_first = Vec::new();
    for c in contents.iter().rev() {
        if seen.insert(c.name.as_str()) && !present.contains(c.name.as_str()) {
            newest_first.push(c);
        }
    }
    let mut chosen = Vec::new();
    let mut used = 0u64;
    for c in newest_first {
        match reattach_block(&c.name, &c.content, opts.per_skill_tokens) {
            Some((block, _)) if used + estimate_tokens(&block) as u64 <= opts.total_tokens as u64 => {
                used += estimate_tokens(&block) as u64;
                chosen.push((c.name.clone(), block));
            }
            _ => report.omitted.push(c.name.clone()),
        }
    }
    chosen.reverse();
    let mut text = String::new();
    if let Some(cat) = catalog.filter(|c| !c.trim().is_empty()) {
        text.push_str(cat.trim_end());
    }
    for (_, b) in &chosen {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(b);
    }
    if text.is_empty() {
        return Ok(Compacted { transcript: transcript.clone(), report });
    }
    let message = match a.format {
        TranscriptFormat::OpenAi => serde_json::json!({ "role": "user", "content": text }),
        TranscriptFormat::AiSdk | TranscriptFormat::Anthropic => {
            serde_json::json!({ "role": "user", "content": [{ "type": "text", "text": text }] })
        }
    };
    let messages = transcript.as_array().map(Vec::as_slice).unwrap_or(&[]);
    if messages.last() == Some(&message) {
        report.omitted.clear();
        report.notes.push(Diagnostic::info("already-reattached", "the last message is this re-attachment already"));
        return Ok(Compacted { transcript: transcript.clone(), report });
    }
    let index = messages.len();
    for (name, b) in &chosen {
        let (chars, _, tokens) = text_stats(b);
        report.changes.push(Change {
            index,
            skill: Some(name.clone()),
            action: ChangeAction::Appended,
            chars_before: 0,
            chars_after: chars,
            tokens_before: 0,
            tokens_after: tokens,
        });
    }
    let s = message.to_string();
    report.chars_after += s.chars().count() as u64;
    report.tokens_after += estimate_tokens(&s) as u64;
    let mut out = messages.to_vec();
    out.push(message);
    Ok(Compacted { transcript: Value::Array(out), report })
}

/// Replaces later repeats of the same full activation (same skill, same content, by tool or
/// injected) with an `already-loaded` pointer to the message of the first.
pub fn dedupe(transcript: &Value, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
    let a = analyse(transcript, opts)?;
    let mut firsts: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut planned = Vec::new();
    let inner = |u: &Use| u.text.get(u.inner.0..u.inner.1).unwrap_or("").to_string();
    for (k, u) in a.uses.iter().enumerate() {
        if u.slot.is_none() || !matches!(u.public.kind, UseKind::Activation | UseKind::Injected) {
            continue;
        }
        let body = inner(u);
        let mut h = DefaultHasher::new();
        u.public.name.hash(&mut h);
        body.hash(&mut h);
        let bucket = firsts.entry(h.finish()).or_default();
        let earlier = bucket
            .iter()
            .copied()
            .find(|&e| a.uses.get(e).is_some_and(|f| f.public.name == u.public.name && inner(f) == body));
        match earlier.and_then(|e| a.uses.get(e)).and_then(|f| f.public.result_index) {
            Some(first) => planned.push(Planned {
                use_index: k,
                action: ChangeAction::Deduped,
                replacement: pointer_text(&u.public.name, first),
            }),
            None => bucket.push(k),
        }
    }
    Ok(apply(transcript, &a, planned))
}
