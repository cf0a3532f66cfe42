//! What the catalog says when it cannot list every skill the model is offered: how many are not
//! listed and how to find them (the skill tool's `query`), written in the catalog's format and
//! placed after the listing, so a listing that fits is written exactly as without it.

use super::CatalogFormat;
use crate::content::markdown_code;
use crate::text::{json_for_markup, xml_text};

/// The sentence of the note: `omitted` skills are not listed; the tool searches.
fn sentence(omitted: usize, tool_name: &str) -> String {
    let tool = markdown_code(tool_name);
    if omitted > 0 {
        let what = if omitted == 1 { "1 more skill is".to_string() } else { format!("{omitted} more skills are") };
        format!(
            "{what} not listed here. To find one, call `{tool}` with `query` set to a few words about \
             the task; any skill's name works in `name`, listed or not."
        )
    } else {
        format!("The skills can also be searched: call `{tool}` with `query` set to a few words about the task.")
    }
}

/// The catalog `text` with the note added in its format: a line after the listing (XML,
/// reference, Markdown), or a last element `{ "notListed": N, "search": "…" }` of the JSON array,
/// which stays one JSON document.
pub fn with_search_note(text: &str, format: CatalogFormat, omitted: usize, tool_name: &str) -> String {
    let sentence = sentence(omitted, tool_name);
    match format {
        CatalogFormat::Xml | CatalogFormat::Reference => format!("{text}\n{}", xml_text(&sentence)),
        CatalogFormat::Markdown => format!("{text}\n\n{sentence}"),
        CatalogFormat::Json => {
            let element = serde_json::json!({ "notListed": omitted, "search": sentence }).to_string();
            let element = json_for_markup(&element);
            match text.strip_suffix(']') {
                Some(open) if open.trim_end().ends_with('[') => format!("{open}{element}]"),
                Some(open) => format!("{open},{element}]"),
                None => format!("[{element}]"),
            }
        }
    }
}

/// The catalog `text` with a note that the lazy `scopes` are not listed yet, in its format: a
/// line after the listing (XML, reference, Markdown), or a last element
/// `{ "scopesNotListed": [...] }` of the JSON array.
pub fn with_pending_note(text: &str, format: CatalogFormat, scopes: &[String]) -> String {
    let names = scopes.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ");
    let sentence = format!(
        "The skills of scope {names} are not listed yet; they are looked up when a skill is asked for that is not listed here."
    );
    match format {
        CatalogFormat::Xml | CatalogFormat::Reference => format!("{text}\n{}", xml_text(&sentence)),
        CatalogFormat::Markdown => format!("{text}\n\n{sentence}"),
        CatalogFormat::Json => {
            let element = json_for_markup(&serde_json::json!({ "scopesNotListed": scopes }).to_string());
            match text.strip_suffix(']') {
                Some(open) if open.trim_end().ends_with('[') => format!("{open}{element}]"),
                Some(open) => format!("{open},{element}]"),
                None => format!("[{element}]"),
            }
        }
    }
}

/// The note alone, as [`with_search_note`] adds it (for budgets).
pub fn search_guidance(format: CatalogFormat, omitted: usize, tool_name: &str) -> String {
    match format {
        CatalogFormat::Json => with_search_note("[]", format, omitted, tool_name),
        _ => with_search_note("", format, omitted, tool_name),
    }
}

/// The sentence added to the built-in instructions when the tool searches.
pub fn search_instructions(tool_name: &str) -> String {
    format!(
        " Not every skill is listed: when none of the listed ones fits the task, call `{}` with \
         `query` to search the others.",
        markdown_code(tool_name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_counts_and_names_the_tool_in_every_format() {
        for f in [CatalogFormat::Xml, CatalogFormat::Reference, CatalogFormat::Json, CatalogFormat::Markdown] {
            let g = search_guidance(f, 2208, "view_skill");
            assert!(g.contains("2208 more skills are not listed") && g.contains("`view_skill`"), "{g}");
        }
        let json = with_search_note(r#"[{"name":"a"}]"#, CatalogFormat::Json, 2, "view_skill");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!((v[1]["notListed"].as_u64(), v[0]["name"].as_str()), (Some(2), Some("a")));
        assert!(with_search_note("text", CatalogFormat::Xml, 2, "t").starts_with("text\n2 more"));
        assert!(search_guidance(CatalogFormat::Xml, 1, "t").contains("1 more skill is"));
        assert!(search_guidance(CatalogFormat::Xml, 0, "t").contains("can also be searched"));
        assert!(search_guidance(CatalogFormat::Xml, 3, "a<b").contains("a&lt;b"));
    }
}
