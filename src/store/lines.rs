//! Listing pages as lines, the form JS stores' pages cross into the wasm module in (one string
//! per page instead of a value per entry). One entry a line: `key`, then tab-separated its size,
//! its etag, and optionally a fourth field: the object's SHA-256 (`sha256:<hex>`, see
//! [`super::ListEntry::digest`]) and/or what came of its head (`!message` for a failure; in a
//! packed page, the length of its head in the page's heads), the digest first when both are
//! given. A missing or empty size or etag is none. The JS side writes the lines (`pageLines` and
//! the packed listing of `nodeFsStorage`), the rules of what a line means are here.

use super::{Head, ListEntry, ListPage};

/// One entry line, split.
#[derive(Debug, PartialEq, Eq)]
pub struct EntryLine<'a> {
    /// The key.
    pub key: &'a str,
    /// The listed size.
    pub size: Option<u64>,
    /// The listed etag.
    pub etag: Option<&'a str>,
    /// The listed SHA-256 of the object (`sha256:<64 lowercase hex>`; another form is none).
    pub digest: Option<&'a str>,
    /// What came of its head: the rest of the line, which keeps any tab of its own.
    pub head: Option<&'a str>,
}

/// Splits an entry line; Err names what is wrong (a size that is not a number).
pub fn entry_line(line: &str) -> Result<EntryLine<'_>, &'static str> {
    let mut fields = line.splitn(4, '\t');
    let key = fields.next().unwrap_or_default();
    let size = match fields.next() {
        None | Some("") => None,
        Some(n) => Some(n.parse::<u64>().map_err(|_| "sizes are not numbers")?),
    };
    let etag = fields.next().filter(|e| !e.is_empty());
    let mut head = fields.next();
    let mut digest = None;
    if let Some(rest) = head.filter(|h| h.starts_with(super::sha256::PREFIX)) {
        let (d, after) = match rest.split_once('\t') {
            Some((d, after)) => (d, Some(after)),
            None => (rest, None),
        };
        digest = Some(d).filter(|d| super::sha256::is_sha256_digest(d));
        head = after;
    }
    Ok(EntryLine { key, size, etag, digest, head })
}

/// A head error's message, kept to `most` characters; None when `field` is not `!message`.
pub fn head_error(field: &str, most: usize) -> Option<Head> {
    field.strip_prefix('!').map(|m| Head::Failed(m.chars().take(most).collect()))
}

/// The cursor of a page written as lines (its first line, `=cursor`), without reading the rest.
pub fn cursor(text: &str) -> Option<&str> {
    let first = text.split('\n').next().unwrap_or_default();
    first.strip_prefix('=').filter(|c| !c.is_empty())
}

/// A page written as lines: a first line `=cursor` (or empty: no cursor), then one entry a line
/// whose fourth field, when there is one, is a head error. Returns the page and the head errors
/// (`head_chars` characters of each at most), or None for text that is not such a page.
pub fn page(text: &str, head_chars: usize) -> Option<(ListPage, Vec<(String, Head)>)> {
    let mut lines = text.split('\n');
    lines.next()?;
    let cursor = cursor(text).map(str::to_string);
    let count = text.bytes().filter(|&b| b == b'\n').count();
    let mut page = ListPage { entries: Vec::with_capacity(count), cursor, ..ListPage::default() };
    let mut head_errors = Vec::new();
    for line in lines {
        let e = entry_line(line).ok()?;
        if let Some(field) = e.head {
            head_errors.push((e.key.to_string(), head_error(field, head_chars)?));
        }
        page.entries.push(ListEntry {
            key: e.key.to_string(),
            size: e.size,
            etag: e.etag.map(str::to_string),
            digest: e.digest.map(str::to_string),
        });
    }
    Some((page, head_errors))
}

