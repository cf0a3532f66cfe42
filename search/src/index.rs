//! The BM25 index: one posting list per term (the documents that hold it and how often, the
//! name counted [`NAME_WEIGHT`] times, a description [`super::DESCRIPTION_WEIGHT`], a body word
//! [`super::BODY_WEIGHT`]), a sorted vocabulary, document lengths. A query touches
//! only the postings of its terms, sums their scores in a map of the documents it touches and
//! keeps the best in a bounded heap; nothing is allocated per document.
//!
//! The index is its encoding ([`super::encode`]): the bytes a snapshot carries are what a search
//! reads, posting lists and trigram holders decoded as they are walked. Loading the bytes
//! checks their structure and notes where each name, term and list is; it decodes no list, so the
//! first search after a start from a snapshot costs what any search costs.

use super::fuzzy::{edit_distance, typo_allowance, Rows, TrigramTable};
use super::tally::Tally;
use super::tokenize::tokenize;
use super::topk::TopK;
use super::varint::{Reader, Span};
use skillwasm_parse::shared_bytes::SharedBytes;

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

/// The index over a set of skills; document `i` is the `i`-th name.
#[derive(Clone, Default)]
pub struct SearchIndex {
    /// The encoding ([`super::encode`]): everything below points into it.
    bytes: SharedBytes,
    /// Per document, where its name is and its length in weighted terms.
    docs: Vec<DocAt>,
    /// The vocabulary, sorted: where each term is, and its postings.
    terms: Vec<TermAt>,
    /// The terms that occur in names (term ids, ascending), for query words with a typo.
    name_terms: Vec<u32>,
    /// Trigrams of the names, for names given with a typo.
    name_grams: TrigramTable,
    /// Trigrams of the name terms (entry `k` is term `name_terms[k]`), for query words with a typo.
    term_grams: TrigramTable,
    /// The average document length.
    avg_len: f32,
}

#[derive(Clone, Copy, Default)]
struct DocAt {
    name: (u32, u32),
    len: u32,
}

#[derive(Clone, Copy, Default)]
struct TermAt {
    text: (u32, u32),
    postings: Span,
}

impl PartialEq for SearchIndex {
    /// Two indexes are equal when their encodings are (the rest is read from it).
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("docs", &self.docs.len())
            .field("terms", &self.terms.len())
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl SearchIndex {
    /// The index whose encoding is `bytes`; None when they are not a whole, consistent one (every
    /// length, count and order checked; the lists are checked as they are read, and a list that
    /// is not what it says ends early).
    pub fn load(bytes: impl Into<SharedBytes>) -> Option<SearchIndex> {
        let bytes: SharedBytes = bytes.into();
        let body_at = super::format::MAGIC.len();
        if !bytes.starts_with(super::format::MAGIC) || u32::try_from(bytes.len()).is_err() {
            return None;
        }
        let mut r = Reader { bytes: &bytes, at: body_at };
        let n = r.small(r.left() as u64)?;
        let mut docs = Vec::with_capacity(n as usize);
        let mut total: u64 = 0;
        for _ in 0..n {
            // Names and terms are checked as UTF-8 where they are read (`name`, `term`).
            let name = r.span()?;
            let len = r.small(u64::from(u32::MAX))?;
            total += u64::from(len);
            docs.push(DocAt { name, len });
        }
        let count = r.small(r.left() as u64)? as usize;
        let mut terms: Vec<TermAt> = Vec::with_capacity(count);
        let mut name_terms = Vec::new();
        for t in 0..count {
            let text = r.span()?;
            let term = text_at(&bytes, text);
            if terms.last().is_some_and(|prev| text_at(&bytes, prev.text) >= term) {
                return None; // not sorted, or repeated
            }
            let flagged = r.num()?;
            if flagged & 1 == 1 {
                name_terms.push(t as u32);
            }
            let postings = Span::skip(&mut r, flagged >> 1, u64::from(n))?;
            terms.push(TermAt { text, postings });
        }
        let name_grams = TrigramTable::read(&mut r)?;
        let term_grams = TrigramTable::read(&mut r)?;
        // Each table is over what it says it is: a search sizes its tallies by them.
        if r.at != bytes.len() || name_grams.items() != n || term_grams.items() as usize != name_terms.len() {
            return None;
        }
        let avg_len = if n == 0 { 1.0 } else { (total as f32 / n as f32).max(1.0) };
        Some(SearchIndex { bytes, docs, terms, name_terms, name_grams, term_grams, avg_len })
    }

    /// The encoding.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes the index holds: its encoding (its own, or its part of a snapshot read in
    /// place) and where each name, term and list is in it.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.len()
            + self.docs.capacity() * std::mem::size_of::<DocAt>()
            + self.terms.capacity() * std::mem::size_of::<TermAt>()
            + self.name_terms.capacity() * 4
            + self.name_grams.heap_bytes()
            + self.term_grams.heap_bytes()
    }

    /// How many documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The name of document `d`.
    pub fn name(&self, d: u32) -> Option<&str> {
        let doc = self.docs.get(d as usize)?;
        std::str::from_utf8(text_at(&self.bytes, doc.name)).ok()
    }

