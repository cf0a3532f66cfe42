//! Names that pass for others, decided without Unicode's confusables tables.
//!
//! Two names look alike when they share a [`name_key`]: the name after NFKC and lowercasing
//! ([`crate::text::nfkc`], [`crate::text::lowercase`], which in wasm are the host's
//! `String.prototype.normalize` and `toLowerCase`), so `pdf`, `PDF` and fullwidth `ｐｄｆ` are one.
//! Discovery computes it once per visible name and groups by it in a hash map: linear in the
//! number of skills, no two names ever compared.
//!
//! A name that mixes ASCII letters with letters of another script (Cyrillic `р` with Latin `df`:
//! `рdf`) has no key in common with the name it imitates; it is refused on its own
//! ([`name_rule`]), as is a name holding a character no output shows. What this leaves out (a
//! name written wholly in another script that reads as an ASCII one, such as Cyrillic `сор` for
//! `cop`) needs the TR39 confusables data; see the naming guide.

use crate::diagnostic::{codes, Diagnostic};
use crate::text::{lowercase, nfkc};

/// The key `name` shares with every name that looks like it here: its NFKC form, lowercased.
pub fn name_key(name: &str) -> String {
    if name.is_ascii() {
        return name.to_ascii_lowercase();
    }
    lowercase(&nfkc(name))
}

