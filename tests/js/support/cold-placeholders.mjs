// Instantiating the package's core glue directly (as the hostile suites do, to watch the stack
// pointer): the split core imports the placeholders of its cold code, which the package adds in
// instance.js when it instantiates the core. `withColdPlaceholders(instantiate)` adds them the same
// way (cold.js's coldImports) for the `new WebAssembly.Instance` calls `instantiate` makes.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG } from "../helpers.mjs";

const { coldImports } = await import(pathToFileURL(path.join(PKG, "cold.js")).href);

/** Runs `instantiate()` with the cold code's placeholders joined to the imports of every instance it makes. */
export function withColdPlaceholders(instantiate) {
  const Native = WebAssembly.Instance;
  function Instance(module, imports) {
    const cold = coldImports(module);
    const instance = new Native(module, cold === null ? imports : { ...imports, ...cold.imports });
    cold?.bind(instance);
    return instance;
  }
  Instance.prototype = Native.prototype;
  WebAssembly.Instance = Instance;
  try {
    return instantiate();
  } finally {
    WebAssembly.Instance = Native;
  }
}
