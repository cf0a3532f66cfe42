//! The specification's rules, turned into diagnostics, and the typed [`Skill`] built from the
//! frontmatter fields.
//!
//! One rule set serves both modes. Lenient (the default, as the client guide asks) loads the skill
//! and warns; it refuses only a skill without a usable description (or without a name and a
//! directory to take one from). Strict reports the specification's rules as errors, worded and
//! ordered as the reference implementation (skills-ref) words and orders them.

use super::node::{resolve_plain, Node, Resolved, Style};
use super::{Field, Mode, Skill};
use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::text::nfkc;

/// Longest name the specification allows, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest description the specification allows, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest compatibility the specification allows, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = ["allowed-tools", "compatibility", "description", "license", "metadata", "name"];
/// Fields clients use beyond the specification that this library reads.
pub const EXTENSION_FIELDS: [&str; 6] =
    ["agent", "argument-hint", "context", "disable-model-invocation", "min_tier", "user-invocable"];

/// Builds the skill from its frontmatter fields and checks it. Returns None (with at least one
/// error diagnostic) when the skill is refused. The texts the skill keeps are taken out of
/// `fields`, not copied: what is left of them afterwards is not the frontmatter.
pub fn build_skill(
    fields: &mut [Field],
    dir_name: Option<&str>,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Option<Skill> {
    let errors_before = count_errors(diags);
    let rule = |code: &str, msg: String, line: Option<u32>| {
        let sev = if mode == Mode::Strict { Severity::Error } else { Severity::Warning };
        Diagnostic::new(sev, code, msg).at_line(line)
    };
    let mut skill = Skill { user_invocable: true, ..Skill::default() };
    let (mut localized, mut extra) = (Vec::new(), Vec::new());

    // Fields nobody defined.
    if mode == Mode::Strict {
        let mut unexpected: Vec<&str> =
            fields.iter().map(|f| f.key.as_str()).filter(|k| !SPEC_FIELDS.contains(k)).collect();
        crate::sort::sort(&mut unexpected);
        if !unexpected.is_empty() {
            let allowed: Vec<String> = SPEC_FIELDS.iter().map(|f| format!("'{f}'")).collect();
            diags.push(
                Diagnostic::error(
                    codes::UNEXPECTED_FIELDS,
                    format!(
                        "Unexpected fields in frontmatter: {}. Only [{}] are allowed.",
                        unexpected.join(", "),
                        allowed.join(", ")
                    ),
                )
                .at_line(fields.iter().find(|f| !SPEC_FIELDS.contains(&f.key.as_str())).and_then(|f| f.line)),
            );
            diags.extend(super::extensions::note(&unexpected, fields));
        }
    }

    // name
    match fields.iter_mut().find(|f| f.key == "name") {
        None => match (mode, dir_name) {
            (Mode::Lenient, Some(dir)) => {
                diags.push(Diagnostic::warning(
                    codes::NAME_MISSING,
                    format!("Missing required field in frontmatter: name; the directory name '{dir}' is used"),
                ));
                diags.extend(crate::lookalike::name_rule(dir));
                skill.name = dir.to_string();
            }
            _ => diags.push(Diagnostic::error(codes::NAME_MISSING, "Missing required field in frontmatter: name")),
        },
        Some(f) => match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
            None => {
                let msg = "Field 'name' must be a non-empty string";
                match (mode, dir_name) {
                    (Mode::Lenient, Some(dir)) => {
                        diags.push(
                            Diagnostic::warning(
                                codes::NAME_INVALID,
                                format!("{msg}; the directory name '{dir}' is used"),
                            )
                            .at_line(f.line),
                        );
                        diags.extend(crate::lookalike::name_rule(dir));
                        skill.name = dir.to_string();
                    }
                    _ => diags.push(Diagnostic::error(codes::NAME_INVALID, msg).at_line(f.line)),
                }
            }
            Some(name) => {
                for (code, msg) in name_rules(name, dir_name) {
                    diags.push(rule(code, msg, f.line));
                }
                diags.extend(crate::lookalike::name_rule(name).map(|d| d.at_line(f.line)));
                skill.name = take_trimmed(&mut f.value);
            }
        },
    }

    // description
    match fields.iter_mut().find(|f| f.key == "description") {
        None => diags
            .push(Diagnostic::error(codes::DESCRIPTION_MISSING, "Missing required field in frontmatter: description")),
        Some(f) => match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
            None => diags.push(
                Diagnostic::error(codes::DESCRIPTION_INVALID, "Field 'description' must be a non-empty string")
                    .at_line(f.line),
            ),
            Some(d) => {
                let n = d.chars().count();
                if n > MAX_DESCRIPTION_CHARS {
                    diags.push(rule(
                        codes::DESCRIPTION_TOO_LONG,
                        format!("Description exceeds {MAX_DESCRIPTION_CHARS} character limit ({n} chars)"),
                        f.line,
                    ));
                }
                skill.description = take_trimmed(&mut f.value);
            }
        },
    }

    // compatibility
    if let Some(f) = fields.iter_mut().find(|f| f.key == "compatibility") {
        match text_value(&f.value) {
            Some(c) => {
                let n = c.chars().count();
                if n > MAX_COMPATIBILITY_CHARS {
                    diags.push(rule(
                        codes::COMPATIBILITY_TOO_LONG,
                        format!("Compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit ({n} chars)"),
                        f.line,
                    ));
                }
                skill.compatibility = Some(take_text(&mut f.value));
            }
            None if f.value.is_null() => {}
            None => {
                diags.push(rule(codes::COMPATIBILITY_INVALID, "Field 'compatibility' must be a string".into(), f.line))
            }
        }
    }

    for f in fields.iter_mut() {
        let lenient_warning = |code: &str, msg: String| Diagnostic::warning(code, msg).at_line(f.line);
        match f.key.as_str() {
            "name" | "description" | "compatibility" => {}
            "license" => match text_value(&f.value) {
                Some(_) => skill.license = Some(take_text(&mut f.value)),
                None if f.value.is_null() => {}
                None => diags.push(lenient_warning(
                    codes::FIELD_NOT_STRING,
                    format!("'license' is a {}; it was ignored", f.value.kind()),
                )),
            },
            "metadata" => read_metadata(f, &mut skill, diags),
            "allowed-tools" => {
                match &f.value {
                    Node::Scalar { text, .. } => skill.allowed_tools = split_tools(text),
                    Node::Seq(items) => {
                        skill.allowed_tools = items
                            .iter()
                            .filter_map(|i| i.as_text().map(str::trim))
                            .filter(|t| !t.is_empty())
                            .map(str::to_string)
                            .collect()
                    }
                    Node::Map(_) => diags.push(lenient_warning(
                        codes::ALLOWED_TOOLS_INVALID,
                        "'allowed-tools' is a mapping; it was ignored".into(),
                    )),
                }
                // An entry whose parentheses do not pair swallowed the entries after it: it
                // allows nothing (the permission check refuses it), and the author is told here.
                for entry in skill.allowed_tools.iter().filter(|e| e.matches('(').count() != e.matches(')').count()) {
                    diags.push(lenient_warning(
                        codes::ALLOWED_TOOLS_INVALID,
                        format!("allowed-tools entry '{entry}' has unbalanced parentheses; it allows nothing"),
                    ));
                }
            }
            "argument-hint" => match &f.value {
                Node::Scalar { text, .. } => skill.argument_hint = Some(text.clone()),
                Node::Seq(items) => {
                    let parts: Vec<&str> = items.iter().filter_map(Node::as_text).collect();
                    let hint = format!("[{}]", parts.join(", "));
                    diags.push(lenient_warning(
                        codes::FIELD_NOT_STRING,
                        format!("'argument-hint' was read as a YAML list; it is kept as the text {hint} (quote it to be sure)"),
                    ));
                    skill.argument_hint = Some(hint);
                }
                Node::Map(_) => diags.push(lenient_warning(
                    codes::FIELD_NOT_STRING,
                    "'argument-hint' is a mapping; it was ignored".into(),
                )),
            },
            "min_tier" => match text_value(&f.value) {
                Some(t) => skill.min_tier = Some(t.trim().to_string()),
                None => diags.push(lenient_warning(
                    codes::FIELD_NOT_STRING,
                    format!("'min_tier' is a {}; it was ignored", f.value.kind()),
                )),
            },
            "context" | "agent" => match text_value(&f.value).map(str::trim).filter(|t| !t.is_empty()) {
                Some(t) if f.key == "context" => skill.context = Some(t.to_string()),
                Some(t) => skill.agent = Some(t.to_string()),
                None if f.value.is_null() => {}
                None => diags.push(lenient_warning(
                    codes::FIELD_NOT_STRING,
                    format!("'{}' is a {}; it was ignored", f.key, f.value.kind()),
                )),
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
                            localized.push((lang.to_string(), t.to_string()));
                        }
                        None => diags.push(lenient_warning(
                            codes::FIELD_NOT_STRING,
                            format!("'{key}' is not a non-empty string; it was ignored"),
                        )),
                    }
                    continue;
                }
                if mode == Mode::Lenient {
                    let hint = match key {
                        "tools" => " (did you mean 'allowed-tools'?)",
                        "desc" | "summary" => " (did you mean 'description'?)",
                        _ => "",
                    };
                    diags.push(lenient_warning(
                        codes::UNKNOWN_FIELD,
                        format!("unknown field '{key}'{hint}; kept in 'extra'"),
                    ));
                }
                let key = std::mem::take(&mut f.key);
                extra.push((key, f.value.to_json()));
            }
        }
    }

    // Collected, then sorted once: each key once, as the frontmatter's keys are.
    skill.localized_descriptions = localized.into_iter().collect();
    skill.extra = extra.into_iter().collect();
    (count_errors(diags) == errors_before).then_some(skill)
}

