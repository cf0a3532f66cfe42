// Node entry point (`node` export condition): the wasm is instantiated synchronously at import,
// from the skillwasm_bg.wasm file next to this module. `init()` exists so that code written for
// the browser entry (`await init()`) runs unchanged.
import { readFileSync } from "node:fs";
import { initSync } from "./skillwasm.js";

const bytes = readFileSync(new URL("./skillwasm_bg.wasm", import.meta.url));
initSync({ module: new WebAssembly.Module(bytes) });

export * from "./skillwasm.js";

/** Already initialised at import; resolves immediately. */
export async function init() {}

// Storage adapters (see index.d.ts: SkillStorage).
export { memoryStorage } from "./storage/memory.js";
export { nodeFsStorage } from "./storage/node-fs.js";
export { r2Storage } from "./storage/r2.js";
export { indexedDbStorage, putSkillFiles, deleteKeys } from "./storage/indexeddb.js";
export { DEFAULT_MAX_OBJECT_BYTES, assertKey, assertPrefix } from "./storage/keys.js";

export { aiSdkTool, openAiTool, openAiToolMessage, anthropicTool, anthropicToolResult } from "./tools.js";
export { unzip, ZipError } from "./zip.js";
