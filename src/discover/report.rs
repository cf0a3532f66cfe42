//! What the registry reports about its skills as a whole: what a refresh changed, and the names
//! an answer about an unknown skill lists. Both are linear in the number of skills.

use super::record::SkillRecord;
use super::records::{Record, Records};
use super::types::{RefreshReport, SkillRef};
use std::collections::HashMap;
use std::rc::Rc;

/// The most names an answer about an unknown skill lists.
pub const MAX_NAMES_LISTED: usize = 100;

/// Records by scope and key. A key that repeats (overlapping roots) is matched by its first
/// record, as a search in order would.
fn by_location<'a>(records: impl Iterator<Item = Record<'a>>, n: usize) -> HashMap<(&'a str, &'a str), Record<'a>> {
    let mut map = HashMap::with_capacity(n);
    for r in records {
        map.entry((r.scope(), r.location())).or_insert(r);
    }
    map
}

fn skill_ref(r: Record) -> SkillRef {
    SkillRef {
        name: r.skill().name().unwrap_or_default().to_string(),
        scope: r.scope().to_string(),
        location: r.location().to_string(),
    }
}

/// Whether `new` holds something else than `old`, the record of the same key before: another
/// size, etag or skill (the same shared skill is not compared field by field).
fn changed(old: Record, new: Record) -> bool {
    if old.etag() != new.etag() || old.size() != new.size() {
        return true;
    }
    // A stored skill kept by the refresh is the same one (nothing decoded to compare them).
    if let (Some(a), Some(b)) = (old.skill().stored(), new.skill().stored()) {
        if a.bytes().as_ptr() == b.bytes().as_ptr() {
            return false;
        }
    }
    match (old.skill().as_ref(), new.skill().as_ref()) {
        (Some(a), Some(b)) => !(Rc::ptr_eq(a, b) || a == b),
        (None, None) => false,
        _ => true,
    }
}

/// What changed from `old` to `new`: records whose key is new (added, in `new`'s order), whose
/// size, etag or skill differ (changed), and whose key is gone (removed, in `old`'s order).
pub(super) fn diff(old: &Records, new: &[SkillRecord]) -> RefreshReport {
    let (before, now) = (by_location(old.iter(), old.len()), by_location(new.iter().map(Record::Parsed), new.len()));
    let mut report = RefreshReport::default();
    for r in new.iter().map(Record::Parsed) {
        match before.get(&(r.scope(), r.location())) {
            None => report.added.push(skill_ref(r)),
            Some(&o) if changed(o, r) => report.changed.push(skill_ref(r)),
            Some(_) => {}
        }
    }
    for o in old.iter() {
        if !now.contains_key(&(o.scope(), o.location())) {
            report.removed.push(skill_ref(o));
        }
    }
    report
}

/// What changed from `old` to `new` when they have the same keys in the same order and only the
/// records at the positions of `read` were built anew: those of them that changed. Linear in
/// `read`, not in the records.
pub(super) fn diff_at(old: &Records, new: &[SkillRecord], read: &[usize]) -> RefreshReport {
    let mut report = RefreshReport::default();
    for &i in read {
        if let (Some(o), Some(r)) = (old.get(i), new.get(i).map(Record::Parsed)) {
            if changed(o, r) {
                report.changed.push(skill_ref(r));
            }
        }
    }
    report
}

/// Names, comma-separated: the first [`MAX_NAMES_LISTED`] of them, then how many more there are.
pub(super) fn names_line<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut out = String::new();
    for (i, n) in names.take(MAX_NAMES_LISTED).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
    }
    if total > MAX_NAMES_LISTED {
        out.push_str(&format!(" and {} more", total - MAX_NAMES_LISTED));
    }
    out
}
