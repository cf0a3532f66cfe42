// What a page fetches before its first catalog, in real Chromium (Debian's /usr/bin/chromium
// through playwright-core) over a static server on 127.0.0.1: the browser entry's init() resolves
// once the core module is instantiated, and the rest of the package (the core's cold code and the
// second module) is fetched in the background after it. Here the requests for the rest are held
// until the page has discovered its skills, rendered a catalog and answered the skill tool, so the
// test fails if that work needs them; what was fetched by then is summed (gzip -9, as a server
// would send it) against the package's goals. While the rest is held, a synchronous call that
// needs it throws an Error that says to `await ready()`, and an async one waits; after release,
// `ready()` resolves and both work.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { PKG, ROOT } from "./helpers.mjs";
import { startPlaygroundServer } from "./support/playground.mjs";
import { serveStatic } from "./support/static-server.mjs";

const skip = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`, which installs the Debian chromium package)` : false;

// The package's goals for a browser's first catalog (gzip -9 bytes).
const WASM_BEFORE_FIRST_CATALOG = 250_000;
const ALL_BEFORE_FIRST_CATALOG = 350_000;
const REST = ["skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"];
const PAGE = `<!doctype html><meta charset="utf-8"><title>skillwasm first catalog</title>`;

const gzipped = new Map();
function gzipSize(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(PKG, file)), { level: 9 }).length);
  return gzipped.get(file);
}

