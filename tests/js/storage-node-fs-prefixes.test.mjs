// nodeFsStorage's listSkillPrefixes on real temporary directories: the same keys and warnings as
// list (links followed inside the root only, loops, FIFOs, sockets), the first bytes of the skill
// files only, never a byte from outside the root or from a file above the cap, an unreadable
// SKILL.md as a headError; and discovery through it finding exactly what discovery through list
// and read finds, on these trees and on the shared corpus.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";
import { listAll } from "./support/contract.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const CORPUS = path.resolve(import.meta.dirname, "..", "..", "..", "shared", "corpus");
const dec = new TextDecoder();
const SKIP = { names: ["node_modules"], dotDirectories: true };

function prefixPages(storage, prefix, opts) {
  const pages = [];
  let cursor;
  do {
    const page = storage.listSkillPrefixes(prefix, cursor === undefined ? opts : { ...opts, cursor });
    assert.ok(!(page instanceof Promise), "nodeFsStorage answers listSkillPrefixes synchronously");
    pages.push(page);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { pages, entries: pages.flatMap((p) => p.entries) };
}

/** What a registry found, for comparing two discoveries. */
function found(reg) {
  return {
    metas: reg.listMetasAcross().map((m) => [m.name, m.location, m.description]),
    diagnostics: reg.diagnostics().map((d) => [d.code, d.path, d.message]),
  };
}

async function bothWays(dir, options = {}) {
  const scope = (storage) => ({ scopes: [{ name: "project", storage, roots: [""], trusted: true }], maxDepth: 12, ...options });
  const batched = await SkillRegistry.discover(scope(nodeFsStorage(dir)));
  const apart = await SkillRegistry.discover(scope(nodeFsStorage(dir, { listSkillPrefixes: false })));
  const out = { batched: found(batched), apart: found(apart), stats: [batched.stats(), apart.stats()] };
  batched.free();
  apart.free();
  return out;
}

describe("nodeFsStorage listSkillPrefixes: links, special files, the cap", () => {
  let base;
  let root;
  before(() => {
    base = tempDir("fs-prefixes");
    root = path.join(base, "root");
    const outside = path.join(base, "outside");
    writeTree(root, {
      "skills/pdf/SKILL.md": `---\nname: pdf\ndescription: PDF tools\n---\n${"Body\n".repeat(600)}`,
      "skills/pdf/scripts/run.py": "print(1)\n",
      "skills/big/SKILL.md": `---\nname: big\ndescription: above the cap\n---\n${"x".repeat(5000)}`,
      "skills/node_modules/dep/SKILL.md": "---\nname: dep\ndescription: skipped\n---\n",
      "top.md": "top",
    });
    writeTree(outside, { "secret/SKILL.md": "---\nname: secret\ndescription: outside\n---\n", "SKILL.md": "outside file" });
    const s = path.join(root, "skills");
    symlinkSync("pdf", path.join(s, "link-dir")); // a directory inside: followed
    symlinkSync(path.join(outside, "secret"), path.join(s, "escape-dir")); // outside: not followed
    symlinkSync("..", path.join(s, "pdf", "loop"));
    writeTree(root, { "skills/linked/notes.md": "n" });
    symlinkSync("../pdf/SKILL.md", path.join(s, "linked", "SKILL.md")); // a SKILL.md that is a link inside
    writeTree(root, { "skills/escaped/notes.md": "n" });
    symlinkSync(path.join(outside, "SKILL.md"), path.join(s, "escaped", "SKILL.md")); // a SKILL.md link leaving
    writeTree(root, { "skills/devzero/notes.md": "n" });
    symlinkSync("/dev/zero", path.join(s, "devzero", "SKILL.md"));
    writeTree(root, { "skills/fifo/notes.md": "n" });
    assert.equal(spawnSync("mkfifo", [path.join(s, "fifo", "SKILL.md")]).status, 0);
  });
  after(() => removeDir(base));

  test("the same keys and warnings as list; heads of the skill files only, within the root and the cap", async () => {
    const storage = nodeFsStorage(root, { maxObjectBytes: 4000 });
    for (const limit of [1000, 3]) {
      const listed = await listAll(storage, "", { skip: SKIP, limit });
      const got = prefixPages(storage, "", { skip: SKIP, limit, files: ["SKILL.md"], prefixBytes: 100 });
      assert.deepEqual(got.entries.map((e) => e.key), listed.entries.map((e) => e.key), `keys, pages of ${limit}`);
      assert.deepEqual(got.pages[0].warnings, listed.pages[0].warnings, `warnings, pages of ${limit}`);
    }
    const { entries, pages } = prefixPages(storage, "", { skip: SKIP, files: ["SKILL.md"], prefixBytes: 100 });
    const byKey = new Map(entries.map((e) => [e.key, e]));
    const pdf = readFileSync(path.join(root, "skills/pdf/SKILL.md"));
    for (const key of ["skills/pdf/SKILL.md", "skills/link-dir/SKILL.md", "skills/linked/SKILL.md"]) {
      const e = byKey.get(key);
      assert.deepEqual(Buffer.from(e.head), pdf.subarray(0, 100), `${key}: its first 100 bytes`);
      assert.equal(e.size, pdf.length, `${key}: its size`);
      assert.match(e.etag, /^\d+-[\d.]+$/);
    }
    // Above the cap of 4000: listed with its size, refused before a byte is read.
    const big = byKey.get("skills/big/SKILL.md");
    assert.equal(big.head, undefined);
    assert.match(big.headError, /above the size cap of 4000 bytes/);
    // Other files carry only their key; nothing outside the root, no FIFO, no device is listed.
    assert.deepEqual(byKey.get("skills/pdf/scripts/run.py"), { key: "skills/pdf/scripts/run.py" });
    for (const key of entries.map((e) => e.key)) assert.ok(!/escape-dir\/|node_modules|(devzero|fifo|escaped)\/SKILL/.test(key), key);
    const warned = (pages[0].warnings ?? []).map((w) => [w.key, w.message]);
    assert.ok(warned.some(([k, m]) => k === "skills/escape-dir" && /outside the storage root/.test(m)), JSON.stringify(warned));
    assert.ok(warned.some(([k, m]) => k === "skills/escaped/SKILL.md" && /outside the storage root/.test(m)), JSON.stringify(warned));
    assert.ok(warned.some(([k, m]) => k === "skills/devzero/SKILL.md" && /outside the storage root/.test(m)), JSON.stringify(warned));
    assert.ok(warned.some(([k, m]) => k === "skills/fifo/SKILL.md" && /not a regular file/.test(m)), JSON.stringify(warned));
    assert.ok(warned.some(([k, m]) => k === "skills/pdf/loop" && /loop/.test(m)), JSON.stringify(warned));
  });

  test("a prefix through a link inside the root is walked; one leaving it is a warning", () => {
    const storage = nodeFsStorage(root);
    const inside = prefixPages(storage, "skills/link-dir/", { files: ["SKILL.md"], prefixBytes: 3 });
    assert.equal(dec.decode(inside.entries.find((e) => e.key === "skills/link-dir/SKILL.md").head), "---");
    const out = prefixPages(storage, "skills/escape-dir/", { files: ["SKILL.md"] });
    assert.deepEqual(out.entries, []);
    assert.match(out.pages[0].warnings[0].message, /outside the storage root/);
  });

  test("discovery through listSkillPrefixes finds what discovery through list and read finds", async () => {
    const { batched, apart, stats } = await bothWays(root, { maxObjectBytes: 4000 });
    assert.deepEqual(batched, apart);
    assert.deepEqual(batched.metas.map((m) => m[0]), ["pdf", "pdf", "pdf"]);
    assert.ok(batched.diagnostics.some(([code]) => code === "skill-too-large" || code === "storage-read-failed"), JSON.stringify(batched.diagnostics));
    assert.equal(stats[0].readCalls, 0, "every SKILL.md came with the listing");
    // The three SKILL.md files within the cap are read (the one above it is refused from its size).
    assert.equal(stats[1].readCalls, 3, JSON.stringify(stats[1]));
  });
});

// As the unprivileged user "nobody" when the tests run as root (chmod 000 does not stop root).
const UNREADABLE_SCRIPT = `
const { nodeFsStorage } = await import(process.env.PKG_NODE);
const page = nodeFsStorage(process.env.ROOT).listSkillPrefixes("", { files: ["SKILL.md"], prefixBytes: 64 });
console.log(JSON.stringify(page.entries.map((e) => [e.key, e.head ? new TextDecoder().decode(e.head) : null, e.headError ?? null])));
`;

describe("nodeFsStorage listSkillPrefixes: an unreadable SKILL.md", () => {
  let dir;
  before(() => {
    dir = tempDir("fs-prefixes-perm");
    writeTree(dir, { "open/SKILL.md": "---\nname: open\n---\n", "locked/SKILL.md": "secret" });
    chmodSync(path.join(dir, "locked", "SKILL.md"), 0o000);
    chmodSync(dir, 0o755);
  });
  after(() => removeDir(dir));

  test("is listed with a headError naming EACCES; the others are read", (t) => {
    const env = { PATH: process.env.PATH, PKG_NODE: pathToFileURL(path.join(PKG, "node.js")).href, ROOT: dir };
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", UNREADABLE_SCRIPT], {
      env, encoding: "utf8", ...(isRoot ? { uid: 65534, gid: 65534, cwd: "/" } : {}),
    });
    if (isRoot && r.status !== 0 && !r.stderr.includes(dir)) {
      t.skip(`user 65534 cannot load the package: ${r.stderr.split("\n")[0]}`);
      return;
    }
    assert.equal(r.status, 0, r.stderr);
    const [locked, open] = JSON.parse(r.stdout);
    assert.equal(locked[0], "locked/SKILL.md");
    assert.equal(locked[1], null);
    assert.match(locked[2], /^locked\/SKILL\.md: cannot read: EACCES/);
    assert.deepEqual(open, ["open/SKILL.md", "---\nname: open\n---\n", null]);
  });
});

