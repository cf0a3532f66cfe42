// The core module split in two (binaryen's wasm-split, by the profile scripts/split-profile.mjs
// takes): the work every host does runs without the cold module, which is loaded once, on the first call of a function the work never runs, and then
// shares the core instance's state. Each case runs in a fresh process, so the count of loads
// starts at zero.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, ROOT, SHARED, assertBuilt, runFreshModule } from "./helpers.mjs";

assertBuilt();
const COLD = pathToFileURL(path.join(PKG, "cold.js")).href;
const REST = pathToFileURL(path.join(PKG, "rest.js")).href;
const EXAMPLES = path.join(ROOT, "examples");

// Parse, discover, render catalogs and answer the skill tool, as a host does; then `after`.
const script = (after) => `
  const sw = await import(process.env.PKG_NODE);
  const { coldLoads } = await import(${JSON.stringify(COLD)});
  const { readFileSync } = await import("node:fs");
  const out = {};
  const text = readFileSync(${JSON.stringify(path.join(EXAMPLES, "skills", "commit-message", "SKILL.md"))});
  out.parsed = sw.parseSkills([text, "---\\nname: x\\ndescription: y\\n---\\n"], { includeBody: true }).map((r) => r.skill?.name ?? null);
  const options = { scopes: [{ name: "project", storage: sw.nodeFsStorage(${JSON.stringify(EXAMPLES)}), roots: ["skills/"], trusted: true }] };
  const registry = await sw.SkillRegistry.discover(options);
  out.names = registry.names();
  out.catalog = sw.renderCatalog(registry).text.includes("commit-message") && sw.renderCatalog(registry, { budgetTokens: 2000 }).text !== null;
  const tool = new sw.SkillTool(registry);
  out.tool = (await tool.execute({ name: out.names[0] })).isError !== true;
  out.loadsAfterUsualWork = coldLoads();
  ${after}
  console.log(JSON.stringify(out));
`;

test("parsing, discovery, catalogs and the skill tool run without the cold module", () => {
  const out = runFreshModule(script(""));
  assert.deepEqual(out.parsed, ["commit-message", "x"]);
  assert.ok(out.names.includes("commit-message"), out.names.join(", "));
  assert.equal(out.catalog, true);
  assert.equal(out.tool, true);
  assert.equal(out.loadsAfterUsualWork, 0, "the cold module was loaded by the usual work");
});

test("a function of the cold module runs on the core's state, and loads it once", () => {
  const out = runFreshModule(
    script(`
    const again = sw.SkillRegistry.fromSnapshot(registry.snapshot(), options);
    out.restored = again.names();
    out.hits = registry.search("commit").map((h) => h.name);
    out.loads = coldLoads();
  `),
  );
  assert.equal(out.loadsAfterUsualWork, 0);
  assert.deepEqual(out.restored, out.names, "the snapshot, written by cold code, holds the registry");
  assert.ok(out.hits.includes("commit-message"), out.hits.join(", "));
  assert.equal(out.loads, 1);
});

test("without the cold module, what needs it fails as a trap does, and the usual work goes on", () => {
  const out = runFreshModule(
    script(`
    const { provideCold } = await import(${JSON.stringify(COLD)});
    provideCold(() => { throw new Error("the file is gone"); });
    try { registry.snapshot(); out.snapshot = "returned"; } catch (e) { out.snapshot = [e.constructor.name, e.message]; }
    out.after = sw.parseSkill("---\\nname: after\\ndescription: d\\n---\\n").skill?.name ?? null;
    out.resets = sw.instanceResets();
  `),
  );
  assert.equal(out.snapshot[0], "RuntimeError");
  assert.match(out.snapshot[1], /cold code \(skillwasm_cold_bg\.wasm\) is not available: the file is gone/);
  assert.equal(out.after, "after", "the next call runs on a new instance");
  assert.equal(out.resets, 1);
});

