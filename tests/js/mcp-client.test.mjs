// mcpStorage against a real SDK Server (handlers registered in mcp-client-server.mjs) over the
// SDK's InMemoryTransport, serving corpus skills from ../shared/corpus: pagination, lazy reads,
// verification (a tampered file, a tampered frontmatter), recovery through skills/get, two
// servers with same-named skills, a skill loaded by URI only, dynamic skills, a server without the
// extension, and servers that fail or never answer. Every request is counted at the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { connect, corpusSkills, entryOf, skillsServer } from "./mcp-client-server.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, mcpStorage, renderCatalog } = pkg;

const CORPUS = corpusSkills(40);
const served = (prefix = "corpus") => CORPUS.map((s) => ({ ...s, path: `${prefix}/${s.name}` }));
const codesOf = (registry) => registry.diagnostics().map((d) => d.code);

async function serve(skills, serverOpts = {}, storeOpts = {}) {
  const { server, state } = skillsServer(skills, serverOpts);
  const client = await connect(server);
  // The label is the host's own (an in-process transport has no command or URL to derive it from).
  const storage = mcpStorage(client, { server: "host-label", ...storeOpts });
  return { server, state, client, storage };
}

function discover(storage, extra = {}) {
  return SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }], ...extra });
}

test("the corpus sample is large enough to page through", () => {
  assert.ok(CORPUS.length >= 30, `only ${CORPUS.length} corpus skills can be served`);
  assert.ok(CORPUS.some((s) => Object.keys(s.files).length > 1), "no skill with resources");
});

test("discovery pages through skills/list and reads no file; a file is read when asked, verified", async () => {
  const { state, storage } = await serve(served(), { pageSize: 7, name: "docs-server" }, { server: "docs" });
  assert.equal(storage.server, "docs", "the label is the host's, not the name the server reports");
  const registry = await discover(storage);
  const pages = Math.ceil(CORPUS.length / 7);
  assert.deepEqual(state.counts, { "skills/list": pages }, "listing makes only skills/list calls");
  const metas = registry.listMetas();
  assert.deepEqual(metas.map((m) => m.name).sort(), CORPUS.map((s) => s.name).sort());
  for (const m of metas) {
    assert.equal(m.scope, "docs");
    assert.equal(m.path, `mcp://docs/corpus/${m.name}/SKILL.md`);
    const listed = CORPUS.find((s) => s.name === m.name);
    assert.equal(m.description, listed.frontmatter.description.trim());
  }
  const withFiles = CORPUS.find((s) => Object.keys(s.files).length > 1);
  const got = await registry.readFile(withFiles.name);
  assert.equal(got.error, undefined, JSON.stringify(got.error));
  assert.ok(withFiles.files["SKILL.md"].toString("utf8").includes(got.text.slice(0, 40)));
  assert.equal(state.counts["resources/read"], 1, "one read for one SKILL.md");
  const rel = Object.keys(withFiles.files).find((r) => r !== "SKILL.md");
  const file = await registry.readFile(withFiles.name, rel);
  assert.equal(file.error, undefined, JSON.stringify(file.error));
  assert.equal(state.counts["resources/read"], 2, "one more read for one file");
  // A verified file is kept: reading it again sends nothing.
  await registry.readFile(withFiles.name, rel);
  assert.equal(state.counts["resources/read"], 2);
  assert.equal(state.counts["skills/get"], undefined, "nothing was refetched");
  const { readBytes, listBytes } = storage.stats();
  assert.ok(listBytes > 1000, `the listing's bytes are counted: ${listBytes}`);
  assert.deepEqual(storage.stats(), { listRequests: pages, getRequests: 0, readRequests: 2, readBytes, mismatches: 0, listBytes, reconnects: 0 });
  // The catalog and the tool name the server in every location.
  const catalog = renderCatalog(registry, { format: "json" });
  const entries = JSON.parse(catalog.text);
  const list = Array.isArray(entries) ? entries : entries.skills ?? entries.available_skills;
  assert.ok(JSON.stringify(list).includes(`mcp://docs/corpus/${withFiles.name}/SKILL.md`), catalog.text.slice(0, 300));
  const result = await new SkillTool(registry).execute({ name: withFiles.name });
  assert.ok(JSON.stringify(result).includes(`mcp://docs/corpus/${withFiles.name}`), "the tool result names the server");
  assert.ok(!catalog.text.includes("docs-server"), "the name the server reports is shown nowhere");
});

