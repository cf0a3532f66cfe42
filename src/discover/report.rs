//! What the registry reports about its skills as a whole: what a refresh changed, and the names
//! an answer about an unknown skill lists. Both are linear in the number of skills.

use super::scan::SkillRecord;
use super::types::{RefreshReport, SkillRef};
use std::collections::HashMap;

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
        name: r.skill.as_ref().map(|s| s.name.clone()).unwrap_or_default(),
        scope: r.scope.clone(),
        location: r.location.clone(),
    }
}

/// What changed from `old` to `new`: records whose key is new (added, in `new`'s order), whose
/// size, etag or skill differ (changed), and whose key is gone (removed, in `old`'s order).
pub(super) fn diff(old: &[SkillRecord], new: &[SkillRecord]) -> RefreshReport {
    let (before, now) = (by_location(old), by_location(new));
    let mut report = RefreshReport::default();
    for r in new {
        match before.get(&(r.scope.as_str(), r.location.as_str())) {
            None => report.added.push(skill_ref(r)),
            Some(o) if o.etag != r.etag || o.size != r.size || o.skill != r.skill => report.changed.push(skill_ref(r)),
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
