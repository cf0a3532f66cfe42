//! The origin policy of a network store: which URLs it may request, and which of them get the
//! host's headers.
//!
//! A store is made for one site, its home origin, and the host's headers (an `authorization`, an
//! API key) were given for that site. An index entry or a redirect may name any URL; one on
//! another origin is refused unless the host allowed that origin, and a request to an allowed
//! origin other than home goes without the host's headers. Redirects are followed one hop at a
//! time: each `Location` resolves against the URL that answered (RFC 3986, section 5.1.3) and is
//! checked by the same rule, at most [`MAX_REDIRECTS`] times per request.
//!
//! An origin is compared as `scheme://host[:port]`, scheme and host lowercased, a default port
//! left out. A URL whose authority holds anything but what every URL parser delimits alike
//! (letters, digits, `.`, `-`, `_`, `~`, a bracketed IPv6 address, a port), or userinfo, has no
//! origin here and is refused: the origin decided must be the one a `fetch` connects to.

use super::url;
use crate::diagnostic::codes;
use crate::Diagnostic;
use serde::Serialize;

/// Most redirects one request follows.
pub const MAX_REDIRECTS: u32 = 5;
/// Most origins a host may allow beside the store's own.
pub const MAX_ALLOWED_ORIGINS: usize = 1024;

/// The origin of the http(s) URL `u` (`scheme://host[:port]`), or `None` when it has none this
/// policy can compare (not http(s), no host, userinfo, a port out of range, a character in the
/// authority that URL parsers read differently).
pub fn origin(u: &str) -> Option<String> {
    if !url::is_http_url(u) {
        return None;
    }
    let parts = url::split(u);
    let scheme = parts.scheme?.to_ascii_lowercase();
    let authority = parts.authority?;
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~' | b':' | b'[' | b']');
    if !authority.bytes().all(plain) {
        return None;
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            if inside.is_empty() || !inside.bytes().all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.')) {
                return None;
            }
            let port = if after.is_empty() { "" } else { after.strip_prefix(':')? };
            (format!("[{}]", inside.to_ascii_lowercase()), port)
        }
        None => {
            let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
            if host.is_empty() || host.contains(['[', ']']) {
                return None;
            }
            (host.to_ascii_lowercase(), port)
        }
    };
    let default = if scheme == "https" { 443 } else { 80 };
    let port = if port.is_empty() {
        default
    } else if port.bytes().all(|b| b.is_ascii_digit()) {
        port.parse::<u16>().ok()?
    } else {
        return None;
    };
    Some(if port == default { format!("{scheme}://{host}") } else { format!("{scheme}://{host}:{port}") })
}

/// A URL a store may request, and whether the host's headers go with it (only to its home origin).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The absolute URL to request.
    pub url: String,
    /// Whether the request carries the host's headers: the URL is on the store's home origin.
    pub credentials: bool,
}

/// Which origins a store may request: its home origin (which alone gets the host's headers) and
/// those the host allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginPolicy {
    home: String,
    allowed: Vec<String>,
}

impl OriginPolicy {
    /// The policy of a store at `home_url` that may also request the origins of `allow` (each an
    /// origin, `scheme://host[:port]`, with at most a `/` after it). `Err` says which value is not
    /// one.
    pub fn new<S: AsRef<str>>(home_url: &str, allow: &[S]) -> Result<OriginPolicy, String> {
        let home = origin(home_url).ok_or_else(|| format!("'{home_url}' is not an http(s) URL with a host"))?;
        if allow.len() > MAX_ALLOWED_ORIGINS {
            return Err(format!("{} origins allowed, more than {MAX_ALLOWED_ORIGINS}", allow.len()));
        }
        let mut allowed = Vec::with_capacity(allow.len());
        for a in allow {
            let a = a.as_ref();
            let parts = url::split(a);
            let bare = matches!(parts.path, "" | "/") && parts.query.is_none() && parts.fragment.is_none();
            match origin(a) {
                Some(o) if bare => {
                    if o != home && !allowed.contains(&o) {
                        allowed.push(o);
                    }
                }
                _ => return Err(format!("'{a}' is not an origin (scheme://host[:port])")),
            }
        }
        Ok(OriginPolicy { home, allowed })
    }

    /// The policy of a store at `home_url` alone; when that URL has no origin, a policy that
    /// refuses every URL.
    pub fn own(home_url: &str) -> OriginPolicy {
        OriginPolicy { home: origin(home_url).unwrap_or_default(), allowed: Vec::new() }
    }

    /// The store's own origin (empty for a policy that refuses every URL).
    pub fn home(&self) -> &str {
        &self.home
    }

    /// The origins allowed beside home.
    pub fn allowed(&self) -> &[String] {
        &self.allowed
    }

    /// Whether `u` may be requested, and with the host's headers or without. `Err` is an
    /// [`codes::ORIGIN_REFUSED`] error naming the origin (or an [`codes::REDIRECT_INVALID`] one
    /// when `u` has no origin to compare).
    pub fn check(&self, u: &str) -> Result<Target, Diagnostic> {
        let Some(o) = origin(u) else {
            return Err(Diagnostic::error(
                codes::REDIRECT_INVALID,
                format!("'{u}' is not an http(s) URL whose origin can be told"),
            ));
        };
        if o == self.home && !self.home.is_empty() {
            return Ok(Target { url: u.to_string(), credentials: true });
        }
        if self.allowed.contains(&o) {
            return Ok(Target { url: u.to_string(), credentials: false });
        }
        Err(Diagnostic::error(
            codes::ORIGIN_REFUSED,
            format!(
                "{u} is on the origin {o}, not the store's {}, and the host does not allow it (allowOrigins)",
                self.home
            ),
        ))
    }

    /// Where a redirect from `current` goes: its `location` resolved against `current`, checked
    /// like any URL. `redirects` counts this one (the first redirect of a request is 1); past
    /// [`MAX_REDIRECTS`], without a location or to a URL that is not http(s) it is a
    /// [`codes::REDIRECT_INVALID`] error, to a refused origin an [`codes::ORIGIN_REFUSED`] one.
    pub fn redirect(&self, current: &str, location: Option<&str>, redirects: u32) -> Result<Target, Diagnostic> {
        let invalid = |why: String| Diagnostic::error(codes::REDIRECT_INVALID, why);
        if redirects > MAX_REDIRECTS {
            return Err(invalid(format!("{current} redirects again after {MAX_REDIRECTS} redirects; not followed")));
        }
        let Some(location) = location.filter(|l| !l.is_empty()) else {
            return Err(invalid(format!("{current} redirects without a Location")));
        };
        let next = match url::resolve(current, location) {
            Some(u) if origin(&u).is_some() => u,
            _ => return Err(invalid(format!("{current} redirects to '{location}', not an http(s) URL; not followed"))),
        };
        self.check(&next).map_err(|mut d| {
            d.message = format!("a redirect from {current}: {}", d.message);
            d
        })
    }
}

#[cfg(test)]
#[path = "origin_tests.rs"]
mod tests;