test("a remote store is untrusted by default: listed, nothing read", async () => {
  const { state, storage } = await serve(served());
  const registry = await SkillRegistry.discover({ scopes: [{ name: "srv", storage, roots: [""] }] });
  assert.equal(registry.listMetas().length, 0);
  assert.ok(codesOf(registry).includes("scope-untrusted"));
  assert.equal(state.counts["resources/read"], undefined);
});

test("a tampered file is refused, then recovered once skills/get gives the right entry", async () => {
  const skill = CORPUS.find((s) => Object.keys(s.files).length > 1);
  const rel = Object.keys(skill.files).find((r) => r !== "SKILL.md");
  const { state, storage } = await serve([{ ...skill, path: skill.name }]);
  const registry = await discover(storage);
  const uri = `skill://${skill.name}/${rel}`;
  const changed = Buffer.concat([skill.files[rel], Buffer.from("\n<!-- changed -->\n")]);
  state.files.set(uri, changed);
  // skills/get still gives the old entry: the file stays refused.
  const refused = await registry.readFile(skill.name, rel);
  assert.ok(refused.error, "tampered bytes were used");
  assert.match(JSON.stringify(refused.error), /mcp-digest-mismatch/);
  assert.equal(state.counts["skills/get"], 1, "one skills/get on the mismatch");
  assert.equal(state.counts["resources/read"], 2, "the file was read once more after it");
  // The server's entry now describes the new bytes: the next read recovers.
  state.entries.set(`skill://${skill.name}/SKILL.md`, entryOf(skill.name, { ...skill.files, [rel]: changed }, skill.frontmatter));
  const recovered = await registry.readFile(skill.name, rel);
  assert.equal(recovered.error, undefined, JSON.stringify(recovered.error));
  assert.equal(recovered.text ?? new TextDecoder().decode(recovered.bytes), changed.toString("utf8"));
  assert.equal(state.counts["skills/get"], 2);
  assert.equal(storage.stats().mismatches, 2);
});

test("a SKILL.md whose frontmatter differs from the listed one is not loaded", async () => {
  const skill = CORPUS[0];
  const lying = { ...skill.frontmatter, description: "Listed description that the file does not have" };
  const { state, storage } = await serve([{ ...skill, path: skill.name, frontmatter: lying }]);
  const registry = await discover(storage);
  assert.equal(registry.listMetas()[0].description, lying.description, "the catalog is built from the entry");
  const got = await registry.readFile(skill.name);
  assert.ok(got.error, "a mismatched frontmatter was used");
  assert.match(JSON.stringify(got.error), /mcp-frontmatter-mismatch/);
  assert.equal(state.counts["skills/get"], 1);
});

test("two servers' skills with one name are both reachable, each labelled with its server", async () => {
  const skill = CORPUS[0];
  const alt = Buffer.from(skill.files["SKILL.md"].toString("utf8") + "\nFrom the second server.\n");
  const a = await serve([{ ...skill, path: skill.name }], {}, { server: "alpha" });
  const b = await serve([{ ...skill, path: skill.name, files: { "SKILL.md": alt } }], {}, { server: "beta" });
  const registry = await SkillRegistry.discover({
    scopes: [
      { name: a.storage.server, storage: a.storage, roots: [""], trusted: true },
      { name: b.storage.server, storage: b.storage, roots: [""], trusted: true },
    ],
  });
  const shadowed = registry.diagnostics().filter((d) => d.code === "skill-shadowed");
  assert.equal(shadowed.length, 1);
  assert.match(shadowed[0].message, new RegExp(`beta:${skill.name}/SKILL.md .*alpha:${skill.name}/SKILL.md`));
  assert.deepEqual(registry.listMetasAcross().map((m) => m.scope).sort(), ["alpha", "beta"]);
  const fromA = await registry.readScopedFile("alpha", skill.name, "SKILL.md");
  const fromB = await registry.readScopedFile("beta", skill.name, "SKILL.md");
  assert.equal(fromA.content, skill.files["SKILL.md"].toString("utf8"));
  assert.equal(fromB.content, alt.toString("utf8"));
  assert.equal(fromB.path, `mcp://beta/${skill.name}/SKILL.md`);
});

