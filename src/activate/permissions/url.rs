//! URLs: the host of an http(s) URL and `domain:` patterns.

/// The lower-cased host of an http(s) URL.
pub(super) fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if hostport.starts_with('[') {
        &hostport[..hostport.find(']')? + 1]
    } else {
        hostport.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() || host.contains(['%', '\0', ' ']) {
        return None;
    }
    Some(host)
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
        assert!(f("https://user:pw@example.com./x"));
        assert!(!f("https://www.example.com/"));
        assert!(!f("https://example.com.evil.net/"));
        assert!(!f("https://evil.net/?example.com"));
        assert!(!f("https://example.com@evil.net/"));
        assert!(!f("https://evil.net\\@example.com/"));
        assert!(f("https://example.com\\@evil.net/"));
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
