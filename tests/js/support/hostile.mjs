// Hostile callers: value generators, outcome classification and the contract every export must
// keep (see tests/js/hostile-*.test.mjs), and the pool that runs cases in worker threads.
//
// Each case runs in a worker thread with its own wasm instance, so a case that traps the instance,
// corrupts it or hangs a synchronous call fails on its own and cannot mask the cases after it. The
// worker (hostile-worker.mjs) calls the export `reps` times, checks every outcome against the
// case's expectation, then calls every export normally and compares with what the same calls gave
// before the case: any difference means the instance was corrupted.
import { Worker } from "node:worker_threads";
import os from "node:os";

export const DEEP = 10_000;
export const DEEPER = 100_000;
export const WIDE = 100_000;
/**
 * Repetitions of a cheap exception path (SKILLWASM_HOSTILE_REPS=3000 for a longer run). An unwind
 * through Rust frames is seen at its first call by the stack pointer check (see below), so the
 * repetitions are there for corruption of other kinds (leaks, state left behind).
 */
export const REPS = Number(process.env.SKILLWASM_HOSTILE_REPS ?? 1000);
/** Repetitions of a call that goes through a store (each is a whole discovery or read). */
export const STORE_REPS = Math.max(1, Math.round(REPS / 10));
/** How long a promise may take to settle (stores in these tests answer or time out in 50 ms). */
export const SETTLE_MS = Number(process.env.SKILLWASM_HOSTILE_SETTLE_MS ?? 2000);
/** `timeoutMs` given to registries over hostile stores. */
export const STORE_TIMEOUT_MS = 50;

// ----------------------------------------------------------------------------------------------
// Generators
// ----------------------------------------------------------------------------------------------

/** What every hostile getter and trap throws, so that a test can tell it from the engine's errors. */
export class HostileError extends Error {
  constructor(where) {
    super(`hostile value threw (${where})`);
    this.name = "HostileError";
  }
}

