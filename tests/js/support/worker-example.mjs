// Runs examples/cloudflare-worker in workerd (through miniflare) with a real R2 binding persisted
// to a directory, so that a second instance over the same directory is a restarted Worker.
//
// The Worker's source is loaded unchanged. Its bare import "skillwasm" is what wrangler resolves
// through the package's `workerd` export condition; here a one-line module of that name beside the
// source re-exports the built package's workerd.js, and the package's modules are given as a
// Worker bundle has them (the .wasm as a CompiledWasm module; Node- and CLI-only files left out).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { PKG, ROOT, assertBuilt } from "../helpers.mjs";

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
  const files = [{ path: path.join(PKG, "skillwasm_bg.wasm"), type: "CompiledWasm" }];
  for (const f of readdirSync(PKG).sort()) {
    if (f.endsWith(".js") && !["node.js", "cli.js", "browser.js"].includes(f) && !f.startsWith("__test_")) {
      files.push({ path: path.join(PKG, f), type: "ESModule" });
    }
  }
  for (const f of readdirSync(path.join(PKG, "storage")).sort()) {
    if (f.endsWith(".js") && f !== "node-fs.js") files.push({ path: path.join(PKG, "storage", f), type: "ESModule" });
  }
  return files;
}

/** The deepest directory holding both a and b. */
function commonDir(a, b) {
  const pa = a.split(path.sep);
  const pb = b.split(path.sep);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join(path.sep) || path.sep;
}

function modules() {
  const shim = path.join(path.dirname(WORKER_SOURCE), "skillwasm");
  let rel = path.relative(path.dirname(shim), path.join(PKG, "workerd.js")).split(path.sep).join("/");
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return [
    ...workerSources().map((p) => ({ type: "ESModule", path: p })),
    { type: "ESModule", path: shim, contents: `export * from ${JSON.stringify(rel)};\n` },
    ...packageFiles(),
  ];
}

/** Bytes of the Worker bundle (source + package js + wasm), raw and gzip -9. */
export function bundleSize() {
  const parts = [...workerSources(), ...packageFiles().map((f) => f.path)].map((p) => ({ path: p, bytes: readFileSync(p) }));
  const all = Buffer.concat(parts.map((p) => p.bytes));
  const wasm = parts.find((p) => p.path.endsWith(".wasm")).bytes;
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
 * Starts the example Worker over R2 persisted in `persistDir`. Returns the instance, a `fetch`
 * (paths relative to the Worker), and the times from `new Miniflare` to ready and to the answer
 * of `firstPath` (requested at once, so the cold start is part of it).
 */
/** The write secret the example runs with in tests (unless `vars.WRITE_SECRET` says otherwise). */
export const WRITE_SECRET = "test-write-secret";

export async function startExample({ persistDir, vars = {}, firstPath = "/status" }) {
  assertBuilt();
  const t0 = performance.now();
  const mf = new Miniflare({
    modules: modules(),
    modulesRoot: commonDir(ROOT, PKG),
    compatibilityDate: "2025-01-01",
    r2Buckets: ["SKILLS"],
    r2Persist: persistDir,
    bindings: Object.fromEntries(Object.entries({
      SKILLS_PREFIX: "skills", SKILLS_SCOPE: "org", TOOL_NAME: "activate_skill", SNAPSHOT_CHECK_SECONDS: "0", WRITE_SECRET, ...vars,
    }).filter(([, v]) => v !== undefined)),
  });
  await mf.ready;
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
  return { mf, fetch, first: { status: first.status, body: firstBody }, readyMs, firstMs, dispose: () => mf.dispose() };
}
