// Types shared by every entry point (node, workerd, browser): the generated wasm-bindgen
// declarations plus `init`.
export * from "./skillwasm.js";
import type { InitInput } from "./skillwasm.js";

/**
 * Make the wasm module ready. In Node and Cloudflare Workers the module is instantiated at import
 * and this resolves immediately. In browsers it fetches `skillwasm_bg.wasm` next to the package's
 * JS, or instantiates what you pass: a `WebAssembly.Module`, a `Response`, a URL, or the bytes.
 * Calling it again returns the same promise.
 */
export function init(
  input?: InitInput | Promise<InitInput> | { module_or_path: InitInput | Promise<InitInput> },
): Promise<void>;