/// Whether `name` is plain: lowercase ASCII letters, digits and hyphens. Among names that look
/// alike, a plain one is the one kept.
pub fn is_plain(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Whether `c` is a letter of the Latin script outside ASCII that a European language writes (the
/// accented letters of Latin-1, Latin Extended-A and -B, and Latin Extended Additional): `café`
/// and `ștampilă` mix nothing. The click letters of Latin Extended-B (`ǀ ǁ ǂ ǃ`), which read as
/// punctuation or `l`, are not counted.
fn is_latin_letter(c: char) -> bool {
    matches!(c, '\u{C0}'..='\u{24F}' | '\u{1E00}'..='\u{1EFF}')
        && !matches!(c, '\u{D7}' | '\u{F7}' | '\u{1C0}'..='\u{1C3}')
}

/// Whether `name` mixes ASCII letters with letters of another script (`рdf`: Cyrillic `р` with
/// Latin `df`). A name wholly in one script (`навык`, `日本語-スキル`), digits and hyphens with
/// anything, and accented Latin letters with ASCII (`café`) mix nothing.
pub fn mixes_scripts(name: &str) -> bool {
    if name.is_ascii() {
        return false;
    }
    let ascii_letter = name.bytes().any(|b| b.is_ascii_alphabetic());
    ascii_letter && name.chars().any(|c| !c.is_ascii() && c.is_alphabetic() && !is_latin_letter(c))
}

/// Whether `name` holds a character no output shows as it is ([`crate::text::hides`]; any
/// variation selector too: a name has no emoji to vary).
pub fn has_hidden_chars(name: &str) -> bool {
    let mut prev = None;
    name.chars().any(|c| crate::text::hides(prev.replace(c), c) || crate::text::is_variation_selector(c))
}

/// The rules beyond the specification that keep a name from passing for another, an error in both
/// modes when one holds (the skill is refused): a character no output shows
/// ([`codes::NAME_HIDDEN_CHARS`]: the catalog would show the name otherwise than a call names it),
/// else ASCII letters mixed with another script's ([`codes::NAME_MIXED_SCRIPT`]).
pub fn name_rule(name: &str) -> Option<Diagnostic> {
    let name = name.trim();
    if name.is_ascii() && !name.bytes().any(|b| b.is_ascii_control()) {
        return None;
    }
    if has_hidden_chars(name) {
        return Some(Diagnostic::error(
            codes::NAME_HIDDEN_CHARS,
            format!(
                "Skill name '{}' holds characters no output shows (format or control characters, shown here as U+FFFD); the skill is refused",
                crate::text::one_line(name)
            ),
        ));
    }
    mixed_script(name)
}

/// The [`codes::NAME_MIXED_SCRIPT`] error for `name` when it [`mixes_scripts`].
fn mixed_script(name: &str) -> Option<Diagnostic> {
    mixes_scripts(name).then(|| {
        let others: String = name.chars().filter(|c| !c.is_ascii() && c.is_alphabetic() && !is_latin_letter(*c)).collect();
        Diagnostic::error(
            codes::NAME_MIXED_SCRIPT,
            format!(
                "Skill name '{}' mixes ASCII letters with letters of another script ('{}'), as a name made to pass for another does; the skill is refused",
                crate::text::one_line(name),
                crate::text::one_line(&others)
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_and_width_variants_share_a_key() {
        let pdf = name_key("pdf");
        for name in ["PDF", "Pdf", "\u{FF50}\u{FF44}\u{FF46}", "\u{FF30}\u{FF24}\u{FF26}"] {
            assert_eq!(name_key(name), pdf, "{name}");
        }
        assert_ne!(name_key("pdf-2"), pdf);
        assert_ne!(name_key("\u{0440}df"), pdf, "a mixed-script name is refused on its own, not keyed alike");
        assert_eq!(name_key("НАВЫК"), name_key("навык"));
    }

    #[test]
    fn mixed_scripts_are_ascii_letters_with_letters_of_another_script() {
        for mixed in ["\u{0440}df", "p\u{0501}f", "pdf-\u{03B1}", "\u{0261}it", "\u{0430}pple-pay", "pdf\u{65E5}"] {
            assert!(mixes_scripts(mixed), "{mixed}");
        }
        for fine in
            ["pdf", "pdf-2", "навык", "日本語-スキル", "café", "ștampilă", "\u{FF50}\u{FF44}\u{FF46}", "навык-2", ""]
        {
            assert!(!mixes_scripts(fine), "{fine}");
        }
        assert!(mixes_scripts("\u{01C0}ink"), "a click letter reads as l");
    }

    /// What a SKILL.md whose name is `name` gets, by code, and whether the skill loads.
    fn parsed(name: &str, mode: crate::parse::Mode) -> (Vec<String>, bool) {
        let src = format!("---\nname: \"{name}\"\ndescription: d\n---\nBody\n");
        let opts = crate::parse::ParseOptions { dir_name: Some(name.to_string()), mode, ..Default::default() };
        let r = crate::parse::parse_skill(src.as_bytes(), &opts);
        (r.diagnostics.iter().map(|d| d.code.clone()).collect(), r.skill.is_some())
    }

    #[test]
    fn a_name_with_hidden_characters_is_refused() {
        for hidden in [
            "p\u{200B}df",
            "pdf\u{202E}",
            "pdf\u{200E}",
            "pdf\u{E0041}",
            "pdf\u{FE0F}",
            "\u{3164}pdf",
            "p\u{AD}df",
            "p\u{7}df",
        ] {
            for mode in [crate::parse::Mode::Lenient, crate::parse::Mode::Strict] {
                let (found, loaded) = parsed(hidden, mode);
                assert!(!loaded, "{hidden:?} loaded: {found:?}");
                assert!(found.iter().any(|c| c == codes::NAME_HIDDEN_CHARS), "{hidden:?}: {found:?}");
            }
        }
    }

    #[test]
    fn a_mixed_script_name_is_refused_in_both_modes() {
        for mode in [crate::parse::Mode::Lenient, crate::parse::Mode::Strict] {
            let (found, loaded) = parsed("\u{0440}df", mode);
            assert!(!loaded, "{mode:?}");
            assert!(found.iter().any(|c| c == codes::NAME_MIXED_SCRIPT), "{found:?}");
            for fine in ["pdf", "навык", "日本語-スキル", "café"] {
                assert_eq!(parsed(fine, mode), (vec![], true), "{fine}");
            }
        }
        // Without a name, the directory's is used, and checked alike.
        let opts = crate::parse::ParseOptions { dir_name: Some("\u{0440}df".into()), ..Default::default() };
        let r = crate::parse::parse_skill(b"---\ndescription: d\n---\n", &opts);
        assert!(r.skill.is_none() && r.diagnostics.iter().any(|d| d.code == codes::NAME_MIXED_SCRIPT));
    }
}
