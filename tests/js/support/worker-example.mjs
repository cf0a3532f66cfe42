// Runs examples/cloudflare-worker in workerd (through miniflare) with a real R2 binding persisted
// to a directory, so that a second instance over the same directory is a restarted Worker.
//
// The Worker's source is bundled unchanged by esbuild, as wrangler does (see modules()).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { PKG, ROOT, assertBuilt } from "../helpers.mjs";
import { WORKER_BUILD } from "./workerd.mjs";

export const EXAMPLE = path.join(ROOT, "examples", "cloudflare-worker");
export const WORKER_SOURCE = path.join(EXAMPLE, "src", "index.js");

/** The Worker's own modules: its main module first, then the others in src/. */
export function workerSources() {
  const src = path.dirname(WORKER_SOURCE);
  const others = readdirSync(src).filter((f) => f.endsWith(".js") && f !== "index.js").sort();
  return [WORKER_SOURCE, ...others.map((f) => path.join(src, f))];
}

/** The package files a Worker bundle holds: [{ path, type }]. */
export function packageFiles() {
  const files = ["skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"].map((f) => ({ path: path.join(PKG, f), type: "CompiledWasm" }));
  for (const f of readdirSync(PKG).sort()) {
    if (f.endsWith(".js") && !["node.js", "cli.js", "browser.js"].includes(f) && !f.startsWith("__test_")) {
      files.push({ path: path.join(PKG, f), type: "ESModule" });
    }
  }
  // And those of its folders: the storage adapters, and the files boundary.js is made of.
  for (const dir of ["storage", "boundary"]) {
    for (const f of readdirSync(path.join(PKG, dir)).sort()) {
      if (f.endsWith(".js") && f !== "node-fs.js") files.push({ path: path.join(PKG, dir, f), type: "ESModule" });
    }
  }
  return files;
}

/**
 * The Worker as wrangler deploys it: one module bundled by esbuild from the unchanged source, its
 * bare imports resolved as wrangler resolves them ("skillwasm" through the package's `workerd`
 * condition, "skillwasm/mcp" and the MCP SDK from node_modules), and the .wasm beside it as a
 * CompiledWasm module. Bundled once per test process (and `shim`).
 *
 * With `shim` (a module's path), "skillwasm" is that module, which reaches the package as
 * "skillwasm-package": for a test of what the Worker does with an answer of the package that its
 * inputs cannot provoke.
 */
const bundles = new Map();
function modules(shim = null) {
  if (!bundles.has(shim)) bundles.set(shim, bundle(shim));
  return bundles.get(shim);
}

function bundle(shim) {
  return (async () => {
    const esbuild = await import("esbuild");
    const dir = path.dirname(WORKER_SOURCE);
    const out = await esbuild.build({
      entryPoints: [WORKER_SOURCE],
      ...WORKER_BUILD,
      plugins: [{
        name: "skillwasm-package",
        setup(b) {
          b.onResolve({ filter: /^skillwasm(\/mcp|-package)?$/ }, (a) => {
            if (a.path === "skillwasm" && shim !== null) return { path: shim };
            return { path: path.join(PKG, a.path === "skillwasm/mcp" ? "mcp-server.js" : "workerd.js") };
          });
          // Each of the package's two modules stays a module of its own beside the bundle.
          b.onResolve({ filter: /\.wasm$/ }, (a) => ({ path: `./${path.basename(a.path)}`, external: true }));
        },
      }],
    });
    return [
      { type: "ESModule", path: path.join(dir, "worker.bundle.js"), contents: out.outputFiles[0].text },
      ...["skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"].map((f) => ({ type: "CompiledWasm", path: path.join(dir, f), contents: readFileSync(path.join(PKG, f)) })),
    ];
  })();
}

/** Bytes of the Worker bundle (source + package js + wasm), raw and gzip -9. */
export function bundleSize() {
  const parts = [...workerSources(), ...packageFiles().map((f) => f.path)].map((p) => ({ path: p, bytes: readFileSync(p) }));
  const all = Buffer.concat(parts.map((p) => p.bytes));
  const wasm = Buffer.concat(parts.filter((p) => p.path.endsWith(".wasm")).map((p) => p.bytes));
  const js = Buffer.concat(parts.filter((p) => !p.path.endsWith(".wasm")).map((p) => p.bytes));
  return {
    files: parts.length,
    raw: all.length,
    gzip: gzipSync(all, { level: 9 }).length,
    wasm: { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length },
    js: { raw: js.length, gzip: gzipSync(js, { level: 9 }).length },
  };
}

/**
 * Starts the example Worker over R2 persisted in `persistDir` (`shim`: see modules()). Returns the instance, a `fetch`
 * (paths relative to the Worker), and the times from `new Miniflare` to ready and to the answer
 * of `firstPath` (requested at once, so the cold start is part of it).
 */
/** The write secret the example runs with in tests (unless `vars.WRITE_SECRET` says otherwise). */
export const WRITE_SECRET = "test-write-secret";

export async function startExample({ persistDir, vars = {}, firstPath = "/status", listen = false, shim = null }) {
  assertBuilt();
  const t0 = performance.now();
  const mf = new Miniflare({
    // With `listen`, workerd also serves on a port of 127.0.0.1 (`url`), for clients over a socket.
    ...(listen ? { host: "127.0.0.1", port: 0 } : {}),
    modules: await modules(shim),
    modulesRoot: path.dirname(WORKER_SOURCE),
    compatibilityDate: "2025-01-01",
    r2Buckets: ["SKILLS"],
    r2Persist: persistDir,
    bindings: Object.fromEntries(Object.entries({
      SKILLS_PREFIX: "skills", SKILLS_SCOPE: "org", TOOL_NAME: "activate_skill", SNAPSHOT_CHECK_SECONDS: "0", WRITE_SECRET, ...vars,
    }).filter(([, v]) => v !== undefined)),
  });
  const url = await mf.ready;
  const readyMs = performance.now() - t0;
  // Requests other than GET carry the write secret, unless the test sends its own authorization
  // or none (`anonymous: true`).
  const secret = Object.hasOwn(vars, "WRITE_SECRET") ? vars.WRITE_SECRET : WRITE_SECRET;
  const fetch = (pathname, init = {}) => {
    const { anonymous, ...rest } = init;
    const headers = new Headers(rest.headers);
    if ((rest.method ?? "GET") !== "GET" && !anonymous && !headers.has("authorization") && secret) {
      headers.set("authorization", `Bearer ${secret}`);
    }
    return mf.dispatchFetch(`http://worker${pathname}`, { ...rest, headers });
  };
  const first = await fetch(firstPath);
  const firstBody = await first.json();
  const firstMs = performance.now() - t0;
  return { mf, fetch, url: listen ? url : null, first: { status: first.status, body: firstBody }, readyMs, firstMs, dispose: () => mf.dispose() };
}
