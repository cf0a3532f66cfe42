// Browser / default entry point. Call `await init()` once before anything else: it fetches
// skillwasm_bg.wasm next to this module, or uses what you pass: a WebAssembly.Module, a Response
// (or a promise of one), a URL or a string URL, or the bytes (ArrayBuffer / typed array).
import wbgInit from "./skillwasm.js";

export * from "./skillwasm.js";

let ready;

/**
 * Instantiate the wasm module once; later calls return the same promise (their argument is
 * ignored). A failed attempt is forgotten, so init() can be retried.
 */
export function init(input) {
  if (ready === undefined) {
    let arg;
    if (input === undefined || input === null) {
      arg = undefined;
    } else if (Object.getPrototypeOf(input) === Object.prototype && "module_or_path" in input) {
      arg = input;
    } else {
      arg = { module_or_path: input };
    }
    ready = wbgInit(arg).then(
      () => undefined,
      (err) => {
        ready = undefined;
        throw err;
      },
    );
  }
  return ready;
}

// Storage adapters (see index.d.ts: SkillStorage). nodeFsStorage is in the node entry only.
export { memoryStorage } from "./storage/memory.js";
export { r2Storage } from "./storage/r2.js";
export { indexedDbStorage, putSkillFiles, deleteKeys } from "./storage/indexeddb.js";
export { DEFAULT_MAX_OBJECT_BYTES, assertKey, assertPrefix } from "./storage/keys.js";

export { aiSdkTool, openAiTool, openAiToolMessage, anthropicTool, anthropicToolResult } from "./tools.js";
export { unzip, ZipError } from "./zip.js";
