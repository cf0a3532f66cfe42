//! Who sees which skill, computed once per registry generation and configuration: the skills
//! the model is offered (catalog, tool, subagents) and the skills the user may invoke (`/name`,
//! `$name`, autocomplete). Everything that shows or serves skills reads one of these, so the
//! parts agree.

use super::config::SkillsConfig;
use crate::diagnostic::Diagnostic;
use crate::disclose::{self, Audience, CatalogResult, HiddenSkill};
use crate::discover::{SkillMeta, SkillRegistry};
use crate::parse::Skill;

/// The visibility of a registry's skills under one configuration.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    generation: u64,
    /// The winning skills, by name.
    metas: Vec<SkillMeta>,
    /// Per skill of `metas`.
    audience: Vec<Audience>,
    /// The skills hidden from the model, and why.
    hidden: Vec<HiddenSkill>,
    diagnostics: Vec<Diagnostic>,
    /// The skills the user may invoke, by name.
    user_skills: Vec<Skill>,
}

impl View {
    /// Decides every skill's audience; the host's predicate is called at most once per skill.
    pub fn compute(registry: &SkillRegistry, config: &SkillsConfig) -> View {
        let metas = registry.list_metas(None);
        let permitted = |m: &SkillMeta| config.permitted.as_ref().is_none_or(|p| p(m));
        let decided = disclose::audiences(&metas, &config.catalog_options(), &permitted);
        let user_skills =
            metas.iter().zip(&decided.audience).filter(|(_, a)| a.user).map(|(m, _)| m.skill.clone()).collect();
        View {
            generation: registry.generation(),
            metas,
            audience: decided.audience,
            hidden: decided.hidden,
            diagnostics: decided.diagnostics,
            user_skills,
        }
    }

    /// The registry generation this was computed for.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Who sees `name` (nobody when there is no such skill).
    pub fn audience(&self, name: &str) -> Audience {
        match self.metas.binary_search_by(|m| m.skill.name.as_str().cmp(name)) {
            Ok(i) => self.audience.get(i).copied().unwrap_or_default(),
            Err(_) => Audience::default(),
        }
    }

    /// The skills the model is offered, by name (before a catalog budget drops any).
    pub fn model_metas(&self) -> Vec<&SkillMeta> {
        self.metas.iter().zip(&self.audience).filter(|(_, a)| a.model).map(|(m, _)| m).collect()
    }

    /// The skills the user may invoke, by name.
    pub fn user_skills(&self) -> &[Skill] {
        &self.user_skills
    }

    /// The catalog of the skills the model is offered, written as `config` says.
    pub fn render(&self, config: &SkillsConfig) -> CatalogResult {
        disclose::render_shown(
            &self.model_metas(),
            self.hidden.clone(),
            self.diagnostics.clone(),
            &config.catalog_options(),
        )
    }
}
