//! Building the index: the documents tokenized once, each term's postings gathered, and the whole
//! written as the index's encoding ([`super::encode`]), which is what a search reads.

use super::format::MAGIC;
use super::fuzzy::write_table;
use super::index::SearchIndex;
use super::tokenize::{each_run, run_terms};
use super::varint::{put, put_ids, put_str};
use std::collections::HashMap;

/// How many times a term of the name counts, against [`DESCRIPTION_WEIGHT`] for one of a
/// description and [`BODY_WEIGHT`] for a word of the body's opening: a name three times a
/// description, a description twice the body.
pub const NAME_WEIGHT: u16 = 6;
/// How many times a term of a description counts.
pub const DESCRIPTION_WEIGHT: u16 = 2;
/// How many times a word of the body counts (each is counted once: discovery keeps a body's
/// words distinct).
pub const BODY_WEIGHT: u16 = 1;

/// One skill as the index sees it: its name, every description (all locales) and the words of
/// its body's opening.
pub struct SearchDoc<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// Its descriptions and any other text to search.
    pub texts: Vec<&'a str>,
    /// What the body adds.
    pub body: BodyEvidence<'a>,
}

/// What a document's body adds to the index.
pub enum BodyEvidence<'a> {
    /// Nothing: the name and descriptions are the document.
    None,
    /// The distinct words of the body's opening, space-separated (as discovery keeps them).
    Words(&'a str),
    /// The document is document `d` of an earlier index, whose counts it keeps whole (name,
    /// descriptions and body): a skill from a snapshot, whose body words were not kept with it.
    Carried(u32),
}

impl SearchIndex {
    /// Builds the index of `docs` (document ids follow their order). Linear in the text.
    pub fn build<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>) -> SearchIndex {
        SearchIndex::load(encode_docs(docs, None)).unwrap_or_default()
    }

    /// As [`SearchIndex::build`], the documents [`BodyEvidence::Carried`] taking their counts
    /// from `earlier` (linear in `earlier`'s postings when any is).
    pub fn rebuild<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>, earlier: Option<&SearchIndex>) -> SearchIndex {
        SearchIndex::load(encode_docs(docs, earlier)).unwrap_or_default()
    }
}

/// The encoding of the index of `docs` (document ids follow their order); a document
/// [`BodyEvidence::Carried`] takes its postings and length from `earlier`. Each term is looked up
/// once per occurrence in a map of the vocabulary that gives it a number; a document's terms are
/// counted by sorting those numbers; the postings are gathered per number and written in the
/// order of the terms, sorted once at the end. Linear in the text (and in `earlier`'s postings
/// when any document is carried), but for that sort and the trigrams'.
pub fn encode_docs<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>, earlier: Option<&SearchIndex>) -> Vec<u8> {
    let mut names: Vec<&str> = Vec::new();
    let mut lens = Vec::new();
    let mut vocab = Vocabulary::default();
    // One document's (term, weight) occurrences.
    let mut seen: Vec<(u32, u16)> = Vec::new();
    // For each document of `earlier`, the id it has here (u32::MAX: not carried).
    let mut carried: Vec<u32> = Vec::new();
    for (id, doc) in docs.into_iter().enumerate() {
        names.push(doc.name);
        vocab.add(doc.name, NAME_WEIGHT, &mut seen);
        for &(term, _) in &seen {
            if let Some(flag) = vocab.in_names.get_mut(term as usize) {
                *flag = true;
            }
        }
        if let (BodyEvidence::Carried(from), Some(earlier)) = (&doc.body, earlier) {
            if let Some(from_len) = earlier.doc_len(*from) {
                if carried.is_empty() {
                    carried = vec![u32::MAX; earlier.len()];
                }
                if let Some(slot) = carried.get_mut(*from as usize) {
                    *slot = id as u32;
                }
                lens.push(from_len);
                seen.clear();
                continue;
            }
        }
        for text in &doc.texts {
            vocab.add(text, DESCRIPTION_WEIGHT, &mut seen);
        }
        if let BodyEvidence::Words(words) = doc.body {
            vocab.add(words, BODY_WEIGHT, &mut seen);
        }
        lens.push(vocab.post(id as u32, &mut seen));
    }
    if let (false, Some(earlier)) = (carried.is_empty(), earlier) {
        for (term, ids) in earlier.all_postings() {
            let mut number = None;
            for (from, tf) in ids {
                let Some(&to) = carried.get(from as usize).filter(|&&to| to != u32::MAX) else { continue };
                let term = *number.get_or_insert_with(|| vocab.number(term));
                if let Some(list) = vocab.postings.get_mut(term as usize) {
                    list.push((to, tf));
                }
            }
        }
        for list in &mut vocab.postings {
            if list.windows(2).any(|w| w[0].0 > w[1].0) {
                skillwasm_parse::sort::sort_by_key(list, |p| p.0);
            }
        }
    }
    let mut out = Vec::with_capacity(names.len() * 64);
    out.extend_from_slice(MAGIC);
    put(&mut out, names.len() as u64);
    for (name, len) in names.iter().zip(&lens) {
        put_str(&mut out, name.as_bytes());
        put(&mut out, u64::from(*len));
    }
    let order = vocab.in_order();
    put(&mut out, order.len() as u64);
    let mut name_terms: Vec<&str> = Vec::new();
    let (mut ids, mut tfs) = (Vec::new(), Vec::new());
    for &(term, number) in &order {
        let list = vocab.postings.get(number as usize).map_or(&[][..], Vec::as_slice);
        let in_name = vocab.in_names.get(number as usize).copied().unwrap_or(false);
        if in_name {
            name_terms.push(term);
        }
        put_str(&mut out, term.as_bytes());
        // The count of postings, doubled, and 1 more for a term that occurs in a name.
        put(&mut out, (list.len() as u64) << 1 | u64::from(in_name));
        ids.clear();
        tfs.clear();
        ids.extend(list.iter().map(|p| p.0));
        tfs.extend(list.iter().map(|p| p.1));
        put_ids(&mut out, &ids, Some(&tfs));
    }
    write_table(names.iter().copied(), &mut out);
    write_table(name_terms.iter().copied(), &mut out);
    out
}

