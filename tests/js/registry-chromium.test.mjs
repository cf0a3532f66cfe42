// SkillRegistry in real Chromium (Debian's /usr/bin/chromium through playwright-core) over
// IndexedDB: real corpus skills are written with putSkillFiles, discovered from the default root,
// read, discovered again after a reload from what the database kept, and started from a snapshot
// with no storage call. The same discovery over memoryStorage in Node is the oracle.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { PKG, importPkg } from "./helpers.mjs";
import { CORPUS_SKILLS, corpusFiles, expectedDiscovery } from "./support/corpus.mjs";
import { serveStatic } from "./support/static-server.mjs";

const noCorpus = !existsSync(CORPUS_SKILLS);
const skip = noCorpus
  ? "no ../shared/corpus"
  : missing && !CI
    ? `${CHROMIUM} is missing (run \`make setup\`, which installs the Debian chromium package)`
    : false;

const PAGE = `<!doctype html><meta charset="utf-8"><title>skillwasm registry</title>`;
const DB = { dbName: "skillwasm-registry", storeName: "files" };
const ROOT = ".agents/skills/"; // the default root of every scope
const SNAPSHOT_KEY = "snapshots/user.bin"; // in the same store, outside the root: never listed
const EVERY = 10; // every 10th SKILL.md of the corpus: about 77 skills from every repository
const RESOURCES_PER_SKILL = 2;

/**
 * The chosen skills as store keys -> bytes: SKILL.md and up to two small files beside it each,
 * under ROOT + the corpus path (unique directories; the skill directory's name is the corpus one).
 */
function chooseSkills() {
  const files = corpusFiles();
  const { visible } = expectedDiscovery(files);
  const chosen = visible.filter((_, i) => i % EVERY === 0);
  const out = new Map();
  for (const md of chosen) {
    const dir = md.slice(0, -"SKILL.md".length);
    out.set(ROOT + md, readFileSync(path.join(CORPUS_SKILLS, md)));
    const resources = files
      .filter((f) => f.rel.startsWith(dir) && f.rel !== md && !f.rel.slice(dir.length).split("/").some((p) => p.startsWith(".")))
      .filter((f) => !/(^|\/)(SKILL|skill)\.md$/.test(f.rel) && f.size > 0 && f.size <= 64 * 1024)
      .slice(0, RESOURCES_PER_SKILL);
    for (const f of resources) out.set(ROOT + f.rel, readFileSync(path.join(CORPUS_SKILLS, f.rel)));
  }
  return { files: out, skillMds: chosen.map((md) => ROOT + md), expected: expectedDiscovery(files.filter((f) => chosen.includes(f.rel))) };
}

