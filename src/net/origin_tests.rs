use super::*;

#[test]
fn origins_compare_as_a_fetch_connects() {
    let cases = [
        ("https://Example.COM/a/b?c#d", Some("https://example.com")),
        ("https://example.com:443/", Some("https://example.com")),
        ("http://example.com:80/", Some("http://example.com")),
        ("http://example.com:0080/", Some("http://example.com")),
        ("http://example.com:/x", Some("http://example.com")),
        ("https://example.com:80/", Some("https://example.com:80")),
        ("HTTP://127.0.0.1:8080", Some("http://127.0.0.1:8080")),
        ("http://[::1]:9000/x", Some("http://[::1]:9000")),
        ("http://[::1]/x", Some("http://[::1]")),
        ("http://user:pw@example.com/", None),
        ("http://example.com\\@evil.test/", None),
        ("http://ex%61mple.com/", None),
        ("http://example.com:99999/", None),
        ("http://example.com:8x/", None),
        ("http://[zz]/", None),
        ("http:///evil.test", None),
        ("http:evil.test", None),
        ("file:///etc/passwd", None),
        ("ftp://example.com/", None),
        ("//example.com/", None),
    ];
    for (u, want) in cases {
        assert_eq!(origin(u).as_deref(), want, "{u}");
    }
}

#[test]
fn a_policy_takes_origins_only() {
    assert!(OriginPolicy::new("https://a.test/x/index.json", &["https://b.test", "http://c.test:81/"]).is_ok());
    for bad in ["https://b.test/path", "https://b.test/?q", "b.test", "*", "https://u@b.test"] {
        assert!(OriginPolicy::new("https://a.test/", &[bad]).is_err(), "{bad}");
    }
    assert!(OriginPolicy::new::<&str>("not a url", &[]).is_err());
    let many = vec!["https://b.test"; MAX_ALLOWED_ORIGINS + 1];
    assert!(OriginPolicy::new("https://a.test/", &many).is_err());
}

#[test]
fn home_gets_the_headers_allowed_origins_do_not_others_are_refused() {
    let p =
        OriginPolicy::new("https://a.test/.well-known/agent-skills/index.json", &["https://b.test"]).expect("origins");
    assert_eq!(p.home(), "https://a.test");
    assert!(p.check("https://A.test:443/x").expect("home").credentials);
    assert!(!p.check("https://b.test/x").expect("allowed").credentials);
    let refused = p.check("http://a.test/x").expect_err("another scheme is another origin");
    assert_eq!(refused.code, codes::ORIGIN_REFUSED);
    assert!(refused.message.contains("http://a.test"), "{}", refused.message);
    assert_eq!(p.check("https://c.test/").expect_err("refused").code, codes::ORIGIN_REFUSED);
}

#[test]
fn redirects_resolve_against_the_current_url_and_are_checked_each_hop() {
    let p = OriginPolicy::new("http://127.0.0.1:1000/", &["http://127.0.0.1:2000"]).expect("origins");
    let cur = "http://127.0.0.1:1000/.well-known/agent-skills/index.json";
    let t = p.redirect(cur, Some("../moved/index.json"), 1).expect("same origin");
    assert_eq!(t.url, "http://127.0.0.1:1000/.well-known/moved/index.json");
    assert!(t.credentials);
    let t = p.redirect(cur, Some("http://127.0.0.1:2000/x"), 2).expect("allowed");
    assert!(!t.credentials);
    let t = p.redirect("http://127.0.0.1:2000/a/b", Some("c"), 3).expect("relative to the current URL");
    assert_eq!(t.url, "http://127.0.0.1:2000/a/c");
    let d = p.redirect(cur, Some("http://127.0.0.1:3000/x"), 1).expect_err("refused");
    assert_eq!((d.code.as_str(), d.severity), (codes::ORIGIN_REFUSED, crate::Severity::Error));
    assert!(d.message.contains("http://127.0.0.1:3000") && d.message.contains(cur), "{}", d.message);
    for (loc, n) in [(None, 1), (Some(""), 1), (Some("file:///etc/passwd"), 1), (Some("x"), MAX_REDIRECTS + 1)] {
        assert_eq!(p.redirect(cur, loc, n).expect_err("invalid").code, codes::REDIRECT_INVALID, "{loc:?}");
    }
    assert!(p.redirect(cur, Some("x"), MAX_REDIRECTS).is_ok());
}
