// nodeFsStorage's listSkillPrefixes with `listOnly` (what discovery asks for) on real temporary
// directories: only the files named are listed, every directory entered is named instead (in key
// order, packed as a `dir/` line), links are still followed inside the root only, what is left
// out costs no warning unless it could have been wanted, cursors resume after a directory's key
// (also in a fresh store, whose walk is gone), bad options are TypeErrors; and discovery through
// it finds what discovery through list and read finds, with the same directory cap.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const SKIP = { names: ["node_modules"], dotDirectories: true };
const skill = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo it.\n`;

/** Every page of a listing: entries, directories (as keys) and warnings, pages concatenated. */
function pages(storage, prefix, opts) {
  const out = { entries: [], directories: [], warnings: [], pages: 0 };
  let cursor;
  do {
    const page = storage.listSkillPrefixes(prefix, cursor === undefined ? opts : { ...opts, cursor });
    out.pages++;
    if (page.packed !== undefined) {
      for (const line of page.packed.lines.split("\n").filter((l) => l !== "")) {
        if (line.endsWith("/")) out.directories.push(line);
        else out.entries.push(line.split("\t")[0]);
      }
    } else {
      out.entries.push(...page.entries.map((e) => e.key));
      out.directories.push(...(page.directories ?? []));
    }
    out.warnings.push(...(page.warnings ?? []));
    cursor = page.cursor;
  } while (cursor !== undefined);
  return out;
}

const sorted = (xs) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe("nodeFsStorage listSkillPrefixes with listOnly", () => {
  let base;
  let root;
  before(() => {
    base = tempDir("fs-listonly");
    root = path.join(base, "root");
    writeTree(root, {
      "skills/pdf/SKILL.md": skill("pdf"),
      "skills/pdf/scripts/run.py": "print(1)\n",
      "skills/pdf/scripts/lib/util.py": "x",
      "skills/pdf/assets/a.png": "x",
      "skills/team/.gitignore": "wip/\n",
      "skills/team/csv/SKILL.md": skill("csv"),
      "skills/team/csv/notes.md": "n",
      "skills/team/wip/SKILL.md": skill("wip"),
      "skills/node_modules/dep/SKILL.md": skill("dep"),
      "skills/.cache/x/SKILL.md": skill("cache"),
      "skills/a.md": "a",
    });
    writeTree(path.join(base, "outside"), { "SKILL.md": skill("outside") });
    mkdirSync(path.join(root, "skills", "empty", "deeper"), { recursive: true });
    const s = path.join(root, "skills");
    symlinkSync("pdf", path.join(s, "pdf-link"));
    symlinkSync("../pdf/SKILL.md", path.join(s, "team", "SKILL.md"));
    symlinkSync("../pdf/scripts/run.py", path.join(s, "team", "run-link.py"));
    symlinkSync("nowhere", path.join(s, "dangling"));
    symlinkSync("../../outside", path.join(s, "escape"));
    assert.equal(spawnSync("mkfifo", [path.join(s, "team", "csv", "pipe")]).status, 0);
    assert.equal(spawnSync("mkfifo", [path.join(s, "empty", "SKILL.md")]).status, 0);
  });
  after(() => removeDir(base));

  test("only the files named are listed, every directory entered is named, packed or not", () => {
    const storage = nodeFsStorage(root);
    const full = pages(storage, "skills/", { skip: SKIP, files: ["SKILL.md"], prefixBytes: 64 });
    const wanted = (k) => ["SKILL.md", ".gitignore"].includes(k.split("/").pop());
    for (const limit of [1000, 3, 1]) {
      for (const packed of [false, true]) {
        const only = pages(storage, "skills/", { skip: SKIP, files: ["SKILL.md"], prefixBytes: 64, listOnly: [".gitignore"], packed, limit });
        const what = `limit ${limit}, packed ${packed}`;
        assert.deepEqual(only.entries, full.entries.filter(wanted), what);
        assert.deepEqual(only.directories, sorted(only.directories), `directories in key order (${what})`);
        assert.deepEqual(only.directories, [
          "skills/empty/", "skills/empty/deeper/",
          "skills/pdf-link/", "skills/pdf-link/assets/", "skills/pdf-link/scripts/", "skills/pdf-link/scripts/lib/",
          "skills/pdf/", "skills/pdf/assets/", "skills/pdf/scripts/", "skills/pdf/scripts/lib/",
          "skills/team/", "skills/team/csv/", "skills/team/wip/",
        ], what);
        // Every directory of a listed key is named (so a caller counts what it would count).
        for (const k of full.entries) {
          const dir = k.slice(0, k.lastIndexOf("/") + 1);
          if (dir !== "skills/") assert.ok(only.directories.includes(dir), `${dir} (${what})`);
        }
        // The warnings about links stay (a link may have led to a directory); a FIFO or a file
        // whose name is not wanted is passed over; a FIFO named SKILL.md is still reported.
        const keys = sorted(only.warnings.map((w) => w.key));
        assert.deepEqual(keys, ["skills/dangling", "skills/empty/SKILL.md", "skills/escape"], what);
        if (limit === 1000) assert.equal(only.pages, 1);
      }
    }
    const fullWarnings = sorted(full.warnings.map((w) => w.key));
    assert.ok(fullWarnings.includes("skills/team/csv/pipe"), "without listOnly the FIFO is reported");
  });

  test("the heads' files are listed even when listOnly leaves them out", () => {
    const only = pages(nodeFsStorage(root), "skills/", { files: ["SKILL.md"], prefixBytes: 64, listOnly: ["notes.md"], packed: true });
    assert.ok(only.entries.includes("skills/pdf/SKILL.md"));
    assert.ok(only.entries.includes("skills/team/csv/notes.md"));
    assert.ok(!only.entries.some((k) => k.endsWith(".py") || k.endsWith(".gitignore")));
  });

  test("a cursor after a directory's key resumes there, in a fresh store too", () => {
    const opts = { skip: SKIP, files: ["SKILL.md"], prefixBytes: 64, listOnly: [], limit: 1 };
    const storage = nodeFsStorage(root);
    const all = pages(storage, "skills/", opts);
    let page = storage.listSkillPrefixes("skills/", opts);
    const seen = [...page.entries.map((e) => e.key), ...page.directories];
    while (page.cursor !== undefined) {
      // Every page from a fresh store: the walk of the cursor is gone and is walked again.
      page = nodeFsStorage(root).listSkillPrefixes("skills/", { ...opts, cursor: page.cursor });
      seen.push(...page.entries.map((e) => e.key), ...page.directories);
    }
    assert.deepEqual(seen, sorted([...all.entries, ...all.directories]));
    assert.ok(all.directories.length > 0 && all.entries.length > 0);
  });

  test("a malformed listOnly is a TypeError before anything is touched", () => {
    const storage = nodeFsStorage(path.join(base, "does-not-exist"));
    for (const listOnly of ["SKILL.md", [""], ["a/b"], [".."], [1], Array(17).fill("x"), {}]) {
      assert.throws(() => storage.listSkillPrefixes("", { files: ["SKILL.md"], listOnly }), TypeError, JSON.stringify(listOnly));
    }
    assert.deepEqual(storage.listSkillPrefixes("", { listOnly: null }).entries, []);
  });

  test("discovery through it finds what list and read find, with the same directory cap", async () => {
    const run = async (listSkillPrefixes, options) => {
      const reg = await SkillRegistry.discover({
        scopes: [{ name: "project", storage: nodeFsStorage(root, { listSkillPrefixes }), roots: ["skills/"], trusted: true }],
        maxDepth: 12,
        ...options,
      });
      const out = {
        metas: reg.listMetasAcross().map((m) => [m.name, m.location]),
        diagnostics: reg.diagnostics().map((d) => [d.code, d.path, d.message]).filter(([, p]) => !/pipe$/.test(p)),
      };
      reg.free();
      return out;
    };
    for (const options of [{}, { respectGitignore: true }, { pageSize: 2 }]) {
      assert.deepEqual(await run(true, options), await run(false, options), JSON.stringify(options));
    }
    const batched = await run(true, {});
    assert.deepEqual(batched.metas.map((m) => m[0]).sort(), ["csv", "pdf", "pdf", "pdf", "wip"]);
    // skills/empty/ and skills/empty/deeper/ hold no file: the walk counts them, a flat listing
    // cannot. Below them, the cap bites at the same directory both ways.
    for (const maxDirectories of [1, 2, 4, 6]) {
      const a = await run(true, { maxDirectories: maxDirectories + 2 });
      const b = await run(false, { maxDirectories });
      assert.deepEqual(a.metas, b.metas, `cap ${maxDirectories}`);
      assert.ok(a.diagnostics.some(([code]) => code === "scan-directory-cap"), `cap ${maxDirectories}`);
    }
  });
});
