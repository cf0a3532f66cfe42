// CLI behaviour beyond the reference cases: argument handling, path forms, exit codes, special and
// oversized files.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertBuilt, runCli } from "./helpers.mjs";

let root;
before(() => {
  assertBuilt();
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "skillwasm-cli-")));
  const skill = (dir, text) => {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, "SKILL.md"), text);
  };
  skill("good-skill", "---\nname: good-skill\ndescription: Says \"hi\" & <waves>\n---\n# Good\n\nBody.\n");
  skill("技能", "---\nname: 技能\ndescription: 中文描述\n---\nBody\n");
  skill("repairable", "---\nname: repairable\ndescription: Use when: things break\n---\nBody\n");
});
after(() => rmSync(root, { recursive: true, force: true }));

const cwd = () => ({ cwd: root });

test("usage, --help, --version, unknown command", () => {
  let r = runCli(["--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: skillwasm <command>/);
  for (const cmd of ["validate", "read-properties", "to-prompt", "parse"]) assert.ok(r.stdout.includes(cmd));
  r = runCli([]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Usage: skillwasm/);
  r = runCli(["--version"]);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "skillwasm 0.1.0\n");
  r = runCli(["frobnicate"]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /unknown command 'frobnicate'/);
  assert.match(r.stderr, /Usage: skillwasm/);
  r = runCli(["validate"]);
  assert.equal(r.status, 2);
  r = runCli(["validate", "--bogus"]);
  assert.equal(r.status, 2);
});

test("validate: a directory, its SKILL.md, relative and '.' paths", () => {
  let r = runCli(["validate", "good-skill"], cwd());
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, "Valid skill: good-skill\n", ""]);
  r = runCli(["validate", "good-skill/SKILL.md"], cwd());
  assert.deepEqual([r.status, r.stdout], [0, "Valid skill: good-skill\n"]);
  r = runCli(["validate", "./good-skill/"], cwd());
  assert.deepEqual([r.status, r.stdout], [0, "Valid skill: good-skill\n"]);
  // "." is checked against the directory's real name
  r = runCli(["validate", "."], { cwd: path.join(root, "good-skill") });
  assert.deepEqual([r.status, r.stdout], [0, "Valid skill: .\n"]);
  r = runCli(["validate", "技能"], cwd());
  assert.equal(r.status, 0, r.stderr);
  r = runCli(["validate", "repairable"], cwd());
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^Validation failed for repairable:\n {2}- Invalid YAML in frontmatter: /);
});

test("read-properties: Python-style JSON (2-space indent, non-ASCII escaped)", () => {
  let r = runCli(["read-properties", "技能/SKILL.md"], cwd());
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '{\n  "name": "\\u6280\\u80fd",\n  "description": "\\u4e2d\\u6587\\u63cf\\u8ff0"\n}\n');
  r = runCli(["read-properties", "nowhere"], cwd());
  assert.deepEqual([r.status, r.stdout, r.stderr], [1, "", "Error: SKILL.md not found in nowhere\n"]);
});

test("to-prompt: escaping, absolute locations, no paths", () => {
  let r = runCli(["to-prompt", "good-skill/SKILL.md", "技能"], cwd());
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes("<description>\nSays &quot;hi&quot; &amp; &lt;waves&gt;\n</description>"), r.stdout);
  assert.ok(r.stdout.includes(`<location>\n${root}/good-skill/SKILL.md\n</location>`));
  assert.ok(r.stdout.includes(`<location>\n${root}/技能/SKILL.md\n</location>`));
  assert.equal(r.stdout.split("<skill>").length - 1, 2);
  r = runCli(["to-prompt"], cwd());
  assert.deepEqual([r.status, r.stdout], [0, "<available_skills>\n</available_skills>\n"]);
  r = runCli(["to-prompt", "good-skill", "nowhere"], cwd());
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `Error: SKILL.md not found in ${root}/nowhere\n`);
});

