// A store that keeps a version (the memory and IndexedDB stores do): every listing page carries it, and a
// refresh passes it back as `unlessVersion`, so that a store with nothing changed answers
// `{ entries: [], unchanged: true }` in one call, listing no key. Whatever changed, a version
// that is not a string, a getter that throws, or an `unchanged` no one asked for, the registry
// must answer as a new discovery over the same store does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { importPkg } from "./helpers.mjs";
import { agreesWithDiscovery } from "./support/refresh.mjs";

const { SkillRegistry, memoryStorage, indexedDbStorage, putSkillFiles, deleteKeys } = await importPkg();

const md = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const key = (dir) => `.agents/skills/${dir}/SKILL.md`;
const PAGES = 5; // 30 keys in pages of 7

/**
 * A memory store of 30 skills listed in pages of 7, each call counted and its `unlessVersion`
 * recorded; `page` may rewrite each page the memory store answers, and `ask` the version the
 * memory store is asked with.
 */
function store(page = (p) => p, ask = (v) => v) {
  const inner = memoryStorage();
  for (let i = 0; i < 30; i++) inner.put(key(`s${String(i).padStart(2, "0")}`), md(`s${i}`, `Skill ${i}.`));
  const s = {
    inner,
    lists: 0,
    reads: 0,
    asked: [],
    location: inner.location,
    async list(prefix, opts) {
      s.lists++;
      s.asked.push(opts?.unlessVersion);
      const asked = opts?.unlessVersion === undefined ? {} : { unlessVersion: ask(opts.unlessVersion) };
      return page(await inner.list(prefix, { ...opts, ...asked, limit: 7 }), s);
    },
    read(k, opts) {
      s.reads++;
      return inner.read(k, opts);
    },
  };
  return s;
}

/** Asserts that `reg` answers as a new discovery over the store under `s` does. */
const agrees = (reg, s) => agreesWithDiscovery(reg, s.inner);

/** The store's calls during `fn`: lists, reads, and the versions asked with. */
async function calls(s, fn) {
  const at = { lists: s.lists, reads: s.reads, asked: s.asked.length };
  const out = await fn();
  return { lists: s.lists - at.lists, reads: s.reads - at.reads, asked: s.asked.slice(at.asked), out };
}

test("the memory store's pages carry its version; asked with it, the store answers unchanged", async () => {
  const m = memoryStorage({ "a/SKILL.md": "x", "b/SKILL.md": "y" });
  const first = await m.list("", { limit: 1 });
  assert.equal(typeof first.version, "string");
  assert.equal((await m.list("", { cursor: first.cursor })).version, first.version, "every page, the same version");
  assert.deepEqual(await m.list("", { unlessVersion: first.version }), {
    entries: [],
    unchanged: true,
    version: first.version,
  });
  // A put (even of the same bytes) and a delete each change it; a delete of nothing does not.
  const versions = [first.version];
  m.put("a/SKILL.md", "x");
  versions.push((await m.list("")).version);
  m.delete("b/SKILL.md");
  versions.push((await m.list("")).version);
  m.delete("no/such");
  assert.equal((await m.list("")).version, versions[2]);
  assert.equal(new Set(versions).size, 3);
  // An old version is answered with the listing.
  const page = await m.list("", { unlessVersion: versions[0] });
  assert.deepEqual(page.entries.map((e) => e.key), ["a/SKILL.md"]);
  assert.equal(page.unchanged, undefined);
});