test("a skill the listing leaves out is loaded by its URI", async () => {
  const [listed, hidden] = CORPUS;
  const { state, storage } = await serve([
    { ...listed, path: listed.name },
    { ...hidden, path: `private/${hidden.name}`, listed: false },
  ]);
  const registry = await discover(storage);
  assert.deepEqual(registry.listMetas().map((m) => m.name), [listed.name]);
  const added = await storage.addSkill(`skill://private/${hidden.name}/SKILL.md`);
  assert.equal(added.key, `private/${hidden.name}/SKILL.md`);
  const report = await registry.refresh();
  assert.deepEqual(report.added, [{ name: hidden.name, scope: storage.server, location: `private/${hidden.name}/SKILL.md` }]);
  const got = await registry.readFile(hidden.name);
  assert.equal(got.error, undefined, JSON.stringify(got.error));
  assert.ok(state.counts["skills/get"] >= 1);
  const unknown = await storage.addSkill("skill://nowhere/missing/SKILL.md");
  assert.equal(unknown.key, null);
  assert.match(unknown.error, /skills\/get/);
  const bad = await storage.addSkill("https://example.com/SKILL.md");
  assert.equal(bad.key, null);
});

test("a changed digest in a new listing is a changed skill for refresh()", async () => {
  const skill = CORPUS.find((s) => Object.keys(s.files).length > 1);
  const rel = Object.keys(skill.files).find((r) => r !== "SKILL.md");
  const { state, storage } = await serve([{ ...skill, path: skill.name }]);
  const registry = await discover(storage);
  assert.deepEqual(await registry.refresh(), { added: [], changed: [], removed: [] });
  const changed = Buffer.from("changed\n");
  state.files.set(`skill://${skill.name}/${rel}`, changed);
  state.listed[0] = entryOf(skill.name, { ...skill.files, [rel]: changed }, skill.frontmatter);
  const report = await registry.refresh();
  assert.deepEqual(report.changed.map((r) => [r.name, r.scope]), [[skill.name, storage.server]]);
  assert.deepEqual([report.added, report.removed], [[], []]);
  assert.equal(state.counts["resources/read"], undefined, "refresh reads no file");
});

test("dynamic skills are declined unless dynamic: true", async () => {
  const skill = CORPUS[0];
  const dyn = [{ ...skill, path: skill.name, resources: "dynamic" }];
  const declined = await serve(dyn);
  const r1 = await discover(declined.storage);
  assert.equal(r1.listMetas().length, 0);
  assert.ok(r1.diagnostics().some((d) => d.code === "storage-skipped" && d.message.includes("mcp-skill-dynamic")));
  const accepted = await serve(dyn, {}, { dynamic: true });
  const r2 = await discover(accepted.storage);
  assert.deepEqual(r2.listMetas().map((m) => m.name), [skill.name]);
  const got = await r2.readFile(skill.name);
  assert.equal(got.error, undefined, JSON.stringify(got.error));
});

test("a server without the extension lists nothing and is told; experimental is accepted", async () => {
  const none = await serve(served(), { declare: null });
  const r1 = await discover(none.storage);
  assert.equal(r1.listMetas().length, 0);
  assert.ok(r1.diagnostics().some((d) => d.message.includes("mcp-extension-missing")));
  assert.deepEqual(none.state.counts, {}, "no skills request to a server that does not declare them");
  // addSkill sends skills/get only to a server that declared the extension.
  const added = await none.storage.addSkill(`skill://corpus/${CORPUS[0].name}/SKILL.md`);
  assert.equal(added.key, null);
  assert.deepEqual(added.diagnostics.map((d) => d.code), ["mcp-extension-missing"]);
  assert.deepEqual(none.state.counts, {}, "addSkill sent nothing");
  assert.deepEqual(await r1.refresh(), { added: [], changed: [], removed: [] });
  const exp = await serve(served(), { declare: "experimental" });
  assert.equal((await discover(exp.storage)).listMetas().length, CORPUS.length);
});

