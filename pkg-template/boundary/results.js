// What the core hands back as flat JSON arrays, made into the objects serde would write: a batch of
// parse results ({@link takeResults}, bodies decoded on first read) and a list of skills'
// metadata ({@link takeMetas}).

import { call, isArray, NativeU8, rethrowTrap, taBuffer, taByteLength, taSet } from "./intrinsics.js";
import { META_VALUES, RESULT_HAS_SKILL, RESULT_INCOMPLETE, SKILL_VALUES, metaOf, skillOf } from "./layout.js";

const tdDecode = TextDecoder.prototype.decode;
// Bodies the core checked (valid UTF-8): decoded as they are, a leading U+FEFF kept.
const bodyDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

// Parse results (wasm/src/boundary/parsed.rs): a batch of them arrives as one JSON text, one flat
// array of every result's values in the order parse/src/parse/result_json.rs writes them.
const parseJson = JSON.parse;
const defineProperty = Object.defineProperty;
const arrayPush = Array.prototype.push;
// A result with no body range.
const NO_RANGE = 0xffffffff;

// Skills' metadata (wasm/src/boundary/metas.rs): a list arrives as JSON texts, each one flat
// array of every meta's values in the order src/discover/metas_json.rs writes them. The readers
// of a skill's and a meta's values (layout.js) are generated from the Rust declarations.

/**
 * Appends the `count` metas of `json` to `out`, each the object serde writes for a SkillMeta (the
 * skill's keys, then scope, location, path, directory, diagnostics, and shadowedBy and digest
 * when there are); false when the text does not hold them.
 * @param {string} json
 * @param {number} count
 * @param {unknown[]} out
 */
export function takeMetas(json, count, out) {
  try {
    const w = parseJson(json);
    if (!isArray(w) || w.length !== count * META_VALUES) return false;
    for (let a = 0; a < w.length; a += META_VALUES) {
      const m = metaOf(w, a);
      call(arrayPush, out, m);
    }
    return true;
  } catch (e) {
    rethrowTrap(e);
    return false;
  }
}

/**
 * Turns a batch of parse results (`json`, their values in one array) into objects and appends
 * them to `out`. `bytes` is a view of the batch's buffer in wasm memory, valid during this call
 * only, and `ranges` has two numbers per result: where its body is in `bytes`, or NO_RANGE. Those
 * bytes are the core's own copy of the input, checked by it (valid UTF-8, the body's trimmed
 * range): the body is their text, decoded once. False when anything fails.
 */
export function takeResults(json, bytes, ranges, out) {
  try {
    const w = parseJson(json);
    const n = ranges.length >>> 1;
    // The bodies' bytes, copied out of wasm memory once for the batch (when one has a body).
    let copy = null;
    let at = 0;
    for (let i = 0; i < n; i++) {
      // A result's values (result_json.rs): its flags, the skill's values when there is one,
      // then the diagnostics (`0`: none).
      const flags = w[at++];
      let skill = null;
      if ((flags & RESULT_HAS_SKILL) !== 0) {
        skill = skillOf(w, at);
        at += SKILL_VALUES;
      }
      const diagnostics = w[at++];
      // Keys in serde's order, so every result shares one shape.
      const result = { skill, diagnostics: diagnostics === 0 ? [] : diagnostics };
      if ((flags & RESULT_INCOMPLETE) !== 0) result.incomplete = true;
      const start = ranges[2 * i];
      // Bodies are decoded on first read: measured on the corpus, reading every one costs what
      // decoding them all here would, and a caller that reads none pays nothing.
      if (start !== NO_RANGE) lazyBody(skill, (copy ??= copyOf(bytes)), start, ranges[2 * i + 1]);
      call(arrayPush, out, result);
    }
    return at === w.length;
  } catch (e) {
    rethrowTrap(e);
    return false;
  }
}

// The buffer of a copy of `bytes`. A new array filled with `set` costs measurably less than
// `slice` here (about 5% of a parse with bodies on the 10x corpus).
function copyOf(bytes) {
  const copy = new NativeU8(call(taByteLength, bytes));
  call(taSet, copy, bytes, 0);
  return call(taBuffer, copy);
}

/**
 * Makes `skill.body` the text of bytes `start..end` of `buffer` (a copy nobody else holds),
 * decoded when it is first read (see {@link lazyProperty}).
 */
function lazyBody(skill, buffer, start, end) {
  lazyProperty(skill, "body", () => call(tdDecode, bodyDecoder, new NativeU8(buffer, start, end - start)));
}

/**
 * Gives `object` the property `key` whose value `make()` computes when it is first read (then
 * dropped, with what it holds). The property is an own enumerable one where a plain one would be,
 * so JSON.stringify, spread, Object.assign, structuredClone and deep equality see the value; once
 * read (or written), it is a plain data property.
 * @param {object} object
 * @param {string} key
 * @param {() => unknown} make
 */
function lazyProperty(object, key, make) {
  let value;
  let made = false;
  const settle = (v) => {
    try {
      defineProperty(object, key, { value: v, writable: true, enumerable: true, configurable: true });
    } catch {
      // A frozen object keeps the accessor: it still answers the value.
    }
  };
  const take = (v) => {
    value = v;
    made = true;
    make = undefined;
    settle(v);
    return v;
  };
  defineProperty(object, key, {
    get() {
      return made ? value : take(make());
    },
    set(v) {
      take(v);
    },
    enumerable: true,
    configurable: true,
  });
}

const strSplit = String.prototype.split;

/**
 * Gives `object` the list `text` holds one item per line as `key`, split on first read (then a
 * plain property, as serde would have written it): a catalog of 100,000 skills reports nearly all
 * of them dropped, and a host that never reads the list does not pay for 100,000 strings.
 * @param {object} object
 * @param {string} key
 * @param {string} text
 */
export function lazyLines(object, key, text) {
  lazyProperty(object, key, () => call(strSplit, text, "\n"));
}
