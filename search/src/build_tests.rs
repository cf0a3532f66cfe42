//! The index the builder writes, against the plain way of building it: every document's words
//! cut one by one into strings, counted in a map per document, gathered in an ordered map of
//! terms. The builder's shortcuts (runs cut as slices, the terms of a run kept for the next time
//! it is met, terms numbered and sorted once) must give the same postings, lengths and name
//! terms, over text that mixes the cases those shortcuts touch.

use super::build::{encode_docs, BodyEvidence, SearchDoc, BODY_WEIGHT, DESCRIPTION_WEIGHT, NAME_WEIGHT};
use super::index::SearchIndex;
use super::tokenize::tokenize;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Per term, its (document, frequency) pairs; per document, its length; the terms of names.
type Plain = (BTreeMap<String, Vec<(u32, u16)>>, Vec<u32>, BTreeSet<String>);

/// The index of `docs` built the plain way.
fn plain(docs: &[(String, String, String)]) -> Plain {
    let mut postings: BTreeMap<String, Vec<(u32, u16)>> = BTreeMap::new();
    let mut lens = Vec::new();
    let mut in_names = BTreeSet::new();
    for (id, (name, text, body)) in docs.iter().enumerate() {
        let mut counts: HashMap<String, u16> = HashMap::new();
        let mut len: u32 = 0;
        for (part, weight) in [(name, NAME_WEIGHT), (text, DESCRIPTION_WEIGHT), (body, BODY_WEIGHT)] {
            let mut terms = Vec::new();
            tokenize(part, &mut terms);
            if weight == NAME_WEIGHT {
                in_names.extend(terms.iter().cloned());
            }
            for t in terms {
                let c = counts.entry(t).or_insert(0);
                *c = c.saturating_add(weight);
                len = len.saturating_add(u32::from(weight));
            }
        }
        for (t, c) in counts {
            postings.entry(t).or_default().push((id as u32, c));
        }
        lens.push(len);
    }
    (postings, lens, in_names)
}

/// What the builder wrote for `docs`, read back.
fn built(docs: &[(String, String, String)]) -> Plain {
    let bytes = encode_docs(
        &mut docs.iter().map(|(name, text, body)| SearchDoc {
            name,
            texts: vec![text],
            body: BodyEvidence::Words(body),
        }),
        None,
    );
    let ix = SearchIndex::load(bytes).expect("the builder's encoding loads");
    let postings = ix.all_postings().map(|(t, ids)| (t.to_string(), ids.collect())).collect();
    let lens = (0..docs.len() as u32).map(|d| ix.doc_len(d).unwrap_or(u32::MAX)).collect();
    (postings, lens, ix.name_term_texts().map(str::to_string).collect())
}

/// Words whose runs repeat across documents in different cases: camelCase humps, acronyms and
/// their plurals, stop words, stems, digits, non-ASCII letters, CJK of three scripts, a word
/// longer than a term may be.
const WORDS: &[&str] = &[
    "merge",
    "Merging",
    "merged",
    "PDFs",
    "pdf",
    "parseHTTPResponse",
    "camelCase",
    "APIs",
    "the",
    "and",
    "running",
    "process",
    "queries",
    "generation",
    "über",
    "Straße",
    "ΣΊΣΥΦΟΣ",
    "数据分析",
    "データ",
    "한국어",
    "表",
    "ＰＤＦ",
    "mp3",
    "v2",
    "snake_case",
    "src/main.rs",
    "x1y2z3",
    "ĲssEL",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

fn text() -> impl Strategy<Value = String> {
    let sep = prop::sample::select(vec![" ", "-", ". ", "—", "\n", "", "(", "’s "]);
    prop::collection::vec((prop::sample::select(WORDS.to_vec()), sep), 0..12)
        .prop_map(|parts| parts.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
}

proptest! {
    #[test]
    fn the_builder_writes_what_the_plain_build_would(docs in prop::collection::vec((text(), text(), text()), 0..12)) {
        prop_assert_eq!(built(&docs), plain(&docs));
    }
}