test("a refresh of a store still at its version is one call per root, and reads nothing", async () => {
  const s = store();
  const cold = await calls(s, () => SkillRegistry.discover({ user: s }));
  const reg = cold.out;
  assert.equal(reg.names().length, 30);
  assert.deepEqual([cold.lists, cold.reads], [PAGES, 30]);
  assert.deepEqual(cold.asked, Array(PAGES).fill(undefined), "discovery names no version");

  const version = (await s.inner.list("")).version;
  let r = await calls(s, () => reg.refresh());
  assert.deepEqual([r.out.added, r.out.changed, r.out.removed], [[], [], []]);
  assert.deepEqual([r.lists, r.reads, r.asked], [1, 0, [version]]);
  await agrees(reg, s);

  // An edit: the store lists in full (the first page asked with the old version, the rest with
  // none), and the changed file alone is read.
  s.inner.put(key("s17"), md("s17", "Edited."));
  r = await calls(s, () => reg.refresh());
  assert.deepEqual(r.out.changed.map((x) => x.name), ["s17"]);
  assert.deepEqual([r.lists, r.reads, r.asked], [PAGES, 1, [version, ...Array(PAGES - 1).fill(undefined)]]);
  assert.equal(reg.get("s17").description, "Edited.");
  await agrees(reg, s);
  r = await calls(s, () => reg.refresh());
  assert.deepEqual([r.lists, r.reads], [1, 0], "at the new version: one call again");

  // An edit outside the root moves the version, not the root's pages: listed once in full,
  // nothing read, and the version kept is the new one.
  s.inner.put("elsewhere/notes.md", "not under .agents/skills/");
  r = await calls(s, () => reg.refresh());
  assert.deepEqual([r.lists, r.reads, r.out.changed], [PAGES, 0, []]);
  r = await calls(s, () => reg.refresh());
  assert.deepEqual([r.lists, r.reads, r.asked], [1, 0, [(await s.inner.list("")).version]]);

  // Added and removed skills are found as a discovery finds them.
  s.inner.delete(key("s03"));
  s.inner.put(key("zz"), md("zz", "Added."));
  r = await calls(s, () => reg.refresh());
  assert.deepEqual([r.out.added.map((x) => x.name), r.out.removed.map((x) => x.name)], [["zz"], ["s3"]]);
  assert.equal(r.reads, 1);
  await agrees(reg, s);
});

test("a change made while discovery lists is found by the next refresh", async () => {
  let edit = null;
  const s = store((page, self) => {
    // After the first page is answered, edit a skill on it.
    if (edit !== null && self.lists === 1) edit();
    return page;
  });
  edit = () => {
    edit = null;
    s.inner.put(key("s00"), md("s0", "Edited while listed."));
  };
  const reg = await SkillRegistry.discover({ user: s });
  assert.equal(edit, null, "edited while listed");
  const r = await calls(s, () => reg.refresh());
  assert.equal(r.lists, PAGES, "the version its first page gave is gone: a full listing");
  assert.equal(reg.get("s0").description, "Edited while listed.");
  await agrees(reg, s);
});

test("a version that is no short string, or a getter that throws, is as none", async () => {
  const bad = {
    "a number": (p) => ({ ...p, version: 7 }),
    "an empty string": (p) => ({ ...p, version: "" }),
    "a string of 1025 characters": (p) => ({ ...p, version: "v".repeat(1025) }),
    "a throwing getter": (p) => {
      const out = { ...p };
      delete out.version;
      Object.defineProperty(out, "version", { enumerable: true, get: () => { throw new Error("no version"); } });
      return out;
    },
  };
  for (const [what, page] of Object.entries(bad)) {
    const s = store(page);
    const reg = await SkillRegistry.discover({ user: s });
    assert.equal(reg.names().length, 30, what);
    const r = await calls(s, () => reg.refresh());
    assert.deepEqual([r.lists, r.reads], [PAGES, 0], `${what}: the pages listed again, nothing read`);
    assert.ok(r.asked.every((v) => v === undefined), `${what}: no version asked`);
    await agrees(reg, s);
  }
  // The longest version kept is 1024 characters.
  const s = store(
    (p) => ({ ...p, version: `${p.version}:`.padEnd(1024, "v") }),
    (v) => v.slice(0, v.indexOf(":")),
  );
  const reg = await SkillRegistry.discover({ user: s });
  const r = await calls(s, () => reg.refresh());
  assert.equal(r.lists, 1);
  assert.equal(r.asked[0].length, 1024);
  await agrees(reg, s);
});