    /// The names, in document order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.docs.len() as u32).map(|d| self.name(d).unwrap_or_default())
    }

    /// Whether the documents are `names`, in this order (compared as bytes, nothing decoded).
    pub fn has_names<'a>(&self, names: impl Iterator<Item = &'a str>) -> bool {
        self.docs.iter().map(|d| text_at(&self.bytes, d.name)).eq(names.map(str::as_bytes))
    }

    fn term(&self, t: u32) -> Option<&str> {
        let term = self.terms.get(t as usize)?;
        std::str::from_utf8(text_at(&self.bytes, term.text)).ok()
    }

    fn term_id(&self, term: &str) -> Option<u32> {
        self.terms.binary_search_by(|t| text_at(&self.bytes, t.text).cmp(term.as_bytes())).ok().map(|i| i as u32)
    }

    /// The terms that occur in names, in the terms' order (for the builder's tests).
    #[cfg(test)]
    pub(super) fn name_term_texts(&self) -> impl Iterator<Item = &str> + '_ {
        self.name_terms.iter().filter_map(|&t| self.term(t))
    }

    /// Document `d`'s length in weighted terms.
    pub(super) fn doc_len(&self, d: u32) -> Option<u32> {
        self.docs.get(d as usize).map(|doc| doc.len)
    }

    /// Every term with its (document, frequency) pairs, in term order: what a rebuild carries
    /// over for documents whose text it no longer has.
    pub(super) fn all_postings(&self) -> impl Iterator<Item = (&str, super::varint::Ids<'_>)> + '_ {
        (0..self.terms.len() as u32).filter_map(move |t| Some((self.term(t)?, self.postings(t).1)))
    }

    /// Term `t`'s postings: how many, and the (document, frequency) pairs.
    fn postings(&self, t: u32) -> (u32, super::varint::Ids<'_>) {
        let span = self.terms.get(t as usize).map(|t| t.postings).unwrap_or_default();
        (span.count, span.ids(&self.bytes, true, self.docs.len() as u32))
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
            for (k, _) in self.term_grams.candidates(&self.bytes, w, 8) {
                let Some(&id) = self.name_terms.get(k as usize) else { continue };
                let Some(term) = self.term(id) else { continue };
                if edit_distance(w, term, allowance, &mut rows).is_some() {
                    out.push((id, TYPO_WEIGHT));
                }
            }
        }
        skillwasm_parse::sort::sort_by_key(&mut out, |t| t.0);
        out.dedup_by_key(|t| t.0);
        out
    }

    /// The index's terms a search for `query` looks up (its words, and the name words a
    /// misspelt one stands for), for telling where a hit matched ([`super::matched_fields`]).
    pub fn query_words(&self, query: &str) -> std::collections::HashSet<String> {
        self.query_terms(query).iter().filter_map(|(t, _)| self.term(*t).map(str::to_string)).collect()
    }

    /// The best `limit` documents for `query` among those `allow` lets through, best first, with
    /// their scores. A query that is a name (or a name with a typo) puts that skill first.
    pub fn search(&self, query: &str, limit: usize, allow: &dyn Fn(u32) -> bool) -> Vec<(u32, f32)> {
        if limit == 0 || self.is_empty() {
            return Vec::new();
        }
        let n = self.docs.len() as f32;
        let avg = self.avg_len;
        let terms = self.query_terms(query);
        let mut scores = Tally::new(self.docs.len());
        for (t, weight) in &terms {
            let (df, postings) = self.postings(*t);
            let df = df as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for (d, tf) in postings {
                let len = self.docs.get(d as usize).map_or(1, |doc| doc.len) as f32;
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
        let q: String =
            skillwasm_parse::text::lowercase(bounded(query).trim()).split_whitespace().collect::<Vec<_>>().join("-");
        if q.is_empty() || q.chars().count() > 128 {
            return Vec::new();
        }
        let allowance = typo_allowance(q.chars().count());
        let mut rows = Rows::default();
        let mut out: Vec<(u32, usize)> = self
            .name_grams
            .candidates(&self.bytes, &q, 16)
            .into_iter()
            .filter_map(|(d, _)| {
                let name = self.name(d)?;
                edit_distance(&q, &skillwasm_parse::text::lowercase(name), allowance, &mut rows).map(|dist| (d, dist))
            })
            .collect();
        skillwasm_parse::sort::sort_by_key(&mut out, |&(d, dist)| (dist, d));
        out.truncate(limit);
        out
    }

    /// The names nearest to `name` among the documents `allow` lets through: near spellings
    /// first, then the best matches of the name read as a query; at most `limit`.
    pub fn closest(&self, name: &str, limit: usize, allow: &dyn Fn(u32) -> bool) -> Vec<u32> {
        let q: String = skillwasm_parse::text::lowercase(bounded(name).trim());
        let allowance = (q.chars().count() / 3).clamp(1, 4);
        let mut rows = Rows::default();
        let mut near: Vec<(usize, u32)> = self
            .name_grams
            .candidates(&self.bytes, &q, 32)
            .into_iter()
            .filter(|(d, _)| allow(*d))
            .filter_map(|(d, _)| {
                let n = self.name(d)?;
                edit_distance(&q, &skillwasm_parse::text::lowercase(n), allowance, &mut rows).map(|dist| (dist, d))
            })
            .collect();
        skillwasm_parse::sort::sort(&mut near);
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

/// The bytes of a (start, length) span of `bytes` (none when it falls outside).
fn text_at(bytes: &[u8], (start, len): (u32, u32)) -> &[u8] {
    let start = start as usize;
    bytes.get(start..start.saturating_add(len as usize)).unwrap_or_default()
}
