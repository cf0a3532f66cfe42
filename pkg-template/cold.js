// The core module's cold code: the functions the work every host does (parse, discover, render
// catalogs, answer the skill tool) never runs live in skillwasm_cold_bg.wasm (see cold-split/ in
// the repository). The core module calls loadColdCode on the first call of one of them; it
// instantiates the cold module over the core instance's memory, tables, globals and functions, so
// both run on one state, and the cold module puts its functions into the core's table. Loaded once
// per core instance (a new instance after a trap loads it again when it needs it).

let source = null;
let compiled = null;
// The core instances made in this realm: a stub sets its instance's `__sw_cold_calling` while
// it calls the loader, which is how the loader tells them apart. Weakly held where WeakRef exists;
// elsewhere (workerd without it) the last few, strongly.
const Weak = typeof WeakRef === "function" ? WeakRef : null;
const STRONG_KEPT = 4;
let cores = [];
let loads = 0;

/** Sets how the cold module is had: a function returning its WebAssembly.Module, synchronously. */
export function provideCold(load) {
  source = load;
}

/** Registers the exports of a core instance (instance.js calls it for each one it makes). */
export function coreInstantiated(exports) {
  if (exports === null || typeof exports !== "object" || !("__sw_cold_calling" in exports)) return;
  cores = cores.filter((ref) => {
    const known = ref.deref();
    return known !== undefined && known !== exports;
  });
  cores.push(Weak ? new Weak(exports) : { deref: () => exports });
  if (!Weak && cores.length > STRONG_KEPT) cores = cores.slice(-STRONG_KEPT);
}

/** How many times the cold module was instantiated in this realm. */
export function coldLoads() {
  return loads;
}

/**
 * Called by the core module (imported through boundary.js); synchronous. When the cold module
 * cannot be had, it throws a WebAssembly.RuntimeError saying why: the call that needed it unwinds
 * through the core's frames, so the instance is treated as after a trap (replaced before the next
 * call), and the usual work, which never calls it, goes on.
 */
export function loadColdCode() {
  const core = cores.map((ref) => ref.deref()).find((e) => e !== undefined && e.__sw_cold_calling.value === 1);
  try {
    if (core === undefined || source === null) throw new Error("init() has not finished");
    compiled ??= source();
    new WebAssembly.Instance(compiled, { __sw_core: core });
  } catch (e) {
    throw new WebAssembly.RuntimeError(`skillwasm: the core module's cold code (skillwasm_cold_bg.wasm) is not available: ${e?.message ?? e}`);
  }
  core.__sw_cold_loaded.value = 1;
  loads += 1;
}
