// Browser / default entry point. Call `await init()` once before anything else: it fetches
// skillwasm_bg.wasm next to this module, or uses what you pass: a WebAssembly.Module, a Response
// (or a promise of one), a URL or a string URL, or the bytes (ArrayBuffer / typed array), and
// resolves once the core module is instantiated: parsing, discovery, catalogs and the skill tool
// work from then on. The rest of the package, the core's cold code (skillwasm_cold_bg.wasm) and
// the second module (skillwasm_extra_bg.wasm: transcripts, invocation, remote indexes, MCP), is
// fetched in the background after that, from `{ cold }` and `{ extra }` when given (the same kinds
// of input), else from the files next to this module; `await ready()` waits for it. Until it has
// arrived, an async member that needs it waits for it and a synchronous one throws (rest.js); when
// it cannot be had, what needs it throws why, and the rest works.
import { initSync } from "./exports.js";
import { settleExtra } from "./extra.js";
import { provideCold } from "./cold.js";
import { loadingRest } from "./rest.js";

export * from "./exports.js";

let started;

/**
 * Compile the core module and instantiate it, once; later calls return the same promise (their
 * argument is ignored). A failed attempt is forgotten, so init() can be retried. The module is
 * compiled asynchronously (streaming when given a Response); the instance is made synchronously,
 * as a replacement after a trap is. The rest of the package starts loading when it resolves.
 */
export function init(input) {
  if (started === undefined) {
    const options = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input : {};
    started = load(input, "./skillwasm_bg.wasm").then(
      (module) => {
        // Until the cold module has arrived, the guards keep every call but the usual work's from
        // it (rest.js); a rare path of that work which needs it then, or anything once it could
        // not be had, fails as after a trap.
        let cold = { status: "rejected", reason: new Error("it is still loading: `await ready()` first") };
        provideCold(() => {
          if (cold.status === "rejected") throw cold.reason;
          return cold.value;
        });
        initSync({ module });
        // The cold module first (it is the smaller, and the core's own code), then the second.
        const coldLoaded = settled(load(options.cold, "./skillwasm_cold_bg.wasm")).then((outcome) => {
          cold = outcome;
        });
        loadingRest(
          coldLoaded.then(() => settled(load(options.extra, "./skillwasm_extra_bg.wasm"))).then(settleExtra),
          () => cold.status === "fulfilled",
        );
      },
      (err) => {
        started = undefined;
        throw err;
      },
    );
  }
  return started;
}

/** The outcome of `promise`, as Promise.allSettled reports it. */
function settled(promise) {
  return Promise.allSettled([promise]).then(([outcome]) => outcome);
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