fn count_errors(diags: &[Diagnostic]) -> usize {
    diags.iter().filter(|d| d.is_error()).count()
}

/// A scalar's text, taken out of it (empty for anything else).
fn take_text(node: &mut Node) -> String {
    match node {
        Node::Scalar { text, .. } => std::mem::take(text),
        _ => String::new(),
    }
}

/// A scalar's text, trimmed, taken out of it: no copy when there is nothing to trim.
fn take_trimmed(node: &mut Node) -> String {
    match node {
        Node::Scalar { text, .. } => {
            let trimmed = text.trim();
            if trimmed.len() == text.len() {
                std::mem::take(text)
            } else {
                trimmed.to_string()
            }
        }
        _ => String::new(),
    }
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
    let name = nfkc(name.trim());
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        out.push((
            codes::NAME_TOO_LONG,
            format!("Skill name '{name}' exceeds {MAX_NAME_CHARS} character limit ({n} chars)"),
        ));
    }
    let has_upper = if name.is_ascii() {
        name.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        crate::text::lowercase(&name) != *name
    };
    if has_upper {
        out.push((codes::NAME_NOT_LOWERCASE, format!("Skill name '{name}' must be lowercase")));
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push((codes::NAME_HYPHEN_EDGE, "Skill name cannot start or end with a hyphen".to_string()));
    }
    if name.contains("--") {
        out.push((codes::NAME_CONSECUTIVE_HYPHENS, "Skill name cannot contain consecutive hyphens".to_string()));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        out.push((
            codes::NAME_INVALID_CHARS,
            format!("Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."),
        ));
    }
    if let Some(dir) = dir_name {
        if nfkc(dir) != name {
            out.push((codes::NAME_DIR_MISMATCH, format!("Directory name '{dir}' must match skill name '{name}'")));
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
        Diagnostic::warning(
            codes::FIELD_NOT_BOOLEAN,
            format!("'{}' should be true or false, not {shown}; it was ignored", f.key),
        )
        .at_line(f.line),
    );
    None
}

