//! Reading a [`ParsedMessage`] from its JSON form (as the package's second module hands it to
//! the core module) with the value readers of [`crate::read`]: the same values and errors as its
//! `Deserialize`, without compiling the derive for a deserialiser of JSON text.

use super::{Invocation, InvocationKind, ParsedMessage};
use crate::read::{self, fields, invalid_type, variant};
use serde::de::Error as _;
use serde_json::{Error, Value};

fn invocation(v: &Value) -> Result<Invocation, Error> {
    let (mut name, mut kind, mut arguments, mut start, mut end) = (None, None, None, None, None);
    fields(v, "struct Invocation", |key, v| {
        match key {
            "name" => name = Some(read::string(v)?),
            "kind" => {
                let slash = variant(v, &["slash", "mention"])? == 0;
                kind = Some(if slash { InvocationKind::Slash } else { InvocationKind::Mention });
            }
            "arguments" => arguments = Some(read::string(v)?),
            "start" => start = Some(read::usize(v)?),
            "end" => end = Some(read::usize(v)?),
            _ => {}
        }
        Ok(())
    })
    .map_err(|(_, e)| e)?;
    Ok(Invocation {
        name: name.ok_or_else(|| Error::missing_field("name"))?,
        kind: kind.ok_or_else(|| Error::missing_field("kind"))?,
        arguments: arguments.ok_or_else(|| Error::missing_field("arguments"))?,
        start: start.ok_or_else(|| Error::missing_field("start"))?,
        end: end.ok_or_else(|| Error::missing_field("end"))?,
    })
}

impl ParsedMessage {
    /// The message `value` (its serialised form) describes; an error is serde's for the first
    /// value of the wrong type or the first missing field.
    pub fn from_json(value: &Value) -> Result<ParsedMessage, Error> {
        let (mut invocations, mut remaining, mut unknown) = (None, None, None);
        fields(value, "struct ParsedMessage", |key, v| {
            match key {
                "invocations" => {
                    let Value::Array(items) = v else { return Err(invalid_type(v, "a sequence")) };
                    invocations = Some(items.iter().map(invocation).collect::<Result<Vec<_>, _>>()?);
                }
                "remaining" => remaining = Some(read::string(v)?),
                "unknown" => unknown = Some(read::strings(v)?),
                _ => {}
            }
            Ok(())
        })
        .map_err(|(_, e)| e)?;
        Ok(ParsedMessage {
            invocations: invocations.ok_or_else(|| Error::missing_field("invocations"))?,
            remaining: remaining.ok_or_else(|| Error::missing_field("remaining"))?,
            unknown: unknown.ok_or_else(|| Error::missing_field("unknown"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[test]
    fn reads_as_serde_reads() {
        let one = json!({ "name": "a", "kind": "slash", "arguments": "x y", "start": 0, "end": 2 });
        let cases = [
            json!({ "invocations": [one.clone(), { "name": "b", "kind": "mention", "arguments": "", "start": 5, "end": 7, "extra": 1 }], "remaining": "x y", "unknown": ["c"] }),
            json!({ "invocations": [], "remaining": "", "unknown": [] }),
            json!({ "invocations": [], "remaining": "" }),
            json!({ "invocations": [{ "name": "a", "kind": "other", "arguments": "", "start": 0, "end": 1 }], "remaining": "", "unknown": [] }),
            json!({ "invocations": [{ "name": "a", "kind": "slash", "arguments": "", "start": -1, "end": 1 }], "remaining": "", "unknown": [] }),
            json!({ "invocations": [{ "name": "a", "kind": "slash", "start": 0, "end": 1 }], "remaining": "", "unknown": [] }),
            json!({ "invocations": {}, "remaining": "", "unknown": [] }),
            json!({ "invocations": [], "remaining": 3, "unknown": [] }),
            json!("x"),
        ];
        for v in cases {
            let mine = ParsedMessage::from_json(&v).map_err(|e| e.to_string());
            let theirs = ParsedMessage::deserialize(&v).map_err(|e| e.to_string());
            assert_eq!(mine, theirs, "{v}");
        }
    }
}
