// Survival of a dead WebAssembly instance.
//
// A wasm trap (a WebAssembly.RuntimeError: out of memory, `unreachable` after a Rust panic) leaves
// the instance in an unknown state: its shadow stack, allocator and RefCells are wherever the trap
// left them. Every export goes through the guards below, which:
//
// - mark the instance lost when a call (or a callback the engine runs for an async call) throws a
//   WebAssembly.RuntimeError, reject every async call still pending on it, and tell the listeners;
// - replace the instance before the next call (wasm-bindgen's `__wbg_reset_state`, generated with
//   `--experimental-reset-state-function`, instantiates the same module afresh);
// - make objects of a replaced instance (SkillRegistry, SkillTool, ...) throw an
//   InstanceResetError instead of handing stale pointers to the new instance.
//
// The guards are generic over the generated module: every function export, every class's
// constructor, static and prototype methods. They rely on three things the generated glue of the
// pinned wasm-bindgen version does: class instances carry `__wbg_inst` (the instance id they were
// made by, bumped by each reset), callbacks into wasm reach the engine through the `then` and
// `queueMicrotask` imports, and instantiation goes through `new WebAssembly.Instance` (initSync
// and the reset). tests/js/instance-reset.test.mjs pins all three.

/** Thrown by an object of an instance that was replaced, and by async calls the trap cut short. */
export class InstanceResetError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "InstanceResetError";
  }
}

// The id of the live instance. It mirrors the glue's own counter: both start at 0 and every reset
// goes through replace() below.
let generation = 0;
// The RuntimeError that killed the live instance, until replace() swaps it out.
let lost = null;
let losses = 0;
const listeners = new Set();
// Async calls in flight: { reject }.
const pending = new Set();

/**
 * Calls `listener({ error, count })` each time the wasm instance traps: `error` is the
 * WebAssembly.RuntimeError, `count` how many instances have been lost since the package was loaded
 * (this one included). The listener runs when the trap is noticed; the replacement instance is made
 * on the next call of any export. Returns a function that removes the listener.
 *
 * @param {(event: { error: Error; count: number }) => void} listener
 * @returns {() => void}
 */
export function onInstanceReset(listener) {
  if (typeof listener !== "function") throw new TypeError("onInstanceReset: listener must be a function");
  const entry = { listener };
  listeners.add(entry);
  return () => {
    listeners.delete(entry);
  };
}

/** How many wasm instances have been lost to a trap since the package was loaded. */
export function instanceResets() {
  return losses;
}

// Records a trap. True when `error` is one (then the live instance is marked lost, once).
function noteTrap(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return false;
  if (lost !== null) return true;
  lost = error;
  losses += 1;
  const event = { error, count: losses };
  abandon(
    () =>
      new InstanceResetError(
        `the WebAssembly instance trapped (${error}) while this call was pending; the next call uses a new instance`,
        { cause: error },
      ),
  );
  for (const { listener } of [...listeners]) {
    try {
      listener(event);
    } catch (err) {
      // As EventTarget does with a listener that throws: report it, do not let it stop the others.
      queueMicrotask(() => {
        throw err;
      });
    }
  }
  return true;
}

// Rejects every async call in flight (they all belong to the instance being given up: its
// callbacks will be dropped, so nothing else would ever settle them).
function abandon(reason) {
  const entries = [...pending];
  pending.clear();
  for (const entry of entries) entry.reject(reason());
}

function staleError(what) {
  return new InstanceResetError(
    `this ${what} belonged to a WebAssembly instance that was reset after a trap; create it again`,
  );
}

// True for an object made by an instance that is no longer the live one.
function isStale(obj) {
  const inst = obj !== null && typeof obj === "object" ? obj.__wbg_inst : undefined;
  return inst !== undefined && inst !== generation;
}

// The error a failed call throws: a trap is recorded and rethrown as it is; the glue's own
// stale-object check becomes an InstanceResetError naming the class.
function failure(error, self, args) {
  if (noteTrap(error)) return error;
  if (error instanceof Error && /stale object from previous Wasm instance/.test(error.message)) {
    const stale = [self, ...args].find(isStale);
    return staleError(stale?.constructor?.name ?? "object");
  }
  return error;
}

