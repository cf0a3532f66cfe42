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
// The package has two modules (the core, and a second one for what only some hosts use: see
// extra.js), each guarded by its own guardModule() with an instance state of its own.
//
// The guards are generic over the generated module: every function export, every class's
// constructor, static and prototype methods. They rely on three things the generated glue of the
// pinned wasm-bindgen version does: class instances carry `__wbg_inst` (the instance id they were
// made by, bumped by each reset), callbacks into wasm reach the engine through the `then` and
// `queueMicrotask` imports, and instantiation goes through `new WebAssembly.Instance` (initSync
// and the reset). tests/js/instance-reset.test.mjs pins all three.

import { coldImports } from "./cold.js";

/**
 * A message as Error would turn it into text, except that a symbol (which Error refuses) is named
 * and a value too deep to convert (a nested array) is not recursed into until the stack overflows.
 * @param {unknown} message
 */
export function messageText(message) {
  if (message === undefined || typeof message === "string") return message;
  if (typeof message === "symbol") return String(message);
  try {
    return String(message);
  } catch (e) {
    if (e instanceof RangeError) return "(a message that cannot be converted to text)";
    throw e;
  }
}

/** Thrown by an object of an instance that was replaced, and by async calls the trap cut short. */
export class InstanceResetError extends Error {
  constructor(message, options) {
    super(messageText(message), options);
    this.name = "InstanceResetError";
  }
}

// Losses of every instance (the core module's and the second module's), and who is told of them.
let losses = 0;
const listeners = new Set();

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

function staleError(what) {
  return new InstanceResetError(
    `this ${what} belonged to a WebAssembly instance that was reset after a trap; create it again`,
  );
}

// SkillRegistry -> registry: the name the parameters of that class go by.
function paramName(className) {
  const bare = className.replace(/^Skill(?=[A-Z])/, "");
  return bare.charAt(0).toLowerCase() + bare.slice(1);
}

// The members that return a promise: a wrong argument rejects it instead of throwing (callers
// that only attach `.catch` see every failure).
const ASYNC_MEMBERS = new Set([
  "SkillRegistry.discover",
  "SkillRegistry#readFile",
  "SkillRegistry#readScopedFile",
  "SkillRegistry#refresh",
  "SkillRegistry#contentDigest",
  "SkillRegistry#lockfile",
  "SkillRegistry#vet",
  "SkillRegistry#listLazyScopes",
  "SkillTool#execute",
  "SkillTool#executeCall",
  "SkillTool#invoke",
  "SkillTool#subagentPrompt",
  "SkillTool#subagentPlan",
  "SkillTool#reattach",
  "SkillsMcp#listSkills",
  "SkillsMcp#getSkill",
  "SkillsMcp#readResource",
  "SkillsMcp#readDirectory",
  "__sw_publishServed",
]);

// The name each class is exported under. Messages and the tables above name classes by it, never
// by `C.name`: a minifier renames classes (Vite's and esbuild's output calls SkillTool `dA`), but
// not the names a module exports.
const classNames = new WeakMap();

/** The name the package exports class `C` (or the guard around it) under. */
export function className(C) {
  return classNames.get(C) ?? "object";
}

