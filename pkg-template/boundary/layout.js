// Generated from the Rust declarations of the values a skill and a skill's metadata cross
// into JS as (SKILL_FIELDS in parse/src/parse/result_json.rs, META_FIELDS in
// src/discover/metas_json.rs) by `js_layout` there: do not edit. To write it again, run
// `SKILLWASM_WRITE_GENERATED=1 cargo test -p skillwasm --lib metas_json`.

/** A parse result's flags: it holds a skill (whose values follow). */
export const RESULT_HAS_SKILL = 1;
/** A parse result's flags: it is incomplete. */
export const RESULT_INCOMPLETE = 2;

/** How many values a skill takes. */
export const SKILL_VALUES = 16;

/** How many values a skill's metadata takes. */
export const META_VALUES = 23;

/** The skill whose values start at `w[a]`, as the object serde writes. */
export function skillOf(w, a) {
  const o = { name: w[a], description: w[a + 1], localizedDescriptions: w[a + 2] === 0 ? {} : w[a + 2] };
  if (w[a + 3] !== null) o.license = w[a + 3];
  if (w[a + 4] !== null) o.compatibility = w[a + 4];
  o.metadata = w[a + 5] === 0 ? {} : w[a + 5];
  o.metadataStructured = w[a + 6] === 0 ? {} : w[a + 6];
  o.allowedTools = w[a + 7] === 0 ? [] : w[a + 7];
  if (w[a + 8] !== null) o.argumentHint = w[a + 8];
  if (w[a + 9] !== null) o.minTier = w[a + 9];
  o.disableModelInvocation = (w[a + 10] & 1) !== 0;
  o.userInvocable = (w[a + 10] & 2) !== 0;
  if (w[a + 11] !== null) o.context = w[a + 11];
  if (w[a + 12] !== null) o.agent = w[a + 12];
  o.extra = w[a + 13] === 0 ? {} : w[a + 13];
  if (w[a + 14] !== null) o.body = w[a + 14];
  if (w[a + 15] !== null) o.bodyLine = w[a + 15];
  return o;
}

/** The SkillMeta whose values start at `w[a]`, as the object serde writes. */
export function metaOf(w, a) {
  const o = skillOf(w, a);
  o.scope = w[a + 16];
  o.location = w[a + 17];
  o.path = w[a + 18];
  o.directory = w[a + 19];
  o.diagnostics = w[a + 20] === 0 ? [] : w[a + 20];
  if (w[a + 21] !== null) o.shadowedBy = w[a + 21];
  if (w[a + 22] !== null) o.digest = w[a + 22];
  return o;
}