test("the shared corpus (776 real skills) is parsed, discovered, listed and served without the cold module", () => {
  const corpus = path.join(SHARED, "corpus");
  // As in a page whose rest of the package could not be had (rest.js): the usual work goes on
  // without it. (In Node the rest is there from the start, and a discovery of this many skills
  // builds the search index with it.)
  const out = runFreshModule(`
    const sw = await import(process.env.PKG_NODE);
    const { coldLoads } = await import(${JSON.stringify(COLD)});
    const { loadingRest } = await import(${JSON.stringify(REST)});
    loadingRest(Promise.resolve(), () => false);
    await sw.ready();
    const { readFileSync, readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const files = [];
    (function walk(d) {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name === "SKILL.md") files.push(p);
      }
    })(${JSON.stringify(path.join(corpus, "skills"))});
    const inputs = files.map((f) => readFileSync(f));
    const out = { files: files.length };
    for (const opts of [{ includeBody: false }, { includeBody: true }, { mode: "strict" }]) {
      for (const r of sw.parseSkills(inputs, opts)) void r.body;
    }
    const registry = await sw.SkillRegistry.discover({ scopes: [{ name: "builtin", storage: sw.nodeFsStorage(${JSON.stringify(corpus)}), roots: ["skills/"] }] });
    out.names = registry.names().length;
    registry.listMetas();
    for (const format of ["xml", "json", "markdown"]) sw.renderCatalog(registry, { format, budgetTokens: 4000 });
    const tool = new sw.SkillTool(registry);
    for (const name of registry.names()) await tool.execute({ name });
    out.loads = coldLoads();
    console.log(JSON.stringify(out));
  `);
  assert.ok(out.files > 700 && out.names > 400, JSON.stringify(out));
  assert.equal(out.loads, 0, "the usual work over the corpus loaded the cold module: scripts/split-profile.mjs misses a path it takes");
});

test("after a trap, the new core instance loads the cold module for itself", () => {
  const out = runFreshModule(
    script(`
    const { trapInputs } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, "tests", "js", "support", "instance-reset.mjs")).href)});
    registry.snapshot();
    out.loadsBefore = coldLoads();
    try { sw.parseSkill("---\\nname: t\\n---\\n", trapInputs.getter(sw)); } catch (e) { out.trapped = e instanceof WebAssembly.RuntimeError; }
    const again = await sw.SkillRegistry.discover(options);
    out.resets = sw.instanceResets();
    out.restored = sw.SkillRegistry.fromSnapshot(again.snapshot(), options).names();
    out.loadsAfter = coldLoads();
  `),
  );
  assert.equal(out.loadsBefore, 1);
  assert.equal(out.trapped, true);
  assert.equal(out.resets, 1, "the trap replaced the instance");
  assert.deepEqual(out.restored, out.names, "cold code ran on the new instance's state");
  assert.equal(out.loadsAfter, 2, "the cold module was instantiated again, for the new instance");
});

test("cold code reads the core's data, on the first instance and on a new one after a trap", () => {
  // Two messages only cold code writes: a snapshot's mismatch, and fromSnapshot's type check. The
  // split moves functions only: their data stays in the core module, so it is in memory before
  // the cold module is loaded.
  const mismatch = "the snapshot was taken with other scopes, roots or trust than these; discover afresh";
  const typeCheck = "SkillRegistry.fromSnapshot: bytes must be a Uint8Array (a snapshot), not a string";
  const primary = readFileSync(path.join(PKG, "skillwasm_bg.wasm"));
  const cold = readFileSync(path.join(PKG, "skillwasm_cold_bg.wasm"));
  assert.equal(primary.includes(mismatch), true, "the core holds the cold code's messages");
  assert.equal(cold.includes(mismatch), false, "the cold module holds no data");
  const out = runFreshModule(
    script(`
    const { trapInputs } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, "tests", "js", "support", "instance-reset.mjs")).href)});
    const untrusted = { scopes: [{ ...options.scopes[0], trusted: false }] };
    const attempt = (from) => {
      const errors = [];
      try { sw.SkillRegistry.fromSnapshot(from.snapshot(), untrusted); } catch (e) { errors.push(e.message); }
      try { sw.SkillRegistry.fromSnapshot("nope", options); } catch (e) { errors.push([e.constructor.name, e.message]); }
      return errors;
    };
    out.first = attempt(registry);
    // A new instance (after a trap) loads the cold module again, over its own memory.
    try { sw.parseSkill("---\\nname: t\\n---\\n", trapInputs.getter(sw)); } catch {}
    out.resets = sw.instanceResets();
    out.second = attempt(await sw.SkillRegistry.discover(options));
    out.loads = coldLoads();
  `),
  );
  assert.equal(out.loadsAfterUsualWork, 0);
  for (const errors of [out.first, out.second]) {
    assert.equal(errors[0], `snapshot-mismatch: ${mismatch}`);
    assert.deepEqual(errors[1], ["TypeError", typeCheck]);
  }
  assert.equal(out.resets, 1);
  assert.equal(out.loads, 2);
});

