//! The snapshot format: what it restores, and bytes that are not a whole snapshot of it (cut,
//! damaged, resealed after damage so that only the reader's own checks stand, or of another
//! format) are refused with a diagnostic and never panic.

use super::{wire, HEADER, MAGIC, SNAPSHOT_FORMAT};
use crate::diagnostic::codes;
use crate::discover::{Carried, DiscoverOptions, ScopeHandle, SkillRegistry};
use crate::store::MemoryStorage;
use futures_executor::block_on;
use std::rc::Rc;

fn md(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things.\n{extra}---\n# {name}\n")
}

/// Two scopes whose skills use every field a snapshot carries: localized descriptions,
/// structured metadata and extra keys, the optional fields, a refused skill, a nested one, a
/// shadowed one, a `skill.md`.
fn stores() -> (MemoryStorage, MemoryStorage) {
    let user = MemoryStorage::new([
        (
            ".agents/skills/full/SKILL.md",
            md(
                "full",
                "description_zh: 做事\nlicense: MIT\ncompatibility: needs git\nallowed-tools: Bash(git:*) Read\n\
                 argument-hint: \"[file]\"\nmin_tier: large\ndisable-model-invocation: true\nuser-invocable: false\n\
                 context: fork\nagent: Explore\nmetadata:\n  author: me\n  nested:\n    a: [1, -2, 2.5, true, null, \"x\"]\n\
                 custom-key: {k: v}\n",
            ),
        ),
        (".agents/skills/full/nested/SKILL.md", md("nested", "")),
        (".agents/skills/shared/SKILL.md", md("shared", "")),
        (".agents/skills/broken/SKILL.md", "---\nname: [oops\n---\n".to_string()),
        (".agents/skills/Bad_Name/SKILL.md", md("Bad_Name", "")),
        (".agents/skills/lower/skill.md", md("lower", "")),
        ("SKILL.md", md("rooted", "")),
    ]);
    let org = MemoryStorage::new([(".agents/skills/shared/SKILL.md", md("shared", "license: Apache-2.0\n"))]);
    (user, org)
}

fn scopes(user: &MemoryStorage, org: &MemoryStorage) -> Vec<ScopeHandle> {
    vec![
        ScopeHandle {
            name: "user".into(),
            roots: vec![".agents/skills/".into(), String::new()],
            trusted: true,
            storage: Rc::new(user.clone()),
        },
        ScopeHandle {
            name: "org".into(),
            roots: vec![".agents/skills/".into()],
            trusted: true,
            storage: Rc::new(org.clone()),
        },
        // Not trusted: not read, said so.
        ScopeHandle {
            name: "project".into(),
            roots: vec![".agents/skills/".into()],
            trusted: false,
            storage: Rc::new(org.clone()),
        },
    ]
}

fn options() -> DiscoverOptions {
    DiscoverOptions { accept_lowercase_skill_md: true, ..DiscoverOptions::default() }
}

fn registry() -> (SkillRegistry, MemoryStorage, MemoryStorage) {
    let (user, org) = stores();
    let reg = block_on(SkillRegistry::discover(scopes(&user, &org), options()));
    (reg, user, org)
}

/// `bytes` with the checksum made right again.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= HEADER {
        let sum = wire::checksum(&bytes[HEADER..]);
        bytes[MAGIC.len()..HEADER].copy_from_slice(&sum.to_le_bytes());
    }
    bytes
}

/// A version 5 snapshot's body written as version 4 did: each record's directory in place of its
/// location, and the location after it only when it is not `<directory>/SKILL.md`.
fn in_version_4_layout(body: &[u8]) -> Vec<u8> {
    use crate::discover::records::{read_diagnostics, HAS_ETAG, HAS_SIZE, HAS_SKILL, OWN_LOCATION};
    use crate::discover::stored_skill::StoredSkill;
    let shared = crate::shared_bytes::SharedBytes::from(body);
    let mut r = wire::Reader::new(body);
    super::same_scopes(&mut r, &[]).expect("scopes");
    let n = r.count(1).expect("a count");
    let mut out = body[..r.offset()].to_vec();
    for _ in 0..n {
        let flags = r.byte().expect("flags");
        let scope_at = r.offset();
        if r.varint().expect("scope") == 0 {
            r.str().expect("a scope's name");
        }
        r.varint().expect("root");
        let scope_and_root = &body[scope_at..r.offset()];
        let location = r.str().expect("location");
        let directory = crate::discover::record::directory_of(location);
        let usual = super::records::usual_location(directory);
        let rest_at = r.offset();
        if flags & HAS_SIZE != 0 {
            r.varint().expect("size");
        }
        if flags & HAS_ETAG != 0 {
            r.str().expect("etag");
        }
        if flags & HAS_SKILL != 0 {
            let (_, len) = StoredSkill::checked(shared.slice(r.offset()..body.len())).expect("a skill");
            r.take(len).expect("the skill");
        }
        read_diagnostics(&mut r).expect("diagnostics");
        out.push(if location == usual { flags } else { flags | OWN_LOCATION });
        out.extend_from_slice(scope_and_root);
        wire::str(&mut out, directory);
        if location != usual {
            wire::str(&mut out, location);
        }
        out.extend_from_slice(&body[rest_at..r.offset()]);
    }
    out.extend_from_slice(&body[r.offset()..]);
    out
}

