// Bounded reading of a caller's values: any value as JSON text within bounds of depth, values
// and characters, read once with an explicit stack ({@link boundedJson}), and bytes read through
// the intrinsic typed-array getters ({@link boundedBytes}).

import {
  abByteLength, call, describe, isArray, isWellFormedString, keysOf, LONE, NativeU8, rethrowTrap, stringify, taBuffer,
  taByteLength, taByteOffset, taLength, taTag, wellFormed,
} from "./intrinsics.js";

class Bound {
  constructor(kind, message) {
    this.kind = kind;
    this.message = message;
  }
}

// Path of the position `stack` describes, as JS would write it: `.scopes[0].roots`.
function pathOf(stack, key) {
  let p = "";
  const segment = (k) => {
    p += typeof k === "number" ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${stringify(wellFormed(k))}]`;
  };
  const n = stack.length;
  for (let i = 1; i < Math.min(n, 7); i++) segment(stack[i].at);
  if (n > 7) p += "…";
  if (key !== undefined) segment(key);
  return p;
}

/**
 * The JSON text of `root`, read once with an explicit stack (so depth costs no native stack):
 * `"J" + text`, or `"E" + kind + "|" + path + "|" + message` where kind is `d` (deeper than
 * `maxDepth`), `n` (more than `maxNodes` values or `maxChars` characters), `t` (a value JSON has
 * no form for: a bigint) or `x` (a getter, trap or toJSON threw).
 *
 * JSON's rules otherwise: own enumerable string keys; `toJSON` is honoured; properties that are
 * undefined, functions or symbols are left out (null inside arrays); NaN and infinities are null;
 * lone surrogates become U+FFFD. A value that contains itself is cut there: the inner reference
 * reads as null (a host object with a back-reference under a key the engine ignores still works;
 * under a key it reads, null is the wrong type). `holes` lists dotted paths (`*` for any key or index) whose
 * values are not read but handed back as `[path, value]` pairs pushed to `taken` (stores and
 * callbacks inside options). A path written `!path` is instead one whose strings must be
 * well-formed (kind `t` otherwise: keys and roots), and `~path` one whose lone surrogates become
 * U+0000, which no key may hold (so the engine refuses that key and keeps the rest). The hole
 * `?` marks a caller's options: a function or symbol property outside the holes is then kind `t`
 * (named by its path), never silently left out.
 */
export function boundedJson(root, maxDepth, maxNodes, maxChars, holes, taken) {
  const out = [];
  let chars = 0;
  let nodes = 0;
  const stack = [];
  const open = new Set();
  const split = (prefix) => {
    const list = holes.filter((h) => (prefix === "" ? h[0] !== "!" && h[0] !== "~" : h[0] === prefix));
    return list.length > 0 ? list.map((h) => (prefix === "" ? h : h.slice(1)).split(".")) : null;
  };
  // "?" among the holes: the value is a caller's options, where a function or symbol outside
  // the holes is refused (JSON would leave it out, and a misspelt callback would do nothing).
  const options = holes.includes("?");
  if (options) holes = holes.filter((h) => h !== "?");
  const patterns = split("");
  const strict = split("!");
  const marked = split("~");
  const matches = (list, segs) => list.some((p) => p.length === segs.length && p.every((s, i) => s === "*" || s === segs[i]));
  const segsAt = (at) => {
    const segs = [];
    for (let i = 1; i < stack.length; i++) segs.push(String(stack[i].at));
    if (at !== null) segs.push(String(at));
    return segs;
  };
  const put = (s) => {
    chars += s.length;
    if (chars > maxChars) throw new Bound("n", `more than ${maxChars} characters of JSON`);
    out.push(s);
  };
  // Whether a pattern names the position of `key` in the open container, compared segment by
  // segment against the stack (no array made per key: pages have thousands of entries).
  const here = (p, key) => {
    if (p.length !== stack.length) return false;
    for (let i = 0; i < p.length; i++) {
      if (p[i] !== "*" && p[i] !== String(i + 1 < stack.length ? stack[i + 1].at : key)) return false;
    }
    return true;
  };
  const hole = (key) => {
    if (patterns === null || stack.length > 4) return null;
    return patterns.some((p) => here(p, key)) ? segsAt(key).join(".") : null;
  };
  const text = (v, at) => {
    if ((strict === null && marked === null) || isWellFormedString(v)) return wellFormed(v);
    const segs = segsAt(at);
    if (strict !== null && matches(strict, segs)) throw new Bound("t", "a lone surrogate, which no key or root can hold");
    if (marked !== null && matches(marked, segs)) return v.replace(LONE, "\u0000");
    return wellFormed(v);
  };
  // Writes a value; a container is opened (pushed) and written by the loop below.
  const write = (v, at) => {
    if (++nodes > maxNodes) throw new Bound("n", `more than ${maxNodes} values`);
    switch (typeof v) {
      case "string":
        put(stringify(text(v, at)));
        return;
      case "number":
        put(Number.isFinite(v) ? stringify(v) : "null");
        return;
      case "boolean":
        put(v ? "true" : "false");
        return;
      case "bigint":
        throw new Bound("t", "a bigint has no JSON form");
      case "undefined":
      case "function":
      case "symbol":
        put("null");
        return;
      default:
        break;
    }
    if (v === null) {
      put("null");
      return;
    }
    if (stack.length >= maxDepth) throw new Bound("d", `nested deeper than ${maxDepth} levels`);
    if (open.has(v)) {
      put("null");
      return;
    }
    const budget = maxNodes - nodes;
    if (isArray(v)) {
      const n = v.length;
      if (typeof n !== "number" || !(n >= 0) || n % 1 !== 0) throw new Bound("t", "an array without a valid length");
      if (n > budget) throw new Bound("n", `an array of ${n} items, more than ${maxNodes} values`);
      put("[");
      stack.push({ v, at, array: true, n, i: 0, keys: null, written: 0 });
    } else {
      if (call(taTag, v) !== undefined && call(taLength, v) > budget) {
        throw new Bound("n", `a typed array of more than ${maxNodes} values`);
      }
      const keys = keysOf(v);
      if (keys.length > budget) throw new Bound("n", `an object of ${keys.length} keys, more than ${maxNodes} values`);
      put("{");
      stack.push({ v, at, array: false, n: keys.length, i: 0, keys, written: 0 });
    }
    open.add(v);
  };
  const prepare = (v, key) => {
    if (v !== null && typeof v === "object") {
      const toJSON = v.toJSON;
      if (typeof toJSON === "function") return call(toJSON, v, String(key));
    }
    return v;
  };
  let key;
  try {
    write(prepare(root, ""), null);
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i >= f.n) {
        put(f.array ? "]" : "}");
        open.delete(f.v);
        stack.pop();
        key = undefined;
        continue;
      }
      key = f.array ? f.i : f.keys[f.i];
      f.i += 1;
      if (f.array) {
        if (f.written++ > 0) put(",");
        write(prepare(f.v[key], key), key);
        continue;
      }
      const taken_at = hole(key);
      if (taken_at !== null) {
        taken.push([taken_at, f.v[key]]);
        continue;
      }
      const item = prepare(f.v[key], key);
      if (options && (typeof item === "function" || typeof item === "symbol")) {
        throw new Bound("t", `a ${typeof item} is no value this option takes (an unknown option, or one that takes data)`);
      }
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      put(`${f.written++ > 0 ? "," : ""}${stringify(wellFormed(key))}:`);
      write(item, key);
    }
    return `J${out.join("")}`;
  } catch (e) {
    rethrowTrap(e);
    const where = pathOf(stack, key);
    if (e instanceof Bound) return `E${e.kind}|${where}|${e.message}`;
    return `Ex|${where}|reading it threw: ${describe(e)}`;
  }
}

/**
 * Bytes of a string, Uint8Array (Node's Buffer included) or ArrayBuffer, read through the
 * intrinsic getters: the string itself when its length is at most `max` (UTF-8 may take up to 3
 * bytes per unit: Rust checks again), a fresh Uint8Array view of at most `max` bytes, the length
 * (a number) when it is above `max`, or null for any other value. With `strict` (store answers),
 * a Uint8Array whose own `length` disagrees with its bytes is refused: `[why]`.
 */
export function boundedBytes(v, max, strict) {
  try {
    if (typeof v === "string") return v.length > max ? v.length : v;
    if (v === null || (typeof v !== "object" && typeof v !== "function")) return null;
    if (call(taTag, v) === "Uint8Array") {
      const n = call(taByteLength, v);
      if (strict) {
        // A store's answer must be what it says it is: a `length` that lies (or throws) is refused.
        let claimed;
        try {
          claimed = v.length;
        } catch (e) {
          rethrowTrap(e);
          return [`a Uint8Array whose length getter throws (${describe(e)})`];
        }
        if (claimed !== n) return [`a Uint8Array whose length says ${typeof claimed === "number" ? claimed : describe(claimed)} but holds ${n} bytes`];
      }
      if (n > max) return n;
      // A detached buffer reads as empty.
      if (n === 0) return new NativeU8(0);
      return new NativeU8(call(taBuffer, v), call(taByteOffset, v), n);
    }
    if (call(taTag, v) !== undefined) return null;
    let n;
    try {
      n = call(abByteLength, v);
    } catch {
      return null;
    }
    if (n > max) return n;
    return n === 0 ? new NativeU8(0) : new NativeU8(v, 0, n);
  } catch (e) {
    rethrowTrap(e);
    return null;
  }
}

/** -1 when `v` is no string, else its length in UTF-16 units (never reads anything). */
export function stringLength(v) {
  return typeof v === "string" ? v.length : -1;
}