/// A page (its entries and cursor) written as lines, as [`page`] reads them: what a store that
/// lists as lines answers. Keys and etags hold no tab or line feed (a checked key holds no
/// control character).
pub fn write(page: &ListPage) -> String {
    let mut text = String::new();
    if let Some(c) = &page.cursor {
        text.push('=');
        text.push_str(c);
    }
    for e in &page.entries {
        text.push('\n');
        text.push_str(&e.key);
        text.push('\t');
        if let Some(n) = e.size {
            text.push_str(&n.to_string());
        }
        text.push('\t');
        text.push_str(e.etag.as_deref().unwrap_or_default());
        if let Some(d) = &e.digest {
            text.push('\t');
            text.push_str(d);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, size: Option<u64>, etag: Option<&str>) -> ListEntry {
        ListEntry { key: key.into(), size, etag: etag.map(str::to_string), digest: None }
    }

    #[test]
    fn pages_read_as_their_lines_say() {
        let (p, errors) =
            page("=c\na/SKILL.md\t3\te1\nb\t\t\nc\t0\t\t!gone\tfor good\nd\t1\te\t!", 1000).unwrap_or_default();
        assert_eq!(p.cursor.as_deref(), Some("c"));
        assert_eq!(
            p.entries,
            [
                entry("a/SKILL.md", Some(3), Some("e1")),
                entry("b", None, None),
                entry("c", Some(0), None),
                entry("d", Some(1), Some("e"))
            ]
        );
        assert_eq!(
            errors,
            [("c".into(), Head::Failed("gone\tfor good".into())), ("d".into(), Head::Failed(String::new()))]
        );
        // An empty first line, or `=` alone, is no cursor; an empty page has no entry.
        for text in ["", "="] {
            let (p, errors) = page(text, 10).unwrap_or_default();
            assert_eq!((p.cursor, p.entries.len(), errors.len()), (None, 0, 0), "{text:?}");
        }
        assert_eq!(page("\nk\t1\te\t!abcdef", 3).map(|(_, e)| e), Some(vec![("k".into(), Head::Failed("abc".into()))]));
    }

    #[test]
    fn written_pages_read_back_as_they_were() {
        let p = ListPage {
            entries: vec![entry("a/SKILL.md", Some(3), Some("e1")), entry("b", None, None), entry("c", Some(0), None)],
            cursor: Some("c".into()),
            ..ListPage::default()
        };
        let text = write(&p);
        assert_eq!(cursor(&text), Some("c"));
        assert_eq!(page(&text, 10), Some((p, Vec::new())));
        assert_eq!(cursor(&write(&ListPage::default())), None);
    }

    #[test]
    fn a_listed_digest_comes_before_the_head() {
        let d = format!("sha256:{}", "2d".repeat(32));
        let text = format!("\na\t1\te\t{d}\nb\t1\te\t{d}\t!gone\nc\t1\te\tsha256:XYZ\nd\t1\te\t!sha256:");
        let (p, errors) = page(&text, 100).unwrap_or_default();
        let digests: Vec<Option<&str>> = p.entries.iter().map(|e| e.digest.as_deref()).collect();
        assert_eq!(digests, [Some(d.as_str()), Some(d.as_str()), None, None], "a malformed digest is none");
        assert_eq!(errors, [("b".into(), Head::Failed("gone".into())), ("d".into(), Head::Failed("sha256:".into()))]);
        let mut with = ListPage { entries: vec![entry("a", Some(1), Some("e"))], ..ListPage::default() };
        with.entries[0].digest = Some(d.clone());
        assert_eq!(page(&write(&with), 10), Some((with, Vec::new())));
    }

    #[test]
    fn lines_that_are_not_a_page_refuse_it() {
        for text in ["\nk\t1.5\te", "\nk\t-1\te", "\nk\tx\te", "\nk\t1\te\t5"] {
            assert_eq!(page(text, 10), None, "{text:?}");
        }
    }

    #[test]
    fn entry_lines_split_at_their_first_three_tabs() {
        assert_eq!(entry_line("k"), Ok(EntryLine { key: "k", size: None, etag: None, digest: None, head: None }));
        assert_eq!(entry_line("k\t7"), Ok(EntryLine { key: "k", size: Some(7), etag: None, digest: None, head: None }));
        assert_eq!(
            entry_line("k\t\tE\t12"),
            Ok(EntryLine { key: "k", size: None, etag: Some("E"), digest: None, head: Some("12") })
        );
        assert_eq!(entry_line("k\tnope"), Err("sizes are not numbers"));
        assert_eq!(head_error("!why", 10), Some(Head::Failed("why".into())));
        assert_eq!(head_error("12", 10), None);
    }
}