let server;
let browser;
before(async () => {
  if (skip) return;
  server = await serveStatic({ "/pkg/": PKG }, { "/index.html": { type: "text/html; charset=utf-8", body: PAGE } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("a page's first catalog needs only the core module; the rest arrives after init() and ready() waits for it", { skip }, async () => {
  const page = await browser.newPage();
  const fetched = [];
  page.on("requestfinished", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/pkg/")) fetched.push(url.pathname.slice("/pkg/".length));
  });
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const held = [];
  await page.route(new RegExp(`/pkg/(${REST.join("|").replaceAll(".", "\\.")})$`), async (route) => {
    held.push(new URL(route.request().url()).pathname);
    await released;
    await route.continue();
  });
  await page.goto(`${server.url}/index.html`);

  const skills = Object.fromEntries(
    ["commit-message", "sql-review"].map((name) => [`.agents/skills/${name}/SKILL.md`, readFileSync(path.join(ROOT, "examples", "skills", name, "SKILL.md"), "utf8")]),
  );
  // A SKILL.md whose frontmatter only the second module reads (it needs repairs).
  const needsRepair = readFileSync(path.join(ROOT, "examples", "broken", "needs-repair", "SKILL.md"), "utf8");
  const first = await page.evaluate(async ({ files, needsRepair }) => {
    const sw = await import("/pkg/browser.js");
    await sw.init();
    const registry = await sw.SkillRegistry.discover({ user: sw.memoryStorage(files) });
    const catalog = sw.renderCatalog(registry, { budgetTokens: 2000 });
    const tool = new sw.SkillTool(registry);
    const answer = await tool.execute({ name: registry.names()[0] });
    // The usual work's less common paths, with the core's cold code still held back: a file the
    // second module must read gets its diagnostic, a path that leaves the skill its refusal.
    const early = sw.parseSkill(needsRepair).diagnostics.map((d) => d.code);
    const outside = (await registry.readFile(registry.names()[0], "../../x")).error?.code;
    const outsideTool = (await tool.execute({ name: registry.names()[0], path: "../../x" })).error?.code;
    const refused = [];
    for (const call of [() => registry.snapshot(), () => sw.parseMessage(registry, "/commit-message"), () => registry.search("commit")]) {
      try {
        call();
        refused.push("ran");
      } catch (e) {
        refused.push(`${e.constructor.name}: ${e.message}`);
      }
    }
    // A discovery of as many skills as a registry has its search index built by discovery for
    // (INDEXED_BY_DISCOVERY_FROM in src/discover/registry.rs) leaves it to the first search here:
    // the code that builds it is the rest's.
    const many = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [`.agents/skills/s${i}/SKILL.md`, `---\nname: s${i}\ndescription: Does task ${i}.\n---\n# Topic${i}\n`]),
    );
    window.large = await sw.SkillRegistry.discover({ user: sw.memoryStorage(many) });
    // An async member that needs the rest waits for it.
    window.refreshing = registry.refresh().then((r) => ({ added: r.added.length, changed: r.changed.length, removed: r.removed.length }));
    window.registry = registry;
    return {
      names: registry.names(),
      largeNames: window.large.names().length,
      catalog: catalog.text.includes("commit-message"),
      answered: answer.isError !== true,
      early,
      outside: [outside, outsideTool],
      refused,
      resets: sw.instanceResets(),
    };
  }, { files: skills, needsRepair });
  const beforeFirstCatalog = [...fetched];

  assert.deepEqual(first.names.sort(), ["commit-message", "sql-review"]);
  assert.equal(first.largeNames, 500);
  assert.equal(first.catalog, true);
  assert.equal(first.answered, true);
  assert.ok(first.early.includes("yaml-parser-unavailable"), JSON.stringify(first.early));
  assert.deepEqual(first.outside, ["path-invalid", "path-invalid"]);
  assert.equal(first.resets, 0);
  for (const message of first.refused) {
    assert.match(message, /^Error: skillwasm: SkillRegistry#snapshot|^Error: skillwasm: parseMessage|^Error: skillwasm: SkillRegistry#search/);
    assert.match(message, /await ready\(\)/);
  }
  assert.deepEqual(held, ["/pkg/skillwasm_cold_bg.wasm"], "the rest is fetched in the background after init(), the cold code first");
  for (const f of REST) assert.ok(!beforeFirstCatalog.includes(f), `${f} was fetched before the first catalog`);

  const wasm = beforeFirstCatalog.filter((f) => f.endsWith(".wasm")).reduce((n, f) => n + gzipSize(f), 0);
  const all = beforeFirstCatalog.reduce((n, f) => n + gzipSize(f), 0);
  console.log(`before the first catalog: ${beforeFirstCatalog.length} files, wasm ${wasm} bytes gzip -9, all ${all} bytes gzip -9`);
  assert.ok(wasm <= WASM_BEFORE_FIRST_CATALOG, `wasm before the first catalog: ${wasm} bytes gzip -9`);
  assert.ok(all <= ALL_BEFORE_FIRST_CATALOG, `everything before the first catalog: ${all} bytes gzip -9`);

  release();
  const rest = await page.evaluate(async () => {
    const sw = await import("/pkg/browser.js");
    await sw.ready();
    const refreshed = await window.refreshing;
    const again = sw.SkillRegistry.fromSnapshot(window.registry.snapshot(), { user: sw.memoryStorage({}) });
    return {
      refreshed,
      restored: again.names(),
      parsed: sw.parseMessage(window.registry, "/commit-message now").invocations?.[0]?.name ?? null,
      hits: window.registry.search("commit").map((h) => h.name),
      largeHits: window.large.search("topic7").map((h) => h.name),
      resets: sw.instanceResets(),
    };
  });
  assert.deepEqual(rest.refreshed, { added: 0, changed: 0, removed: 0 });
  assert.deepEqual(rest.restored.sort(), ["commit-message", "sql-review"]);
  assert.equal(rest.parsed, "commit-message");
  assert.ok(rest.hits.includes("commit-message"), rest.hits.join(", "));
  assert.deepEqual(rest.largeHits, ["s7"]);
  assert.equal(rest.resets, 0);
  await page.close();
});

test("the playground shows its first catalog with the rest of the package held back, and is ready once it arrives", { skip }, async () => {
  const playground = await startPlaygroundServer();
  const page = await browser.newPage();
  try {
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    let release;
    const released = new Promise((resolve) => (release = resolve));
    await page.route(new RegExp(`/(${REST.join("|").replaceAll(".", "\\.")})$`), async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(playground.url);
    // An empty first visit over IndexedDB: discovery, the catalog in the playground's options, the
    // tool and its session, all before the rest has arrived.
    await page.waitForFunction(() => document.querySelector("#status")?.textContent.includes("discovery"));
    assert.doesNotMatch(await page.textContent("#status"), /Could not start/);
    assert.equal(await page.evaluate(() => document.body.dataset.ready ?? null), null, "ready waits for the rest");
    release();
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await playground.close();
  }
});
