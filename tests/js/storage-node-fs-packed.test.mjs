// Packed pages of listSkillPrefixes (asked with `packed: true`, as discovery asks): nodeFsStorage's
// packed page says what its ordinary page says (keys, sizes, etags, heads, headErrors) on a tree
// with links, a file above the cap and an unreadable FIFO; discovery reads a store's packed pages
// with no read of a SKILL.md; a packed page that is malformed (lines that are no string, heads
// shorter than their lengths, a length that is no number) is a diagnostic, never a throw, and a
// head longer than asked a failed read of its skill.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const enc = new TextEncoder();

/** A packed page read back as an ordinary page's entries. */
function unpack(page) {
  const out = [];
  let at = 0;
  for (const line of page.packed.lines.split("\n").filter((l) => l !== "")) {
    const [key, size, etag, head] = line.split("\t");
    const e = { key };
    if (size !== undefined && size !== "") e.size = Number(size);
    if (etag !== undefined && etag !== "") e.etag = etag;
    if (head === undefined) {
      out.push(e);
      continue;
    }
    if (head.startsWith("!")) e.headError = head.slice(1);
    else {
      e.head = page.packed.heads.subarray(at, at + Number(head));
      at += Number(head);
    }
    out.push(e);
  }
  assert.equal(at, page.packed.heads.length, "every byte of heads belongs to a line");
  return out;
}

const plain = (entries) => entries.map((e) => ({ ...e, ...(e.head ? { head: [...e.head] } : {}) }));

describe("nodeFsStorage: packed pages", () => {
  let root;
  before(() => {
    root = tempDir("fs-packed");
    writeTree(root, {
      "skills/pdf/SKILL.md": `---\nname: pdf\ndescription: PDF tools\n---\n${"Body\n".repeat(600)}`,
      "skills/pdf/scripts/run.py": "print(1)\n",
      "skills/small/SKILL.md": "---\nname: small\ndescription: short\n---\n",
      "skills/big/SKILL.md": `---\nname: big\ndescription: above the cap\n---\n${"x".repeat(5000)}`,
      "skills/fifo/notes.md": "n",
    });
    symlinkSync("../pdf/SKILL.md", path.join(root, "skills", "small", "linked.md"));
    assert.equal(spawnSync("mkfifo", [path.join(root, "skills", "fifo", "SKILL.md")]).status, 0);
  });
  after(() => removeDir(root));

  test("a packed page says what the ordinary page says, at any page size", () => {
    const storage = nodeFsStorage(root, { maxObjectBytes: 4000 });
    for (const limit of [1000, 2]) {
      let cursor;
      let packedCursor;
      do {
        const opts = { limit, files: ["SKILL.md"], prefixBytes: 100 };
        const page = storage.listSkillPrefixes("skills/", cursor === undefined ? opts : { ...opts, cursor });
        const packed = storage.listSkillPrefixes("skills/", packedCursor === undefined ? { ...opts, packed: true } : { ...opts, packed: true, cursor: packedCursor });
        assert.equal(packed.entries, undefined);
        assert.deepEqual(plain(unpack(packed)), plain(page.entries));
        assert.deepEqual(packed.warnings, page.warnings);
        assert.equal(packed.cursor === undefined, page.cursor === undefined);
        cursor = page.cursor;
        packedCursor = packed.cursor;
      } while (cursor !== undefined);
    }
    const all = unpack(storage.listSkillPrefixes("skills/", { files: ["SKILL.md"], prefixBytes: 100, packed: true }));
    const small = all.find((e) => e.key === "skills/small/SKILL.md");
    assert.equal(new TextDecoder().decode(small.head), "---\nname: small\ndescription: short\n---\n");
    assert.match(all.find((e) => e.key === "skills/big/SKILL.md").headError, /above the size cap/);
    assert.throws(() => storage.listSkillPrefixes("skills/", { packed: "yes" }), TypeError);
  });
});

/** A store of one page, whose listSkillPrefixes answers `packed` (made from the files). */
function packedStore(files, packed) {
  return {
    list: async () => ({ entries: Object.keys(files).sort().map((key) => ({ key, size: files[key].length, etag: "e" })) }),
    read: async (key) => (key in files ? enc.encode(files[key]) : null),
    listSkillPrefixes: (prefix, opts) => (opts.packed === true ? packed : { entries: [] }),
  };
}

async function discoverWith(storage) {
  const reg = await SkillRegistry.discover({ scopes: [{ name: "p", storage, roots: [""], trusted: true }] });
  const out = { names: reg.listMetasAcross().map((m) => m.name), codes: reg.diagnostics().map((d) => d.code), stats: reg.stats() };
  reg.free();
  return out;
}

describe("discovery over packed pages", () => {
  const skill = (name) => `---\nname: ${name}\ndescription: the ${name} skill\n---\nBody\n`;
  const files = { "a/SKILL.md": skill("a"), "b/SKILL.md": skill("b"), "b/notes.md": "n" };
  const heads = enc.encode(files["a/SKILL.md"] + files["b/SKILL.md"]);
  const lines = [
    `a/SKILL.md\t${files["a/SKILL.md"].length}\te\t${files["a/SKILL.md"].length}`,
    `b/SKILL.md\t${files["b/SKILL.md"].length}\te\t${files["b/SKILL.md"].length}`,
    "b/notes.md",
  ].join("\n");

  test("a store's packed page brings every SKILL.md: no read", async () => {
    const got = await discoverWith(packedStore(files, { packed: { lines, heads } }));
    assert.deepEqual(got.names, ["a", "b"]);
    assert.equal(got.stats.readCalls, 0);
  });

  test("a headError line is a failed read of that skill; the others load", async () => {
    const failing = lines.replace(/^a\/SKILL\.md\t(\d+)\te\t\d+/, "a/SKILL.md\t$1\te\t!EACCES");
    const got = await discoverWith(packedStore(files, { packed: { lines: failing, heads: heads.subarray(files["a/SKILL.md"].length) } }));
    assert.deepEqual(got.names, ["b"]);
    assert.ok(got.codes.includes("storage-read-failed"), JSON.stringify(got.codes));
  });

  test("a malformed packed page is a listing that failed, never a throw", async () => {
    for (const packed of [
      { lines: 42, heads },
      { lines, heads: heads.subarray(0, 10) },
      { lines: lines.replace(/\t\d+\nb/, "\tmany\nb"), heads },
      { lines, heads: "not bytes" },
      "packed",
    ]) {
      const got = await discoverWith(packedStore(files, { packed }));
      assert.deepEqual(got.names, [], JSON.stringify(packed).slice(0, 80));
      assert.ok(got.codes.includes("storage-list-failed"), JSON.stringify(got.codes));
    }
  });

  test("a head longer than asked counts as a failed read of that skill, as in an ordinary page", async () => {
    const long = "x".repeat(5000);
    const headed = { ...files, "a/SKILL.md": skill("a") + long };
    const aLen = enc.encode(headed["a/SKILL.md"]).length;
    const bLen = files["b/SKILL.md"].length;
    const packed = {
      lines: `a/SKILL.md\t${aLen}\te\t${aLen}\nb/SKILL.md\t${bLen}\te\t${bLen}\nb/notes.md`,
      heads: enc.encode(headed["a/SKILL.md"] + files["b/SKILL.md"]),
    };
    const got = await discoverWith(packedStore(headed, { packed }));
    assert.deepEqual(got.names, ["b"], "a's head was longer than the 4096 bytes asked for");
    assert.ok(got.codes.includes("storage-read-failed"), JSON.stringify(got.codes));
    assert.equal(got.stats.readCalls, 0);
  });
});
