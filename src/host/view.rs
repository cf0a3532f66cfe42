//! Who sees which skill, computed once per registry generation and configuration: the skills
//! the model is offered (catalog, tool, subagents) and the skills the user may invoke (`/name`,
//! `$name`, autocomplete). Everything that shows or serves skills reads one of these, so the
//! parts agree.

use super::config::SkillsConfig;
use crate::diagnostic::Diagnostic;
use crate::disclose::{self, Audience, CatalogResult, HiddenSkill};
use crate::discover::{SkillHead, SkillMeta, SkillRegistry, WinnerMetas};
use crate::parse::Skill;
use crate::text::estimate_tokens;
use std::cell::OnceCell;
use std::rc::Rc;

thread_local! {
    static SERIAL: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn next_serial() -> u64 {
    SERIAL.with(|s| {
        let n = s.get().wrapping_add(1);
        s.set(n);
        n
    })
}

/// A visible skill as the filters and the catalog read it: its head read first, its fields when
/// a rule or the catalog's text needs them (a skill a snapshot holds is decoded then), its meta
/// built only for the host's predicate.
struct Winner<'a> {
    metas: &'a WinnerMetas,
    k: usize,
    head: SkillHead<'a>,
}

impl Winner<'_> {
    /// The skill's fields. A winner is made only for a skill that is there, and a stored one was
    /// checked whole when its snapshot was read, so the empty skill is never what is read.
    fn fields(&self) -> &Skill {
        static NONE: std::sync::LazyLock<Skill> = std::sync::LazyLock::new(Skill::default);
        self.metas.skill(self.k).map_or(&NONE, |s| &**s)
    }
}

impl disclose::ShownSkill for Winner<'_> {
    /// The registry offers its skills sorted by name (see `order::winners` and `aliases::decide`),
    /// and a view keeps their order.
    const IN_NAME_ORDER: bool = true;
    fn name(&self) -> &str {
        self.head.name
    }
    fn skill(&self) -> &Skill {
        self.fields()
    }
    fn shown_path(&self, scope_paths: &std::collections::BTreeMap<String, String>) -> String {
        self.metas.shown_path(self.k, scope_paths).unwrap_or_default()
    }
}

impl disclose::FilterItem for Winner<'_> {
    fn head(&self) -> SkillHead<'_> {
        self.head
    }
    fn skill(&self) -> &Skill {
        self.fields()
    }
    fn meta(&self) -> Option<std::borrow::Cow<'_, SkillMeta>> {
        self.metas.meta(self.k).map(std::borrow::Cow::Owned)
    }
}

/// The visibility of a registry's skills under one configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    generation: u64,
    /// Unique among the views computed in this process (see [`View::serial`]).
    serial: u64,
    /// The winning skills, by name: records shared with the registry, a meta built when asked
    /// for (four strings per skill less held for the view's life).
    metas: WinnerMetas,
    /// Per skill of `metas`.
    audience: Vec<Audience>,
    /// The skills hidden from the model, and why.
    hidden: Vec<HiddenSkill>,
    diagnostics: Vec<Diagnostic>,
    /// The skills the user may invoke, by name (shared with the registry's records): listed when
    /// first asked for (a host that only lists a catalog never decodes them all).
    user_skills: OnceCell<Vec<Rc<Skill>>>,
}

impl View {
    /// Decides every skill's audience; the host's predicate is called at most once per skill.
    pub fn compute(registry: &SkillRegistry, config: &SkillsConfig) -> View {
        let metas = registry.winner_metas();
        // A meta only for the host's predicate, one at a time: all of them at once would be the
        // largest share of the memory a discovery leaves grown.
        let items = (0..metas.len()).filter_map(|k| Some(Winner { metas: &metas, k, head: metas.head(k)? }));
        let decided = disclose::audiences(items, &config.catalog_options(), config.permitted.as_deref());
        View {
            generation: registry.generation(),
            serial: next_serial(),
            metas,
            audience: decided.audience,
            hidden: decided.hidden,
            diagnostics: decided.diagnostics,
            user_skills: OnceCell::new(),
        }
    }

    /// The view with the skills `refused` (by the name they are offered under, with why: a
    /// lockfile's verdict) hidden from the model and the user alike. One pass over each list,
    /// however many are refused.
    pub fn refusing(mut self, refused: &std::collections::HashMap<String, String>) -> View {
        if refused.is_empty() {
            return self;
        }
        for name in refused.keys() {
            if let Some(a) = self.metas.position(name).and_then(|k| self.audience.get_mut(k)) {
                *a = Audience::default();
            }
        }
        self.hidden.retain(|h| !refused.contains_key(&h.name));
        let mut pinned: Vec<HiddenSkill> = refused
            .iter()
            .filter(|(name, _)| self.metas.position(name).is_some())
            .map(|(name, why)| HiddenSkill { name: name.clone(), reason: "pin-mismatch".into(), message: why.clone() })
            .collect();
        // By name, whatever order the map holds them in.
        pinned.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        self.hidden.extend(pinned);
        // Listed again from the audiences, which no longer let the user invoke these.
        self.user_skills = OnceCell::new();
        self
    }

