// What the CLI tells a person and a program, over a real project directory with one good and two
// broken skills: every human-readable diagnostic names its file (and line), `catalog --format
// json` is JSON a reader takes, and `skillwasm mcp` offers an MCP client that does not speak the
// Skills extension the skill tool (unless --no-tool, which it says on stderr).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, assertBuilt, runCli } from "./helpers.mjs";

let base;
let project;
let home;

function write(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

before(() => {
  assertBuilt();
  base = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-messages-"));
  project = path.join(base, "project");
  home = path.join(base, "home");
  write(path.join(project, ".agents/skills/good/SKILL.md"), "---\nname: good\ndescription: A good skill.\n---\nDo good.\n");
  write(path.join(project, ".agents/skills/bare/SKILL.md"), "No frontmatter here.\n");
  write(path.join(project, ".agents/skills/unnamed/SKILL.md"), "---\nname: unnamed\n---\nNo description.\n");
  write(path.join(home, ".agents/skills/mine/SKILL.md"), "Also no frontmatter.\n");
});

after(() => rmSync(base, { recursive: true, force: true }));

const cli = (args) => runCli(args, { cwd: project, env: { ...process.env, HOME: home, NO_COLOR: "1", FORCE_COLOR: "" } });

/** The stderr lines that carry a diagnostic (`...severity: code: message`). */
const diagnosticLines = (stderr) => stderr.split("\n").filter((l) => /\b(error|warning|info): [a-z0-9-]+: /.test(l));

/** Every diagnostic line names a file as <path>[:<line>]: before its severity; the expected ones are there. */
function assertNamed(stderr) {
  const lines = diagnosticLines(stderr);
  assert.ok(lines.length >= 3, stderr);
  for (const l of lines) assert.match(l, /^\/.+?(:\d+)?: (error|warning|info): /, `the file is named: ${l}`);
  const bare = path.join(project, ".agents/skills/bare/SKILL.md");
  assert.ok(lines.includes(`${bare}:1: error: frontmatter-missing: SKILL.md must start with YAML frontmatter (---)`), stderr);
  assert.ok(lines.some((l) => l.startsWith(`${path.join(project, ".agents/skills/unnamed/SKILL.md")}:`)), stderr);
  assert.ok(lines.some((l) => l.startsWith(`${path.join(home, ".agents/skills/mine/SKILL.md")}:1: error: `)), "a user-scope file under HOME");
}

test("list and catalog name each diagnostic's file and line on stderr", () => {
  let r = cli(["list"]);
  assert.equal(r.status, 0, r.stderr);
  assertNamed(r.stderr);
  r = cli(["catalog"]);
  assert.equal(r.status, 0, r.stderr);
  assertNamed(r.stderr);
  // --json keeps the core's own form (scope:key) for programs.
  const { diagnostics } = JSON.parse(cli(["list", "--json"]).stdout);
  assert.ok(diagnostics.some((d) => d.path === "project:.agents/skills/bare/SKILL.md" && d.line === 1));
});

test("publish names each skipped skill's file under the published directory", () => {
  const out = path.join(base, "site");
  const r = runCli(["publish", path.join(project, ".agents/skills"), "--out", out], { env: { ...process.env, NO_COLOR: "1" } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(diagnosticLines(r.stderr).includes(`${path.join(project, ".agents/skills/bare/SKILL.md")}:1: error: frontmatter-missing: SKILL.md must start with YAML frontmatter (---)`), r.stderr);
});

test("catalog --format json prints JSON alone; the instructions are in --json's object", () => {
  const r = cli(["catalog", "--format", "json"]);
  assert.equal(r.status, 0, r.stderr);
  const catalog = JSON.parse(r.stdout);
  assert.ok(Array.isArray(catalog));
  assert.deepEqual(catalog.map((s) => s.name), ["good"]);
  const full = JSON.parse(cli(["catalog", "--format", "json", "--json"]).stdout);
  assert.deepEqual(JSON.parse(full.text), catalog);
  assert.match(full.instructions, /view_skill/);
  // The other formats still carry the instructions, as the model sees them.
  assert.match(cli(["catalog", "--format", "markdown"]).stdout, /view_skill[\s\S]*\*\*good\*\*/);
  assert.match(runCli(["--help"]).stdout, /--format json prints the JSON\s+alone/);
});

/** `skillwasm mcp <project> --no-user ...extra` with the SDK's Client; its stderr collected. */
async function connectMcp(extra) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", project, "--no-user", ...extra], stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  transport.stderr.on("data", (b) => { stderr += b; });
  const client = new Client({ name: "generic-host", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

test("skillwasm mcp offers a generic MCP client the skill tool; --no-tool says on stderr that it does not", async () => {
  let { client, stderr } = await connectMcp([]);
  try {
    // A client that knows nothing of the Skills extension: tools/list and tools/call.
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["view_skill"]);
    const called = await client.callTool({ name: "view_skill", arguments: { name: "good" } });
    assert.match(called.content[0].text, /Do good\./);
    assert.match(client.getInstructions(), /good/);
    assert.match(stderr(), /^skillwasm mcp: serving 1 skill from .* and the tool 'view_skill'/m);
    for (const l of diagnosticLines(stderr())) assert.match(l, /^\/.+?(:\d+)?: (error|warning|info): /, l);
    assert.ok(diagnosticLines(stderr()).length >= 2, stderr());
  } finally {
    await client.close();
  }

  ({ client, stderr } = await connectMcp(["--no-tool"]));
  try {
    assert.equal(client.getServerCapabilities().tools, undefined);
    await assert.rejects(client.listTools(), (e) => e.code === -32601);
    assert.match(stderr(), /--no-tool: a client that does not speak the extension sees no tools/);
  } finally {
    await client.close();
  }
  const help = runCli(["mcp", "--help"]).stdout;
  assert.match(help, /--no-tool serves the extension\s+alone: a client without it then sees no tools/);
});