#[test]
fn restores_exactly_what_the_registry_held() {
    let (reg, user, org) = registry();
    // The fixture reaches every part of the format.
    let full = reg.get("full").expect("full");
    assert!(full.skill.metadata_structured.len() == 1 && full.skill.extra.len() == 1 && full.skill.context.is_some());
    assert!(reg.records.iter().any(|r| r.skill().is_none()), "a refused record");
    assert!(reg.records.iter().any(|r| r.location().ends_with("/skill.md")), "a skill.md");
    assert!(reg.records.iter().any(|r| r.directory().is_empty()), "a skill at the root");
    assert!(reg.diagnostics().iter().any(|d| d.code == codes::SKILL_SHADOWED));
    assert!(reg.records.iter().all(|r| r.size().is_some() && r.etag().is_some()));
    let bytes = reg.snapshot();
    assert!(bytes.starts_with(MAGIC));
    let back = SkillRegistry::from_snapshot(&bytes, scopes(&user, &org), options()).expect("snapshot");
    assert_eq!(*back.records, *reg.records);
    assert_eq!(back.diagnostics, reg.diagnostics);
    assert_eq!(back.winners, reg.winners);
    assert_eq!(back.shadowed_by, reg.shadowed_by);
    assert_eq!(back.list_metas_across(), reg.list_metas_across());
    assert_eq!(back.diagnostics(), reg.diagnostics());
    assert!(back.search.get().is_some(), "the index travels, loaded");
    assert_eq!(*back.search_index(), *reg.search_index());
    // Taken again, it is the same bytes.
    assert_eq!(back.snapshot(), bytes);
}

