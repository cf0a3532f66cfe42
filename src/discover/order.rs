//! The orderings and relations discovery computes over all its records: precedence (which
//! record comes first for a name) and nesting (which skill directory lies inside another). Both
//! are n log n in the number of records: no pair of records is ever compared directly.

use super::record::{ScopeHandle, SkillRecord};
use super::records::Records;
use crate::diagnostic::{codes, Diagnostic};
use crate::lookalike::{is_plain, name_key};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The directory levels of a key: `""` has none, `a/b` has two.
fn depth(directory: &str) -> usize {
    if directory.is_empty() {
        0
    } else {
        directory.bytes().filter(|&b| b == b'/').count() + 1
    }
}

/// Orders records by precedence: scope order, then root order, then depth, then key.
pub fn precedence(scopes: &[ScopeHandle], records: &Records) -> Vec<usize> {
    // Each record's scope rank, root and key, read once (a scope not configured goes last).
    let keys: Vec<(usize, usize, &str)> = records
        .iter()
        .map(|r| {
            let (scope, root, location) = r.place();
            (scopes.iter().position(|s| s.name == scope).unwrap_or(usize::MAX), root, location)
        })
        .collect();
    // Discovery (and a snapshot of it) gives each scope's records root by root, each root's in
    // key order: then only the depths within each root need ordering, which compares numbers,
    // not keys. One pass over neighbours says whether the records are so.
    let by_key = keys.windows(2).all(|w| matches!(w, [a, b] if a <= b));
    if by_key {
        let mut keyed: Vec<(usize, usize, usize, usize)> = keys
            .iter()
            .enumerate()
            .map(|(i, &(scope, root, key))| (scope, root, depth(super::record::directory_of(key)), i))
            .collect();
        crate::sort::sort(&mut keyed);
        return keyed.into_iter().map(|k| k.3).collect();
    }
    // Each record's sort key is computed once; the index breaks ties, as a stable sort would.
    let mut keyed: Vec<(usize, usize, usize, &str, usize)> = keys
        .iter()
        .enumerate()
        .map(|(i, &(scope, root, key))| (scope, root, depth(super::record::directory_of(key)), key, i))
        .collect();
    crate::sort::sort(&mut keyed);
    keyed.into_iter().map(|k| k.4).collect()
}

/// Who wins each name: the first record of that name in precedence order.
pub(super) struct Winners {
    /// The winning records' indices, sorted by name (one per name, and one of names that look
    /// alike: [`keep_one_lookalike`]).
    pub by_name: Vec<usize>,
    /// Per record: the index of the record that hides it (one of the same name, or one whose
    /// name looks like its own).
    pub shadowed_by: Vec<Option<usize>>,
    /// The shadowed records' indices, in precedence order.
    pub shadowed: Vec<usize>,
}

/// The name of record `i`'s skill (`""` for a record without one, which never wins).
pub(super) fn name_of(records: &Records, i: usize) -> &str {
    records.get(i).and_then(|r| r.skill().name()).unwrap_or_default()
}

/// Decides the winner of every name with one sort of the named records by (name, precedence):
/// the first of each run of one name wins, the rest are shadowed by it. n log n; no name is
/// copied.
pub(super) fn winners(scopes: &[ScopeHandle], records: &Records) -> Winners {
    let order = precedence(scopes, records);
    // (name, rank in precedence order, record), for the records that hold a skill: the name is
    // borrowed once here, not looked up through the record at every comparison.
    let mut named: Vec<(&str, usize, usize)> = order
        .iter()
        .enumerate()
        .filter_map(|(rank, &i)| records.get(i)?.skill().name().map(|name| (name, rank, i)))
        .collect();
    // Often in that order already (a scope's skills are listed by directory, most named as their
    // directory): then one pass says so, instead of n log n comparisons of names.
    let sorted = named.windows(2).all(|w| matches!(w, [a, b] if (a.0, a.1) <= (b.0, b.1)));
    if !sorted {
        crate::sort::sort_by(&mut named, |a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    }
    let mut by_name = Vec::new();
    let mut shadowed_by = vec![None; records.len()];
    // The winner of the run of names being read, and its name.
    let mut winner: Option<(usize, &str)> = None;
    for &(name, rank, i) in &named {
        match winner {
            Some((w, won)) if won == name => {
                if let Some(slot) = shadowed_by.get_mut(i) {
                    *slot = Some(w);
                }
            }
            _ => {
                winner = Some((i, name));
                by_name.push(Winner { record: i, rank, name });
            }
        }
    }
    let mut by_name = keep_one_lookalike(by_name, &mut shadowed_by);
    by_name.shrink_to_fit();
    let shadowed = order.into_iter().filter(|&i| shadowed_by.get(i).copied().flatten().is_some()).collect();
    Winners { by_name, shadowed_by, shadowed }
}

/// A winner of its name: its record, its rank in precedence order, and the name.
#[derive(Clone, Copy)]
struct Winner<'a> {
    record: usize,
    rank: usize,
    name: &'a str,
}

