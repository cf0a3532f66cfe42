//! Bringing skill content back after a compaction, and removing repeated activations.

use super::analyse::*;
use super::apply::*;
use super::types::*;
use crate::content::*;
use crate::diagnostic::{codes, Diagnostic};
use crate::text::{estimate_tokens, TokenCount};
use serde_json::Value;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// A block for re-attachment: wrapped, escaped, cut at a line to `per` tokens. None when even
/// the wrapper and the note would not fit.
pub(super) fn reattach_block(name: &str, content: &str, per: u32) -> Option<(String, usize)> {
    let trimmed = content.trim();
    let mut inner = trimmed;
    if trimmed.starts_with(CONTENT_OPEN) && trimmed.ends_with(CONTENT_CLOSE) {
        if let Some(b) = blocks(trimmed).into_iter().next().filter(|b| b.start == 0 && b.end == trimmed.len()) {
            inner = trimmed.get(b.inner_start..b.inner_end).unwrap_or("");
        }
    }
    let inner = neutralize_wrapper(inner.trim_matches('\n'));
    let open = open_tag(name, Some(STATUS_REATTACHED));
    let full = format!("{open}\n{inner}\n{CONTENT_CLOSE}");
    if estimate_tokens(&full) <= per {
        return Some((full, 0));
    }
    let lines: Vec<&str> = inner.lines().collect();
    // The note with the largest possible number, so the real one fits too.
    let fixed = TokenCount::of(&format!("{open}\n\n[truncated: {} more lines]\n{CONTENT_CLOSE}", lines.len()));
    let newline = TokenCount::of("\n");
    let mut acc = fixed;
    let mut kept = 0;
    for l in &lines {
        let next = acc + TokenCount::of(l) + newline;
        if next.tokens() > per as u64 {
            break;
        }
        acc = next;
        kept += 1;
    }
    if fixed.tokens() > per as u64 {
        return None;
    }
    let more = lines.len() - kept;
    let mut text = open;
    text.push('\n');
    for l in lines.iter().take(kept) {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str(&format!("[truncated: {more} more lines]\n{CONTENT_CLOSE}"));
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
                || (u.public.kind == UseKind::Injected && u.status.as_deref() != Some(STATUS_REATTACHED))
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
        report
            .notes
            .push(Diagnostic::info(codes::ALREADY_REATTACHED, "the last message is this re-attachment already"));
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
