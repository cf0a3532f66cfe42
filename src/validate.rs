//! The specification's rules, turned into diagnostics, and the typed [`Skill`] built from the
//! frontmatter fields.
//!
//! One rule set serves both modes. Lenient (the default, as the client guide asks) loads the skill
//! and warns; it refuses only a skill without a usable description (or without a name and a
//! directory to take one from). Strict reports the specification's rules as errors, worded and
//! ordered as the reference implementation (skills-ref) words and orders them.

use crate::model::{Diagnostic, Mode, Severity, Skill};
use crate::skill_md::node::{resolve_plain, Node, Resolved, Style};
use crate::skill_md::Field;
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = ["allowed-tools", "compatibility", "description", "license", "metadata", "name"];
/// Fields clients use beyond the specification that this library reads.
pub const EXTENSION_FIELDS: [&str; 4] = ["argument-hint", "disable-model-invocation", "min_tier", "user-invocable"];

/// Builds the skill from its frontmatter fields and checks it. Returns None (with at least one
/// error diagnostic) when the skill is refused.
pub fn build_skill(fields: &[Field], dir_name: Option<&str>, mode: Mode, diags: &mut Vec<Diagnostic>) -> Option<Skill> {
    let errors_before = count_errors(diags);
    let field = |k: &str| fields.iter().find(|f| f.key == k);
    let rule = |code: &str, msg: String, line: Option<u32>| {
        let sev = if mode == Mode::Strict { Severity::Error } else { Severity::Warning };
        Diagnostic::new(sev, code, msg).at_line(line)
    };
    let mut skill = Skill { user_invocable: true, ..Skill::default() };

    // Fields nobody defined.
    if mode == Mode::Strict {
        let mut unexpected: Vec<&str> =
            fields.iter().map(|f| f.key.as_str()).filter(|k| !SPEC_FIELDS.contains(k)).collect();
        unexpected.sort_unstable();
        if !unexpected.is_empty() {
            let allowed: Vec<String> = SPEC_FIELDS.iter().map(|f| format!("'{f}'")).collect();
            diags.push(
                Diagnostic::error(
                    "unexpected-fields",
                    format!(
                        "Unexpected fields in frontmatter: {}. Only [{}] are allowed.",
                        unexpected.join(", "),
                        allowed.join(", ")
                    ),
                )
                .at_line(fields.iter().find(|f| !SPEC_FIELDS.contains(&f.key.as_str())).and_then(|f| f.line)),
            );
        }
    }

    // name
    match field("name") {
        None => match (mode, dir_name) {
            (Mode::Lenient, Some(dir)) => {
                diags.push(Diagnostic::warning(
                    "name-missing",
                    format!("Missing required field in frontmatter: name; the directory name '{dir}' is used"),
                ));
                skill.name = dir.to_string();
            }
            _ => diags.push(Diagnostic::error("name-missing", "Missing required field in frontmatter: name")),
        },
        Some(f) => match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
            None => {
                let msg = "Field 'name' must be a non-empty string";
                match (mode, dir_name) {
                    (Mode::Lenient, Some(dir)) => {
                        diags.push(Diagnostic::warning("name-invalid", format!("{msg}; the directory name '{dir}' is used")).at_line(f.line));
                        skill.name = dir.to_string();
                    }
                    _ => diags.push(Diagnostic::error("name-invalid", msg).at_line(f.line)),
                }
            }
            Some(name) => {
                for (code, msg) in name_rules(name, dir_name) {
                    diags.push(rule(code, msg, f.line));
                }
                skill.name = name.to_string();
            }
        },
    }

    // description
    match field("description") {
        None => diags.push(Diagnostic::error("description-missing", "Missing required field in frontmatter: description")),
        Some(f) => match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
            None => diags.push(Diagnostic::error("description-invalid", "Field 'description' must be a non-empty string").at_line(f.line)),
            Some(d) => {
                let n = d.chars().count();
                if n > MAX_DESCRIPTION_CHARS {
                    diags.push(rule(
                        "description-too-long",
                        format!("Description exceeds {MAX_DESCRIPTION_CHARS} character limit ({n} chars)"),
                        f.line,
                    ));
                }
                skill.description = d.to_string();
            }
        },
    }

    // compatibility
    if let Some(f) = field("compatibility") {
        match text_value(&f.value) {
            Some(c) => {
                let n = c.chars().count();
                if n > MAX_COMPATIBILITY_CHARS {
                    diags.push(rule(
                        "compatibility-too-long",
                        format!("Compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit ({n} chars)"),
                        f.line,
                    ));
                }
                skill.compatibility = Some(c.to_string());
            }
            None if f.value.is_null() => {}
            None => diags.push(rule("compatibility-invalid", "Field 'compatibility' must be a string".into(), f.line)),
        }
    }

    for f in fields {
        let lenient_warning = |code: &str, msg: String| Diagnostic::warning(code, msg).at_line(f.line);
        match f.key.as_str() {
            "name" | "description" | "compatibility" => {}
            "license" => match text_value(&f.value) {
                Some(t) => skill.license = Some(t.to_string()),
                None if f.value.is_null() => {}
                None => diags.push(lenient_warning("field-not-string", format!("'license' is a {}; it was ignored", f.value.kind()))),
            },
            "metadata" => read_metadata(f, &mut skill, diags),
            "allowed-tools" => match &f.value {
                Node::Scalar { text, .. } => skill.allowed_tools = split_tools(text),
                Node::Seq(items) => {
                    skill.allowed_tools = items.iter().filter_map(|i| i.as_text().map(str::trim)).filter(|t| !t.is_empty()).map(str::to_string).collect()
                }
                Node::Map(_) => diags.push(lenient_warning("allowed-tools-invalid", "'allowed-tools' is a mapping; it was ignored".into())),
            },
            "argument-hint" => match &f.value {
                Node::Scalar { text, .. } => skill.argument_hint = Some(text.clone()),
                Node::Seq(items) => {
                    let parts: Vec<&str> = items.iter().filter_map(Node::as_text).collect();
                    let hint = format!("[{}]", parts.join(", "));
                    diags.push(lenient_warning(
                        "field-not-string",
                        format!("'argument-hint' was read as a YAML list; it is kept as the text {hint} (quote it to be sure)"),
                    ));
                    skill.argument_hint = Some(hint);
                }
                Node::Map(_) => diags.push(lenient_warning("field-not-string", "'argument-hint' is a mapping; it was ignored".into())),
            },
            "min_tier" => match text_value(&f.value) {
                Some(t) => skill.min_tier = Some(t.trim().to_string()),
                None => diags.push(lenient_warning("field-not-string", format!("'min_tier' is a {}; it was ignored", f.value.kind()))),
            },
            "disable-model-invocation" => {
                if let Some(b) = read_bool(f, diags) {
                    skill.disable_model_invocation = b;
                }
            }
            "user-invocable" => {
                if let Some(b) = read_bool(f, diags) {
                    skill.user_invocable = b;
                }
            }
            key => {
                if let Some(lang) = key.strip_prefix("description_").filter(|l| !l.is_empty()) {
                    match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
                        Some(t) => {
                            skill.localized_descriptions.insert(lang.to_string(), t.to_string());
                        }
                        None => diags.push(lenient_warning("field-not-string", format!("'{key}' is not a non-empty string; it was ignored"))),
                    }
                    continue;
                }
                if mode == Mode::Lenient {
                    let hint = match key {
                        "tools" => " (did you mean 'allowed-tools'?)",
                        "desc" | "summary" => " (did you mean 'description'?)",
                        _ => "",
                    };
                    diags.push(lenient_warning("unknown-field", format!("unknown field '{key}'{hint}; kept in 'extra'")));
                }
                skill.extra.insert(key.to_string(), f.value.to_json());
            }
        }
    }

    (count_errors(diags) == errors_before).then_some(skill)
}

