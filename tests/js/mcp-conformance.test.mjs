// The MCP conformance suite (@modelcontextprotocol/conformance, on Node 22) against the package's
// Skills extension, both sides. The server scenarios (sep-2640-skills-*) run against
// skillsMcpHandler served on 127.0.0.1, at the suite's default spec version (2026-07-28 for
// them) and at 2025-11-25; the client scenarios (sep-2640-client-*) run the suite's mock servers
// against mcpStorage over the SDK's v2 Client, at the suite's default (2025-11-25 for them) and at
// 2026-07-28. Each run's summary line is printed; a failed check fails the test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PKG, ROOT, importPkg } from "./helpers.mjs";
import { node22 } from "./support/node22.mjs";
import { serveHttp } from "./support/mcp-http.mjs";

const pkg = await importPkg();
const { skillsMcpHandler } = await import(path.join(PKG, "mcp-server.js"));
const NODE22 = node22();
const SUITE = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const CLIENT = path.join(ROOT, "tests", "js", "support", "mcp-conformance-client.mjs");

const SERVER_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
const CLIENT_SCENARIOS = ["sep-2640-client-no-prefetch", "sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"];

const md = (name, extra = "") => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n# ${name}\n\nDo the ${name} thing.\n`;

/** Skills over more than one page, with nested directories and a binary file. */
function files() {
  const f = {};
  for (const n of ["alpha", "bravo", "charlie", "delta"]) f[`.agents/skills/${n}/SKILL.md`] = md(n, n === "alpha" ? "license: MIT\nmetadata:\n  version: \"1.2\"\n" : "");
  f[".agents/skills/alpha/references/guide.md"] = "# Guide\n";
  f[".agents/skills/alpha/references/deep/notes.md"] = "notes\n";
  f[".agents/skills/alpha/scripts/run.py"] = "print('hi')\n";
  f[".agents/skills/alpha/assets/logo.png"] = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]);
  return f;
}

/** Runs the suite (Node 22) with `args`: its exit code, output, and the summary line's counts. */
function conformance(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22.bin, [SUITE, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(out);
      resolve({ code, out, summary: m?.[0], passed: Number(m?.[1]), total: Number(m?.[2]), failed: Number(m?.[3]) });
    });
  });
}

/** Asserts a run passed every check, printing its summary line. */
function assertPassed(run, label) {
  console.log(`${label}: ${run.summary ?? "no summary line"}`);
  assert.ok(run.summary, `${label}: the suite printed no summary line:\n${run.out.slice(-3000)}`);
  assert.equal(run.failed, 0, `${label}: ${run.summary}\n${run.out.slice(-3000)}`);
  assert.equal(run.passed, run.total, `${label}: ${run.summary}`);
  assert.ok(run.total > 0, `${label}: no check ran`);
  assert.equal(run.code, 0, `${label}: the suite exited ${run.code}`);
}

test("the suite's Skills server scenarios pass against skillsMcpHandler, at its default spec version and at 2025-11-25", { skip: NODE22.skip }, async () => {
  const registry = await pkg.SkillRegistry.discover({ user: pkg.memoryStorage(files()) });
  const served = await serveHttp(skillsMcpHandler(registry, { pageSize: 2 }));
  try {
    for (const scenario of SERVER_SCENARIOS) {
      const run = await conformance(["server", "--url", served.url, "--scenario", scenario]);
      assert.doesNotMatch(run.out, /SKIPPED: scenario/, scenario);
      assertPassed(run, `${scenario} (default spec version)`);
      // The default for an extension's server scenario is the modern revision: the
      // list-caching checks, defined from 2026-07-28 on, run rather than skip.
      if (scenario === "sep-2640-skills-enumeration") assert.match(run.out, /sep-2640-skills-list-cache-attributes\s*\]\s*\S*SUCCESS/);
      const legacy = await conformance(["server", "--url", served.url, "--scenario", scenario, "--spec-version", "2025-11-25", "--force"]);
      assertPassed(legacy, `${scenario} (2025-11-25)`);
    }
  } finally {
    await served.close();
  }
});

test("the suite's Skills client scenarios pass with mcpStorage as the host, at its default spec version and at 2026-07-28", { skip: NODE22.skip }, async () => {
  for (const scenario of CLIENT_SCENARIOS) {
    for (const version of [undefined, "2026-07-28"]) {
      const out = mkdtempSync(path.join(tmpdir(), "skillwasm-conformance-"));
      const args = ["client", "--command", `${JSON.stringify(process.execPath)} ${JSON.stringify(CLIENT)}`, "--scenario", scenario, "-o", out];
      if (version) args.push("--spec-version", version, "--force");
      const run = await conformance(args);
      assertPassed(run, `${scenario} (${version ?? "default spec version"})`);
      // What the client did, from its own report: the era it negotiated, what it loaded.
      const [dir] = readdirSync(out);
      const report = JSON.parse(readFileSync(path.join(out, dir, "stderr.txt"), "utf8").trim().split("\n").pop());
      assert.equal(report.era, version === "2026-07-28" ? "modern" : "legacy", `${scenario}: ${JSON.stringify(report)}`);
      assert.deepEqual(report.skills, ["pdf-processing"]);
      assert.deepEqual(report.loaded, [], "no skill is loaded: the tampered one is refused, and no-prefetch loads none");
      if (scenario !== "sep-2640-client-no-prefetch") assert.equal(report.refused.length, 1, JSON.stringify(report));
    }
  }
});
