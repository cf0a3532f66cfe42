//! Reading a [`ToolInput`] from its JSON form with the value readers of [`crate::read`]: the same
//! values and the same errors (the model reads them) as its `Deserialize`, compiled once instead
//! of once per deserialiser.

use super::ToolInput;
use crate::read::{self, invalid_type};
use serde::de::Error as _;
use serde_json::{Error, Value};

/// `force`: a boolean, null reading as false.
fn force(v: &Value) -> Result<bool, Error> {
    read::opt_bool(v).map(Option::unwrap_or_default)
}

impl ToolInput {
    /// The input `value` describes: an object whose missing keys keep their defaults and whose
    /// unknown keys are ignored, or (as serde reads a struct) an array of the fields in order
    /// (`name`, `path`, `force`, `query`); a value of the wrong type is serde's error for it.
    pub fn from_json(value: &Value) -> Result<ToolInput, Error> {
        let mut input = ToolInput::default();
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    match key.as_str() {
                        "name" => input.name = read::string(v)?,
                        "path" => input.path = read::opt_string(v)?,
                        "force" => input.force = force(v)?,
                        "query" => input.query = read::opt_string(v)?,
                        _ => {}
                    }
                }
            }
            Value::Array(items) => {
                let mut it = items.iter();
                if let Some(v) = it.next() {
                    input.name = read::string(v)?;
                }
                if let Some(v) = it.next() {
                    input.path = read::opt_string(v)?;
                }
                if let Some(v) = it.next() {
                    input.force = force(v)?;
                }
                if let Some(v) = it.next() {
                    input.query = read::opt_string(v)?;
                }
                if it.next().is_some() {
                    return Err(Error::invalid_length(items.len(), &"fewer elements in array"));
                }
            }
            _ => return Err(invalid_type(value, "struct ToolInput")),
        }
        Ok(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_as_serde_reads() {
        let cases = [
            json!({ "name": "pdf" }),
            json!({ "name": "pdf", "path": "a.md", "force": true, "query": null, "other": 1 }),
            json!({ "name": "pdf", "force": null, "path": null }),
            json!({}),
            json!({ "name": null }),
            json!({ "name": 3 }),
            json!({ "path": ["x"] }),
            json!({ "force": "yes" }),
            json!({ "query": {} }),
            json!(["pdf"]),
            json!(["pdf", "a.md", true, "q"]),
            json!(["pdf", null, null, null, 5]),
            json!([1]),
            json!([]),
            json!("pdf"),
            json!(null),
            json!(3.5),
        ];
        for v in cases {
            let mine = ToolInput::from_json(&v).map_err(|e| e.to_string());
            let theirs = serde_json::from_value::<ToolInput>(v.clone()).map_err(|e| e.to_string());
            assert_eq!(mine, theirs, "{v}");
        }
    }
}
