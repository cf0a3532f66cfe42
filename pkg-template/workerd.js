// Cloudflare Workers entry point (`workerd` export condition): workerd and wrangler import a
// .wasm file as a compiled WebAssembly.Module (no fetch, no eval), so it is instantiated at import.
import wasmModule from "./skillwasm_bg.wasm";
import { initSync } from "./skillwasm.js";

initSync({ module: wasmModule });

export * from "./skillwasm.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}

// Storage adapters (see index.d.ts: SkillStorage). nodeFsStorage is in the node entry only.
export { memoryStorage } from "./storage/memory.js";
export { r2Storage } from "./storage/r2.js";
export { indexedDbStorage, putSkillFiles, deleteKeys } from "./storage/indexeddb.js";
export { DEFAULT_MAX_OBJECT_BYTES, assertKey, assertPrefix } from "./storage/keys.js";

export { aiSdkTool, openAiTool, openAiToolMessage, anthropicTool, anthropicToolResult } from "./tools.js";
export { unzip, ZipError } from "./zip.js";
