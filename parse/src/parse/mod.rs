//! SKILL.md bytes to a typed [`Skill`] and diagnostics: the fences (BOM, CRLF, leading blank
//! lines), the frontmatter's YAML (a fast path for the common subset, serde_yaml for the rest),
//! repair of sloppy YAML, and the specification's rules, lenient and strict.

pub mod beyond;
pub mod beyond_wire;
pub mod extensions;
pub mod fast;
pub mod fence;
mod field;
pub mod flow;
mod frontmatter;
mod map;
pub mod node;
#[cfg(feature = "yaml")]
pub mod repair;
pub mod result_json;
pub mod scan;
mod types;
pub mod validate;
pub mod wire;
pub mod yaml;

pub use field::Field;
pub use frontmatter::{parse_frontmatter, MAX_FRONTMATTER_BYTES};
pub use map::FieldMap;
pub use types::{Mode, ParseOptions, ParseResult, Skill};

use fence::FenceError;
use serde::Serialize;

/// Parses and validates one SKILL.md. Never panics and never fails: a refused skill is
/// `skill: None` with at least one error diagnostic.
pub fn parse_skill(bytes: &[u8], opts: &ParseOptions) -> ParseResult {
    parse(bytes, opts, false).0
}

/// As [`parse_skill`], for a caller that holds the input's bytes itself (the wasm façade, over a
/// caller's `Uint8Array`): a body that is a range of the input unchanged (valid UTF-8 with no
/// `\r`, trimmed) is not copied but given as that byte range, and the skill's `body` is left
/// empty for the caller to fill from its bytes. Any other body is copied as `parse_skill` does.
pub fn parse_skill_in_place(bytes: &[u8], opts: &ParseOptions) -> (ParseResult, Option<std::ops::Range<usize>>) {
    parse(bytes, opts, true)
}

fn parse(bytes: &[u8], opts: &ParseOptions, in_place: bool) -> (ParseResult, Option<std::ops::Range<usize>>) {
    let mut range = None;
    let result = parse_into(bytes, opts, in_place.then_some(&mut range));
    (result, range)
}

fn parse_into(bytes: &[u8], opts: &ParseOptions, range: Option<&mut Option<std::ops::Range<usize>>>) -> ParseResult {
    let mut result = ParseResult::default();
    let split = match fence::split(bytes, opts.partial) {
        Ok(s) => s,
        Err(FenceError::Incomplete) => {
            result.incomplete = true;
            return result;
        }
        Err(FenceError::Refused(d)) => {
            result.diagnostics.push(d);
            return result;
        }
    };
    if opts.mode == Mode::Strict {
        if let Some(refused) = fence::strict_refusal(&split) {
            result.diagnostics.push(refused);
            return result;
        }
    }
    result.diagnostics.extend(split.diagnostics.iter().cloned());
    let (mut fields, repairs) = match parse_frontmatter(split.frontmatter(), split.first_line, opts.mode) {
        Ok(ok) => ok,
        Err(d) => {
            result.diagnostics.push(d);
            return result;
        }
    };
    result.diagnostics.extend(repairs);
    let mut skill = validate::build_skill(&mut fields, opts.dir_name.as_deref(), opts.mode, &mut result.diagnostics);
    if let Some(s) = skill.as_mut() {
        s.body_line = Some(split.body_line());
        // A prefix holds only part of the body: leave it out rather than hand back a fragment.
        if opts.include_body() && !opts.partial {
            let in_place = match (range, split.body_offset_in(bytes)) {
                (Some(out), Some(offset)) => split.body_range().map(|r| {
                    let found = r.map(|r| offset + r.start..offset + r.end);
                    let placed = found.is_some();
                    *out = found;
                    placed
                }),
                _ => Ok(false),
            };
            let body = match in_place {
                Ok(true) => Ok(String::new()),
                Ok(false) => split.body(),
                Err(d) => Err(d),
            };
            match body {
                Ok(body) => s.body = Some(body),
                Err(d) => {
                    result.diagnostics.push(d);
                    skill = None;
                }
            }
        }
    }
    result.skill = skill;
    result
}

