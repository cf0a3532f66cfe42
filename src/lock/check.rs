//! A registry's skills against a lockfile: one pass over the skills present, one lookup each in
//! the sorted entries, one pass over the entries for those missing.

use super::Lockfile;
use crate::diagnostic::{codes, Diagnostic};
use crate::text::one_line;
use std::collections::{HashMap, HashSet};

/// A skill the registry offers, with its content digest as computed now.
#[derive(Debug, Clone)]
pub struct PresentSkill {
    /// The name it is offered under (`pdf`, or `user:pdf` for a same-named skill of another scope).
    pub offered: String,
    /// Its own name.
    pub name: String,
    /// Its scope.
    pub scope: String,
    /// Where it is (`<scope>:<location>`), the diagnostics' path.
    pub path: String,
    /// Its content digest, or why it could not be computed.
    pub digest: Result<String, String>,
}

/// What a lockfile decides about a registry's skills.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LockReport {
    /// The skills refused, by the name they are offered under, with why.
    pub refused: HashMap<String, String>,
    /// One diagnostic per refused skill (`skill-pin-mismatch`, an error), per skill present but
    /// not pinned (`skill-unpinned`) and per pinned skill not present (`skill-pin-missing`),
    /// warnings both.
    pub diagnostics: Vec<Diagnostic>,
}

/// Compares `present` with `lock`. A pinned skill is refused unless its digest is computed and
/// equal to its pin; the message names both digests.
pub fn check(lock: &Lockfile, present: &[PresentSkill]) -> LockReport {
    let mut report = LockReport::default();
    let mut seen: HashSet<(&str, &str)> = HashSet::with_capacity(present.len());
    for p in present {
        seen.insert((&p.scope, &p.name));
        let Some(pin) = lock.entry(&p.scope, &p.name) else {
            let mut d = Diagnostic::warning(
                codes::SKILL_UNPINNED,
                format!("skill '{}' of {} is not pinned in the lockfile", one_line(&p.name), one_line(&p.scope)),
            );
            d.path = Some(p.path.clone());
            report.diagnostics.push(d);
            continue;
        };
        let why = match &p.digest {
            Ok(d) if *d == pin.digest => continue,
            Ok(d) => format!("its content is {d}, not {} as pinned in the lockfile", pin.digest),
            Err(e) => format!(
                "its content digest could not be computed ({}), so it cannot match its pin {}",
                one_line(e),
                pin.digest
            ),
        };
        let message = format!("skill '{}' of {} is refused: {why}", one_line(&p.name), one_line(&p.scope));
        let mut d = Diagnostic::error(codes::SKILL_PIN_MISMATCH, message.clone());
        d.path = Some(p.path.clone());
        report.diagnostics.push(d);
        report.refused.insert(p.offered.clone(), message);
    }
    for e in lock.skills.iter().filter(|e| !seen.contains(&(e.scope.as_str(), e.name.as_str()))) {
        let mut d = Diagnostic::warning(
            codes::SKILL_PIN_MISSING,
            format!(
                "skill '{}' of {} is pinned in the lockfile ({}) but not found",
                one_line(&e.name),
                one_line(&e.scope),
                one_line(&e.location)
            ),
        );
        d.path = Some(format!("{}:{}", e.scope, e.location));
        report.diagnostics.push(d);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::{LockEntry, LockSource};

    const A: &str = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    fn pin(name: &str, digest: &str) -> LockEntry {
        LockEntry {
            name: name.into(),
            scope: "project".into(),
            source: LockSource::Directory { path: format!("src/{name}") },
            location: format!(".agents/skills/{name}"),
            digest: digest.into(),
        }
    }

    fn present(name: &str, digest: Result<&str, &str>) -> PresentSkill {
        PresentSkill {
            offered: name.into(),
            name: name.into(),
            scope: "project".into(),
            path: format!("project:{name}/SKILL.md"),
            digest: digest.map(str::to_string).map_err(str::to_string),
        }
    }

    #[test]
    fn drift_is_refused_naming_both_digests_and_the_rest_is_reported() {
        let lock = Lockfile::new(vec![pin("same", A), pin("drifted", A), pin("gone", A), pin("unread", A)]);
        let report = check(
            &lock,
            &[
                present("same", Ok(A)),
                present("drifted", Ok(B)),
                present("new", Ok(A)),
                present("unread", Err("too big")),
            ],
        );
        let mut refused: Vec<_> = report.refused.keys().cloned().collect();
        refused.sort();
        assert_eq!(refused, ["drifted", "unread"]);
        let found: Vec<_> =
            report.diagnostics.iter().map(|d| (d.code.as_str(), d.path.as_deref().unwrap_or(""))).collect();
        assert_eq!(
            found,
            [
                (codes::SKILL_PIN_MISMATCH, "project:drifted/SKILL.md"),
                (codes::SKILL_UNPINNED, "project:new/SKILL.md"),
                (codes::SKILL_PIN_MISMATCH, "project:unread/SKILL.md"),
                (codes::SKILL_PIN_MISSING, "project:.agents/skills/gone"),
            ]
        );
        let drift = &report.diagnostics[0].message;
        assert!(drift.contains(A) && drift.contains(B), "{drift}");
    }
}
