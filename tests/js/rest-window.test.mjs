// The window in which the browser entry's init() has resolved and the rest of the package (the
// core's cold code and the second module) is still loading in the background (rest.js), opened
// here in Node by handing rest.js a promise that the test settles: what the usual work does runs,
// an async member of the rest waits for it, a synchronous one throws before it enters wasm (no
// instance is lost), and a discovery that met a file only the second module can read waits for
// that module and reads the file. Each case runs in a fresh process (the window is module state).
// The same in Chromium, with the files really held back: first-catalog-chromium.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, assertBuilt, runFreshModule } from "./helpers.mjs";

assertBuilt();
const REST = pathToFileURL(path.join(PKG, "rest.js")).href;

const FILES = {
  // YAML beyond the subset the core reads itself (an anchor): only the second module reads it.
  ".agents/skills/anchors/SKILL.md": "---\nname: anchors\ndescription: &d Anchored text.\nother: *d\n---\nBody\n",
  ".agents/skills/plain/SKILL.md": "---\nname: plain\ndescription: Plain words.\n---\nBody of $ARGUMENTS.\n",
};

const inWindow = (body) => `
  const sw = await import(process.env.PKG_NODE);
  const { loadingRest } = await import(${JSON.stringify(REST)});
  let release;
  loadingRest(new Promise((resolve) => (release = resolve)), () => true);
  const files = ${JSON.stringify(FILES)};
  const out = {};
  const attempt = (f) => { try { f(); return "ran"; } catch (e) { return e.constructor.name + ": " + e.message; } };
  ${body}
  console.log(JSON.stringify(out));
`;

test("in the window the usual work runs, and the rest waits (async) or refuses (synchronous) without losing the instance", () => {
  const out = runFreshModule(
    inWindow(`
    const registry = await sw.SkillRegistry.discover({ user: sw.memoryStorage({ ".agents/skills/plain/SKILL.md": files[".agents/skills/plain/SKILL.md"] }) });
    out.names = registry.names();
    out.catalog = sw.renderCatalog(registry).text.includes("plain");
    out.executed = (await new sw.SkillTool(registry).execute({ name: "plain" })).isError !== true;
    out.refused = [() => registry.snapshot(), () => registry.search("plain"), () => sw.parseMessage(registry, "/plain"), () => sw.substituteArguments("$0", "x")].map(attempt);
    let refreshed = false;
    const refreshing = registry.refresh().then(() => (refreshed = true));
    await new Promise((r) => setTimeout(r, 50));
    out.refreshedBeforeRelease = refreshed;
    release();
    await sw.ready();
    await refreshing;
    out.refreshed = refreshed;
    out.after = [() => registry.snapshot(), () => registry.search("plain"), () => sw.parseMessage(registry, "/plain")].map(attempt);
    out.resets = sw.instanceResets();
  `),
  );
  assert.deepEqual(out.names, ["plain"]);
  assert.equal(out.catalog, true);
  assert.equal(out.executed, true);
  assert.equal(out.refused.length, 4);
  for (const r of out.refused) assert.match(r, /^Error: skillwasm: \S+ needs the part of the package that is still loading .*`await ready\(\)` before calling it$/);
  assert.equal(out.refreshedBeforeRelease, false, "refresh waits for the rest");
  assert.equal(out.refreshed, true);
  assert.deepEqual(out.after, ["ran", "ran", "ran"]);
  assert.equal(out.resets, 0, "no call entered wasm to fail there");
});

test("a discovery that met a file only the second module reads waits for it, and holds that skill", () => {
  const out = runFreshModule(
    inWindow(`
    let done = false;
    const discovering = sw.SkillRegistry.discover({ user: sw.memoryStorage(files) }).then((r) => { done = true; return r; });
    await new Promise((r) => setTimeout(r, 100));
    out.doneBeforeRelease = done;
    release();
    const registry = await discovering;
    out.names = registry.names();
    out.codes = registry.diagnostics().map((d) => d.code);
  `),
  );
  assert.equal(out.doneBeforeRelease, false);
  assert.deepEqual(out.names, ["anchors", "plain"]);
  assert.ok(!out.codes.includes("yaml-parser-unavailable"), out.codes.join(", "));
});

test("outside the window (Node, workerd, or after ready()) nothing waits", () => {
  const out = runFreshModule(`
    const sw = await import(process.env.PKG_NODE);
    const registry = await sw.SkillRegistry.discover({ user: sw.memoryStorage(${JSON.stringify(FILES)}) });
    await sw.ready();
    console.log(JSON.stringify({ names: registry.names(), hits: registry.search("anchored").map((h) => h.name) }));
  `);
  assert.deepEqual(out.names, ["anchors", "plain"]);
  assert.deepEqual(out.hits, ["anchors"]);
});
