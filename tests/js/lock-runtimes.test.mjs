// Pins hold in every runtime: the same skills give the same content digests in Node (in memory),
// in workerd over a real R2 binding and in Chromium over IndexedDB, and a registry given a
// lockfile refuses a skill changed by one byte in each.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { PKG, importPkg } from "./helpers.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { startWorker } from "./support/workerd.mjs";

const { SkillRegistry, memoryStorage } = await importPkg();

const FILES = {
  "pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\n\nSee references/forms.md.\n",
  "pdf-tools/references/forms.md": "# Forms\n\nField names are case-sensitive.\n",
  "pdf-tools/scripts/fill.sh": "#!/bin/sh\necho \"$1\"\n",
  "csv-tools/SKILL.md": "---\nname: csv-tools\ndescription: Profile CSV files.\n---\n\nCount rows.\n",
};
const DRIFTED = { key: "pdf-tools/references/forms.md", text: "# Forms\n\nField names are Case-sensitive.\n" };

/** The lockfile Node writes for FILES: the oracle every runtime must agree with. */
async function nodeLockfile() {
  const reg = await SkillRegistry.discover({ scopes: [{ name: "builtin", storage: memoryStorage(FILES), roots: [""], trusted: true }] });
  return (await reg.lockfile()).lockfile;
}

const digests = (lockfile) => Object.fromEntries(lockfile.skills.map((e) => [e.name, e.digest]));

function assertRefusedOnce(result, where) {
  assert.deepEqual(result.names, ["csv-tools"], where);
  assert.deepEqual(result.pins.map((d) => [d.code, d.path]), [["skill-pin-mismatch", "builtin:pdf-tools/SKILL.md"]], where);
}

test("workerd over R2: the same digests as Node; a lockfile refuses a skill changed by one byte", async (t) => {
  const worker = await startWorker({ script: "registry-worker.js" });
  t.after(() => worker.dispose());
  for (const [key, text] of Object.entries(FILES)) await worker.post("/put", { key: `pins/${key}`, text });
  const request = { root: "pins/", roots: [""] };
  const oracle = await nodeLockfile();
  const first = (await worker.post("/pinned", request)).ok;
  assert.deepEqual(digests(first.lockfile), digests(oracle));
  assert.equal(Object.keys(digests(oracle)).length, 2);
  const clean = (await worker.post("/pinned", { ...request, lock: first.lockfile })).ok;
  assert.deepEqual([clean.names, clean.pins], [["csv-tools", "pdf-tools"], []]);
  await worker.post("/put", { key: `pins/${DRIFTED.key}`, text: DRIFTED.text });
  assertRefusedOnce((await worker.post("/pinned", { ...request, lock: first.lockfile })).ok, "workerd");
});

// Runs in the page: the files put into IndexedDB, a lockfile written, one file changed, the
// registry discovered again with the lockfile.
async function pinsInPage({ files, drifted }) {
  const sw = await import("/pkg/browser.js");
  await sw.init();
  const storage = sw.indexedDbStorage({ dbName: "skillwasm-pins", storeName: "files" });
  await sw.putSkillFiles(storage, files);
  const scopes = [{ name: "builtin", storage, roots: [""], trusted: true }];
  const first = await sw.SkillRegistry.discover({ scopes });
  const { lockfile } = await first.lockfile();
  await storage.put(drifted.key, new TextEncoder().encode(drifted.text));
  const again = await sw.SkillRegistry.discover({ scopes, lock: lockfile });
  const pins = again.diagnostics().filter((d) => d.code.startsWith("skill-pin") || d.code === "skill-unpinned");
  storage.close();
  const names = new sw.SkillTool(again).definition().inputSchema.properties.name.enum;
  return { lockfile, names, pins };
}

const skip = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`)` : false;

describe("Chromium over IndexedDB", { skip }, () => {
  let server;
  let browser;
  before(async () => {
    server = await serveStatic({ "/pkg/": PKG }, { "/": { type: "text/html", body: "<!doctype html><meta charset=\"utf-8\"><title>pins</title>" } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("the same digests as Node; a lockfile refuses a skill changed by one byte", async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/`);
    const result = await page.evaluate(pinsInPage, { files: FILES, drifted: DRIFTED });
    assert.deepEqual(errors, []);
    assert.deepEqual(digests(result.lockfile), digests(await nodeLockfile()));
    assertRefusedOnce(result, "chromium");
  });
});
