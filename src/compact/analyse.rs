//! A transcript analysed once for every operation: per message its size, and every use of a skill
//! (tool calls and their results, injected `<skill_content>` blocks) with where its text lives.

use super::attribute::{self, SkillTools};
use super::format::*;
use super::read::*;
use super::types::*;
use crate::content::*;
use crate::diagnostic::{codes, Diagnostic};
use crate::text::{estimate_tokens, TokenCount};
use serde_json::Value;
use std::collections::HashMap;

pub(super) struct MsgInfo {
    pub(super) role: String,
    pub(super) chars: usize,
    pub(super) tokens: u32,
    pub(super) skipped: bool,
}

pub(super) struct Use {
    pub(super) public: SkillUse,
    pub(super) slot: Option<Slot>,
    /// Byte range of the block in the slot's text (injected content).
    pub(super) span: Option<(usize, usize)>,
    /// The result's text, or the block's.
    pub(super) text: String,
    /// Byte range of the content proper within `text` (inside the wrapper, when there is one).
    pub(super) inner: (usize, usize),
    pub(super) status: Option<String>,
}

pub(super) struct Analysis {
    pub(super) format: TranscriptFormat,
    pub(super) info: Vec<MsgInfo>,
    pub(super) uses: Vec<Use>,
    pub(super) skipped: Vec<Skipped>,
    pub(super) notes: Vec<Diagnostic>,
}

pub(super) fn text_stats(s: &str) -> (usize, usize, u32) {
    (s.chars().count(), s.lines().count(), estimate_tokens(s))
}

/// Analyses `transcript`, a message at a time: its format first, then per message its size and
/// the skill uses it holds, in the order they happen: the results of skill calls made earlier,
/// the `<skill_content>` blocks a host injected, and the skill calls it makes (completed by
/// results that come later).
pub(super) fn analyse(transcript: &Value, opts: &CompactOptions) -> Result<Analysis, Diagnostic> {
    let messages = messages_of(transcript)?;
    let mut notes = Vec::new();
    let format = format_of(transcript, messages, opts, &mut notes);
    let mut a = Analyser {
        transcript,
        opts,
        tools: SkillTools::new(transcript, format, opts),
        analysis: Analysis {
            format,
            info: Vec::with_capacity(messages.len()),
            uses: Vec::new(),
            skipped: Vec::new(),
            notes,
        },
        calls: HashMap::new(),
        pending: HashMap::new(),
    };
    for (i, m) in messages.iter().enumerate() {
        let Some(parts) = a.read(i, m)? else { continue };
        for r in parts.results {
            a.tool_result(i, r);
        }
        for slot in parts.texts {
            a.injected(i, slot);
        }
        for c in parts.calls {
            a.tool_call(i, c);
        }
    }
    Ok(a.analysis)
}

/// The transcript's messages, or the error for a transcript that is not an array of them.
fn messages_of(transcript: &Value) -> Result<&Vec<Value>, Diagnostic> {
    transcript.as_array().ok_or_else(|| {
        Diagnostic::error(
            codes::TRANSCRIPT_NOT_ARRAY,
            format!("the transcript is {}, not an array of messages", type_name(transcript)),
        )
    })
}

/// The transcript's format: the one the options name, else the one the transcript shows; AI SDK
/// messages when nothing tells (noted, unless there are no messages).
fn format_of(
    transcript: &Value,
    messages: &[Value],
    opts: &CompactOptions,
    notes: &mut Vec<Diagnostic>,
) -> TranscriptFormat {
    match opts.format.or_else(|| detect_format(transcript)) {
        Some(f) => f,
        None => {
            if !messages.is_empty() {
                notes.push(Diagnostic::info(
                    codes::FORMAT_ASSUMED,
                    "nothing in the transcript tells its format; read as AI SDK messages",
                ));
            }
            TranscriptFormat::AiSdk
        }
    }
}

/// One analysis as it walks the messages: what it has found so far, and the tool calls seen, for
/// the results that answer them.
struct Analyser<'t> {
    transcript: &'t Value,
    opts: &'t CompactOptions,
    /// The tools whose results are the skill tool's.
    tools: SkillTools<'t>,
    analysis: Analysis,
    /// Every tool call so far, by id.
    calls: HashMap<String, Call>,
    /// Skill calls waiting for their result: call id -> index in `uses`.
    pending: HashMap<String, usize>,
}

