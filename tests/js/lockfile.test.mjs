// Pinning: one content digest for a skill whatever it is read from (a real directory, a store in
// memory, a zip and a tar.gz made by the system's tools, a discovery index served on 127.0.0.1,
// an MCP server of the official SDK), and a registry given a lockfile refuses a skill whose
// content drifted from its pin, in a real directory, after a refresh too.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { importPkg, PKG } from "./helpers.mjs";
import { connectInProcess, countRequests } from "./support/mcp-connect.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, memoryStorage, nodeFsStorage, wellKnownStorage, mcpStorage, unpackSkillArtifact, publishWellKnown, renderCatalog } = pkg;
const { skillsMcpServer } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);

const FILES = {
  "SKILL.md": "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\n\nRun `scripts/fill.sh`; see references/forms.md.\n",
  "scripts/fill.sh": "#!/bin/sh\necho filling \"$1\"\n",
  "references/forms.md": "# Forms\n\nField names are case-sensitive.\n",
};

function writeSkill(dir, files = FILES) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

const at = (storage, name = "site") => ({ scopes: [{ name, storage, roots: [""], trusted: true }] });

async function digestOf(storage) {
  const registry = await SkillRegistry.discover(at(storage));
  const d = await registry.contentDigest("pdf-tools");
  assert.equal(d.error, undefined, JSON.stringify(d.error));
  assert.equal(d.files, 3);
  return d.digest;
}

test("one content digest from a directory, memory, a zip, a tar.gz, a discovery index and an MCP server", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-pin-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  writeSkill(path.join(tmp, "pdf-tools"));
  const fromDir = await digestOf(nodeFsStorage(tmp));
  assert.match(fromDir, /^sha256:[0-9a-f]{64}$/);

  // The definition, computed here by hand: `<hex>  <path>\n` per file, sorted by path, hashed.
  const { createHash } = await import("node:crypto");
  const hex = (b) => createHash("sha256").update(b).digest("hex");
  const manifest = Object.keys(FILES).sort().map((p) => `${hex(FILES[p])}  ${p}\n`).join("");
  assert.equal(fromDir, `sha256:${hex(manifest)}`);

  const fromMemory = await digestOf(memoryStorage(Object.fromEntries(Object.entries(FILES).map(([p, s]) => [`pdf-tools/${p}`, s]))));
  assert.equal(fromMemory, fromDir, "memory");

  // Archives made by the system's tools, unpacked by the core.
  execFileSync("tar", ["-czf", path.join(tmp, "skill.tar.gz"), "-C", path.join(tmp, "pdf-tools"), "."]);
  execFileSync("python3", ["-c", "import sys,zipfile,os\nz=zipfile.ZipFile(sys.argv[1],'w')\nfor r,_,fs in os.walk(sys.argv[2]):\n  for f in fs:\n    p=os.path.join(r,f); z.write(p, os.path.relpath(p, sys.argv[2]))\nz.close()", path.join(tmp, "skill.zip"), path.join(tmp, "pdf-tools")]);
  for (const archive of ["skill.tar.gz", "skill.zip"]) {
    const bytes = new Uint8Array(readFileSync(path.join(tmp, archive)));
    const unpacked = unpackSkillArtifact(bytes, { type: "archive", unverified: true, name: "pdf-tools" });
    assert.deepEqual(unpacked.diagnostics.filter((d) => d.severity === "error"), [], archive);
    const files = Object.fromEntries(unpacked.files.map((f) => [`pdf-tools/${f.path}`, f.bytes]));
    assert.equal(await digestOf(memoryStorage(files)), fromDir, archive);
  }

  // A discovery index published from the directory and served on 127.0.0.1.
  const source = await SkillRegistry.discover(at(nodeFsStorage(tmp)));
  const server = await serve(routesOf(await publishWellKnown(source)));
  t.after(() => server.close());
  assert.equal(await digestOf(wellKnownStorage(server.url)), fromDir, "discovery index");

  // The official SDK's client against the package's MCP server.
  const client = await connectInProcess(skillsMcpServer(source, { name: "pins" }));
  t.after(() => client.close());
  // From the manifest's per-file digests: the files are not downloaded to pin, or to check a pin.
  const requests = countRequests(client);
  assert.equal(await digestOf(mcpStorage(client, { server: "pins" })), fromDir, "MCP");
  assert.equal(requests["resources/read"] ?? 0, 0, JSON.stringify(requests));
  const lock = { lockfileVersion: 1, skills: [{ name: "pdf-tools", scope: "site", source: { type: "mcp", server: "pins", uri: "skill://pdf-tools/SKILL.md" }, location: "pdf-tools", digest: fromDir }] };
  const pinned = await SkillRegistry.discover({ ...at(mcpStorage(client, { server: "pins" })), lock });
  const offered = (r) => new SkillTool(r).definition()?.inputSchema.properties.name.enum ?? [];
  assert.deepEqual(offered(pinned), ["pdf-tools"]);
  assert.deepEqual(pinned.diagnostics().filter((d) => d.code.startsWith("skill-pin")), []);
  const drifted = await SkillRegistry.discover({ ...at(mcpStorage(client, { server: "pins" })), lock: { ...lock, skills: [{ ...lock.skills[0], digest: `sha256:${"0".repeat(64)}` }] } });
  assert.deepEqual(offered(drifted), [], "a pin the manifest does not match refuses the skill");
  assert.deepEqual(drifted.diagnostics().filter((d) => d.code.startsWith("skill-pin")).map((d) => d.code), ["skill-pin-mismatch"]);
  assert.equal(requests["resources/read"] ?? 0, 0, JSON.stringify(requests));
  // The bytes the tool then serves are held to the same manifest.
  assert.match((await new SkillTool(pinned).execute({ name: "pdf-tools" })).content, /scripts\/fill\.sh/);
  assert.ok(requests["resources/read"] >= 1);
  for (const r of [pinned, drifted, source]) r.free();
});