export function deepArray(depth, leaf = "x") {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

export function deepObject(depth, key = "a", leaf = "x") {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { [key]: v };
  return v;
}

export function wideArray(n, item = (i) => `item-${i}`) {
  return Array.from({ length: n }, (_, i) => item(i));
}

export function wideObject(n, value = (i) => i) {
  const o = {};
  for (let i = 0; i < n; i++) o[`k${i}`] = value(i);
  return o;
}

export function cyclicObject(base = {}) {
  const o = { ...base };
  o.self = o;
  return o;
}

export function cyclicArray(...items) {
  const a = [...items];
  a.push(a);
  return a;
}

/** A copy of `base` whose property `key` is an enumerable getter that throws. */
export function throwingGetter(base, key) {
  const o = Array.isArray(base) ? [...base] : { ...base };
  Object.defineProperty(o, key, {
    enumerable: true,
    configurable: true,
    get() {
      throw new HostileError(`getter ${String(key)}`);
    },
  });
  return o;
}

export const TRAPS = ["get", "ownKeys", "getOwnPropertyDescriptor", "has"];

/** A Proxy over `target` whose `trap` throws (the other traps pass through). */
export function trapProxy(target, trap) {
  return new Proxy(target, {
    [trap]() {
      throw new HostileError(`proxy ${trap} trap`);
    },
  });
}

/** A Proxy over an array (or typed array) whose `length` is `length` (or throws). */
export function lyingLengthProxy(target, length) {
  return new Proxy(target, {
    get(t, k, r) {
      if (k === "length") {
        if (length === "throw") throw new HostileError("proxy length");
        return length;
      }
      return Reflect.get(t, k, r);
    },
  });
}

/** `u8` with an own `length` getter that lies (a number) or throws ("throw"). */
export function lyingLength(u8, length) {
  Object.defineProperty(u8, "length", {
    configurable: true,
    get() {
      if (length === "throw") throw new HostileError("length getter");
      return length;
    },
  });
  return u8;
}

/** A Uint8Array subclass whose methods (subarray, slice, set) throw. */
export function throwingMethodsU8(bytes) {
  class Hostile extends Uint8Array {
    subarray() {
      throw new HostileError("subarray");
    }
    slice() {
      throw new HostileError("slice");
    }
    set() {
      throw new HostileError("set");
    }
  }
  const u = new Hostile(bytes.length);
  Uint8Array.prototype.set.call(u, bytes);
  return u;
}

/** An array whose element `index` is a getter that throws. */
export function throwingIndex(items, index = 0) {
  return throwingGetter(items, index);
}

export const LONE_SURROGATES = ["\uD800", "a\uDC00b", "\uDFFF\uD800z", "name-\uD83D"];

/** Wrong primitive (and near-primitive) types, by label. */
export const WRONG = {
  number: () => 0,
  NaN: () => NaN,
  bigint: () => 1n,
  symbol: () => Symbol("hostile"),
  null: () => null,
  undefined: () => undefined,
  function: () =>
    function hostile() {
      throw new HostileError("called");
    },
  boolean: () => true,
  string: () => "hostile",
  object: () => ({}),
  array: () => [],
};

// ----------------------------------------------------------------------------------------------
// Outcomes
// ----------------------------------------------------------------------------------------------

function isThenable(v) {
  return (typeof v === "object" || typeof v === "function") && v !== null && typeof v.then === "function";
}

/** Waits for `p` at most `ms`: { how: "resolved" | "rejected" | "timeout", value | error }. */
export async function settle(p, ms = SETTLE_MS) {
  let timer;
  const timeout = new Promise((res) => {
    timer = setTimeout(() => res({ how: "timeout", ms }), ms);
  });
  try {
    return await Promise.race([
      Promise.resolve(p).then(
        (value) => ({ how: "resolved", value }),
        (error) => ({ how: "rejected", error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls `fn` and classifies what happened: returned, threw, or (for a promise) how it settled. */
export async function attempt(fn, ms = SETTLE_MS) {
  let ret;
  try {
    ret = fn();
  } catch (error) {
    return { how: "threw", error };
  }
  if (isThenable(ret)) return settle(ret, ms);
  return { how: "returned", value: ret };
}

export function show(v, max = 160) {
  let s;
  try {
    if (typeof v === "string") s = JSON.stringify(v);
    else if (typeof v === "bigint") s = `${v}n`;
    else if (typeof v === "symbol" || typeof v === "function") s = String(v);
    else if (v instanceof Uint8Array) s = `Uint8Array(${v.byteLength})`;
    else s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

export function showError(e) {
  if (e instanceof WebAssembly.RuntimeError) return `a wasm trap (RuntimeError: ${e.message})`;
  if (e instanceof Error) return `${e.name}: ${JSON.stringify(e.message.slice(0, 200))}`;
  return `the non-Error value ${show(e)}`;
}

export function describeOutcome(o) {
  switch (o.how) {
    case "returned":
      return `returned ${show(o.value)}`;
    case "resolved":
      return `resolved to ${show(o.value)}`;
    case "threw":
      return `threw ${showError(o.error)}`;
    case "rejected":
      return `rejected with ${showError(o.error)}`;
    case "timeout":
      return `did not settle within ${o.ms} ms`;
    default:
      return o.how;
  }
}

/** A short key for counting outcomes: "threw TypeError", "resolved", ... */
export function outcomeKey(o) {
  if (o.how === "threw" || o.how === "rejected") {
    const e = o.error;
    const name = e instanceof WebAssembly.RuntimeError ? "wasm trap" : e instanceof Error ? e.name : typeof e;
    return `${o.how} ${name}`;
  }
  return o.how;
}

export function isTrap(o) {
  return (o.how === "threw" || o.how === "rejected") && o.error instanceof WebAssembly.RuntimeError;
}

// ----------------------------------------------------------------------------------------------
// Expectations. Each is { what, test(outcome, async) -> problem string | null }.
// ----------------------------------------------------------------------------------------------

function failed(o, isAsync) {
  // An async entry point reports a programming error by rejecting; a synchronous throw from it
  // breaks `promise.catch(...)` callers, so it counts as a failure.
  if (isAsync && o.how === "threw") return { error: o.error, problem: `threw synchronously instead of rejecting: ${showError(o.error)}` };
  if (o.how === (isAsync ? "rejected" : "threw")) return { error: o.error };
  return null;
}

function names(e, re) {
  return e instanceof Error && re.test(e.message);
}

/** A TypeError (a rejection for async exports) whose message matches `re` (names the parameter). */
export function typeError(re, { rangeOk = false } = {}) {
  const what = `a TypeError${rangeOk ? " (or RangeError)" : ""} naming ${re}`;
  return {
    what,
    test(o, isAsync) {
      const f = failed(o, isAsync);
      if (f?.problem) return f.problem;
      if (!f) return `${describeOutcome(o)}; expected ${isAsync ? "a rejection with " : ""}${what}`;
      const okClass = f.error instanceof TypeError || (rangeOk && f.error instanceof RangeError);
      if (okClass && names(f.error, re)) return null;
      return `${describeOutcome(o)}; expected ${what}`;
    },
  };
}

/**
 * A throwing getter or trap in an argument: the call fails like a programming error, with a
 * TypeError naming the parameter, or by passing the host's own exception on unchanged. What it
 * must not do is let that exception unwind through the engine (checked by the repetitions).
 */
export function typeErrorOrOwn(re) {
  const what = `a TypeError naming ${re}, or the getter's own HostileError`;
  return {
    what,
    test(o, isAsync) {
      const f = failed(o, isAsync);
      if (f?.problem) return f.problem;
      if (!f) return `${describeOutcome(o)}; expected ${isAsync ? "a rejection with " : ""}${what}`;
      if (f.error instanceof HostileError) return null;
      if (f.error instanceof TypeError && names(f.error, re)) return null;
      return `${describeOutcome(o)}; expected ${what}`;
    },
  };
}

/** A normal answer (a value, or for async exports a resolution) that `check` accepts. */
export function value(check, label = "a valid result") {
  return {
    what: label,
    test(o, isAsync) {
      if (isAsync && o.how !== "resolved") return `${describeOutcome(o)}; expected it to resolve to ${label}`;
      if (!isAsync && o.how !== "returned") return `${describeOutcome(o)}; expected it to return ${label}`;
      let p;
      try {
        p = check(o.value);
      } catch (e) {
        p = `the result could not be checked: ${showError(e)}`;
      }
      return p ? `${describeOutcome(o)}; expected ${label}: ${p}` : null;
    },
  };
}

/** Either a normal answer `check` accepts, or a TypeError naming `re` (both are reasonable). */
export function valueOrTypeError(check, re, { rangeOk = false, own = false } = {}) {
  const v = value(check);
  const t = own ? typeErrorOrOwn(re) : typeError(re, { rangeOk });
  return {
    what: `${v.what} or ${t.what}`,
    test(o, isAsync) {
      if (o.how === "returned" || o.how === "resolved") return v.test(o, isAsync);
      const p = t.test(o, isAsync);
      return p ? `${describeOutcome(o)}; expected ${v.what} or ${t.what}` : null;
    },
  };
}

// ----------------------------------------------------------------------------------------------
// The pool (main thread side)
// ----------------------------------------------------------------------------------------------

const WORKER = new URL("./hostile-worker.mjs", import.meta.url);

/**
 * Runs the cases with the given ids in worker threads; returns Map id -> Promise<result>, where
 * result is { problems: string[], counts, ms }. A worker whose instance a case corrupted, or that
 * stopped answering, is replaced before the next case.
 */
export function runCases(cases, { lanes = Math.max(1, Math.min(2, os.availableParallelism?.() ?? 2)) } = {}) {
  const results = new Map();
  const resolvers = new Map();
  for (const c of cases) results.set(c.id, new Promise((res) => resolvers.set(c.id, res)));
  const queue = [...cases];
  // The canary's results are the same in every instance: the first worker computes them, later
  // ones are handed them.
  let baseline = null;
  const spawn = () => {
    const worker = new Worker(WORKER, { workerData: { baseline } });
    const ready = new Promise((res, rej) => {
      worker.once("message", (m) => {
        if (!m.ready) return rej(new Error(`worker did not start: ${m.error}`));
        baseline ??= m.baseline;
        res();
      });
      worker.once("error", rej);
    });
    ready.catch(() => {});
    return { worker, ready };
  };
  async function lane() {
    let current = null;
    while (queue.length > 0) {
      const c = queue.shift();
      if (current === null) {
        current = spawn();
        await current.ready.catch(() => {});
      }
      const { worker: w, ready } = current;
      const result = await new Promise((res) => {
        const limit = c.timeoutMs ?? 30_000;
        const timer = setTimeout(() => {
          cleanup();
          res({ problems: [`hung: the worker gave no answer within ${limit} ms (a synchronous call did not return)`], dead: true });
        }, limit);
        const onMessage = (m) => {
          if (m.id !== c.id) return;
          cleanup();
          res(m);
        };
        const onError = (e) => {
          cleanup();
          res({ problems: [`the worker died: ${showError(e)}`], dead: true });
        };
        const onExit = (code) => {
          cleanup();
          res({ problems: [`the worker exited (code ${code}) during the case`], dead: true });
        };
        const cleanup = () => {
          clearTimeout(timer);
          w.off("message", onMessage);
          w.off("error", onError);
          w.off("exit", onExit);
        };
        w.on("message", onMessage);
        w.on("error", onError);
        w.on("exit", onExit);
        ready.then(
          () => w.postMessage({ run: c.id }),
          (e) => onError(e),
        );
      });
      resolvers.get(c.id)(result);
      if (result.dead || result.healthy === false || c.retire) {
        w.terminate().catch(() => {});
        current = null;
      }
    }
    if (current !== null) await current.worker.terminate().catch(() => {});
  }
  const n = Math.min(lanes, cases.length);
  for (let i = 0; i < n; i++) lane();
  return results;
}

/**
 * Records uncaught exceptions and unhandled rejections of this process, for a final assertion
 * that there were none.
 */
export function recordProcessErrors() {
  const seen = [];
  process.on("uncaughtException", (e) => seen.push(`uncaught exception: ${showError(e)}`));
  process.on("unhandledRejection", (e) => seen.push(`unhandled rejection: ${showError(e)}`));
  return seen;
}

// ----------------------------------------------------------------------------------------------
// The shadow stack pointer
// ----------------------------------------------------------------------------------------------
// Rust code compiled to wasm32 keeps its stack frames in linear memory below a mutable global
// (LLVM's __stack_pointer, always global 0). A function moves it down on entry and back on return;
// a JS exception that unwinds through Rust frames skips the return, so the pointer stays lower by
// those frames' size, and after enough such calls the stack runs into the heap: silently wrong
// results, then "memory access out of bounds". Reading the pointer between calls detects the very
// first unwind. The test copy of the module exports it; the package itself is unchanged.

function readLeb(b, at) {
  let r = 0;
  let shift = 0;
  let x;
  let i = at;
  do {
    x = b[i++];
    r |= (x & 0x7f) << shift;
    shift += 7;
  } while (x & 0x80);
  return [r >>> 0, i];
}

function leb(n) {
  const out = [];
  do {
    let x = n & 0x7f;
    n >>>= 7;
    if (n !== 0) x |= 0x80;
    out.push(x);
  } while (n !== 0);
  return out;
}

export const STACK_POINTER_EXPORT = "__hostile_stack_pointer";

/** The wasm bytes with global 0 (checked to be a mutable i32) also exported as STACK_POINTER_EXPORT. */
export function exportStackPointer(bytes) {
  const b = new Uint8Array(bytes);
  const parts = [b.subarray(0, 8)];
  let i = 8;
  let sawGlobal = false;
  while (i < b.length) {
    const id = b[i];
    const [size, payload] = readLeb(b, i + 1);
    const end = payload + size;
    if (id === 6) {
      const [, g] = readLeb(b, payload);
      if (b[g] !== 0x7f || b[g + 1] !== 1) throw new Error("global 0 of the module is not a mutable i32: no stack pointer to watch");
      sawGlobal = true;
    }
    if (id === 7) {
      const [count, entries] = readLeb(b, payload);
      const name = new TextEncoder().encode(STACK_POINTER_EXPORT);
      const body = [...leb(count + 1), ...b.subarray(entries, end), ...leb(name.length), ...name, 0x03, 0x00];
      parts.push(Uint8Array.of(7, ...leb(body.length), ...body));
    } else {
      parts.push(b.subarray(i, end));
    }
    i = end;
  }
  if (!sawGlobal) throw new Error("the module has no globals: no stack pointer to watch");
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
