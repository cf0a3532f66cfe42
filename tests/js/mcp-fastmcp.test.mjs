// Skills between the package and FastMCP (PyPI `fastmcp`, pinned, in a venv under target/), which
// speaks the Skills extension only at MCP 2026-07-28, both ways over stdio:
// - FastMCP's server (its SkillsDirectoryProvider) read by mcpStorage through the official SDK's
//   v2 Client, the era negotiated with server/discover: listed, fetched and verified in the core;
// - FastMCP's client (list_skills, read_skill: every file checked against its size and digest)
//   against `skillwasm mcp`, its digests compared with the files on disk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, ROOT, importPkg } from "./helpers.mjs";
import { FASTMCP_VERSION, fastmcp } from "./support/fastmcp.mjs";

const pkg = await importPkg();
const FASTMCP = fastmcp();
const SUPPORT = path.join(ROOT, "tests", "js", "support");
const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
const md = (name, extra = "") => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n# ${name}\n\nDo the ${name} thing.\n`;

/** Skill folders (relative path -> content), as both sides lay them out. */
const SKILLS = {
  "alpha/SKILL.md": md("alpha", "license: MIT\nmetadata:\n  author: acme\n"),
  "alpha/references/guide.md": "# Guide\r\nUse é.\n",
  "alpha/scripts/run.py": "print('hi')\n",
  "alpha/assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]),
  "bravo/SKILL.md": md("bravo"),
  "charlie/SKILL.md": md("charlie"),
  "charlie/notes.txt": "notes\n",
};

/** Writes SKILLS under `root`. */
function lay(root) {
  for (const [rel, content] of Object.entries(SKILLS)) {
    const file = path.join(root, ...rel.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

const bytes = (content) => (typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content));

test(`FastMCP ${FASTMCP_VERSION}'s Skills server, read by mcpStorage at 2026-07-28: listed, fetched, verified`, { skip: FASTMCP.skip, timeout: 120_000 }, async () => {
  const root = lay(mkdtempSync(path.join(tmpdir(), "skillwasm-fastmcp-server-")));
  const transport = new StdioClientTransport({ command: FASTMCP.python, args: [path.join(SUPPORT, "fastmcp_skills_server.py"), root], stderr: "pipe" });
  const client = new Client({ name: "skillwasm-host", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  try {
    assert.equal(client.getProtocolEra(), "modern");
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.ok("io.modelcontextprotocol/skills" in (client.getServerCapabilities()?.extensions ?? {}));
    // The label is the host's; FastMCP's reported name ("fastmcp-skills") is not used.
    assert.equal(pkg.mcpStorage(client).server, `${path.basename(FASTMCP.python)} fastmcp_skills_server.py`);
    const storage = pkg.mcpStorage(client, { server: "fastmcp-skills" });
    assert.equal(storage.server, "fastmcp-skills");
    const registry = await pkg.SkillRegistry.discover({ scopes: [{ name: storage.server, storage, roots: [""], trusted: true }] });
    assert.deepEqual(registry.diagnostics(), []);
    assert.deepEqual(registry.names().sort(), ["alpha", "bravo", "charlie"]);
    assert.equal(storage.stats().readRequests, 0, "listing reads no file");
    const alpha = registry.listMetas().find((m) => m.name === "alpha");
    assert.equal(alpha.description, "The alpha skill.");
    assert.equal(alpha.path, "mcp://fastmcp-skills/alpha/SKILL.md");
    // Every file, fetched through the store and verified against FastMCP's manifest, is the file.
    for (const [rel, content] of Object.entries(SKILLS)) {
      const got = await storage.read(rel);
      assert.deepEqual(Buffer.from(got), bytes(content), rel);
    }
    const activated = await registry.readFile("alpha");
    assert.equal(activated.error, undefined);
    assert.match(activated.text, /Do the alpha thing/);
    const guide = await registry.readScopedFile(storage.server, "alpha", "references/guide.md");
    assert.equal(guide.content, SKILLS["alpha/references/guide.md"]);
    const stats = storage.stats();
    assert.equal(stats.mismatches, 0);
    assert.ok(stats.readRequests >= Object.keys(SKILLS).length, JSON.stringify(stats));
    // A file FastMCP does not list is not asked for.
    const before = storage.stats().readRequests;
    assert.equal(await storage.read("alpha/missing.md"), null);
    assert.equal(storage.stats().readRequests, before);
  } finally {
    await client.close();
  }
});

test(`FastMCP ${FASTMCP_VERSION}'s client lists and reads every skill of skillwasm mcp at 2026-07-28, verified`, { skip: FASTMCP.skip, timeout: 120_000 }, () => {
  const project = mkdtempSync(path.join(tmpdir(), "skillwasm-fastmcp-client-"));
  lay(path.join(project, ".agents", "skills"));
  const r = spawnSync(FASTMCP.python, [path.join(SUPPORT, "fastmcp_skills_client.py"), process.execPath, CLI, "mcp", project, "--no-user", "--page-size", "2"], {
    encoding: "utf8", timeout: 110_000,
  });
  assert.equal(r.status, 0, `the FastMCP client failed:\n${r.stderr}`);
  const report = JSON.parse(r.stdout.trim().split("\n").pop());
  assert.equal(report.protocolVersion, "2026-07-28");
  assert.equal(report.server, "skillwasm");
  assert.deepEqual(report.skills.map((s) => s.name), ["alpha", "bravo", "charlie"], "every page of skills/list");
  for (const s of report.skills) {
    assert.equal(s.uri, `skill://${s.name}/SKILL.md`);
    // FastMCP checked each file against the manifest; the digests are those of the files on disk.
    const want = Object.fromEntries(Object.entries(SKILLS).filter(([rel]) => rel.startsWith(`${s.name}/`)).map(([rel, c]) => [rel.slice(s.name.length + 1), sha(bytes(c))]));
    assert.deepEqual(s.files, want, s.name);
    for (const [rel, digest] of Object.entries(s.files)) assert.equal(digest, sha(readFileSync(path.join(project, ".agents", "skills", s.name, rel))), rel);
  }
});
