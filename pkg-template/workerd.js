// Cloudflare Workers entry point (`workerd` export condition): workerd and wrangler import a
// .wasm file as a compiled WebAssembly.Module (no fetch, no eval), so it is instantiated at import.
import wasmModule from "./skillwasm_bg.wasm";
import { initSync } from "./exports.js";

initSync({ module: wasmModule });

export * from "./exports.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}