    /// A number no other view computed in this process has: what a cache of data derived from
    /// the view (the package's second module keeps the skills the user may invoke) is keyed by.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// The registry generation this was computed for.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Who sees `name` (nobody when there is no such skill).
    pub fn audience(&self, name: &str) -> Audience {
        self.metas.position(name).and_then(|i| self.audience.get(i).copied()).unwrap_or_default()
    }

    /// The positions of the skills the model is offered.
    fn offered(&self) -> impl Iterator<Item = usize> + '_ {
        self.audience.iter().enumerate().filter(|(_, a)| a.model).map(|(k, _)| k)
    }

    /// How many skills the model is offered.
    pub fn model_count(&self) -> usize {
        self.offered().count()
    }

    /// The names of the skills the model is offered, by name.
    pub fn model_names(&self) -> Vec<String> {
        self.offered().filter_map(|k| self.metas.skill(k)).map(|s| s.name.clone()).collect()
    }

    /// The scope of the skill the model is offered under `name`, if it is offered.
    pub fn model_scope(&self, name: &str) -> Option<&str> {
        let i = self.metas.position(name)?;
        self.audience.get(i).filter(|a| a.model)?;
        self.metas.scope(i)
    }

    /// Whether the model is offered `name`.
    pub fn offers(&self, name: &str) -> bool {
        self.metas.position(name).and_then(|i| self.audience.get(i)).is_some_and(|a| a.model)
    }

    /// The skills the user may invoke, by name.
    pub fn user_skills(&self) -> &[Rc<Skill>] {
        self.user_skills.get_or_init(|| {
            (0..self.metas.len())
                .zip(&self.audience)
                .filter(|(_, a)| a.user)
                .filter_map(|(k, _)| self.metas.skill(k).cloned())
                .collect()
        })
    }

    /// The skill the model is offered under `name`, if it is offered.
    pub fn model_meta(&self, name: &str) -> Option<SkillMeta> {
        let i = self.metas.position(name)?;
        self.audience.get(i).filter(|a| a.model)?;
        self.metas.meta(i)
    }

    /// The catalog of the skills the model is offered, written as `config` says. When the tool
    /// searches ([`SkillsConfig::search_active`]) it ends with a note on the skills it does not
    /// list, and the budget leaves room for the note.
    pub fn render(&self, config: &SkillsConfig) -> CatalogResult {
        // The offered skills read from the registry's records, no meta built for each.
        // Sized first: grown by doubling, the list would hold up to twice itself at its peak.
        let mut offered: Vec<Winner> = Vec::with_capacity(self.model_count());
        offered
            .extend(self.offered().filter_map(|k| Some(Winner { metas: &self.metas, k, head: self.metas.head(k)? })));
        // Read in place by the catalog (no second list of 100,000 references beside them).
        let shown = &offered[..];
        let mut opts = config.catalog_options();
        let opts_without = opts.clone();
        let without_search =
            || disclose::render_shown(shown, self.hidden.clone(), self.diagnostics.clone(), &opts_without);
        let budgeted = opts.budget_chars.is_some() || opts.budget_tokens.is_some();
        // When the names alone overflow the budget, the catalog without the note drops some,
        // which is all the question below asks of it: it is not written (at 100,000 skills half
        // of a catalog's work).
        let first = (!budgeted || !disclose::names_overflow(shown, &opts)).then(without_search);
        let dropped = first.as_ref().map_or(1, |f| f.dropped.len());
        if !config.search_active(shown.len(), dropped) {
            return first.unwrap_or_else(without_search);
        }
        // Written again below when it is the answer (rarely): not held beside the catalog with
        // the note, whose dropped names would be a second copy of its own (100,000 strings at
        // 100,000 skills).
        let first = if budgeted { None } else { first };
        // The longest note this catalog could carry: every skill omitted.
        let widest = disclose::search_guidance(opts.format, shown.len(), &opts.tool_name);
        let reserve_chars = widest.chars().count() as u32;
        let reserve_tokens = estimate_tokens(&widest).saturating_add(2);
        let mut result = match &first {
            Some(first) => first.clone(),
            None => {
                opts.budget_chars = opts.budget_chars.map(|b| b.saturating_sub(reserve_chars));
                opts.budget_tokens = opts.budget_tokens.map(|b| b.saturating_sub(reserve_tokens));
                disclose::render_shown(shown, self.hidden.clone(), self.diagnostics.clone(), &opts)
            }
        };
        // Not even the note fits: the catalog is as without search (none).
        let Some(listing) = result.text.take() else { return first.unwrap_or_else(without_search) };
        let text = disclose::with_search_note(&listing, opts.format, result.dropped.len(), &opts.tool_name);
        let instructions = match &opts.instructions {
            Some(own) => own.clone(),
            None => {
                disclose::instructions(opts.activation, &opts.tool_name)
                    + &disclose::search_instructions(&opts.tool_name)
            }
        };
        result.chars = text.chars().count() as u32;
        result.tokens = estimate_tokens(&text);
        result.text = Some(text);
        result.instructions = Some(instructions);
        result.search = true;
        result
    }
}
