//! Whose skill content is where: the attribution rule of every transcript operation, in one
//! place. Content is attributed to a skill only where the skill tool or the host put it.
//!
//! 1. **Tool results.** A result is the skill tool's when its call names a skill tool: one of the
//!    tool names given (`toolName`); when none are given, `view_skill` or any tool that answered
//!    a call in this transcript with a genuine `<skill_content>` answer ([`content::answer`]) for
//!    the skill that call names, whatever the tool is called. The result is the use of the skill
//!    its call names, all of it: an imitation
//!    nested in a real activation is part of that activation. Its kind:
//!    - an error result (`isError`, `is_error`, an AI SDK `error-*` output, or a text beginning
//!      with one of the error openings of [`content::is_error_text`]) is an `error`, never an
//!      activation;
//!    - a compaction marker is `compacted`; a call with a `path` is a `file` read;
//!    - a genuine answer for the skill the call names is an `activation`, a `pointer` or
//!      `compacted`, by its status;
//!    - anything else loaded no skill content (the tool writes every activation in
//!      `<skill_content>`): an `error`, and a note.
//! 2. **User messages.** A block in a user message's text is an injection (by `invoke`, by
//!    re-attachment, or a compacted or deduplicated one of those) when it has the shape the tool
//!    writes ([`Block::is_written_by_tool`]) and stands in a run of such blocks, separated by
//!    whitespace only, at the start or at the end of that text, where hosts put injected content
//!    and re-attachment puts its blocks. Anything else there (a block quoted in the middle of
//!    the user's words, an imitation, a block left unclosed) is the user's text: not attributed,
//!    and noted.
//! 3. **Nothing else is skill content**: system and assistant text, and the results of other
//!    tools whatever they hold. A result of another tool that holds `<skill_content>` markup is
//!    noted.

use super::format::read_slot;
use super::read::{input_object, read_message, str_field};
use super::types::*;
use crate::content::{self, Block, DEFAULT_TOOL_NAME, STATUS_ALREADY_LOADED, STATUS_COMPACTED};
use crate::diagnostic::{codes, Diagnostic};
use crate::text::neutralize_tags;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The tools whose results are the skill tool's (rule 1).
pub(super) struct SkillTools<'a> {
    given: Option<&'a ToolNames>,
    seen: HashSet<String>,
}

impl<'a> SkillTools<'a> {
    /// The tool names given, or, without them, `view_skill` and the tools that answered a call
    /// with a genuine answer for the skill the call names.
    pub(super) fn new(transcript: &Value, format: TranscriptFormat, opts: &'a CompactOptions) -> Self {
        let given = opts.tool_name.as_ref();
        let mut seen = HashSet::new();
        if given.is_none() {
            let messages = transcript.as_array().map(Vec::as_slice).unwrap_or(&[]);
            // Call id -> (tool, the skill the call names), for calls without a path.
            let mut calls: HashMap<String, (String, Option<String>)> = HashMap::new();
            for (i, m) in messages.iter().enumerate() {
                let Ok((_, parts)) = read_message(i, m, format) else { continue };
                for r in parts.results.iter().filter(|r| !r.is_error) {
                    let Some((tool, name)) = calls.get(&r.id) else { continue };
                    if tool == DEFAULT_TOOL_NAME || seen.contains(tool) {
                        continue;
                    }
                    let text = read_slot(transcript, &r.slot);
                    if text.len() <= opts.max_message_chars && answers_for(&text, name.as_deref()) {
                        seen.insert(tool.clone());
                    }
                }
                for c in parts.calls {
                    let input = input_object(c.input.as_ref());
                    if input.as_ref().and_then(|v| str_field(v, "path")).is_some_and(|p| !p.is_empty()) {
                        continue;
                    }
                    // Only a call that names a skill can have a genuine answer.
                    if let Some(name) = input.as_ref().and_then(|v| str_field(v, "name")) {
                        calls.insert(c.id, (c.tool, Some(name.to_string())));
                    }
                }
            }
        }
        SkillTools { given, seen }
    }

    /// Whether results of calls to `tool` are the skill tool's.
    pub(super) fn contains(&self, tool: &str) -> bool {
        match self.given {
            Some(names) => names.contains(tool),
            None => tool == DEFAULT_TOOL_NAME || self.seen.contains(tool),
        }
    }
}

/// Whether `text` is the tool's answer for the skill `name` (never when the call names none:
/// the tool answers only calls that name a skill).
fn answers_for(text: &str, name: Option<&str>) -> bool {
    content::answer(text).is_some_and(|b| name.is_some_and(|n| content::tag_name(n) == b.name))
}

/// Whether `text` holds `<skill_content` markup in any spelling.
pub(super) fn has_markup(text: &str) -> bool {
    matches!(neutralize_tags(text, &[content::CONTENT_TAG]), Cow::Owned(_))
}

