//! Same-named skills told apart. The first skill of a name in precedence order is offered under
//! its name; every other one (a skill of the same name in a scope of lower precedence, or at
//! another path of the same scope) is offered too, under a qualified name the catalog, the tool
//! and the MCP server all use: `<scope>:<skill path>`, the skill path being where it lies below
//! its root, ending in its name ([`skill_path`]: `user:pdf`, `project:team/pdf`). A qualified
//! name depends only on the skill's own scope and key, so it stays the same across refreshes
//! while the skill stays where it is. Two qualified names that would still be one (the same
//! path below two roots of one scope) fall back to `<scope>:<directory key>` for the later one.
//!
//! The registry keeps its offered skills as one list sorted by name: a value below the number
//! of records is a record (the winner of its name), a value at or above it an [`Alias`].

use super::order;
use super::record::ScopeHandle;
use super::records::{Record, Records};
use crate::parse::Skill;
use std::rc::Rc;

/// What separates a qualified name's scope from its skill path; no skill name holds it.
pub const QUALIFIER: char = ':';

/// A skill offered under a qualified name: the record, and its skill renamed.
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    /// The record's index.
    pub record: usize,
    /// The record's skill, its `name` the qualified name.
    pub skill: Rc<Skill>,
}

/// The skill path of the skill named `name` whose directory is `directory`: the directory below
/// the (longest) root of `roots` it lies in, its last segment the skill's name, as the MCP Skills
/// extension writes a skill's place (a directory named otherwise keeps its parents: `tools/pdf-v2`
/// named `pdf` is `tools/pdf`). A skill at its root's own directory is its name alone.
pub fn skill_path(roots: &[String], directory: &str, name: &str) -> String {
    let below = roots
        .iter()
        .filter_map(|r| if r.is_empty() { Some(directory) } else { directory.strip_prefix(r.as_str()) })
        .min_by_key(|rest| rest.len())
        .unwrap_or("");
    match below.rsplit_once('/') {
        Some((parents, _)) if !parents.is_empty() => format!("{parents}/{name}"),
        _ => name.to_string(),
    }
}

/// The qualified name of record `r` named `name` of a scope with `roots`.
fn qualified(r: Record, roots: &[String], name: &str) -> String {
    format!("{}{QUALIFIER}{}", r.scope(), skill_path(roots, r.directory(), name))
}

/// The record index and the skill of offered entry `v` (see the module docs).
pub(super) fn entry<'a>(records: &'a Records, aliases: &'a [Alias], v: usize) -> Option<(usize, &'a Rc<Skill>)> {
    match v.checked_sub(records.len()) {
        None => records.get(v)?.skill().as_ref().map(|s| (v, s)),
        Some(a) => aliases.get(a).map(|x| (x.record, &x.skill)),
    }
}

/// The record index of offered entry `v`, when it holds a skill: [`entry`] without the skill,
/// so that a stored one is not decoded.
pub(super) fn record_of(records: &Records, aliases: &[Alias], v: usize) -> Option<usize> {
    match v.checked_sub(records.len()) {
        None => records.get(v)?.skill().is_some().then_some(v),
        Some(a) => aliases.get(a).map(|x| x.record),
    }
}

/// The name offered entry `v` is offered under (`""` for none), read without decoding a stored
/// skill.
pub(super) fn name_at<'a>(records: &'a Records, aliases: &'a [Alias], v: usize) -> &'a str {
    match v.checked_sub(records.len()) {
        None => records.get(v).and_then(|r| r.skill().name()).unwrap_or_default(),
        Some(a) => aliases.get(a).map_or("", |x| x.skill.name.as_str()),
    }
}

/// The offered entries, sorted by name (the winners, `by_name` sorted so, and an alias for each
/// of the `shadowed` records), and the aliases.
pub(super) fn decide(
    scopes: &[ScopeHandle],
    records: &Records,
    by_name: Vec<usize>,
    shadowed: &[usize],
) -> (Vec<usize>, Vec<Alias>) {
    if shadowed.is_empty() {
        return (by_name, Vec::new());
    }
    let roots_of = |scope: &str| scopes.iter().find(|s| s.name == scope).map_or(&[][..], |s| s.roots.as_slice());
    // (qualified name, precedence rank, record), sorted by name then precedence.
    let mut named: Vec<(String, usize, usize)> = shadowed
        .iter()
        .enumerate()
        .filter_map(|(rank, &i)| {
            let r = records.get(i)?;
            let name = r.skill().name()?;
            Some((qualified(r, roots_of(r.scope()), name), rank, i))
        })
        .collect();
    crate::sort::sort(&mut named);
    for k in 1..named.len() {
        let same = named.get(k - 1).zip(named.get(k)).is_some_and(|(a, b)| a.0 == b.0);
        if let (true, Some(r)) = (same, named.get(k).and_then(|n| records.get(n.2))) {
            let fallback = format!("{}{QUALIFIER}{}", r.scope(), r.directory());
            if let Some(n) = named.get_mut(k) {
                n.0 = fallback;
            }
        }
    }
    crate::sort::sort(&mut named);
    named.dedup_by(|b, a| a.0 == b.0);
    let aliases: Vec<Alias> = named
        .into_iter()
        .filter_map(|(name, _, i)| {
            let skill = records.get(i)?.skill().as_ref()?;
            Some(Alias { record: i, skill: Rc::new(Skill { name, ..Skill::clone(skill) }) })
        })
        .collect();
    // Both lists are sorted by name: merged, they are one.
    let n = records.len();
    let mut merged = Vec::with_capacity(by_name.len() + aliases.len());
    let (mut w, mut a) = (by_name.into_iter().peekable(), (0..aliases.len()).peekable());
    loop {
        let next = match (w.peek(), a.peek()) {
            (Some(&i), Some(&j)) => {
                let alias = aliases.get(j).map_or("", |x| x.skill.name.as_str());
                if order::name_of(records, i) <= alias {
                    w.next()
                } else {
                    a.next().map(|j| n + j)
                }
            }
            (Some(_), None) => w.next(),
            (None, Some(_)) => a.next().map(|j| n + j),
            (None, None) => break,
        };
        merged.extend(next);
    }
    (merged, aliases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_path_is_the_directory_below_its_root_ending_in_the_name() {
        let roots = [".agents/skills/".to_string(), ".agents/skills/beta/".to_string()];
        assert_eq!(skill_path(&roots[..1], ".agents/skills/beta/nested", "nested"), "beta/nested");
        assert_eq!(skill_path(&roots[..1], ".agents/skills/beta", "beta"), "beta");
        assert_eq!(skill_path(&roots, ".agents/skills/beta/nested", "nested"), "nested", "the longest root");
        assert_eq!(skill_path(&roots[..1], ".agents/skills/tools/pdf-v2", "pdf"), "tools/pdf");
        assert_eq!(skill_path(&roots[..1], ".agents/skills", "top"), "top");
        assert_eq!(skill_path(&[String::new()], "acme/refunds", "refunds"), "acme/refunds");
        assert_eq!(skill_path(&[String::new()], "", "solo"), "solo");
    }
}
