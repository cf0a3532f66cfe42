use super::*;
use serde_json::json;

const OPTS: ReadOptions = ReadOptions { dynamic: false };

fn entry(name: &str) -> Value {
    let uri = format!("skill://{name}/SKILL.md");
    let digest = sha256_digest(b"x");
    json!({ "uri": uri, "frontmatter": { "name": name, "description": "d" }, "resources": [{ "uri": uri, "digest": digest, "size": 1 }] })
}

fn page_with(cursor: Option<&str>) -> Value {
    match cursor {
        Some(c) => json!({ "skills": [entry("a")], "nextCursor": c }),
        None => json!({ "skills": [entry("a")] }),
    }
}

fn len(v: &Value) -> u64 {
    v.to_string().len() as u64
}

fn read(v: &Value, bounds: &ListingBounds, state: &ListingState) -> (McpPage, ListingState) {
    list_page(Measured::Read(v, len(v)), bounds, state, &OPTS)
}

fn stopped(page: &McpPage) -> Option<&Diagnostic> {
    page.diagnostics.iter().find(|d| d.code == codes::MCP_LISTING_BOUND)
}

#[test]
fn pages_within_the_bounds_go_on_and_are_counted() {
    let b = ListingBounds::default();
    let p1 = page_with(Some("c1"));
    let (page, s1) = read(&p1, &b, &ListingState::default());
    assert_eq!(page.next_cursor.as_deref(), Some("c1"));
    assert_eq!(page.skills.len(), 1);
    assert_eq!((s1.pages, s1.bytes), (1, len(&p1)));
    let last = page_with(None);
    let (page, s2) = read(&last, &b, &s1);
    assert_eq!(page.next_cursor, None);
    assert!(page.diagnostics.is_empty(), "{:?}", page.diagnostics);
    assert_eq!((s2.pages, s2.bytes), (2, len(&p1) + len(&last)));
}

#[test]
fn a_cursor_over_the_bound_stops_the_listing_and_keeps_the_page() {
    let b = ListingBounds { max_cursor_bytes: 1024, ..ListingBounds::default() };
    let long = "x".repeat(1025);
    let (page, _) = read(&page_with(Some(&long)), &b, &ListingState::default());
    assert_eq!(page.next_cursor, None);
    assert_eq!(page.skills.len(), 1, "the page's entries are kept");
    let d = stopped(&page).expect("a diagnostic");
    assert!(d.message.contains("1025 bytes") && d.message.contains("maxCursorBytes (1024)"), "{}", d.message);
    let exact = "x".repeat(1024);
    assert_eq!(read(&page_with(Some(&exact)), &b, &ListingState::default()).0.next_cursor.as_deref(), Some(&exact[..]));
}

#[test]
fn a_message_over_its_bound_or_the_listing_total_is_not_read() {
    let b = ListingBounds { max_message_bytes: 1000, max_listing_bytes: 1500, ..ListingBounds::default() };
    let (page, s) = list_page(Measured::Over, &b, &ListingState::default(), &OPTS);
    assert!(page.skills.is_empty() && page.next_cursor.is_none());
    assert!(stopped(&page).is_some_and(|d| d.message.contains("maxMessageBytes (1000")), "{:?}", page.diagnostics);
    assert_eq!(s.pages, 1);
    // A message measured longer than its budget is refused even when the caller read it.
    let p = page_with(Some("c"));
    let tiny = ListingBounds { max_message_bytes: len(&p) - 1, ..b };
    assert!(stopped(&read(&p, &tiny, &ListingState::default()).0).is_some());
    // What is left of the listing's total is the budget once it is below the per-message bound.
    let late = ListingState { pages: 3, bytes: 1200, mark: None };
    assert_eq!(message_budget(&b, &late), 300);
    let (page, _) = list_page(Measured::Over, &b, &late, &OPTS);
    assert!(stopped(&page).is_some_and(|d| d.message.contains("maxListingBytes (1500")), "{:?}", page.diagnostics);
    assert_eq!(message_budget(&b, &ListingState { bytes: 5000, ..late }), 0);
}

#[test]
fn the_page_count_is_bounded() {
    let b = ListingBounds { max_pages: 3, ..ListingBounds::default() };
    let mut state = ListingState::default();
    for i in 0..2 {
        let (page, next) = read(&page_with(Some(&format!("c{i}"))), &b, &state);
        assert!(page.next_cursor.is_some());
        state = next;
    }
    let (page, _) = read(&page_with(Some("c9")), &b, &state);
    assert_eq!(page.next_cursor, None);
    assert!(stopped(&page).is_some_and(|d| d.message.contains("maxPages (3)")));
}

#[test]
fn a_cycle_of_cursors_is_found_within_twice_its_length() {
    let b = ListingBounds::default();
    for (start, cycle) in [(0usize, 1usize), (0, 2), (3, 5), (10, 1), (7, 40)] {
        let cursor = |i: usize| if i < start { format!("s{i}") } else { format!("c{}", (i - start) % cycle) };
        let mut state = ListingState::default();
        let mut found = None;
        for i in 0..1000 {
            let (page, next) = read(&page_with(Some(&cursor(i))), &b, &state);
            state = next;
            if page.next_cursor.is_none() {
                found = Some((i, stopped(&page).map(|d| d.message.clone())));
                break;
            }
        }
        let (at, why) = found.expect("the cycle was not found");
        assert!(why.is_some_and(|m| m.contains("cycle")));
        assert!(at <= 2 * (start + cycle) + cycle, "start {start}, cycle {cycle}: found at {at}");
        assert!(state.mark.as_ref().is_some_and(|m| m.len() == 71), "the state is a digest, not the cursor");
    }
    // Distinct cursors never stop the listing.
    let mut state = ListingState::default();
    for i in 0..300 {
        let (page, next) = read(&page_with(Some(&format!("p{i}"))), &b, &state);
        assert!(page.next_cursor.is_some(), "page {i}");
        state = next;
    }
}

#[test]
fn a_skills_get_result_is_bounded_and_counted() {
    let b = ListingBounds { max_message_bytes: 4000, ..ListingBounds::default() };
    let got = json!({ "skill": entry("a") });
    let (skill, s) = get_result(Measured::Read(&got, len(&got)), &b, &ListingState::default(), &OPTS);
    assert_eq!(skill.map(|s| s.name), Ok("a".to_string()));
    assert_eq!((s.pages, s.bytes), (1, len(&got)));
    let (refused, _) = get_result(Measured::Over, &b, &s, &OPTS);
    assert_eq!(refused.map_err(|d| d.code), Err(codes::MCP_LISTING_BOUND.to_string()));
}

#[test]
fn bounds_and_state_read_from_json_refuse_unknown_keys() {
    let b: ListingBounds = serde_json::from_value(json!({ "maxCursorBytes": 1024 })).unwrap();
    assert_eq!(b, ListingBounds { max_cursor_bytes: 1024, ..ListingBounds::default() });
    assert!(serde_json::from_value::<ListingBounds>(json!({ "maxCursor": 1 })).is_err());
    assert!(serde_json::from_value::<ListingState>(json!({ "pages": 1, "cursors": [] })).is_err());
}