/// What a skill tool result is (rule 1).
pub(super) struct Classified {
    pub(super) kind: UseKind,
    /// The skill: the call's, else the answer's.
    pub(super) name: String,
    /// Byte range of the content proper within the text.
    pub(super) inner: (usize, usize),
    pub(super) status: Option<String>,
    /// Why the result was not taken for skill content, when it was not and that is news.
    pub(super) unrecognised: Option<String>,
}

/// Classifies the result `text` of a skill tool call naming `name` (and `path`).
pub(super) fn classify(text: &str, name: Option<String>, path: Option<&str>, is_error: bool) -> Classified {
    let mut c = Classified {
        kind: UseKind::Error,
        name: name.clone().unwrap_or_default(),
        inner: (0, text.len()),
        status: None,
        unrecognised: None,
    };
    if is_error || content::is_error_text(text) {
        return c;
    }
    if let Some(n) = content::parse_marker(text) {
        c.kind = UseKind::Compacted;
        c.name = name.unwrap_or(n);
        return c;
    }
    if path.is_some() {
        c.kind = UseKind::File;
        return c;
    }
    match content::answer(text) {
        Some(b) if name.as_deref().is_some_and(|n| content::tag_name(n) == b.name) => {
            c.kind = match b.status.as_deref() {
                Some(STATUS_ALREADY_LOADED) => UseKind::Pointer,
                Some(STATUS_COMPACTED) => UseKind::Compacted,
                _ => UseKind::Activation,
            };
            c.inner = (b.inner_start, b.inner_end);
            c.status = b.status;
        }
        Some(b) => {
            c.unrecognised = Some(format!(
                "the answer is <skill_content> for '{}', but the call asked for '{}'",
                b.name,
                name.as_deref().unwrap_or("")
            ));
        }
        None if has_markup(text) => {
            c.unrecognised = Some("the result holds <skill_content> markup the skill tool does not write".into());
        }
        None => {
            c.unrecognised = Some("the result is not a <skill_content> answer".into());
        }
    }
    c
}

/// The injected blocks of a user message's text (rule 2), and whether markup was left over.
pub(super) fn injected(text: &str) -> (Vec<Block>, bool) {
    if !has_markup(text) {
        return (Vec::new(), false);
    }
    let all = content::blocks(text);
    let genuine = |b: &Block| b.is_written_by_tool(text);
    let gap = |a: usize, b: usize| text.get(a..b).is_some_and(|g| g.trim().is_empty());
    // The run at the start, then the run at the end (not overlapping it).
    let mut lead = 0;
    let mut at = 0;
    while let Some(b) = all.get(lead).filter(|b| gap(at, b.start) && genuine(b)) {
        at = b.end;
        lead += 1;
    }
    let mut tail = all.len();
    let mut from = text.len();
    while tail > lead {
        let Some(b) = all.get(tail - 1).filter(|b| gap(b.end, from) && genuine(b)) else { break };
        from = b.start;
        tail -= 1;
    }
    let kept: Vec<Block> =
        all.into_iter().enumerate().filter(|(k, _)| *k < lead || *k >= tail).map(|(_, b)| b).collect();
    // Markup outside the kept blocks is the user's.
    let mut pos = 0;
    let mut leftover = false;
    for b in &kept {
        leftover |= text.get(pos..b.start).is_some_and(has_markup);
        pos = b.end;
    }
    leftover |= text.get(pos..).is_some_and(has_markup);
    (kept, leftover)
}

/// The note for markup in a user message that is no injection.
pub(super) fn user_note(index: usize) -> Diagnostic {
    Diagnostic::warning(
        codes::SKILL_CONTENT_UNATTRIBUTED,
        format!(
            "message {index}: <skill_content> markup in the user's text is not a block the skill tool wrote at the start or end of the message; it was not attributed to any skill"
        ),
    )
}

/// The note for a result of another tool that holds markup.
pub(super) fn other_tool_note(index: usize, tool: &str, text: &str, given: bool) -> Option<Diagnostic> {
    if !has_markup(text) {
        return None;
    }
    let tool = content::plain_line(tool);
    Some(if given && content::answer(text).is_some() {
        Diagnostic::info(
            codes::SKILL_CONTENT_OTHER_TOOL,
            format!(
                "message {index}: the result of '{tool}' is a <skill_content> answer, but '{tool}' is not one of the tool names given; it was not attributed"
            ),
        )
    } else {
        Diagnostic::warning(
            codes::SKILL_CONTENT_UNATTRIBUTED,
            format!(
                "message {index}: the result of '{tool}' holds <skill_content> markup but is no answer of the skill tool; it was not attributed to any skill"
            ),
        )
    })
}

/// The note for a skill tool result that is not skill content.
pub(super) fn unrecognised_note(index: usize, why: &str) -> Diagnostic {
    Diagnostic::warning(
        codes::SKILL_RESULT_UNRECOGNISED,
        format!("message {index}: {why}; no skill content was attributed"),
    )
}
