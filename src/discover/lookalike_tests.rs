//! Names that look alike are never offered side by side: one stays visible (a plain name, else
//! the first in precedence order), the others are hidden with an error that names both.

use super::winners;
use crate::diagnostic::{codes, Severity};
use crate::discover::{DiscoverOptions, ScopeHandle, SkillRecord, SkillRegistry};
use crate::parse::Skill;
use crate::store::MemoryStorage;
use futures_executor::block_on;
use std::rc::Rc;

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Fill PDF forms ({name}).\n---\n# {name}\n")
}

fn scope(name: &str, files: &[(&str, &str)]) -> ScopeHandle {
    let store = MemoryStorage::new(files.iter().map(|(dir, name)| (format!("{dir}/SKILL.md"), md(name))));
    ScopeHandle { name: name.into(), roots: vec![String::new()], trusted: true, storage: Rc::new(store) }
}

fn discover(scopes: Vec<ScopeHandle>) -> SkillRegistry {
    block_on(SkillRegistry::discover(scopes, DiscoverOptions::default()))
}

const CYRILLIC_PDF: &str = "\u{0440}df";
const FULLWIDTH_PDF: &str = "\u{FF50}\u{FF44}\u{FF46}";

#[test]
fn lookalikes_of_a_skill_are_hidden_with_an_error_naming_both() {
    // `PDF` sorts before `pdf`, and so comes first in precedence order: the plain name stays.
    let reg = discover(vec![scope(
        "user",
        &[
            ("PDF", "PDF"),
            ("pdf", "pdf"),
            (FULLWIDTH_PDF, FULLWIDTH_PDF),
            (CYRILLIC_PDF, CYRILLIC_PDF),
            ("good", "good"),
        ],
    )]);
    assert_eq!(reg.names(), ["good", "pdf"]);
    for hidden in ["PDF", FULLWIDTH_PDF] {
        assert!(reg.get(hidden).is_none(), "{hidden} is offered");
        let d = reg
            .diagnostics()
            .into_iter()
            .find(|d| d.code == codes::SKILL_CONFUSABLE && d.message.contains(&format!("'{hidden}'")));
        let d = d.unwrap_or_else(|| panic!("no skill-confusable for {hidden}"));
        assert_eq!(d.severity, Severity::Error);
        assert!(d.message.contains("'pdf'"), "{}", d.message);
        assert_eq!(d.path.as_deref(), Some(format!("user:{hidden}/SKILL.md").as_str()));
        // Listed for the host, with what hides it.
        let meta = reg.list_metas(Some("user")).into_iter().find(|m| m.skill.name == hidden).expect("listed");
        assert_eq!(meta.shadowed_by.as_deref(), Some("user:pdf/SKILL.md"));
    }
    // The Cyrillic one mixes scripts: refused when parsed, so it never reaches the grouping.
    let mixed = reg.diagnostics().into_iter().find(|d| d.code == codes::NAME_MIXED_SCRIPT).expect("name-mixed-script");
    assert_eq!(mixed.severity, Severity::Error);
    assert!(reg.get(CYRILLIC_PDF).is_none());
}

#[test]
fn a_lookalike_in_a_scope_of_higher_precedence_does_not_replace_the_plain_name() {
    let reg = discover(vec![scope("project", &[("PDF", "PDF")]), scope("user", &[("pdf", "pdf")])]);
    assert_eq!(reg.names(), ["pdf"]);
    assert_eq!(reg.get("pdf").map(|m| m.scope), Some("user".to_string()));
    // Neither plain: precedence decides.
    let reg = discover(vec![scope("project", &[(FULLWIDTH_PDF, FULLWIDTH_PDF)]), scope("user", &[("Pdf", "Pdf")])]);
    assert_eq!(reg.names(), [FULLWIDTH_PDF]);
    // The same name in two scopes is shadowing, as before: a warning, and a qualified name.
    let reg = discover(vec![scope("project", &[("pdf", "pdf")]), scope("user", &[("pdf", "pdf")])]);
    let found: Vec<String> = reg.diagnostics().into_iter().map(|d| d.code).collect();
    assert_eq!(found, [codes::SKILL_SHADOWED]);
    assert_eq!(reg.names(), ["pdf", "user:pdf"]);
}

#[test]
fn a_hidden_name_is_not_offered_under_a_qualified_name_either() {
    // Two `PDF`s: the second would be `user:PDF`; both are lookalikes of `pdf`, so neither is offered.
    let reg = discover(vec![scope("project", &[("PDF", "PDF")]), scope("user", &[("PDF", "PDF"), ("pdf", "pdf")])]);
    assert_eq!(reg.names(), ["pdf"]);
    let confusable: Vec<String> =
        reg.diagnostics().into_iter().filter(|d| d.code == codes::SKILL_CONFUSABLE).filter_map(|d| d.path).collect();
    assert_eq!(confusable, ["project:PDF/SKILL.md", "user:PDF/SKILL.md"]);
}

