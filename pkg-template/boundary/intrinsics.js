// What every reader of the boundary shares: the intrinsics it reads values through, taken when
// the module loads (a value's own `length`, `subarray` or `set`, which a subclass or a Proxy may
// redefine, is never used), strings made well-formed, a thrown value described without throwing,
// and a trap of the wasm instance told apart from data.

export const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
export const taTag = getter(TypedArrayProto, Symbol.toStringTag);
export const taByteLength = getter(TypedArrayProto, "byteLength");
export const taByteOffset = getter(TypedArrayProto, "byteOffset");
export const taBuffer = getter(TypedArrayProto, "buffer");
export const taLength = getter(TypedArrayProto, "length");
export const taSet = TypedArrayProto.set;
export const abByteLength = getter(ArrayBuffer.prototype, "byteLength");
export const call = Function.prototype.call.bind(Function.prototype.call);
export const isArray = Array.isArray;
export const keysOf = Object.keys;
export const stringify = JSON.stringify;
export const NativeU8 = Uint8Array;
export const NativeU32 = Uint32Array;
export const NativePromise = Promise;
const toWellFormed = String.prototype.toWellFormed;
const isWellFormed = String.prototype.isWellFormed;
/** A lone surrogate (global: `replace` takes every one). */
export const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const RuntimeError = typeof WebAssembly === "object" ? WebAssembly.RuntimeError : undefined;

/** `s` with every lone surrogate replaced by U+FFFD (what UTF-8 encoding does anyway). */
export function wellFormed(s) {
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
export function rethrowTrap(e) {
  if (RuntimeError !== undefined && e instanceof RuntimeError) throw e;
}

/** A short description of a thrown value; never throws. */
export function describe(e) {
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
