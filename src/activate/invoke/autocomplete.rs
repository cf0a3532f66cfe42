//! Autocomplete for a partial `/pd`: prefix, word-start and fuzzy matches, ranked.

use crate::parse::Skill;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// How a suggestion matched what was typed, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    /// The name, exactly.
    Exact,
    /// The name starts with it (also every name for an empty partial).
    Prefix,
    /// A later word of the name (after `-`, `_`, `:` or `.`) starts with it.
    Word,
    /// Its characters appear in the name in order.
    Fuzzy,
    /// Its words match the skill's name and description as a search does (`merge pdf files`):
    /// offered when the names match fewer than asked for.
    Description,
}

/// One autocomplete entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    /// The skill's name.
    pub name: String,
    /// The skill's description.
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    /// The skill's `argument-hint`, to show after the name.
    pub argument_hint: Option<String>,
    /// How the typed text matched the name.
    pub match_kind: MatchKind,
    /// Higher is better, 0..=1000: exact 1000; prefix 900 and word 700 minus the characters the
    /// name has beyond what was typed (at most 99); fuzzy 500 minus the gaps between the matched
    /// characters (at least 1). An empty partial scores every name 0.
    pub score: u32,
}

/// Characters typed before descriptions are searched too (fewer name a skill being typed).
const DESCRIBED_MIN_CHARS: usize = 3;
/// Suggestions asked for when the caller sets no limit, for the description search.
const DESCRIBED_LIMIT: usize = 10;

/// A search index over `skills` (document `i` is `skills[i]`: its name and description), for
/// [`autocomplete_described`]. Build it once per list of skills and keep it.
pub fn described_index(skills: &[impl std::borrow::Borrow<Skill>]) -> crate::search::SearchIndex {
    crate::search::SearchIndex::build(skills.iter().map(|s| {
        let s = s.borrow();
        crate::search::SearchDoc { name: &s.name, texts: vec![&s.description], body: crate::search::BodyEvidence::None }
    }))
}

/// [`autocomplete`], then, when what was typed is a phrase (it holds a space) or matches no name,
/// is at least three characters long, and the names match fewer than `limit` (10 for no limit),
/// the skills whose name and description match the words typed, best
/// first ([`MatchKind::Description`], scores 1..=400): `/merge pdf files` finds `pdf` by what it
/// does. `cache` keeps [`described_index`] of the same `skills` between calls: it is built the
/// first time descriptions are searched (names alone never build it); without a cache, for this
/// call only.
pub fn autocomplete_described(
    partial: &str,
    skills: &[impl std::borrow::Borrow<Skill>],
    limit: usize,
    cache: Option<&std::cell::OnceCell<crate::search::SearchIndex>>,
) -> Vec<Suggestion> {
    let mut out = autocomplete(partial, skills, limit);
    let wanted = if limit == 0 { DESCRIBED_LIMIT } else { limit };
    let p = partial.trim();
    let p = p.strip_prefix('/').or_else(|| p.strip_prefix('$')).unwrap_or(p).trim();
    // A name being typed (one word that names something) is left to the names.
    let phrase = p.contains(char::is_whitespace);
    if out.len() >= wanted || p.chars().count() < DESCRIBED_MIN_CHARS || !(phrase || out.is_empty()) {
        return out;
    }
    let built;
    let index = match cache {
        Some(c) => c.get_or_init(|| described_index(skills)),
        None => {
            built = described_index(skills);
            &built
        }
    };
    let taken: HashSet<String> = out.iter().map(|s| s.name.clone()).collect();
    let allow =
        |d: u32| skills.get(d as usize).is_some_and(|s| s.borrow().user_invocable && !taken.contains(&s.borrow().name));
    let mut seen: HashSet<&str> = HashSet::new();
    for (rank, (d, _)) in index.search(p, wanted.saturating_sub(out.len()) * 2, &allow).into_iter().enumerate() {
        let Some(s) = skills.get(d as usize).map(|s| s.borrow()) else { continue };
        if out.len() >= wanted || !seen.insert(s.name.as_str()) {
            continue;
        }
        out.push(Suggestion {
            name: s.name.clone(),
            description: s.description.clone(),
            argument_hint: s.argument_hint.clone(),
            match_kind: MatchKind::Description,
            score: 400u32.saturating_sub(rank as u32).max(1),
        });
    }
    out
}

