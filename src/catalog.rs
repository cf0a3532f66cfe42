//! The catalog: what the model sees of the available skills up front (name, description and,
//! optionally, location), with the instructions that go with it. Filtering happens before
//! rendering, so a hidden skill is absent rather than listed and then refused; a size budget is
//! met deterministically and everything shortened or dropped is reported.

use crate::model::{Diagnostic, SkillMeta};
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// One skill as the catalog shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
pub struct CatalogEntry {
    pub name: String,
    pub description: String,
    pub location: String,
}

/// How the catalog is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum CatalogFormat {
    /// `<available_skills>` with one `<skill>` per line (the client guide's layout, compact).
    #[default]
    Xml,
    /// The reference implementation's `to-prompt` layout: one tag or value per line.
    Reference,
    /// A JSON array of `{ name, description, location? }`.
    Json,
    /// A Markdown bullet list.
    Markdown,
}

/// How the model loads a skill, which decides the instructions that go with the catalog.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum ActivationStyle {
    /// The model calls the skill tool.
    #[default]
    Tool,
    /// The model reads SKILL.md files itself (it has a file-reading tool).
    Read,
}

/// The tiers models are ranked in when none are given, lowest first.
pub const DEFAULT_TIERS: [&str; 4] = ["lite", "standard", "pro", "ultra"];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", default)]
pub struct CatalogOptions {
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub format: CatalogFormat,
    /// Show each skill's location (leave it out when the skill tool returns the directory).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub include_location: bool,
    /// `zh`, `zh-CN` ...: `description_zh` is shown where a skill has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub locale: Option<String>,
    /// Names the host has switched off.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub disabled: Vec<String>,
    /// The tier of the model the catalog is for; skills whose `min_tier` is higher are hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub model_tier: Option<String>,
    /// Tier names, lowest first (default: lite, standard, pro, ultra).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tiers: Option<Vec<String>>,
    /// The host's version, checked against `compatibility` values that are version ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub host_version: Option<String>,
    /// The most characters the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_chars: Option<u32>,
    /// The most estimated tokens the catalog may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub budget_tokens: Option<u32>,
    /// Names to keep when skills must be dropped, most important first; the others go first,
    /// last name first.
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub priority: Vec<String>,
    /// Descriptions are not cut below this many characters (default 60).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub min_description_chars: u32,
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub activation: ActivationStyle,
    /// The skill tool's name, for the instructions (default `view_skill`).
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tool_name: String,
    /// Replaces the built-in instructions.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub instructions: Option<String>,
}

impl Default for CatalogOptions {
    fn default() -> Self {
        CatalogOptions {
            format: CatalogFormat::Xml,
            include_location: true,
            locale: None,
            disabled: Vec::new(),
            model_tier: None,
            tiers: None,
            host_version: None,
            budget_chars: None,
            budget_tokens: None,
            priority: Vec::new(),
            min_description_chars: 60,
            activation: ActivationStyle::Tool,
            tool_name: crate::activate::DEFAULT_TOOL_NAME.to_string(),
            instructions: None,
        }
    }
}

/// A skill left out of the catalog, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct HiddenSkill {
    pub name: String,
    /// `disabled`, `not-permitted`, `model-invocation-disabled`, `tier` or `compatibility`.
    pub reason: String,
    pub message: String,
}

/// A rendered catalog, or the reason there is none, and what was left out or cut to fit.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CatalogResult {
    /// The catalog; null when no skill is visible (then there is nothing to show the model,
    /// no instructions and no tool).
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub text: Option<String>,
    /// The instructions that go with it; null when there is no catalog.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub instructions: Option<String>,
    /// The skills in the catalog, in its order.
    pub skills: Vec<String>,
    /// Skills filtered out before rendering.
    pub hidden: Vec<HiddenSkill>,
    /// Skills whose description was cut to fit the budget.
    pub shortened: Vec<String>,
    /// Skills dropped to fit the budget.
    pub dropped: Vec<String>,
    pub chars: u32,
    /// Estimated tokens of `text`.
    pub tokens: u32,
    pub diagnostics: Vec<Diagnostic>,
}

/// A rough token count, for budgets: about four characters of ASCII text per token, one per
/// character of other scripts (CJK text runs close to one token per character).
pub fn estimate_tokens(s: &str) -> u32 {
    let (mut ascii, mut other) = (0u32, 0u32);
    for c in s.chars() {
        if c.is_ascii() {
            ascii += 1;
        } else {
            other += 1;
        }
    }
    ascii.div_ceil(4) + other
}

