//! The operations over a transcript: find, compact to metadata, protect, prune to a budget.

use super::analyse::*;
use super::apply::*;
use super::read::*;
use super::types::*;
use crate::content::*;
use crate::diagnostic::{codes, Diagnostic};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

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
/// marker (`{"name":...,"path":null,"totalChars":N,"totalLines":M,"compacted":true}`),
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
                Some(_) => format!("{}{m}{CONTENT_CLOSE}", open_tag(&u.public.name, Some(STATUS_COMPACTED))),
                None => m,
            };
            Some(Planned { use_index: k, action: ChangeAction::Compacted, replacement })
        })
        .collect();
    Ok(apply(transcript, &a, planned))
}

/// Union-find over messages linked by a tool call id (every tool, any of the three shapes).
pub(super) fn groups(messages: &[Value]) -> Vec<usize> {
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

pub(super) fn protected_set(messages: &[Value], a: &Analysis, roots: &[usize]) -> Vec<bool> {
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
            codes::PRUNE_CANNOT_FIT,
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
    crate::sort::sort(&mut order);
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