fn count_errors(diags: &[Diagnostic]) -> usize {
    diags.iter().filter(|d| d.is_error()).count()
}

/// The text of a scalar that is not null; None for null, lists and maps.
fn text_value(node: &Node) -> Option<&str> {
    match node {
        Node::Scalar { text, style } if *style != Style::Plain || resolve_plain(text) != Resolved::Null => Some(text),
        _ => None,
    }
}

/// The specification's name rules, in the reference's order and words.
pub fn name_rules(name: &str, dir_name: Option<&str>) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let name: String = name.trim().nfkc().collect();
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        out.push(("name-too-long", format!("Skill name '{name}' exceeds {MAX_NAME_CHARS} character limit ({n} chars)")));
    }
    if name != name.to_lowercase() {
        out.push(("name-not-lowercase", format!("Skill name '{name}' must be lowercase")));
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push(("name-hyphen-edge", "Skill name cannot start or end with a hyphen".to_string()));
    }
    if name.contains("--") {
        out.push(("name-consecutive-hyphens", "Skill name cannot contain consecutive hyphens".to_string()));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        out.push((
            "name-invalid-chars",
            format!("Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."),
        ));
    }
    if let Some(dir) = dir_name {
        let normalized: String = dir.nfkc().collect();
        if normalized != name {
            out.push(("name-dir-mismatch", format!("Directory name '{dir}' must match skill name '{name}'")));
        }
    }
    out
}

