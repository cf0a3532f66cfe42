//! Skills' metadata as the JSON text `boundary.js` reads (`takeMetas`): the values of each
//! [`SkillMeta`] one after the other in one flat array, as parse results are (see
//! `skillwasm::parse::result_json`), which `boundary.js` builds into the very objects serde writes
//! for a `SkillMeta` (the same keys in the same order). A registry's list of 100,000 skills made
//! object by object from wasm, each string decoded alone, took over a second and grew faster
//! than the list.
//!
//! The values of a meta: the skill's [`SKILL_VALUES`] values (`result_json::write_skill`), then
//! scope, location, path, directory, the diagnostics (`0`: none), shadowedBy and digest (`null`:
//! none).

use super::SkillMeta;
use crate::parse::result_json::{self, SKILL_VALUES};

/// How many values a meta takes.
pub const META_VALUES: usize = SKILL_VALUES + 7;

/// Appends the values of `meta` to `out`, comma-separated (the caller writes the array's
/// brackets, and a comma between metas).
pub fn write_meta(out: &mut Vec<u8>, meta: &SkillMeta) {
    result_json::write_skill(out, &meta.skill);
    for field in [&meta.scope, &meta.location, &meta.path, &meta.directory] {
        out.push(b',');
        result_json::string(out, field);
    }
    out.push(b',');
    result_json::write_diagnostics(out, &meta.diagnostics);
    for field in [&meta.shadowed_by, &meta.digest] {
        out.push(b',');
        match field {
            Some(text) => result_json::string(out, text),
            None => out.extend_from_slice(b"null"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_skill, ParseOptions};
    use crate::Diagnostic;
    use serde_json::Value;
    use std::rc::Rc;

    /// The object `boundary.js`'s `metaOf` builds from the values at `a`, built the same way.
    fn meta_of(w: &[Value], a: usize) -> Value {
        let s = |i: usize| w[a + i].clone();
        let or_empty = |v: Value, empty: Value| if v == 0 { empty } else { v };
        let mut m = serde_json::Map::new();
        m.insert("name".into(), s(0));
        m.insert("description".into(), s(1));
        m.insert("localizedDescriptions".into(), or_empty(s(2), Value::Object(Default::default())));
        for (i, k) in [(3, "license"), (4, "compatibility")] {
            if !s(i).is_null() {
                m.insert(k.into(), s(i));
            }
        }
        m.insert("metadata".into(), or_empty(s(5), Value::Object(Default::default())));
        m.insert("metadataStructured".into(), or_empty(s(6), Value::Object(Default::default())));
        m.insert("allowedTools".into(), or_empty(s(7), Value::Array(vec![])));
        for (i, k) in [(8, "argumentHint"), (9, "minTier")] {
            if !s(i).is_null() {
                m.insert(k.into(), s(i));
            }
        }
        let flags = s(10).as_u64().unwrap_or(0);
        m.insert("disableModelInvocation".into(), Value::Bool(flags & 1 != 0));
        m.insert("userInvocable".into(), Value::Bool(flags & 2 != 0));
        for (i, k) in [(11, "context"), (12, "agent")] {
            if !s(i).is_null() {
                m.insert(k.into(), s(i));
            }
        }
        m.insert("extra".into(), or_empty(s(13), Value::Object(Default::default())));
        for (i, k) in [(14, "body"), (15, "bodyLine")] {
            if !s(i).is_null() {
                m.insert(k.into(), s(i));
            }
        }
        let b = SKILL_VALUES;
        for (i, k) in [(b, "scope"), (b + 1, "location"), (b + 2, "path"), (b + 3, "directory")] {
            m.insert(k.into(), s(i));
        }
        m.insert("diagnostics".into(), or_empty(s(b + 4), Value::Array(vec![])));
        for (i, k) in [(b + 5, "shadowedBy"), (b + 6, "digest")] {
            if !s(i).is_null() {
                m.insert(k.into(), s(i));
            }
        }
        Value::Object(m)
    }

    #[test]
    fn the_values_make_the_objects_serde_writes() {
        let texts = [
            "---\nname: plain\ndescription: Plain.\n---\nbody\n",
            "---\nname: full\ndescription: \"Üñí \\\"quoted\\\"\\n\\u0001\"\nlicense: MIT\ncompatibility: Node 20\n\
             allowed-tools: Bash(git:*) Read\nargument-hint: \"[file]\"\ncontext: fork\nagent: Explore\n\
             disable-model-invocation: true\nmetadata:\n  author: a\n  tags: [x, 1, {k: v}]\n\
             description-fr: Simple.\nx-unknown: {a: 1}\n---\n",
        ];
        let mut metas = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let skill = parse_skill(text.as_bytes(), &ParseOptions::default()).skill.expect("a skill");
            metas.push(SkillMeta {
                skill: Rc::new(skill),
                scope: "user".into(),
                location: format!(".agents/skills/s{i}/SKILL.md"),
                path: format!("/home/u/.agents/skills/s{i}/SKILL.md"),
                directory: format!(".agents/skills/s{i}"),
                diagnostics: Rc::new(if i == 0 {
                    vec![]
                } else {
                    vec![Diagnostic::warning("w", "a warning \u{e9}").at_line(Some(3))]
                }),
                shadowed_by: (i == 1).then(|| "org:.agents/skills/full/SKILL.md".to_string()),
                digest: (i == 1).then(|| format!("sha256:{}", "0".repeat(64))),
            });
        }
        let mut out = vec![b'['];
        for (i, m) in metas.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_meta(&mut out, m);
        }
        out.push(b']');
        assert!(out.is_ascii());
        let w: Vec<Value> = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(w.len(), metas.len() * META_VALUES);
        for (i, m) in metas.iter().enumerate() {
            let want = serde_json::to_value(m).expect("serde");
            let got = meta_of(&w, i * META_VALUES);
            assert_eq!(got, want);
            // The same keys in the same order.
            let keys = |v: &Value| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
            assert_eq!(keys(&got), keys(&want));
        }
    }
}
