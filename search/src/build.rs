//! Building the index: the documents tokenized once, each term's postings gathered, and the whole
//! written as the index's encoding ([`super::encode`]), which is what a search reads.

use super::format::MAGIC;
use super::fuzzy::write_table;
use super::index::SearchIndex;
use super::tokenize::{each_run, run_terms};
use super::varint::{put, put_ids, put_str};
use std::collections::HashMap;

/// The vocabulary's maps: keyed by terms and runs of text, hashed with foldhash's fixed seed
/// (SipHash, std's default, was a fifth of a build; on wasm32-unknown-unknown std has no random
/// source to key it with either).
type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

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
        SearchIndex::load(encode_docs(&mut docs.into_iter(), None)).unwrap_or_default()
    }

    /// As [`SearchIndex::build`], the documents [`BodyEvidence::Carried`] taking their counts
    /// from `earlier` (linear in `earlier`'s postings when any is).
    pub fn rebuild<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>, earlier: Option<&SearchIndex>) -> SearchIndex {
        SearchIndex::load(encode_docs(&mut docs.into_iter(), earlier)).unwrap_or_default()
    }
}

/// The encoding of the index of `docs` (document ids follow their order); a document
/// [`BodyEvidence::Carried`] takes its postings and length from `earlier`. Each run of text is
/// looked up once per occurrence in a map that gives its terms' numbers (a run met for the first
/// time is cut into terms, each numbered by the vocabulary's map); a document's occurrences are
/// posted by number, each term's postings gathered in document order; the whole is written in the
/// order of the terms, sorted once at the end. Linear in the text (and in `earlier`'s postings
/// when any document is carried), but for that sort and the trigrams'. Not generic over the
/// documents' iterator, so that it is compiled here, for speed, not in the crate that calls it.
pub fn encode_docs<'a>(docs: &mut dyn Iterator<Item = SearchDoc<'a>>, earlier: Option<&SearchIndex>) -> Vec<u8> {
    let mut names: Vec<&str> = Vec::new();
    let mut lens = Vec::new();
    let mut vocab = Vocabulary::default();
    // One document's (term, weight) occurrences.
    let mut seen: Vec<(u32, u16)> = Vec::new();
    // For each document of `earlier`, the id it has here (u32::MAX: not carried).
    let mut carried: Vec<u32> = Vec::new();
    for (id, doc) in docs.enumerate() {
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
    numbers: Map<Box<str>, u32>,
    /// Per alphanumeric run met of at most 16 bytes (nearly every word), keyed by its bytes as
    /// one number ([`packed_run`]): where its terms' numbers are in `run_terms`. A lookup
    /// compares two numbers, not two strings byte by byte.
    short_runs: Map<u128, (u32, u32)>,
    /// The same for the longer runs, keyed as written.
    runs: Map<Box<str>, (u32, u32)>,
    /// The numbers of the runs' terms, one run after another.
    run_terms: Vec<u32>,
    /// The buffer terms are made in.
    term: String,
    /// Per number: the (document, frequency) pairs, documents ascending but for carried ones.
    postings: Vec<Vec<(u32, u16)>>,
    /// Per number: whether a name holds the term.
    in_names: Vec<bool>,
}

/// A run of at most 16 bytes as one number (its bytes, zero-padded: a run of letters and digits
/// holds no zero byte, so two runs differ exactly when their numbers do).
fn packed_run(run: &str) -> Option<u128> {
    let bytes = run.as_bytes();
    let mut packed = [0u8; 16];
    packed.get_mut(..bytes.len())?.copy_from_slice(bytes);
    Some(u128::from_le_bytes(packed))
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
            let short = packed_run(run);
            let known = match short {
                Some(key) => self.short_runs.get(&key),
                None => self.runs.get(run),
            };
            let (from, count) = match known {
                Some(&made) => made,
                None => {
                    let from = self.run_terms.len();
                    let mut made = Vec::new();
                    run_terms(run, false, &mut term, &mut |t| made.push(self.number(t)));
                    self.run_terms.extend_from_slice(&made);
                    let made = (from as u32, made.len() as u32);
                    match short {
                        Some(key) => self.short_runs.insert(key, made),
                        None => self.runs.insert(run.into(), made),
                    };
                    made
                }
            };
            let terms = self.run_terms.get(from as usize..).unwrap_or_default();
            seen.extend(terms.iter().take(count as usize).map(|&n| (n, weight)));
        });
        self.term = term;
    }

    /// Posts document `doc`'s occurrences `seen` (emptied): one posting per term, its weights
    /// summed (documents come in ascending order, so a term's posting for `doc`, once made, is
    /// the last of its list). Returns the document's length (the sum of every weight).
    fn post(&mut self, doc: u32, seen: &mut Vec<(u32, u16)>) -> u32 {
        let mut len: u32 = 0;
        for &(term, weight) in seen.iter() {
            len = len.saturating_add(u32::from(weight));
            let Some(list) = self.postings.get_mut(term as usize) else { continue };
            match list.last_mut() {
                Some(posting) if posting.0 == doc => posting.1 = posting.1.saturating_add(weight),
                _ => list.push((doc, weight)),
            }
        }
        seen.clear();
        len
    }

    /// The terms that have postings, with their numbers, in the terms' order.
    fn in_order(&self) -> Vec<(&str, u32)> {
        let posted = |n: u32| self.postings.get(n as usize).is_some_and(|list| !list.is_empty());
        // Sorted by each term's first bytes as a number first: most comparisons end there, not
        // in a byte-by-byte comparison of the two strings.
        let mut order: Vec<(u64, &str, u32)> =
            self.numbers.iter().filter(|(_, &n)| posted(n)).map(|(t, &n)| (prefix(t), &**t, n)).collect();
        order.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
        order.into_iter().map(|(_, t, n)| (t, n)).collect()
    }
}

/// The first eight bytes of `term` as a big-endian number, padded with zeros: numbers order as
/// their terms do, but for terms that share those bytes (a term holds no zero byte).
fn prefix(term: &str) -> u64 {
    let mut bytes = [0u8; 8];
    for (slot, b) in bytes.iter_mut().zip(term.bytes()) {
        *slot = b;
    }
    u64::from_be_bytes(bytes)
}
