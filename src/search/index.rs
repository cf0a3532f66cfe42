//! The BM25 index: one posting list per term (the documents that hold it and how often, the
//! name counted [`NAME_WEIGHT`] times), a sorted vocabulary, document lengths. A query touches
//! only the postings of its terms, sums their scores in a map of the documents it touches and
//! keeps the best in a bounded heap; nothing is allocated per document.

use super::fuzzy::{edit_distance, typo_allowance, Rows, TrigramTable};
use super::tally::Tally;
use super::tokenize::tokenize;
use super::topk::TopK;
use std::collections::{BTreeMap, HashMap};

/// How many times a term of the name counts against one of a description.
pub const NAME_WEIGHT: u16 = 3;
/// BM25's term-frequency saturation.
const K1: f32 = 1.2;
/// BM25's length normalisation.
const B: f32 = 0.75;
/// A query term found only as a typo of a word counts this much of the word.
const TYPO_WEIGHT: f32 = 0.7;
/// Query terms looked at, at most (a pasted page is not a query).
pub const MAX_QUERY_TERMS: usize = 32;
/// Characters of a query (or of a name to match) read, at most; the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 1024;

/// The first [`MAX_QUERY_CHARS`] characters of `s`.
fn bounded(s: &str) -> &str {
    match s.char_indices().nth(MAX_QUERY_CHARS) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    }
}

/// One skill as the index sees it: its name and every description (all locales).
pub struct SearchDoc<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// Its descriptions and any other text to search.
    pub texts: Vec<&'a str>,
}

/// The index over a set of skills; document `i` is the `i`-th name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchIndex {
    pub(super) names: Vec<String>,
    /// Per document, its length in weighted terms.
    pub(super) lens: Vec<u32>,
    /// The vocabulary, sorted; term `t`'s postings are `docs[starts[t]..starts[t + 1]]`.
    pub(super) terms: Vec<String>,
    pub(super) starts: Vec<u32>,
    pub(super) docs: Vec<u32>,
    pub(super) tfs: Vec<u16>,
    /// The terms that occur in names (term ids, ascending), for query words with a typo.
    pub(super) name_terms: Vec<u32>,
    /// Derived from the above when built or loaded (never stored).
    derived: Derived,
}

/// What is computed from the stored index: the average length at once, the typo tables when a
/// search first needs them (a query whose words are all known and that is no name needs none),
/// so that the first search after a start from a snapshot does not build them all.
#[derive(Debug, Clone, Default, PartialEq)]
struct Derived {
    avg_len: f32,
    /// Trigrams of the names, for names given with a typo.
    names: std::cell::OnceCell<TrigramTable>,
    /// Trigrams of the name terms, for query words with a typo.
    name_term_grams: std::cell::OnceCell<TrigramTable>,
}

