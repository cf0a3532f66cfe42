//! Catalog rendering: what the model sees of the available skills.

/// One skill as the catalog shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatalogEntry {
    pub name: String,
    pub description: String,
    pub location: String,
}

/// HTML escaping as the reference applies it (`&`, `<`, `>`, `"` and `'`).
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The reference layout of `<available_skills>` (what `skills-ref to-prompt` prints): one tag or
/// value per line, name and description escaped, location verbatim.
pub fn to_prompt(entries: &[CatalogEntry]) -> String {
    let mut out = String::from("<available_skills>\n");
    for e in entries {
        out.push_str("<skill>\n<name>\n");
        out.push_str(&escape_html(&e.name));
        out.push_str("\n</name>\n<description>\n");
        out.push_str(&escape_html(&e.description));
        out.push_str("\n</description>\n<location>\n");
        out.push_str(&e.location);
        out.push_str("\n</location>\n</skill>\n");
    }
    out.push_str("</available_skills>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_layout_and_escaping() {
        assert_eq!(to_prompt(&[]), "<available_skills>\n</available_skills>");
        let e = CatalogEntry { name: "a".into(), description: "Use <foo> & 'x'".into(), location: "/s/a/SKILL.md".into() };
        assert_eq!(
            to_prompt(&[e]),
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nUse &lt;foo&gt; &amp; &#x27;x&#x27;\n</description>\n<location>\n/s/a/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
    }
}
