//! Who sees which skill: the host's filters (disabled names, the permission predicate, tiers,
//! compatibility ranges), the skill's own model and user invocation fields, and the description in
//! the host's locale.

use super::{CatalogOptions, HiddenSkill, DEFAULT_TIERS};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{SkillHead, SkillMeta};
use crate::parse::Skill;
use std::borrow::Cow;

/// The description for `locale`: `zh-CN` tries `zh-CN` (or `zh_CN`), then `zh`, then the default.
pub fn localized_description<'a>(skill: &'a Skill, locale: Option<&str>) -> &'a str {
    if let Some(loc) = locale.map(|l| l.trim().replace('_', "-").to_ascii_lowercase()).filter(|l| !l.is_empty()) {
        let find = |want: &str| {
            skill
                .localized_descriptions
                .iter()
                .find(|(k, _)| k.replace('_', "-").to_ascii_lowercase() == want)
                .map(|(_, v)| v.as_str())
        };
        if let Some(d) = find(&loc).or_else(|| loc.split('-').next().and_then(find)) {
            return d;
        }
    }
    &skill.description
}

/// Most agents one skill's `agents` list is read with.
const MAX_AGENTS: usize = 256;

/// The agents a skill is offered to, when it says: `metadata.agents` as a YAML list or as one
/// string of names separated by commas or spaces, or a top-level `agents` field in either form.
/// None when the skill names no agent (it is offered to every agent).
pub fn skill_agents(skill: &crate::parse::Skill) -> Option<Vec<String>> {
    use serde_json::Value;
    let from = |v: &Value| -> Option<Vec<String>> {
        let names: Vec<String> = match v {
            Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Value::String(text) => text.split([',', ' ', '\t', '\n']).map(str::to_string).collect(),
            _ => return None,
        };
        let names: Vec<String> =
            names.into_iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).take(MAX_AGENTS).collect();
        (!names.is_empty()).then_some(names)
    };
    if let Some(v) = skill.metadata_structured.get("agents") {
        return from(v);
    }
    if let Some(text) = skill.metadata.get("agents") {
        return from(&Value::String(text.clone()));
    }
    skill.extra.get("agents").and_then(from)
}

/// Whether a skill is offered to `agent` (names compared without regard to ASCII case).
pub fn offered_to_agent(skill: &crate::parse::Skill, agent: &str) -> bool {
    skill_agents(skill).is_none_or(|names| names.iter().any(|n| n.eq_ignore_ascii_case(agent.trim())))
}

/// What the filters read of a skill: its head, its other fields only when a rule reads them, and
/// the meta the host's predicate is called with, built only when the predicate is asked (never
/// when the host has none).
pub trait FilterItem {
    /// The skill's name and invocation fields.
    fn head(&self) -> SkillHead<'_>;
    /// The skill's fields.
    fn skill(&self) -> &Skill;
    /// The skill's meta, for the host's predicate (None refuses the skill).
    fn meta(&self) -> Option<Cow<'_, SkillMeta>>;
}

impl FilterItem for &SkillMeta {
    fn head(&self) -> SkillHead<'_> {
        SkillHead::of(&self.skill)
    }
    fn skill(&self) -> &Skill {
        &self.skill
    }
    fn meta(&self) -> Option<Cow<'_, SkillMeta>> {
        Some(Cow::Borrowed(self))
    }
}

/// Who may see and use a skill: the model (catalog, tool, subagents) and the user (`/name`,
/// `$name`, autocomplete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Audience {
    /// The catalog lists it and the tool serves it.
    pub model: bool,
    /// `/name` and `$name` inject it and autocomplete suggests it.
    pub user: bool,
}

/// What the filters decided for a list of skills: an [`Audience`] per skill (in the order given),
/// the skills the model does not see with the reason, and findings about the filters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Audiences {
    /// Per skill, in the order of the input.
    pub audience: Vec<Audience>,
    /// The skills hidden from the model (the catalog's `hidden`), in the order of the input.
    pub hidden: Vec<HiddenSkill>,
    /// Findings (a tier that is not one of the tiers ...).
    pub diagnostics: Vec<Diagnostic>,
}