/// Of the winners (sorted by name) whose names look alike (one [`name_key`]), the plain ones
/// (lowercase ASCII letters, digits, hyphens) stay, since each reads as written (`burn` and `bum`
/// share a key); when there is none, the first in precedence order stays. The others are hidden
/// by the group's best (`shadowed_by`), and so are the records their names shadowed: no
/// same-named skill of a hidden name is offered either. Each name is keyed once and grouped in a
/// hash map: linear, no two names compared.
fn keep_one_lookalike(winners: Vec<Winner<'_>>, shadowed_by: &mut [Option<usize>]) -> Vec<usize> {
    let records = || winners.iter().map(|w| w.record).collect();
    // A plain name is never hidden, and a group of plain names keeps them all: with no other
    // name among the winners there is nothing to group (no name keyed).
    if winners.iter().all(|w| is_plain(w.name)) {
        return records();
    }
    let better = |a: &Winner, b: &Winner| (!is_plain(a.name), a.rank) < (!is_plain(b.name), b.rank);
    // Each winner's group (one per key), and each group's best winner so far.
    let mut groups: HashMap<String, usize> = HashMap::with_capacity(winners.len());
    let mut group_of = Vec::with_capacity(winners.len());
    let mut best: Vec<Winner> = Vec::new();
    for w in &winners {
        let next = groups.len();
        let g = *groups.entry(name_key(w.name)).or_insert(next);
        group_of.push(g);
        match best.get_mut(g) {
            Some(b) if better(w, b) => *b = *w,
            Some(_) => {}
            None => best.push(*w),
        }
    }
    if best.len() == winners.len() {
        return records(); // no two alike
    }
    // The record that hides each hidden winner.
    let mut hidden_by: HashMap<usize, usize> = HashMap::new();
    let mut out = Vec::with_capacity(best.len());
    for (w, g) in winners.iter().zip(group_of) {
        match best.get(g) {
            Some(keep) if keep.record != w.record && !is_plain(w.name) => {
                hidden_by.insert(w.record, keep.record);
            }
            _ => out.push(w.record),
        }
    }
    for slot in shadowed_by.iter_mut() {
        if let Some(keep) = slot.and_then(|w| hidden_by.get(&w)) {
            *slot = Some(*keep);
        }
    }
    for (&i, &keep) in &hidden_by {
        if let Some(slot) = shadowed_by.get_mut(i) {
            *slot = Some(keep);
        }
    }
    out
}

/// The index of the record of `scope` named `name` that comes first in precedence order, without
/// sorting every record.
pub fn first_of(scopes: &[ScopeHandle], records: &Records, scope: &str, name: &str) -> Option<usize> {
    let scope_index = scopes.iter().position(|s| s.name == scope).unwrap_or(usize::MAX);
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.scope() == scope && r.skill().name() == Some(name))
        .min_by(|(a, ra), (b, rb)| {
            (scope_index, ra.root(), depth(ra.directory()), ra.location(), a).cmp(&(
                scope_index,
                rb.root(),
                depth(rb.directory()),
                rb.location(),
                b,
            ))
        })
        .map(|(i, _)| i)
}

/// The innermost skill directory of the same scope that holds `directory` (not `directory`
/// itself), when there is one. `dirs` holds every record's `(scope, directory)`.
fn enclosing<'a>(dirs: &HashSet<(&str, &str)>, scope: &str, directory: &'a str) -> Option<&'a str> {
    // The candidates are exactly the prefixes of `directory` that end before a `/`, longest
    // first, then the store's root (`""`), which holds every other directory.
    let mut ancestors = directory.char_indices().rev().filter(|&(_, c)| c == '/').map(|(i, _)| &directory[..i]);
    let found = ancestors.find(|d| dirs.contains(&(scope, *d)));
    found.or_else(|| (!directory.is_empty() && dirs.contains(&(scope, ""))).then_some(""))
}

/// Skills inside another skill's directory are loaded as skills of their own, and said so. A
/// record reused from an earlier discovery loses the mark it had, so each record carries at most
/// one, for the skills around it now.
pub(super) fn mark_nested(records: &mut [SkillRecord]) {
    for r in records.iter_mut() {
        if r.diagnostics.iter().any(|d| d.code == codes::SKILL_NESTED) {
            Rc::make_mut(&mut r.diagnostics).retain(|d| d.code != codes::SKILL_NESTED);
        }
    }
    let found: Vec<(usize, String)> = {
        let dirs: HashSet<(&str, &str)> = records.iter().map(|r| (r.scope.as_str(), r.directory())).collect();
        records
            .iter()
            .enumerate()
            .filter_map(|(i, r)| enclosing(&dirs, &r.scope, r.directory()).map(|d| (i, d.to_string())))
            .collect()
    };
    for (i, d) in found {
        if let Some(r) = records.get_mut(i) {
            Rc::make_mut(&mut r.diagnostics).push(nested_warning(&d));
        }
    }
}

