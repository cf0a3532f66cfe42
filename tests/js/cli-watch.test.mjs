// The CLI on a terminal and over time: `list --watch` and `catalog --watch` print again when a
// skill is added, changed or removed on disk and end with exit code 0 on SIGINT; colour only on a
// TTY (FORCE_COLOR forces it, NO_COLOR turns it off); progress on stderr, never on stdout; strict
// `validate` names Claude Code's own fields as known extensions.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLI, assertBuilt, runCli } from "./helpers.mjs";

let base;
let project;

const skill = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;
function put(name, description) {
  mkdirSync(path.join(project, ".agents", "skills", name), { recursive: true });
  writeFileSync(path.join(project, ".agents", "skills", name, "SKILL.md"), skill(name, description));
}

before(() => {
  assertBuilt();
  base = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-watch-"));
  project = path.join(base, "project");
  put("alpha", "The first skill.");
});

after(() => rmSync(base, { recursive: true, force: true }));

const plainEnv = () => {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  return env;
};

/** Spawns the CLI and resolves when its stdout matches `pattern`, with what it printed so far. */
function waitFor(child, pattern, state, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${JSON.stringify(state.out)} / ${JSON.stringify(state.err)}`)), ms);
    const check = () => {
      if (pattern.test(state.out)) {
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(state.out);
      }
    };
    child.stdout.on("data", check);
    check();
  });
}

for (const command of ["list", "catalog"]) {
  test(`${command} --watch prints again on every change and exits 0 on SIGINT`, async () => {
    const child = spawn(process.execPath, [CLI, command, "--watch", "--no-user", project], { env: plainEnv() });
    const state = { out: "", err: "" };
    child.stdout.setEncoding("utf8").on("data", (d) => (state.out += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (state.err += d));
    const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    try {
      await waitFor(child, /alpha/, state);
      await new Promise((r) => setTimeout(r, 300)); // the watcher is set up after the first print
      put("beta", "A skill added while watching.");
      await waitFor(child, /--- .*added beta[\s\S]*beta/, state);
      assert.match(state.out, /alpha[\s\S]*--- .*added beta/, "the first listing, then the change and the new listing");
    } finally {
      child.kill("SIGINT");
    }
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.match(state.err, /watching .*Ctrl-C to stop/);
    rmSync(path.join(project, ".agents", "skills", "beta"), { recursive: true, force: true });
  });
}

test("list --watch notices a skill added to the user's directory (polled)", async () => {
  const home = path.join(base, "home");
  mkdirSync(path.join(home, ".agents", "skills"), { recursive: true });
  const child = spawn(process.execPath, [CLI, "list", "--watch", project], { env: { ...plainEnv(), HOME: home } });
  const state = { out: "", err: "" };
  child.stdout.setEncoding("utf8").on("data", (d) => (state.out += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (state.err += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  try {
    await waitFor(child, /alpha/, state);
    mkdirSync(path.join(home, ".agents", "skills", "gamma"), { recursive: true });
    writeFileSync(path.join(home, ".agents", "skills", "gamma", "SKILL.md"), skill("gamma", "A skill of the user's own."));
    await waitFor(child, /--- .*added gamma[\s\S]*gamma\tuser/, state);
  } finally {
    child.kill("SIGTERM");
  }
  assert.deepEqual(await exited, { code: 0, signal: null });
  assert.match(state.err, /watching .*home \(every 2 s\)/);
});

test("colour: none when not a terminal or with NO_COLOR; FORCE_COLOR=1 colours", () => {
  const esc = /\u001b\[/;
  let r = runCli(["list", "--no-user", project], { env: plainEnv() });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, esc);
  r = runCli(["list", "--no-user", project], { env: { ...plainEnv(), FORCE_COLOR: "1" } });
  assert.match(r.stdout, /\u001b\[1malpha\u001b\[22m/);
  r = runCli(["list", "--no-user", project], { env: { ...plainEnv(), FORCE_COLOR: "0" } });
  assert.doesNotMatch(r.stdout, esc);
  r = runCli(["list", "--no-user", project], { env: { ...plainEnv(), NO_COLOR: "1" } });
  assert.doesNotMatch(r.stdout, esc);
  r = runCli(["validate", path.join(project, ".agents", "skills", "alpha")], { env: { ...plainEnv(), FORCE_COLOR: "1" } });
  assert.match(r.stdout, /\u001b\[32mValid skill: /);
});

test("progress: on stderr with --progress (not by default off a terminal); --json stdout stays JSON", () => {
  let r = runCli(["list", "--no-user", "--json", "--progress", project], { env: plainEnv() });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).skills[0].name, "alpha");
  assert.match(r.stderr, /discovering skills under .*\n.*1 skills, 0 diagnostics in \d+ ms/);
  r = runCli(["list", "--no-user", "--json", project], { env: plainEnv() });
  assert.equal(r.stderr, "");
  r = runCli(["validate", "--progress", path.join(project, ".agents", "skills")], { env: plainEnv() });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /skillwasm validate: 1\/1 /);
  assert.equal(r.stdout, `Valid skill: ${path.join(project, ".agents", "skills", "alpha")}\n`);
});

test("strict validate names Claude Code's own fields as known extensions, after the reference's error", () => {
  const dir = path.join(base, "claude-skill");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), "---\nname: claude-skill\ndescription: d\nargument-hint: \"[file]\"\ndisable-model-invocation: true\nfoo: 1\n---\n");
  const r = runCli(["validate", dir], { env: plainEnv() });
  assert.equal(r.status, 1);
  const lines = r.stderr.trimEnd().split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    `Validation failed for ${dir}:`,
    "  - Unexpected fields in frontmatter: argument-hint, disable-model-invocation, foo. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
  ]);
  assert.match(lines[2], /^ {2}note: known extensions: argument-hint, disable-model-invocation are Claude Code's own; /);
  assert.equal(lines.length, 3);
});
