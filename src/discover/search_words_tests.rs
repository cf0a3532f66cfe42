//! The words of each body's opening in the search index: found by discovery, held by the records
//! only until the index is built, carried over from the index a refresh replaces (a snapshot's,
//! or one built before), and dropped for a skill the refresh changed.

use crate::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use crate::store::MemoryStorage;
use futures_executor::block_on;
use std::rc::Rc;

fn md(name: &str, description: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n")
}

fn store() -> MemoryStorage {
    MemoryStorage::new([
        (
            "skills/documents/SKILL.md",
            md("documents", "Works with office documents.", "# Merge PDF files\n\nUse qpdf."),
        ),
        ("skills/sheets/SKILL.md", md("sheets", "Works with spreadsheets.", "# Pivot tables\n\nIn xlsx workbooks.")),
        ("skills/notes/SKILL.md", md("notes", "Keeps notes.", "# Notes\n\nPlain text.")),
    ])
}

fn scopes(storage: &MemoryStorage) -> Vec<ScopeHandle> {
    vec![ScopeHandle {
        name: "user".into(),
        roots: vec!["skills/".into()],
        trusted: true,
        storage: Rc::new(storage.clone()),
    }]
}

/// The names `query` finds, best first.
fn found(reg: &SkillRegistry, query: &str) -> Vec<String> {
    let index = reg.search_index();
    index.search(query, 5, &|_| true).into_iter().filter_map(|(d, _)| index.name(d).map(str::to_string)).collect()
}

#[test]
fn a_word_only_the_body_says_finds_the_skill_below_the_description() {
    let reg = block_on(SkillRegistry::discover(scopes(&store()), DiscoverOptions::default()));
    assert_eq!(found(&reg, "qpdf"), ["documents"]);
    assert_eq!(found(&reg, "xlsx pivot"), ["sheets"]);
    // A word of one skill's description and another's body: the description weighs more.
    let both = MemoryStorage::new([
        ("skills/a/SKILL.md", md("a", "Converts invoices.", "# Steps\n\nRead the file.")),
        ("skills/b/SKILL.md", md("b", "Reads files.", "# Steps\n\nInvoices too.")),
    ]);
    let reg = block_on(SkillRegistry::discover(scopes(&both), DiscoverOptions::default()));
    assert_eq!(found(&reg, "invoices"), ["a", "b"]);
}

#[test]
fn a_refresh_of_a_registry_from_a_snapshot_carries_the_body_words_of_the_skills_it_did_not_change() {
    let storage = store();
    let reg = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    let bytes = reg.snapshot();
    let mut back =
        SkillRegistry::from_snapshot(&bytes, scopes(&storage), DiscoverOptions::default()).expect("snapshot");
    assert!(back.records.iter().all(|r| !r.search_words().is_some_and(|w| w.is_held())), "a snapshot keeps no words");
    assert_eq!(found(&back, "qpdf"), ["documents"], "its index has them");
    // Without a search in between, and again after one.
    for searched_first in [false, true] {
        let storage = store();
        let mut again =
            SkillRegistry::from_snapshot(&bytes, scopes(&storage), DiscoverOptions::default()).expect("again");
        if searched_first {
            let _ = found(&again, "notes");
        }
        storage
            .put("skills/notes/SKILL.md", md("notes", "Keeps notes in markdown.", "# Notes\n\nWith qpdf? No: zettel."));
        let report = block_on(again.refresh());
        assert_eq!(report.changed.len(), 1);
        let mut both = found(&again, "qpdf");
        both.sort();
        assert_eq!(both, ["documents", "notes"], "carried, and read from the changed skill");
        assert_eq!(found(&again, "zettel"), ["notes"]);
        assert_eq!(found(&again, "pivot"), ["sheets"]);
        assert!(again.earlier_search.borrow().is_none(), "the earlier index is dropped once used");
    }
    // The same index as a registry that discovered the changed skills: counts carried whole.
    storage.put("skills/notes/SKILL.md", md("notes", "Keeps notes in markdown.", "# Notes\n\nWith qpdf? No: zettel."));
    block_on(back.refresh());
    let fresh = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    assert_eq!(*back.search_index(), *fresh.search_index());
}