test("every member browsers let run while the rest is loading runs without the cold module", () => {
  // rest.js lets the usual work go ahead in browsers before the cold module has arrived: each of its
  // members, called as a host calls it, must not need that module.
  const out = runFreshModule(
    script(`
    const { USUAL_WORK } = await import(${JSON.stringify(pathToFileURL(path.join(PKG, "rest.js")).href)});
    const usual = "---\\nname: usual\\ndescription: The usual work.\\n---\\nBody.\\n";
    const calls = {
      parseSkill: () => sw.parseSkill(usual),
      parseSkills: () => sw.parseSkills([usual]),
      renderCatalog: () => sw.renderCatalog(registry, { budgetTokens: 500 }),
      estimateTokens: () => sw.estimateTokens(usual),
      frontmatterSpan: () => sw.frontmatterSpan(usual),
      isSkippedDirectory: () => sw.isSkippedDirectory("node_modules"),
      skillFileNames: () => sw.skillFileNames({ acceptLowercaseSkillMd: true }),
      version: () => sw.version(),
      "SkillRegistry.discover": async () => {
        await sw.SkillRegistry.discover(options);
        // The shorthand: stores by scope name, under the default root.
        const files = { ".agents/skills/usual/SKILL.md": usual };
        const short = await sw.SkillRegistry.discover({ user: sw.memoryStorage(files), project: sw.memoryStorage({ ".agents/skills/other/SKILL.md": usual.replace("usual", "other") }) });
        sw.renderCatalog(short, { budgetTokens: 2000 });
        await new sw.SkillTool(short).execute({ name: "usual" });
        // A first visit: nothing stored yet; a browser's store (IndexedDB, fake-indexeddb here).
        sw.renderCatalog(await sw.SkillRegistry.discover({ user: sw.memoryStorage({}) }));
        await import("fake-indexeddb/auto");
        const idb = sw.indexedDbStorage({ dbName: "usual", storeName: "files" });
        sw.renderCatalog(await sw.SkillRegistry.discover({ user: idb }));
        await sw.putSkillFiles(idb, files);
        sw.renderCatalog(await sw.SkillRegistry.discover({ user: idb }));
      },
      "SkillRegistry#names": () => registry.names(),
      "SkillRegistry#get": () => registry.get(out.names[0]),
      "SkillRegistry#listMetas": () => registry.listMetas(),
      "SkillRegistry#listMetasAcross": () => registry.listMetasAcross(),
      "SkillRegistry#diagnostics": () => registry.diagnostics(),
      "SkillRegistry#stats": () => registry.stats(),
      "SkillRegistry#readFile": () => registry.readFile(out.names[0]),
      "new SkillTool": () => new sw.SkillTool(registry, { toolName: "skill_view" }),
      "SkillTool#definition": () => tool.definition(),
      "SkillTool#catalog": () => tool.catalog(),
      "SkillTool#execute": () => tool.execute({ name: out.names[0] }),
      "SkillTool#executeCall": () => tool.executeCall("skill", JSON.stringify({ name: out.names[0] })),
      "SkillTool#session": () => tool.session,
      "SkillTool#setSession": () => new sw.SkillTool(registry).setSession(new sw.SkillSession()),
      "new SkillSession": () => new sw.SkillSession(),
      "SkillSession#activations": () => tool.session.activations(),
      "SkillSession#clear": () => new sw.SkillSession().clear(),
    };
    out.unlisted = [...USUAL_WORK].filter((m) => !(m in calls));
    out.loading = [];
    for (const [member, call] of Object.entries(calls)) {
      await call();
      if (coldLoads() !== 0) { out.loading.push(member); break; }
    }
  `),
  );
  assert.deepEqual(out.unlisted, [], "a member of rest.js's USUAL_WORK this test does not call");
  assert.deepEqual(out.loading, [], "a member browsers run before the rest has arrived loaded the cold module: scripts/split-profile.mjs misses it");
});

