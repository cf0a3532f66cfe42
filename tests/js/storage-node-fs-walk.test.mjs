// nodeFsStorage walks a page at a time. `list` used to walk the whole tree in its first call, which
// on a large tree ran past the store-call timeout (discovery with `listSkillPrefixes: false` then
// found no skill). On a generated tree of 4,800 files in 2,400 directories: the first page is
// served before the walk reaches the last directories (a file written there afterwards is in the
// continued listing, which the whole-tree walk could not show), discovery finds the same skills
// with and without listSkillPrefixes, one call per page, and both listings give the same keys in
// order. On a small tree: names that sort around "/" come in the contract's order at any page
// size, the page that ends a listing has no cursor, and a cursor whose walk is gone resumes after
// its last key.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";
import { listAll } from "./support/contract.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const SKIP = { names: ["node_modules"], dotDirectories: true };
const keys = (entries) => entries.map((e) => e.key);

function prefixPages(storage, prefix, opts) {
  const pages = [];
  let cursor;
  do {
    const page = storage.listSkillPrefixes(prefix, cursor === undefined ? opts : { ...opts, cursor });
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { pages, entries: pages.flatMap((p) => p.entries) };
}

describe("nodeFsStorage: a tree of 4,800 files", () => {
  const SKILLS = 1200;
  const FILES = SKILLS * 4;
  let dir;
  before(() => {
    dir = tempDir("fs-walk-big");
    for (let i = 0; i < SKILLS; i++) {
      const name = `skill-${String(i).padStart(4, "0")}`;
      const d = path.join(dir, "skills", `group-${i % 30}`, name);
      mkdirSync(path.join(d, "scripts"), { recursive: true });
      writeFileSync(path.join(d, "SKILL.md"), `---\nname: ${name}\ndescription: skill number ${i}\n---\nBody ${i}\n`);
      writeFileSync(path.join(d, "notes.md"), "notes");
      writeFileSync(path.join(d, "scripts", "one.py"), "1");
      writeFileSync(path.join(d, "scripts", "two.py"), "2");
    }
  });
  after(() => removeDir(dir));

  test("the first page is served before the walk reaches the last directories", async () => {
    const storage = nodeFsStorage(dir);
    const first = await storage.list("skills/", { limit: 1000 });
    assert.equal(first.entries.length, 1000);
    // group-9 sorts last; its last skill is far beyond the first 1000 keys.
    const late = path.join(dir, "skills", "group-9", "skill-1179", "scripts", "written-later.py");
    writeFileSync(late, "3");
    try {
      const rest = await listAll(storage, "skills/", { limit: 1000, cursor: first.cursor });
      const got = [...keys(first.entries), ...keys(rest.entries)];
      assert.ok(got.includes("skills/group-9/skill-1179/scripts/written-later.py"), "a directory is read when the walk reaches it");
      assert.equal(got.length, FILES + 1);
    } finally {
      rmSync(late);
    }
  });

  test("discovery finds every skill with and without listSkillPrefixes", async () => {
    const found = async (storage) => {
      const reg = await SkillRegistry.discover({
        scopes: [{ name: "big", storage, roots: ["skills/"] }], maxDepth: 12, maxDirectories: 1_000_000,
      });
      const out = {
        metas: reg.listMetasAcross().map((m) => [m.name, m.location, m.description]),
        diagnostics: reg.diagnostics().map((d) => [d.code, d.path, d.message]),
        listCalls: reg.stats().listCalls,
      };
      reg.free();
      return out;
    };
    const batched = await found(nodeFsStorage(dir));
    const apart = await found(nodeFsStorage(dir, { listSkillPrefixes: false }));
    assert.equal(apart.metas.length, SKILLS, JSON.stringify(apart.diagnostics.slice(0, 3)));
    assert.deepEqual(apart.metas, batched.metas);
    assert.deepEqual(apart.diagnostics, batched.diagnostics);
    // 4,800 files in pages of 1000: one call per page, each walking only its part of the tree.
    assert.equal(apart.listCalls, Math.ceil(FILES / 1000));
    // Listed with listOnly: the 1,200 SKILL.md files and the 30 + 1,200 + 1,200 directories.
    assert.equal(batched.listCalls, Math.ceil((SKILLS + 30 + 2 * SKILLS) / 1000));
  });

  test("both listings give the same keys, in order, across pages of 1000 and of 777", async () => {
    const storage = nodeFsStorage(dir);
    for (const limit of [1000, 777]) {
      const listed = await listAll(storage, "skills/", { limit, skip: SKIP });
      const prefixed = prefixPages(storage, "skills/", { limit, skip: SKIP, files: ["SKILL.md"], prefixBytes: 64 });
      assert.equal(listed.entries.length, FILES);
      assert.equal(listed.pages.length, Math.ceil(FILES / limit));
      const got = keys(listed.entries);
      assert.deepEqual(got, [...got].sort(), "in the contract's order");
      assert.deepEqual(keys(prefixed.entries), got);
    }
  });
});

describe("nodeFsStorage: a walk a page at a time", () => {
  let dir;
  before(() => {
    dir = tempDir("fs-walk");
    // Names around "/" (0x2f): "-" and "." sort before it, "0" and "_" after it.
    writeTree(dir, {
      "a/x.md": "1", "a-b.md": "2", "a.md": "3", "a0/y.md": "4", "a_/z.md": "5", "a/b/c.md": "6",
      "ab/SKILL.md": "---\nname: ab\ndescription: d\n---\n", "\u00e9/e.md": "7", "Z.md": "8",
      "late/first.md": "9",
    });
  });
  after(() => removeDir(dir));

  test("keys come in the contract's order through list and listSkillPrefixes, at any page size", async () => {
    const storage = nodeFsStorage(dir);
    const want = keys((await listAll(storage, "")).entries);
    assert.deepEqual(want, [...want].sort());
    assert.equal(want.length, 10);
    for (const limit of [1, 2, 3, 1000]) {
      assert.deepEqual(keys((await listAll(storage, "", { limit })).entries), want, `list, pages of ${limit}`);
      assert.deepEqual(keys(prefixPages(storage, "", { limit, files: ["SKILL.md"] }).entries), want, `listSkillPrefixes, pages of ${limit}`);
    }
  });

  test("a listing reads a directory when it reaches it; the page that ends it has no cursor", async () => {
    const storage = nodeFsStorage(dir);
    const first = await storage.list("", { limit: 2 });
    // "late/" comes after the first page: a file written there now is in the continued listing.
    writeFileSync(path.join(dir, "late", "second.md"), "10");
    const rest = [];
    let cursor = first.cursor;
    let last;
    while (cursor !== undefined) {
      last = await storage.list("", { limit: 2, cursor });
      rest.push(...last.entries);
      cursor = last.cursor;
    }
    assert.ok(keys(rest).includes("late/second.md"), JSON.stringify(keys(rest)));
    assert.ok(last.entries.length > 0, "no empty page after the last key");
  });

  test("a cursor whose walk is gone resumes after its last key, in both listings", async () => {
    const storage = nodeFsStorage(dir);
    const all = keys((await listAll(storage, "")).entries);
    for (let n = 1; n < all.length; n++) {
      const first = await storage.list("", { limit: n });
      const rest = await listAll(nodeFsStorage(dir), "", { cursor: first.cursor });
      assert.deepEqual([...keys(first.entries), ...keys(rest.entries)], all, `list after ${n}`);
      const head = storage.listSkillPrefixes("", { limit: n, files: ["SKILL.md"] });
      const tail = prefixPages(nodeFsStorage(dir), "", { cursor: head.cursor, files: ["SKILL.md"] });
      assert.deepEqual([...keys(head.entries), ...keys(tail.entries)], all, `listSkillPrefixes after ${n}`);
    }
  });
});
