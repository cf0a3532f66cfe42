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
    fn autocomplete_dedupes_names() {
        let v = vec![skill("pdf", true), skill("pdf", true)];
        assert_eq!(autocomplete("p", &v, 0).len(), 1);
    }
}
