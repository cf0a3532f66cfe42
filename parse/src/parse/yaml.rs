//! The YAML parser of record (serde_yaml), behind one function: [`load`] reads frontmatter the
//! fast path does not take into a plain tree, [`Yaml`], or says why it cannot.
//!
//! [`load`] exists with the `yaml` feature (on by default). Without it serde_yaml is not compiled,
//! nor is the rest of the path beyond the fast one ([`super::beyond`]): the wasm package's core
//! module asks the package's second module, which has them.

/// A YAML value as the frontmatter rules read it: scalars typed by the YAML 1.2 core schema
/// (numbers keep serde_yaml's text of them), sequences, and mappings in the order written. Tags
/// are dropped (a tagged value is its value).
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    /// `null`, `~` or nothing.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer or a float, as serde_yaml writes it.
    Number(String),
    /// A string.
    String(String),
    /// A sequence.
    Seq(Vec<Yaml>),
    /// A mapping, keys in the order written.
    Map(Vec<(Yaml, Yaml)>),
}

/// Why a text is not YAML (or could not be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// The parser's message.
    pub message: String,
    /// The 1-based line it points at, when it says.
    pub line: Option<u32>,
    /// The text is hostile or too deep (a recursion or repetition limit), not sloppy: no repair
    /// should paper over it.
    pub resource_limit: bool,
}

/// Reads `src` as one YAML document with serde_yaml.
#[cfg(feature = "yaml")]
pub fn load(src: &str) -> Result<Yaml, YamlError> {
    serde_yaml::from_str::<serde_yaml::Value>(src).map(|v| from_serde(&v)).map_err(|err| {
        let message = err.to_string();
        let resource_limit =
            message.contains("recursion limit exceeded") || message.contains("repetition limit exceeded");
        YamlError { line: err.location().map(|l| l.line() as u32), message, resource_limit }
    })
}

/// serde_yaml's tree as a [`Yaml`] (serde_yaml bounds its depth, so the recursion is bounded).
#[cfg(feature = "yaml")]
fn from_serde(value: &serde_yaml::Value) -> Yaml {
    use serde_yaml::Value as V;
    match value {
        V::Null => Yaml::Null,
        V::Bool(b) => Yaml::Bool(*b),
        V::Number(n) => Yaml::Number(n.to_string()),
        V::String(s) => Yaml::String(s.clone()),
        V::Sequence(items) => Yaml::Seq(items.iter().map(from_serde).collect()),
        V::Mapping(m) => Yaml::Map(m.iter().map(|(k, v)| (from_serde(k), from_serde(v))).collect()),
        V::Tagged(t) => from_serde(&t.value),
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    #[test]
    fn typed_scalars_tags_and_order() {
        let v = load("b: 1.50\na: [true, ~, x]\nc: !t {k: v}\n").unwrap();
        let s = |t: &str| Yaml::String(t.to_string());
        assert_eq!(
            v,
            Yaml::Map(vec![
                (s("b"), Yaml::Number("1.5".to_string())),
                (s("a"), Yaml::Seq(vec![Yaml::Bool(true), Yaml::Null, s("x")])),
                (s("c"), Yaml::Map(vec![(s("k"), s("v"))])),
            ])
        );
    }

    #[test]
    fn errors_say_where_and_whether_a_limit_was_hit() {
        let e = load("a: b\n  c: [\n").unwrap_err();
        assert!(e.line.is_some() && !e.resource_limit, "{e:?}");
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(load(&deep).unwrap_err().resource_limit);
    }
}
