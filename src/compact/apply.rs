//! Applying planned replacements to a transcript, and the report of what they changed.

use super::analyse::*;
use super::format::*;
use super::types::*;
use crate::text::estimate_tokens;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

pub(super) enum Edit {
    Whole(String),
    Spans(Vec<(usize, usize, String)>),
}

pub(super) struct Planned {
    pub(super) use_index: usize,
    pub(super) action: ChangeAction,
    pub(super) replacement: String,
}

/// Applies replacements of uses' text (whole results or blocks) and reports them.
pub(super) fn apply(transcript: &Value, a: &Analysis, planned: Vec<Planned>) -> Compacted {
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
                crate::sort::sort_by_key(&mut spans, |s| s.0);
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

pub(super) fn base_report(a: &Analysis) -> CompactReport {
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
