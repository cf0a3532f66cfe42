//! Reading one message: its tool calls, tool results and texts, with every bound checked (depth,
//! size, types); a message that cannot be read is a problem, not a panic.

use super::format::*;
use super::types::*;
use crate::diagnostic::codes;
use serde_json::Value;

/// Nesting deeper than this inside one message is refused (the walk is recursive).
pub(super) const MAX_DEPTH: usize = 64;

pub(super) struct Call {
    pub(super) index: usize,
    pub(super) id: String,
    pub(super) tool: String,
    pub(super) input: Option<Value>,
}

pub(super) struct ResultRef {
    pub(super) id: String,
    pub(super) slot: Slot,
    pub(super) is_error: bool,
}

#[derive(Default)]
pub(super) struct MsgParts {
    pub(super) calls: Vec<Call>,
    pub(super) results: Vec<ResultRef>,
    pub(super) texts: Vec<Slot>,
}

pub(super) type Problem = (&'static str, String);

pub(super) fn bad(code: &'static str, msg: impl Into<String>) -> Problem {
    (code, msg.into())
}

/// Checks depth and counts string bytes, stopping early past the limit.
pub(super) fn measure(v: &Value, depth: usize, size: &mut usize, limit: usize) -> Result<(), Problem> {
    if depth > MAX_DEPTH {
        return Err(bad(codes::MESSAGE_TOO_DEEP, format!("nested deeper than {MAX_DEPTH} levels")));
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
        return Err(bad(codes::MESSAGE_TOO_LARGE, format!("larger than {limit} characters")));
    }
    Ok(())
}

pub(super) fn ptr(i: usize, rest: &str) -> String {
    format!("/{i}{rest}")
}

pub(super) fn content_kind(content: Option<&Value>, allow_null: bool, allow_string: bool) -> Result<(), Problem> {
    match content {
        None | Some(Value::Null) if allow_null => Ok(()),
        Some(Value::String(_)) if allow_string => Ok(()),
        Some(Value::Array(parts)) => match parts.iter().position(|p| !p.is_object()) {
            Some(j) => Err(bad(codes::BAD_CONTENT, format!("content part {j} is not an object"))),
            None => Ok(()),
        },
        Some(other) => Err(bad(codes::BAD_CONTENT, format!("content is {}", type_name(other)))),
        None => Err(bad(codes::BAD_CONTENT, "content is missing")),
    }
}

pub(super) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(super) fn str_field<'a>(o: &'a Value, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

/// User text slots: the string content, or each text part.
pub(super) fn user_texts(i: usize, m: &Value, out: &mut MsgParts) {
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

pub(super) fn read_message(i: usize, m: &Value, format: TranscriptFormat) -> Result<(String, MsgParts), Problem> {
    let Some(obj) = m.as_object() else {
        return Err(bad(codes::MESSAGE_NOT_OBJECT, format!("the message is {}, not an object", type_name(m))));
    };
    let Some(role) = obj.get("role").and_then(Value::as_str) else {
        return Err(bad(codes::BAD_ROLE, "the message has no role"));
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
                                return Err(bad(codes::BAD_TOOL_CALL, format!("tool call {j} has no id")));
                            };
                            let f = c.get("function").or_else(|| c.get("custom"));
                            let tool = f.and_then(|f| str_field(f, "name")).unwrap_or("").to_string();
                            let input = f.and_then(|f| f.get("arguments").or_else(|| f.get("input"))).cloned();
                            out.calls.push(Call { index: i, id: id.to_string(), tool, input });
                        }
                    }
                    Some(other) => {
                        return Err(bad(codes::BAD_TOOL_CALL, format!("tool_calls is {}", type_name(other))))
                    }
                }
            }
            "tool" => {
                content_kind(content, true, true)?;
                let Some(id) = str_field(m, "tool_call_id") else {
                    return Err(bad(codes::BAD_TOOL_RESULT, "the tool message has no tool_call_id"));
                };
                let kind = if matches!(content, Some(Value::Array(_))) { SlotKind::Parts } else { SlotKind::Str };
                out.results.push(ResultRef {
                    id: id.to_string(),
                    slot: Slot { parent: ptr(i, ""), key: "content", kind },
                    is_error: false,
                });
            }
            other => return Err(bad(codes::UNKNOWN_ROLE, format!("unknown role \"{other}\" for OpenAI messages"))),
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
                                return Err(bad(codes::BAD_TOOL_CALL, format!("tool-call part {j} has no toolCallId")));
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
                                return Err(bad(
                                    codes::BAD_TOOL_RESULT,
                                    format!("tool-result part {j} has no toolCallId"),
                                ));
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
                                        codes::BAD_TOOL_RESULT,
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
            other => return Err(bad(codes::UNKNOWN_ROLE, format!("unknown role \"{other}\" for AI SDK messages"))),
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
                                return Err(bad(codes::BAD_TOOL_CALL, format!("tool_use block {j} has no id")));
                            };
                            let tool = str_field(p, "name").unwrap_or("").to_string();
                            out.calls.push(Call { index: i, id: id.to_string(), tool, input: p.get("input").cloned() });
                        }
                        Some("tool_result") if role == "user" => {
                            let Some(id) = str_field(p, "tool_use_id") else {
                                return Err(bad(
                                    codes::BAD_TOOL_RESULT,
                                    format!("tool_result block {j} has no tool_use_id"),
                                ));
                            };
                            let kind = match p.get("content") {
                                Some(Value::Array(a)) => {
                                    if a.iter().any(|x| !x.is_object()) {
                                        return Err(bad(
                                            codes::BAD_CONTENT,
                                            format!("tool_result block {j}: a content block is not an object"),
                                        ));
                                    }
                                    SlotKind::Parts
                                }
                                None | Some(Value::Null) | Some(Value::String(_)) => SlotKind::Str,
                                Some(other) => {
                                    return Err(bad(
                                        codes::BAD_CONTENT,
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
            other => return Err(bad(codes::UNKNOWN_ROLE, format!("unknown role \"{other}\" for Anthropic messages"))),
        },
    }
    Ok((role.to_string(), out))
}

/// A tool call's input as a JSON object: an object as it is, or a string that holds one (the
/// arguments as OpenAI sends them); None for anything else.
pub(super) fn input_object(input: Option<&Value>) -> Option<Value> {
    match input? {
        Value::String(s) => crate::json::from_str(s).ok().filter(Value::is_object),
        v @ Value::Object(_) => Some(v.clone()),
        _ => None,
    }
}