impl SearchIndex {
    /// Builds the index of `docs` (document ids follow their order). Linear in the text.
    pub fn build<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>) -> SearchIndex {
        let mut names = Vec::new();
        let mut lens = Vec::new();
        let mut postings: BTreeMap<String, Vec<(u32, u16)>> = BTreeMap::new();
        let mut buf = Vec::new();
        let mut counts: HashMap<String, u16> = HashMap::new();
        let mut in_names: std::collections::HashSet<String> = std::collections::HashSet::new();
        for (id, doc) in docs.into_iter().enumerate() {
            counts.clear();
            let mut len: u32 = 0;
            buf.clear();
            tokenize(doc.name, &mut buf);
            in_names.extend(buf.iter().cloned());
            for t in buf.drain(..) {
                let c = counts.entry(t).or_insert(0);
                *c = c.saturating_add(NAME_WEIGHT);
                len = len.saturating_add(u32::from(NAME_WEIGHT));
            }
            for text in &doc.texts {
                tokenize(text, &mut buf);
            }
            for t in buf.drain(..) {
                let c = counts.entry(t).or_insert(0);
                *c = c.saturating_add(1);
                len = len.saturating_add(1);
            }
            for (t, c) in counts.drain() {
                postings.entry(t).or_default().push((id as u32, c));
            }
            names.push(doc.name.to_string());
            lens.push(len);
        }
        let mut index = SearchIndex { names, lens, ..SearchIndex::default() };
        index.starts.push(0);
        for (term, mut list) in postings {
            crate::sort::sort_by_key(&mut list, |p| p.0);
            if in_names.contains(&term) {
                index.name_terms.push(index.terms.len() as u32);
            }
            index.terms.push(term);
            for (d, c) in list {
                index.docs.push(d);
                index.tfs.push(c);
            }
            index.starts.push(index.docs.len() as u32);
        }
        index.derive();
        index
    }

    /// Computes what is not stored and is needed at once: the average length (the typo tables
    /// wait for the first search that needs them).
    pub(super) fn derive(&mut self) {
        let total: u64 = self.lens.iter().map(|l| u64::from(*l)).sum();
        let avg_len = if self.lens.is_empty() { 1.0 } else { (total as f32 / self.lens.len() as f32).max(1.0) };
        self.derived = Derived { avg_len, ..Derived::default() };
    }

    /// The trigram table of the names.
    fn name_grams(&self) -> &TrigramTable {
        self.derived.names.get_or_init(|| TrigramTable::build(self.names.iter().map(String::as_str)))
    }

    /// The trigram table of the name terms (entry `k` is term `name_terms[k]`).
    fn name_term_grams(&self) -> &TrigramTable {
        self.derived.name_term_grams.get_or_init(|| {
            TrigramTable::build(self.name_terms.iter().filter_map(|t| self.terms.get(*t as usize)).map(String::as_str))
        })
    }

    /// How many documents.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names, in document order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    fn term_id(&self, term: &str) -> Option<u32> {
        self.terms.binary_search_by(|t| t.as_str().cmp(term)).ok().map(|i| i as u32)
    }

    fn postings(&self, term: u32) -> impl ExactSizeIterator<Item = (u32, u16)> + '_ {
        let t = term as usize;
        let (from, to) = match (self.starts.get(t), self.starts.get(t + 1)) {
            (Some(a), Some(b)) => (*a as usize, *b as usize),
            _ => (0, 0),
        };
        let docs = self.docs.get(from..to).unwrap_or(&[]);
        let tfs = self.tfs.get(from..to).unwrap_or(&[]);
        docs.iter().copied().zip(tfs.iter().copied())
    }

    /// The query's terms as term ids with their weight: found words at 1, words only found as a
    /// typo of a word of some name at [`TYPO_WEIGHT`].
    fn query_terms(&self, query: &str) -> Vec<(u32, f32)> {
        let mut words = Vec::new();
        tokenize(bounded(query), &mut words);
        words.truncate(MAX_QUERY_TERMS);
        let mut out: Vec<(u32, f32)> = Vec::new();
        let mut rows = Rows::default();
        for w in &words {
            if let Some(id) = self.term_id(w) {
                out.push((id, 1.0));
                continue;
            }
            let allowance = typo_allowance(w.chars().count());
            if allowance == 0 {
                continue;
            }
            for (k, _) in self.name_term_grams().candidates(w, 8) {
                let Some(&id) = self.name_terms.get(k as usize) else { continue };
                let Some(term) = self.terms.get(id as usize) else { continue };
                if edit_distance(w, term, allowance, &mut rows).is_some() {
                    out.push((id, TYPO_WEIGHT));
                }
            }
        }
        crate::sort::sort_by_key(&mut out, |t| t.0);
        out.dedup_by_key(|t| t.0);
        out
    }

    /// The best `limit` documents for `query` among those `allow` lets through, best first, with
    /// their scores. A query that is a name (or a name with a typo) puts that skill first.
    pub fn search(&self, query: &str, limit: usize, allow: &dyn Fn(u32) -> bool) -> Vec<(u32, f32)> {
        if limit == 0 || self.is_empty() {
            return Vec::new();
        }
        let n = self.names.len() as f32;
        let avg = self.derived.avg_len;
        let terms = self.query_terms(query);
        let mut scores = Tally::new(self.names.len());
        for (t, weight) in &terms {
            let df = self.postings(*t).len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for (d, tf) in self.postings(*t) {
                let len = self.lens.get(d as usize).copied().unwrap_or(1) as f32;
                let tf = f32::from(tf);
                let s = idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avg));
                scores.add(d, weight * s);
            }
        }
        // A name given as the query, exactly or nearly, goes first (a query of a few words can
        // be a name; a sentence is not).
        let best = scores.iter().map(|(_, s)| s).fold(0.0f32, f32::max);
        let name_like = query.len() <= 64 && query.split_whitespace().count() <= 3;
        let named = if name_like { self.name_matches(query, 4) } else { Vec::new() };
        for (d, distance) in named {
            let bonus = best + 1.0 - distance as f32 * 0.1;
            scores.add(d, bonus);
        }
        // The host's check (a lookup by name in its view) only for documents that would enter
        // the top: a few dozen per search, not every document a common word touched.
        let mut top = TopK::new(limit);
        for (d, s) in scores.iter() {
            if s > 0.0 && top.admits(s, d) && allow(d) {
                top.push(s, d);
            }
        }
        top.into_sorted().into_iter().map(|(s, d)| (d, s)).collect()
    }

    /// Documents whose name is `query` written as a name (trimmed, lowercased, spaces as `-`)
    /// or within the typo allowance of it, with the distance, nearest first.
    pub fn name_matches(&self, query: &str, limit: usize) -> Vec<(u32, usize)> {
        let q: String = crate::text::lowercase(bounded(query).trim()).split_whitespace().collect::<Vec<_>>().join("-");
        if q.is_empty() || q.chars().count() > 128 {
            return Vec::new();
        }
        let allowance = typo_allowance(q.chars().count());
        let mut rows = Rows::default();
        let mut out: Vec<(u32, usize)> = self
            .name_grams()
            .candidates(&q, 16)
            .into_iter()
            .filter_map(|(d, _)| {
                let name = self.names.get(d as usize)?;
                edit_distance(&q, &crate::text::lowercase(name), allowance, &mut rows).map(|dist| (d, dist))
            })
            .collect();
        crate::sort::sort_by_key(&mut out, |&(d, dist)| (dist, d));
        out.truncate(limit);
        out
    }

    /// The names nearest to `name` among the documents `allow` lets through: near spellings
    /// first, then the best matches of the name read as a query; at most `limit`.
    pub fn closest(&self, name: &str, limit: usize, allow: &dyn Fn(u32) -> bool) -> Vec<u32> {
        let q: String = crate::text::lowercase(bounded(name).trim());
        let allowance = (q.chars().count() / 3).clamp(1, 4);
        let mut rows = Rows::default();
        let mut near: Vec<(usize, u32)> = self
            .name_grams()
            .candidates(&q, 32)
            .into_iter()
            .filter(|(d, _)| allow(*d))
            .filter_map(|(d, _)| {
                let n = self.names.get(d as usize)?;
                edit_distance(&q, &crate::text::lowercase(n), allowance, &mut rows).map(|dist| (dist, d))
            })
            .collect();
        crate::sort::sort(&mut near);
        let mut out: Vec<u32> = near.into_iter().map(|(_, d)| d).collect();
        for (d, _) in self.search(bounded(name), limit, allow) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out.truncate(limit);
        out
    }
}