/// Decides, once per skill, who sees it. The host's rules hide a skill from everyone: `disabled`
/// names, a `min_tier` above the model's, a `compatibility` range that excludes the host, an
/// `agents` list that does not name the agent the options are for, and a `permitted` predicate
/// that refuses it. The skill's own fields then split the audiences, as in
/// Claude Code: `disable-model-invocation: true` hides it from the model only, `user-invocable:
/// false` from the user only. `permitted` is called at most once per skill, and not for skills
/// already hidden from both.
/// With no `permitted`, no meta is asked of an item (see [`FilterItem`]).
pub fn audiences<I: FilterItem>(
    items: impl IntoIterator<Item = I>,
    opts: &CatalogOptions,
    permitted: Option<&dyn Fn(&SkillMeta) -> Verdict>,
) -> Audiences {
    let tiers: Vec<String> =
        opts.tiers.clone().unwrap_or_else(|| DEFAULT_TIERS.iter().map(|t| t.to_string()).collect());
    let mut out = Audiences::default();
    let model_rank = opts.model_tier.as_deref().and_then(|t| model_tier_rank(t, &tiers, &mut out.diagnostics));
    let host = opts.host_version.as_deref().and_then(parse_version);
    let disabled: std::collections::HashSet<&str> = opts.disabled.iter().map(String::as_str).collect();
    for item in items {
        let head = item.head();
        let own = Audience { model: !head.disable_model_invocation, user: head.user_invocable };
        let hidden_by_host = if disabled.contains(head.name) {
            Some(("disabled", "switched off by the host".to_string()))
        } else {
            // Each rule in a function of its own, called only when the host or the skill sets
            // what it reads: most hosts set none of them, and most skills neither (the skill's
            // other fields are not read then: a skill a snapshot holds is not decoded).
            let mut found = None;
            if head.sets_tier_or_compatibility {
                let s = item.skill();
                if let Some(min) = s.min_tier.as_deref() {
                    found = tier_rule(s, min, &tiers, model_rank, &mut out.diagnostics);
                }
                if let (None, Some(range), Some(host)) = (&found, s.compatibility.as_deref(), host.as_deref()) {
                    found = version_rule(range, host, opts);
                }
            }
            if let (None, Some(agent)) = (&found, opts.agent.as_deref()) {
                found = agent_rule(item.skill(), agent);
            }
            if let (None, Some(p)) = (&found, permitted) {
                if own.model || own.user {
                    found = permission_rule(head.name, item.meta().map(|m| p(&m)), &mut out.diagnostics);
                }
            }
            found
        };
        let audience = match &hidden_by_host {
            Some(_) => Audience::default(),
            None => own,
        };
        if !audience.model {
            let (reason, message) = hidden_by_host.unwrap_or_else(|| {
                (
                    "model-invocation-disabled",
                    "disable-model-invocation: true (the user can still invoke it)".to_string(),
                )
            });
            out.hidden.push(HiddenSkill { name: head.name.to_string(), reason: reason.into(), message });
        }
        out.audience.push(audience);
    }
    out
}

/// Why a skill is hidden from everyone, and what to tell: a reason code and a message.
type Hidden = Option<(&'static str, String)>;

/// What the host's `permitted` predicate answered for a skill: allowed or not, or why it gave no
/// answer (it threw).
pub type Verdict = Result<bool, String>;

/// The host's predicate's verdict on a skill (None: the skill has no meta to ask about). Anything
/// but a yes hides it (default deny); a predicate that failed is also a warning naming the skill.
#[inline(never)]
fn permission_rule(name: &str, verdict: Option<Verdict>, diags: &mut Vec<Diagnostic>) -> Hidden {
    match verdict {
        Some(Ok(true)) => None,
        Some(Err(why)) => {
            diags.push(Diagnostic::warning(
                codes::PERMITTED_FAILED,
                format!("the host's permitted check failed for skill '{name}' ({why}); the skill is hidden"),
            ));
            Some(("not-permitted", format!("the host's permission check failed: {why}")))
        }
        _ => Some(("not-permitted", "the host's permission check refused it".to_string())),
    }
}

/// The rank of the model's tier among `tiers`; a tier not among them is a warning, and no
/// `min_tier` applies.
#[inline(never)]
fn model_tier_rank(tier: &str, tiers: &[String], diags: &mut Vec<Diagnostic>) -> Option<usize> {
    let rank = tier_rank(tier, tiers);
    if rank.is_none() {
        diags.push(Diagnostic::warning(
            codes::TIER_UNKNOWN,
            format!("the model tier '{tier}' is not one of {}; min_tier is not applied", tiers.join(", ")),
        ));
    }
    rank
}

fn tier_rank(tier: &str, tiers: &[String]) -> Option<usize> {
    tiers.iter().position(|x| x.eq_ignore_ascii_case(tier.trim()))
}

/// A skill's `min_tier` against the model's tier (a tier not among `tiers` is a warning).
#[inline(never)]
fn tier_rule(s: &Skill, min: &str, tiers: &[String], model: Option<usize>, diags: &mut Vec<Diagnostic>) -> Hidden {
    match (tier_rank(min, tiers), model) {
        (None, _) => {
            diags.push(Diagnostic::warning(
                codes::TIER_UNKNOWN,
                format!("skill '{}' asks for min_tier '{min}', which is not one of {}", s.name, tiers.join(", ")),
            ));
            None
        }
        (Some(need), Some(have)) if need > have => Some(("tier", format!("needs a {min} model or better"))),
        _ => None,
    }
}

/// A skill's `compatibility`, when it is a version range, against the host's version.
#[inline(never)]
fn version_rule(compatibility: &str, host: &[u64], opts: &CatalogOptions) -> Hidden {
    let range = parse_range(compatibility)?;
    if range.iter().all(|(op, v)| op.holds(host, v)) {
        return None;
    }
    Some((
        "compatibility",
        format!("compatibility '{compatibility}' excludes host version {}", opts.host_version.as_deref().unwrap_or("")),
    ))
}

/// A skill's `agent` list against the agent the options are for.
#[inline(never)]
fn agent_rule(s: &Skill, agent: &str) -> Hidden {
    if offered_to_agent(s, agent) {
        return None;
    }
    let names = skill_agents(s).unwrap_or_default().join(", ");
    Some(("agent", format!("offered only to the agents {names}, not to '{agent}'")))
}

/// Splits skills into the ones the catalog shows and the ones it hides, in the order given.
pub fn filter<'a>(
    metas: &'a [SkillMeta],
    opts: &CatalogOptions,
    permitted: &dyn Fn(&SkillMeta) -> bool,
) -> (Vec<&'a SkillMeta>, Vec<HiddenSkill>, Vec<Diagnostic>) {
    let verdict = |m: &SkillMeta| Ok(permitted(m));
    let a = audiences(metas, opts, Some(&verdict));
    let shown = metas.iter().zip(&a.audience).filter(|(_, a)| a.model).map(|(m, _)| m).collect();
    (shown, a.hidden, a.diagnostics)
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
