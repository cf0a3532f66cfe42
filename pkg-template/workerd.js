// Cloudflare Workers entry point (`workerd` export condition): workerd and wrangler import a
// .wasm file as a compiled WebAssembly.Module (no fetch, no eval), so the core module is
// instantiated at import, and the second module (skillwasm_extra_bg.wasm) on the first call of
// one of its functions.
import wasmModule from "./skillwasm_bg.wasm";
import extraModule from "./skillwasm_extra_bg.wasm";
import coldModule from "./skillwasm_cold_bg.wasm";
import { initSync } from "./exports.js";
import { provideExtra } from "./extra.js";
import { provideCold } from "./cold.js";

provideCold(() => coldModule);
initSync({ module: wasmModule });
provideExtra(() => extraModule);

export * from "./exports.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}
