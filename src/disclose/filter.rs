//! Which skills the catalog shows: model invocation, the host's filters, tiers, compatibility
//! ranges, and the description in the host's locale.

use super::{CatalogOptions, HiddenSkill, DEFAULT_TIERS};
use crate::diagnostic::Diagnostic;
use crate::discover::SkillMeta;

/// The description for `locale`: `zh-CN` tries `zh-CN` (or `zh_CN`), then `zh`, then the default.
pub fn localized_description<'a>(meta: &'a SkillMeta, locale: Option<&str>) -> &'a str {
    if let Some(loc) = locale.map(|l| l.trim().replace('_', "-").to_ascii_lowercase()).filter(|l| !l.is_empty()) {
        let find = |want: &str| {
            meta.skill
                .localized_descriptions
                .iter()
                .find(|(k, _)| k.replace('_', "-").to_ascii_lowercase() == want)
                .map(|(_, v)| v.as_str())
        };
        if let Some(d) = find(&loc).or_else(|| loc.split('-').next().and_then(find)) {
            return d;
        }
    }
    &meta.skill.description
}

/// Splits skills into the ones the catalog shows and the ones it hides, in name order.
pub fn filter<'a>(
    metas: &'a [SkillMeta],
    opts: &CatalogOptions,
    permitted: &dyn Fn(&SkillMeta) -> bool,
) -> (Vec<&'a SkillMeta>, Vec<HiddenSkill>, Vec<Diagnostic>) {
    let tiers: Vec<String> =
        opts.tiers.clone().unwrap_or_else(|| DEFAULT_TIERS.iter().map(|t| t.to_string()).collect());
    let rank = |t: &str| tiers.iter().position(|x| x.eq_ignore_ascii_case(t.trim()));
    let mut diagnostics = Vec::new();
    let model_rank = match opts.model_tier.as_deref() {
        Some(t) => {
            let r = rank(t);
            if r.is_none() {
                diagnostics.push(Diagnostic::warning(
                    "tier-unknown",
                    format!("the model tier '{t}' is not one of {}; min_tier is not applied", tiers.join(", ")),
                ));
            }
            r
        }
        None => None,
    };
    let host = opts.host_version.as_deref().and_then(parse_version);
    let mut shown = Vec::new();
    let mut hidden = Vec::new();
    let mut hide = |m: &SkillMeta, reason: &str, message: String| {
        hidden.push(HiddenSkill { name: m.skill.name.clone(), reason: reason.into(), message })
    };
    for m in metas {
        let s = &m.skill;
        if opts.disabled.iter().any(|d| d == &s.name) {
            hide(m, "disabled", "switched off by the host".into());
            continue;
        }
        if s.disable_model_invocation {
            hide(
                m,
                "model-invocation-disabled",
                "disable-model-invocation: true (the user can still invoke it)".into(),
            );
            continue;
        }
        if let Some(min) = s.min_tier.as_deref() {
            match (rank(min), model_rank) {
                (None, _) => diagnostics.push(Diagnostic::warning(
                    "tier-unknown",
                    format!("skill '{}' asks for min_tier '{min}', which is not one of {}", s.name, tiers.join(", ")),
                )),
                (Some(need), Some(have)) if need > have => {
                    hide(m, "tier", format!("needs a {min} model or better"));
                    continue;
                }
                _ => {}
            }
        }
        if let (Some(range), Some(host)) = (s.compatibility.as_deref().and_then(parse_range), host.as_ref()) {
            if !range.iter().all(|(op, v)| op.holds(host, v)) {
                hide(
                    m,
                    "compatibility",
                    format!(
                        "compatibility '{}' excludes host version {}",
                        s.compatibility.as_deref().unwrap_or(""),
                        opts.host_version.as_deref().unwrap_or("")
                    ),
                );
                continue;
            }
        }
        if !permitted(m) {
            hide(m, "not-permitted", "the host's permission check refused it".into());
            continue;
        }
        shown.push(m);
    }
    (shown, hidden, diagnostics)
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

impl Op {
    fn holds(self, host: &[u64], v: &[u64]) -> bool {
        let ord = cmp_versions(host, v);
        match self {
            Op::Ge => ord.is_ge(),
            Op::Gt => ord.is_gt(),
            Op::Le => ord.is_le(),
            Op::Lt => ord.is_lt(),
            Op::Eq => ord.is_eq(),
        }
    }
}

pub(super) fn cmp_versions(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| a.get(i).copied().unwrap_or(0).cmp(&b.get(i).copied().unwrap_or(0)))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// `1.2.3`, `v1.2` -> [1, 2, 3]; None when it is not a plain version.
pub(super) fn parse_version(s: &str) -> Option<Vec<u64>> {
    let s = s.trim().trim_start_matches(['v', 'V']);
    let core = s.split(['-', '+']).next()?;
    let parts: Option<Vec<u64>> = core.split('.').map(|p| p.parse().ok()).collect();
    parts.filter(|p| !p.is_empty() && p.len() <= 4)
}

/// A compatibility value that is entirely a version range (`>=1.0`, `>=1.2, <2`, `=3`); None for
/// free text, which is left alone.
pub(super) fn parse_range(s: &str) -> Option<Vec<(Op, Vec<u64>)>> {
    let mut s = s.trim().to_string();
    for op in [">=", "<=", "==", ">", "<", "="] {
        while s.contains(&format!("{op} ")) {
            s = s.replace(&format!("{op} "), op);
        }
    }
    let mut out = Vec::new();
    for part in s.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let p = part.trim();
        let (op, rest) = [(">=", Op::Ge), ("<=", Op::Le), (">", Op::Gt), ("<", Op::Lt), ("==", Op::Eq), ("=", Op::Eq)]
            .iter()
            .find_map(|(t, op)| p.strip_prefix(t).map(|r| (*op, r)))?;
        out.push((op, parse_version(rest)?));
    }
    (!out.is_empty()).then_some(out)
}