/// The terms met so far, each with a number (in order of first meeting), its postings and
/// whether it occurs in a name; and the terms each distinct run of text made, so that a word
/// met again is not cut, lowercased and stemmed again.
#[derive(Default)]
struct Vocabulary {
    numbers: HashMap<Box<str>, u32>,
    /// Per alphanumeric run met (as written): where its terms' numbers are in `run_terms`.
    runs: HashMap<Box<str>, (u32, u32)>,
    /// The numbers of the runs' terms, one run after another.
    run_terms: Vec<u32>,
    /// The buffer terms are made in.
    term: String,
    /// Per number: the (document, frequency) pairs, documents ascending but for carried ones.
    postings: Vec<Vec<(u32, u16)>>,
    /// Per number: whether a name holds the term.
    in_names: Vec<bool>,
}

impl Vocabulary {
    /// The number of `term`, given it when it is new.
    fn number(&mut self, term: &str) -> u32 {
        if let Some(&n) = self.numbers.get(term) {
            return n;
        }
        let n = self.postings.len() as u32;
        self.numbers.insert(term.into(), n);
        self.postings.push(Vec::new());
        self.in_names.push(false);
        n
    }

    /// Adds each term of `text` to `seen` at `weight`, numbered.
    fn add(&mut self, text: &str, weight: u16, seen: &mut Vec<(u32, u16)>) {
        let mut term = std::mem::take(&mut self.term);
        each_run(text, &mut |run, cjk| {
            if cjk {
                run_terms(run, true, &mut term, &mut |t| seen.push((self.number(t), weight)));
                return;
            }
            let (from, count) = match self.runs.get(run) {
                Some(&made) => made,
                None => {
                    let from = self.run_terms.len();
                    let mut made = Vec::new();
                    run_terms(run, false, &mut term, &mut |t| made.push(self.number(t)));
                    self.run_terms.extend_from_slice(&made);
                    let made = (from as u32, made.len() as u32);
                    self.runs.insert(run.into(), made);
                    made
                }
            };
            let terms = self.run_terms.get(from as usize..).unwrap_or_default();
            seen.extend(terms.iter().take(count as usize).map(|&n| (n, weight)));
        });
        self.term = term;
    }

    /// Posts document `doc`'s occurrences `seen` (emptied): one posting per term, its weights
    /// summed. Returns the document's length (the sum of every weight).
    fn post(&mut self, doc: u32, seen: &mut Vec<(u32, u16)>) -> u32 {
        seen.sort_unstable_by_key(|&(term, _)| term);
        let mut len: u32 = 0;
        let mut k = 0;
        while let Some(&(term, _)) = seen.get(k) {
            let mut tf: u16 = 0;
            while let Some(&(_, weight)) = seen.get(k).filter(|(t, _)| *t == term) {
                tf = tf.saturating_add(weight);
                len = len.saturating_add(u32::from(weight));
                k += 1;
            }
            if let Some(list) = self.postings.get_mut(term as usize) {
                list.push((doc, tf));
            }
        }
        seen.clear();
        len
    }

    /// The terms that have postings, with their numbers, in the terms' order.
    fn in_order(&self) -> Vec<(&str, u32)> {
        let posted = |n: u32| self.postings.get(n as usize).is_some_and(|list| !list.is_empty());
        let mut order: Vec<(&str, u32)> =
            self.numbers.iter().filter(|(_, &n)| posted(n)).map(|(t, &n)| (&**t, n)).collect();
        order.sort_unstable_by(|a, b| a.0.cmp(b.0));
        order
    }
}
