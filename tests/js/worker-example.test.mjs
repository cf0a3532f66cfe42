// examples/cloudflare-worker in workerd (miniflare, a real R2 binding persisted to a temp dir):
// skills from ../shared/corpus uploaded through its multipart and zip endpoint, the catalog in
// every format, the skill tool, diagnostics, refused uploads (traversal, oversized, zip bombs, no
// skill), MCP sessions at /mcp (the SDK's v1 Client at 2025-11-25 and v2's at 2026-07-28 under
// mcpStorage, over Streamable HTTP, every file read checked against R2), and a restarted Worker that answers after exactly one R2 call (the snapshot get).
// Prints the bundle size and the start-up times.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg, ROOT } from "./helpers.mjs";
import { CORPUS_SKILLS, corpusFiles, expectedDiscovery, uploadCorpus } from "./support/corpus.mjs";
import { createHash } from "node:crypto";
import { bundleSize, startExample } from "./support/worker-example.mjs";
import { zip } from "./support/zip.mjs";
import { countRequests } from "./support/mcp-connect.mjs";

const { mcpStorage, memoryStorage, parseSkill, SkillRegistry, wellKnownStorage } = await importPkg();
const MiB = 1024 * 1024;
const SKILLS = 5;
const skip = !existsSync(CORPUS_SKILLS) && `no ${path.relative(process.cwd(), CORPUS_SKILLS)}`;

/**
 * A handful of corpus skills to upload, chosen from the files (not hard-coded): each parses in
 * lenient mode, has a references/*.md file, holds no nested skill, and stays under the Worker's
 * limits; one per corpus repository. [{ dir, name, files: [{ rel, bytes }], reference }]
 */
function pickSkills(count) {
  const files = corpusFiles();
  const { visible } = expectedDiscovery(files);
  const picked = [];
  const names = new Set();
  const repos = new Set(); // one skill per corpus repository
  for (const md of visible) {
    const repo = md.split("/")[0];
    if (repos.has(repo)) continue;
    const base = md.slice(0, -"SKILL.md".length); // "<...>/<dir>/"
    const dir = path.posix.basename(base);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(dir) || picked.some((p) => p.dir === dir)) continue;
    const own = files.filter((f) => f.rel.startsWith(base)).map((f) => ({ ...f, rel: f.rel.slice(base.length) }));
    if (own.some((f) => f.rel !== "SKILL.md" && f.rel.endsWith("/SKILL.md"))) continue;
    if (own.some((f) => f.rel.split("/").some((s) => s.startsWith(".")))) continue;
    if (own.length > 40 || own.some((f) => f.size > MiB) || own.reduce((n, f) => n + f.size, 0) > 2 * MiB) continue;
    const reference = own.find((f) => f.rel.startsWith("references/") && f.rel.endsWith(".md") && f.size > 0);
    if (!reference) continue;
    const skillMd = readFileSync(path.join(CORPUS_SKILLS, md));
    const { skill } = parseSkill(skillMd, { dirName: dir, includeBody: false });
    if (!skill || skill.name !== dir || names.has(skill.name)) continue;
    names.add(skill.name);
    repos.add(repo);
    picked.push({
      dir,
      name: skill.name,
      reference: reference.rel,
      files: own.map((f) => ({ rel: f.rel, bytes: readFileSync(path.join(CORPUS_SKILLS, base + f.rel)) })),
    });
    if (picked.length === count) break;
  }
  return picked;
}

function form(files) {
  const f = new FormData();
  for (const { rel, bytes } of files) f.append("file", new Blob([bytes]), rel);
  return f;
}

