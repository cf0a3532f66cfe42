// Browser / default entry point. Call `await init()` once before anything else: it fetches
// skillwasm_bg.wasm next to this module, or uses what you pass: a WebAssembly.Module, a Response
// (or a promise of one), a URL or a string URL, or the bytes (ArrayBuffer / typed array). The
// second module (skillwasm_extra_bg.wasm: transcripts, remote indexes, MCP client checks) is
// compiled at the same time, from `{ extra }` when given (the same kinds of input), else from the
// file next to this module; when it cannot be had, init() still resolves and its functions throw
// why. The core's cold code (skillwasm_cold_bg.wasm, what parsing, discovery, catalogs and the
// skill tool never run) likewise, from `{ cold }` or the file next to this module.
import { initSync } from "./exports.js";
import { settleExtra } from "./extra.js";
import { provideCold } from "./cold.js";

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
    const extraInput = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input.extra : undefined;
    const coldInput = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input.cold : undefined;
    ready = Promise.all([
      load(input, "./skillwasm_bg.wasm"),
      load(coldInput, "./skillwasm_cold_bg.wasm").then(
        (value) => ({ status: "fulfilled", value }),
        (reason) => ({ status: "rejected", reason }),
      ),
      load(extraInput, "./skillwasm_extra_bg.wasm").then(
        (value) => ({ status: "fulfilled", value }),
        (reason) => ({ status: "rejected", reason }),
      ),
    ]).then(
      ([module, coldOutcome, extraOutcome]) => {
        // Like the second module's, a cold module that cannot be fetched fails only what needs it.
        provideCold(() => {
          if (coldOutcome.status === "rejected") throw coldOutcome.reason;
          return coldOutcome.value;
        });
        initSync({ module });
        settleExtra(extraOutcome);
      },
      (err) => {
        ready = undefined;
        throw err;
      },
    );
  }
  return ready;
}

async function load(input, file) {
  let source = input;
  if (source !== undefined && source !== null && Object.getPrototypeOf(source) === Object.prototype) {
    source = source.module_or_path;
  }
  source = await source;
  if (source === undefined || source === null) {
    // Spelled out for bundlers, which copy the files a `new URL(literal, import.meta.url)` names.
    source =
      file === "./skillwasm_bg.wasm"
        ? new URL("./skillwasm_bg.wasm", import.meta.url)
        : file === "./skillwasm_cold_bg.wasm"
          ? new URL("./skillwasm_cold_bg.wasm", import.meta.url)
          : new URL("./skillwasm_extra_bg.wasm", import.meta.url);
  }
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
