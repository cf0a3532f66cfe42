// Scopes listed on first access (`lazy: true`): discovery does not wait for their stores, the
// catalog notes them, and the first tool call that needs one (or listLazyScopes) lists it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";

const { SkillRegistry, SkillTool, memoryStorage, renderCatalog } = await importPkg();

const md = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;
const local = () => memoryStorage({ ".agents/skills/local/SKILL.md": md("local") });
/** A store that never answers, counting the calls it gets. */
function silent() {
  const store = { calls: 0 };
  store.list = () => (store.calls++, new Promise(() => {}));
  store.read = () => (store.calls++, new Promise(() => {}));
  return store;
}
const timed = async (p) => {
  const t0 = performance.now();
  const value = await p;
  return [value, performance.now() - t0];
};

test("a lazy scope whose store never answers does not delay discover()", async () => {
  const remote = silent();
  const scopes = [{ name: "user", storage: local() }, { name: "remote", storage: remote, lazy: true, trusted: true }];
  const [registry, ms] = await timed(SkillRegistry.discover({ scopes, timeoutMs: 1500 }));
  assert.ok(ms < 1000, `discover() took ${ms} ms`);
  assert.equal(remote.calls, 0);
  assert.deepEqual(registry.listMetas().map((m) => m.name), ["local"]);
  const note = registry.diagnostics().find((d) => d.code === "scope-not-listed");
  assert.equal(note?.severity, "info");
  assert.match(note.message, /'remote'/);
  assert.match(renderCatalog(registry).text, /The skills of scope 'remote' are not listed yet/);
  assert.deepEqual(JSON.parse(renderCatalog(registry, { format: "json" }).text).at(-1), { scopesNotListed: ["remote"] });
  // A refresh and an offered skill's activation do not wait for it either.
  const tool = new SkillTool(registry, {});
  assert.equal((await tool.execute({ name: "local" })).isError, false);
  await registry.refresh();
  assert.equal(remote.calls, 0);

  // The same store, not lazy: discover() waits for it until the timeout (the test above is no
  // test if it would not).
  const eager = silent();
  const [, waited] = await timed(SkillRegistry.discover({ scopes: [scopes[0], { name: "remote", storage: eager, trusted: true }], timeoutMs: 1500 }));
  assert.ok(waited >= 1400 && eager.calls > 0, `${waited} ms, ${eager.calls} calls`);
});

test("the first call for a skill not offered lists the lazy scope; a store that hangs costs a diagnostic", async () => {
  const far = memoryStorage({ ".agents/skills/far/SKILL.md": md("far") });
  const registry = await SkillRegistry.discover({ scopes: [{ name: "user", storage: local() }, { name: "remote", storage: far, lazy: true }] });
  const tool = new SkillTool(registry, {});
  assert.deepEqual(tool.catalog().skills, ["local"]);
  const r = await tool.execute({ name: "far" });
  assert.equal(r.isError, false, r.content);
  assert.match(r.content, /Do far\./);
  assert.deepEqual(tool.catalog().skills, ["far", "local"]);
  assert.ok(!tool.catalog().text.includes("not listed yet"));
  assert.equal(await registry.listLazyScopes(), null, "listed once");

  const hung = silent();
  const reg2 = await SkillRegistry.discover({ scopes: [{ name: "user", storage: local() }, { name: "remote", storage: hung, lazy: true, trusted: true }], timeoutMs: 200 });
  const answer = await new SkillTool(reg2, {}).execute({ name: "far" });
  assert.equal(answer.isError, true);
  assert.ok(hung.calls > 0);
  assert.ok(reg2.diagnostics().some((d) => d.severity !== "info" && /remote|timed out|time/.test(`${d.path} ${d.message}`)), JSON.stringify(reg2.diagnostics()));
  assert.ok(!reg2.diagnostics().some((d) => d.code === "scope-not-listed"));
});

test("listLazyScopes lists them up front for a host that wants a full catalog", async () => {
  const far = memoryStorage({ ".agents/skills/far/SKILL.md": md("far") });
  const registry = await SkillRegistry.discover({ scopes: [{ name: "user", storage: local() }, { name: "remote", storage: far, lazy: true }] });
  const report = await registry.listLazyScopes();
  assert.deepEqual(report.added.map((s) => [s.name, s.scope]), [["far", "remote"]]);
  assert.match(renderCatalog(registry).text, /<name>far<\/name>/);
});

test("lazy is checked: a boolean, and unknown scope keys stay TypeErrors", async () => {
  const scopes = (extra) => [{ name: "user", storage: local(), ...extra }];
  await assert.rejects(SkillRegistry.discover({ scopes: scopes({ lazy: "yes" }) }), { name: "TypeError", message: /lazy must be a boolean/ });
  await assert.rejects(SkillRegistry.discover({ scopes: scopes({ lazzy: true }) }), { name: "TypeError", message: /unknown field `lazzy`/ });
  const r = await SkillRegistry.discover({ scopes: scopes({ lazy: false }) });
  assert.deepEqual(r.listMetas().map((m) => m.name), ["local"]);
});
