// A store's listing pages of the usual shape, read in one loop: as JSON text ({@link pageJson})
// and as lines ({@link pageLines}, {@link pageLinesUtf8}, {@link packedLines}), which Rust splits
// without a JSON parse. Anything else is null, and the caller reads the page the general way.

import { isArray, isWellFormedString, keysOf, LONE, rethrowTrap, stringify, wellFormed } from "./intrinsics.js";

/**
 * The keys of a listing page the engine reads on its own (wasm/src/core_module/page_lines.rs: `version` and
 * `unchanged`), left out of the text {@link pageJson} and {@link pageLines} write.
 */
const readApart = (k) => k === "version" || k === "unchanged";

/**
 * The JSON text of a store's listing page, for the common shape only, or null (then the caller
 * reads it with {@link boundedJson}, which gives the same text for that shape and says what is
 * wrong with any other). The shape: a page whose own keys are `entries` (an array), `cursor` (a
 * string, null or undefined), `warnings` (an array of `{ key, message }` strings), and `version`
 * and `unchanged` (left out of the text: the engine reads them on its own), at most `maxNodes`
 * values in all; each entry a non-array object whose own keys are `key` (a string),
 * `size` (a number), `etag` and `digest` (strings) and, with `heads`, `head` (handed back unread as
 * `["entries.<i>.head", value]` pushed to `taken`) and `headError` (a string or null); nothing
 * with a `toJSON`. A key's lone surrogates become U+0000 (as boundedJson's `~entries.*.key`),
 * other strings' become U+FFFD. A getter or trap that throws, and anything unexpected, is null:
 * the page is then read again the general way. A listing of thousands of entries is one loop
 * here, not one generic step per value.
 */
export function pageJson(page, maxNodes, maxChars, heads, taken) {
  try {
    if (page === null || typeof page !== "object" || isArray(page) || page.toJSON !== undefined) return null;
    let entries = null;
    let cursor;
    let warnings;
    for (const k of keysOf(page)) {
      if (k === "entries") entries = page.entries;
      else if (k === "cursor") cursor = page.cursor;
      else if (k === "warnings") warnings = page.warnings;
      else if (!readApart(k)) return null;
    }
    if (!isArray(entries) || !(entries.length <= maxNodes)) return null;
    const out = [];
    let chars = 0;
    // Values as boundedJson counts them: the page, its arrays, each object and each value written.
    let nodes = 2;
    const str = (v) => {
      const t = stringify(wellFormed(v));
      chars += t.length;
      return t;
    };
    const found = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e === null || typeof e !== "object" || isArray(e) || e.toJSON !== undefined) return null;
      let text = "{";
      for (const k of keysOf(e)) {
        const v = e[k];
        if (v === undefined) continue;
        if (k === "head" && heads) {
          found.push([`entries.${i}.head`, v]);
          continue;
        }
        if (text.length > 1) text += ",";
        nodes += 1;
        if (k === "key" && typeof v === "string") {
          const t = stringify(isWellFormedString(v) ? v : v.replace(LONE, "\u0000"));
          chars += t.length;
          text += `"key":${t}`;
        } else if (k === "size" && typeof v === "number") {
          text += `"size":${Number.isFinite(v) ? stringify(v) : "null"}`;
        } else if ((k === "etag" || k === "digest") && typeof v === "string") {
          text += `"${k}":${str(v)}`;
        } else if (k === "headError" && heads && (typeof v === "string" || v === null)) {
          text += `"headError":${v === null ? "null" : str(v)}`;
        } else {
          return null;
        }
      }
      chars += text.length;
      nodes += 1;
      if (chars > maxChars || nodes > maxNodes) return null;
      out.push(`${text}}`);
    }
    let rest = "";
    if (typeof cursor === "string") rest += `,"cursor":${str(cursor)}`;
    else if (cursor === null) rest += `,"cursor":null`;
    else if (cursor !== undefined) return null;
    if (warnings !== undefined) {
      if (!isArray(warnings) || !(warnings.length <= maxNodes)) return null;
      nodes += 1 + warnings.length;
      const list = [];
      for (let i = 0; i < warnings.length; i++) {
        const w = warnings[i];
        if (w === null || typeof w !== "object" || isArray(w) || w.toJSON !== undefined) return null;
        let text = "{";
        for (const k of keysOf(w)) {
          const v = w[k];
          if (v === undefined) continue;
          if ((k !== "key" && k !== "message") || typeof v !== "string") return null;
          text += `${text.length > 1 ? "," : ""}"${k}":${str(v)}`;
          nodes += 1;
        }
        list.push(`${text}}`);
      }
      rest += `,"warnings":[${list.join(",")}]`;
    }
    if (cursor !== undefined) nodes += 1;
    if (chars > maxChars || nodes > maxNodes) return null;
    for (const pair of found) taken.push(pair);
    return `{"entries":[${out.join(",")}]${rest}}`;
  } catch (e) {
    rethrowTrap(e);
    return null;
  }
}