#[test]
fn a_skill_a_refresh_changed_is_not_carried_under_its_old_words() {
    let storage = store();
    let reg = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    let mut back =
        SkillRegistry::from_snapshot(reg.snapshot(), scopes(&storage), DiscoverOptions::default()).expect("snapshot");
    storage.put(
        "skills/documents/SKILL.md",
        md("documents", "Works with office documents.", "# Letters\n\nNothing else."),
    );
    block_on(back.refresh());
    assert!(found(&back, "qpdf").is_empty());
    assert_eq!(found(&back, "letters"), ["documents"]);
}

#[test]
fn a_discovered_registry_lets_go_of_the_words_once_indexed_and_a_refresh_carries_them() {
    let storage = store();
    let mut reg = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    assert!(reg.records.iter().all(|r| r.search_words().is_some_and(|w| w.is_held())), "held until the index is built");
    assert_eq!(found(&reg, "qpdf"), ["documents"]);
    assert!(reg.records.iter().all(|r| !r.search_words().is_some_and(|w| w.is_held())), "the index holds them now");
    storage.put("skills/notes/SKILL.md", md("notes", "Keeps notes in markdown.", "# Notes\n\nWith zettel."));
    block_on(reg.refresh());
    assert_eq!(found(&reg, "qpdf"), ["documents"], "carried from the index the refresh replaced");
    assert_eq!(found(&reg, "zettel"), ["notes"]);
    let fresh = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    assert_eq!(*reg.search_index(), *fresh.search_index());
    // A snapshot builds the index too (kept as its bytes), and a refresh after it carries from them.
    let mut snapped = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    let _ = snapped.snapshot();
    assert!(snapped.records.iter().all(|r| !r.search_words().is_some_and(|w| w.is_held())));
    storage.put("skills/sheets/SKILL.md", md("sheets", "Works with spreadsheets.", "# Pivot tables\n\nIn ods files."));
    block_on(snapped.refresh());
    let fresh = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    assert_eq!(*snapped.search_index(), *fresh.search_index());
    assert_eq!(found(&snapped, "qpdf"), ["documents"]);
}

#[test]
fn a_hit_says_where_the_words_were_found() {
    use crate::search::{matched_fields, MatchedField::*};
    let reg = block_on(SkillRegistry::discover(scopes(&store()), DiscoverOptions::default()));
    let index = reg.search_index();
    let fields =
        |query: &str, name: &str, description: &str| matched_fields(&index.query_words(query), name, [description]);
    assert_eq!(fields("qpdf", "documents", "Works with office documents."), [Body]);
    assert_eq!(fields("office documents", "documents", "Works with office documents."), [Name, Description]);
    // A name given with a typo finds the skill by the name as a whole, with no word of the index.
    assert!(index.query_words("documnets").is_empty());
    assert_eq!(fields("documnets", "documents", "Works with office documents."), [Name]);
    // A misspelt word of a name stands for that word.
    assert_eq!(fields("pivott tables", "sheets", "Works with spreadsheets."), [Body]);
    assert_eq!(fields("sheetz", "sheets", "Works with spreadsheets."), [Name]);
    assert_eq!(fields("spreadsheets", "sheets", "Works with spreadsheets."), [Description]);
}

#[test]
fn a_registry_of_enough_skills_has_its_index_built_by_discovery() {
    use crate::discover::INDEXED_BY_DISCOVERY_FROM;
    let of = |n: usize| {
        let storage = MemoryStorage::new((0..n).map(|i| {
            (format!("skills/s{i}/SKILL.md"), md(&format!("s{i}"), "Does one thing.", &format!("# Topic{i}")))
        }));
        block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()))
    };
    let small = of(INDEXED_BY_DISCOVERY_FROM - 1);
    assert!(small.search.get().is_none(), "below the bound, the first search builds it");
    let large = of(INDEXED_BY_DISCOVERY_FROM);
    assert!(large.search.get().is_some(), "discovery built it");
    assert!(
        large.records.iter().all(|r| !r.search_words().is_some_and(|w| w.is_held())),
        "and the index holds the words"
    );
    assert_eq!(found(&large, "topic7"), ["s7"]);
}
