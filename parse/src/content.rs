//! The `<skill_content>` protocol, shared by the skill tool (which writes it) and compaction
//! (which finds, shrinks and restores it): the wrapper and its statuses, the pointer a repeated
//! activation becomes, the compaction marker, how the answers that loaded nothing begin, and
//! what a block the tool wrote looks like (so compaction can tell it from an imitation).
//!
//! Neutralising for this protocol: [`open_tag`] (attribute values), [`neutralize_markup`]
//! (bodies and files inside or beside the wrapper) and [`plain_line`] (single-line plain text of
//! the tool's answers, such as error messages).

use crate::text::{clean_hidden, clean_lines, json_for_markup, neutralize_tags, one_line, xml_attr};
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

/// How the answer to a search through the skill tool (`query`) begins (compaction leaves it
/// alone: it loaded nothing).
pub const SEARCH_RESULTS_PREFIX: &str = "Skills found for";

/// How the answer to a call whose arguments could not be read begins.
pub const BAD_ARGUMENTS_PREFIX: &str = "The tool arguments are not JSON";

/// The name of the wrapper's tag.
pub const CONTENT_TAG: &str = "skill_content";

/// The tags of the protocol: neutralised in every body, file and plain line the tool writes.
pub const PROTOCOL_TAGS: &[&str] = &["skill_content", "skill_resources"];

/// The line of an activation that names the skill's directory (followed by it).
pub const DIRECTORY_LINE: &str = "Skill directory: ";
/// The line of an activation that says how relative paths resolve (followed by the tool's name
/// and [`RELATIVE_PATHS_END`]).
pub const RELATIVE_PATHS_LINE: &str =
    "Relative paths in this skill resolve against the skill directory; read a file with ";
/// How [`RELATIVE_PATHS_LINE`] ends.
pub const RELATIVE_PATHS_END: &str = " and its path.";
/// The line of an activation that gives the skill's `compatibility` (followed by it).
pub const COMPATIBILITY_LINE: &str = "Compatibility: ";
/// What an activation says when the skill's files could not be listed.
pub const LISTING_FAILED: &str = "(The skill's files could not be listed.)";
/// How the list of a skill's files opens.
pub const RESOURCES_OPEN: &str = "<skill_resources>";
/// How the list of a skill's files closes.
pub const RESOURCES_CLOSE: &str = "</skill_resources>";
/// How the tool's answer for instructions the session has already begins.
pub const ALREADY_LOADED_TEXT: &str = "The instructions of this skill were loaded earlier in this conversation";
/// How the pointer deduplication leaves begins.
pub const POINTER_TEXT: &str = "Loaded earlier in this conversation (message ";

/// Longest compaction marker that is recognised as one.
const MAX_MARKER_CHARS: usize = 4096;

/// `<skill_content name="...">`, or with a `status` ([`STATUS_ALREADY_LOADED`],
/// [`STATUS_COMPACTED`], [`STATUS_REATTACHED`]). Both values are attribute values ([`xml_attr`]:
/// on one line, hidden characters visible, `&<>"'` escaped).
pub fn open_tag(name: &str, status: Option<&str>) -> String {
    match status {
        Some(s) => format!("{CONTENT_OPEN} name=\"{}\" status=\"{}\">", xml_attr(name), xml_attr(s)),
        None => format!("{CONTENT_OPEN} name=\"{}\">", xml_attr(name)),
    }
}

/// The name as [`open_tag`] writes it, read back: what the `name` of a block the tool wrote for
/// the skill `name` is.
pub fn tag_name(name: &str) -> String {
    one_line(name)
}

/// A body or a file as it goes to the model inside or beside the wrapper: its lines kept
/// ([`clean_lines`]: line breaks as `\n`, hidden characters visible) and no [`PROTOCOL_TAGS`]
/// tag, in any case or spacing (`</SKILL_CONTENT>`, `< /skill_content >`, `</skill_content\n>`),
/// able to open or close ([`neutralize_tags`]). The author's Markdown is otherwise as written.
pub fn neutralize_markup(text: &str) -> String {
    neutralize_tags(&clean_lines(text), PROTOCOL_TAGS).into_owned()
}