/**
 * A store's listing page as lines, for the usual shape only, or null (then the caller reads it
 * with {@link pageJson}). The text: a first line that is `=` and the cursor, or empty when there
 * is none; then one line per entry, `key\tsize\tetag`, then `\tsha256:<hex>` for a `digest`
 * and `\t!message` for a `headError` (size and etag empty when absent; a digest that does not
 * start with `sha256:` is null, a malformed one the engine drops). The shape: a page whose own keys are `entries`
 * (an array of at most `maxEntries`), `cursor` (a string, null or undefined), `warnings` (only
 * undefined), and `version` and `unchanged` (left out: the engine reads them on its own); each entry a non-array object whose own keys are `key` (a string), `size` (a
 * non-negative safe integer, or null, undefined, a negative or a non-finite number for none),
 * `etag` (a non-empty string or undefined), `digest` and, with `heads`, `head` (handed back unread as
 * `["entries.<i>.head", value]` pushed to `taken`) and `headError` (a string or null); no line
 * feed in any string and no tab but in a head error, at most `maxChars` units in all, nothing with a `toJSON`. A key's lone
 * surrogates become U+0000, other strings' U+FFFD, as in pageJson. Anything else, and a getter or
 * trap that throws, is null. One string per page, which Rust splits without a JSON parse.
 */
export function pageLines(page, maxEntries, maxChars, heads, taken) {
  try {
    if (page === null || typeof page !== "object" || isArray(page) || page.toJSON !== undefined) return null;
    let entries = null;
    let cursor;
    for (const k of keysOf(page)) {
      if (k === "entries") entries = page.entries;
      else if (k === "cursor") cursor = page.cursor;
      else if (readApart(k)) continue;
      else if (k !== "warnings" || page.warnings !== undefined) return null;
    }
    if (!isArray(entries) || !(entries.length <= maxEntries)) return null;
    let text = "";
    if (typeof cursor === "string") {
      if (!plainField(cursor)) return null;
      text = `=${wellFormed(cursor)}`;
    } else if (cursor !== null && cursor !== undefined) return null;
    let chars = text.length;
    const found = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e === null || typeof e !== "object" || isArray(e) || e.toJSON !== undefined) return null;
      let key = null;
      let size = "";
      let etag = "";
      let digest = "";
      let error = "";
      for (const k of keysOf(e)) {
        const v = e[k];
        if (v === undefined) continue;
        if (k === "key" && typeof v === "string") {
          key = isWellFormedString(v) ? v : v.replace(LONE, "\u0000");
        } else if (k === "size" && (typeof v === "number" || v === null)) {
          if (v === null || !(v >= 0) || v === Infinity) size = "";
          else if (Number.isSafeInteger(v)) size = `${v}`;
          else return null;
        } else if (k === "etag" && typeof v === "string" && v !== "") {
          etag = wellFormed(v);
        } else if (k === "digest" && typeof v === "string" && v.startsWith(SHA256) && plainField(v)) {
          digest = `\t${wellFormed(v)}`;
        } else if (k === "head" && heads) {
          found.push([`entries.${i}.head`, v]);
        } else if (k === "headError" && heads && (typeof v === "string" || v === null)) {
          error = v === null ? "" : `\t!${wellFormed(v)}`;
        } else {
          return null;
        }
      }
      // A head error is the line's last field: a tab in it is its own.
      if (key === null || !plainField(key) || !plainField(etag) || error.includes("\n")) return null;
      const line = `\n${key}\t${size}\t${etag}${digest}${error}`;
      chars += line.length;
      if (chars > maxChars) return null;
      text += line;
    }
    for (const pair of found) taken.push(pair);
    return text;
  } catch (e) {
    rethrowTrap(e);
    return null;
  }
}

/**
 * {@link pageLines} as UTF-8 bytes, or null: the engine copies bytes into its memory in one call,
 * where a string would cross one UTF-16 unit at a time.
 */
export function pageLinesUtf8(page, maxEntries, maxChars, heads, taken) {
  const text = pageLines(page, maxEntries, maxChars, heads, taken);
  return text === null ? null : utf8.encode(text);
}

const utf8 = new TextEncoder();

/**
 * How a listed object's SHA-256 starts, which tells the engine that a line's fourth field is a
 * digest, not a head: {@link pageLines} carries a digest that starts so and holds no separator,
 * and the engine drops one that is not `sha256:<64 lowercase hex>` (store/lines.rs), as it does
 * in JSON. A digest of another start: the page is read as JSON.
 */
const SHA256 = "sha256:";

/** Whether `s` holds no tab and no line feed, the separators of {@link pageLines}. */
function plainField(s) {
  return !s.includes("\t") && !s.includes("\n");
}

/**
 * The `lines` of a packed listing page as UTF-8 bytes, when it is a string of at most `max` UTF-16
 * units, with each lone surrogate made U+0000 (which the key check refuses, as {@link pageJson}
 * does for keys), or null for anything else.
 */
export function packedLines(v, max) {
  if (typeof v !== "string" || v.length > max) return null;
  return utf8.encode(isWellFormedString(v) ? v : v.replace(LONE, "\u0000"));
}
