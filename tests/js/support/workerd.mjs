// Starts workerd (through miniflare) with a real R2 binding and a Worker that imports r2Storage
// from the built package's workerd entry (pkg/workerd.js, which also instantiates the wasm as a
// CompiledWasm module the way Workers do). Returns a SkillStorage proxy that calls the Worker.
// `startWorker({ script })` runs another Worker script (in this directory, or an absolute path)
// the same way, e.g. the registry Worker; `post(path, body)` calls any of its routes. `support`
// names more modules of this directory for the Worker to import, as "./__test_<name>".
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { PKG, assertBuilt } from "../helpers.mjs";

const SUPPORT = path.dirname(fileURLToPath(import.meta.url));

/** esbuild's options for a Worker bundled as wrangler bundles one (the `workerd` conditions). */
export const WORKER_BUILD = Object.freeze({
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  conditions: ["workerd", "worker"],
  write: false,
  logLevel: "silent",
});

/**
 * The modules of a Worker running `script` (a file of this directory, or an absolute path) with
 * the built package beside it, as Miniflare takes them (`modulesRoot: PKG`).
 */
export function packageModules(script, support = []) {
  const source = path.resolve(SUPPORT, script);
  const modules = [
    // The test Worker is placed beside the package files so that "./workerd.js" resolves.
    { type: "ESModule", path: path.join(PKG, `__test_${path.basename(script, ".js")}.js`), contents: readFileSync(source, "utf8") },
    { type: "CompiledWasm", path: path.join(PKG, "skillwasm_bg.wasm") },
    { type: "CompiledWasm", path: path.join(PKG, "skillwasm_extra_bg.wasm") },
    { type: "CompiledWasm", path: path.join(PKG, "skillwasm_cold_bg.wasm") },
    ...support.map((f) => ({ type: "ESModule", path: path.join(PKG, `__test_${f}`), contents: readFileSync(path.join(SUPPORT, f), "utf8") })),
  ];
  // The package's own modules, as a Worker bundle would have them (Node- and CLI-only ones left out).
  for (const f of readdirSync(PKG).sort()) {
    if (f.endsWith(".js") && !["node.js", "cli.js", "browser.js"].includes(f) && !f.startsWith("__test_")) {
      modules.push({ type: "ESModule", path: path.join(PKG, f) });
    }
  }
  // And those of its folders: the storage adapters, and the files boundary.js is made of.
  for (const dir of ["storage", "boundary"]) {
    for (const f of readdirSync(path.join(PKG, dir)).sort()) {
      if (f.endsWith(".js") && f !== "node-fs.js") modules.push({ type: "ESModule", path: path.join(PKG, dir, f) });
    }
  }
  return modules;
}

export async function startWorker({ script = "r2-worker.js", support = [] } = {}) {
  assertBuilt();
  const mf = new Miniflare({
    modules: packageModules(script, support),
    modulesRoot: PKG,
    compatibilityDate: "2025-01-01",
    r2Buckets: ["SKILLS"],
  });
  await mf.ready;
  const bucket = await mf.getR2Bucket("SKILLS");

  async function post(pathname, body) {
    const res = await mf.dispatchFetch(`http://worker${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });
    if (res.status !== 200) throw new Error(`worker ${pathname}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  function unwrap(reply) {
    if (reply.error) {
      const e = new Error(reply.error.message);
      e.name = reply.error.name;
      if (reply.error.code !== undefined) e.code = reply.error.code;
      throw e;
    }
    return reply.ok;
  }

  /**
   * A SkillStorage in this process whose calls run r2Storage inside the Worker, made there with
   * `{ prefix: root, ...options }`.
   */
  function storage(root = "", options = {}) {
    return {
      async list(prefix, opts) {
        return unwrap(await post("/list", { root, options, prefix, opts }));
      },
      async read(key, opts) {
        const r = unwrap(await post("/read", { root, options, key, opts }));
        if (r === null) return null;
        if (r.type !== "[object Uint8Array]") throw new Error(`the adapter returned ${r.type}, not a Uint8Array`);
        return new Uint8Array(Buffer.from(r.base64, "base64"));
      },
    };
  }

  return {
    mf,
    bucket,
    post,
    storage,
    counts: () => post("/counts"),
    resetCounts: () => post("/reset"),
    seed: (prefix, count, size) => post("/seed", { prefix, count, size }),
    version: async () => (await mf.dispatchFetch("http://worker/version")).text(),
    dispose: () => mf.dispose(),
  };
}