describe("the Cloudflare Worker example in workerd over a real R2 binding", { skip }, () => {
  let persistDir;
  let worker;
  let skills;
  let catalogs = {};
  const times = {};

  const keys = async () => {
    const bucket = await worker.mf.getR2Bucket("SKILLS");
    const out = [];
    let cursor;
    do {
      const page = await bucket.list({ cursor });
      out.push(...page.objects.map((o) => o.key));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return out.sort();
  };
  const getJson = async (p) => {
    const res = await worker.fetch(p);
    assert.equal(res.status, 200, `${p}: ${res.status}`);
    return res.json();
  };
  const postTool = async (input) => {
    const res = await worker.fetch("/tool", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
    assert.equal(res.status, 200);
    return res.json();
  };
  const uploadZip = (dir, bytes) =>
    worker.fetch(`/skills/${dir}`, { method: "POST", headers: { "content-type": "application/zip" }, body: new Uint8Array(bytes) });
  // The multipart body is encoded here (Node's FormData and Response), then sent as bytes.
  const upload = async (dir, files, extraHeaders = {}) => {
    const encoded = new Response(form(files));
    const body = new Uint8Array(await encoded.arrayBuffer());
    return worker.fetch(`/skills/${dir}`, { method: "POST", headers: { "content-type": encoded.headers.get("content-type"), ...extraHeaders }, body });
  };

  before(async () => {
    persistDir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-r2-"));
    skills = pickSkills(SKILLS);
    worker = await startExample({ persistDir });
    times.emptyBucket = { readyMs: worker.readyMs, firstMs: worker.firstMs };
  });
  after(async () => {
    await worker?.dispose();
    if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  });

  test("an empty bucket: the Worker discovers nothing, writes a snapshot, offers no tool", async () => {
    assert.equal(skills.length, SKILLS, "enough corpus skills to upload");
    assert.equal(worker.first.status, 200);
    assert.equal(worker.first.body.startedFrom, "discovery");
    assert.equal(worker.first.body.skills, 0);
    assert.deepEqual(await keys(), ["skills.snapshot"]);
    assert.equal(await getJson("/tool"), null);
    const c = await getJson("/catalog");
    assert.equal(c.text, null);
  });

  test("uploads: each skill's files go to R2 under the prefix and the registry and snapshot follow", async () => {
    for (const [i, s] of skills.entries()) {
      const res = await upload(s.dir, s.files);
      const body = await res.json();
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.name, s.name);
      assert.deepEqual(body.files.map((f) => f.path), s.files.map((f) => f.rel).sort());
      assert.deepEqual(body.refresh.added.map((a) => a.name), [s.name]);
      assert.equal((await getJson("/status")).skills, i + 1);
    }
    const expected = ["skills.snapshot", ...skills.flatMap((s) => s.files.map((f) => `skills/${s.dir}/${f.rel}`))].sort();
    assert.deepEqual(await keys(), expected);
    const bucket = await worker.mf.getR2Bucket("SKILLS");
    const s0 = skills[0];
    const stored = await bucket.get(`skills/${s0.dir}/${s0.reference}`);
    assert.deepEqual(Buffer.from(await stored.arrayBuffer()), s0.files.find((f) => f.rel === s0.reference).bytes);
  });

  test("a folder upload (<dir>/... paths) is stored without the folder; a re-upload removes files it no longer has", async () => {
    const s = skills[1];
    const fewer = s.files.filter((f) => f.rel !== s.reference);
    const res = await upload(s.dir, fewer.map((f) => ({ ...f, rel: `${s.dir}/${f.rel}` })));
    const body = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.deepEqual(body.removed, [s.reference]);
    assert.deepEqual(body.refresh.changed, [], "SKILL.md did not change");
    assert.ok(!(await keys()).includes(`skills/${s.dir}/${s.reference}`));
    const again = await upload(s.dir, s.files);
    assert.equal(again.status, 201);
    assert.ok((await keys()).includes(`skills/${s.dir}/${s.reference}`));
  });

  test("a zip upload (deflated, with the folder inside) stores the same files as multipart", async () => {
    const s = skills[3];
    const res = await uploadZip(s.dir, zip(s.files.map((f) => ({ ...f, rel: `${s.dir}/${f.rel}` }))));
    const body = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.deepEqual(body.files.map((f) => f.path), s.files.map((f) => f.rel).sort());
    assert.deepEqual(body.removed, []);
    assert.deepEqual(body.refresh, { added: [], changed: [], removed: [] }, "the same SKILL.md as before");
    const bucket = await worker.mf.getR2Bucket("SKILLS");
    for (const f of s.files) {
      const obj = await bucket.get(`skills/${s.dir}/${f.rel}`);
      assert.deepEqual(Buffer.from(await obj.arrayBuffer()), f.bytes, f.rel);
    }
  });

  test("the catalog in each format, with a token budget and a locale", async () => {
    const names = skills.map((s) => s.name).sort();
    for (const format of ["xml", "json", "markdown", "reference"]) {
      const c = await getJson(`/catalog?format=${format}`);
      catalogs[format] = c;
      assert.equal(typeof c.text, "string", format);
      assert.equal(typeof c.instructions, "string");
      assert.deepEqual([...c.skills].sort(), names, format);
      for (const n of names) assert.ok(c.text.includes(n), `${format} names ${n}`);
      assert.deepEqual(c.dropped, []);
      assert.ok(c.tokens > 0);
    }
    assert.match(catalogs.xml.text, /^<available_skills>/);
    assert.deepEqual(JSON.parse(catalogs.json.text).map((e) => e.name).sort(), names);
    assert.match(catalogs.markdown.text, /^- /m);
    const tight = await getJson(`/catalog?format=xml&budgetTokens=${Math.floor(catalogs.xml.tokens / 3)}`);
    assert.ok(tight.tokens <= Math.floor(catalogs.xml.tokens / 3), `${tight.tokens} tokens`);
    assert.ok(tight.dropped.length + tight.shortened.length > 0);
    const zh = await getJson("/catalog?format=json&locale=zh-CN&includeLocation=false");
    assert.equal(zh.skills.length, SKILLS);
    assert.ok(!zh.text.includes("SKILL.md"), "no locations");
    for (const bad of ["format=yaml", "budgetTokens=-1", "budgetTokens=x"]) {
      const res = await worker.fetch(`/catalog?${bad}`);
      assert.equal(res.status, 400, bad);
    }
  });

  test("the skill tool: definition, activation, a resource, and refusals the model can read", async () => {
    const def = await getJson("/tool");
    assert.equal(def.name, "activate_skill");
    assert.deepEqual([...def.inputSchema.properties.name.enum].sort(), skills.map((s) => s.name).sort());
    const s = skills[0];
    const act = await postTool({ name: s.name });
    assert.equal(act.isError, false);
    assert.ok(act.content.startsWith(`<skill_content name="${s.name}">`), act.content.slice(0, 80));
    assert.ok(act.content.includes(s.reference), "the resource is listed");
    const body = parseSkill(s.files.find((f) => f.rel === "SKILL.md").bytes).skill.body.trim();
    assert.ok(act.content.includes(body.slice(0, 200)), "the instructions");
    // Each request gets a fresh session: a second activation is the full text again.
    assert.equal((await postTool({ name: s.name })).content, act.content);

    const res = await postTool({ name: s.name, path: s.reference });
    assert.equal(res.isError, false);
    assert.ok(res.content.includes(s.files.find((f) => f.rel === s.reference).bytes.toString("utf8").trim().slice(0, 200)));

    for (const p of ["../x", "%2e%2e/x", "/etc/passwd"]) {
      const r = await postTool({ name: s.name, path: p });
      assert.equal(r.isError, true, p);
      assert.equal(r.error.code, "path-invalid", p);
    }
    const unknown = await postTool({ name: "no-such-skill" });
    assert.equal(unknown.isError, true);
    assert.ok(unknown.content.includes(s.name), "lists the skills that exist");
    const bad = await worker.fetch("/tool", { method: "POST", body: "not json" });
    assert.equal(bad.status, 400);
  });

  test("hundreds of hostile POST /tool bodies leave the Worker answering normally", async () => {
    const nest = (depth, open, close, leaf = '"x"') => open.repeat(depth) + leaf + close.repeat(depth);
    const name = skills[0].name;
    // Bodies as an unauthenticated caller would send them (text: JSON.parse happens in the Worker).
    const bodies = [
      `{"name":${nest(5000, "[", "]")}}`,
      `{"name":"${name}","path":${nest(3000, '{"a":', "}")}}`,
      `{"name":${nest(100, '{"a":', "}")}}`,
      `{"name":"${name}","extra":${nest(2000, "[", "]")}}`,
      JSON.stringify({ name: "x".repeat(2 * MiB) }),
      JSON.stringify({ name, path: "a/".repeat(100_000) }),
      JSON.stringify({ name: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])) }),
      JSON.stringify({ name, extra: Array.from({ length: 100_000 }, (_, i) => i) }),
      `{"name":"\ud800${name}"}`,
      `{"name":"${name}","path":"\udc00/x"}`,
      `{"name":null}`,
      `{"name":1e999}`,
      `{"name":["${name}"]}`,
      `{"__proto__":{"name":"${name}"}}`,
      `{"name":"${name}","path":"../../etc/passwd"}`,
      `{"name":"${name}","force":"yes"}`,
      "[]",
      `"${name}"`,
      "{",
    ];
    const before = { catalog: await (await worker.fetch("/catalog")).text(), tool: await getJson("/tool"), act: await postTool({ name }) };
    const statuses = new Map();
    for (let i = 0; i < 300; i++) {
      const res = await worker.fetch("/tool", { method: "POST", headers: { "content-type": "application/json" }, body: bodies[i % bodies.length] });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // A body over the Worker's 64 KiB bound for /tool is refused unread (413).
      const big = Buffer.byteLength(bodies[i % bodies.length]) > 64 * 1024;
      assert.ok(big ? res.status === 413 : res.status === 200 || res.status === 400, `body ${i % bodies.length}: HTTP ${res.status} ${text.slice(0, 200)}`);
      if (res.status === 200) assert.equal(typeof JSON.parse(text).isError, "boolean");
    }
    assert.ok((statuses.get(200) ?? 0) > 100, `most bodies reach the tool: ${JSON.stringify([...statuses])}`);
    assert.equal(await (await worker.fetch("/catalog")).text(), before.catalog, "the same catalog");
    assert.deepEqual(await getJson("/tool"), before.tool, "the same tool definition");
    assert.deepEqual(await postTool({ name }), before.act, "the same activation");
    assert.equal((await getJson("/status")).skills, SKILLS);
  });

  test("refused uploads: traversal, oversized, no SKILL.md, no skill in it; nothing is written", async () => {
    const before = await keys();
    const skillMd = { rel: "SKILL.md", bytes: Buffer.from("---\nname: evil\ndescription: Tries things.\n---\nBody\n") };
    const cases = [
      ["../x", 400, "evil", [skillMd, { rel: "../x", bytes: Buffer.from("x") }]],
      ["%2e%2e/x", 400, "evil", [skillMd, { rel: "%2e%2e/x", bytes: Buffer.from("x") }]],
      ["a//b", 400, "evil", [skillMd, { rel: "references//b", bytes: Buffer.from("x") }]],
      ["dir ..%2Fx", 400, "..%2Fx", [skillMd]],
      ["dir %252e%252e", 400, "%252e%252e", [skillMd]],
      ["a file over 1 MiB", 413, "evil", [skillMd, { rel: "big.bin", bytes: Buffer.alloc(MiB + 1) }]],
      ["files over 5 MiB together", 413, "evil", [skillMd, ...Array.from({ length: 6 }, (_, i) => ({ rel: `f${i}.bin`, bytes: Buffer.alloc(MiB - 1) }))]],
      ["no SKILL.md", 400, "evil", [{ rel: "README.md", bytes: Buffer.from("hi") }]],
      ["no skill", 422, "evil", [{ rel: "SKILL.md", bytes: Buffer.from("---\nname: evil\n---\nno description\n") }]],
    ];
    for (const [label, status, dir, files] of cases) {
      const res = await upload(dir, files);
      const body = await res.json();
      assert.equal(res.status, status, `${label}: ${JSON.stringify(body)}`);
      assert.equal(typeof body.error, "string", label);
      if (status === 422) assert.ok(body.diagnostics.some((d) => d.code === "description-missing"), JSON.stringify(body.diagnostics));
    }
    const zipCases = [
      ["zip: ../x", 400, [skillMd, { rel: "../x", bytes: Buffer.from("x") }]],
      ["zip: %2e%2e/x", 400, [skillMd, { rel: "%2e%2e/x", bytes: Buffer.from("x") }]],
      ["zip: a bomb whose header says 100 bytes", 413, [skillMd, { rel: "zeros.bin", bytes: Buffer.alloc(8 * MiB), declaredSize: 100 }]],
      ["zip: a stored file over 1 MiB", 413, [skillMd, { rel: "big.bin", bytes: Buffer.alloc(MiB + 1), method: 0 }]],
      ["zip: no skill", 422, [{ rel: "SKILL.md", bytes: Buffer.from("no frontmatter at all\n") }]],
    ];
    for (const [label, status, files] of zipCases) {
      const res = await uploadZip("evil", zip(files));
      const body = await res.json();
      assert.equal(res.status, status, `${label}: ${JSON.stringify(body)}`);
    }
    for (const [label, bytes] of [["not a zip", Buffer.from("PK not really")], ["truncated", zip([skillMd]).subarray(0, 40)]]) {
      const res = await uploadZip("evil", bytes);
      assert.equal(res.status, 400, label);
    }
    const text = await worker.fetch("/skills/evil", { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    assert.equal(text.status, 415);
    assert.deepEqual(await keys(), before, "nothing written");
    assert.equal((await getJson("/status")).skills, SKILLS);
  });

  test("writes need the bearer secret; an upload named otherwise than its directory is refused", async () => {
    const before = await keys();
    const s = skills[0];
    const encoded = new Response(form(s.files));
    const body = new Uint8Array(await encoded.arrayBuffer());
    const headers = { "content-type": encoded.headers.get("content-type") };
    for (const [label, init] of [
      ["no authorization", { anonymous: true }],
      ["a wrong secret", { headers: { ...headers, authorization: "Bearer nope" } }],
      ["the secret without Bearer", { headers: { ...headers, authorization: "test-write-secret" } }],
    ]) {
      for (const [p, method] of [[`/skills/${s.dir}`, "POST"], [`/skills/${s.dir}`, "DELETE"], ["/refresh", "POST"]]) {
        const res = await worker.fetch(p, { method, headers, body: method === "POST" ? body : undefined, ...init });
        assert.equal(res.status, 401, `${label}: ${method} ${p}`);
        assert.equal(res.headers.get("www-authenticate"), "Bearer");
      }
    }
    const renamed = s.files.map((f) => (f.rel === "SKILL.md" ? { ...f, bytes: Buffer.from(f.bytes.toString("utf8").replace(/^name:.*$/m, "name: other-name")) } : f));
    const res = await upload(s.dir, renamed);
    assert.equal(res.status, 422, JSON.stringify(await res.json()));
    assert.deepEqual(await keys(), before, "nothing written");
  });

  test("an upload holding a SKILL.md of another skill is refused (/skills/zzz with deploy-prod/SKILL.md); nothing is written", async () => {
    const before = await keys();
    const md = (name, what = `The ${name} skill.`) => Buffer.from(`---\nname: ${name}\ndescription: ${what}\n---\n\nBody of ${name}.\n`);
    for (const [label, nested] of [
      ["nested, named as its own directory", { rel: "deploy-prod/SKILL.md", bytes: md("deploy-prod", "Deploys to production.") }],
      ["nested, named otherwise", { rel: "x/SKILL.md", bytes: md("deploy-prod", "Deploys to production.") }],
      ["deep, lowercase, its name the directory's", { rel: "a/b/deploy-prod/skill.md", bytes: Buffer.from("---\ndescription: Deploys.\n---\n") }],
      ["in a folder upload", { rel: "zzz/deploy-prod/SKILL.md", bytes: md("deploy-prod") }],
    ]) {
      const top = nested.rel.startsWith("zzz/") ? { rel: "zzz/SKILL.md", bytes: md("zzz") } : { rel: "SKILL.md", bytes: md("zzz") };
      const res = await upload("zzz", [top, nested]);
      const body = await res.json();
      assert.equal(res.status, 422, `${label}: ${JSON.stringify(body)}`);
      assert.match(body.error, /deploy-prod/, label);
    }
    const zipped = await uploadZip("zzz", zip([{ rel: "SKILL.md", bytes: md("zzz") }, { rel: "deploy-prod/SKILL.md", bytes: md("deploy-prod") }]));
    assert.equal(zipped.status, 422, JSON.stringify(await zipped.json()));
    assert.deepEqual(await keys(), before, "nothing written");
    assert.equal((await postTool({ name: "deploy-prod" })).isError, true, "/tool never serves it");
    // A nested SKILL.md of the skill's own name is no other skill.
    const own = await upload("zzz", [{ rel: "SKILL.md", bytes: md("zzz") }, { rel: "templates/zzz/SKILL.md", bytes: md("zzz", "A template.") }]);
    assert.equal(own.status, 201, JSON.stringify(await own.json()));
    const gone = await worker.fetch("/skills/zzz", { method: "DELETE" });
    assert.equal(gone.status, 200, JSON.stringify(await gone.json()));
    assert.deepEqual(await keys(), before, "removed again");
  });

  test("an upload whose name looks like a stored skill's is refused (Cyrillic сор beside cop, PDF beside pdf); nothing is written", async () => {
    const md = (name) => Buffer.from(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n\nBody of ${name}.\n`);
    const cop = await upload("cop", [{ rel: "SKILL.md", bytes: md("cop") }]);
    assert.equal(cop.status, 201, JSON.stringify(await cop.json()));
    const before = await keys();
    for (const impostor of ["\u0441\u043E\u0440", "COP", "\uFF43\uFF4F\uFF50"]) {
      const res = await upload(impostor, [{ rel: "SKILL.md", bytes: md(impostor) }]);
      const body = await res.json();
      assert.equal(res.status, 409, `${impostor}: ${JSON.stringify(body)}`);
      assert.equal(body.lookalike, "cop");
      assert.match(body.error, /looks like the skill 'cop'/);
    }
    assert.deepEqual(await keys(), before, "nothing written");
    // A plain name that merely shares a key (`rn` reads as `m`) is its own skill.
    for (const plain of ["corn", "com"]) {
      const res = await upload(plain, [{ rel: "SKILL.md", bytes: md(plain) }]);
      assert.equal(res.status, 201, `${plain}: ${JSON.stringify(await res.json())}`);
    }
    for (const dir of ["corn", "com", "cop"]) assert.equal((await worker.fetch(`/skills/${dir}`, { method: "DELETE" })).status, 200);
  });

  test("an upload carrying X-Skill-Digest is stored only when its content has that digest; the answer gives the digest", async () => {
    const files = [
      { rel: "SKILL.md", bytes: Buffer.from("---\nname: pinned\ndescription: A pinned skill.\n---\n\nBody.\n") },
      { rel: "references/a.md", bytes: Buffer.from("# A\n") },
    ];
    // The digest as a client computes it: the package's registry over the same files in memory.
    const local = await SkillRegistry.discover({ scopes: [{ name: "c", storage: memoryStorage(Object.fromEntries(files.map((f) => [`pinned/${f.rel}`, f.bytes]))), roots: [""], trusted: true }] });
    const digest = (await local.contentDigest("pinned")).digest;
    const before = await keys();
    const wrong = await upload("pinned", files, { "x-skill-digest": `sha256:${"0".repeat(64)}` });
    const refused = await wrong.json();
    assert.equal(wrong.status, 412, JSON.stringify(refused));
    assert.equal(refused.digest, digest);
    assert.deepEqual(await keys(), before, "nothing written");
    const right = await upload("pinned", files, { "x-skill-digest": digest });
    const stored = await right.json();
    assert.equal(right.status, 201, JSON.stringify(stored));
    assert.equal(stored.digest, digest);
    // The Worker's index and MCP server publish what gives the same digest: the index's artifact
    // unpacked, and the MCP manifest's per-file digests with no file downloaded.
    const index = wellKnownStorage("http://worker", { fetch: (url, init) => worker.fetch(new URL(url).pathname, { headers: init.headers }) });
    const fromIndex = await SkillRegistry.discover({ scopes: [{ name: "worker", storage: index, roots: [""], trusted: true }] });
    assert.equal((await fromIndex.contentDigest("pinned")).digest, digest, "discovery index");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const client = new Client({ name: "worker-pins", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("http://worker/mcp"), { fetch: (url, init) => worker.fetch(new URL(url).pathname, { ...init, anonymous: true }) }));
    try {
      const requests = countRequests(client);
      const fromMcp = await SkillRegistry.discover({ scopes: [{ name: "worker", storage: mcpStorage(client, { server: "worker" }), roots: [""], trusted: true }] });
      assert.equal((await fromMcp.contentDigest("pinned")).digest, digest, "MCP manifest");
      assert.equal(requests["resources/read"] ?? 0, 0, JSON.stringify(requests));
      fromMcp.free();
    } finally {
      await client.close();
    }
    fromIndex.free();
    local.free();
    assert.equal((await worker.fetch("/skills/pinned", { method: "DELETE" })).status, 200);
  });

  test("an upload is vetted before it is stored: one that sends cloud keys away is refused, nothing written; a clean one lists no finding", async () => {
    const fixture = path.join(ROOT, "tests", "fixtures", "vet", "malicious", "exfiltration", "aws-credentials");
    const bad = [{ rel: "SKILL.md", bytes: readFileSync(path.join(fixture, "SKILL.md")) }];
    const before = await keys();
    const res = await upload("aws-credentials", bad);
    const body = await res.json();
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.equal(body.refusal.code, "vet-refused");
    assert.match(body.error, /refused by vetting: .*vet-exfiltration \(high\) at SKILL\.md:\d+/);
    assert.ok(body.findings.some((f) => f.code === "vet-exfiltration" && f.level === "high" && f.path === "SKILL.md"));
    assert.deepEqual(await keys(), before, "nothing written");
    const clean = await upload("tidy", [{ rel: "SKILL.md", bytes: Buffer.from("---\nname: tidy\ndescription: Tidies notes.\n---\n\nSort the notes by date.\n") }]);
    const stored = await clean.json();
    assert.equal(clean.status, 201, JSON.stringify(stored));
    assert.deepEqual(stored.findings, []);
    assert.equal((await worker.fetch("/skills/tidy", { method: "DELETE" })).status, 200);
  });

  test("VET=report stores such an upload and lists its findings; VET=off does not vet", async () => {
    const fixture = path.join(ROOT, "tests", "fixtures", "vet", "malicious", "exfiltration", "aws-credentials");
    const bad = [{ rel: "SKILL.md", bytes: readFileSync(path.join(fixture, "SKILL.md")) }];
    for (const [vet, findings] of [["report", true], ["off", false]]) {
      const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-vet-"));
      const other = await startExample({ persistDir: dir, vars: { VET: vet } });
      try {
        const encoded = new Response(form(bad));
        const res = await other.fetch("/skills/aws-credentials", { method: "POST", headers: { "content-type": encoded.headers.get("content-type") }, body: new Uint8Array(await encoded.arrayBuffer()) });
        const body = await res.json();
        assert.equal(res.status, 201, JSON.stringify(body));
        assert.equal(body.findings.some((f) => f.code === "vet-exfiltration"), findings, vet);
      } finally {
        await other.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test("a failed upload leaves the previous version whole", async () => {
    const s = skills[2];
    const bucket = await worker.mf.getR2Bucket("SKILLS");
    const stored = async () => Object.fromEntries(await Promise.all((await keys()).filter((k) => k.startsWith(`skills/${s.dir}/`))
      .map(async (k) => [k, createHash("sha256").update(Buffer.from(await (await bucket.get(k)).arrayBuffer())).digest("hex")])));
    const before = await stored();
    // A new SKILL.md and reference, then a file whose key R2 refuses (longer than 1,024 bytes): the put fails midway.
    const changed = s.files.map((f) => ({ ...f, bytes: Buffer.concat([f.bytes, Buffer.from("\nchanged\n")]) }));
    const res = await upload(s.dir, [...changed, { rel: `references/${"x".repeat(1100)}.md`, bytes: Buffer.from("x") }]);
    assert.equal(res.status, 503, JSON.stringify(await res.json()));
    assert.deepEqual(await stored(), before, "every file as it was, none added");
    const tool = await postTool({ name: s.name, path: s.reference });
    assert.ok(!tool.content.includes("\nchanged\n"));
  });

  test("the skills as an Agent Skills Discovery index: read back through wellKnownStorage", async () => {
    const res = await worker.fetch("/.well-known/agent-skills/index.json");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.match(res.headers.get("cache-control"), /max-age/);
    const etag = res.headers.get("etag");
    const index = await res.json();
    assert.deepEqual(index.skills.map((e) => e.name).sort(), skills.map((s) => s.name).sort());
    assert.equal((await worker.fetch("/.well-known/agent-skills/index.json", { headers: { "if-none-match": etag } })).status, 304);
    for (const e of index.skills) {
      const a = await worker.fetch(`/.well-known/agent-skills/${e.url}`);
      assert.equal(a.status, 200, e.url);
      assert.equal(a.headers.get("content-type"), e.type === "archive" ? "application/gzip" : "text/markdown; charset=utf-8");
      assert.equal(`sha256:${createHash("sha256").update(Buffer.from(await a.arrayBuffer())).digest("hex")}`, e.digest);
      assert.equal(a.headers.get("etag"), `"${e.digest.slice(7)}"`);
    }
    const requests = [];
    const store = wellKnownStorage("http://worker", {
      fetch: (url, init) => (requests.push(url), worker.fetch(new URL(url).pathname, { headers: init.headers })),
    });
    const registry = await SkillRegistry.discover({ scopes: [{ name: "worker", storage: store, roots: [""], trusted: true }] });
    assert.deepEqual(registry.names().sort(), skills.map((s) => s.name).sort());
    assert.equal(requests.length, 1 + index.skills.length, "the index and each artifact once");
    const s = skills[0];
    const ref = await registry.readScopedFile("worker", s.name, s.reference);
    assert.deepEqual(Buffer.from(ref.content), s.files.find((f) => f.rel === s.reference).bytes);
  });

  test("an MCP session at /mcp: the Skills extension over the R2 bucket, every read verified, writes still need the secret", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const { McpError } = await import("@modelcontextprotocol/sdk/types.js");
    const z = await import("zod/v4");
    const Loose = z.looseObject({});
    // Every MCP request goes without the write secret.
    const transport = new StreamableHTTPClientTransport(new URL("http://worker/mcp"), {
      fetch: (url, init) => worker.fetch(new URL(url).pathname, { ...init, anonymous: true }),
    });
    const client = new Client({ name: "worker-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      assert.deepEqual(client.getServerCapabilities().extensions, { "io.modelcontextprotocol/skills": { directoryRead: true } });
      const entries = [];
      let cursor;
      do {
        const page = await client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, Loose);
        assert.equal(page.resultType, "complete");
        assert.equal(page.cacheScope, "public");
        entries.push(...page.skills);
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(entries.map((e) => e.frontmatter.name), skills.map((s) => s.name).sort());
      const bucket = await worker.mf.getR2Bucket("SKILLS");
      let files = 0;
      for (const e of entries) {
        const s = skills.find((k) => k.name === e.frontmatter.name);
        assert.deepEqual(e.resources.map((r) => r.uri).sort(), s.files.map((f) => `skill://${s.name}/${f.rel}`).sort());
        for (const r of e.resources) {
          const read = await client.readResource({ uri: r.uri });
          const c = read.contents[0];
          const got = c.text !== undefined ? Buffer.from(c.text, "utf8") : Buffer.from(c.blob, "base64");
          const stored = Buffer.from(await (await bucket.get(`skills/${s.dir}/${r.uri.slice(`skill://${s.name}/`.length)}`)).arrayBuffer());
          assert.deepEqual(got, stored, r.uri);
          assert.equal(r.size, stored.length, r.uri);
          assert.equal(r.digest, `sha256:${createHash("sha256").update(stored).digest("hex")}`, r.uri);
          files++;
        }
      }
      assert.ok(files > SKILLS, `${files} files read`);
      const got = await client.request({ method: "skills/get", params: { uri: entries[0].uri } }, Loose);
      assert.deepEqual(got.skill, entries[0]);
      await assert.rejects(client.request({ method: "skills/get", params: { uri: "skill://no-such-skill/SKILL.md" } }, Loose), (e) => e instanceof McpError && e.code === -32602);
      const root = await client.request({ method: "resources/directory/read", params: { uri: `skill://${skills[0].name}` } }, Loose);
      assert.ok(root.resources.some((r) => r.name === "SKILL.md"));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["activate_skill"]);
      const called = await client.callTool({ name: "activate_skill", arguments: { name: skills[0].name } });
      assert.notEqual(called.isError, true);
    } finally {
      await client.close();
    }
    // The MCP endpoint writes nothing, and the write endpoints still refuse without the secret.
    assert.equal((await worker.fetch("/refresh", { method: "POST", anonymous: true })).status, 401);
    assert.equal((await worker.fetch(`/skills/${skills[0].dir}`, { method: "DELETE", anonymous: true })).status, 401);
    const big = await worker.fetch("/mcp", {
      method: "POST", anonymous: true,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { pad: "x".repeat(100 * 1024) } }),
    });
    assert.equal(big.status, 413);
    assert.equal((await worker.fetch("/mcp", { method: "GET", anonymous: true })).status, 405);
  });

  test("/mcp at MCP 2026-07-28: the SDK's v2 Client negotiates the modern era, mcpStorage reads every skill verified", async () => {
    const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const transport = new StreamableHTTPClientTransport(new URL("http://worker/mcp"), {
      fetch: (url, init) => worker.fetch(new URL(url).pathname, { ...init, anonymous: true }),
    });
    const client = new Client({ name: "worker-modern", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    try {
      assert.equal(client.getProtocolEra(), "modern");
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      assert.equal(client.getServerVersion()?.name, "skillwasm-skills");
      const storage = mcpStorage(client);
      const registry = await SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }] });
      assert.deepEqual(registry.names().sort(), skills.map((s) => s.name).sort());
      const bucket = await worker.mf.getR2Bucket("SKILLS");
      for (const s of skills) {
        for (const f of s.files) {
          const got = await storage.read(`${s.name}/${f.rel}`);
          const stored = Buffer.from(await (await bucket.get(`skills/${s.dir}/${f.rel}`)).arrayBuffer());
          assert.deepEqual(Buffer.from(got), stored, `${s.name}/${f.rel}`);
        }
      }
      assert.equal(storage.stats().mismatches, 0);
      const activated = await registry.readFile(skills[0].name);
      assert.equal(activated.error, undefined);
    } finally {
      await client.close();
    }
  });

  test("DELETE /skills/<dir> removes a skill; POST /refresh picks up changes made to R2 directly", async () => {
    const s = skills[4];
    const res = await worker.fetch(`/skills/${s.dir}`, { method: "DELETE" });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.removed.sort(), s.files.map((f) => f.rel).sort());
    assert.deepEqual(body.refresh.removed.map((r) => r.name), [s.name]);
    assert.ok(!(await getJson("/catalog?format=json")).skills.includes(s.name));
    assert.ok(!(await keys()).some((k) => k.startsWith(`skills/${s.dir}/`)));
    assert.equal((await worker.fetch(`/skills/${s.dir}`, { method: "DELETE" })).status, 404);
    assert.equal((await upload(s.dir, s.files)).status, 201);

    const bucket = await worker.mf.getR2Bucket("SKILLS");
    await bucket.put("skills/made-outside/SKILL.md", "---\nname: made-outside\ndescription: Put into R2 by hand.\n---\nHi\n");
    const added = await (await worker.fetch("/refresh", { method: "POST" })).json();
    assert.deepEqual(added.refresh.added.map((a) => a.name), ["made-outside"]);
    assert.equal(added.skills, SKILLS + 1);
    await bucket.delete("skills/made-outside/SKILL.md");
    const gone = await (await worker.fetch("/refresh", { method: "POST" })).json();
    assert.deepEqual(gone.refresh.removed.map((a) => a.name), ["made-outside"]);
    assert.equal(gone.skills, SKILLS);
  });

  test("diagnostics", async () => {
    const d = await getJson("/diagnostics");
    assert.equal(d.skills, SKILLS);
    assert.ok(Array.isArray(d.diagnostics));
    for (const x of d.diagnostics) assert.ok(x.code && x.severity && x.message, JSON.stringify(x));
    assert.ok(d.stats.listCalls > 0);
  });

  test("a restarted Worker answers from the snapshot after exactly one R2 call; without it, it discovers and writes one", async () => {
    const status = await getJson("/status");
    await worker.dispose();
    worker = null;

    // Restart over the same R2 storage: the first request is /catalog itself.
    worker = await startExample({ persistDir, firstPath: "/catalog?format=xml" });
    times.snapshot = { readyMs: worker.readyMs, firstMs: worker.firstMs };
    assert.deepEqual(worker.first.body, catalogs.xml, "the same catalog as before the restart");
    const warm = await getJson("/status");
    assert.equal(warm.startedFrom, "snapshot");
    assert.deepEqual(warm.r2, { list: 0, get: 1, head: 0, put: 0, delete: 0 }, "one R2 call before the catalog was answered");
    assert.equal(warm.skills, status.skills);
    const act = await postTool({ name: skills[2].name });
    assert.equal(act.isError, false);
    assert.deepEqual((await getJson("/status")).r2, { list: 1, get: 2, head: 0, put: 0, delete: 0 }, "activation: one get of SKILL.md, one list of its files");

    // Without the snapshot: discovery, then a new snapshot.
    await (await worker.mf.getR2Bucket("SKILLS")).delete("skills.snapshot");
    await worker.dispose();
    worker = await startExample({ persistDir, firstPath: "/catalog?format=xml" });
    times.discovery = { readyMs: worker.readyMs, firstMs: worker.firstMs };
    assert.deepEqual(worker.first.body, catalogs.xml);
    const cold = await getJson("/status");
    assert.equal(cold.startedFrom, "discovery");
    assert.deepEqual(cold.r2, { list: 1, get: 1 + SKILLS, head: 0, put: 1, delete: 0 }, "snapshot miss, a list, one get per SKILL.md, the snapshot put");
    assert.ok((await keys()).includes("skills.snapshot"));

    // Two isolates over one bucket: an upload through one reaches the other at its next snapshot check.
    const other = await startExample({ persistDir, vars: { SNAPSHOT_CHECK_SECONDS: "0.001" } });
    try {
      const extra = { rel: "SKILL.md", bytes: Buffer.from("---\nname: second-isolate\ndescription: Uploaded elsewhere.\n---\nHi\n") };
      assert.equal((await upload("second-isolate", [extra])).status, 201);
      await new Promise((r) => setTimeout(r, 5));
      const seen = await (await other.fetch("/catalog?format=json")).json();
      assert.ok(seen.skills.includes("second-isolate"), "reloaded from the new snapshot");
      const st = await (await other.fetch("/status")).json();
      assert.equal(st.r2.list, 0, "by the snapshot, not by discovery");
      assert.ok(st.r2.head >= 1);
      assert.equal((await worker.fetch("/skills/second-isolate", { method: "DELETE" })).status, 200);
    } finally {
      await other.dispose();
    }

    // A snapshot written for other options (another scope name) is not used, and is replaced.
    await worker.dispose();
    worker = await startExample({ persistDir, vars: { SKILLS_SCOPE: "builtin" } });
    assert.equal(worker.first.body.startedFrom, "discovery");
    assert.equal(worker.first.body.skills, SKILLS);
  });

  test("bundle size and start-up times", () => {
    const size = bundleSize();
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
    const ms = (t) => `ready ${t.readyMs.toFixed(0)} ms, first answer ${t.firstMs.toFixed(0)} ms`;
    console.log(
      `Worker bundle: ${size.files} files, ${kib(size.raw)} (gzip -9 ${kib(size.gzip)}); ` +
        `wasm ${kib(size.wasm.raw)} (gzip ${kib(size.wasm.gzip)}), js ${kib(size.js.raw)} (gzip ${kib(size.js.gzip)})`,
    );
    console.log(`workerd start, new Miniflare -> first answer: empty bucket ${ms(times.emptyBucket)}; ` +
      `${SKILLS} skills from the snapshot ${ms(times.snapshot)}; by discovery ${ms(times.discovery)}`);
    assert.ok(size.gzip < 3 * MiB, "under the Workers free plan's 3 MiB (gzip) limit");
  });
});

