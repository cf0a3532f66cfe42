use super::encode::{base64, from_bytes, to_bytes, unbase64};
use super::*;

fn index(docs: &[(&str, &str)]) -> SearchIndex {
    SearchIndex::build(docs.iter().map(|(name, d)| SearchDoc { name, texts: vec![*d], body: BodyEvidence::None }))
}

fn names(ix: &SearchIndex, hits: &[(u32, f32)]) -> Vec<String> {
    hits.iter().map(|(d, _)| ix.name(*d).unwrap_or_default().to_string()).collect()
}

fn corpus() -> SearchIndex {
    index(&[
        ("docx", "Create, edit and review Word documents with tracked changes and comments"),
        ("pdf", "Extract text and tables from PDF files, fill forms, merge and split documents"),
        ("pdf-forms", "Fill in PDF forms and flatten form fields"),
        ("xlsx", "Spreadsheet work: formulas, formatting, charts and data analysis in Excel files"),
        ("webapp-testing", "Test local web applications with Playwright: screenshots, browser logs"),
        ("数据分析", "用于数据分析和生成报告的技能"),
        ("slack-gif-creator", "Make animated GIFs sized for Slack"),
    ])
}

#[test]
fn bm25_ranks_the_skill_whose_words_match() {
    let ix = corpus();
    let all = |_: u32| true;
    assert_eq!(names(&ix, &ix.search("merge pdf files", 3, &all))[0], "pdf");
    assert_eq!(names(&ix, &ix.search("fill in a form", 3, &all))[0], "pdf-forms");
    assert_eq!(names(&ix, &ix.search("excel formulas", 3, &all))[0], "xlsx");
    assert_eq!(names(&ix, &ix.search("browser screenshots", 3, &all))[0], "webapp-testing");
    assert_eq!(names(&ix, &ix.search("生成分析报告", 3, &all))[0], "数据分析");
    assert!(ix.search("zebra quantum", 3, &all).is_empty());
    assert!(ix.search("", 3, &all).is_empty());
    // The scores fall, the limit holds, and the filter applies.
    let hits = ix.search("pdf", 2, &all);
    assert_eq!(hits.len(), 2);
    assert!(hits[0].1 >= hits[1].1);
    let not_pdf = |d: u32| ix.name(d) != Some("pdf");
    assert_eq!(names(&ix, &ix.search("merge pdf", 1, &not_pdf)), ["pdf-forms"]);
}

#[test]
fn a_name_goes_first_and_typos_in_names_are_forgiven() {
    let ix = corpus();
    let all = |_: u32| true;
    assert_eq!(names(&ix, &ix.search("pdf", 3, &all))[0], "pdf");
    assert_eq!(names(&ix, &ix.search("pdf forms", 3, &all))[0], "pdf-forms");
    assert_eq!(names(&ix, &ix.search("webap-testng", 3, &all))[0], "webapp-testing");
    // A word of a name with a typo still finds it.
    assert_eq!(names(&ix, &ix.search("animated slak gifs", 3, &all))[0], "slack-gif-creator");
    let near: Vec<&str> = ix.closest("pdf-form", 3, &all).iter().filter_map(|d| ix.name(*d)).collect();
    assert_eq!(near[0], "pdf-forms");
    assert!(near.contains(&"pdf"));
    let none = |_: u32| false;
    assert!(ix.closest("pdf-form", 3, &none).is_empty());
}

#[test]
fn every_locale_is_searched() {
    let ix = SearchIndex::build([
        SearchDoc {
            name: "report",
            texts: vec!["Write weekly status reports", "撰写每周状态报告"],
            body: BodyEvidence::None,
        },
        SearchDoc { name: "other", texts: vec!["Something else entirely"], body: BodyEvidence::None },
    ]);
    assert_eq!(names(&ix, &ix.search("状态报告", 2, &|_| true)), ["report"]);
}

