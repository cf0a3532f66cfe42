//! URLs: the host of an http(s) URL and `domain:` patterns.

/// The lower-cased host of an http(s) URL, or why it is not read: a URL that parsers read
/// differently (the WHATWG parser of browsers and Node treats `\\` as `/`, curl and Python do not;
/// user info hides the host after an `@`) is refused rather than guessed at.
pub(super) fn url_host(url: &str) -> Result<String, &'static str> {
    let url = url.trim();
    if url.contains('\\') {
        return Err("has a backslash, which URL parsers read differently");
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("has whitespace or a control character");
    }
    let (scheme, rest) = url.split_once("://").ok_or("is not an http(s) URL")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err("is not an http(s) URL");
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.contains('@') {
        return Err("has user info ('@') before its host, which URL parsers read differently");
    }
    let host = if authority.starts_with('[') {
        &authority[..authority.find(']').ok_or("has an unclosed IPv6 address")? + 1]
    } else {
        authority.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() || host.contains('%') {
        return Err("has no host that can be read");
    }
    Ok(host)
}

pub(super) fn domain_matches(domain: &str, host: &str) -> bool {
    match domain.strip_prefix("*.") {
        Some(base) => host.strip_suffix(base).is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
        None => host == domain,
    }
}

#[cfg(test)]
mod tests {

    use crate::activate::permissions::fixtures::*;
    use serde_json::json;

    // ---- WebFetch

    #[test]
    fn webfetch_domains() {
        let t = &["WebFetch(domain:example.com)"];
        let f = |url: &str| allowed(t, "WebFetch", json!({ "url": url }));
        assert!(f("https://example.com/a?b"));
        assert!(f("http://EXAMPLE.com:8080"));
        assert!(f("https://example.com./x"));
        assert!(!f("https://user:pw@example.com./x"), "user info is refused");
        assert!(!f("https://www.example.com/"));
        assert!(!f("https://example.com.evil.net/"));
        assert!(!f("https://evil.net/?example.com"));
        assert!(!f("https://example.com@evil.net/"));
        assert!(!f("https://evil.net\\@example.com/"));
        assert!(!f("https://example.com\\@evil.net/"), "curl and Python send this to evil.net");
        assert!(!f("https://example.com\\.evil.net/"));
        assert!(!f("https://example.com/a b"));
        assert!(!f("ftp://example.com/"));
        assert!(!f("example.com"));
        assert!(!allowed(t, "WebFetch", json!({})));
        let w = &["WebFetch(domain:*.example.com)"];
        assert!(allowed(w, "WebFetch", json!({ "url": "https://docs.example.com/" })));
        assert!(allowed(w, "WebFetch", json!({ "url": "https://a.b.example.com/" })));
        assert!(!allowed(w, "WebFetch", json!({ "url": "https://example.com/" })));
        assert!(!allowed(w, "WebFetch", json!({ "url": "https://badexample.com/" })));
    }
}
