// The README's Worker and page snippets, run as written: the Worker bundled by esbuild as wrangler
// bundles it ("skillwasm" through the package's workerd entry, the .wasm files as modules beside
// it) and served by workerd (miniflare) with a real R2 binding holding the example skills; the
// page served from 127.0.0.1 with an import map that names the package's browser entry, in
// Chromium, over a real IndexedDB.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Miniflare } from "miniflare";
import { chromium } from "playwright-core";
import { PKG, ROOT, assertBuilt } from "./helpers.mjs";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { WORKER_BUILD } from "./support/workerd.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { snippets } from "./support/docs.mjs";

const SNIPPETS = snippets();
const WASM = ["skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"];

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, rel = "") {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const child = rel === "" ? name : `${rel}/${name}`;
    return statSync(path.join(dir, child)).isDirectory() ? filesUnder(dir, child) : [child];
  });
}

test("the README's Worker: the catalog and the skill tool over R2, in workerd", async () => {
  assertBuilt();
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    stdin: { contents: SNIPPETS.worker, loader: "js", resolveDir: ROOT, sourcefile: "worker.js" },
    ...WORKER_BUILD,
    plugins: [{
      name: "skillwasm-package",
      setup(b) {
        b.onResolve({ filter: /^skillwasm$/ }, () => ({ path: path.join(PKG, "workerd.js") }));
        b.onResolve({ filter: /\.wasm$/ }, (a) => ({ path: `./${path.basename(a.path)}`, external: true }));
      },
    }],
  });
  const mf = new Miniflare({
    modules: [
      { type: "ESModule", path: path.join(ROOT, "worker.bundle.js"), contents: out.outputFiles[0].text },
      ...WASM.map((f) => ({ type: "CompiledWasm", path: path.join(ROOT, f), contents: readFileSync(path.join(PKG, f)) })),
    ],
    modulesRoot: ROOT,
    compatibilityDate: "2025-01-01",
    r2Buckets: ["SKILLS"],
  });
  try {
    await mf.ready;
    const bucket = await mf.getR2Bucket("SKILLS");
    const skills = path.join(ROOT, "examples", "skills");
    for (const rel of filesUnder(skills)) await bucket.put(`skills/${rel}`, new Uint8Array(readFileSync(path.join(skills, rel))));

    const catalog = await mf.dispatchFetch("http://worker/");
    assert.equal(catalog.status, 200);
    const text = await catalog.text();
    for (const name of readdirSync(skills)) assert.ok(text.includes(name), `the catalog lists ${name}`);
    assert.match(text, /<available_skills>/);

    const post = (body) => mf.dispatchFetch("http://worker/", { method: "POST", body: JSON.stringify(body) });
    const found = await post({ name: "sql-review" });
    assert.equal(found.status, 200);
    assert.match(await found.text(), /^<skill_content name="sql-review">/);
    const file = await post({ name: "sql-review", path: "references/checklist.md" });
    assert.equal(file.status, 200);
    assert.equal(await file.text(), readFileSync(path.join(skills, "sql-review", "references", "checklist.md"), "utf8"));
    const unknown = await post({ name: "no-such-skill" });
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /There is no skill named/);
  } finally {
    await mf.dispose();
  }
});

const skipBrowser = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`)` : false;

test("the README's page: IndexedDB, the catalog and the skill tool, in Chromium", { skip: skipBrowser }, async () => {
  assertBuilt();
  const page = `<!doctype html><meta charset="utf-8"><title>snippet</title>
<script type="importmap">{ "imports": { "skillwasm": "/pkg/browser.js" } }</script>
<script type="module" src="/snippet.js"></script>`;
  const server = await serveStatic({ "/pkg/": PKG }, {
    "/index.html": { type: "text/html; charset=utf-8", body: page },
    "/snippet.js": { type: "text/javascript; charset=utf-8", body: SNIPPETS.browser },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    const logged = new Promise((resolve) => tab.on("console", (m) => {
      if (m.type() === "log") resolve(m.text());
    }));
    await tab.goto(`${server.url}/index.html`);
    const line = await Promise.race([logged, new Promise((_, reject) => setTimeout(() => reject(new Error(`nothing logged; errors: ${errors}`)), 30_000))]);
    assert.deepEqual(errors, []);
    assert.match(line, /<available_skills>[\s\S]*pdf[\s\S]*Fills PDF forms\./);
    assert.match(line, /<skill_content name="pdf">[\s\S]*Use pdftk\./);
  } finally {
    await browser.close();
    await server.close();
  }
});
