//! Building the index: the documents tokenized once, each term's postings gathered, and the whole
//! written as the index's encoding ([`super::encode`]), which is what a search reads.

use super::format::MAGIC;
use super::fuzzy::write_table;
use super::index::SearchIndex;
use super::tokenize::tokenize;
use super::varint::{put, put_ids, put_str};
use std::collections::{BTreeMap, HashMap, HashSet};

/// How many times a term of the name counts, against [`DESCRIPTION_WEIGHT`] for one of a
/// description and [`BODY_WEIGHT`] for a word of the body's opening: a name three times a
/// description, a description twice the body.
pub const NAME_WEIGHT: u16 = 6;
/// How many times a term of a description counts.
pub const DESCRIPTION_WEIGHT: u16 = 2;
/// How many times a word of the body counts (each is counted once: the body's words are kept
/// distinct, [`super::evidence::body_words`]).
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
    /// The distinct words of the body's opening ([`super::evidence::body_words`]).
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
/// [`BodyEvidence::Carried`] takes its postings and length from `earlier`. Linear in the text
/// (and in `earlier`'s postings when any document is carried), but for the sorts of the terms
/// and the trigrams.
pub fn encode_docs<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>, earlier: Option<&SearchIndex>) -> Vec<u8> {
    let mut names: Vec<&str> = Vec::new();
    let mut lens = Vec::new();
    let mut postings: BTreeMap<String, Vec<(u32, u16)>> = BTreeMap::new();
    let mut buf = Vec::new();
    let mut counts: HashMap<String, u16> = HashMap::new();
    let mut in_names: HashSet<String> = HashSet::new();
    // For each document of `earlier`, the id it has here (u32::MAX: not carried).
    let mut carried: Vec<u32> = Vec::new();
    for (id, doc) in docs.into_iter().enumerate() {
        counts.clear();
        let mut len: u32 = 0;
        buf.clear();
        tokenize(doc.name, &mut buf);
        in_names.extend(buf.iter().cloned());
        names.push(doc.name);
        if let (BodyEvidence::Carried(from), Some(earlier)) = (&doc.body, earlier) {
            if let Some(from_len) = earlier.doc_len(*from) {
                if carried.is_empty() {
                    carried = vec![u32::MAX; earlier.len()];
                }
                if let Some(slot) = carried.get_mut(*from as usize) {
                    *slot = id as u32;
                }
                lens.push(from_len);
                continue;
            }
        }
        add(&mut counts, &mut len, buf.drain(..), NAME_WEIGHT);
        for text in &doc.texts {
            tokenize(text, &mut buf);
        }
        add(&mut counts, &mut len, buf.drain(..), DESCRIPTION_WEIGHT);
        if let BodyEvidence::Words(words) = doc.body {
            tokenize(words, &mut buf);
            add(&mut counts, &mut len, buf.drain(..), BODY_WEIGHT);
        }
        for (t, c) in counts.drain() {
            postings.entry(t).or_default().push((id as u32, c));
        }
        lens.push(len);
    }
    if let (false, Some(earlier)) = (carried.is_empty(), earlier) {
        for (term, ids) in earlier.all_postings() {
            let mut list = postings.get_mut(term);
            for (from, tf) in ids {
                let Some(&to) = carried.get(from as usize).filter(|&&to| to != u32::MAX) else { continue };
                if list.is_none() {
                    list = Some(postings.entry(term.to_string()).or_default());
                }
                if let Some(list) = list.as_mut() {
                    list.push((to, tf));
                }
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
    put(&mut out, postings.len() as u64);
    let mut name_terms: Vec<&str> = Vec::new();
    let (mut ids, mut tfs) = (Vec::new(), Vec::new());
    for (term, list) in &mut postings {
        crate::sort::sort_by_key(list, |p| p.0);
        let in_name = in_names.contains(term);
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

/// Adds each of `terms` to `counts` at `weight`, and the weights to the document's length.
fn add(counts: &mut HashMap<String, u16>, len: &mut u32, terms: impl Iterator<Item = String>, weight: u16) {
    for t in terms {
        let c = counts.entry(t).or_insert(0);
        *c = c.saturating_add(weight);
        *len = len.saturating_add(u32::from(weight));
    }
}