#[test]
fn every_cut_and_every_flipped_bit_is_refused() {
    let (reg, user, org) = registry();
    let bytes = reg.snapshot();
    for n in 0..bytes.len() {
        let e = SkillRegistry::from_snapshot(&bytes[..n], scopes(&user, &org), options()).err();
        assert_eq!(e.map(|d| d.code).as_deref(), Some(codes::SNAPSHOT_INVALID), "cut at {n}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(SkillRegistry::from_snapshot(&longer, scopes(&user, &org), options()).is_err());
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        let e = SkillRegistry::from_snapshot(&b, scopes(&user, &org), options()).err();
        assert_eq!(e.map(|d| d.code).as_deref(), Some(codes::SNAPSHOT_INVALID), "bit {} of byte {i}", i % 8);
    }
}

/// Damage the checksum does not see (it was made right again): the reader's own checks must
/// hold, every count and length bounded by what is left. Each result is a diagnostic or a
/// registry; none is a panic.
#[test]
fn resealed_damage_is_a_diagnostic_or_a_registry_never_a_panic() {
    let (reg, user, org) = registry();
    let bytes = reg.snapshot();
    let mut refused = 0;
    for n in HEADER..bytes.len() {
        let cut = resealed(bytes[..n].to_vec());
        let e = SkillRegistry::from_snapshot(&cut, scopes(&user, &org), options()).err();
        assert!(
            e.is_some_and(|d| d.code == codes::SNAPSHOT_INVALID || d.code == codes::SNAPSHOT_MISMATCH),
            "cut at {n}"
        );
    }
    for i in HEADER..bytes.len() {
        for value in [0x00, 0xff, bytes[i] ^ 0x01, bytes[i] ^ 0x80] {
            let mut b = bytes.clone();
            b[i] = value;
            match SkillRegistry::from_snapshot(resealed(b), scopes(&user, &org), options()) {
                Err(d) => {
                    assert!(d.code == codes::SNAPSHOT_INVALID || d.code == codes::SNAPSHOT_MISMATCH);
                    refused += 1;
                }
                // A registry read from damaged bytes answers like any other.
                Ok(r) => {
                    let _ = (r.list_metas_across(), r.diagnostics(), r.search_index().len(), r.snapshot());
                }
            }
        }
    }
    assert!(refused > bytes.len(), "most damage is seen: {refused}");
}

#[test]
fn counts_and_lengths_larger_than_the_input_are_refused_before_use() {
    let (user, org) = stores();
    // The two scopes as written, then a record count of 2^62 and nothing more.
    let reg = block_on(SkillRegistry::discover(scopes(&user, &org), options()));
    let bytes = reg.snapshot();
    let mut r = wire::Reader::new(&bytes[HEADER..]);
    assert!(super::same_scopes(&mut r, &scopes(&user, &org)).unwrap_or(false));
    let mut forged = bytes[..HEADER + r.offset()].to_vec();
    wire::varint(&mut forged, 1 << 62);
    let e = SkillRegistry::from_snapshot(resealed(forged), scopes(&user, &org), options()).err();
    assert!(e.is_some_and(|d| d.code == codes::SNAPSHOT_INVALID && d.message.contains("count")));
}

#[test]
fn a_record_count_within_the_bytes_left_reserves_room_by_what_real_records_take() {
    let (reg, user, org) = registry();
    let bytes = reg.snapshot();
    let mut r = wire::Reader::new(&bytes[HEADER..]);
    assert!(super::same_scopes(&mut r, &scopes(&user, &org)).unwrap_or(false));
    // One record for every five bytes of a megabyte of zeros: the most the bytes left allow (five
    // zeros read as an empty record), and the snapshot ends short after them.
    let junk = 1 << 20;
    let mut forged = bytes[..HEADER + r.offset()].to_vec();
    wire::varint(&mut forged, (junk / super::records::MIN_RECORD) as u64);
    forged.resize(forged.len() + junk, 0);
    let e = SkillRegistry::from_snapshot(resealed(forged), scopes(&user, &org), options()).err();
    assert!(e.is_some_and(|d| d.code == codes::SNAPSHOT_INVALID));
    // Room is reserved for a thirty-second of the bytes left, not for the count.
    assert_eq!(crate::discover::records::reserved(junk / 5, junk), junk / 32);
    assert_eq!(crate::discover::records::reserved(3, junk), 3);
}

#[test]
fn other_formats_are_refused_and_named() {
    let (user, org) = stores();
    let old = br#"{"format":"skillwasm-registry/1","scopes":[],"records":[],"diagnostics":[]}"#;
    let e = SkillRegistry::from_snapshot(old, scopes(&user, &org), options()).err().expect("refused");
    assert_eq!(e.code, codes::SNAPSHOT_INVALID);
    assert_eq!(e.message, format!("snapshot format \"skillwasm-registry/1\" is not {SNAPSHOT_FORMAT:?}"));
    let later = b"skillwasm-registry/6\n\0\0\0\0\0\0\0\0";
    let e = SkillRegistry::from_snapshot(later, scopes(&user, &org), options()).err().expect("refused");
    assert!(e.message.contains("\"skillwasm-registry/6\" is not"), "{}", e.message);
    for junk in [&b""[..], b"\x00garbage", b"{}", b"{\"format\":1}"] {
        let e = SkillRegistry::from_snapshot(junk, scopes(&user, &org), options()).err().expect("refused");
        assert_eq!(e.code, codes::SNAPSHOT_INVALID);
    }
}

#[test]
fn an_index_that_does_not_fit_the_skills_is_built_again() {
    let (reg, user, org) = registry();
    let bytes = reg.snapshot();
    let index = crate::search::encode::to_bytes(&reg.search_index());
    // The index comes last but for the approvals and digests (none: two counts of 0): its length,
    // then its bytes.
    let bytes = bytes.strip_suffix(&[0, 0]).expect("no approvals, no digests");
    assert!(bytes.ends_with(&index));
    let mut lengths = Vec::new();
    wire::varint(&mut lengths, index.len() as u64);
    let start = bytes.len() - index.len() - lengths.len();
    for replacement in [
        Vec::new(),
        b"not an index".to_vec(),
        crate::search::encode::to_bytes(&crate::search::SearchIndex::build(std::iter::empty())),
    ] {
        let mut b = bytes[..start].to_vec();
        wire::bytes(&mut b, &replacement);
        b.extend_from_slice(&[0, 0]);
        let back = SkillRegistry::from_snapshot(resealed(b), scopes(&user, &org), options()).expect("snapshot");
        // Built again over the same skills, from their names and descriptions: a snapshot keeps
        // no body words.
        assert!(back.search_index().names().eq(reg.search_index().names()));
        let found = back.search_index().search("does shared things", 1, &|_| true);
        assert_eq!(
            found.first().and_then(|(d, _)| back.search_index().name(*d).map(str::to_string)).as_deref(),
            Some("shared")
        );
    }
}

#[test]
fn a_snapshot_keeps_the_index_it_built_as_bytes_and_searches_alike() {
    let (reg, _, _) = registry();
    let fresh = registry().0.search_index();
    let bytes = reg.snapshot();
    assert!(reg.search.get().is_none(), "no index held after a snapshot");
    assert!(reg.own_search.get() && reg.stored_search.borrow().is_some(), "its encoding is");
    assert_eq!(reg.snapshot(), bytes, "the next snapshot takes the encoding as it is");
    assert_eq!(*reg.search_index(), *fresh, "the first search decodes it");
    assert!(!reg.own_search.get() && reg.stored_search.borrow().is_none());
    assert_eq!(reg.snapshot(), bytes, "and a snapshot with the index in use is the same");
}

#[test]
fn approvals_and_digests_ride_along_and_versions_2_to_4_are_still_read() {
    let (reg, user, org) = registry();
    let digest = format!("sha256:{}", "a".repeat(64));
    let carried = Carried {
        approvals: vec![("user".to_string(), "pdf".to_string(), digest.clone())],
        digests: vec![("org".to_string(), "pdf".to_string(), digest)],
    };
    let with = reg.snapshot_with(&carried);
    let (back, read) = SkillRegistry::from_snapshot_with(&with, scopes(&user, &org), options(), |_| {}).expect("read");
    assert_eq!(read, carried);
    assert_eq!(back.names(), reg.names());
    // Without them the snapshot is two bytes (the counts) longer than the version 2 layout, one
    // longer than version 3's.
    let plain = reg.snapshot();
    assert_eq!(
        SkillRegistry::from_snapshot_with(&plain, scopes(&user, &org), options(), |_| {}).unwrap().1,
        Carried::default()
    );
    let version_4 = in_version_4_layout(&plain[HEADER..]);
    for (magic, cut) in [(super::MAGIC_4, 0), (super::MAGIC_3, 1), (super::MAGIC_2, 2)] {
        let mut old = magic.to_vec();
        old.extend_from_slice(&[0; 8]);
        old.extend_from_slice(&version_4[..version_4.len() - cut]);
        let back =
            SkillRegistry::from_snapshot(resealed(old), scopes(&user, &org), options()).expect("an older snapshot");
        assert_eq!(back.names(), reg.names());
    }
    // A count of approvals or digests beyond the bytes left is refused, not allocated.
    for cut in [1, 2] {
        let mut forged = plain[..plain.len() - cut].to_vec();
        wire::varint(&mut forged, 1 << 40);
        if cut == 2 {
            forged.push(0);
        }
        let e = SkillRegistry::from_snapshot(resealed(forged), scopes(&user, &org), options()).err();
        assert!(e.is_some_and(|d| d.code == codes::SNAPSHOT_INVALID));
    }
}

#[test]
fn a_refresh_of_a_registry_from_a_snapshot_reads_its_records_in_place_and_only_the_changed_file() {
    use crate::discover::records::Records;
    let (reg, user, org) = registry();
    let bytes = reg.snapshot();
    let mut back = SkillRegistry::from_snapshot(&bytes, scopes(&user, &org), options()).expect("snapshot");
    let report = block_on(back.refresh());
    assert!(report.added.is_empty() && report.changed.is_empty() && report.removed.is_empty());
    assert!(matches!(*back.records, Records::Stored(_)), "nothing changed: the records stay the snapshot's");
    assert_eq!(back.stats().read_calls, 0, "no file read");
    user.put(".agents/skills/shared/SKILL.md", md("shared", "license: BSD-3-Clause\n"));
    let report = block_on(back.refresh());
    assert_eq!(report.changed.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["shared"]);
    assert_eq!(back.stats().read_calls, 1, "only the changed file read");
    let fresh = block_on(SkillRegistry::discover(scopes(&user, &org), options()));
    assert_eq!(back.list_metas_across(), fresh.list_metas_across());
    assert_eq!(back.diagnostics(), fresh.diagnostics());
}