// The promise an async export returns, settled even when the instance dies under it.
function settle(promise) {
  return new Promise((resolve, reject) => {
    const entry = { reject };
    pending.add(entry);
    promise.then(
      (value) => {
        pending.delete(entry);
        resolve(value);
      },
      (error) => {
        pending.delete(entry);
        reject(error);
        noteTrap(error);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Instantiation: every instance is made with guarded imports.
// ---------------------------------------------------------------------------------------------

// Imports through which wasm hands a callback to the engine (promise reactions, the futures queue).
const SCHEDULING_IMPORT = /^__wbg_(then|queueMicrotask)_[0-9a-f]+$/;

// A callback into the instance `gen`, run by the engine. A trap in it is recorded instead of
// becoming an uncaught exception; a callback of an instance that is lost or replaced is dropped
// (its async calls were rejected when the trap was noticed).
function guardCallback(callback, gen) {
  return function guardedCallback(...args) {
    if (gen !== generation || lost !== null) return undefined;
    try {
      return callback.apply(this, args);
    } catch (error) {
      if (noteTrap(error)) return undefined;
      throw error;
    }
  };
}

function guardImports(imports, gen) {
  for (const ns of Object.values(imports)) {
    if (ns === null || typeof ns !== "object") continue;
    for (const [name, fn] of Object.entries(ns)) {
      if (typeof fn !== "function" || !SCHEDULING_IMPORT.test(name)) continue;
      ns[name] = (...args) => fn(...args.map((a) => (typeof a === "function" ? guardCallback(a, gen) : a)));
    }
  }
  return imports;
}

// Runs `instantiate` (initSync or the reset) with `new WebAssembly.Instance` guarding the imports
// of the instance it makes, id `gen`. Synchronous: nothing else runs while the constructor is
// swapped. Where WebAssembly.Instance cannot be replaced, the instance is made unguarded (a trap in
// an async call then still kills the instance, but is not seen until the next trap or reset).
function instantiating(gen, instantiate) {
  const Native = WebAssembly.Instance;
  function Instance(module, imports) {
    return new Native(module, imports === undefined ? imports : guardImports(imports, gen));
  }
  Instance.prototype = Native.prototype;
  try {
    WebAssembly.Instance = Instance;
  } catch {
    return instantiate();
  }
  try {
    return instantiate();
  } finally {
    WebAssembly.Instance = Native;
  }
}

// Swaps the lost instance for a new one.
function replace(glue) {
  // The glue bumps its id first thing, so the counters stay equal even when instantiation throws
  // (then the instance is still lost and the next call tries again).
  generation += 1;
  abandon(() => new InstanceResetError("the WebAssembly instance was replaced while this call was pending"));
  instantiating(generation, glue.__wbg_reset_state);
  lost = null;
}

// ---------------------------------------------------------------------------------------------
// The guards
// ---------------------------------------------------------------------------------------------

function isClass(value) {
  return typeof value === "function" && typeof value.prototype?.__destroy_into_raw === "function";
}

/**
 * The exports of the generated module `glue`, guarded: the same names, with every function, class
 * (constructor, static and prototype methods) and `initSync` going through the instance guards,
 * and `__wbg_reset_state` replacing the instance the guarded way.
 *
 * @param {Record<string, unknown>} glue the namespace of the wasm-bindgen output
 * @returns {Record<string, unknown>}
 */
export function guardModule(glue) {
  if (typeof glue.__wbg_reset_state !== "function") {
    throw new Error("skillwasm: the wasm-bindgen output lacks __wbg_reset_state (build with --experimental-reset-state-function)");
  }

  function guardFunction(fn) {
    return function guarded(...args) {
      if (lost !== null) replace(glue);
      let result;
      try {
        result = fn.apply(this, args);
      } catch (error) {
        throw failure(error, this, args);
      }
      return result instanceof Promise ? settle(result) : result;
    };
  }

  function guardMethod(fn, className) {
    return function guardedMethod(...args) {
      if (lost !== null) replace(glue);
      if (isStale(this)) throw staleError(className);
      let result;
      try {
        result = fn.apply(this, args);
      } catch (error) {
        throw failure(error, this, args);
      }
      return result instanceof Promise ? settle(result) : result;
    };
  }

  function guardClass(C) {
    const proto = C.prototype;
    for (const key of Reflect.ownKeys(proto)) {
      if (key === "constructor" || key === "__destroy_into_raw" || key === "free" || key === Symbol.dispose) continue;
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (typeof d.value === "function") d.value = guardMethod(d.value, C.name);
      if (typeof d.get === "function") d.get = guardMethod(d.get, C.name);
      if (typeof d.set === "function") d.set = guardMethod(d.set, C.name);
      Object.defineProperty(proto, key, d);
    }
    // free() of an object whose instance is gone only detaches it: its memory went with the
    // instance, and the pointer means nothing to the new one.
    const generatedFree = proto.free;
    if (typeof generatedFree === "function") {
      const guardedFree = function free() {
        if (lost !== null || isStale(this)) {
          this.__destroy_into_raw();
          return;
        }
        return generatedFree.call(this);
      };
      proto.free = guardedFree;
      if (Symbol.dispose !== undefined && Object.hasOwn(proto, Symbol.dispose)) proto[Symbol.dispose] = guardedFree;
    }
    for (const key of Reflect.ownKeys(C)) {
      if (key === "prototype" || key === "length" || key === "name" || key === "__wrap") continue;
      const d = Object.getOwnPropertyDescriptor(C, key);
      if (typeof d.value !== "function") continue;
      d.value = guardFunction(d.value);
      Object.defineProperty(C, key, d);
    }
    // The constructor: the same class (instanceof, the glue's own checks and its __wrap keep
    // working), constructed after the instance is live.
    return new Proxy(C, {
      construct(target, args, newTarget) {
        if (lost !== null) replace(glue);
        try {
          return Reflect.construct(target, args, newTarget);
        } catch (error) {
          throw failure(error, undefined, args);
        }
      },
    });
  }

  const out = {};
  for (const [name, value] of Object.entries(glue)) {
    if (name === "default") continue;
    if (name === "__wbg_reset_state") {
      out[name] = function resetState() {
        replace(glue);
      };
    } else if (name === "initSync") {
      out[name] = function initSync(module) {
        return instantiating(generation, () => glue.initSync(module));
      };
    } else if (isClass(value)) {
      out[name] = guardClass(value);
    } else if (typeof value === "function") {
      out[name] = guardFunction(value);
    } else {
      out[name] = value;
    }
  }
  return out;
}
