// Browser / default entry point. Call `await init()` once before anything else: it fetches
// skillwasm_bg.wasm next to this module, or uses what you pass: a WebAssembly.Module, a Response
// (or a promise of one), a URL or a string URL, or the bytes (ArrayBuffer / typed array).
import { initSync } from "./exports.js";

export * from "./exports.js";

let ready;

/**
 * Compile the wasm module and instantiate it, once; later calls return the same promise (their
 * argument is ignored). A failed attempt is forgotten, so init() can be retried. The module is
 * compiled asynchronously (streaming when given a Response); the instance is made synchronously,
 * as a replacement after a trap is.
 */
export function init(input) {
  if (ready === undefined) {
    ready = load(input).then(
      (module) => {
        initSync({ module });
      },
      (err) => {
        ready = undefined;
        throw err;
      },
    );
  }
  return ready;
}

async function load(input) {
  let source = input;
  if (source !== undefined && source !== null && Object.getPrototypeOf(source) === Object.prototype && "module_or_path" in source) {
    source = source.module_or_path;
  }
  source = await source;
  if (source === undefined || source === null) source = new URL("./skillwasm_bg.wasm", import.meta.url);
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === "string" || source instanceof URL || (typeof Request === "function" && source instanceof Request)) {
    source = await fetch(source);
  }
  if (typeof Response === "function" && source instanceof Response) {
    if (!source.ok) throw new Error(`failed to fetch Wasm: ${source.status} ${source.statusText} fetching '${source.url}'`);
    if (typeof WebAssembly.compileStreaming === "function") {
      try {
        return await WebAssembly.compileStreaming(source);
      } catch (err) {
        // A server that does not say application/wasm: compile from the bytes instead.
        if (source.bodyUsed || source.headers.get("Content-Type") === "application/wasm") throw err;
      }
    }
    return WebAssembly.compile(await source.arrayBuffer());
  }
  return WebAssembly.compile(source);
}
