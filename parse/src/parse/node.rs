//! A YAML tree that keeps every scalar's own text (`version: 1.10` stays "1.10").

use super::yaml::Yaml;

/// How a scalar was written. Only `Plain` scalars can resolve to null, booleans or numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A plain scalar.
    Plain,
    /// A single- or double-quoted scalar.
    Quoted,
    /// A literal or folded block scalar.
    Block,
}

#[derive(Debug, Clone, PartialEq)]
/// A YAML value: a scalar with its text and style, a sequence, or a mapping in key order.
pub enum Node {
    /// A scalar, with the text it was written with.
    Scalar {
        /// The scalar's text (after unquoting and folding).
        text: String,
        /// How it was written.
        style: Style,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, keys in the order written.
    Map(Vec<(String, Node)>),
}

/// What a plain scalar means under the YAML 1.2 core schema (the schema serde_yaml uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// `null`, `~` or nothing.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer or a float.
    Number,
    /// Anything else.
    String,
}

/// What a plain scalar's text resolves to.
pub fn resolve_plain(text: &str) -> Resolved {
    // Most scalars are words: anything that cannot start a null, boolean or number is a string.
    match text.as_bytes().first() {
        None => return Resolved::Null,
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F') if text.len() <= 40 => {
        }
        Some(_) => return Resolved::String,
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN"
        | ".NAN" => return Resolved::Number,
        _ => {}
    }
    if is_number(text) {
        Resolved::Number
    } else {
        Resolved::String
    }
}

fn is_number(t: &str) -> bool {
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    if let Some(h) = t.strip_prefix("0x") {
        return digits(h, 16);
    }
    if let Some(o) = t.strip_prefix("0o") {
        return digits(o, 8);
    }
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    if let Some(e) = exponent {
        if !digits(e.strip_prefix(['-', '+']).unwrap_or(e), 10) {
            return false;
        }
    }
    match mantissa.split_once('.') {
        Some((int, frac)) => {
            (int.is_empty() || digits(int, 10))
                && (frac.is_empty() || digits(frac, 10))
                && !(int.is_empty() && frac.is_empty())
        }
        None => digits(mantissa, 10),
    }
}

impl Node {
    /// A plain scalar.
    pub fn plain(text: impl Into<String>) -> Node {
        Node::Scalar { text: text.into(), style: Style::Plain }
    }

    /// The scalar's text, if this is a scalar.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Node::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// True for a plain scalar that YAML reads as null (`~`, `null`, nothing at all).
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar { text, style: Style::Plain } if resolve_plain(text) == Resolved::Null)
    }

    /// The YAML type name of the value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Scalar { text, style: Style::Plain } => match resolve_plain(text) {
                Resolved::Null => "null",
                Resolved::Bool(_) => "boolean",
                Resolved::Number => "number",
                Resolved::String => "string",
            },
            Node::Scalar { .. } => "string",
            Node::Seq(_) => "list",
            Node::Map(_) => "mapping",
        }
    }

    /// JSON with every scalar kept as its text (null stays null), bounded in depth by the parsers.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            n if n.is_null() => serde_json::Value::Null,
            Node::Scalar { text, .. } => serde_json::Value::String(text.clone()),
            Node::Seq(items) => serde_json::Value::Array(items.iter().map(Node::to_json).collect()),
            Node::Map(entries) => {
                serde_json::Value::Object(entries.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
        }
    }

    /// Converts the YAML parser's tree ([`Yaml`]). Scalars that serde_yaml typed (numbers, booleans, null) get
    /// their source text back from `raw` where it can be found, else their canonical form.
    pub fn from_yaml(value: &Yaml, raw: &dyn Fn(&[&str]) -> Option<String>, path: &mut Vec<String>) -> Node {
        let typed = |canonical: String, path: &Vec<String>| {
            let p: Vec<&str> = path.iter().map(String::as_str).collect();
            Node::plain(raw(&p).unwrap_or(canonical))
        };
        match value {
            Yaml::Null => typed(String::new(), path),
            Yaml::Bool(b) => typed(b.to_string(), path),
            Yaml::Number(n) => typed(n.clone(), path),
            Yaml::String(s) => Node::Scalar { text: s.clone(), style: Style::Quoted },
            Yaml::Seq(items) => {
                path.push(String::new());
                let out = Node::Seq(items.iter().map(|v| Node::from_yaml(v, &|_| None, path)).collect());
                path.pop();
                out
            }
            Yaml::Map(m) => {
                let mut entries = Vec::with_capacity(m.len());
                for (k, v) in m {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        other => Node::from_yaml(other, &|_| None, &mut Vec::new()).as_text().unwrap_or("").to_string(),
                    };
                    path.push(key.clone());
                    entries.push((key, Node::from_yaml(v, raw, path)));
                    path.pop();
                }
                Node::Map(entries)
            }
        }
    }
}

/// Finds the source text of a one-line plain value at `path` (one or two keys deep) by reading
/// the lines, for values serde_yaml has typed. Returns None where the layout is not the simple one.
pub fn raw_plain_value(src: &str, path: &[&str]) -> Option<String> {
    let value_of = |line: &str, key: &str| -> Option<String> {
        let rest = line.strip_prefix(key)?.strip_prefix(':')?;
        if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
            return None;
        }
        let v = strip_comment(rest).trim();
        Some(v.to_string())
    };
    match path {
        [key] => src.lines().find_map(|l| value_of(l, key)),
        [parent, child] => {
            let mut lines = src.lines().skip_while(|l| value_of(l, parent).is_none_or(|v| !v.is_empty()));
            lines.next()?;
            lines
                .take_while(|l| l.is_empty() || l.starts_with([' ', '\t']) || l.starts_with('#'))
                .find_map(|l| value_of(l.trim_start(), child))
        }
        _ => None,
    }
}

/// Cuts a ` # comment` off a plain value.
pub fn strip_comment(s: &str) -> &str {
    let b = s.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'#' && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t') {
            return &s[..i];
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_resolution() {
        for t in ["", "~", "null", "NULL"] {
            assert_eq!(resolve_plain(t), Resolved::Null, "{t}");
        }
        assert_eq!(resolve_plain("True"), Resolved::Bool(true));
        for t in ["1", "-2", "1.10", ".5", "1e3", "0x1F", "0o17", "+.inf", ".nan", "3."] {
            assert_eq!(resolve_plain(t), Resolved::Number, "{t}");
        }
        for t in ["yes", "no", "on", "1.0.2", "2026-01-02", "0x", "e3", ".", "1_000", "v1"] {
            assert_eq!(resolve_plain(t), Resolved::String, "{t}");
        }
    }

    #[test]
    fn raw_values_are_found_one_and_two_levels_deep() {
        let src = "name: x\nversion: 1.10 # pinned\nmetadata:\n  # comment\n  version: 2.0\n  flag: true\nother: 3\n";
        assert_eq!(raw_plain_value(src, &["version"]).as_deref(), Some("1.10"));
        assert_eq!(raw_plain_value(src, &["metadata", "version"]).as_deref(), Some("2.0"));
        assert_eq!(raw_plain_value(src, &["metadata", "flag"]).as_deref(), Some("true"));
        assert_eq!(raw_plain_value(src, &["metadata", "other"]), None);
    }
}