/// HTML/XML escaping of `&`, `<`, `>`, `"` and `'` (as the reference's `html.escape`), for the
/// reference layout and attribute values.
pub fn escape_html(s: &str) -> String {
    escape(s, true)
}

/// The reference layout of `<available_skills>` (what `skills-ref to-prompt` prints): one tag or
/// value per line, name and description escaped, location verbatim.
pub fn to_prompt(entries: &[CatalogEntry]) -> String {
    let mut out = String::from("<available_skills>\n");
    for e in entries {
        out.push_str("<skill>\n<name>\n");
        out.push_str(&escape_html(&e.name));
        out.push_str("\n</name>\n<description>\n");
        out.push_str(&escape_html(&e.description));
        out.push_str("\n</description>\n<location>\n");
        out.push_str(&e.location);
        out.push_str("\n</location>\n</skill>\n");
    }
    out.push_str("</available_skills>");
    out
}

/// Escaping for XML element text: `&`, `<` and `>` (quotes need none there, and each escaped
/// quote would cost tokens).
pub fn escape_xml_text(s: &str) -> String {
    escape(s, false)
}

fn escape(s: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// A description on one line: runs of whitespace (newlines included) become one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Characters Markdown reads as syntax, escaped so a name stays literal text.
fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

struct Item<'a> {
    name: &'a str,
    description: String,
    location: Option<&'a str>,
}

fn render(items: &[Item<'_>], format: CatalogFormat) -> String {
    let mut out = String::new();
    match format {
        CatalogFormat::Xml => {
            out.push_str("<available_skills>\n");
            for i in items {
                out.push_str("<skill><name>");
                out.push_str(&escape_xml_text(i.name));
                out.push_str("</name><description>");
                out.push_str(&escape_xml_text(&i.description));
                out.push_str("</description>");
                if let Some(l) = i.location {
                    out.push_str("<location>");
                    out.push_str(&escape_xml_text(l));
                    out.push_str("</location>");
                }
                out.push_str("</skill>\n");
            }
            out.push_str("</available_skills>");
        }
        CatalogFormat::Reference => {
            let entries: Vec<CatalogEntry> = items
                .iter()
                .map(|i| CatalogEntry {
                    name: i.name.to_string(),
                    description: i.description.clone(),
                    location: i.location.unwrap_or("").to_string(),
                })
                .collect();
            out = to_prompt(&entries);
        }
        CatalogFormat::Json => {
            #[derive(Serialize)]
            struct JsonItem<'a> {
                name: &'a str,
                description: &'a str,
                #[serde(skip_serializing_if = "Option::is_none")]
                location: Option<&'a str>,
            }
            let list: Vec<JsonItem> = items
                .iter()
                .map(|i| JsonItem { name: i.name, description: &i.description, location: i.location })
                .collect();
            out = serde_json::to_string(&list).unwrap_or_default();
        }
        CatalogFormat::Markdown => {
            for i in items {
                out.push_str("- **");
                out.push_str(&escape_markdown(i.name));
                out.push_str("**: ");
                out.push_str(&i.description);
                if let Some(l) = i.location {
                    out.push_str(" (`");
                    out.push_str(&l.replace('`', "'"));
                    out.push_str("`)");
                }
                out.push('\n');
            }
            while out.ends_with('\n') {
                out.pop();
            }
        }
    }
    out
}

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