// Runs in the page. put: write `files` (key -> base64) with putSkillFiles first. Then discover
// through a counting wrapper, read files, snapshot, start from the snapshot with another counting
// wrapper; the snapshot is stored in the same database (put) or read from it (after a reload).
async function registryInPage({ db, files, put, reads, snapshotKey, root }) {
  const sw = await import("/pkg/browser.js");
  await sw.init();
  const storage = sw.indexedDbStorage(db);
  const counted = (store) => {
    const c = { lists: 0, reads: 0 };
    return {
      c,
      location: store.location,
      list(prefix, opts) {
        c.lists++;
        return store.list(prefix, opts);
      },
      read(key, opts) {
        c.reads++;
        return store.read(key, opts);
      },
    };
  };
  const fromBase64 = (b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  const view = (reg) => ({
    names: reg.names(),
    metas: reg.listMetas(),
    locations: reg.listMetasAcross().map((m) => m.location),
    diagnostics: reg.diagnostics(),
  });

  let written = 0;
  if (put) {
    written = (await sw.putSkillFiles(storage, Object.fromEntries(Object.entries(files).map(([k, v]) => [k, fromBase64(v)])))).length;
  }
  // Everything the database holds under the root (one listing, for the record).
  let keys = 0;
  let cursor;
  do {
    const page = await storage.list(root, cursor ? { cursor } : {});
    keys += page.entries.length;
    cursor = page.cursor;
  } while (cursor !== undefined);

  const user = counted(storage);
  const t0 = performance.now();
  const reg = await sw.SkillRegistry.discover({ user });
  const discoverMs = performance.now() - t0;
  const fresh = { ...view(reg), stats: reg.stats(), calls: { ...user.c } };

  const readResults = [];
  for (const [name, rel] of reads) {
    const before = user.c.reads;
    const r = rel === null ? await reg.readFile(name) : await reg.readFile(name, rel);
    readResults.push({ name, rel, text: r.text ?? null, bytes: r.bytes ? r.bytes.length : null, error: r.error ?? null, reads: user.c.reads - before });
  }

  // The snapshot: taken now and stored, or (after a reload) read back from the database.
  let snapshotBytes;
  let snapshotReads = 0;
  if (put) {
    snapshotBytes = reg.snapshot();
    await storage.put(snapshotKey, snapshotBytes);
  }
  const snapStore = counted(storage);
  const stored = await snapStore.read(snapshotKey);
  snapshotReads = snapStore.c.reads;
  if (!put) snapshotBytes = stored;
  const sameBytes = stored !== null && stored.length === snapshotBytes.length && stored.every((b, i) => b === snapshotBytes[i]);
  const user2 = counted(storage);
  // fromSnapshot is not a page's usual work: it needs the rest of the package, which arrives in
  // the background after init() (on a busy machine, after the discovery and reads above).
  await sw.ready();
  const t1 = performance.now();
  const cold = sw.SkillRegistry.fromSnapshot(stored, { user: user2 });
  const coldView = view(cold);
  const snapshotMs = performance.now() - t1;
  storage.close();
  return {
    written,
    keys,
    discoverMs,
    snapshotMs,
    fresh,
    reads: readResults,
    snapshot: { bytes: stored?.length ?? 0, sameBytes, readsToLoad: snapshotReads, calls: { ...user2.c }, view: coldView, stats: cold.stats() },
  };
}

describe("SkillRegistry in Chromium over IndexedDB, on corpus skills", { skip }, () => {
  let server;
  let browser;
  let chosen;
  let oracle;
  let reads;
  before(async () => {
    assert.ok(!missing, `${CHROMIUM} is missing and CI is set: install the Debian chromium package`);
    chosen = chooseSkills();
    // The oracle: the same discovery over the same files in memory, in Node.
    const { SkillRegistry, memoryStorage } = await importPkg();
    // The same store location as the page's IndexedDB store, so that the skills' paths agree.
    const location = `indexeddb://${encodeURIComponent(DB.dbName)}/${encodeURIComponent(DB.storeName ?? "skills")}/`;
    const reg = await SkillRegistry.discover({ user: { ...memoryStorage(Object.fromEntries(chosen.files)), location } });
    oracle = { names: reg.names(), metas: reg.listMetas(), locations: reg.listMetasAcross().map((m) => m.location), diagnostics: reg.diagnostics() };
    // A visible skill with a resource among the chosen files: its body and that resource.
    const withResource = oracle.metas.find((m) => [...chosen.files.keys()].some((k) => k.startsWith(`${m.directory}/`) && k !== m.location));
    assert.ok(withResource, "a chosen skill with a resource");
    const resourceKey = [...chosen.files.keys()].find((k) => k.startsWith(`${withResource.directory}/`) && k !== withResource.location);
    reads = {
      name: withResource.name,
      location: withResource.location,
      resourceKey,
      list: [[withResource.name, null], [withResource.name, resourceKey.slice(withResource.directory.length + 1)], [withResource.name, "../../x"]],
    };
    server = await serveStatic({ "/pkg/": PKG }, { "/": { type: "text/html", body: PAGE } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("discover, read, snapshot; reload and discover again from the database", async () => {
    const { parseSkill } = await importPkg();
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/`);
    const files = Object.fromEntries([...chosen.files].map(([k, v]) => [k, v.toString("base64")]));
    const arg = { db: DB, files, put: true, reads: reads.list, snapshotKey: SNAPSHOT_KEY, root: ROOT };
    const first = await page.evaluate(registryInPage, arg);
    const nSkills = chosen.skillMds.length;
    console.log(
      `chromium: ${chosen.files.size} files of ${nSkills} corpus skills in IndexedDB; discovery ${first.discoverMs.toFixed(0)} ms ` +
        `(${first.fresh.calls.lists} list, ${first.fresh.calls.reads} reads), ${first.fresh.locations.length} loaded, ${first.fresh.names.length} names; ` +
        `snapshot ${first.snapshot.bytes} bytes, start ${first.snapshotMs.toFixed(1)} ms with ${first.snapshot.calls.lists + first.snapshot.calls.reads} storage calls`,
    );
    assert.ok(nSkills >= 50 && nSkills <= 100, `${nSkills} skills`);
    assert.equal(first.written, chosen.files.size);
    assert.equal(first.keys, chosen.files.size);

    // What Chromium found is what Node finds over the same files, and it adds up.
    assert.deepEqual(first.fresh.names, oracle.names);
    assert.deepEqual(first.fresh.metas, oracle.metas);
    assert.deepEqual(first.fresh.locations, oracle.locations);
    assert.deepEqual(first.fresh.diagnostics, oracle.diagnostics);
    const refused = new Set(first.fresh.diagnostics.filter((d) => d.severity === "error" && d.path).map((d) => d.path)).size;
    assert.equal(first.fresh.locations.length + refused, nSkills, "every SKILL.md is a skill or an error");
    assert.ok(first.fresh.names.length >= nSkills * 0.8, `${first.fresh.names.length} names`);
    assert.deepEqual(first.fresh.calls, { lists: 1, reads: nSkills + chosen.expected.fullReads.length }, "one list page, one read per SKILL.md");
    assert.equal(first.fresh.stats.listCalls, 1);
    assert.equal(first.fresh.stats.readCalls, first.fresh.calls.reads);

    // readFile: the body, a resource, a refused traversal.
    const [body, resource, traversal] = first.reads;
    const disk = chosen.files.get(reads.location);
    assert.equal(body.text, parseSkill(disk).skill.body);
    assert.equal(body.reads, 1);
    const want = chosen.files.get(reads.resourceKey);
    if (resource.text !== null) assert.equal(resource.text, want.toString("utf8"));
    else assert.equal(resource.bytes, want.length);
    assert.equal(resource.error, null);
    assert.equal(resource.reads, 1);
    assert.equal(traversal.error?.code, "path-invalid");
    assert.equal(traversal.reads, 0, "refused before the store was touched");

    // The snapshot starts a registry with no storage call and the same answers.
    assert.ok(first.snapshot.sameBytes, "the stored snapshot reads back unchanged");
    assert.equal(first.snapshot.readsToLoad, 1);
    assert.deepEqual(first.snapshot.calls, { lists: 0, reads: 0 });
    assert.deepEqual(first.snapshot.stats, { listCalls: 0, readCalls: 0, bytesRead: 0 });
    assert.deepEqual(first.snapshot.view, { names: oracle.names, metas: oracle.metas, locations: oracle.locations, diagnostics: oracle.diagnostics });

    // Reload: nothing is written; the database still holds the skills and the snapshot.
    await page.reload();
    const again = await page.evaluate(registryInPage, { ...arg, files: {}, put: false });
    assert.equal(again.written, 0);
    assert.equal(again.keys, chosen.files.size);
    assert.deepEqual(again.fresh.names, first.fresh.names);
    assert.deepEqual(again.fresh.metas, first.fresh.metas);
    assert.deepEqual(again.fresh.locations, first.fresh.locations);
    assert.deepEqual(again.fresh.diagnostics, first.fresh.diagnostics);
    assert.deepEqual(again.fresh.calls, first.fresh.calls);
    assert.deepEqual(again.reads, first.reads);
    assert.equal(again.snapshot.bytes, first.snapshot.bytes);
    assert.deepEqual(again.snapshot.calls, { lists: 0, reads: 0 });
    assert.deepEqual(again.snapshot.view, first.snapshot.view);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
