//! A registry started from a snapshot reads its skills where the snapshot holds them: nothing is
//! decoded to start, to list names, to filter or to search; a catalog decodes the skills it keeps;
//! asking for a skill decodes that one; and a snapshot of it is the snapshot it came from.

use crate::discover::{DiscoverOptions, ScopeHandle, SkillRegistry};
use crate::host::{SkillHost, SkillsConfig};
use crate::store::MemoryStorage;
use futures_executor::block_on;
use std::rc::Rc;

/// 300 skills, every tenth hidden from the model, every seventh asking for a tier.
fn store() -> MemoryStorage {
    MemoryStorage::new((0..300).map(|i| {
        let extra = match (i % 10, i % 7) {
            (0, _) => "disable-model-invocation: true\n",
            (_, 0) => "min_tier: small\n",
            _ => "",
        };
        let name = format!("skill-{i:03}");
        let md = format!(
            "---\nname: {name}\ndescription: Handles the work of kind {i}, with care and in full detail.\n{extra}---\n# {name}\n"
        );
        (format!("skills/{name}/SKILL.md"), md)
    }))
}

fn scopes(storage: &MemoryStorage) -> Vec<ScopeHandle> {
    vec![ScopeHandle {
        name: "user".into(),
        roots: vec!["skills/".into()],
        trusted: true,
        storage: Rc::new(storage.clone()),
    }]
}

fn decoded(reg: &SkillRegistry) -> usize {
    reg.records.iter().filter(|r| r.skill().is_decoded()).count()
}

#[test]
fn a_registry_from_a_snapshot_decodes_only_the_skills_it_is_asked_for() {
    let storage = store();
    let discovered = block_on(SkillRegistry::discover(scopes(&storage), DiscoverOptions::default()));
    let bytes = discovered.snapshot();
    let back =
        SkillRegistry::from_snapshot(bytes.clone(), scopes(&storage), DiscoverOptions::default()).expect("snapshot");
    assert_eq!(decoded(&back), 0, "starting decodes nothing");
    assert_eq!(back.names(), discovered.names());
    assert_eq!(back.own_name("skill-042"), Some("skill-042"));
    assert_eq!(back.snapshot(), bytes, "a snapshot of it is the one it came from");
    assert_eq!(decoded(&back), 0, "names, lookups and a snapshot decode nothing");
    assert!(!back.search_index().search("kind 42", 3, &|_| true).is_empty());
    assert_eq!(decoded(&back), 0, "a search reads the stored index");

    let config = SkillsConfig { budget_tokens: Some(400), ..SkillsConfig::default() };
    let host = SkillHost::new(back, config.clone());
    let catalog = host.render_catalog(&config);
    let kept = catalog.skills.len();
    assert!(kept > 0 && !catalog.dropped.is_empty(), "the budget keeps some: {kept}");
    // Filtering read every skill's head; the tier rule decoded the skills that ask for a tier (43);
    // the catalog decoded those it keeps and the first that did not fit.
    let tiered = (0..300).filter(|i| i % 7 == 0 && i % 10 != 0).count();
    assert!(decoded(host.registry()) <= tiered + kept + 1, "{} decoded", decoded(host.registry()));
    assert_eq!(
        host.registry().get("skill-123").map(|m| m.skill.description.clone()),
        discovered.get("skill-123").map(|m| m.skill.description.clone())
    );

    // Everything a discovered registry says, the one from the snapshot says too.
    let fresh = SkillHost::new(discovered, config.clone());
    assert_eq!(fresh.render_catalog(&config), catalog);
    assert_eq!(fresh.registry().list_metas(None), host.registry().list_metas(None));
}
