// The boundary's reading side, imported by the wasm glue (wasm-boundary/src/convert.rs). Every
// value a caller hands the engine (options, tool input, transcripts, store answers, batch items)
// is read here, once, before any Rust state is touched: getters, Proxy traps, toJSON and thenables
// run inside try/catch, so no JS exception ever unwinds through a Rust frame. What comes back to Rust
// is JSON text or a tagged error (for data), a fresh Uint8Array view read through the intrinsic
// typed-array getters (for bytes), or a promise that always settles (for store calls).
//
// The bounds (depth, nodes, characters, bytes) are passed in by Rust, which documents them. No
// skill logic lives here: only reading values safely.

// Intrinsics, taken when the module loads: a value's own `length`, `subarray` or `set` (which a
// subclass or a Proxy may redefine) is never used.
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
const taTag = getter(TypedArrayProto, Symbol.toStringTag);
const taByteLength = getter(TypedArrayProto, "byteLength");
const taByteOffset = getter(TypedArrayProto, "byteOffset");
const taBuffer = getter(TypedArrayProto, "buffer");
const taLength = getter(TypedArrayProto, "length");
const abByteLength = getter(ArrayBuffer.prototype, "byteLength");
const call = Function.prototype.call.bind(Function.prototype.call);
const isArray = Array.isArray;
const keysOf = Object.keys;
const stringify = JSON.stringify;
const NativeU8 = Uint8Array;
const NativeU32 = Uint32Array;
const NativePromise = Promise;
const toWellFormed = String.prototype.toWellFormed;
const isWellFormed = String.prototype.isWellFormed;
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const RuntimeError = typeof WebAssembly === "object" ? WebAssembly.RuntimeError : undefined;
const tdDecode = TextDecoder.prototype.decode;
// Bodies the core checked (valid UTF-8): decoded as they are, a leading U+FEFF kept.
const bodyDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** `s` with every lone surrogate replaced by U+FFFD (what UTF-8 encoding does anyway). */
function wellFormed(s) {
  if (typeof toWellFormed === "function") return call(toWellFormed, s);
  return s.replace(LONE, "\uFFFD");
}

/** Whether `s` has no lone surrogate. */
export function isWellFormedString(s) {
  if (typeof isWellFormed === "function") return call(isWellFormed, s);
  LONE.lastIndex = 0;
  return !LONE.test(s);
}

// A trap of a wasm instance (ours, re-entered from a getter) is not data: the instance is gone,
// and the package's guard must see it.
function rethrowTrap(e) {
  if (RuntimeError !== undefined && e instanceof RuntimeError) throw e;
}

/** A short description of a thrown value; never throws. */
function describe(e) {
  try {
    if (e instanceof Error) {
      const name = typeof e.name === "string" ? e.name : "Error";
      const message = typeof e.message === "string" ? e.message : "";
      return clip(message || name);
    }
    if (typeof e === "string") return clip(stringify(wellFormed(e)));
    if (e === null) return "null";
    return `a ${typeof e}`;
  } catch {
    return "a value that cannot be described";
  }
}

