//! What the registry reports about its skills as a whole: what a refresh changed, and the names
//! an answer about an unknown skill lists. Both are linear in the number of skills.

use super::record::SkillRecord;
use super::types::{RefreshReport, SkillRef};
use std::collections::HashMap;
use std::rc::Rc;

/// The most names an answer about an unknown skill lists.
pub const MAX_NAMES_LISTED: usize = 100;

/// Records by scope and key. A key that repeats (overlapping roots) is matched by its first
/// record, as a search in order would.
fn by_location(records: &[SkillRecord]) -> HashMap<(&str, &str), &SkillRecord> {
    let mut map = HashMap::with_capacity(records.len());
    for r in records {
        map.entry((r.scope.as_str(), r.location.as_str())).or_insert(r);
    }
    map
}

fn skill_ref(r: &SkillRecord) -> SkillRef {
    SkillRef {
        name: r.skill.name().unwrap_or_default().to_string(),
        scope: r.scope.clone(),
        location: r.location.clone(),
    }
}

/// Whether `new` holds something else than `old`, the record of the same key before: another
/// size, etag or skill (the same shared skill is not compared field by field).
fn changed(old: &SkillRecord, new: &SkillRecord) -> bool {
    let same_skill = match (old.skill.as_ref(), new.skill.as_ref()) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    };
    old.etag != new.etag || old.size != new.size || !same_skill
}

/// What changed from `old` to `new`: records whose key is new (added, in `new`'s order), whose
/// size, etag or skill differ (changed), and whose key is gone (removed, in `old`'s order).
pub(super) fn diff(old: &[SkillRecord], new: &[SkillRecord]) -> RefreshReport {
    let (before, now) = (by_location(old), by_location(new));
    let mut report = RefreshReport::default();
    for r in new {
        match before.get(&(r.scope.as_str(), r.location.as_str())) {
            None => report.added.push(skill_ref(r)),
            Some(o) if changed(o, r) => report.changed.push(skill_ref(r)),
            Some(_) => {}
        }
    }
    for o in old {
        if !now.contains_key(&(o.scope.as_str(), o.location.as_str())) {
            report.removed.push(skill_ref(o));
        }
    }
    report
}

/// What changed from `old` to `new` when they have the same keys in the same order and only the
/// records at the positions of `read` were built anew: those of them that changed. Linear in
/// `read`, not in the records.
pub(super) fn diff_at(old: &[SkillRecord], new: &[SkillRecord], read: &[usize]) -> RefreshReport {
    let mut report = RefreshReport::default();
    for &i in read {
        if let (Some(o), Some(r)) = (old.get(i), new.get(i)) {
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