test("a registry given a lockfile refuses a drifted skill, reports unpinned and missing ones, and follows refreshes", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-lock-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  writeSkill(path.join(tmp, "pdf-tools"));
  writeSkill(path.join(tmp, "csv-tools"), { "SKILL.md": "---\nname: csv-tools\ndescription: Profile CSV files.\n---\n\nCount the rows.\n" });
  const options = at(nodeFsStorage(tmp), "project");

  const first = await SkillRegistry.discover(options);
  const { lockfile, diagnostics } = await first.lockfile();
  assert.deepEqual(diagnostics, []);
  assert.equal(lockfile.lockfileVersion, 1);
  assert.deepEqual(lockfile.skills.map((e) => [e.scope, e.name, e.location, e.source]), [
    ["project", "csv-tools", "csv-tools", { type: "directory", path: "csv-tools" }],
    ["project", "pdf-tools", "pdf-tools", { type: "directory", path: "pdf-tools" }],
  ]);
  assert.equal(lockfile.skills[1].digest, (await first.contentDigest("pdf-tools")).digest);
  // Through JSON, as a project keeps it.
  const lock = JSON.parse(JSON.stringify(lockfile));

  const clean = await SkillRegistry.discover({ ...options, lock });
  assert.deepEqual(clean.diagnostics().filter((d) => d.code.includes("pin")), []);
  // Each skill's metadata carries the digest the check computed, and a snapshot carries it on.
  assert.deepEqual(clean.listMetas().map((m) => [m.name, m.digest]), lock.skills.map((e) => [e.name, e.digest]));
  assert.equal(clean.get("pdf-tools").digest, lock.skills[1].digest);
  assert.equal(first.get("csv-tools").digest, lock.skills[0].digest, "computed for the lockfile");
  const started = SkillRegistry.fromSnapshot(clean.snapshot(), options);
  assert.deepEqual(started.listMetasAcross().map((m) => m.digest), lock.skills.map((e) => e.digest));
  await started.refresh();
  assert.equal(started.get("pdf-tools").digest, undefined, "a refresh forgets what the snapshot said");
  started.free();
  assert.deepEqual(new SkillTool(clean).definition().inputSchema.properties.name.enum, ["csv-tools", "pdf-tools"]);

  // One byte of a resource changes: the skill is refused, the message names both digests.
  writeFileSync(path.join(tmp, "pdf-tools/references/forms.md"), FILES["references/forms.md"].replace("case", "Case"));
  const drifted = await SkillRegistry.discover({ ...options, lock });
  const d = drifted.diagnostics().find((x) => x.code === "skill-pin-mismatch");
  assert.ok(d, JSON.stringify(drifted.diagnostics()));
  assert.equal(d.severity, "error");
  assert.equal(d.path, "project:pdf-tools/SKILL.md");
  const now = (await drifted.contentDigest("pdf-tools")).digest;
  assert.ok(d.message.includes(now) && d.message.includes(lock.skills[1].digest), d.message);
  assert.deepEqual(new SkillTool(drifted).definition().inputSchema.properties.name.enum, ["csv-tools"]);
  assert.ok(!renderCatalog(drifted, { format: "xml" }).text.includes("pdf-tools"));
  const r = await new SkillTool(drifted).execute({ name: "pdf-tools" });
  assert.equal(r.isError, true);

  // Put back, and a refresh serves it again; a new skill is reported unpinned, a removed one missing.
  writeFileSync(path.join(tmp, "pdf-tools/references/forms.md"), FILES["references/forms.md"]);
  writeSkill(path.join(tmp, "new-skill"), { "SKILL.md": "---\nname: new-skill\ndescription: Not pinned yet.\n---\n" });
  rmSync(path.join(tmp, "csv-tools"), { recursive: true });
  await drifted.refresh();
  const codes = drifted.diagnostics().filter((x) => x.code.includes("pin")).map((x) => [x.code, x.severity, x.path]);
  assert.deepEqual(codes, [
    ["skill-unpinned", "warning", "project:new-skill/SKILL.md"],
    ["skill-pin-missing", "warning", "project:csv-tools"],
  ]);
  assert.deepEqual(new SkillTool(drifted).definition().inputSchema.properties.name.enum, ["new-skill", "pdf-tools"]);
  assert.equal((await new SkillTool(drifted).execute({ name: "pdf-tools" })).isError, false);

  // An update keeps each source it had.
  const custom = { ...lock, skills: lock.skills.map((e) => (e.name === "pdf-tools" ? { ...e, source: { type: "git", repository: "https://example.com/s.git", ref: "main", commit: "0123abc", path: "pdf-tools" } } : e)) };
  const updated = (await drifted.lockfile(custom)).lockfile;
  assert.deepEqual(updated.skills.map((e) => [e.name, e.source.type]), [["new-skill", "directory"], ["pdf-tools", "git"]]);
});

test("a bad lockfile is a TypeError naming what is wrong; fromSnapshot does not take one", async () => {
  const options = at(memoryStorage({ "a/SKILL.md": "---\nname: a\ndescription: A.\n---\n" }));
  for (const [lock, why] of [
    [{ lockfileVersion: 2, skills: [] }, /lockfileVersion 2/],
    [{ lockfileVersion: 1, skills: [{ name: "a", scope: "site", location: "a", digest: "sha256:00", source: { type: "directory", path: "a" } }] }, /digest/],
    [{ lockfileVersion: 1, skills: [], extra: 1 }, /extra/],
    ["skills-lock.json", /lock/],
  ]) {
    await assert.rejects(SkillRegistry.discover({ ...options, lock }), (e) => e instanceof TypeError && why.test(e.message), JSON.stringify(lock));
  }
  const registry = await SkillRegistry.discover(options);
  const { lockfile } = await registry.lockfile();
  assert.throws(() => SkillRegistry.fromSnapshot(registry.snapshot(), { ...options, lock: lockfile }), (e) => e instanceof TypeError && /discover/.test(e.message));
});
