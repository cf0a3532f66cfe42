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

pub(super) fn analyse(transcript: &Value, opts: &CompactOptions) -> Result<Analysis, Diagnostic> {
    let Some(messages) = transcript.as_array() else {
        return Err(Diagnostic::error(
            codes::TRANSCRIPT_NOT_ARRAY,
            format!("the transcript is {}, not an array of messages", type_name(transcript)),
        ));
    };
    let mut notes = Vec::new();
    let format = match opts.format.or_else(|| detect_format(transcript)) {
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
    };
    let tools = SkillTools::new(transcript, format, opts);
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
            let text = read_slot(transcript, &r.slot);
            if !tools.contains(&call.tool) {
                notes.extend(attribute::other_tool_note(i, &call.tool, &text, opts.tool_name.is_some()));
                continue;
            }
            let (chars, lines, tokens) = text_stats(&text);
            let waiting = pending.remove(&r.id).filter(|&k| uses.get(k).is_some_and(|u| u.slot.is_none()));
            if let Some(u) = waiting.and_then(|k| uses.get_mut(k)) {
                let named = Some(u.public.name.clone()).filter(|n| !n.is_empty());
                let c = attribute::classify(&text, named, u.public.path.as_deref(), r.is_error);
                notes.extend(c.unrecognised.as_deref().map(|why| attribute::unrecognised_note(i, why)));
                u.public = SkillUse {
                    name: c.name,
                    result_index: Some(i),
                    chars,
                    lines,
                    tokens,
                    kind: c.kind,
                    ..u.public.clone()
                };
                u.slot = Some(r.slot);
                u.text = text;
                u.inner = c.inner;
                u.status = c.status;
            } else {
                // A second result for the same call: read it on its own.
                let input = input_object(call.input.as_ref());
                let name = input.as_ref().and_then(|v| str_field(v, "name")).map(str::to_string);
                let path =
                    input.as_ref().and_then(|v| str_field(v, "path")).filter(|p| !p.is_empty()).map(str::to_string);
                let c = attribute::classify(&text, name, path.as_deref(), r.is_error);
                notes.extend(c.unrecognised.as_deref().map(|why| attribute::unrecognised_note(i, why)));
                let (kind, inner, status) = (c.kind, c.inner, c.status);
                uses.push(Use {
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
                });
            }
        }
        for slot in parts.texts {
            let text = read_slot(transcript, &slot);
            let (blocks, leftover) = attribute::injected(&text);
            if leftover {
                notes.push(attribute::user_note(i));
            }
            for b in blocks {
                let block = text.get(b.start..b.end).unwrap_or("").to_string();
                let (chars, lines, tokens) = text_stats(&block);
                let kind = match b.status.as_deref() {
                    Some(STATUS_ALREADY_LOADED) => UseKind::Pointer,
                    Some(STATUS_COMPACTED) => UseKind::Compacted,
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
            if tools.contains(&c.tool) {
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
