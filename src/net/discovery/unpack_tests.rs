use super::*;
use crate::net::archive::tar::write_tar;
use crate::net::discovery::index::parse_index;
use crate::net::discovery::publish::{publish_well_known, PublishOptions};

const SKILL: &[u8] = b"---\nname: pdf\ndescription: Work with PDFs.\n---\n# PDF\n";

fn tgz(files: &[(&str, &[u8])]) -> Vec<u8> {
    inflate::gzip(&write_tar(files).unwrap_or_default())
}

fn code(u: &Unpacked) -> Option<&str> {
    u.diagnostics.iter().find(|d| d.is_error()).map(|d| d.code.as_str())
}

fn limits() -> Limits {
    Limits::default()
}

#[test]
fn published_archives_round_trip_and_are_deterministic() {
    let files = vec![
        ("pdf/SKILL.md".to_string(), SKILL.to_vec()),
        ("pdf/references/forms.md".to_string(), b"forms".to_vec()),
        ("solo/SKILL.md".to_string(), b"---\nname: solo\ndescription: Alone.\n---\nBody\n".to_vec()),
        ("broken/SKILL.md".to_string(), b"no frontmatter".to_vec()),
    ];
    let a = publish_well_known(&files, &PublishOptions::default());
    let b = publish_well_known(&files, &PublishOptions::default());
    assert_eq!(a, b);
    assert_eq!(a.artifacts.len(), 2);
    assert_eq!(a.diagnostics.len(), 1);
    let index = parse_index(
        &a.index,
        "https://x.test/.well-known/agent-skills/index.json",
        &crate::net::OriginPolicy::new::<&str>("https://x.test/", &[]).expect("an origin"),
    );
    assert!(index.diagnostics.is_empty(), "{:?}", index.diagnostics);
    let pdf = &index.skills[0];
    assert_eq!((pdf.name.as_str(), pdf.url.as_str()), ("pdf", "https://x.test/.well-known/agent-skills/pdf.tar.gz"));
    let u = unpack_artifact(&a.artifacts[0].bytes, ArtifactKind::Archive, pdf.digest.as_deref(), &limits());
    let paths: Vec<_> = u.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/forms.md"]);
    assert_eq!(u.files[0].bytes, SKILL);
    let solo = &index.skills[1];
    assert_eq!(solo.url, "https://x.test/.well-known/agent-skills/solo/SKILL.md");
    let u = unpack_artifact(&a.artifacts[1].bytes, ArtifactKind::SkillMd, solo.digest.as_deref(), &limits());
    assert_eq!(u.files.len(), 1);
}

#[test]
fn hostile_archives_are_refused() {
    let wrong = "sha256:0000000000000000000000000000000000000000000000000000000000000000";
    let good = tgz(&[("SKILL.md", SKILL)]);
    assert_eq!(
        code(&unpack_artifact(&good, ArtifactKind::Archive, Some(wrong), &limits())),
        Some(codes::ARTIFACT_DIGEST_MISMATCH)
    );
    for name in ["../escape", "/abs", "a/../../x"] {
        let t = tgz(&[("SKILL.md", SKILL), (name, b"x")]);
        assert_eq!(
            code(&unpack_artifact(&t, ArtifactKind::Archive, None, &limits())),
            Some(codes::ARCHIVE_UNSAFE),
            "{name}"
        );
    }
    let no_root = tgz(&[("pdf/SKILL.md", SKILL)]);
    assert_eq!(
        code(&unpack_artifact(&no_root, ArtifactKind::Archive, None, &limits())),
        Some(codes::ARCHIVE_SKILL_MD_MISSING)
    );
    let zeros = vec![0u8; 8 * 1024 * 1024];
    let bomb = tgz(&[("SKILL.md", SKILL), ("zeros", &zeros)]);
    let small = Limits { max_skill_bytes: 1024 * 1024, ..limits() };
    assert!(bomb.len() < 64 * 1024);
    assert_eq!(code(&unpack_artifact(&bomb, ArtifactKind::Archive, None, &small)), Some(codes::ARCHIVE_TOO_LARGE));
    let names: Vec<String> = (0..600).map(|i| format!("f{i}")).collect();
    let mut many: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    many.push(("SKILL.md", SKILL));
    assert_eq!(
        code(&unpack_artifact(&tgz(&many), ArtifactKind::Archive, None, &limits())),
        Some(codes::ARCHIVE_TOO_LARGE)
    );
    assert_eq!(code(&unpack_artifact(b"plain", ArtifactKind::Archive, None, &limits())), Some(codes::ARCHIVE_INVALID));
}

#[test]
fn an_entry_whose_skill_md_names_another_skill_is_refused() {
    let good = b"---\nname: good\ndescription: The real one.\n---\nBody\n".to_vec();
    let digest = crate::net::digest::sha256_digest(&good);
    let ok = super::unpack_entry(&good, ArtifactKind::SkillMd, Some(&digest), Some("good"), &limits());
    assert!(ok.diagnostics.is_empty() && ok.files.len() == 1);
    let impostor = super::unpack_entry(&good, ArtifactKind::SkillMd, Some(&digest), Some("aaa"), &limits());
    assert!(impostor.files.is_empty());
    assert_eq!(code(&impostor), Some(codes::ARTIFACT_NAME_MISMATCH));
    assert!(impostor.diagnostics[0].message.contains("'aaa'") && impostor.diagnostics[0].message.contains("'good'"));
    // Without a name in the frontmatter, discovery takes the entry's (its directory's) name.
    let nameless = b"---\ndescription: d\n---\n".to_vec();
    assert!(super::unpack_entry(&nameless, ArtifactKind::SkillMd, None, Some("aaa"), &limits()).diagnostics.is_empty());
    // Without the entry's name, nothing is checked (as before).
    assert!(super::unpack_entry(&good, ArtifactKind::SkillMd, Some(&digest), None, &limits()).diagnostics.is_empty());
}
