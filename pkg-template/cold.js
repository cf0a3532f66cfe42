// The core module's cold code. `make build` splits the core with binaryen's wasm-split, by a profile
// of the work every host does (parse, discover, render catalogs, answer the skill tool): the
// functions that work never runs live in skillwasm_cold_bg.wasm. In the core, the table slot of
// each of them holds a placeholder, a function the core imports from the namespace "placeholder"
// under the slot's number. The first call of any placeholder instantiates the cold module over the
// core instance (it imports the memory, the tables, globals and functions it needs from the core's
// exports, namespace "primary"); its element segment puts the real functions into those slots, and
// the call goes on through its slot, as every later call does without coming here. Loaded once per
// core instance: a new instance after a trap loads it again when it needs it.

// Bound before instance.js swaps the constructor for the core's own instantiation.
const Instance = WebAssembly.Instance;
const PLACEHOLDERS = "placeholder";
const PRIMARY = "primary";
// The table of JS values wasm-bindgen's glue keeps; the cold module imports it beside the core's
// function table.
const EXTERNREF_TABLE = "__wbindgen_externrefs";

let source = null;
let compiled = null;
let loads = 0;

/** Sets how the cold module is had: a function returning its WebAssembly.Module, synchronously. */
export function provideCold(load) {
  source = load;
}

/** How many times the cold module was instantiated in this realm. */
export function coldLoads() {
  return loads;
}

/**
 * The placeholder imports of a core module, or null for a module that imports none (a core built
 * without the split, or the second module). `imports` joins the module's imports;
 * `bind(instance)` tells the placeholders which instance they belong to, once it is made.
 *
 * When the cold module cannot be had, a placeholder throws a WebAssembly.RuntimeError saying why:
 * the call that needed it unwinds through the core's frames, so the instance is treated as after a
 * trap (replaced before the next call), and the usual work, which never calls it, goes on.
 */
export function coldImports(module) {
  const slots = WebAssembly.Module.imports(module).filter((i) => i.module === PLACEHOLDERS && i.kind === "function");
  if (slots.length === 0) return null;
  let exports = null;
  let table = null;
  const load = () => {
    if (table !== null) return;
    try {
      if (exports === null || source === null) throw new Error("init() has not finished");
      compiled ??= source();
      new Instance(compiled, { [PRIMARY]: exports });
      table = exports[functionTable(compiled)];
    } catch (e) {
      throw new WebAssembly.RuntimeError(`skillwasm: the core module's cold code (skillwasm_cold_bg.wasm) is not available: ${e?.message ?? e}`);
    }
    loads += 1;
  };
  const functions = {};
  for (const { name } of slots) {
    const slot = Number(name);
    functions[name] = (...args) => {
      load();
      return table.get(slot)(...args);
    };
  }
  return {
    imports: { [PLACEHOLDERS]: functions },
    bind(instance) {
      exports = instance.exports;
    },
  };
}

// The name under which the core exports its function table: the one table the cold module imports
// besides the glue's table of JS values.
function functionTable(cold) {
  const tables = WebAssembly.Module.imports(cold).filter((i) => i.module === PRIMARY && i.kind === "table" && i.name !== EXTERNREF_TABLE);
  if (tables.length !== 1) throw new Error(`the cold module imports ${tables.length} function tables, not one`);
  return tables[0].name;
}