test("parse: lenient repairs, --strict refuses, --no-body", () => {
  let r = runCli(["parse", "repairable"], cwd());
  assert.equal(r.status, 0, r.stderr);
  let report = JSON.parse(r.stdout);
  assert.equal(report.file, "repairable/SKILL.md");
  assert.equal(report.skill.name, "repairable");
  assert.equal(report.skill.description, "Use when: things break");
  assert.equal(report.skill.body, "Body");
  assert.ok(report.diagnostics.some((d) => d.severity === "warning"), JSON.stringify(report.diagnostics));

  r = runCli(["parse", "repairable/SKILL.md", "--strict"], cwd());
  assert.equal(r.status, 1);
  report = JSON.parse(r.stdout);
  assert.equal(report.skill, null);
  assert.ok(report.diagnostics.some((d) => d.severity === "error"));

  r = runCli(["parse", "--no-body", "good-skill"], cwd());
  assert.equal(r.status, 0);
  report = JSON.parse(r.stdout);
  assert.equal(report.skill.name, "good-skill");
  assert.equal("body" in report.skill, false);

  r = runCli(["parse", "good-skill", "--bogus"], cwd());
  assert.equal(r.status, 2);
  r = runCli(["parse", "nowhere"], cwd());
  assert.deepEqual([r.status, r.stdout, r.stderr], [1, "", "Error: Path does not exist: nowhere\n"]);
});

// Special files and huge files named on the command line: a clear refusal and exit 1, never a hang
// (each run is killed after 15 s, which fails the test) and never a whole read.
test("FIFOs, devices and files above 16 MiB are refused without being read", () => {
  const special = path.join(root, "special");
  mkdirSync(path.join(special, "fifo-skill"), { recursive: true });
  mkdirSync(path.join(special, "device-skill"), { recursive: true });
  mkdirSync(path.join(special, "huge-skill"), { recursive: true });
  mkdirSync(path.join(special, "at-cap"), { recursive: true });
  for (const fifo of ["fifo", "fifo-skill/SKILL.md"]) {
    const mk = spawnSync("mkfifo", [path.join(special, fifo)]);
    assert.equal(mk.status, 0, `mkfifo failed: ${mk.stderr}`);
  }
  symlinkSync("/dev/zero", path.join(special, "device-skill", "SKILL.md"));
  // 3 GiB, sparse: no disk used, and a read of it whole would fail or take long.
  writeFileSync(path.join(special, "huge-skill", "SKILL.md"), "---\nname: huge-skill\ndescription: d\n---\n");
  truncateSync(path.join(special, "huge-skill", "SKILL.md"), 3 * 1024 ** 3);
  // Exactly at the cap: still read (a valid skill padded with spaces in the body).
  const head = "---\nname: at-cap\ndescription: d\n---\n";
  writeFileSync(path.join(special, "at-cap", "SKILL.md"), head + " ".repeat(16 * 1024 * 1024 - head.length));
  const opts = { cwd: special, timeout: 15_000 };

  for (const args of [["parse", "fifo"], ["read-properties", "fifo"], ["to-prompt", "fifo"]]) {
    const r = runCli(args, opts);
    assert.deepEqual([r.status, r.stdout], [1, ""], `${args}: ${r.stderr}`);
    assert.equal(r.stderr, "Error: Not a regular file or directory: fifo (a FIFO)\n", args.join(" "));
  }
  let r = runCli(["validate", "fifo"], opts);
  assert.deepEqual([r.status, r.stderr], [1, "Validation failed for fifo:\n  - Not a directory: fifo (a FIFO)\n"]);
  r = runCli(["parse", "/dev/zero"], opts);
  assert.deepEqual([r.status, r.stderr], [1, "Error: Not a regular file or directory: /dev/zero (a character device)\n"]);

  for (const cmd of ["parse", "read-properties", "validate", "to-prompt"]) {
    r = runCli([cmd, "fifo-skill"], opts);
    assert.equal(r.status, 1, `${cmd} fifo-skill: ${r.stderr}`);
    assert.match(r.stderr, /Cannot read .*fifo-skill\/SKILL\.md: not a regular file \(a FIFO\); it was not read/, cmd);
    r = runCli([cmd, "device-skill"], opts);
    assert.equal(r.status, 1, `${cmd} device-skill: ${r.stderr}`);
    assert.match(r.stderr, /device-skill\/SKILL\.md: not a regular file \(a character device\)/, cmd);
    r = runCli([cmd, "huge-skill"], opts);
    assert.equal(r.status, 1, `${cmd} huge-skill: ${r.stderr}`);
    assert.match(r.stderr, /huge-skill\/SKILL\.md: 3221225472 bytes, above the 16777216-byte limit for a SKILL\.md; it was not read/, cmd);
  }
  r = runCli(["validate", "at-cap"], opts);
  assert.deepEqual([r.status, r.stdout], [0, "Valid skill: at-cap\n"], r.stderr);
});