/// Names longer than this are only considered for exact, prefix and word matches.
const FUZZY_MAX_NAME: usize = 256;

/// Suggestions for a partial skill name as typed (`/pd`, `$pd` or `pd`; one leading `/` or `$`
/// and surrounding whitespace are ignored, matching is case-insensitive). Only user-invocable
/// skills, one per name. Ordered by kind (exact, prefix, word, fuzzy), then score, then shorter
/// names, then alphabetically. An empty partial lists every skill alphabetically. `limit` 0
/// means no limit.
pub fn autocomplete(partial: &str, skills: &[impl std::borrow::Borrow<Skill>], limit: usize) -> Vec<Suggestion> {
    let p = partial.trim();
    let p = p.strip_prefix('/').or_else(|| p.strip_prefix('$')).unwrap_or(p);
    let q: Vec<char> = crate::text::lowercase(p).chars().collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out: Vec<Suggestion> = Vec::new();
    for s in skills.iter().map(|s| s.borrow()).filter(|s| s.user_invocable) {
        if !seen.insert(s.name.as_str()) {
            continue;
        }
        let Some((kind, score)) = rank(&q, &s.name) else { continue };
        out.push(Suggestion {
            name: s.name.clone(),
            description: s.description.clone(),
            argument_hint: s.argument_hint.clone(),
            match_kind: kind,
            score,
        });
    }
    if q.is_empty() {
        crate::sort::sort_by(&mut out, |a, b| a.name.cmp(&b.name));
    } else {
        crate::sort::sort_by(&mut out, |a, b| {
            a.match_kind
                .cmp(&b.match_kind)
                .then(b.score.cmp(&a.score))
                .then(a.name.chars().count().cmp(&b.name.chars().count()))
                .then(a.name.cmp(&b.name))
        });
    }
    if limit > 0 {
        out.truncate(limit);
    }
    out
}