test("an `unchanged` no one asked for is ignored: the page's entries stand", async () => {
  const s = store((p) => ({ ...p, unchanged: true, version: undefined }));
  const reg = await SkillRegistry.discover({ user: s });
  assert.equal(reg.names().length, 30);
  s.inner.put(key("s05"), md("s5", "Edited."));
  const r = await calls(s, () => reg.refresh());
  assert.deepEqual(r.out.changed.map((x) => x.name), ["s5"]);
  await agrees(reg, s);
});

test("IndexedDB: every write moves the version, a database made again never gives an old one", async () => {
  const indexedDB = new IDBFactory();
  const open = () => indexedDbStorage({ dbName: "versions", indexedDB, IDBKeyRange });
  const s = open();
  const version = async () => (await s.list("")).version;
  await putSkillFiles(s, { [key("a")]: md("a", "A."), [key("b")]: md("b", "B.") });
  const seen = [await version()];
  assert.match(seen[0], /^[0-9a-f]{16}:1$/);
  for (const write of [
    () => s.put(key("a"), md("a", "A, again.")),
    () => s.delete(key("b")),
    () => putSkillFiles(s, { [key("c")]: md("c", "C.") }),
    () => deleteKeys(s, [key("c")]),
  ]) {
    await write();
    seen.push(await version());
  }
  assert.equal(new Set(seen).size, seen.length, `each write a new version: ${seen}`);
  assert.deepEqual(await s.list("", { unlessVersion: seen.at(-1) }), { entries: [], unchanged: true, version: seen.at(-1) });
  assert.equal((await s.list("", { unlessVersion: seen[0] })).entries.length, 1);

  // Another storage object over the same database shares the version.
  const other = open();
  assert.equal((await other.list("")).version, seen.at(-1));
  other.close();

  // Deleted and made again: the same count of writes, another id.
  s.close();
  await new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase("versions");
    req.onsuccess = resolve;
    req.onerror = () => reject(req.error);
  });
  const again = open();
  await putSkillFiles(again, { [key("a")]: md("a", "A.") });
  const fresh = (await again.list("")).version;
  assert.match(fresh, /:1$/);
  assert.notEqual(fresh, seen[0]);
  again.close();
});

test("IndexedDB: a database from before the version store is upgraded and versioned from its next write", async () => {
  const indexedDB = new IDBFactory();
  // The two object stores an earlier adapter made, with one skill written the way it wrote them.
  await new Promise((resolve, reject) => {
    const req = indexedDB.open("older", 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      const bytes = new TextEncoder().encode(md("a", "A."));
      db.createObjectStore("skills").put({ data: bytes, size: bytes.length, etag: "e1" }, key("a"));
      db.createObjectStore("skills:meta").put({ size: bytes.length, etag: "e1" }, key("a"));
    };
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
    req.onerror = () => reject(req.error);
  });
  const s = indexedDbStorage({ dbName: "older", indexedDB, IDBKeyRange });
  const first = await s.list("");
  assert.deepEqual(first.entries.map((e) => e.key), [key("a")]);
  assert.equal(first.version, undefined, "no version before a write");
  const reg = await SkillRegistry.discover({ user: s });
  assert.deepEqual(reg.names(), ["a"]);
  await s.put(key("b"), md("b", "B."));
  assert.match((await s.list("")).version, /:1$/);
  assert.deepEqual((await reg.refresh()).added.map((r) => r.name), ["b"]);
  let lists = 0;
  const counted = { location: s.location, list: (p, o) => (lists++, s.list(p, o)), read: (k, o) => s.read(k, o) };
  const reg2 = await SkillRegistry.discover({ user: counted });
  lists = 0;
  await reg2.refresh();
  assert.equal(lists, 1, "versioned now: one call");
  s.close();
});