impl Analyser<'_> {
    /// Reads message `i` and records its size. A message that cannot be read (too deep, too large,
    /// of the wrong shape, or answering a call not made before it) is skipped with a note, or
    /// refused in strict mode. Its parts, when it was read.
    fn read(&mut self, i: usize, m: &Value) -> Result<Option<MsgParts>, Diagnostic> {
        let (opts, calls) = (self.opts, &self.calls);
        let mut size = 0usize;
        let read =
            measure(m, 0, &mut size, opts.max_message_chars).and_then(|_| read_message(i, m, self.analysis.format));
        let read = read.and_then(|(role, parts)| match parts.results.iter().find(|r| !calls.contains_key(&r.id)) {
            Some(r) => Err(bad(
                codes::ORPHAN_TOOL_RESULT,
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
            if problem.as_ref().is_some_and(|p| p.0 == codes::MESSAGE_TOO_DEEP || p.0 == codes::MESSAGE_TOO_LARGE) {
                (size, TokenCount { ascii: size as u64, other: 0 }.tokens().min(u32::MAX as u64) as u32)
            } else {
                let s = m.to_string();
                (s.chars().count(), estimate_tokens(&s))
            };
        self.analysis.info.push(MsgInfo { role, chars, tokens, skipped: problem.is_some() });
        if let Some((code, msg)) = problem {
            let message = format!("message {i}: {msg}");
            if opts.strict {
                return Err(Diagnostic::error(code, message));
            }
            self.analysis.skipped.push(Skipped { index: i, code: code.to_string(), message });
            return Ok(None);
        }
        Ok(parts)
    }

    /// A tool result in message `i`: the result of a skill call completes the use its call
    /// started (a second result for the same call is a use of its own); the result of another
    /// tool is no skill content, noted when it holds some.
    fn tool_result(&mut self, i: usize, r: ResultRef) {
        let Some(call) = self.calls.get(&r.id) else { return };
        let text = read_slot(self.transcript, &r.slot);
        if !self.tools.contains(&call.tool) {
            let named_tools = self.opts.tool_name.is_some();
            self.analysis.notes.extend(attribute::other_tool_note(i, &call.tool, &text, named_tools));
            return;
        }
        let uses = &mut self.analysis.uses;
        let waiting = self.pending.remove(&r.id).filter(|&k| uses.get(k).is_some_and(|u| u.slot.is_none()));
        if let Some(u) = waiting.and_then(|k| uses.get_mut(k)) {
            complete_use(u, i, r, text, &mut self.analysis.notes);
        } else {
            let second = second_result(i, call, r, text, &mut self.analysis.notes);
            self.analysis.uses.push(second);
        }
    }

    /// The `<skill_content>` blocks a host injected into a text of message `i`, each a use;
    /// anything else that looks like one there is the user's text, noted.
    fn injected(&mut self, i: usize, slot: Slot) {
        let text = read_slot(self.transcript, &slot);
        let (blocks, leftover) = attribute::injected(&text);
        if leftover {
            self.analysis.notes.push(attribute::user_note(i));
        }
        for b in blocks {
            let block = text.get(b.start..b.end).unwrap_or("").to_string();
            let (chars, lines, tokens) = text_stats(&block);
            let kind = match b.status.as_deref() {
                Some(STATUS_ALREADY_LOADED) => UseKind::Pointer,
                Some(STATUS_COMPACTED) => UseKind::Compacted,
                _ => UseKind::Injected,
            };
            self.analysis.uses.push(Use {
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

    /// A tool call in message `i`: kept for the results that answer it; a call of the skill tool
    /// starts a use (an activation, or a file read when it names a path) that its result completes.
    fn tool_call(&mut self, i: usize, c: Call) {
        if self.tools.contains(&c.tool) {
            let input = input_object(c.input.as_ref());
            let name = input.as_ref().and_then(|v| str_field(v, "name")).unwrap_or("").to_string();
            let path = input.as_ref().and_then(|v| str_field(v, "path")).filter(|p| !p.is_empty()).map(str::to_string);
            let kind = if path.is_some() { UseKind::File } else { UseKind::Activation };
            self.pending.insert(c.id.clone(), self.analysis.uses.len());
            self.analysis.uses.push(Use {
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
        self.calls.insert(c.id.clone(), c);
    }
}

/// Completes the use `u` that a skill call started with its result `r` (in message `i`, its text
/// `text`): what the result is (instructions, a file, an error, a pointer ...) and where its text
/// lives.
fn complete_use(u: &mut Use, i: usize, r: ResultRef, text: String, notes: &mut Vec<Diagnostic>) {
    let (chars, lines, tokens) = text_stats(&text);
    let named = Some(u.public.name.clone()).filter(|n| !n.is_empty());
    let c = attribute::classify(&text, named, u.public.path.as_deref(), r.is_error);
    notes.extend(c.unrecognised.as_deref().map(|why| attribute::unrecognised_note(i, why)));
    u.public = SkillUse { name: c.name, result_index: Some(i), chars, lines, tokens, kind: c.kind, ..u.public.clone() };
    u.slot = Some(r.slot);
    u.text = text;
    u.inner = c.inner;
    u.status = c.status;
}

/// A second result `r` for the skill call `call` (in message `i`, its text `text`), read on its
/// own as a use of the skill the call names.
fn second_result(i: usize, call: &Call, r: ResultRef, text: String, notes: &mut Vec<Diagnostic>) -> Use {
    let (chars, lines, tokens) = text_stats(&text);
    let input = input_object(call.input.as_ref());
    let name = input.as_ref().and_then(|v| str_field(v, "name")).map(str::to_string);
    let path = input.as_ref().and_then(|v| str_field(v, "path")).filter(|p| !p.is_empty()).map(str::to_string);
    let c = attribute::classify(&text, name, path.as_deref(), r.is_error);
    notes.extend(c.unrecognised.as_deref().map(|why| attribute::unrecognised_note(i, why)));
    let (kind, inner, status) = (c.kind, c.inner, c.status);
    Use {
        public: SkillUse {
            name: c.name,
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
    }
}
