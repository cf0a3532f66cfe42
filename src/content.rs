//! The `<skill_content>` protocol, shared by the skill tool (which writes it) and compaction
//! (which finds, shrinks and restores it): the wrapper and its statuses, the pointer a repeated
//! activation becomes, the compaction marker, and how the answers that loaded nothing begin.

use crate::text::escape_html;
use serde_json::Value;

/// The skill tool's name unless the host picks another (the client guide uses `activate_skill`).
pub const DEFAULT_TOOL_NAME: &str = "view_skill";

/// How the wrapper around skill content opens (followed by its attributes and `>`).
pub const CONTENT_OPEN: &str = "<skill_content";
/// How the wrapper around skill content closes.
pub const CONTENT_CLOSE: &str = "</skill_content>";

/// The status of a repeated activation: the content was loaded earlier in the conversation.
pub const STATUS_ALREADY_LOADED: &str = "already-loaded";
/// The status of content that compaction replaced with a marker.
pub const STATUS_COMPACTED: &str = "compacted";
/// The status of content put back after compaction.
pub const STATUS_REATTACHED: &str = "reattached";

/// How the answer to a call for a skill that does not exist begins (compaction leaves it alone).
pub const UNKNOWN_SKILL_PREFIX: &str = "There is no skill named";
/// How the answer to a call with input of the wrong shape begins (compaction leaves it alone).
pub const INVALID_INPUT_PREFIX: &str = "The input must be";

/// Longest compaction marker that is recognised as one.
const MAX_MARKER_CHARS: usize = 4096;

/// `<skill_content name="...">`, or with a `status` ([`STATUS_ALREADY_LOADED`],
/// [`STATUS_COMPACTED`], [`STATUS_REATTACHED`]).
pub fn open_tag(name: &str, status: Option<&str>) -> String {
    match status {
        Some(s) => format!("{CONTENT_OPEN} name=\"{}\" status=\"{s}\">", escape_html(name)),
        None => format!("{CONTENT_OPEN} name=\"{}\">", escape_html(name)),
    }
}

/// Content that can neither close the wrapper around it nor open one a transcript scan would take
/// for a skill's.
pub fn neutralize_markup(text: &str) -> String {
    text.replace(CONTENT_CLOSE, "&lt;/skill_content&gt;").replace(CONTENT_OPEN, "&lt;skill_content")
}

/// A complete `<skill_content name="...">...</skill_content>` block in a text, by byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Where the opening tag starts.
    pub start: usize,
    /// Just past the closing tag.
    pub end: usize,
    /// Where the content after the opening tag starts.
    pub inner_start: usize,
    /// Where the closing tag starts.
    pub inner_end: usize,
    /// The `name` attribute, unescaped.
    pub name: String,
    /// The `status` attribute, unescaped, when there is one.
    pub status: Option<String>,
}

/// Undoes [`escape_html`] (and the `&#39;` spelling of an apostrophe).
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

/// The unescaped value of attribute `key` in the text of an opening tag.
fn attr(tag: &str, key: &str) -> Option<String> {
    let pat = format!(" {key}=\"");
    let at = tag.find(&pat)? + pat.len();
    let rest = tag.get(at..)?;
    let end = rest.find('"')?;
    Some(unescape(rest.get(..end)?))
}

/// The complete `<skill_content name="...">...</skill_content>` blocks of a text, in order.
pub fn blocks(s: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(off) = s.get(pos..).and_then(|r| r.find(CONTENT_OPEN)) {
        let start = pos + off;
        let after = start + CONTENT_OPEN.len();
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
        let Some(close) = s.get(gt + 1..).and_then(|r| r.find(CONTENT_CLOSE)).map(|c| gt + 1 + c) else { break };
        out.push(Block {
            start,
            end: close + CONTENT_CLOSE.len(),
            inner_start: gt + 1,
            inner_end: close,
            name,
            status: attr(tag, "status"),
        });
        pos = close + CONTENT_CLOSE.len();
    }
    out
}

/// The compaction marker that replaces a skill's content: a one-line JSON object with the skill's
/// name, its size and `"compacted": true`.
pub fn marker(name: &str, chars: usize, lines: usize) -> String {
    format!(
        "{{\"skillName\":{},\"path\":null,\"totalChars\":{chars},\"totalLines\":{lines},\"compacted\":true}}",
        Value::String(name.to_string())
    )
}

/// The skill name of a compaction marker, if `text` is one.
pub fn parse_marker(text: &str) -> Option<String> {
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

/// What a repeated activation becomes: a pointer to the message that holds the first one.
pub fn pointer_text(name: &str, first: usize) -> String {
    format!(
        "{}Loaded earlier in this conversation (message {first}).{CONTENT_CLOSE}",
        open_tag(name, Some(STATUS_ALREADY_LOADED))
    )
}
