// indexedDbStorage in real Chromium (Debian's /usr/bin/chromium driven by playwright-core): the
// built package's browser entry and adapter are served over HTTP, the storage contract runs in the
// page, and the data is checked again after a reload and after a browser restart.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { PKG, assertBuilt } from "./helpers.mjs";
import { CONTRACT, FIXTURE_KEYS } from "./support/contract.mjs";
import { removeDir, tempDir } from "./support/fixtures.mjs";
import { serveStatic } from "./support/static-server.mjs";

const SUPPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), "support");
const skip = missing && !CI
  ? `${CHROMIUM} is missing (run \`make setup\`, which installs the Debian chromium package)`
  : false;

const PAGE = `<!doctype html><meta charset="utf-8"><title>skillwasm storage</title>`;

// Runs in the page: load the package, count IndexedDB transactions, run the contract.
async function contractInPage() {
  const sw = await import("/pkg/browser.js");
  await sw.init();
  const { runContract, FIXTURE } = await import("/support/contract.mjs");
  let transactions = 0;
  const real = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function counted(...args) {
    transactions++;
    return real.apply(this, args);
  };
  const storage = sw.indexedDbStorage({ dbName: "skillwasm-contract", storeName: "files" });
  const written = await sw.putSkillFiles(storage, FIXTURE);
  const skill = "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n\n# PDF tools\n";
  await sw.putSkillFiles(storage, { "SKILL.md": skill, "scripts/fill.py": "print(1)\n" }, { prefix: "installed/pdf-tools" });
  // Run the contract on a second storage object over the same database: the extra skill is out
  // of the fixture, so remove it from the view first and put it back after.
  const before = transactions;
  await sw.deleteKeys(storage, ["installed/pdf-tools/SKILL.md", "installed/pdf-tools/scripts/fill.py"]);
  const deleteTransactions = transactions - before;
  const others = [];
  const another = (options) => {
    const s = sw.indexedDbStorage({ storeName: "files", ...options });
    others.push(s);
    return s;
  };
  const results = await runContract({
    storage,
    touches: async () => transactions,
    capped: async (maxObjectBytes) => another({ dbName: "skillwasm-contract", maxObjectBytes }),
    empty: async () => another({ dbName: "skillwasm-contract-never-filled" }),
    wholeValueReads: true,
  });
  for (const s of others) s.close();
  await sw.putSkillFiles(storage, { "SKILL.md": skill, "scripts/fill.py": "print(1)\n" }, { prefix: "installed/pdf-tools/" });
  const parsed = sw.parseSkill(await storage.read("installed/pdf-tools/SKILL.md"), { dirName: "pdf-tools" });
  storage.close();
  return {
    written: written.length,
    deleteTransactions,
    results,
    version: sw.version(),
    skillName: parsed.skill?.name ?? null,
    uint8: Object.prototype.toString.call(await sw.memoryStorage({ a: "b" }).read("a")),
  };
}

// Runs in the page after a reload or a restart: is everything still there?
async function persistedInPage() {
  const sw = await import("/pkg/browser.js");
  await sw.init();
  const storage = sw.indexedDbStorage({ dbName: "skillwasm-contract", storeName: "files" });
  const keys = [];
  let cursor;
  let pages = 0;
  do {
    const page = await storage.list("", cursor ? { cursor, limit: 5 } : { limit: 5 });
    keys.push(...page.entries.map((e) => e.key));
    cursor = page.cursor;
    pages++;
  } while (cursor !== undefined);
  const bytes = await storage.read("installed/pdf-tools/SKILL.md", { maxBytes: 3 });
  const parsed = sw.parseSkill(await storage.read("installed/pdf-tools/SKILL.md"), { dirName: "pdf-tools" });
  storage.close();
  return { keys, pages, head: new TextDecoder().decode(bytes), skillName: parsed.skill?.name ?? null };
}

describe("indexedDbStorage in Chromium", { skip }, () => {
  let server;
  let profile;
  before(async () => {
    assertBuilt();
    assert.ok(!missing, `${CHROMIUM} is missing and CI is set: install the Debian chromium package`);
    server = await serveStatic({ "/pkg/": PKG, "/support/": SUPPORT }, { "/": { type: "text/html", body: PAGE } });
    profile = tempDir("chromium-profile");
  });
  after(async () => {
    await server?.close();
    if (profile) removeDir(profile);
  });

  const expectedKeys = [...FIXTURE_KEYS, "installed/pdf-tools/SKILL.md", "installed/pdf-tools/scripts/fill.py"].sort();

  test("the contract holds in the page, and the data survives a reload", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${server.url}/`);
      const out = await page.evaluate(contractInPage);
      const failed = out.results.filter((r) => !r.ok);
      assert.deepEqual(failed, [], failed.map((r) => `${r.name}\n${r.error}`).join("\n\n"));
      assert.equal(out.results.length, CONTRACT.length);
      assert.equal(out.written, FIXTURE_KEYS.length);
      assert.equal(out.deleteTransactions, 1, "deleteKeys is one transaction");
      assert.equal(out.skillName, "pdf-tools");
      assert.equal(out.uint8, "[object Uint8Array]");
      assert.match(out.version, /^\d+\.\d+\.\d+/);

      await page.reload();
      const again = await page.evaluate(persistedInPage);
      assert.deepEqual(again.keys, expectedKeys);
      assert.equal(again.pages, Math.ceil(expectedKeys.length / 5));
      assert.equal(again.head, "---");
      assert.equal(again.skillName, "pdf-tools");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test("the data is on disk: a fresh profile keeps it across a browser restart", async () => {
    const launch = () => chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
    let ctx = await launch();
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${server.url}/`);
      const out = await page.evaluate(contractInPage);
      assert.deepEqual(out.results.filter((r) => !r.ok), []);
    } finally {
      await ctx.close();
    }
    ctx = await launch();
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${server.url}/`);
      const again = await page.evaluate(persistedInPage);
      assert.deepEqual(again.keys, expectedKeys);
      assert.equal(again.skillName, "pdf-tools");
    } finally {
      await ctx.close();
    }
  });
});
