//! Frontmatter fields that clients define beyond the specification. Strict mode still reports
//! them as unexpected, as the reference does, and says which client defines them, so that a
//! skill written for that client is not taken for a broken one.

use super::Field;
use crate::diagnostic::{codes, Diagnostic};

/// Claude Code's own SKILL.md fields (its skills documentation), beyond the specification's.
pub const CLAUDE_CODE_FIELDS: [&str; 12] = [
    "agent",
    "argument-hint",
    "arguments",
    "context",
    "disable-model-invocation",
    "effort",
    "hooks",
    "model",
    "paths",
    "shell",
    "user-invocable",
    "when_to_use",
];

/// The clients whose fields are known, with their fields.
pub const KNOWN_CLIENTS: [(&str, &[&str]); 1] = [("Claude Code", &CLAUDE_CODE_FIELDS)];

/// The info diagnostic for the `unexpected` fields that are known extensions, naming the client
/// of each; None when none of them is.
pub fn note(unexpected: &[&str], fields: &[Field]) -> Option<Diagnostic> {
    let mut parts = Vec::new();
    let mut first = None;
    for (client, known) in KNOWN_CLIENTS {
        let ours: Vec<&str> = unexpected.iter().copied().filter(|k| known.contains(k)).collect();
        if ours.is_empty() {
            continue;
        }
        first = first.or_else(|| fields.iter().find(|f| ours.contains(&f.key.as_str())).and_then(|f| f.line));
        parts.push(format!("{} {} {client}'s own", ours.join(", "), if ours.len() == 1 { "is" } else { "are" }));
    }
    if parts.is_empty() {
        return None;
    }
    Some(
        Diagnostic::info(
            codes::KNOWN_EXTENSION_FIELDS,
            format!(
                "known extensions: {}; outside the specification, so strict validation (and the reference) \
                 calls them unexpected, while clients that read them load the skill",
                parts.join("; ")
            ),
        )
        .at_line(first),
    )
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::parse::{parse_skill, Mode, ParseOptions};

    #[test]
    fn strict_names_claude_codes_fields_as_known_extensions() {
        let src = "---\nname: a\ndescription: d\nfoo: 1\nargument-hint: \"[file]\"\ncontext: fork\n---\n";
        let r = parse_skill(src.as_bytes(), &ParseOptions { mode: Mode::Strict, ..Default::default() });
        let errors: Vec<_> = r.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.starts_with("Unexpected fields in frontmatter: argument-hint, context, foo."));
        let note = r.diagnostics.iter().find(|d| d.code == "known-extension-fields").expect("the note");
        assert_eq!(note.severity, Severity::Info);
        assert!(
            note.message.starts_with("known extensions: argument-hint, context are Claude Code's own;"),
            "{}",
            note.message
        );
        assert_eq!(note.line, Some(5));
        // Only unknown fields: no note. Lenient: no note either.
        let r = parse_skill(
            b"---\nname: a\ndescription: d\nfoo: 1\n---\n",
            &ParseOptions { mode: Mode::Strict, ..Default::default() },
        );
        assert!(r.diagnostics.iter().all(|d| d.code != "known-extension-fields"));
        let r = parse_skill(src.as_bytes(), &ParseOptions::default());
        assert!(r.diagnostics.iter().all(|d| d.code != "known-extension-fields"));
    }
}
