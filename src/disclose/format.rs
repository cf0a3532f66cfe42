//! Writing the catalog: the XML, reference, JSON and Markdown layouts, and the instructions that
//! go with it.

use super::{ActivationStyle, CatalogEntry, CatalogFormat};
use crate::text::{json_for_markup, markdown_code, markdown_text, xml_attr, xml_text};
use serde::Serialize;

/// The reference layout of `<available_skills>` (what `skills-ref to-prompt` prints): one tag or
/// value per line, every value through [`xml_attr`] (on one line, `&<>"'` escaped, as the
/// reference's `html.escape`; the reference leaves locations verbatim, which lets a directory
/// name close the element, so here they are escaped too).
pub fn to_prompt(entries: &[CatalogEntry]) -> String {
    let mut out = String::from("<available_skills>\n");
    for e in entries {
        out.push_str("<skill>\n<name>\n");
        out.push_str(&xml_attr(&e.name));
        out.push_str("\n</name>\n<description>\n");
        out.push_str(&xml_attr(&e.description));
        out.push_str("\n</description>\n<location>\n");
        out.push_str(&xml_attr(&e.location));
        out.push_str("\n</location>\n</skill>\n");
    }
    out.push_str("</available_skills>");
    out
}

/// A description on one line ([`crate::text::one_line`]): line breaks and whitespace runs as one
/// space, hidden characters visible. Budgets cut this text; the format's function escapes it.
pub(super) fn one_line(s: &str) -> String {
    crate::text::one_line(s)
}

pub(super) struct Item<'a> {
    pub(super) name: &'a str,
    pub(super) description: String,
    pub(super) location: Option<&'a str>,
}

/// Every value goes through its format's function: [`xml_text`] (XML), [`xml_attr`] (reference),
/// [`one_line`] then [`json_for_markup`] (JSON), [`markdown_text`] and [`markdown_code`]
/// (Markdown); so every format holds exactly one entry per skill.
pub(super) fn render(items: &[Item<'_>], format: CatalogFormat) -> String {
    let mut out = String::new();
    match format {
        CatalogFormat::Xml => {
            out.push_str("<available_skills>\n");
            for i in items {
                out.push_str("<skill><name>");
                out.push_str(&xml_text(i.name));
                out.push_str("</name><description>");
                out.push_str(&xml_text(&i.description));
                out.push_str("</description>");
                if let Some(l) = i.location {
                    out.push_str("<location>");
                    out.push_str(&xml_text(l));
                    out.push_str("</location>");
                }
                out.push_str("</skill>\n");
            }
            out.push_str("</available_skills>");
        }
        CatalogFormat::Reference => {
            let entries: Vec<CatalogEntry> = items
                .iter()
                .map(|i| CatalogEntry {
                    name: i.name.to_string(),
                    description: i.description.clone(),
                    location: i.location.unwrap_or("").to_string(),
                })
                .collect();
            out = to_prompt(&entries);
        }
        CatalogFormat::Json => {
            #[derive(Serialize)]
            struct JsonItem {
                name: String,
                description: String,
                #[serde(skip_serializing_if = "Option::is_none")]
                location: Option<String>,
            }
            let list: Vec<JsonItem> = items
                .iter()
                .map(|i| JsonItem {
                    name: one_line(i.name),
                    description: one_line(&i.description),
                    location: i.location.map(one_line),
                })
                .collect();
            out = json_for_markup(&serde_json::to_string(&list).unwrap_or_default());
        }
        CatalogFormat::Markdown => {
            for i in items {
                out.push_str("- **");
                out.push_str(&markdown_text(i.name));
                out.push_str("**: ");
                out.push_str(&markdown_text(&i.description));
                if let Some(l) = i.location {
                    out.push_str(" (`");
                    out.push_str(&markdown_code(l));
                    out.push_str("`)");
                }
                out.push('\n');
            }
            while out.ends_with('\n') {
                out.pop();
            }
        }
    }
    out
}

/// The behavioural instructions that go with the catalog, in the client guide's spirit.
pub fn instructions(style: ActivationStyle, tool_name: &str) -> String {
    let tool_name = markdown_code(tool_name);
    match style {
        ActivationStyle::Tool => format!(
            "You have skills: folders of instructions, scripts and references for particular tasks. \
             The catalog lists each skill's name and what it is for. When a task matches a skill's \
             description, call the `{tool_name}` tool with the skill's name to load its instructions \
             before you start, then follow them. Load a skill only when it is relevant. To read a \
             file the instructions mention, call `{tool_name}` again with the skill's name and the \
             file's relative path."
        ),
        ActivationStyle::Read => {
            "You have skills: folders of instructions, scripts and references for particular tasks. \
             The catalog lists each skill's name, what it is for and where its SKILL.md is. When a \
             task matches a skill's description, read that SKILL.md before you start and follow it. \
             Read a skill only when it is relevant. Relative paths in a skill resolve against the \
             directory that holds its SKILL.md."
                .to_string()
        }
    }
}
