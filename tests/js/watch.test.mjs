// Live reload over a real directory: a skill added, edited and removed on disk is reported to
// onChange, and the catalog and the tool's enum follow; the same by polling. Wrong arguments and
// unknown option keys are TypeErrors naming them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";

const { SkillRegistry, SkillTool, nodeFsStorage, renderCatalog } = await importPkg();
const { watch } = await import(pathToFileURL(path.join(PKG, "watch.js")).href);

const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

function write(root, name, description) {
  mkdirSync(path.join(root, ".agents", "skills", name), { recursive: true });
  writeFileSync(path.join(root, ".agents", "skills", name, "SKILL.md"), skillMd(name, description));
}

/** Waits for the next onChange report (or fails after `ms`). */
function nextReport(reports, ms = 15_000) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => {
      if (reports.length > 0) return resolve(reports.shift());
      if (Date.now() - t0 > ms) return reject(new Error("no change reported"));
      setTimeout(tick, 20);
    };
    tick();
  });
}

const names = (refs) => refs.map((r) => r.name).sort();

for (const poll of [false, true]) {
  test(`watch (${poll ? "polling" : "fs.watch"}): added, changed, removed; the catalog and the tool follow`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), "skillwasm-watch-"));
    const storage = nodeFsStorage(root);
    write(root, "first", "The first skill.");
    const registry = await SkillRegistry.discover({ project: storage, trustProject: true });
    const tool = new SkillTool(registry);
    const reports = [];
    const w = watch(registry, { roots: [storage], onChange: (r) => reports.push(r), debounceMs: 50, poll, intervalMs: 100 });
    try {
      assert.equal(w.polling, poll);
      write(root, "second", "The second skill.");
      let r = await nextReport(reports);
      assert.deepEqual(names(r.added), ["second"]);
      assert.deepEqual(tool.definition().inputSchema.properties.name.enum, ["first", "second"]);
      assert.match(renderCatalog(registry).text, /second/);

      write(root, "first", "The first skill, edited.");
      r = await nextReport(reports);
      assert.deepEqual(names(r.changed), ["first"]);
      assert.equal(registry.get("first").description, "The first skill, edited.");

      rmSync(path.join(root, ".agents", "skills", "second"), { recursive: true });
      r = await nextReport(reports);
      assert.deepEqual(names(r.removed), ["second"]);
      assert.deepEqual(tool.definition().inputSchema.properties.name.enum, ["first"]);
    } finally {
      w.close();
      await w.refreshing;
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test("watch: a root that does not exist yet is polled, and its skills appear when it does", async () => {
  const base = mkdtempSync(path.join(tmpdir(), "skillwasm-watch-late-"));
  const root = path.join(base, "later");
  const registry = await SkillRegistry.discover({ project: nodeFsStorage(root), trustProject: true });
  const reports = [];
  const w = watch(registry, { roots: [root], onChange: (r) => reports.push(r), debounceMs: 10, intervalMs: 100 });
  try {
    assert.equal(w.polling, true);
    write(root, "late", "Arrives later.");
    const r = await nextReport(reports);
    assert.deepEqual(names(r.added), ["late"]);
  } finally {
    w.close();
    await w.refreshing;
    rmSync(base, { recursive: true, force: true });
  }
});

test("watch: wrong arguments and unknown option keys are TypeErrors naming them", async () => {
  const registry = await SkillRegistry.discover({ project: nodeFsStorage(tmpdir()), trustProject: false });
  assert.throws(() => watch(null, { roots: ["."] }), { name: "TypeError", message: /registry must be a SkillRegistry/ });
  assert.throws(() => watch(registry), { name: "TypeError", message: /options must be an object/ });
  assert.throws(() => watch(registry, { roots: [] }), { name: "TypeError", message: /options\.roots must be a non-empty array/ });
  assert.throws(() => watch(registry, { roots: [42] }), { name: "TypeError", message: /options\.roots\[0\]/ });
  assert.throws(() => watch(registry, { roots: ["."], debounce: 5 }), {
    name: "TypeError",
    message: "watch: unknown option 'debounce' (the options are roots, onChange, onError, debounceMs, poll, intervalMs)",
  });
  assert.throws(() => watch(registry, { roots: ["."], debounceMs: -1 }), { name: "TypeError", message: /debounceMs/ });
  assert.throws(() => watch(registry, { roots: ["."], onChange: "x" }), { name: "TypeError", message: /onChange must be a function/ });
});

test("watch: a root deleted and made again is watched again; its skills leave and come back", async () => {
  const base = mkdtempSync(path.join(tmpdir(), "skillwasm-watch-again-"));
  const root = path.join(base, "project");
  write(root, "first", "The first skill.");
  const registry = await SkillRegistry.discover({ project: nodeFsStorage(root), trustProject: true });
  const reports = [];
  const errors = [];
  const w = watch(registry, { roots: [root], onChange: (r) => reports.push(r), onError: (e) => errors.push(e), debounceMs: 20, intervalMs: 50 });
  try {
    assert.equal(w.polling, false, "watched by fs.watch");
    rmSync(root, { recursive: true });
    let r = await nextReport(reports);
    assert.deepEqual(names(r.removed), ["first"]);
    // The root comes back (another directory at the same path), with another skill in it.
    write(root, "second", "The second skill.");
    r = await nextReport(reports);
    assert.deepEqual(names(r.added), ["second"]);
    // Watched again by fs.watch (polling stopped), and later changes under it are seen.
    const t0 = Date.now();
    while (w.polling && Date.now() - t0 < 5_000) await new Promise((res) => setTimeout(res, 20));
    assert.equal(w.polling, false, "the root is watched again");
    write(root, "third", "The third skill.");
    r = await nextReport(reports);
    assert.deepEqual(names(r.added), ["third"]);
    assert.deepEqual(registry.names().sort(), ["second", "third"]);
    // Replaced while watched (renamed away, another made in its place): followed too.
    const moved = path.join(base, "moved");
    const { renameSync } = await import("node:fs");
    renameSync(root, moved);
    write(root, "fourth", "The fourth skill.");
    const seen = new Set();
    while (!seen.has("fourth") || registry.names().includes("second")) {
      r = await nextReport(reports);
      for (const n of names(r.added)) seen.add(n);
    }
    assert.deepEqual(registry.names().sort(), ["fourth"]);
    writeFileSync(path.join(moved, ".agents", "skills", "third", "SKILL.md"), skillMd("third", "Edited where nobody watches."));
    write(root, "fifth", "The fifth skill.");
    r = await nextReport(reports);
    assert.deepEqual(names(r.added), ["fifth"]);
    assert.deepEqual(errors, []);
  } finally {
    w.close();
    await w.refreshing;
    rmSync(base, { recursive: true, force: true });
  }
});