/// Gives each record at a position of `read` the nesting marks of the previous record at that
/// position: for a discovery with the previous layout (the same keys in the same order), where
/// the nesting is what it was and only those records were built anew.
pub(super) fn copy_nested_marks(records: &mut [SkillRecord], previous: &Records, read: &[usize]) {
    for &i in read {
        let (Some(r), Some(before)) = (records.get_mut(i), previous.get(i)) else { continue };
        let before = before.diagnostics();
        let mut marks = before.iter().filter(|d| d.code == codes::SKILL_NESTED).peekable();
        if marks.peek().is_some() {
            Rc::make_mut(&mut r.diagnostics).extend(marks.cloned());
        }
    }
}

fn nested_warning(outer: &str) -> Diagnostic {
    Diagnostic::warning(
        codes::SKILL_NESTED,
        format!("this skill is inside the skill directory {outer:?}; it is loaded as a skill of its own"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(scope: &str, directory: &str) -> SkillRecord {
        SkillRecord {
            scope: scope.into(),
            root: 0,
            location: format!("{directory}/SKILL.md"),
            size: None,
            etag: None,
            skill: Default::default(),
            diagnostics: Rc::default(),
            search_words: Default::default(),
        }
    }

    /// The pairwise rule, as it reads: the longest other directory of the same scope that is the
    /// root or a `/`-prefix of this one.
    fn reference(records: &[SkillRecord]) -> Vec<Option<String>> {
        records
            .iter()
            .map(|r| {
                records
                    .iter()
                    .filter(|o| {
                        o.scope == r.scope
                            && o.directory() != r.directory()
                            && (o.directory().is_empty() || r.directory().starts_with(&format!("{}/", o.directory())))
                    })
                    .max_by_key(|o| o.directory().len())
                    .map(|o| o.directory().to_string())
            })
            .collect()
    }

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    #[test]
    fn nested_marking_agrees_with_the_pairwise_rule_on_random_trees() {
        for seed in 1..=6u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            // Few segment names, so that many directories share prefixes (`a` and `ab` too).
            let segs = ["a", "ab", "b", "skills", "x", "a.b", "é"];
            let mut records = Vec::new();
            for _ in 0..3000 {
                let depth = rng.below(5);
                let dir: Vec<&str> = (0..depth).map(|_| segs[rng.below(segs.len() as u64) as usize]).collect();
                let scope = ["user", "org"][rng.below(2) as usize];
                records.push(record(scope, &dir.join("/")));
            }
            let want = reference(&records);
            mark_nested(&mut records);
            for (r, w) in records.iter().zip(&want) {
                let got = r.diagnostics.first().map(|d| d.message.clone());
                assert_eq!(got, w.as_deref().map(|d| nested_warning(d).message), "{}:{}", r.scope, r.directory());
                assert!(r.diagnostics.len() <= 1);
            }
            assert!(want.iter().any(Option::is_some) && want.iter().any(Option::is_none), "seed {seed}");
        }
    }

    #[test]
    fn precedence_sorts_by_scope_root_depth_key_and_keeps_ties_in_order() {
        use crate::store::MemoryStorage;
        let storage: Rc<dyn crate::store::Storage> = Rc::new(MemoryStorage::new(Vec::<(String, String)>::new()));
        let scope =
            |name: &str| ScopeHandle { name: name.into(), roots: vec![], trusted: true, storage: storage.clone() };
        let scopes = [scope("project"), scope("user")];
        let mut rng = Rng(42);
        let mut records = Vec::new();
        for i in 0..4000 {
            let mut r = record(["user", "project", "gone"][rng.below(3) as usize], &format!("d{}", rng.below(50)));
            r.root = rng.below(2) as usize;
            if i % 3 == 0 {
                r.location = format!("{}/n{}/SKILL.md", r.directory(), rng.below(5));
            }
            records.push(r);
        }
        // The order as it was first written: a stable sort comparing the tuple.
        let index = |n: &str| scopes.iter().position(|s| s.name == n).unwrap_or(usize::MAX);
        let want = |records: &[SkillRecord]| {
            let mut want: Vec<usize> = (0..records.len()).collect();
            want.sort_by_key(|&i| {
                let r = &records[i];
                (index(&r.scope), r.root, depth(r.directory()), r.location.clone())
            });
            want
        };
        assert_eq!(precedence(&scopes, &Records::Parsed(records.clone())), want(&records));
        // In scope, root and key order (as discovery gives them), keys repeated: only the
        // depths are sorted, and the order is the same.
        records.sort_by_key(|r| (index(&r.scope), r.root, r.location.clone()));
        assert_eq!(precedence(&scopes, &Records::Parsed(records.clone())), want(&records));
    }
}

#[cfg(test)]
#[path = "lookalike_tests.rs"]
mod lookalike_tests;
