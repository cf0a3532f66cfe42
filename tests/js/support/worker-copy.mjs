// The Worker example as a user has it: its folder copied out of the repository, the package
// installed in its node_modules from the tarball `npm pack` makes of pkg/ (what the registry would
// serve), its other dependencies linked from the repository's node_modules (the network is not
// used), bundled as wrangler bundles it (esbuild, the `workerd` condition, .wasm files as
// CompiledWasm modules) and run in workerd through miniflare on a port of 127.0.0.1, with the
// [vars] of its wrangler.toml and the secrets of its .dev.vars, as `wrangler dev` runs it.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Miniflare } from "miniflare";
import { PKG, ROOT } from "../helpers.mjs";
import { EXAMPLE } from "./worker-example.mjs";
import { WORKER_BUILD } from "./workerd.mjs";

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}

/**
 * Copies the example to `<dir>/app` (without node_modules or local files) and installs its
 * dependencies there: skillwasm from `npm pack` of pkg/, the others linked. Returns the app's path.
 */
export function copyExample(dir) {
  const app = path.join(dir, "app");
  cpSync(EXAMPLE, app, { recursive: true, filter: (src) => !/[/\\](node_modules|\.dev\.vars|\.wrangler)$/.test(src) });
  const modules = path.join(app, "node_modules");
  mkdirSync(modules, { recursive: true });
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", dir, PKG], dir));
  const unpacked = path.join(dir, "unpacked");
  mkdirSync(unpacked);
  run("tar", ["-xzf", path.join(dir, packed[0].filename), "-C", unpacked], dir);
  cpSync(path.join(unpacked, "package"), path.join(modules, "skillwasm"), { recursive: true });
  const { dependencies } = JSON.parse(readFileSync(path.join(app, "package.json"), "utf8"));
  for (const name of Object.keys(dependencies).filter((n) => n !== "skillwasm")) {
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name), "dir");
  }
  return app;
}

/** The `[vars]` of a wrangler.toml (string values, one per line, as the example writes them). */
export function wranglerVars(toml) {
  const vars = {};
  let inVars = false;
  for (const line of toml.split("\n")) {
    const t = line.trim();
    if (t.startsWith("[")) inVars = t === "[vars]";
    const m = inVars && /^([A-Z_][A-Z0-9_]*)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(t);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}

/** The KEY=VALUE lines of a .dev.vars file. */
export function devVars(text) {
  const vars = {};
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

/** The app bundled from its own node_modules, as wrangler does: [module] for miniflare. */
async function bundle(app) {
  const esbuild = await import("esbuild");
  const wasm = new Map();
  const out = await esbuild.build({
    entryPoints: [path.join(app, "src", "index.js")],
    ...WORKER_BUILD,
    absWorkingDir: app,
    plugins: [{
      name: "wasm-modules",
      setup(b) {
        // wrangler's default rule: an imported .wasm is a CompiledWasm module beside the bundle.
        b.onResolve({ filter: /\.wasm$/ }, (a) => {
          const file = path.resolve(a.resolveDir, a.path);
          wasm.set(path.basename(file), file);
          return { path: `./${path.basename(file)}`, external: true };
        });
      },
    }],
  });
  return [
    { type: "ESModule", path: path.join(app, "worker.bundle.js"), contents: out.outputFiles[0].text },
    ...[...wasm].map(([name, file]) => ({ type: "CompiledWasm", path: path.join(app, name), contents: readFileSync(file) })),
  ];
}

/**
 * Runs the app in workerd on 127.0.0.1 (a free port) with a local R2 bucket persisted under
 * `persistDir`, its bindings those of wrangler.toml's [vars] and .dev.vars. Returns { url, mf }.
 */
export async function serveApp(app, persistDir) {
  const toml = readFileSync(path.join(app, "wrangler.toml"), "utf8");
  const secrets = readdirSync(app).includes(".dev.vars") ? devVars(readFileSync(path.join(app, ".dev.vars"), "utf8")) : {};
  const buckets = [...toml.matchAll(/^binding\s*=\s*"([^"]+)"/gm)].map((m) => m[1]);
  const mf = new Miniflare({
    modules: await bundle(app),
    modulesRoot: app,
    compatibilityDate: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)[1],
    r2Buckets: buckets,
    r2Persist: persistDir,
    bindings: { ...wranglerVars(toml), ...secrets },
    host: "127.0.0.1",
    port: 0,
  });
  const url = await mf.ready;
  return { url: url.href.replace(/\/$/, ""), mf };
}