#[test]
fn the_index_survives_bytes_and_refuses_others() {
    let ix = corpus();
    let bytes = to_bytes(&ix);
    let back = from_bytes(&bytes).expect("reads back");
    assert_eq!(back, ix);
    assert_eq!(back.search("merge pdf files", 3, &|_| true), ix.search("merge pdf files", 3, &|_| true));
    for cut in [0, 5, bytes.len() / 2, bytes.len() - 1] {
        assert!(from_bytes(&bytes[..cut]).is_none(), "cut at {cut}");
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(from_bytes(&extra).is_none());
    let mut flipped = bytes.clone();
    for i in (20..flipped.len()).step_by(7) {
        flipped[i] ^= 0x55;
        let _ = from_bytes(&flipped); // no panic, whatever it reads
    }
    assert!(from_bytes(b"skillwasm-search/2\n\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff").is_none());
    assert_eq!(from_bytes(&to_bytes(&SearchIndex::build([]))), Some(SearchIndex::build([])));
}

#[test]
fn a_trigram_table_over_other_strings_than_the_index_is_refused() {
    use super::fuzzy::write_table;
    use super::varint::{put, put_ids, put_str};
    // One skill `a` whose one term is `a`; the name table over `names`.
    let encoding = |names: &[&str]| {
        let mut out = super::format::MAGIC.to_vec();
        put(&mut out, 1);
        put_str(&mut out, b"a");
        put(&mut out, 3);
        put(&mut out, 1);
        put_str(&mut out, b"a");
        put(&mut out, 1 << 1 | 1);
        put_ids(&mut out, &[0], Some(&[3]));
        write_table(names.iter().copied(), &mut out);
        write_table(["a"], &mut out);
        out
    };
    let ix = SearchIndex::load(encoding(&["a"])).expect("consistent");
    assert_eq!(names(&ix, &ix.search("a", 1, &|_| true)), ["a"]);
    // A table claiming more strings than there are skills would size every tally by its claim.
    assert!(SearchIndex::load(encoding(&["a", "b", "c"])).is_none());
}

#[test]
fn base64_round_trips() {
    for s in [&b""[..], b"a", b"ab", b"abc", b"abcd", &[0, 255, 128, 7, 9]] {
        assert_eq!(unbase64(&base64(s)).as_deref(), Some(s));
    }
    assert_eq!(base64(b"Man"), "TWFu");
    assert_eq!(base64(b"Ma"), "TWE=");
    assert!(unbase64("TWE").is_none());
    assert!(unbase64("T=Fu").is_none());
    assert!(unbase64("TW!u").is_none());
}

#[test]
fn options_bound_the_limit() {
    assert_eq!(SearchOptions::default().limit(), 10);
    assert_eq!(SearchOptions { limit: Some(0), ..Default::default() }.limit(), 1);
    assert_eq!(SearchOptions { limit: Some(1_000_000), ..Default::default() }.limit(), 100);
}

/// `n` synthetic skills: a unique name, descriptions drawn from a few hundred (as the corpus's
/// repeat across a catalog of 100,000).
fn synthetic(n: usize) -> SearchIndex {
    let names: Vec<String> = (0..n).map(|i| format!("s{i}-report-builder")).collect();
    let texts: Vec<String> = (0..n)
        .map(|i| {
            format!("Builds report {} from spreadsheets and PDF files, merging pages for team {}", i % 977, i % 13)
        })
        .collect();
    SearchIndex::build(names.iter().zip(&texts).map(|(name, t)| SearchDoc {
        name,
        texts: vec![t.as_str()],
        body: BodyEvidence::None,
    }))
}

#[test]
fn memory_per_skill_holds_as_the_catalog_grows() {
    let small = synthetic(5_000);
    let large = synthetic(50_000);
    let per = |ix: &SearchIndex| ix.heap_bytes() as f64 / ix.len() as f64;
    let (a, b) = (per(&small), per(&large));
    eprintln!(
        "index memory per skill: {a:.0} bytes at 5,000 skills, {b:.0} at 50,000 (encoding {} bytes)",
        large.bytes().len()
    );
    assert!(b < a * 1.25, "linear: {a:.0} then {b:.0} bytes per skill");
    assert!(b < 200.0, "{b:.0} bytes per skill");
    // Loading keeps the bytes and notes where things are: the same index, the same answers.
    let back = SearchIndex::load(large.bytes().to_vec()).expect("loads");
    assert_eq!(back, large);
    assert!(back.heap_bytes() <= large.heap_bytes());
    assert_eq!(back.search("merge pdf pages", 5, &|_| true), large.search("merge pdf pages", 5, &|_| true));
}
