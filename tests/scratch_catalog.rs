use futures_executor::block_on;
use skillwasm::discover::DiscoverOptions;
use skillwasm::host::{resolve_scopes, ScopeSpec, SkillHost, SkillsConfig};
use skillwasm::store::{MemoryStorage, Storage};
use std::rc::Rc;
use std::time::Instant;

fn config(n: usize) -> SkillsConfig {
    SkillsConfig {
        discover: DiscoverOptions {
            max_directories: (n * 4 + 100) as u32,
            max_depth: 12,
            ..DiscoverOptions::default()
        },
        budget_tokens: Some(8000),
        ..SkillsConfig::default()
    }
}

#[test]
#[ignore]
fn scratch() {
    let n = 100_000;
    let user = MemoryStorage::default();
    for i in 0..n {
        let name = format!("s{i:06}-skill");
        user.put(format!(".agents/skills/g{}/{name}/SKILL.md", i / 50), format!(
            "---\nname: {name}\ndescription: Handles task number {i} of the synthetic set: reads the inputs, checks them against the rules of group {} and writes a short report about what it found, with words about pdf files and spreadsheets and deployment pipelines and more text to reach the usual length of a real description in the corpus which is about three hundred bytes.\nlicense: MIT\n---\n# {name}\n\nStep one. Step two.\n", i / 50));
    }
    let specs = || {
        [ScopeSpec {
            name: "user".into(),
            storage: Rc::new(user.clone()) as Rc<dyn Storage>,
            roots: None,
            trusted: Some(true),
            location: None,
        }]
    };
    let h = block_on(SkillHost::discover(resolve_scopes(&specs(), &config(n)).unwrap(), config(n)));
    let snap = h.registry().snapshot();
    println!("snapshot {} bytes", snap.len());
    for _ in 0..3 {
        let t = Instant::now();
        let h2 =
            SkillHost::from_snapshot(snap.clone(), resolve_scopes(&specs(), &config(n)).unwrap(), config(n)).unwrap();
        let t1 = t.elapsed();
        let c = h2.catalog();
        let t2 = t.elapsed();
        let c2 = h2.render_catalog(&config(n));
        let t3 = t.elapsed();
        let hits = h2.search("merge pdf files", &Default::default());
        let t4 = t.elapsed();
        if std::env::var("LOOP").is_ok() {
            for _ in 0..150 {
                std::hint::black_box(h2.render_catalog(&config(n)));
            }
        }
        println!(
            "from_snapshot {:?} catalog {:?} again {:?} search {:?} ({} {} {})",
            t1,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            c.skills.len(),
            c2.skills.len(),
            hits.len()
        );
    }
}
