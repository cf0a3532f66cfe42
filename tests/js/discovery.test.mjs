// Discovery's scan rules through the built package on real directories: the skip hint that
// nodeFsStorage honours (it never enters .git/ or node_modules/), `.gitignore` with
// respectGitignore, and the diagnostics about scopes and roots.
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage, memoryStorage } = await importPkg();
const SKIP = { names: [".git", "node_modules"], dotDirectories: true };
const md = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo it.\n`;

/** A store that records the options of every list call, and can drop the skip hint. */
function recording(storage, { dropSkip = false } = {}) {
  const calls = [];
  return {
    calls,
    list(prefix, opts = {}) {
      calls.push({ prefix, ...opts });
      const { skip, ...rest } = opts;
      return storage.list(prefix, dropSkip ? rest : opts);
    },
    read: (key, opts) => storage.read(key, opts),
  };
}

describe("the skip hint", () => {
  let base;
  before(() => {
    base = tempDir("skip");
    writeTree(base, {
      "skills/pdf/SKILL.md": md("pdf"),
      "skills/pdf/scripts/run.js": "run()",
      "skills/pdf/scripts/node_modules/dep/index.js": "x",
      "skills/pdf/scripts/node_modules/dep/SKILL.md": md("dep"),
      "skills/.git/HEAD": "ref: refs/heads/main",
      "skills/.github/workflows/ci.yml": "on: push",
      "skills/csv/SKILL.md": md("csv"),
      "skills/csv/.env.example": "KEY=",
    });
    // Links that a walk would have to report: one in each directory the hint names.
    symlinkSync("nowhere", path.join(base, "skills/pdf/scripts/node_modules/dep/dangling"));
    symlinkSync("nowhere", path.join(base, "skills/.git/dangling"));
  });
  after(() => removeDir(base));

  test("nodeFsStorage does not enter the directories the hint names", async () => {
    const storage = nodeFsStorage(base);
    const full = await storage.list("skills/");
    assert.equal(full.entries.length, 8);
    assert.deepEqual(full.warnings.map((w) => w.message), ["dangling symbolic link", "dangling symbolic link"]);
    const hinted = await storage.list("skills/", { skip: SKIP });
    assert.deepEqual(hinted.entries.map((e) => e.key), [
      "skills/csv/.env.example", "skills/csv/SKILL.md", "skills/pdf/SKILL.md", "skills/pdf/scripts/run.js",
    ]);
    assert.equal(hinted.warnings, undefined, "the links inside were never reached");
    // Names only, and dot directories only: each part of the rule on its own.
    const names = await storage.list("skills/", { skip: { names: ["node_modules"] } });
    assert.ok(names.entries.some((e) => e.key === "skills/.git/HEAD"));
    assert.ok(!names.entries.some((e) => e.key.includes("node_modules")));
    const dots = await storage.list("skills/", { skip: { dotDirectories: true } });
    assert.ok(dots.entries.some((e) => e.key.includes("node_modules")));
    assert.ok(!dots.entries.some((e) => e.key.includes("/.git")), "dot files stay: .env.example is listed");
    assert.ok(dots.entries.some((e) => e.key === "skills/csv/.env.example"));
    // The prefix itself may be a dot directory: the hint applies below it.
    const inside = await storage.list("skills/.github/", { skip: SKIP });
    assert.deepEqual(inside.entries.map((e) => e.key), ["skills/.github/workflows/ci.yml"]);
  });

  test("pages of a hinted walk stay with their hint", async () => {
    const storage = nodeFsStorage(base);
    const first = await storage.list("skills/", { skip: SKIP, limit: 2 });
    assert.equal(first.entries.length, 2);
    const second = await storage.list("skills/", { skip: SKIP, limit: 10, cursor: first.cursor });
    assert.deepEqual(second.entries.map((e) => e.key), ["skills/pdf/SKILL.md", "skills/pdf/scripts/run.js"]);
    // The same cursor without the hint walks again, unhinted, and resumes after the last key.
    const unhinted = await storage.list("skills/", { limit: 100, cursor: first.cursor });
    assert.ok(unhinted.entries.some((e) => e.key.includes("node_modules")));
  });

  test("a bad hint is a TypeError, before anything is touched", async () => {
    const storage = nodeFsStorage(base);
    for (const skip of ["node_modules", [".git"], { names: "x" }, { names: [1] }, { names: ["a/b"] }, { dotDirectories: "yes" }]) {
      await assert.rejects(storage.list("skills/", { skip }), TypeError, JSON.stringify(skip));
    }
    assert.equal((await storage.list("skills/", { skip: {} })).entries.length, 8, "an empty hint skips nothing");
  });

  test("discovery sends the hint, and finds the same skills whether or not the store honours it", async () => {
    const honoured = recording(nodeFsStorage(base));
    const ignored = recording(nodeFsStorage(base), { dropSkip: true });
    const results = [];
    for (const storage of [honoured, ignored]) {
      const reg = await SkillRegistry.discover({ scopes: [{ name: "repo", storage, roots: ["skills/"] }] });
      results.push({ names: reg.names(), diags: reg.diagnostics().map((d) => d.code) });
    }
    assert.deepEqual(honoured.calls[0].skip, SKIP);
    assert.deepEqual(results[0].names, ["csv", "pdf"]);
    assert.deepEqual(results[1].names, results[0].names);
    assert.deepEqual(results[0].diags, [], "nothing inside node_modules/ or .git/ was walked, so nothing to report");
    assert.deepEqual(results[1].diags, ["storage-skipped", "storage-skipped"], "without the hint the walk met the links");
  });
});

describe("respectGitignore", () => {
  let base;
  before(() => {
    base = tempDir("gitignore");
    writeTree(base, {
      ".gitignore": "node_modules/\n/.agents/skills/scratch-*/\n",
      ".agents/skills/.gitignore": "# drafts are not shipped\ndrafts/\n!drafts/ready/\n*.bak/\n",
      ".agents/skills/pdf/SKILL.md": md("pdf"),
      ".agents/skills/scratch-1/SKILL.md": md("scratch-1"),
      ".agents/skills/old.bak/SKILL.md": md("old"),
      ".agents/skills/drafts/new/SKILL.md": md("new"),
      ".agents/skills/drafts/ready/SKILL.md": md("ready"),
      ".agents/skills/team/.gitignore": "wip-*\n",
      ".agents/skills/team/wip-x/SKILL.md": md("wip-x"),
      ".agents/skills/team/done/SKILL.md": md("done"),
    });
  });
  after(() => removeDir(base));

  test("off by default; on, skills that .gitignore files ignore are left out, and said so", async () => {
    const plain = await SkillRegistry.discover({ project: nodeFsStorage(base), trustProject: true });
    assert.equal(plain.names().length, 7);
    const reg = await SkillRegistry.discover({ project: nodeFsStorage(base), trustProject: true, respectGitignore: true });
    // drafts/ excludes the directory, so !drafts/ready/ cannot bring ready back (as in git).
    assert.deepEqual(reg.names(), ["done", "pdf"]);
    const note = reg.diagnostics().find((d) => d.code === "scan-gitignored");
    assert.equal(note.severity, "info");
    assert.match(note.message, /^5 SKILL\.md file\(s\)/);
    assert.equal(note.path, "project:.agents/skills/drafts/new/SKILL.md");
    // Reads: 2 .gitignore files above the root (one missing), the root's and team's; the 2
    // SKILL.md files' first bytes came with the listing (listSkillPrefixes).
    assert.equal(reg.stats().readCalls, 4);
    // Without the batched listing, the 2 SKILL.md files are read too, with the same outcome.
    const apart = await SkillRegistry.discover({ project: nodeFsStorage(base, { listSkillPrefixes: false }), trustProject: true, respectGitignore: true });
    assert.deepEqual(apart.names(), ["done", "pdf"]);
    assert.equal(apart.stats().readCalls, 6);
    apart.free();
    // refresh() applies the rules again.
    writeTree(base, { ".agents/skills/team/.gitignore": "" });
    const report = await reg.refresh();
    assert.deepEqual(report.added.map((s) => s.name), ["wip-x"]);
    writeTree(base, { ".agents/skills/team/.gitignore": "wip-*\n" });
  });

  test("an untrusted scope reads no .gitignore either", async () => {
    const storage = recording(nodeFsStorage(base));
    let reads = 0;
    const read = storage.read;
    storage.read = (k, o) => (reads++, read(k, o));
    // A store that lists with heads is not asked to: its files are not read at all.
    const inner = nodeFsStorage(base);
    storage.listSkillPrefixes = (p, o) => (reads++, inner.listSkillPrefixes(p, o));
    const reg = await SkillRegistry.discover({ project: storage, respectGitignore: true });
    assert.equal(reads, 0);
    const d = reg.diagnostics().find((x) => x.code === "scope-untrusted");
    assert.equal(d.severity, "warning", "an untrusted scope holding skills is worth a warning");
    assert.match(d.message, /holds 7 skill/);
  });
});

test("a store root that does not exist reads as one clear warning", async () => {
  const missing = path.join(tempDir("missing"), "nope");
  const reg = await SkillRegistry.discover({
    scopes: [
      { name: "gone", storage: nodeFsStorage(missing), roots: [""] },
      { name: "empty", storage: memoryStorage(), roots: [""] },
    ],
  });
  const [gone, empty] = reg.diagnostics().filter((d) => d.code === "storage-skipped");
  assert.equal(gone.message, `listing the store's root in scope 'gone': the storage root directory ${missing} does not exist`);
  assert.equal(gone.path, "gone:");
  assert.equal(empty.message, "listing the store's root in scope 'empty': the memory store holds no objects");
  const empties = reg.diagnostics().filter((d) => d.code === "scope-untrusted");
  assert.deepEqual(empties, []);
});