#[test]
fn grouping_is_linear_at_a_hundred_thousand_skills() {
    let storage: Rc<dyn crate::store::Storage> = Rc::new(MemoryStorage::new(Vec::<(String, String)>::new()));
    let scopes = [ScopeHandle { name: "user".into(), roots: vec![], trusted: true, storage }];
    let record = |name: String| SkillRecord {
        scope: "user".into(),
        root: 0,
        location: format!("{name}/SKILL.md"),
        size: None,
        etag: None,
        skill: Some(Rc::new(Skill { name, description: "d".into(), ..Skill::default() })).into(),
        diagnostics: Rc::default(),
        search_words: Default::default(),
    };
    // Every tenth name has an upper-case twin, every hundredth a fullwidth one; one sort and one
    // key per name decide them.
    let mut records: Vec<SkillRecord> = (0..100_000).map(|i| record(format!("skill-{i}-pdf"))).collect();
    records.extend((0..10_000).map(|i| record(format!("skill-{}-PDF", i * 10))));
    records.extend((0..1_000).map(|i| record(format!("skill-{}-{FULLWIDTH_PDF}", i * 100))));
    let start = std::time::Instant::now();
    let records = crate::discover::Records::Parsed(records);
    let decided = winners(&scopes, &records);
    assert_eq!(decided.by_name.len(), 100_000);
    assert_eq!(decided.shadowed.len(), 11_000);
    assert!(decided.shadowed.iter().all(|&i| i >= 100_000));
    assert!(decided.by_name.iter().all(|&i| i < 100_000));
    // A pairwise comparison would be 10^10 steps; one pass is well under a few seconds even unoptimised.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

/// Cyrillic `сор`: every letter Cyrillic, so it mixes nothing, and reads as Latin `cop`.
const CYRILLIC_COP: &str = "\u{0441}\u{043E}\u{0440}";

#[test]
fn a_name_wholly_in_another_script_that_reads_as_a_plain_one_is_hidden() {
    // In a scope of higher precedence too: the plain name stays.
    let reg = discover(vec![scope("project", &[(CYRILLIC_COP, CYRILLIC_COP)]), scope("user", &[("cop", "cop")])]);
    assert_eq!(reg.names(), ["cop"]);
    let d = reg.diagnostics().into_iter().find(|d| d.code == codes::SKILL_CONFUSABLE).expect("skill-confusable");
    assert!(d.message.contains("'cop'") && d.message.contains(CYRILLIC_COP), "{}", d.message);
    // Alone, it is a name like any other.
    let reg = discover(vec![scope("project", &[(CYRILLIC_COP, CYRILLIC_COP)])]);
    assert_eq!(reg.names(), [CYRILLIC_COP]);
}

#[test]
fn plain_names_that_share_a_key_are_all_offered() {
    // `rn` reads as `m`, `1` as `l`: each plain name reads as written, so none hides another, and
    // a name that is not plain is hidden by the first plain one.
    let reg = discover(vec![scope(
        "user",
        &[("burn", "burn"), ("bum", "bum"), ("BURN", "BURN"), ("v1", "v1"), ("vl", "vl")],
    )]);
    assert_eq!(reg.names(), ["bum", "burn", "v1", "vl"]);
    let hidden: Vec<String> =
        reg.diagnostics().into_iter().filter(|d| d.code == codes::SKILL_CONFUSABLE).filter_map(|d| d.path).collect();
    assert_eq!(hidden, ["user:BURN/SKILL.md"]);
}

#[test]
fn lookalike_names_the_skill_an_added_name_would_be_hidden_by() {
    let reg = discover(vec![scope("user", &[("pdf", "pdf"), ("cop", "cop"), ("Deploy", "Deploy")])]);
    assert_eq!(reg.lookalike(CYRILLIC_COP).as_deref(), Some("cop"));
    assert_eq!(reg.lookalike("PDF").as_deref(), Some("pdf"));
    assert_eq!(reg.lookalike(FULLWIDTH_PDF).as_deref(), Some("pdf"));
    // Not plain, and like a visible name that is not plain either: still an impostor of it.
    assert_eq!(reg.lookalike("DEPLOY").as_deref(), Some("Deploy"));
    // A plain name is never hidden; a name is not its own lookalike; an unlike name has none.
    for none in ["pdf", "deploy", "Deploy", "Report", "\u{043D}\u{0430}\u{0432}\u{044B}\u{043A}"] {
        assert_eq!(reg.lookalike(none), None, "{none}");
    }
}