describe("nodeFsStorage listSkillPrefixes: file names that are not UTF-8", () => {
  let dir;
  before(() => {
    dir = tempDir("fs-prefixes-names");
    writeTree(dir, { "ok/SKILL.md": "---\nname: ok\ndescription: fine\n---\n", "ok/\uFFFD.md": "a name holding U+FFFD itself" });
    // A name of bytes that do not decode (0xff), beside the skill: Node reads it as U+FFFD.
    writeFileSync(Buffer.concat([Buffer.from(path.join(dir, "ok") + path.sep), Buffer.from([0x62, 0xff, 0x2e, 0x6d, 0x64])]), "x");
  });
  after(() => removeDir(dir));

  test("are a warning, as list says; a name that holds U+FFFD itself is listed", async () => {
    const storage = nodeFsStorage(dir);
    const { pages, entries } = prefixPages(storage, "", { files: ["SKILL.md"], prefixBytes: 64 });
    const listed = await listAll(storage, "");
    assert.deepEqual(entries.map((e) => e.key), listed.entries.map((e) => e.key));
    assert.deepEqual(entries.map((e) => e.key), ["ok/SKILL.md", "ok/\uFFFD.md"]);
    const warnings = pages.flatMap((p) => p.warnings ?? []);
    assert.deepEqual(warnings, [{ key: "ok/b\uFFFD.md", message: "file name is not valid UTF-8" }]);
    assert.deepEqual(warnings, listed.pages.flatMap((p) => p.warnings ?? []));
  });
});

describe("nodeFsStorage listSkillPrefixes: the shared corpus", () => {
  test("discovery finds the same skills and diagnostics both ways", async () => {
    const { batched, apart, stats } = await bothWays(CORPUS, { maxDirectories: 1_000_000 });
    assert.ok(batched.metas.length > 500, `${batched.metas.length} skills`);
    assert.deepEqual(batched, apart);
    assert.equal(stats[0].readCalls < stats[1].readCalls, true, JSON.stringify(stats));
  });
});