fn rank(q: &[char], name: &str) -> Option<(MatchKind, u32)> {
    if q.is_empty() {
        return Some((MatchKind::Prefix, 0));
    }
    let n: Vec<char> = crate::text::lowercase(name).chars().collect();
    let extra = n.len().saturating_sub(q.len()).min(99) as u32;
    if n == q {
        return Some((MatchKind::Exact, 1000));
    }
    if n.starts_with(q) {
        return Some((MatchKind::Prefix, 900 - extra));
    }
    let word_start = |i: usize| i > 0 && matches!(n.get(i - 1), Some('-' | '_' | ':' | '.'));
    if (1..n.len()).any(|i| word_start(i) && n[i..].starts_with(q)) {
        return Some((MatchKind::Word, 700 - extra));
    }
    if n.len() > FUZZY_MAX_NAME {
        return None;
    }
    // Fuzzy: the smallest number of skipped characters between the first and last matched one,
    // plus the position of the first match, over every starting point (greedy from each).
    let mut best: Option<usize> = None;
    for start in (0..n.len()).filter(|&i| n[i] == q[0]) {
        let mut qi = 1usize;
        let mut last = start;
        for (i, c) in n.iter().enumerate().skip(start + 1) {
            if qi == q.len() {
                break;
            }
            if *c == q[qi] {
                qi += 1;
                last = i;
            }
        }
        if qi == q.len() {
            let gaps = (last - start + 1 - q.len()) + start;
            best = Some(best.map_or(gaps, |b: usize| b.min(gaps)));
        }
    }
    best.map(|g| (MatchKind::Fuzzy, 500u32.saturating_sub(g.min(499) as u32).max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activate::invoke::fixtures::skill;

    // ---- autocomplete

    fn ac_skills() -> Vec<Skill> {
        let mut v = vec![
            skill("pdf", true),
            skill("pdf-tools", true),
            skill("pd", true),
            skill("export-pdf", true),
            skill("pandoc-doc", true),
            skill("hidden-pdf", false),
            skill("zeta", true),
            skill("apdf", true),
        ];
        v[1].argument_hint = Some("[file]".into());
        v
    }

    #[test]
    fn autocomplete_order() {
        let got: Vec<(String, MatchKind, u32)> =
            autocomplete("/pd", &ac_skills(), 0).into_iter().map(|s| (s.name, s.match_kind, s.score)).collect();
        assert_eq!(
            got,
            vec![
                ("pd".into(), MatchKind::Exact, 1000),
                ("pdf".into(), MatchKind::Prefix, 899),
                ("pdf-tools".into(), MatchKind::Prefix, 893),
                ("export-pdf".into(), MatchKind::Word, 692),
                ("apdf".into(), MatchKind::Fuzzy, 499),
                ("pandoc-doc".into(), MatchKind::Fuzzy, 498),
            ]
        );
    }

    #[test]
    fn autocomplete_details() {
        let s = autocomplete("$PDF-T", &ac_skills(), 5);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].name, "pdf-tools");
        assert_eq!(s[0].argument_hint.as_deref(), Some("[file]"));
        assert_eq!(s[0].description, "pdf-tools skill");
        assert_eq!(autocomplete("pd", &ac_skills(), 2).len(), 2);
        assert!(autocomplete("qqq", &ac_skills(), 0).is_empty());
        assert!(autocomplete("hidden", &ac_skills(), 0).is_empty());
    }

    #[test]
    fn autocomplete_empty_lists_alphabetically() {
        let got: Vec<String> = autocomplete("/", &ac_skills(), 4).into_iter().map(|s| s.name).collect();
        assert_eq!(got, vec!["apdf", "export-pdf", "pandoc-doc", "pd"]);
        assert_eq!(autocomplete("", &ac_skills(), 0).len(), 7);
    }

    #[test]
    fn autocomplete_fuzzy_prefers_tighter() {
        let v = vec![skill("a-x-b-x-c", true), skill("abc-long-name", true), skill("xabc", true)];
        let got: Vec<String> = autocomplete("abc", &v, 0).into_iter().map(|s| s.name).collect();
        assert_eq!(got, vec!["abc-long-name", "xabc", "a-x-b-x-c"]);
    }

    #[test]
    fn words_that_name_no_skill_find_it_by_its_description() {
        let mut v =
            vec![skill("pdf", true), skill("csv-profile", true), skill("secret-pdf", false), skill("docx", true)];
        v[0].description = "Merge, split and fill PDF files.".into();
        v[1].description = "Profile the columns of CSV files.".into();
        v[2].description = "Merge PDF files in secret.".into();
        let got: Vec<(String, MatchKind)> = autocomplete_described("/merge pdf files", &v, 5, None)
            .into_iter()
            .map(|s| (s.name, s.match_kind))
            .collect();
        assert_eq!(
            got,
            [("pdf".to_string(), MatchKind::Description), ("csv-profile".to_string(), MatchKind::Description)]
        );
        // Names first; descriptions fill what is left, never a name twice; a kept index is used alike.
        let cache = std::cell::OnceCell::new();
        let got: Vec<String> = autocomplete_described("/pd", &v, 5, Some(&cache)).into_iter().map(|s| s.name).collect();
        assert_eq!(got, ["pdf"], "a name being typed");
        let got: Vec<String> =
            autocomplete_described("/pdf", &v, 1, Some(&cache)).into_iter().map(|s| s.name).collect();
        assert_eq!(got, ["pdf"]);
        assert!(cache.get().is_none(), "names alone never build the index");
        let got: Vec<String> =
            autocomplete_described("files", &v, 1, Some(&cache)).into_iter().map(|s| s.name).collect();
        assert_eq!(got.len(), 1);
        assert!(cache.get().is_some());
        // Two characters name a skill being typed: no description search.
        assert!(autocomplete_described("/zz", &v, 5, None).is_empty());
        assert!(autocomplete_described("qqq", &v, 0, None).is_empty());
    }

    #[test]
    fn autocomplete_dedupes_names() {
        let v = vec![skill("pdf", true), skill("pdf", true)];
        assert_eq!(autocomplete("p", &v, 0).len(), 1);
    }
}
