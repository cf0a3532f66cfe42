// The Agent Skills Discovery index over a real HTTP server on 127.0.0.1: indexes published by
// publishWellKnown (the bundled examples, the corpus) and hostile ones built here, read through
// wellKnownStorage by the registry. Every request is counted at the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, importPkg, runCli } from "./helpers.mjs";
import { CORPUS_SKILLS } from "./support/corpus.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";
import { tgz } from "./support/tar.mjs";
import { zip } from "./support/zip.mjs";

const pkg = await importPkg();
const EXAMPLES = path.join(ROOT, "examples", "skills");
const enc = new TextEncoder();
const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const skillMd = (name, body = "Body.") => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}\n`;

function scope(storage, extra = {}) {
  return { scopes: [{ name: "site", storage, roots: [""], trusted: true, ...extra }] };
}

const codesOf = (registry) => registry.diagnostics().map((d) => d.code);

test("the bundled examples over HTTP: listing fetches only the index, artifacts once, by digest", async (t) => {
  const published = await pkg.publishWellKnown(pkg.nodeFsStorage(EXAMPLES));
  const server = await serve(routesOf(published));
  t.after(() => server.close());
  const store = pkg.wellKnownStorage(server.url);
  assert.equal(store.location, `${server.url}/.well-known/agent-skills/`);

  const page = await store.list("");
  assert.deepEqual(page.entries.map((e) => e.key), readdirSync(EXAMPLES).sort().map((n) => `${n}/SKILL.md`));
  assert.equal(server.count(), 1, "listing downloads nothing but the index");

  const registry = await pkg.SkillRegistry.discover(scope(store));
  assert.deepEqual(registry.names().sort(), readdirSync(EXAMPLES).sort());
  assert.equal(server.artifacts(), published.artifacts.length, "each artifact once");
  const meta = registry.get("csv-profiler");
  assert.equal(meta.path, `${server.url}/.well-known/agent-skills/csv-profiler/SKILL.md`);
  const disk = readdirSync(path.join(EXAMPLES, "csv-profiler"), { recursive: true })
    .filter((f) => statSync(path.join(EXAMPLES, "csv-profiler", f)).isFile() && f !== "SKILL.md");
  for (const rel of disk) {
    const got = await registry.readScopedFile("site", "csv-profiler", rel);
    assert.deepEqual(Buffer.from(got.content), readFileSync(path.join(EXAMPLES, "csv-profiler", rel)), rel);
  }
  assert.equal(server.artifacts(), published.artifacts.length, "resources come from the unpacked archive");

  const before = server.count();
  const again = await pkg.SkillRegistry.discover(scope(store));
  assert.equal(again.names().length, registry.names().length);
  assert.equal(server.count() - before, 1, "a second discovery of an unchanged index: one (conditional) index request");
  assert.equal(server.artifacts(), published.artifacts.length, "and no artifact");
  assert.equal(store.stats().indexNotModified, 2, "both discoveries after the first listing were answered 304");
  const r = await registry.refresh();
  assert.deepEqual([r.added, r.changed, r.removed].map((x) => x.length), [0, 0, 0]);
  assert.equal(server.artifacts(), published.artifacts.length);
});

test("a changed digest is a changed skill for refresh", async (t) => {
  const files = { "alpha/SKILL.md": skillMd("alpha", "One."), "beta/SKILL.md": skillMd("beta") };
  const server = await serve(routesOf(await pkg.publishWellKnown(files)));
  t.after(() => server.close());
  const store = pkg.wellKnownStorage(server.url);
  const registry = await pkg.SkillRegistry.discover(scope(store));
  assert.match((await registry.readFile("alpha")).text, /One\./);
  const next = await pkg.publishWellKnown({ ...files, "alpha/SKILL.md": skillMd("alpha", "Two.") });
  for (const [p, r] of routesOf(next)) server.routes.set(p, r);
  const before = server.artifacts();
  const r = await registry.refresh();
  assert.deepEqual(r.changed.map((c) => c.name), ["alpha"]);
  assert.equal(server.artifacts() - before, 1, "only the changed skill is downloaded");
  assert.match((await registry.readFile("alpha")).text, /Two\./);
});

test("a remote scope is untrusted until the host says otherwise: nothing but the index is fetched", async (t) => {
  const server = await serve(routesOf(await pkg.publishWellKnown(pkg.nodeFsStorage(EXAMPLES))));
  t.after(() => server.close());
  const registry = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(server.url), { trusted: undefined }));
  assert.ok(codesOf(registry).includes("scope-untrusted"));
  assert.equal(registry.names().length, 0);
  assert.equal(server.artifacts(), 0);
});

test("hostile indexes and archives cost only their own skill a diagnostic", async (t) => {
  const good = tgz([{ name: "SKILL.md", bytes: skillMd("good") }, { name: "references/a.md", bytes: "A" }]);
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  const many = Array.from({ length: 10_000 }, (_, i) => ({ name: `f/${i}`, bytes: "x" }));
  const artifacts = {
    "good.tar.gz": good,
    "good-zip.zip": zip([{ rel: "SKILL.md", bytes: enc.encode(skillMd("good-zip")) }]),
    "dotdot.tar.gz": tgz([{ name: "SKILL.md", bytes: skillMd("dotdot") }, { name: "../../etc/evil", bytes: "x" }]),
    "absolute.tar.gz": tgz([{ name: "SKILL.md", bytes: skillMd("absolute") }, { name: "/etc/evil", bytes: "x" }]),
    "link.tar.gz": tgz([{ name: "SKILL.md", bytes: skillMd("link") }, { name: "up", type: "2", link: "../../etc/passwd" }]),
    "zip-link.zip": zip([
      { rel: "SKILL.md", bytes: enc.encode(skillMd("zip-link")) },
      { rel: "out", bytes: enc.encode("/etc/passwd"), unixMode: 0o120777, method: 0 },
    ]),
    "bomb.tar.gz": tgz([{ name: "SKILL.md", bytes: skillMd("bomb") }, { name: "zeros", bytes: zeros }]),
    "many.tar.gz": tgz([{ name: "SKILL.md", bytes: skillMd("many") }, ...many]),
    "zip-many.zip": zip([{ rel: "SKILL.md", bytes: enc.encode(skillMd("zip-many")) }, ...many.map((m) => ({ rel: m.name, bytes: enc.encode("x"), method: 0 }))]),
    "nested.tar.gz": tgz([{ name: "nested/SKILL.md", bytes: skillMd("nested") }]),
    "tampered.tar.gz": good,
  };
  const entry = (name, file, extra = {}) => ({
    name, type: "archive", description: `The ${name} skill.`, url: file, digest: sha(artifacts[file]), ...extra,
  });
  const index = {
    $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
    skills: [
      entry("good", "good.tar.gz"),
      entry("good-zip", "good-zip.zip"),
      entry("dotdot", "dotdot.tar.gz"),
      entry("absolute", "absolute.tar.gz"),
      entry("link", "link.tar.gz"),
      entry("zip-link", "zip-link.zip"),
      entry("bomb", "bomb.tar.gz"),
      entry("many", "many.tar.gz"),
      entry("zip-many", "zip-many.zip"),
      entry("nested", "nested.tar.gz"),
      entry("tampered", "tampered.tar.gz", { digest: `sha256:${"0".repeat(64)}` }),
      entry("gone", "good.tar.gz", { url: "missing.tar.gz" }),
      { name: "plugin", type: "wasm-plugin", description: "?", url: "p", digest: sha("p") },
    ],
  };
  const routes = new Map([["/.well-known/agent-skills/index.json", { body: JSON.stringify(index) }]]);
  for (const [f, body] of Object.entries(artifacts)) routes.set(`/.well-known/agent-skills/${f}`, { body });
  const server = await serve(routes);
  t.after(() => server.close());
  assert.ok(artifacts["bomb.tar.gz"].length < 200 * 1024, "the bomb is small on the wire");

  const store = pkg.wellKnownStorage(server.url);
  const registry = await pkg.SkillRegistry.discover(scope(store));
  assert.deepEqual(registry.names().sort(), ["good", "good-zip"]);
  const failed = Object.fromEntries(registry.diagnostics()
    .filter((d) => d.code === "storage-read-failed")
    .map((d) => [d.path.split("/")[0].replace(/^site:/, ""), d.message]));
  const want = {
    dotdot: "archive-unsafe", absolute: "archive-unsafe", link: "archive-unsafe", "zip-link": "archive-unsafe",
    bomb: "archive-too-large", many: "archive-too-large", "zip-many": "archive-too-large",
    nested: "archive-skill-md-missing", tampered: "artifact-digest-mismatch", gone: "HTTP 404",
  };
  for (const [name, code] of Object.entries(want)) {
    const message = Object.entries(failed).find(([k]) => k.includes(name) && !(name === "link" && k.includes("zip")))?.[1];
    assert.ok(message?.includes(code), `${name}: ${code} in ${message}`);
  }
  const skipped = registry.diagnostics().filter((d) => d.code === "storage-skipped").map((d) => d.message);
  assert.ok(skipped.some((m) => m.includes("index-entry-type-unknown: plugin")), skipped.join("\n"));
  assert.equal((await registry.readScopedFile("site", "good", "references/a.md")).content.length, 1);
  assert.deepEqual(store.diagnostics().skills.good, []);
});

test("an unknown $schema is reported and not processed; v0.1.0 is the fallback", async (t) => {
  const unknown = await serve(new Map([["/.well-known/agent-skills/index.json", {
    body: JSON.stringify({ $schema: "https://schemas.agentskills.io/discovery/9.9.9/schema.json", skills: [] }),
  }]]));
  t.after(() => unknown.close());
  const r1 = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(unknown.url)));
  assert.equal(r1.names().length, 0);
  assert.ok(r1.diagnostics().some((d) => d.code === "storage-skipped" && d.message.includes("index-schema-unknown")));

  const v1 = await serve(new Map([
    ["/.well-known/skills/index.json", {
      body: JSON.stringify({ skills: [{ name: "old", description: "Old.", files: ["SKILL.md", "notes/a.md"] }] }),
    }],
    ["/.well-known/skills/old/SKILL.md", { body: skillMd("old") }],
    ["/.well-known/skills/old/notes/a.md", { body: "notes" }],
  ]));
  t.after(() => v1.close());
  const store = pkg.wellKnownStorage(v1.url);
  const r2 = await pkg.SkillRegistry.discover(scope(store));
  assert.deepEqual(r2.names(), ["old"]);
  assert.ok(r2.diagnostics().some((d) => d.message.includes("index-unverified")));
  assert.equal(v1.hits.get("/.well-known/agent-skills/index.json"), 1, "v0.2.0 was asked first");
  assert.equal(v1.hits.get("/.well-known/skills/old/notes/a.md"), undefined, "no file ahead of need");
  assert.equal((await r2.readScopedFile("site", "old", "notes/a.md")).content, "notes");
});

test("store calls: paging, prefixes, prefix reads, bad keys and the size cap", async (t) => {
  const files = {};
  for (let i = 0; i < 7; i++) files[`s${i}/SKILL.md`] = skillMd(`s${i}`);
  files["s3/references/r.md"] = "r";
  const server = await serve(routesOf(await pkg.publishWellKnown(files)));
  t.after(() => server.close());
  const store = pkg.wellKnownStorage(server.url, { maxObjectBytes: 32 });
  const keys = [];
  let cursor;
  do {
    const page = await store.list("", { limit: 3, ...(cursor ? { cursor } : {}) });
    assert.ok(page.entries.length <= 3);
    keys.push(...page.entries.map((e) => e.key));
    cursor = page.cursor;
  } while (cursor);
  assert.deepEqual(keys, Object.keys(files).filter((k) => k.endsWith("SKILL.md")).sort());
  assert.deepEqual((await store.list("s3/")).entries.map((e) => e.key), ["s3/SKILL.md"]);
  assert.equal(await store.read("nope/SKILL.md"), null);
  assert.equal((await store.read("s1/SKILL.md", { maxBytes: 3 })).length, 3);
  await assert.rejects(store.read("s1/SKILL.md"), (e) => e.code === "object-too-large");
  assert.equal((await store.read("s3/SKILL.md", { maxBytes: 3 })).length, 3);
  assert.deepEqual((await store.list("s3/")).entries.map((e) => e.key), ["s3/SKILL.md", "s3/references/r.md"]);
  await assert.rejects(store.read("../x"), TypeError);
  await assert.rejects(store.list("a"), TypeError);
  assert.throws(() => pkg.wellKnownStorage("ftp://x"), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://x", { maxEntries: -1 }), TypeError);
});

test("the CLI publishes a directory: deterministic bytes, digests of exactly what is served", () => {
  const outs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), "skillwasm-publish-")));
  for (const out of outs) {
    const r = runCli(["publish", EXAMPLES, "--out", out]);
    assert.equal(r.status, 0, r.stderr);
  }
  const dir = (out) => path.join(out, ".well-known", "agent-skills");
  const index = JSON.parse(readFileSync(path.join(dir(outs[0]), "index.json"), "utf8"));
  assert.equal(index.$schema, "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
  assert.equal(index.skills.length, readdirSync(EXAMPLES).length);
  for (const s of index.skills) {
    const bytes = readFileSync(path.join(dir(outs[0]), s.url));
    assert.equal(sha(bytes), s.digest, s.name);
    assert.deepEqual(bytes, readFileSync(path.join(dir(outs[1]), s.url)), `${s.name} is deterministic`);
    assert.equal(s.type, s.url.endsWith(".tar.gz") ? "archive" : "skill-md");
  }
  assert.equal(runCli(["publish", EXAMPLES]).status, 2);
});

/** Every skill directory of the corpus as `<dir name>/<rel>` (the first of each name). */
function corpusAsFiles() {
  const files = new Map();
  const names = new Set();
  const walk = (dir) => {
    const list = readdirSync(dir, { withFileTypes: true });
    if (list.some((e) => e.isFile() && e.name === "SKILL.md")) {
      const name = path.basename(dir);
      if (names.has(name)) return;
      names.add(name);
      for (const rel of readdirSync(dir, { recursive: true })) {
        const p = path.join(dir, rel);
        if (statSync(p).isFile() && !rel.split(path.sep).some((s) => s.startsWith("."))) {
          files.set(`${name}/${rel.split(path.sep).join("/")}`, readFileSync(p));
        }
      }
      return;
    }
    for (const e of list) if (e.isDirectory() && !e.name.startsWith(".")) walk(path.join(dir, e.name));
  };
  walk(CORPUS_SKILLS);
  return files;
}

test("the corpus over HTTP: the same skills as from memory, with the requests counted", async (t) => {
  const files = corpusAsFiles();
  const published = await pkg.publishWellKnown(files);
  const server = await serve(routesOf(published));
  t.after(() => server.close());
  const local = pkg.memoryStorage(files);
  const disk = mkdtempSync(path.join(tmpdir(), "skillwasm-corpus-"));
  for (const [key, bytes] of files) {
    mkdirSync(path.dirname(path.join(disk, key)), { recursive: true });
    writeFileSync(path.join(disk, key), bytes);
  }
  let t0 = performance.now();
  const fromDisk = await pkg.SkillRegistry.discover({ ...scope(pkg.nodeFsStorage(disk)), maxDirectories: 100_000 });
  const diskMs = performance.now() - t0;
  t0 = performance.now();
  // The corpus as one root has more directories than the default scan cap (2,000).
  const fromMemory = await pkg.SkillRegistry.discover({ ...scope(local), maxDirectories: 100_000 });
  const memoryMs = performance.now() - t0;
  t0 = performance.now();
  const store = pkg.wellKnownStorage(server.url);
  const overHttp = await pkg.SkillRegistry.discover(scope(store));
  const httpMs = performance.now() - t0;
  const published_names = JSON.parse(new TextDecoder().decode(published.index)).skills.map((s) => s.name).sort();
  // What the publisher wrote but the reader's bounds refuse (512 entries, 16 MiB) is reported.
  const refused = published_names.filter((n) => !overHttp.names().includes(n));
  for (const name of refused) {
    assert.ok(overHttp.diagnostics().some((d) => d.code === "storage-read-failed" && d.message.includes(`${name}: archive-too-large`)), name);
  }
  assert.deepEqual(fromDisk.names().sort(), fromMemory.names().sort());
  assert.deepEqual(overHttp.names().sort(), fromMemory.names().filter((n) => published_names.includes(n) && !refused.includes(n)).sort());
  assert.equal(server.artifacts(), published.artifacts.length);
  t0 = performance.now();
  await pkg.SkillRegistry.discover(scope(store));
  const againMs = performance.now() - t0;
  t.diagnostic(`corpus: ${published.artifacts.length} skills published (${published.diagnostics.length} left out), ` +
    `${overHttp.names().length} discovered over HTTP (${refused.length} above the reader's bounds); ` +
    `discovery from disk ${diskMs.toFixed(0)} ms, from memory ${memoryMs.toFixed(0)} ms, over HTTP ${httpMs.toFixed(0)} ms ` +
    `(${server.count()} requests: 1 index + ${server.artifacts()} artifacts), again ${againMs.toFixed(0)} ms ` +
    `(${store.stats().indexNotModified} index 304, no artifact)`);
});
