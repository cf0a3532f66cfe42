// A refresh over nodeFsStorage on a real directory: the store says its heads cost reads
// (`headsCostReads`), so discovery takes each SKILL.md's first bytes with the listing, and a
// refresh asks for none (`files: []`) and tells the unchanged skill files by the size and etag of
// a stat: with nothing changed it reads no file; an edited or added skill is read once, a removed
// one not at all; and the refreshed registry answers as a new discovery of the same directory.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const skill = (name, description = `The ${name} skill.`) => `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`;

/** A nodeFsStorage of `root` whose listSkillPrefixes records the `files` of each call and whose reads are counted. */
function recorded(root) {
  const store = nodeFsStorage(root);
  const calls = { files: [], reads: 0 };
  const { listSkillPrefixes, read } = store;
  store.listSkillPrefixes = (prefix, opts) => {
    calls.files.push(opts.files);
    return listSkillPrefixes(prefix, opts);
  };
  store.read = (key, opts) => {
    calls.reads++;
    return read(key, opts);
  };
  const take = () => {
    const got = { files: calls.files, reads: calls.reads };
    calls.files = [];
    calls.reads = 0;
    return got;
  };
  return { store, take };
}

const options = (storage) => ({ scopes: [{ name: "project", storage, roots: ["skills/"], trusted: true }] });
/** What a user of the registry sees: names, descriptions and locations. */
const seen = (reg) => reg.listMetas().map((m) => [m.name, m.description, m.location]);

describe("refresh over nodeFsStorage", () => {
  let base;
  let root;
  before(() => {
    base = tempDir("refresh-node-fs");
    root = path.join(base, "root");
    writeTree(root, {
      "skills/pdf/SKILL.md": skill("pdf"),
      "skills/pdf/notes.md": "notes",
      "skills/csv/SKILL.md": skill("csv"),
      "skills/group/docx/SKILL.md": skill("docx"),
    });
  });
  after(() => removeDir(base));

  test("the store says its heads cost reads, and lists the files listOnly names with a size and an etag", () => {
    const store = nodeFsStorage(root);
    assert.equal(store.headsCostReads, true);
    assert.equal(nodeFsStorage(root, { listSkillPrefixes: false }).headsCostReads, undefined);
    const opts = { files: [], listOnly: ["SKILL.md"], prefixBytes: 64 };
    const page = store.listSkillPrefixes("skills/", opts);
    const pdf = page.entries.find((e) => e.key === "skills/pdf/SKILL.md");
    assert.equal(pdf.size, skill("pdf").length);
    assert.match(pdf.etag, /^\d+-[\d.]+$/);
    assert.equal(pdf.head, undefined, "no head was asked");
    const packed = store.listSkillPrefixes("skills/", { ...opts, packed: true });
    assert.ok(packed.packed.lines.split("\n").includes(`skills/pdf/SKILL.md\t${pdf.size}\t${pdf.etag}`), packed.packed.lines);
    assert.equal(packed.packed.heads.length, 0);
  });

  test("a headsCostReads that is not true, or whose getter throws, leaves the heads asked", async () => {
    for (const flag of [{ value: "yes" }, { get() { throw new Error("no flag here"); } }]) {
      const { store, take } = recorded(root);
      Object.defineProperty(store, "headsCostReads", { configurable: true, enumerable: true, ...flag });
      const reg = await SkillRegistry.discover(options(store));
      take();
      await reg.refresh();
      const got = take();
      assert.ok(got.files.length > 0 && got.files.every((f) => f.includes("SKILL.md")), JSON.stringify(got.files));
      assert.equal(got.reads, 0, "the heads come with the listing");
      reg.free?.();
    }
  });

  test("nothing changed reads nothing; an edit and an addition are read once each; a removal not at all", async () => {
    const { store, take } = recorded(root);
    const reg = await SkillRegistry.discover(options(store));
    const cold = take();
    assert.ok(cold.files.length > 0 && cold.files.every((f) => f.includes("SKILL.md")), "discovery asks heads");
    assert.equal(cold.reads, 0, "discovery takes the heads with the listing");
    assert.deepEqual(reg.names(), ["csv", "docx", "pdf"]);

    let report = await reg.refresh();
    let got = take();
    assert.ok(got.files.length > 0 && got.files.every((f) => f.length === 0), `a refresh asks no heads: ${JSON.stringify(got.files)}`);
    assert.equal(got.reads, 0, "nothing changed: no file read");
    assert.deepEqual([report.added, report.changed, report.removed].map((l) => l.length), [0, 0, 0]);

    // A new size, so that the etag differs whatever the clock's resolution.
    writeFileSync(path.join(root, "skills/csv/SKILL.md"), skill("csv", "Reads and writes CSV files, edited."));
    writeTree(root, { "skills/xlsx/SKILL.md": skill("xlsx") });
    report = await reg.refresh();
    got = take();
    assert.equal(got.reads, 2, "the edited and the added SKILL.md");
    assert.deepEqual(report.changed.map((s) => s.name), ["csv"]);
    assert.deepEqual(report.added.map((s) => s.name), ["xlsx"]);

    rmSync(path.join(root, "skills/pdf"), { recursive: true });
    report = await reg.refresh();
    assert.equal(take().reads, 0, "a removal reads nothing");
    assert.deepEqual(report.removed.map((s) => s.name), ["pdf"]);

    const fresh = await SkillRegistry.discover(options(nodeFsStorage(root)));
    assert.deepEqual(seen(reg), seen(fresh), "the refreshed registry answers as a new discovery");
    fresh.free?.();
    reg.free?.();
  });
});
