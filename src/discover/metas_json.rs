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
use crate::parse::wire::{write_fields, Shape, WireField};

/// The values of a meta after its skill's ([`result_json::SKILL_FIELDS`]), in order: each
/// declared once (see `skillwasm::parse::wire`; the JS reader is generated from this list).
pub const META_FIELDS: &[WireField<SkillMeta>] = &[
    WireField { key: "scope", shape: Shape::Plain, write: |out, m| result_json::string(out, &m.scope) },
    WireField { key: "location", shape: Shape::Plain, write: |out, m| result_json::string(out, &m.location) },
    WireField { key: "path", shape: Shape::Plain, write: |out, m| result_json::string(out, &m.path) },
    WireField { key: "directory", shape: Shape::Plain, write: |out, m| result_json::string(out, &m.directory) },
    WireField {
        key: "diagnostics",
        shape: Shape::ListOrZero,
        write: |out, m| result_json::write_diagnostics(out, &m.diagnostics),
    },
    WireField {
        key: "shadowedBy",
        shape: Shape::Optional,
        write: |out, m| result_json::nullable(out, m.shadowed_by.as_deref()),
    },
    WireField {
        key: "digest",
        shape: Shape::Optional,
        write: |out, m| result_json::nullable(out, m.digest.as_deref()),
    },
];

/// How many values a meta takes.
pub const META_VALUES: usize = SKILL_VALUES + META_FIELDS.len();

/// Appends the values of `meta` to `out`, comma-separated (the caller writes the array's
/// brackets, and a comma between metas).
pub fn write_meta(out: &mut Vec<u8>, meta: &SkillMeta) {
    result_json::write_skill(out, &meta.skill);
    out.push(b',');
    write_fields(out, META_FIELDS, meta);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::wire::{read_values, shapes};
    use crate::parse::{parse_skill, ParseOptions};
    use crate::Diagnostic;
    use serde_json::Value;
    use std::rc::Rc;

    /// The JS module of the readers of the flat arrays (`pkg-template/boundary/layout.js`), generated
    /// from [`result_json::SKILL_FIELDS`] and [`META_FIELDS`]; a test checks that the module in the
    /// repository is this text ([`the_js_readers_are_the_ones_the_declarations_make`]), and writes it
    /// when `SKILLWASM_WRITE_GENERATED` is set.
    fn js_layout() -> String {
        use crate::parse::wire::js_reader;
        let mut js = String::from(
            "// Generated from the Rust declarations of the values a skill and a skill's metadata cross\n\
             // into JS as (SKILL_FIELDS in parse/src/parse/result_json.rs, META_FIELDS in\n\
             // src/discover/metas_json.rs) by `js_layout` there: do not edit. To write it again, run\n\
             // `SKILLWASM_WRITE_GENERATED=1 cargo test -p skillwasm --lib metas_json`.\n\n",
        );
        js.push_str(&format!(
            "/** A parse result's flags: it holds a skill (whose values follow). */\n\
             export const RESULT_HAS_SKILL = {};\n\
             /** A parse result's flags: it is incomplete. */\nexport const RESULT_INCOMPLETE = {};\n\n",
            result_json::RESULT_HAS_SKILL,
            result_json::RESULT_INCOMPLETE
        ));
        js.push_str(&format!("/** How many values a skill takes. */\nexport const SKILL_VALUES = {SKILL_VALUES};\n\n"));
        js.push_str(&format!(
            "/** How many values a skill's metadata takes. */\nexport const META_VALUES = {META_VALUES};\n\n"
        ));
        js.push_str("/** The skill whose values start at `w[a]`, as the object serde writes. */\n");
        js.push_str(&js_reader("skillOf", &shapes(result_json::SKILL_FIELDS), None));
        js.push_str("\n/** The SkillMeta whose values start at `w[a]`, as the object serde writes. */\n");
        js.push_str(&js_reader("metaOf", &shapes(META_FIELDS), Some(("skillOf", SKILL_VALUES))));
        js
    }

    /// The object the generated `metaOf` builds from the values at `a`, built by the same rules.
    fn meta_of(w: &[Value], a: usize) -> Value {
        let mut m = serde_json::Map::new();
        let (skill, rest) = w[a..a + META_VALUES].split_at(SKILL_VALUES);
        read_values(&shapes(result_json::SKILL_FIELDS), skill, &mut m).expect("a skill's values");
        read_values(&shapes(META_FIELDS), rest, &mut m).expect("a meta's values");
        Value::Object(m)
    }

    #[test]
    fn the_js_readers_are_the_ones_the_declarations_make() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pkg-template/boundary/layout.js");
        let want = js_layout();
        if std::env::var_os("SKILLWASM_WRITE_GENERATED").is_some() {
            std::fs::write(&path, &want).expect("write layout.js");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "pkg-template/boundary/layout.js is not what the declarations make: run \
             `SKILLWASM_WRITE_GENERATED=1 cargo test -p skillwasm --lib metas_json`"
        );
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
