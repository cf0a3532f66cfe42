// The CLI's agent-view commands over real directories: a project with .agents/skills and
// .claude/skills, and a user home (HOME) with its own skills; scopes, shadowing, diagnostics,
// the catalog, the tool's answers, per-command help and exit codes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, assertBuilt, runCli } from "./helpers.mjs";

let base;
let project;
let home;

before(() => {
  assertBuilt();
  base = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-agent-"));
  project = path.join(base, "project");
  home = path.join(base, "home");
  cpSync(path.join(ROOT, "examples", "skills"), path.join(project, ".agents", "skills"), { recursive: true });
  cpSync(path.join(ROOT, "examples", "skills", "commit-message"), path.join(project, ".claude", "skills", "commit-message"), { recursive: true });
  mkdirSync(path.join(home, ".agents", "skills", "home-only"), { recursive: true });
  writeFileSync(path.join(home, ".agents", "skills", "home-only", "SKILL.md"), "---\nname: home-only\ndescription: A skill of the user's own.\n---\nFrom home.\n");
});

after(() => rmSync(base, { recursive: true, force: true }));

const env = () => ({ ...process.env, HOME: home });
const cli = (args) => runCli(args, { cwd: project, env: env() });

test("list: project and user scopes; --client adds .claude/skills, whose copy is shadowed and reported", () => {
  let r = cli(["list", "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const { skills, diagnostics } = JSON.parse(r.stdout);
  const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
  assert.equal(byName["home-only"].scope, "user");
  assert.equal(byName["sql-review"].scope, "project");
  assert.equal(byName["sql-review"].path, path.join(project, ".agents/skills/sql-review/SKILL.md"));
  assert.ok(Array.isArray(diagnostics));

  r = cli(["list", "--client", "claude", "--json"]);
  const both = JSON.parse(r.stdout);
  const copies = both.skills.filter((s) => s.name === "commit-message");
  assert.equal(copies.length, 2);
  assert.equal(copies.filter((s) => s.shadowedBy).length, 1);
  assert.ok(both.diagnostics.some((d) => d.code === "skill-shadowed"));

  r = cli(["list", "--client", "claude"]);
  assert.match(r.stdout, /^commit-message\tproject \(shadowed by /m);
  assert.match(r.stderr, /warning: skill-shadowed:/);
});

test("list: --no-user leaves the home out; --no-trust leaves the project out", () => {
  let names = JSON.parse(cli(["list", "--no-user", "--json"]).stdout).skills.map((s) => s.name);
  assert.ok(!names.includes("home-only"));
  assert.ok(names.includes("sql-review"));
  names = JSON.parse(cli(["list", "--no-trust", "--json"]).stdout).skills.map((s) => s.name);
  assert.deepEqual(names, ["home-only"]);
  // A directory argument is the project.
  const r = runCli(["list", project, "--no-user", "--json"], { cwd: base, env: env() });
  assert.ok(JSON.parse(r.stdout).skills.some((s) => s.name === "csv-profiler"));
});

test("catalog: the instructions and the list, in a format, within a budget", () => {
  let r = cli(["catalog", "--no-user", "--format", "markdown"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /view_skill/);
  assert.match(r.stdout, /^- \*\*sql-review\*\*/m);
  const full = JSON.parse(cli(["catalog", "--no-user", "--json"]).stdout);
  const small = JSON.parse(cli(["catalog", "--no-user", "--json", "--budget", "120"]).stdout);
  assert.ok(small.skills.length < full.skills.length, `a small budget lists fewer skills (${small.skills.length} of ${full.skills.length})`);
  r = cli(["catalog", "--budget", "lots"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--budget must be a positive whole number/);
  r = cli(["catalog", "--format", "yaml"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /format/);
});

test("activate and read: the tool's answers; nothing loaded is exit 1 with the tool's message", () => {
  let r = cli(["activate", "sql-review"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^<skill_content name="sql-review">/);
  r = cli(["activate", "home-only"]);
  assert.match(r.stdout, /From home\./);
  r = cli(["activate", "nope"]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /There is no skill named 'nope'/);
  r = cli(["read", "sql-review", "../../etc/passwd"]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /leaves the skill/);
});

test("help per command, unknown options and missing arguments are usage errors (exit 2)", () => {
  let r = cli(["list", "--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: skillwasm list \[dir\]/);
  r = runCli(["--help"]);
  for (const cmd of ["list [dir]", "catalog [dir]", "activate <name>", "read <name> <path>", "Exit codes"]) assert.ok(r.stdout.includes(cmd), cmd);
  r = cli(["list", "--bogus"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --bogus \(options: --client, --no-user, --no-trust, --json, --watch, --progress\)/);
  r = cli(["activate"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /usage: skillwasm activate <name>/);
});

test("validate: several paths and a directory of skills, each checked, with a summary", () => {
  const skills = path.join(project, ".agents", "skills");
  let r = runCli(["validate", skills], { cwd: base });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Valid skill: .*changelog-writer$/m);
  assert.match(r.stdout, /^5 skills: 5 valid, 0 invalid$/m);
  mkdirSync(path.join(base, "broken"), { recursive: true });
  writeFileSync(path.join(base, "broken", "SKILL.md"), "---\nname: Not Valid\n---\n");
  r = runCli(["validate", path.join(skills, "sql-review"), path.join(base, "broken"), path.join(base, "missing")], { cwd: base });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^Valid skill: .*sql-review$/m);
  assert.match(r.stderr, /^Validation failed for .*broken:$/m);
  assert.match(r.stderr, /^Validation failed for .*missing:$/m);
  assert.match(r.stderr, /^3 skills: 1 valid, 2 invalid$/m);
});

test("to-prompt: a skill named twice (a/* b/*) is listed once, the first path winning", () => {
  const a = path.join(project, ".agents", "skills", "commit-message");
  const b = path.join(project, ".claude", "skills", "commit-message");
  const r = runCli(["to-prompt", a, b, path.join(project, ".agents", "skills", "sql-review")], { cwd: base });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.match(/<name>\ncommit-message\n<\/name>/g)?.length, 1);
  assert.ok(r.stdout.includes(path.join(a, "SKILL.md")));
  assert.match(r.stderr, /left out: 'commit-message' is listed from/);
});