// Objects of the module's classes must be live: a freed one (or an object made from a prototype,
// with no Rust value behind it) would hand wasm a null pointer, which the glue answers by throwing
// through Rust frames. Checked here, before the call.
export function checkLive(classes, value, what, role) {
  if (value === null || typeof value !== "object") return;
  for (const C of classes) {
    if (value instanceof C) {
      const ptr = value.__wbg_ptr;
      if (typeof ptr !== "number" || ptr === 0) {
        throw new TypeError(`${what}: ${role} is a ${className(C)} that was freed or never made by the package`);
      }
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Instantiation: every instance is made with guarded imports.
// ---------------------------------------------------------------------------------------------

// Imports through which wasm hands a callback to the engine (promise reactions, the futures queue).
const SCHEDULING_IMPORT = /^__wbg_(then|queueMicrotask)_[0-9a-f]+$/;

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
 * @param {{ ensure?: (what: string, isAsync: boolean) => Promise<void> | undefined }} [options]
 *   `ensure` runs before every call (and construction) of member `what`: it may throw, or return a
 *   promise the call waits for (only an async member's)
 * @returns {Record<string, unknown>}
 */
export function guardModule(glue, options) {
  if (typeof glue.__wbg_reset_state !== "function") {
    throw new Error("skillwasm: the wasm-bindgen output lacks __wbg_reset_state (build with --experimental-reset-state-function)");
  }

  const classes = Object.values(glue).filter(isClass);
  // Runs before every call: the second module is instantiated on first use (see extra.js); in
  // browsers, a call that needs what is still loading waits for it or throws (see rest.js).
  const ensure = typeof options?.ensure === "function" ? options.ensure : () => undefined;

  // The state of this module's instance. Each module of the package (the core and the second one)
  // has an instance of its own, lost and replaced on its own (objects of the core module never
  // cross into the second one, so a trap in one leaves the other's objects alive); the listeners
  // and the count of losses are shared.
  // The id of the live instance. It mirrors the glue's own counter: both start at 0 and every reset
  // goes through replace() below.
  let generation = 0;
  // The RuntimeError that killed the live instance, until replace() swaps it out.
  let lost = null;
  // Async calls in flight: { reject }.
  const pending = new Set();

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

  // True for an object made by an instance that is no longer the live one.
  function isStale(obj) {
    const inst = obj !== null && typeof obj === "object" ? obj.__wbg_inst : undefined;
    return inst !== undefined && inst !== generation;
  }

  // The error a failed call throws: a trap is recorded and rethrown as it is; the glue's own
  // stale-object check becomes an InstanceResetError naming the class, and its class check a
  // TypeError (like every other wrong argument).
  function failure(error, self, args, what) {
    if (noteTrap(error)) return error;
    if (error instanceof Error && /stale object from previous Wasm instance/.test(error.message)) {
      const stale = [self, ...args].find(isStale);
      return staleError(stale === undefined ? "object" : className(stale.constructor));
    }
    const expected = error instanceof Error && !(error instanceof TypeError) ? /^expected instance of (\w+)$/.exec(error.message) : null;
    if (expected !== null) return new TypeError(`${what}: expected a ${expected[1]} (the ${paramName(expected[1])} argument)`);
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
      const guarded = imports === undefined ? imports : guardImports(imports, gen);
      // The core's cold code is loaded over the instance in use, by the placeholders it imports
      // (see cold.js).
      const cold = coldImports(module);
      const instance = new Native(module, cold === null ? guarded : { ...guarded, ...cold.imports });
      cold?.bind(instance);
      return instance;
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


  // Runs `call`; for an async member a synchronous failure becomes a rejection.
  function run(what, call) {
    if (!ASYNC_MEMBERS.has(what)) {
      const result = call();
      return result instanceof Promise ? settle(result) : result;
    }
    let result;
    try {
      result = call();
    } catch (error) {
      return Promise.reject(error);
    }
    return result instanceof Promise ? settle(result) : result;
  }

  function guardFunction(fn, what) {
    return function guarded(...args) {
      return run(what, () => {
        const waiting = ensure(what, ASYNC_MEMBERS.has(what));
        if (waiting !== undefined) return waiting.then(() => guarded.apply(this, args));
        if (lost !== null) replace(glue);
        args.forEach((a, i) => checkLive(classes, a, what, `argument ${i + 1}`));
        try {
          return fn.apply(this, args);
        } catch (error) {
          throw failure(error, this, args, what);
        }
      });
    };
  }

  function guardMethod(fn, C, name, key) {
    const what = `${name}#${String(key)}`;
    return function guardedMethod(...args) {
      return run(what, () => {
        const waiting = ensure(what, ASYNC_MEMBERS.has(what));
        if (waiting !== undefined) return waiting.then(() => guardedMethod.apply(this, args));
        if (lost !== null) replace(glue);
        if (!(this instanceof C)) throw new TypeError(`${what}: this is not a ${name}`);
        if (isStale(this)) throw staleError(name);
        checkLive(classes, this, what, "this");
        args.forEach((a, i) => checkLive(classes, a, what, `argument ${i + 1}`));
        try {
          return fn.apply(this, args);
        } catch (error) {
          throw failure(error, this, args, what);
        }
      });
    };
  }

  function guardClass(C, name) {
    classNames.set(C, name);
    const proto = C.prototype;
    for (const key of Reflect.ownKeys(proto)) {
      if (key === "constructor" || key === "__destroy_into_raw" || key === "free" || key === Symbol.dispose) continue;
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (typeof d.value === "function") d.value = guardMethod(d.value, C, name, key);
      if (typeof d.get === "function") d.get = guardMethod(d.get, C, name, key);
      if (typeof d.set === "function") d.set = guardMethod(d.set, C, name, key);
      Object.defineProperty(proto, key, d);
    }
    // free() of an object whose instance is gone only detaches it: its memory went with the
    // instance, and the pointer means nothing to the new one.
    const generatedFree = proto.free;
    if (typeof generatedFree === "function") {
      const guardedFree = function free() {
        if (!(this instanceof C)) throw new TypeError(`${name}#free: this is not a ${name}`);
        if (lost !== null || isStale(this)) {
          this.__destroy_into_raw();
          return;
        }
        checkLive(classes, this, `${name}#free`, "this");
        return generatedFree.call(this);
      };
      proto.free = guardedFree;
      if (Symbol.dispose !== undefined && Object.hasOwn(proto, Symbol.dispose)) proto[Symbol.dispose] = guardedFree;
    }
    for (const key of Reflect.ownKeys(C)) {
      if (key === "prototype" || key === "length" || key === "name" || key === "__wrap") continue;
      const d = Object.getOwnPropertyDescriptor(C, key);
      if (typeof d.value !== "function") continue;
      d.value = guardFunction(d.value, `${name}.${String(key)}`);
      Object.defineProperty(C, key, d);
    }
    // The constructor: the same class (instanceof, the glue's own checks and its __wrap keep
    // working), constructed after the instance is live. A class whose Rust side has no constructor
    // is made only by the package (discover, ...): the glue's class then has no constructor of its
    // own, so `new` makes an object with no Rust value behind it, which is refused here. Decided by
    // what construction made, not by reading the class's source, which minifiers rewrite.
    const guarded = new Proxy(C, {
      construct(target, args, newTarget) {
        ensure(`new ${name}`, false);
        if (lost !== null) replace(glue);
        args.forEach((a, i) => checkLive(classes, a, `new ${name}`, `argument ${i + 1}`));
        let made;
        try {
          made = Reflect.construct(target, args, newTarget);
        } catch (error) {
          throw failure(error, undefined, args, `new ${name}`);
        }
        if (typeof made.__wbg_ptr !== "number" || made.__wbg_ptr === 0) {
          throw new TypeError(`${name} has no public constructor: use its static methods`);
        }
        return made;
      },
    });
    classNames.set(guarded, name);
    return guarded;
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
      out[name] = guardClass(value, name);
    } else if (typeof value === "function") {
      out[name] = guardFunction(value, name);
    } else {
      out[name] = value;
    }
  }
  return out;
}