describe("the Worker example's cold start over every SKILL.md of the corpus", { skip }, () => {
  let persistDir;
  let worker;
  after(async () => {
    await worker?.dispose();
    if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  });

  test("without a snapshot it discovers and writes one; restarted, it answers after one R2 get", async () => {
    persistDir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-corpus-"));
    const files = corpusFiles();
    const { visible } = expectedDiscovery(files);
    // Only the SKILL.md files: discovery reads nothing else. Put straight into the bucket.
    const seed = await startExample({ persistDir, firstPath: "/" });
    const ms = await uploadCorpus(await seed.mf.getR2Bucket("SKILLS"), visible.map((rel) => ({ rel })), "skills/");
    await seed.dispose();

    worker = await startExample({ persistDir, firstPath: "/catalog?format=xml&includeLocation=false" });
    const discovery = { readyMs: worker.readyMs, firstMs: worker.firstMs };
    const catalog = worker.first.body;
    const cold = await (await worker.fetch("/status")).json();
    assert.equal(cold.startedFrom, "discovery");
    assert.ok(cold.skills > 500, `${cold.skills} skills`);
    assert.equal(cold.r2.list, Math.ceil(visible.length / 1000));
    assert.equal(cold.r2.put, 1, "the snapshot");
    await worker.dispose();

    worker = await startExample({ persistDir, firstPath: "/catalog?format=xml&includeLocation=false" });
    const snapshot = { readyMs: worker.readyMs, firstMs: worker.firstMs };
    assert.deepEqual(worker.first.body, catalog, "the same catalog");
    const warm = await (await worker.fetch("/status")).json();
    assert.equal(warm.startedFrom, "snapshot");
    assert.deepEqual(warm.r2, { list: 0, get: 1, head: 0, put: 0, delete: 0 });
    const snap = await (await worker.mf.getR2Bucket("SKILLS")).head("skills.snapshot");

    const t = (x) => `ready ${x.readyMs.toFixed(0)} ms, first answer ${x.firstMs.toFixed(0)} ms`;
    console.log(
      `corpus (${visible.length} SKILL.md put in ${(ms / 1000).toFixed(1)} s, ${cold.skills} skills, catalog ${catalog.tokens} tokens): ` +
        `cold start by discovery ${t(discovery)} (inside the Worker ${cold.startupMs} ms, ${cold.r2.list} list + ${cold.r2.get} get + 1 put); ` +
        `from the snapshot (${snap.size} bytes) ${t(snapshot)} (inside the Worker ${warm.startupMs} ms, 1 get)`,
    );
  });
});