// INDEXED_BY_DISCOVERY_FROM in src/discover/registry.rs.
const INDEXED_BY_DISCOVERY_FROM = 500;
const manySkills = (n) => `Object.fromEntries(Array.from({ length: ${n} }, (_, i) => [".agents/skills/s" + i + "/SKILL.md", "---\\nname: s" + i + "\\ndescription: Does task " + i + ".\\n---\\n# Topic" + i + "\\n"]))`;

test("a discovery of enough skills builds the search index (cold code) before it returns; of fewer, the first search does", () => {
  const out = runFreshModule(`
    const sw = await import(process.env.PKG_NODE);
    const { coldLoads } = await import(${JSON.stringify(COLD)});
    const out = {};
    const fewer = await sw.SkillRegistry.discover({ user: sw.memoryStorage(${manySkills(INDEXED_BY_DISCOVERY_FROM - 1)}) });
    out.loadsAfterFewer = coldLoads();
    const enough = await sw.SkillRegistry.discover({ user: sw.memoryStorage(${manySkills(INDEXED_BY_DISCOVERY_FROM)}) });
    out.loadsAfterEnough = coldLoads();
    out.hits = enough.search("topic7").map((h) => h.name);
    out.fewerHits = fewer.search("topic7").map((h) => h.name);
    console.log(JSON.stringify(out));
  `);
  assert.equal(out.loadsAfterFewer, 0, "below the bound, discovery leaves the index to the first search");
  assert.equal(out.loadsAfterEnough, 1, "the index was built by discovery");
  assert.deepEqual(out.hits, ["s7"]);
  assert.deepEqual(out.fewerHits, ["s7"]);
});

test("while the rest of the package is loading, such a discovery leaves the index to the first search, which waits for it", () => {
  const out = runFreshModule(`
    const sw = await import(process.env.PKG_NODE);
    const { coldLoads } = await import(${JSON.stringify(COLD)});
    const { loadingRest } = await import(${JSON.stringify(REST)});
    let release;
    loadingRest(new Promise((resolve) => (release = resolve)), () => true);
    const out = {};
    const registry = await sw.SkillRegistry.discover({ user: sw.memoryStorage(${manySkills(INDEXED_BY_DISCOVERY_FROM)}) });
    out.names = registry.names().length;
    out.loadsInWindow = coldLoads();
    release();
    await sw.ready();
    out.hits = registry.search("topic7").map((h) => h.name);
    out.loadsAfter = coldLoads();
    out.resets = sw.instanceResets();
    console.log(JSON.stringify(out));
  `);
  assert.equal(out.names, INDEXED_BY_DISCOVERY_FROM);
  assert.equal(out.loadsInWindow, 0, "discovery did not reach for the cold code while it was loading");
  assert.deepEqual(out.hits, ["s7"]);
  assert.equal(out.loadsAfter, 1);
  assert.equal(out.resets, 0);
});