/// The reference CLI's `read-properties` output: the spec fields, absent ones left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillProperties {
    /// The skill's name.
    pub name: String,
    /// The skill's description.
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The `license` field.
    pub license: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The `compatibility` field.
    pub compatibility: Option<String>,
    #[serde(rename = "allowed-tools", skip_serializing_if = "Option::is_none")]
    /// The `allowed-tools` field as written: a string, or a list of strings (as the reference
    /// prints a YAML list).
    pub allowed_tools: Option<AllowedToolsProperty>,
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "entries_as_map")]
    /// The `metadata` entries, in the order the file writes them.
    pub metadata: Vec<(String, String)>,
}

/// `allowed-tools` as `read-properties` prints it: the text, or the list as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AllowedToolsProperty {
    /// A scalar: the text as written.
    Text(String),
    /// A YAML sequence: its string items.
    List(Vec<String>),
}

/// Ordered entries serialised as a JSON object (keys in order).
fn entries_as_map<S: serde::Serializer>(entries: &[(String, String)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(entries.iter().map(|(k, v)| (k, v)))
}

/// Reads the properties as the reference's `read_properties` does: only a broken file or a missing
/// or empty name or description fails (the name rules are `validate`'s business).
pub fn read_properties(bytes: &[u8]) -> Result<SkillProperties, Vec<String>> {
    let split = fence::split(bytes, false).map_err(|e| match e {
        FenceError::Refused(d) => vec![d.message],
        FenceError::Incomplete => vec![fence::MSG_UNCLOSED.to_string()],
    })?;
    if let Some(refused) = fence::strict_refusal(&split) {
        return Err(vec![refused.message]);
    }
    let (mut fields, _) =
        parse_frontmatter(split.frontmatter(), split.first_line, Mode::Strict).map_err(|d| vec![d.message])?;
    let raw_tools = fields.iter().find(|f| f.key == "allowed-tools").and_then(|f| match &f.value {
        node::Node::Scalar { text, .. } => Some(AllowedToolsProperty::Text(text.clone())),
        node::Node::Seq(items) => {
            Some(AllowedToolsProperty::List(items.iter().filter_map(|i| i.as_text()).map(str::to_string).collect()))
        }
        _ => None,
    });
    // The file's order of the metadata keys (the skill's map is sorted), with the skill's values.
    let order: Vec<String> = match fields.iter().find(|f| f.key == "metadata").map(|f| &f.value) {
        Some(node::Node::Map(entries)) => entries.iter().map(|(k, _)| k.clone()).collect(),
        _ => Vec::new(),
    };
    let mut diags = Vec::new();
    // Lenient: no rule beyond "name and description are there"; the skill carries the fields.
    let skill = validate::build_skill(&mut fields, None, Mode::Lenient, &mut diags);
    match skill {
        Some(s) => Ok(SkillProperties {
            name: s.name,
            description: s.description,
            license: s.license,
            compatibility: s.compatibility,
            allowed_tools: raw_tools,
            metadata: ordered(&order, s.metadata),
        }),
        None => Err(diags.into_iter().filter(|d| d.is_error()).map(|d| d.message).collect()),
    }
}

/// The entries of `map` in the order of `keys` (each once), then any `keys` do not name. Linear
/// after one lookup per key: entries are taken out of their slots, not removed from the map.
fn ordered(keys: &[String], map: FieldMap<String>) -> Vec<(String, String)> {
    let order: Vec<usize> = keys.iter().filter_map(|k| map.position(k)).collect();
    let mut slots: Vec<Option<(String, String)>> = map.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for i in order {
        if let Some(entry) = slots.get_mut(i).and_then(Option::take) {
            out.push(entry);
        }
    }
    out.extend(slots.into_iter().flatten());
    out
}

#[cfg(test)]
mod tests;