test("a server that throws or never answers costs a diagnostic, and every promise settles", async () => {
  const throwing = await serve(served(), { hooks: { "skills/list": () => { throw new Error("boom"); } } });
  const r1 = await discover(throwing.storage);
  assert.ok(codesOf(r1).includes("storage-list-failed"));
  const hanging = await serve(served(), { hooks: { "resources/read": () => new Promise(() => {}) } }, { timeoutMs: 300 });
  const r2 = await discover(hanging.storage, { timeoutMs: 5000 });
  const started = Date.now();
  const got = await r2.readFile(CORPUS[0].name);
  assert.ok(got.error, "a read that never answered gave content");
  assert.ok(Date.now() - started < 5000, "the request timeout applies");
  const slowList = await serve(served(), { hooks: { "skills/list": () => new Promise(() => {}) } });
  const r3 = await discover(slowList.storage, { timeoutMs: 300 });
  assert.ok(codesOf(r3).includes("storage-list-failed"));
});

test("a client that ignores the timeout is cancelled through its signal, and the store settles", async () => {
  const signals = [];
  // A client of the McpClientLike shape whose requests never settle on their own.
  const client = {
    getServerCapabilities: () => ({ extensions: { "io.modelcontextprotocol/skills": {} } }),
    request: (req, schema, opts) => (signals.push(opts.signal), new Promise(() => {})),
  };
  const storage = mcpStorage(client, { server: "stuck", timeoutMs: 200 });
  const started = Date.now();
  await assert.rejects(storage.list(""), (e) => e.code === "mcp-request-failed" && /200 ms/.test(e.message));
  assert.ok(Date.now() - started < 3000, "settled at the timeout");
  assert.equal(signals.length, 1);
  assert.equal(signals[0].aborted, true, "the request's signal was aborted");
});

test("mcpStorage refuses what is not a client and unknown options", () => {
  assert.throws(() => mcpStorage(null), TypeError);
  assert.throws(() => mcpStorage({}), TypeError);
  assert.throws(() => mcpStorage({ request() {} }), /options.server is required/);
  // The name a server reports is never the label.
  assert.throws(() => mcpStorage({ request() {}, getServerVersion: () => ({ name: "trusted-by-you" }) }), /options.server is required/);
  assert.throws(() => mcpStorage({ request() {} }, { server: "x", reconnect: "yes" }), /reconnect must be a function/);
  for (const k of ["maxMessageBytes", "maxCursorBytes", "maxListingBytes", "maxPages"]) {
    assert.throws(() => mcpStorage({ request() {} }, { server: "x", [k]: 0 }), new RegExp(`${k} must be a positive integer`));
    assert.throws(() => mcpStorage({ request() {} }, { server: "x", [k]: "1" }), TypeError);
  }
  assert.throws(() => mcpStorage({ request() {} }, { server: "x", dynamc: true }), /unknown option/);
  assert.throws(() => mcpStorage({ request() {} }, { server: "x", dynamic: "yes" }), TypeError);
});

test("a snapshot restores the skills without a request; the first read lists, then fetches one file", async () => {
  const { storage } = await serve(served(), { pageSize: 10 });
  const registry = await discover(storage);
  const snapshot = registry.snapshot();
  const again = await serve(served(), { pageSize: 10 });
  const options = { scopes: [{ name: again.storage.server, storage: again.storage, roots: [""], trusted: true }] };
  const restored = await SkillRegistry.fromSnapshot(snapshot, options);
  assert.deepEqual(restored.listMetas().map((m) => [m.name, m.path]), registry.listMetas().map((m) => [m.name, m.path]));
  assert.deepEqual(again.state.counts, {}, "fromSnapshot sends nothing");
  const got = await restored.readFile(CORPUS[0].name);
  assert.equal(got.error, undefined, JSON.stringify(got.error));
  assert.deepEqual(again.state.counts, { "skills/list": Math.ceil(CORPUS.length / 10), "resources/read": 1 });
  assert.deepEqual(await restored.refresh(), { added: [], changed: [], removed: [] });
});