/// `allowed-tools` as a list: space-separated per the specification, or comma-separated; a space
/// inside parentheses (`Bash(git add:*)`) does not split.
pub fn split_tools(text: &str) -> Vec<String> {
    let commas = {
        let mut depth = 0i32;
        text.chars().any(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            c == ',' && depth <= 0
        })
    };
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = (depth - 1).max(0),
            _ => {}
        }
        let splits = depth == 0 && if commas { c == ',' } else { c.is_whitespace() };
        if splits {
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn read_bool(f: &Field, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    if let Node::Scalar { text, style: Style::Plain } = &f.value {
        if let Resolved::Bool(b) = resolve_plain(text) {
            return Some(b);
        }
    }
    let shown = f.value.as_text().map(|t| format!("'{t}'")).unwrap_or_else(|| format!("a {}", f.value.kind()));
    diags.push(
        Diagnostic::warning("field-not-boolean", format!("'{}' should be true or false, not {shown}; it was ignored", f.key)).at_line(f.line),
    );
    None
}

fn read_metadata(f: &Field, skill: &mut Skill, diags: &mut Vec<Diagnostic>) {
    let entries = match &f.value {
        Node::Map(entries) => entries,
        v if v.is_null() => return,
        v => {
            diags.push(
                Diagnostic::warning("metadata-not-mapping", format!("'metadata' should be a mapping of strings, not a {}; it was ignored", v.kind()))
                    .at_line(f.line),
            );
            return;
        }
    };
    let mut map = BTreeMap::new();
    for (k, v) in entries {
        let text = match v {
            Node::Scalar { text, style } => {
                if *style == Style::Plain && resolve_plain(text) != Resolved::String {
                    diags.push(
                        Diagnostic::warning(
                            "metadata-not-string",
                            format!("metadata '{k}' is a YAML {} ({text}); it is kept as the text \"{text}\"", v.kind()),
                        )
                        .at_line(f.line),
                    );
                }
                text.clone()
            }
            structured => {
                let json = structured.to_json();
                diags.push(
                    Diagnostic::info(
                        "metadata-structured",
                        format!("metadata '{k}' is a {}; it is kept structured in metadataStructured and as JSON text", structured.kind()),
                    )
                    .at_line(f.line),
                );
                let text = json.to_string();
                skill.metadata_structured.insert(k.clone(), json);
                text
            }
        };
        map.insert(k.clone(), text);
    }
    skill.metadata = map;
}