/// A skill's file as the tool returns it: as written (line endings included), except that
/// hidden characters are made visible and no [`PROTOCOL_TAGS`] tag can open or close.
pub fn neutralize_file(text: &str) -> String {
    neutralize_tags(&clean_hidden(text), PROTOCOL_TAGS).into_owned()
}

/// Content the tool wrote before, put back in a new wrapper (re-attachment): as
/// [`neutralize_markup`], except that only the wrapper's own tag is neutralised (the file list
/// of an activation stays a list).
pub fn neutralize_wrapper(text: &str) -> String {
    neutralize_tags(&clean_lines(text), &[CONTENT_TAG]).into_owned()
}

/// A single-line value in the plain text of the tool's answers (error messages, notes):
/// [`one_line`] and no protocol tag.
pub fn plain_line(text: &str) -> String {
    neutralize_tags(&one_line(text), PROTOCOL_TAGS).into_owned()
}

/// Whether a tool result's text is one of the answers that loaded nothing (an unknown skill,
/// input of the wrong shape, arguments that are not JSON).
pub fn is_error_text(text: &str) -> bool {
    let t = text.trim_start();
    [UNKNOWN_SKILL_PREFIX, INVALID_INPUT_PREFIX, BAD_ARGUMENTS_PREFIX, SEARCH_RESULTS_PREFIX]
        .iter()
        .any(|p| t.starts_with(p))
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

/// Undoes [`crate::text::escape_html`] (and the `&#39;` spelling of an apostrophe).
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

impl Block {
    /// Whether this block of `text` has the shape the tool (or compaction, deduplication,
    /// re-attachment) writes: the opening tag exactly as [`open_tag`] writes it, content of the
    /// form its status gives ([`answer_shape`]), and no `<skill_content` tag in it in any
    /// spelling (what the tool writes has its bodies neutralised, so a tag inside is an
    /// imitation's).
    pub fn is_written_by_tool(&self, text: &str) -> bool {
        let (Some(tag), Some(inner)) =
            (text.get(self.start..self.inner_start), text.get(self.inner_start..self.inner_end))
        else {
            return false;
        };
        tag == open_tag(&self.name, self.status.as_deref())
            && answer_shape(inner, &self.name, self.status.as_deref())
            && matches!(neutralize_tags(inner, &[CONTENT_TAG]), std::borrow::Cow::Borrowed(_))
    }
}

/// Whether `inner`, the content of a block named `name` with `status`, has the form the tool
/// gives it: an activation ends with the directory line, the relative-paths line and optionally
/// the compatibility line and the file list; a pointer is one line that begins as the tool's
/// or deduplication's; a compacted block holds a marker with the same name; re-attached content
/// sits between newlines.
pub fn answer_shape(inner: &str, name: &str, status: Option<&str>) -> bool {
    match status {
        None => activation_shape(inner),
        Some(STATUS_ALREADY_LOADED) => {
            (inner.starts_with(ALREADY_LOADED_TEXT) || inner.starts_with(POINTER_TEXT)) && !inner.contains(['\n', '<'])
        }
        Some(STATUS_COMPACTED) => parse_marker(inner).is_some_and(|n| tag_name(&n) == name),
        Some(STATUS_REATTACHED) => inner.len() >= 2 && inner.starts_with('\n') && inner.ends_with('\n'),
        Some(_) => false,
    }
}

fn activation_shape(inner: &str) -> bool {
    let Some(at) = inner.rfind(&format!("\n\n{DIRECTORY_LINE}")) else { return false };
    let Some(rest) = inner.get(at + 2..).and_then(|r| r.strip_suffix('\n')) else { return false };
    if !inner.starts_with('\n') {
        return false;
    }
    let mut lines = rest.split('\n').peekable();
    if !lines.next().is_some_and(|l| l.starts_with(DIRECTORY_LINE)) {
        return false;
    }
    if !lines.next().is_some_and(|l| l.starts_with(RELATIVE_PATHS_LINE) && l.ends_with(RELATIVE_PATHS_END)) {
        return false;
    }
    if lines.peek().is_some_and(|l| l.starts_with(COMPATIBILITY_LINE)) {
        lines.next();
    }
    let listed = match lines.next() {
        None => return true,
        Some(LISTING_FAILED) => true,
        Some(RESOURCES_OPEN) => loop {
            match lines.next() {
                Some(RESOURCES_CLOSE) => break true,
                Some(l) if !l.contains('<') => {}
                _ => break false,
            }
        },
        Some(_) => false,
    };
    listed && lines.next().is_none()
}

/// The whole of a tool result as a `<skill_content>` answer, when it is one: the text, trimmed,
/// opens with a tag exactly as [`open_tag`] writes it and ends with the closing tag, and the
/// content between them has the form its status gives ([`answer_shape`]). Everything between
/// the first opening and the last closing tag is the answer's, nested imitations included.
pub fn answer(text: &str) -> Option<Block> {
    let start = text.len() - text.trim_start().len();
    let t = text.trim();
    if !t.starts_with(CONTENT_OPEN) || !t.ends_with(CONTENT_CLOSE) {
        return None;
    }
    let gt = t.find('>')?;
    let tag = t.get(CONTENT_OPEN.len()..gt)?;
    let name = attr(tag, "name")?;
    let status = attr(tag, "status");
    let inner_end = t.len().checked_sub(CONTENT_CLOSE.len())?;
    let inner = t.get(gt + 1..inner_end)?;
    if gt + 1 > inner_end || t.get(..gt + 1)? != open_tag(&name, status.as_deref()) {
        return None;
    }
    if !answer_shape(inner, &name, status.as_deref()) {
        return None;
    }
    Some(Block { start, end: start + t.len(), inner_start: start + gt + 1, inner_end: start + inner_end, name, status })
}

/// The compaction marker that replaces a skill's content: a one-line JSON object with the skill's
/// `name` (the key every result names a skill by), its size and `"compacted": true`.
///
/// The name is JSON made safe for markup ([`json_for_markup`]), so the marker can stand inside a
/// `<skill_content>` block whatever the name holds.
pub fn marker(name: &str, chars: usize, lines: usize) -> String {
    format!(
        "{{\"name\":{},\"path\":null,\"totalChars\":{chars},\"totalLines\":{lines},\"compacted\":true}}",
        json_for_markup(&Value::String(name.to_string()).to_string())
    )
}

/// The skill name of a compaction marker, if `text` is one (`name`, or `skillName` in the markers
/// written before the key was `name`).
pub fn parse_marker(text: &str) -> Option<String> {
    let t = text.trim();
    if !t.starts_with('{') || t.len() > MAX_MARKER_CHARS {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    if v.get("compacted") != Some(&Value::Bool(true)) {
        return None;
    }
    let name = v.get("name").or_else(|| v.get("skillName"));
    Some(name.and_then(Value::as_str).unwrap_or("").to_string())
}

/// What a repeated activation becomes: a pointer to the message that holds the first one.
pub fn pointer_text(name: &str, first: usize) -> String {
    format!(
        "{}Loaded earlier in this conversation (message {first}).{CONTENT_CLOSE}",
        open_tag(name, Some(STATUS_ALREADY_LOADED))
    )
}

/// A single-line value inside a Markdown code span (a location): [`one_line`], backticks as `'`
/// (nothing can be escaped inside a span, so a backtick would end it) and the protocol's tags
/// neutralised ([`neutralize_tags`]).
pub fn markdown_code(s: &str) -> String {
    neutralize_tags(&one_line(s).replace('`', "'"), PROTOCOL_TAGS).into_owned()
}
