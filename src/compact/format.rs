//! Which of the three shapes a transcript has, and where text lives in a message of each (the
//! slots that operations read and rewrite).

use super::types::*;
use serde_json::{Map, Value};
use std::hash::Hash;

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
pub(super) enum SlotKind {
    /// `parent[key]` is a string (null, absent or other JSON read as text).
    Str,
    /// `parent[key]` is an array of parts; the text is that of its `{ type: "text", text }` parts.
    Parts,
    /// `parent[key]` is an AI SDK `{ type: "json" | "error-json", value }` output.
    AiJson,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Slot {
    /// JSON pointer from the transcript's root to the object holding `key`.
    pub(super) parent: String,
    pub(super) key: &'static str,
    pub(super) kind: SlotKind,
}

pub(super) fn value_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

pub(super) fn read_slot(root: &Value, slot: &Slot) -> String {
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

pub(super) fn write_slot(root: &mut Value, slot: &Slot, text: String) {
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
