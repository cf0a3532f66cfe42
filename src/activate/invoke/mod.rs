//! User invocation: `/skill-name args` and `$skill-name` mentions in a user's message, argument
//! substitution in a skill's body, and autocomplete for a partial `/pd`.
//!
//! The message's types ([`ParsedMessage`], [`Invocation`], [`InvocationKind`]) are always
//! compiled; the rules (finding invocations, substituting arguments, autocomplete) only with the
//! `invocation` feature (the wasm package runs them in its second module).
//!
//! Only skills with `user_invocable: true` can be invoked or mentioned; everything here runs in
//! linear (or near-linear) time in the size of its input and never panics.
//!
//! The conventions follow Claude Code's skills where it has one (it is the best-known host that
//! substitutes arguments into SKILL.md bodies), and say so where they deliberately differ:
//! - `$ARGUMENTS` is the whole argument string as typed (trimmed), `$ARGUMENTS[N]` and `$N` are
//!   the shell-split arguments, **0-based** (`$0` is the first argument, `$1` the second), as in
//!   Claude Code's skills; [`SubstituteOptions::one_based`] switches `$N` to the older
//!   slash-command convention (`$1` is the first).
//! - When the body uses no argument placeholder at all and arguments were given, they are
//!   appended as `\n\nARGUMENTS: <args>` (Claude Code does this for bodies without `$ARGUMENTS`).
//! - Unlike Claude Code, nothing is substituted inside fenced code blocks or inline code spans,
//!   so documentation examples in a body are left as written, and `$1.50`, `$1M`, `$1,000` are
//!   read as amounts of money, not placeholders.

#[cfg(feature = "invocation")]
mod arguments;
#[cfg(feature = "invocation")]
mod autocomplete;
mod message;
mod message_json;

#[cfg(feature = "invocation")]
pub use arguments::*;
#[cfg(feature = "invocation")]
pub use autocomplete::*;
pub use message::*;

#[cfg(all(test, feature = "invocation"))]
mod fixtures {
    use super::*;
    use crate::parse::Skill;

    pub(super) fn skill(name: &str, invocable: bool) -> Skill {
        Skill {
            name: name.into(),
            description: format!("{name} skill"),
            user_invocable: invocable,
            ..Default::default()
        }
    }

    pub(super) fn skills() -> Vec<Skill> {
        vec![
            skill("pdf", true),
            skill("pdf-tools", true),
            skill("review", true),
            skill("hidden", false),
            skill("deploy", true),
        ]
    }

    pub(super) fn names(p: &ParsedMessage) -> Vec<(&str, InvocationKind)> {
        p.invocations.iter().map(|i| (i.name.as_str(), i.kind)).collect()
    }
}

#[cfg(all(test, feature = "invocation"))]
mod tests {
    use super::fixtures::skills;
    use super::*;
    use crate::text::code_ranges;

    proptest::proptest! {
        #[test]
        fn never_panics(text in "[ -~\\n`$/é😀\\[\\]<>{}\"']{0,200}", args in "[ -~é\"'\\\\]{0,40}", hint in "[ -~]{0,40}") {
            let p = parse_message(&text, &skills());
            for inv in &p.invocations {
                proptest::prop_assert!(inv.start < inv.end);
            }
            let _ = substitute_arguments(&text, &args, Some(&hint));
            let _ = autocomplete(&text, &skills(), 3);
            let _ = split_arguments(&args);
            for (a, b) in code_ranges(&text) {
                proptest::prop_assert!(a < b && b <= text.len());
            }
        }
    }
}
