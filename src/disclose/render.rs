//! Rendering the catalog: the skills the filters let through, as entries of the chosen format,
//! fitted to the budget ([`super::budget`]), with the instructions that go with them.

use super::budget;
use super::filter::{filter, localized_description};
use super::format::{instructions, one_line};
use super::{CatalogOptions, CatalogResult, HiddenSkill};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::SkillMeta;
use crate::parse::Skill;
use crate::text::estimate_tokens;
use std::collections::BTreeMap;

/// Renders the catalog of the skills `filter` lets through, within the budget.
pub fn render_catalog(
    metas: &[SkillMeta],
    opts: &CatalogOptions,
    permitted: &dyn Fn(&SkillMeta) -> bool,
) -> CatalogResult {
    let (shown, hidden, diagnostics) = filter(metas, opts, permitted);
    render_shown(&shown, hidden, diagnostics, opts)
}

/// What a catalog reads of a skill it shows: its fields, and where its SKILL.md is as the model is
/// shown it. A host's view reads both from the registry's records, so that a catalog of many
/// skills builds no [`SkillMeta`] for each.
pub trait ShownSkill {
    /// The skill's name (read for every skill shown; the fields only for those the catalog keeps).
    fn name(&self) -> &str;
    /// The skill's fields.
    fn skill(&self) -> &Skill;
    /// Where its SKILL.md is as the model is shown it (see [`SkillMeta::shown_path`]).
    fn shown_path(&self, scope_paths: &BTreeMap<String, String>) -> String;
    /// Whether every list of these is in name order, as a registry's offered skills are: then the
    /// catalog does not compare every name with the next to find out (at 100,000 skills a tenth
    /// of a budgeted catalog's time).
    const IN_NAME_ORDER: bool = false;
}

impl<T: ShownSkill + ?Sized> ShownSkill for &T {
    const IN_NAME_ORDER: bool = T::IN_NAME_ORDER;
    fn name(&self) -> &str {
        (**self).name()
    }
    fn skill(&self) -> &Skill {
        (**self).skill()
    }
    fn shown_path(&self, scope_paths: &BTreeMap<String, String>) -> String {
        (**self).shown_path(scope_paths)
    }
}

impl ShownSkill for SkillMeta {
    fn name(&self) -> &str {
        &self.skill.name
    }
    fn skill(&self) -> &Skill {
        &self.skill
    }
    fn shown_path(&self, scope_paths: &BTreeMap<String, String>) -> String {
        SkillMeta::shown_path(self, scope_paths)
    }
}

/// Renders the catalog of skills already filtered (`shown`, in order), within the budget; `hidden`
/// and `diagnostics` are what the filtering found, passed on in the result.
pub fn render_shown<S: ShownSkill>(
    shown: &[S],
    hidden: Vec<HiddenSkill>,
    diagnostics: Vec<Diagnostic>,
    opts: &CatalogOptions,
) -> CatalogResult {
    let mut result = CatalogResult { hidden, diagnostics, ..CatalogResult::default() };
    if shown.is_empty() {
        return result;
    }
    // Each skill read when the fitting needs it: a catalog that shows a hundred of 100,000 skills
    // writes the descriptions and locations of those it keeps.
    let name_of = |i: usize| shown[i].name();
    let item_of = |i: usize| {
        let m = &shown[i];
        let description = one_line(localized_description(m.skill(), opts.locale.as_deref()));
        (description, opts.include_location.then(|| m.shown_path(&opts.scope_paths)))
    };
    debug_assert!(!S::IN_NAME_ORDER || shown.windows(2).all(|w| w[0].name() <= w[1].name()));
    let fitted = budget::fit_lazy(shown.len(), &name_of, &item_of, S::IN_NAME_ORDER, opts, truncate);
    result.shortened = fitted.shortened;
    result.dropped = fitted.dropped;
    let Some(text) = fitted.text else {
        result
            .diagnostics
            .push(Diagnostic::warning(codes::CATALOG_BUDGET, "no skill fits the budget; the catalog is empty"));
        return result;
    };
    result.skills = fitted.skills;
    result.chars = text.chars().count() as u32;
    result.tokens = estimate_tokens(&text);
    result.instructions =
        Some(opts.instructions.clone().unwrap_or_else(|| instructions(opts.activation, &opts.tool_name)));
    result.text = Some(text);
    result
}

/// Whether the catalog of `shown` within the budget of `opts` must drop some: their names alone
/// overflow it (read without the rest of each skill).
pub fn names_overflow<S: ShownSkill>(shown: &[S], opts: &CatalogOptions) -> bool {
    budget::names_overflow(shown.len(), &|i| shown[i].name(), opts)
}

/// Cuts `s` to at most `cap` characters at a word boundary where one is near, ending in `…`.
pub(super) fn truncate(s: &str, cap: usize) -> String {
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
