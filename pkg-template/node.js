// Node entry point (`node` export condition): the core wasm module is instantiated synchronously at
// import, from the skillwasm_bg.wasm file next to this module; the second module
// (skillwasm_extra_bg.wasm: transcripts, remote indexes, MCP client checks) synchronously on the
// first call of one of its functions. `init()` exists so that code written for the browser entry
// (`await init()`) runs unchanged.
import { readFileSync } from "node:fs";
import { initSync } from "./exports.js";
import { provideExtra } from "./extra.js";
import { provideCold } from "./cold.js";

// The core's cold code first: the core module may call it from its start.
provideCold(() => new WebAssembly.Module(readFileSync(new URL("./skillwasm_cold_bg.wasm", import.meta.url))));
initSync({ module: new WebAssembly.Module(readFileSync(new URL("./skillwasm_bg.wasm", import.meta.url))) });
provideExtra(() => new WebAssembly.Module(readFileSync(new URL("./skillwasm_extra_bg.wasm", import.meta.url))));

export * from "./exports.js";
export { nodeFsStorage } from "./storage/node-fs.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}