function clip(s) {
  return wellFormed(s.length > 200 ? `${s.slice(0, 200)}…` : s);
}

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
 * The keys of a listing page the engine reads on its own (wasm/src/page_lines.rs: `version` and
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
 * and `\t!message` for a `headError` (size and etag empty when absent; a digest of another form
 * is null). The shape: a page whose own keys are `entries`
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
        } else if (k === "digest" && typeof v === "string" && DIGEST.test(v)) {
          digest = `\t${v}`;
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

/** A listed object's SHA-256 as {@link pageLines} carries it (any other form: the page is read as JSON, which drops it). */
const DIGEST = /^sha256:[0-9a-f]{64}$/;

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

/**
 * Calls a store's `fn` on `self` and waits for the answer at most `ms` milliseconds. Answers
 * `[0, answer]` or `[1, what went wrong]` at once when the store answered synchronously (threw, or
 * returned no thenable); otherwise a promise that always resolves (never rejects, never stays
 * pending), to `[0, answer]`, `[1, what went wrong]` or `[2]` (no answer in time). A thenable is read the way `await` reads it: a `then` getter that
 * throws is a rejection, a second resolution is ignored.
 */
export function callStore(fn, self, a, b, ms) {
  let ret;
  try {
    ret = call(fn, self, a, b);
  } catch (e) {
    rethrowTrap(e);
    return [1, `threw: ${describe(e)}`];
  }
  // An answer that is no thenable is settled now: the pair itself, no promise and no timer (a
  // store whose calls complete synchronously costs no event-loop turn per call). `then` is read
  // once, as `await` reads it; a getter that throws is a rejection.
  if (ret === null || (typeof ret !== "object" && typeof ret !== "function")) return [0, ret];
  let then;
  try {
    then = ret.then;
  } catch (e) {
    rethrowTrap(e);
    return [1, `rejected: ${describe(e)}`];
  }
  if (typeof then !== "function") return [0, ret];
  return new NativePromise((resolve) => {
    let done = false;
    let timer;
    const finish = (r) => {
      if (done) return;
      done = true;
      if (timer !== undefined) {
        try {
          clearTimeout(timer);
        } catch {
          // No timers here: nothing to clear.
        }
      }
      resolve(r);
    };
    try {
      timer = setTimeout(() => finish([2]), ms);
    } catch {
      // No timers in this runtime: the store's own answer is awaited.
    }
    new NativePromise((res) => res(ret)).then(
      (v) => finish([0, v]),
      (e) => finish([1, `rejected: ${describe(e)}`]),
    );
  });
}

/** A caught exception as text, for errors Rust reports (never throws). */
export function describeError(e) {
  return describe(e);
}

function isArrayBuffer(v) {
  try {
    call(abByteLength, v);
    return true;
  } catch {
    return false;
  }
}

/**
 * The items of a parseSkills batch: an error message (a string) when `inputs` is no array or
 * claims more than `maxItems` items, else an array of `[input, dirName]` (an item given as
 * `{ input, dirName }` is unwrapped) or `[undefined, undefined, message]` for an item that cannot
 * be read. Item values are handed back unread: Rust reads them with boundedBytes.
 */
export function batchItems(inputs, maxItems) {
  try {
    if (!isArray(inputs)) return "must be an array";
    const n = inputs.length;
    if (typeof n !== "number" || !(n >= 0) || n % 1 !== 0) return "has no valid length";
    if (n > maxItems) return `claims ${n} items, more than the ${maxItems} a batch may hold`;
    const out = [];
    for (let i = 0; i < n; i++) {
      try {
        const item = inputs[i];
        if (item === null || typeof item !== "object" || call(taTag, item) !== undefined) {
          out.push([item, undefined]);
          continue;
        }
        // `input` first: the ArrayBuffer check throws (and so costs) for every other object, so
        // it is made only for an object without one.
        const input = item.input;
        if (input === undefined && isArrayBuffer(item)) {
          out.push([item, undefined]);
          continue;
        }
        const dirName = item.dirName;
        if (dirName !== undefined && dirName !== null && typeof dirName !== "string") {
          out.push([undefined, undefined, `its dirName is a ${typeof dirName}, not a string`]);
        } else {
          out.push([input, dirName ?? undefined]);
        }
      } catch (e) {
        rethrowTrap(e);
        out.push([undefined, undefined, `reading it threw: ${describe(e)}`]);
      }
    }
    return out;
  } catch (e) {
    rethrowTrap(e);
    return `cannot be read: reading it threw: ${describe(e)}`;
  }
}

// A parseSkills batch crosses into wasm memory in one copy (`skill_batch` in
// wasm-boundary/src/convert.rs): `batchPlan` reads every item once and keeps the bytes it found;
// `batchFill` copies a run of them straight into the core's buffer. Nothing of the caller's runs between the two calls.
const taSet = TypedArrayProto.set;
const encoder = new TextEncoder();
// Item kinds, as convert.rs reads them.
const KIND_BYTES = 0;
const KIND_TOO_LARGE = 1;
const KIND_NOT_BYTES = 2;
const KIND_LYING = 3;
const KIND_UNREADABLE = 4;
let planned = null;

/**
 * Reads the items of a parseSkills batch (see {@link batchItems} and {@link boundedBytes}, whose
 * rules these are): an error message (a string) when `inputs` as a whole cannot be read, else
 * `[info, texts]`: `info` a Float64Array of two numbers per item, its kind and its size in bytes
 * (or the length that is above `max`), and `texts` the JSON text of an array with one string or
 * null per item: its dirName, or for an item that cannot be used, why. A string input is encoded
 * to UTF-8 here. The bytes are kept for {@link batchFill} until the next plan.
 */
export function batchPlan(inputs, maxItems, max) {
  planned = null;
  const items = batchItems(inputs, maxItems);
  if (typeof items === "string") return items;
  try {
    const n = items.length;
    const info = new Float64Array(2 * n);
    const texts = new Array(n);
    const views = new Array(n);
    for (let i = 0; i < n; i++) {
      const [input, dirName, problem] = items[i];
      let kind = KIND_BYTES;
      let size = 0;
      let text = dirName === undefined ? null : wellFormed(dirName);
      if (problem !== undefined) {
        kind = KIND_UNREADABLE;
        text = problem;
      } else {
        let got = boundedBytes(input, max, true);
        if (typeof got === "string") got = encoder.encode(got);
        if (got === null) {
          kind = KIND_NOT_BYTES;
        } else if (typeof got === "number") {
          kind = KIND_TOO_LARGE;
          size = got;
        } else if (isArray(got)) {
          kind = KIND_LYING;
          text = String(got[0]);
        } else {
          size = call(taByteLength, got);
          if (size > max) kind = KIND_TOO_LARGE;
          else views[i] = got;
        }
      }
      info[2 * i] = kind;
      info[2 * i + 1] = size;
      texts[i] = text;
    }
    planned = views;
    return [info, stringify(texts)];
  } catch (e) {
    rethrowTrap(e);
    return `cannot be read: reading it threw: ${describe(e)}`;
  }
}

/**
 * Copies the planned items `from..to` (those with bytes) into `dst`, one after the other, each
 * cut to its first `prefix` bytes when `prefix` is above 0. False when there is no such plan.
 */
export function batchFill(dst, from, to, prefix) {
  try {
    if (planned === null || to > planned.length) return false;
    let at = 0;
    for (let i = from; i < to; i++) {
      const v = planned[i];
      if (v === undefined) continue;
      const n = call(taByteLength, v);
      const take = prefix > 0 && n > prefix ? prefix : n;
      call(taSet, dst, take === n ? v : new NativeU8(call(taBuffer, v), call(taByteOffset, v), take), at);
      at += take;
    }
    return true;
  } catch (e) {
    rethrowTrap(e);
    return false;
  }
}

/** Lets the planned items go. */
export function batchDone() {
  planned = null;
}

// Parse results (wasm-boundary/src/parsed.rs): a batch of them arrives as one JSON text, one flat
// array of every result's values in the order parse/src/parse/result_json.rs writes them.
const parseJson = JSON.parse;
const defineProperty = Object.defineProperty;
const arrayPush = Array.prototype.push;
// A result with no body range.
const NO_RANGE = 0xffffffff;
// How many values a skill takes (result_json.rs's SKILL_VALUES).
const SKILL_VALUES = 16;

// Skills' metadata (wasm-boundary/src/metas.rs): a list arrives as JSON texts, each one flat
// array of every meta's values in the order src/discover/metas_json.rs writes them.
// How many values a meta takes (metas_json.rs's META_VALUES).
const META_VALUES = SKILL_VALUES + 7;

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
      const m = skillOf(w, a);
      const b = a + SKILL_VALUES;
      m.scope = w[b];
      m.location = w[b + 1];
      m.path = w[b + 2];
      m.directory = w[b + 3];
      m.diagnostics = w[b + 4] === 0 ? [] : w[b + 4];
      if (w[b + 5] !== null) m.shadowedBy = w[b + 5];
      if (w[b + 6] !== null) m.digest = w[b + 6];
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
      // A result's values (result_json.rs): flags (1: a skill, 2: incomplete), the skill's
      // values when there is one, then the diagnostics (`0`: none).
      const flags = w[at++];
      let skill = null;
      if ((flags & 1) !== 0) {
        skill = skillOf(w, at);
        at += SKILL_VALUES;
      }
      const diagnostics = w[at++];
      // Keys in serde's order, so every result shares one shape.
      const result = { skill, diagnostics: diagnostics === 0 ? [] : diagnostics };
      if ((flags & 2) !== 0) result.incomplete = true;
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

// The skill whose values start at `w[a]`, as the object serde would write (result_json.rs): `0`
// is an empty map or list, `null` an absent optional field. Built key by key in serde's order, so
// the keys come out in that order and every skill shares one shape.
function skillOf(w, a) {
  const s = { name: w[a], description: w[a + 1], localizedDescriptions: w[a + 2] === 0 ? {} : w[a + 2] };
  if (w[a + 3] !== null) s.license = w[a + 3];
  if (w[a + 4] !== null) s.compatibility = w[a + 4];
  s.metadata = w[a + 5] === 0 ? {} : w[a + 5];
  s.metadataStructured = w[a + 6] === 0 ? {} : w[a + 6];
  s.allowedTools = w[a + 7] === 0 ? [] : w[a + 7];
  if (w[a + 8] !== null) s.argumentHint = w[a + 8];
  if (w[a + 9] !== null) s.minTier = w[a + 9];
  s.disableModelInvocation = (w[a + 10] & 1) !== 0;
  s.userInvocable = (w[a + 10] & 2) !== 0;
  if (w[a + 11] !== null) s.context = w[a + 11];
  if (w[a + 12] !== null) s.agent = w[a + 12];
  s.extra = w[a + 13] === 0 ? {} : w[a + 13];
  if (w[a + 14] !== null) s.body = w[a + 14];
  if (w[a + 15] !== null) s.bodyLine = w[a + 15];
  return s;
}

/**
 * Makes `skill.body` the text of bytes `start..end` of `buffer` (a copy nobody else holds),
 * decoded when it is first read. The property is an own enumerable one where the plain `body` was,
 * so JSON.stringify, spread, Object.assign, structuredClone and deep equality see the text; once
 * read (or written), it is a plain data property.
 */
function lazyBody(skill, buffer, start, end) {
  let text;
  const settle = (value) => {
    try {
      defineProperty(skill, "body", { value, writable: true, enumerable: true, configurable: true });
    } catch {
      // A frozen skill keeps the accessor: it still answers the text.
    }
  };
  defineProperty(skill, "body", {
    get() {
      if (text === undefined) {
        text = call(tdDecode, bodyDecoder, new NativeU8(buffer, start, end - start));
        buffer = undefined;
      }
      settle(text);
      return text;
    },
    set(value) {
      text = value;
      buffer = undefined;
      settle(value);
    },
    enumerable: true,
    configurable: true,
  });
}

// What the core module asks of the package's second module, which extra.js installs here:
// frontmatter beyond the core's fast path (YAML outside its subset, sloppy YAML to repair: serde_yaml
// and the repairs are there), and where a skill's body asks for commands when the host gave a
// runner. A call that throws is caught on the Rust side and becomes that file's (or body's)
// diagnostic.
const secondModule = { readFrontmatter: null, findCommands: null };

function installed(name) {
  const f = secondModule[name];
  if (f === null) throw new Error(`the second module's ${name} is not installed`);
  return f;
}

/**
 * Installs the function readFrontmatter calls: (text, firstLine, strict, invalid) -> the second
 * module's answer (bytes).
 * @param {(text: string, firstLine: number, strict: boolean, invalid: boolean) => Uint8Array} read
 */
export function setFrontmatterReader(read) {
  secondModule.readFrontmatter = read;
}

/**
 * Installs the function findCommands calls: (body) -> the second module's spans (four numbers
 * each, see wasm/src/commands.rs).
 * @param {(body: string) => Uint32Array} find
 */
export function setCommandFinder(find) {
  secondModule.findCommands = find;
}

/**
 * The second module's answer for frontmatter `text` whose first line is file line `firstLine`
 * (see wasm/src/beyond.rs); throws when no reader is installed.
 */
export function readFrontmatter(text, firstLine, strict, invalid) {
  return installed("readFrontmatter")(text, firstLine, strict, invalid);
}

/**
 * The second module's spans of the commands in `body`, a fresh Uint32Array copied by its own
 * length (the glue sizes the copy into wasm memory by `length`, which an object may lie about);
 * throws when no finder is installed or it answers anything else, or more numbers than a body of
 * this length can have spans for (each span takes at least four characters).
 */
export function findCommands(body) {
  const spans = installed("findCommands")(body);
  if (call(taTag, spans) !== "Uint32Array") throw new TypeError("the command finder did not answer a Uint32Array");
  if (call(taLength, spans) > body.length + 1) throw new RangeError("the command finder answered more spans than the body holds");
  return new NativeU32(spans);
}

// The core module loads its cold code through this import (see cold.js).
export { loadColdCode } from "./cold.js";
