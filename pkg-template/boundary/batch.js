// The items of a parseSkills batch: read once ({@link batchItems}, {@link batchPlan}), their bytes
// kept and copied straight into the core's buffer ({@link batchFill}), then let go
// ({@link batchDone}).

import {
  abByteLength, call, describe, isArray, NativeU8, rethrowTrap, stringify, taBuffer, taByteLength, taByteOffset, taSet,
  taTag, wellFormed,
} from "./intrinsics.js";
import { boundedBytes } from "./values.js";

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
// wasm/src/boundary/convert.rs): `batchPlan` reads every item once and keeps the bytes it found;
// `batchFill` copies a run of them straight into the core's buffer. Nothing of the caller's runs between the two calls.
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
