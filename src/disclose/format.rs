//! Writing the catalog: the XML, reference, JSON and Markdown layouts, and the instructions that
//! go with it.

use super::{ActivationStyle, CatalogEntry, CatalogFormat};
use crate::content::markdown_code;
use crate::text::{json_for_markup, markdown_text, xml_attr, xml_text};
use serde::Serialize;

/// The reference layout of `<available_skills>` (what `skills-ref to-prompt` prints): one tag or
/// value per line, every value through [`xml_attr`] (on one line, `&<>"'` escaped, as the
/// reference's `html.escape`; the reference leaves locations verbatim, which lets a directory
/// name close the element, so here they are escaped too).
pub fn to_prompt(entries: &[CatalogEntry]) -> String {
    let mut out = String::from(REFERENCE_HEAD);
    for e in entries {
        reference_entry(&mut out, &e.name, &e.description, &e.location);
    }
    out.push_str(REFERENCE_TAIL);
    out
}

const REFERENCE_HEAD: &str = "<available_skills>\n";
const REFERENCE_TAIL: &str = "</available_skills>";

fn reference_entry(out: &mut String, name: &str, description: &str, location: &str) {
    out.push_str("<skill>\n<name>\n");
    out.push_str(&xml_attr(name));
    out.push_str("\n</name>\n<description>\n");
    out.push_str(&xml_attr(description));
    out.push_str("\n</description>\n<location>\n");
    out.push_str(&xml_attr(location));
    out.push_str("\n</location>\n</skill>\n");
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

/// What a format puts around its entries: the text before the first, between two, and after
/// the last; and whether the line breaks that end the text are removed (Markdown).
pub(super) struct Frame {
    pub(super) head: &'static str,
    pub(super) separator: &'static str,
    pub(super) tail: &'static str,
    pub(super) trim_end: bool,
}

/// The frame of `format`'s catalog.
pub(super) fn frame(format: CatalogFormat) -> Frame {
    match format {
        CatalogFormat::Xml => {
            Frame { head: "<available_skills>\n", separator: "", tail: "</available_skills>", trim_end: false }
        }
        CatalogFormat::Reference => {
            Frame { head: REFERENCE_HEAD, separator: "", tail: REFERENCE_TAIL, trim_end: false }
        }
        CatalogFormat::Json => Frame { head: "[", separator: ",", tail: "]", trim_end: false },
        CatalogFormat::Markdown => Frame { head: "", separator: "", tail: "", trim_end: true },
    }
}

/// One entry of `format`'s catalog. Every value goes through its format's function:
/// [`xml_text`] (XML), [`xml_attr`] (reference), [`one_line`] then [`json_for_markup`] (JSON),
/// [`markdown_text`] and [`markdown_code`] (Markdown); so every format holds exactly one entry
/// per skill, and a catalog is its frame around its entries ([`assemble`]).
pub(super) fn entry(i: &Item<'_>, format: CatalogFormat) -> String {
    let mut out = String::new();
    match format {
        CatalogFormat::Xml => {
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
        CatalogFormat::Reference => reference_entry(&mut out, i.name, &i.description, i.location.unwrap_or("")),
        CatalogFormat::Json => {
            #[derive(Serialize)]
            struct JsonItem {
                name: String,
                description: String,
                #[serde(skip_serializing_if = "Option::is_none")]
                location: Option<String>,
            }
            let item = JsonItem {
                name: one_line(i.name),
                description: one_line(&i.description),
                location: i.location.map(one_line),
            };
            // `<`, `>`, `&` and U+2028/9 are replaced one character at a time, so escaping each
            // entry is escaping the array.
            out = json_for_markup(&serde_json::to_string(&item).unwrap_or_default());
        }
        CatalogFormat::Markdown => {
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
    }
    out
}

/// A catalog of `format` from its entries ([`entry`]), in order.
pub(super) fn assemble<'e>(entries: impl Iterator<Item = &'e str> + Clone, format: CatalogFormat) -> String {
    let frame = frame(format);
    // The text's length is known before it is written: one allocation, not a string doubled
    // its way to tens of MiB (each step a copy, and both halves held while it moves).
    let (count, bytes) = entries.clone().fold((0usize, 0usize), |(n, b), e| (n + 1, b.saturating_add(e.len())));
    let separators = frame.separator.len().saturating_mul(count.saturating_sub(1));
    let mut out = String::with_capacity(frame.head.len() + bytes.saturating_add(separators) + frame.tail.len());
    out.push_str(frame.head);
    for (n, e) in entries.enumerate() {
        if n > 0 {
            out.push_str(frame.separator);
        }
        out.push_str(e);
    }
    out.push_str(frame.tail);
    if frame.trim_end {
        while out.ends_with('\n') {
            out.pop();
        }
    }
    out
}

/// The catalog of `items` in `format`.
#[cfg(test)]
pub(super) fn render(items: &[Item<'_>], format: CatalogFormat) -> String {
    let entries: Vec<String> = items.iter().map(|i| entry(i, format)).collect();
    assemble(entries.iter().map(String::as_str), format)
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
