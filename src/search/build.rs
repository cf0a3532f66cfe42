//! Building the index: the documents tokenized once, each term's postings gathered, and the whole
//! written as the index's encoding ([`super::encode`]), which is what a search reads.

use super::fuzzy::write_table;
use super::tokenize::tokenize;
use super::varint::{put, put_ids, put_str};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The first line of the encoding. Version 3 keeps each list's byte length and the trigram
/// tables (versions 1 and 2 are built again).
pub const MAGIC: &[u8] = b"skillwasm-search/3\n";

/// How many times a term of the name counts against one of a description.
pub const NAME_WEIGHT: u16 = 3;

/// One skill as the index sees it: its name and every description (all locales).
pub struct SearchDoc<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// Its descriptions and any other text to search.
    pub texts: Vec<&'a str>,
}

/// The encoding of the index of `docs` (document ids follow their order). Linear in the text,
/// but for the sorts of the terms and the trigrams.
pub fn encode_docs<'a>(docs: impl IntoIterator<Item = SearchDoc<'a>>) -> Vec<u8> {
    let mut names: Vec<&str> = Vec::new();
    let mut lens = Vec::new();
    let mut postings: BTreeMap<String, Vec<(u32, u16)>> = BTreeMap::new();
    let mut buf = Vec::new();
    let mut counts: HashMap<String, u16> = HashMap::new();
    let mut in_names: HashSet<String> = HashSet::new();
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
        names.push(doc.name);
        lens.push(len);
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
