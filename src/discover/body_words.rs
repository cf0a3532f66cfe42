//! What discovery keeps of a SKILL.md's body for search: the distinct words of the body's opening
//! (its headings and paragraphs, as far as the bytes discovery read go), kept per skill until the
//! search index takes them, weighed below the name and the description. Requests often name what
//! only the body says: the product a skill drives, the file types it handles, the failure it
//! fixes. Discovery runs it over every SKILL.md, in the core module every host loads, so it is
//! built with discovery (for size), not with the search crate.

use crate::parse::fence;
use std::collections::HashSet;

/// At most this many bytes of distinct body words are kept per skill: on the development half
/// of `bench/search-queries.json`, 400 to 700 bytes found the most; more lets the body's long
/// tail outweigh the description (docs/performance.md has the numbers).
pub const BODY_WORDS_BYTES: usize = 600;

/// Words shorter than this (in characters) are left out: they are mostly articles, markup and
/// numbers, and the index's stop words drop most of the rest.
const MIN_WORD_CHARS: usize = 3;

/// The distinct words (lowercased, in order of first use, space-separated) of the body of the
/// SKILL.md whose first bytes are `skill_md`, up to [`BODY_WORDS_BYTES`]. Fenced code, HTML
/// comments and link targets are left out: what the index takes from a body is what a reader of
/// it sees as prose. Empty when the bytes hold no closed frontmatter or no body.
pub fn body_words(skill_md: &[u8]) -> Box<str> {
    let Ok(split) = fence::split(skill_md, true) else { return Box::default() };
    let Some(at) = split.body_offset_in(skill_md) else { return Box::default() };
    let rest = skill_md.get(at..).unwrap_or_default();
    // A prefix may end inside a character: the text before it.
    let text = match std::str::from_utf8(rest) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(rest.get(..e.valid_up_to()).unwrap_or_default()).unwrap_or_default(),
    };
    let mut words = Words { out: String::new(), seen: HashSet::new() };
    // Headings first (they name what the skill covers), then the prose, as far as room goes.
    for headings in [true, false] {
        let mut fenced = false;
        let mut commented = false;
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            // Every line moves the comment state; only the pass's kind of line gives words.
            let pieces = prose(line, &mut commented);
            if trimmed.starts_with('#') != headings {
                continue;
            }
            for piece in pieces {
                if !words.take(piece) {
                    return words.out.into_boxed_str();
                }
            }
        }
    }
    words.out.into_boxed_str()
}

/// The distinct words gathered so far.
struct Words {
    out: String,
    seen: HashSet<String>,
}

impl Words {
    /// Adds the words of `piece` not seen yet; false once one no longer fits.
    fn take(&mut self, piece: &str) -> bool {
        for word in piece.split(|c: char| !c.is_alphanumeric()) {
            if word.chars().count() < MIN_WORD_CHARS {
                continue;
            }
            let lower = crate::text::lowercase(word);
            if self.seen.contains(&lower) {
                continue;
            }
            if self.out.len() + lower.len() + 1 > BODY_WORDS_BYTES {
                return false;
            }
            if !self.out.is_empty() {
                self.out.push(' ');
            }
            self.out.push_str(&lower);
            self.seen.insert(lower);
        }
        true
    }
}

/// The parts of `line` outside HTML comments (`commented` carries an open comment from line to
/// line) and outside link targets (`](...)`).
fn prose<'a>(line: &'a str, commented: &mut bool) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let mut rest = line;
    loop {
        if *commented {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *commented = false;
                }
                None => return parts,
            }
        }
        let comment = rest.find("<!--");
        let link = rest.find("](");
        match (comment, link) {
            (Some(c), l) if l.is_none_or(|l| c < l) => {
                parts.push(&rest[..c]);
                rest = &rest[c + 4..];
                *commented = true;
            }
            (_, Some(l)) => {
                parts.push(&rest[..l]);
                rest = &rest[l + 2..];
                match rest.find(')') {
                    Some(end) => rest = &rest[end + 1..],
                    None => return parts,
                }
            }
            _ => {
                parts.push(rest);
                return parts;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_headings_and_paragraphs_once_each_without_code_comments_or_link_targets() {
        let doc = "---\nname: a\ndescription: d\n---\n# Merge PDF files\n\nCombine PDF pages. <!-- hidden stuffing -->Then\n```bash\nqpdf --empty\n```\nSee [the guide](references/guide.md) and ok.\n";
        assert_eq!(&*body_words(doc.as_bytes()), "merge pdf files combine pages then see the guide and");
    }

    #[test]
    fn headings_come_first_and_a_heading_inside_a_comment_is_no_heading() {
        let doc =
            "---\nname: a\ndescription: d\n---\nIntro text.\n<!--\n# hidden heading\n-->\n## Usage notes\nMore.\n";
        assert_eq!(&*body_words(doc.as_bytes()), "usage notes intro text more");
    }

    #[test]
    fn a_comment_over_lines_is_left_out_to_its_end() {
        let doc = "---\nname: a\ndescription: d\n---\nkept <!-- one\ntwo --> after\n";
        assert_eq!(&*body_words(doc.as_bytes()), "kept after");
    }

    #[test]
    fn bounded_and_empty_without_a_body() {
        let long = format!(
            "---\nname: a\ndescription: d\n---\n{}",
            (0..2000).map(|i| format!("word{i} ")).collect::<String>()
        );
        let words = body_words(long.as_bytes());
        assert!(words.len() <= BODY_WORDS_BYTES && words.len() > BODY_WORDS_BYTES - 12, "{}", words.len());
        assert_eq!(&*body_words(b"---\nname: a\ndescription: d\n---\n"), "");
        assert_eq!(&*body_words(b"no frontmatter at all"), "");
        assert_eq!(&*body_words(b"---\nname: a\n"), "");
    }

    #[test]
    fn a_prefix_cut_inside_a_character_keeps_the_text_before_it() {
        let doc = "---\nname: a\ndescription: d\n---\ncrème café".as_bytes();
        assert_eq!(&*body_words(&doc[..doc.len() - 1]), "crème caf");
    }
}
