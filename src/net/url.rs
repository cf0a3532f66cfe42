//! URI reference resolution (RFC 3986, section 5.2), for the URLs of an index, which resolve
//! against the index's own URL. Only what resolution needs: the five components, dot-segment
//! removal and merging; no normalisation beyond that, no percent-decoding.

/// The components of a URI reference (RFC 3986, appendix B). Each is `None` when absent, which
/// differs from present and empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parts<'a> {
    pub(crate) scheme: Option<&'a str>,
    pub(crate) authority: Option<&'a str>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

/// The components of `reference` (RFC 3986, appendix B).
pub(crate) fn split(reference: &str) -> Parts<'_> {
    let (rest, fragment) = match reference.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (reference, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find(':') {
        Some(i) if i > 0 && !rest[..i].contains('/') && is_scheme(&rest[..i]) => (Some(&rest[..i]), &rest[i + 1..]),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find('/').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query, fragment }
}

fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// RFC 3986, 5.2.4: `.` and `..` segments removed from a path.
fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (i, seg) in segments.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        match *seg {
            "." => trailing = i == last,
            ".." => {
                out.pop();
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut s = String::with_capacity(path.len());
    if absolute {
        s.push('/');
    }
    s.push_str(&out.join("/"));
    if trailing && !s.ends_with('/') {
        s.push('/');
    }
    s
}

/// RFC 3986, 5.2.3.
fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{path}", &base.path[..=i]),
        None => path.to_string(),
    }
}

/// `reference` resolved against `base` (an absolute URI). `None` when `base` has no scheme.
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    let b = split(base);
    let base_scheme = b.scheme?;
    let r = split(reference);
    let (scheme, authority, path, query);
    if let Some(s) = r.scheme {
        scheme = s.to_string();
        authority = r.authority.map(str::to_string);
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = base_scheme.to_string();
        if r.authority.is_some() {
            authority = r.authority.map(str::to_string);
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority.map(str::to_string);
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(&b, r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::with_capacity(base.len() + reference.len());
    out.push_str(&scheme);
    out.push(':');
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(&a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    Some(out)
}

/// Whether `url` is an absolute `http:` or `https:` URL with a host and no whitespace or control
/// character: the only URLs an index may send a client to.
pub fn is_http_url(url: &str) -> bool {
    let p = split(url);
    matches!(p.scheme.map(str::to_ascii_lowercase).as_deref(), Some("http") | Some("https"))
        && p.authority.is_some_and(|a| !a.is_empty())
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::resolve;

    /// RFC 3986, 5.4: the normal and abnormal examples.
    #[test]
    fn rfc_examples() {
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
            ("http:g", "http:g"),
        ];
        for (r, want) in cases {
            assert_eq!(resolve(base, r).as_deref(), Some(want), "{r}");
        }
        assert_eq!(resolve("no-scheme/x", "g"), None);
        assert!(super::is_http_url("https://example.com/x"));
        assert!(!super::is_http_url("file:///etc/passwd"));
        assert!(!super::is_http_url("javascript:alert(1)"));
    }
}
