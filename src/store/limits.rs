//! Size limits and the one prefix-read policy. Discovery (over a store) and the façade's batch
//! parse (over bytes already in memory) both read a SKILL.md's first [`PREFIX_BYTES`] when only
//! its frontmatter is needed, and the whole file only when the closing fence is not in them.
//! Objects above a cap ([`DEFAULT_MAX_OBJECT_BYTES`] unless configured) are refused before they
//! are read.

use crate::diagnostic::Diagnostic;
use crate::parse::{parse_skill, ParseOptions, ParseResult};

/// Bytes of a SKILL.md read first when only its frontmatter is needed (frontmatter is almost
/// always shorter).
pub const PREFIX_BYTES: u32 = 4096;

/// The default size cap for one object (a SKILL.md or a resource): 16 MiB, the MCP Skills
/// extension's per-skill limit.
pub const DEFAULT_MAX_OBJECT_BYTES: u32 = 16 * 1024 * 1024;

/// Parses a SKILL.md's metadata from its first bytes. `prefix` is what a read of at most `asked`
/// bytes gave, `total` the file's size when it is known. The result when the prefix decides it;
/// `None` when the whole file must be read (the frontmatter does not end inside the prefix).
pub fn parse_prefix(prefix: &[u8], asked: u32, total: Option<u64>, opts: &ParseOptions) -> Option<ParseResult> {
    // A prefix read that came back full may have stopped short of the end.
    let partial = prefix.len() >= asked as usize && total.is_none_or(|s| s > prefix.len() as u64);
    let result = parse_skill(prefix, &ParseOptions { partial, ..opts.clone() });
    (!result.incomplete).then_some(result)
}

/// The diagnostic for an object of `size` bytes above `cap`, or `None` when it is within.
/// `code` names what was refused (`skill-too-large`, `file-too-large`).
pub fn check_size(code: &str, what: &str, size: u64, cap: u32) -> Option<Diagnostic> {
    (size > u64::from(cap)).then(|| {
        Diagnostic::error(code, format!("{what} is {size} bytes, more than the {cap} bytes an object may have"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nname: a\ndescription: d\n---\nbody\n";

    #[test]
    fn a_short_file_is_decided_by_its_prefix() {
        let r = parse_prefix(DOC.as_bytes(), PREFIX_BYTES, Some(DOC.len() as u64), &ParseOptions::default());
        assert_eq!(r.and_then(|r| r.skill).map(|s| s.name), Some("a".to_string()));
    }

    #[test]
    fn a_frontmatter_longer_than_the_prefix_needs_the_whole_file() {
        let long = format!("---\nname: a\ndescription: {}\n---\nbody\n", "d".repeat(100));
        let opts = ParseOptions { include_body: Some(false), ..ParseOptions::default() };
        assert!(parse_prefix(&long.as_bytes()[..64], 64, Some(long.len() as u64), &opts).is_none());
        assert!(parse_prefix(&long.as_bytes()[..64], 64, None, &opts).is_none());
        // The prefix is the whole file: nothing more to read, whatever it says.
        assert!(parse_prefix(&long.as_bytes()[..64], 64, Some(64), &opts).is_some());
    }

    #[test]
    fn sizes_above_the_cap_are_refused() {
        assert!(check_size("skill-too-large", "SKILL.md", 10, 10).is_none());
        let d = check_size("skill-too-large", "SKILL.md", 11, 10).map(|d| d.code);
        assert_eq!(d.as_deref(), Some("skill-too-large"));
    }
}
