//! Snapshots of the real corpus (../shared/corpus): a registry started from one answers exactly as
//! the registry it was taken from (metas, diagnostics, catalogs, search), with no store call; and
//! bytes that are not a whole snapshot (cut anywhere, bytes flipped at random) are the
//! `snapshot-invalid` diagnostic, not a panic, with the registry's instance still usable after.

mod common;

use futures_executor::block_on;
use skillwasm::disclose::CatalogFormat;
use skillwasm::discover::DiscoverOptions;
use skillwasm::host::{resolve_scopes, ScopeSpec, Scopes, SkillHost, SkillsConfig};
use skillwasm::search::SearchOptions;
use skillwasm::store::{MemoryStorage, Storage};
use std::rc::Rc;

/// The corpus's SKILL.md files in a memory store, keyed as on disk (`skills/...`).
fn corpus() -> Option<MemoryStorage> {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is not beside the repository; corpus snapshot test skipped");
        return None;
    };
    let base = shared.join("corpus");
    let files = common::skill_files(&base.join("skills"));
    assert!(files.len() > 700, "expected the corpus's 776 SKILL.md files, found {}", files.len());
    Some(MemoryStorage::new(files.iter().filter_map(|f| {
        let key = f.strip_prefix(&base).ok()?.to_str()?.replace('\\', "/");
        Some((key, std::fs::read(f).ok()?))
    })))
}

fn config() -> SkillsConfig {
    SkillsConfig {
        discover: DiscoverOptions { max_depth: 12, max_directories: 1_000_000, ..DiscoverOptions::default() },
        ..SkillsConfig::default()
    }
}

fn scopes(store: &MemoryStorage) -> Scopes {
    let spec = ScopeSpec {
        name: "builtin".into(),
        storage: Rc::new(store.clone()) as Rc<dyn Storage>,
        roots: Some(vec!["skills/".into()]),
        trusted: Some(true),
        location: None,
    };
    resolve_scopes(&[spec], &config()).expect("scopes")
}

/// A small xorshift generator: the same flips on every run.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn a_snapshot_of_the_corpus_answers_as_the_registry_it_was_taken_from() {
    let Some(store) = corpus() else { return };
    let h = block_on(SkillHost::discover(scopes(&store), config()));
    let bytes = h.registry().snapshot();
    let calls = h.registry().stats();
    let cold = SkillHost::from_snapshot(&bytes, scopes(&store), config()).expect("snapshot");
    assert_eq!(cold.registry().stats().read_calls + cold.registry().stats().list_calls, 0, "no store call");
    assert!(h.registry().names().len() > 700);
    assert_eq!(cold.registry().names(), h.registry().names());
    assert_eq!(cold.registry().list_metas_across(), h.registry().list_metas_across());
    assert_eq!(cold.registry().diagnostics(), h.registry().diagnostics());
    for format in [CatalogFormat::Xml, CatalogFormat::Json, CatalogFormat::Markdown] {
        let mut c = config();
        c.format = format;
        assert_eq!(cold.render_catalog(&c), h.render_catalog(&c));
        c.budget_tokens = Some(2000);
        assert_eq!(cold.render_catalog(&c), h.render_catalog(&c));
    }
    for q in ["merge pdf files", "write unit tests first", "slack messages", "数据分析"] {
        assert_eq!(cold.search(q, &SearchOptions::default()), h.search(q, &SearchOptions::default()), "{q}");
    }
    // The same skills give the same bytes, and the snapshot is under the JSON it replaced (which
    // was about 1 KB a skill) with the search index of names, descriptions and body words in it.
    assert_eq!(cold.registry().snapshot(), bytes);
    assert!(bytes.len() < 776 * 900, "{} bytes", bytes.len());
    assert_eq!(h.registry().stats(), calls, "taking a snapshot calls no store");
}

#[test]
fn cut_or_flipped_corpus_snapshots_are_refused_and_the_whole_one_still_starts() {
    let Some(store) = corpus() else { return };
    let h = block_on(SkillHost::discover(scopes(&store), config()));
    let bytes = h.registry().snapshot();
    let refused = |b: &[u8]| match SkillHost::from_snapshot(b, scopes(&store), config()) {
        Err(d) => d.code == "snapshot-invalid" && !d.message.is_empty(),
        Ok(_) => false,
    };
    // Every cut of the first and last 256 bytes, and a cut every 997 bytes in between (the
    // snapshot module's own tests cut a small snapshot at every byte).
    let cuts = (0..bytes.len()).filter(|&n| n < 256 || n + 256 > bytes.len() || n % 997 == 0);
    for n in cuts {
        assert!(refused(&bytes[..n]), "cut at {n} of {}", bytes.len());
    }
    let mut rng = Xorshift(0x5eed_cafe_f00d_d00d);
    for _ in 0..300 {
        let mut b = bytes.clone();
        let at = (rng.next() % b.len() as u64) as usize;
        let with = (rng.next() % 255 + 1) as u8;
        b[at] ^= with;
        assert!(refused(&b), "byte {at} ^ {with:#x}");
    }
    assert!(SkillHost::from_snapshot(&bytes, scopes(&store), config()).is_ok());
}