fn read_metadata(f: &mut Field, skill: &mut Skill, diags: &mut Vec<Diagnostic>) {
    let line = f.line;
    let entries = match &mut f.value {
        Node::Map(entries) => entries,
        v if v.is_null() => return,
        v => {
            diags.push(
                Diagnostic::warning(
                    codes::METADATA_NOT_MAPPING,
                    format!("'metadata' should be a mapping of strings, not a {}; it was ignored", v.kind()),
                )
                .at_line(line),
            );
            return;
        }
    };
    let mut map = Vec::with_capacity(entries.len());
    for (k, v) in entries.iter_mut() {
        let kind = v.kind();
        let text = match v {
            Node::Scalar { text, style } => {
                if *style == Style::Plain && resolve_plain(text) != Resolved::String {
                    diags.push(
                        Diagnostic::warning(
                            codes::METADATA_NOT_STRING,
                            format!("metadata '{k}' is a YAML {kind} ({text}); it is kept as the text \"{text}\""),
                        )
                        .at_line(line),
                    );
                }
                std::mem::take(text)
            }
            structured => {
                let json = structured.to_json();
                diags.push(
                    Diagnostic::info(
                        codes::METADATA_STRUCTURED,
                        format!(
                            "metadata '{k}' is a {}; it is kept structured in metadataStructured and as JSON text",
                            structured.kind()
                        ),
                    )
                    .at_line(line),
                );
                let text = json.to_string();
                skill.metadata_structured.insert(k.clone(), json);
                text
            }
        };
        map.push((std::mem::take(k), text));
    }
    skill.metadata = map.into_iter().collect();
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