/// Renders the catalog of the skills `filter` lets through, within the budget.
pub fn render_catalog(
    metas: &[SkillMeta],
    opts: &CatalogOptions,
    permitted: &dyn Fn(&SkillMeta) -> bool,
) -> CatalogResult {
    let (shown, hidden, diagnostics) = filter(metas, opts, permitted);
    let mut result = CatalogResult { hidden, diagnostics, ..CatalogResult::default() };
    let mut items: Vec<Item> = shown
        .iter()
        .map(|m| Item {
            name: &m.skill.name,
            description: one_line(localized_description(m, opts.locale.as_deref())),
            location: opts.include_location.then_some(m.location.as_str()),
        })
        .collect();
    if items.is_empty() {
        return result;
    }
    let fits = |text: &str| {
        opts.budget_chars.is_none_or(|b| text.chars().count() as u32 <= b)
            && opts.budget_tokens.is_none_or(|b| estimate_tokens(text) <= b)
    };
    let mut text = render(&items, opts.format);
    if !fits(&text) {
        // 1. Cut the longest descriptions: the largest cap that fits, not below the floor.
        let floor = opts.min_description_chars.max(8) as usize;
        let longest = items.iter().map(|i| i.description.chars().count()).max().unwrap_or(0);
        let originals: Vec<String> = items.iter().map(|i| i.description.clone()).collect();
        let apply = |items: &mut Vec<Item>, cap: usize| {
            for (i, o) in items.iter_mut().zip(&originals) {
                i.description = truncate(o, cap);
            }
        };
        let (mut lo, mut hi) = (floor, longest.max(floor));
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            apply(&mut items, mid);
            if fits(&render(&items, opts.format)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        apply(&mut items, lo);
        result.shortened = items
            .iter()
            .zip(&originals)
            .filter(|(i, o)| &i.description != *o)
            .map(|(i, _)| i.name.to_string())
            .collect();
        text = render(&items, opts.format);
        // 2. Drop skills, least important first, until it fits.
        let importance = |name: &str| opts.priority.iter().position(|p| p == name).unwrap_or(usize::MAX);
        while !fits(&text) && !items.is_empty() {
            let victim = (0..items.len()).max_by(|&a, &b| {
                importance(items[a].name).cmp(&importance(items[b].name)).then(items[a].name.cmp(items[b].name))
            });
            let Some(v) = victim else { break };
            result.dropped.push(items.remove(v).name.to_string());
            text = render(&items, opts.format);
        }
        result.shortened.retain(|n| !result.dropped.contains(n));
        if items.is_empty() {
            result
                .diagnostics
                .push(Diagnostic::warning("catalog-budget", "no skill fits the budget; the catalog is empty"));
            return result;
        }
    }
    result.skills = items.iter().map(|i| i.name.to_string()).collect();
    result.chars = text.chars().count() as u32;
    result.tokens = estimate_tokens(&text);
    result.instructions =
        Some(opts.instructions.clone().unwrap_or_else(|| instructions(opts.activation, &opts.tool_name)));
    result.text = Some(text);
    result
}

/// Cuts `s` to at most `cap` characters at a word boundary where one is near, ending in `…`.
fn truncate(s: &str, cap: usize) -> String {
    if s.chars().count() <= cap {
        return s.to_string();
    }
    let keep: String = s.chars().take(cap.saturating_sub(1)).collect();
    let cut = match keep.rfind(' ') {
        Some(i) if i * 4 >= keep.len() * 3 => &keep[..i],
        _ => keep.as_str(),
    };
    format!("{}…", cut.trim_end())
}

/// The behavioural instructions that go with the catalog, in the client guide's spirit.
pub fn instructions(style: ActivationStyle, tool_name: &str) -> String {
    match style {
        ActivationStyle::Tool => format!(
            "You have skills: folders of instructions, scripts and references for particular tasks. \
             The catalog lists each skill's name and what it is for. When a task matches a skill's \
             description, call the `{tool_name}` tool with the skill's name to load its instructions \
             before you start, then follow them. Load a skill only when it is relevant. To read a \
             file the instructions mention, call `{tool_name}` again with the skill's name and the \
             file's relative path."
        ),
        ActivationStyle::Read => {
            "You have skills: folders of instructions, scripts and references for particular tasks. \
             The catalog lists each skill's name, what it is for and where its SKILL.md is. When a \
             task matches a skill's description, read that SKILL.md before you start and follow it. \
             Read a skill only when it is relevant. Relative paths in a skill resolve against the \
             directory that holds its SKILL.md."
                .to_string()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
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

fn cmp_versions(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| a.get(i).copied().unwrap_or(0).cmp(&b.get(i).copied().unwrap_or(0)))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// `1.2.3`, `v1.2` -> [1, 2, 3]; None when it is not a plain version.
fn parse_version(s: &str) -> Option<Vec<u64>> {
    let s = s.trim().trim_start_matches(['v', 'V']);
    let core = s.split(['-', '+']).next()?;
    let parts: Option<Vec<u64>> = core.split('.').map(|p| p.parse().ok()).collect();
    parts.filter(|p| !p.is_empty() && p.len() <= 4)
}

/// A compatibility value that is entirely a version range (`>=1.0`, `>=1.2, <2`, `=3`); None for
/// free text, which is left alone.
fn parse_range(s: &str) -> Option<Vec<(Op, Vec<u64>)>> {
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
