//! Skill metas built from the registry's records when they are asked for, and [`WinnerMetas`]:
//! the visible skills as a list of records shared with the registry, not as copies of their keys.

use super::aliases::{self, Alias};
use super::record::SkillHead;
use super::records::{Record, Records};
use super::types::{join_location, shown_location, SkillMeta};
use crate::parse::Skill;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The meta of `records[i]` (None when it holds no skill), `shadowed_by` the record that hides it.
pub(super) fn meta_of(
    records: &Records,
    locations: &BTreeMap<String, String>,
    i: usize,
    shadowed_by: Option<usize>,
) -> Option<SkillMeta> {
    let r = records.get(i)?;
    let skill = r.skill().as_ref()?.clone();
    Some(SkillMeta {
        skill,
        scope: r.scope().to_string(),
        location: r.location().to_string(),
        path: join_location(locations.get(r.scope()).map(String::as_str), r.scope(), r.location()),
        directory: r.directory().to_string(),
        diagnostics: r.diagnostics(),
        shadowed_by: shadowed_by.and_then(|w| records.get(w)).map(|w| format!("{}:{}", w.scope(), w.location())),
        digest: None,
    })
}

/// The visible skills (one per name, the winner), by name: the registry's records, shared, and
/// the index of each winner. A meta is built when it is asked for, so that a holder of the list
/// (the host's view of who sees which skill) does not keep four strings per skill.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WinnerMetas {
    records: Rc<Records>,
    /// The same-named skills offered under qualified names.
    aliases: Rc<Vec<Alias>>,
    /// The skills offered, sorted by name: the record that wins each name, or an alias.
    winners: Vec<usize>,
    /// Per scope, where its store's keys are.
    locations: BTreeMap<String, String>,
}

impl WinnerMetas {
    pub(super) fn new(
        records: Rc<Records>,
        aliases: Rc<Vec<Alias>>,
        winners: &[usize],
        locations: &BTreeMap<String, String>,
    ) -> WinnerMetas {
        let winners =
            winners.iter().copied().filter(|&v| aliases::record_of(&records, &aliases, v).is_some()).collect();
        WinnerMetas { records, aliases, winners, locations: locations.clone() }
    }

    /// The number of skills.
    pub fn len(&self) -> usize {
        self.winners.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.winners.is_empty()
    }

    /// The `k`-th skill (in name order).
    pub fn skill(&self, k: usize) -> Option<&Rc<Skill>> {
        aliases::entry(&self.records, &self.aliases, *self.winners.get(k)?).map(|(_, s)| s)
    }

    /// The `k`-th skill's head (its name and what visibility reads first), without decoding a
    /// skill a snapshot holds.
    pub fn head(&self, k: usize) -> Option<SkillHead<'_>> {
        let v = *self.winners.get(k)?;
        match v.checked_sub(self.records.len()) {
            None => self.records.get(v)?.skill().head(),
            Some(a) => self.aliases.get(a).map(|x| SkillHead::of(&x.skill)),
        }
    }

    /// The record of the `k`-th skill.
    fn record(&self, k: usize) -> Option<Record<'_>> {
        let i = aliases::record_of(&self.records, &self.aliases, *self.winners.get(k)?)?;
        self.records.get(i)
    }

    /// The scope of the `k`-th skill.
    pub fn scope(&self, k: usize) -> Option<&str> {
        Some(self.record(k)?.scope())
    }

    /// Where the `k`-th skill's SKILL.md is as the model is shown it, as its meta would say
    /// ([`SkillMeta::shown_path`]), without building the meta.
    pub fn shown_path(&self, k: usize, scope_paths: &BTreeMap<String, String>) -> Option<String> {
        let r = self.record(k)?;
        let base = || join_location(self.locations.get(r.scope()).map(String::as_str), r.scope(), r.location());
        Some(shown_location(scope_paths, r.scope(), r.location(), base))
    }

    /// The `k`-th skill's meta, built now.
    pub fn meta(&self, k: usize) -> Option<SkillMeta> {
        let (i, skill) = aliases::entry(&self.records, &self.aliases, *self.winners.get(k)?)?;
        meta_of(&self.records, &self.locations, i, None).map(|m| SkillMeta { skill: skill.clone(), ..m })
    }

    /// The position of the skill named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.winners.binary_search_by(|&v| aliases::name_at(&self.records, &self.aliases, v).cmp(name)).ok()
    }

    /// Every skill's meta, in name order, each built as the iteration reaches it.
    pub fn iter(&self) -> impl Iterator<Item = SkillMeta> + '_ {
        (0..self.winners.len()).filter_map(|k| self.meta(k))
    }
}
