// Node entry point (`node` export condition): the wasm is instantiated synchronously at import,
// from the skillwasm_bg.wasm file next to this module. `init()` exists so that code written for
// the browser entry (`await init()`) runs unchanged.
import { readFileSync } from "node:fs";
import { initSync } from "./exports.js";

initSync({ module: new WebAssembly.Module(readFileSync(new URL("./skillwasm_bg.wasm", import.meta.url))) });

export * from "./exports.js";
export { nodeFsStorage } from "./storage/node-fs.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}
