// A refresh over a store whose pages cross as lines: a root whose pages are as they were is not
// read at all, and whatever differs (an etag, a key, a page that comes with a warning, a listing
// that fails) is read as a discovery would read it. Every refresh must leave the registry
// answering as a new discovery over the same store does. The store here keeps no version (the
// memory store's is taken off its pages), so every refresh lists every page: what a store with a
// version saves is in refresh-version.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { agreesWithDiscovery } from "./support/refresh.mjs";

const { SkillRegistry, memoryStorage } = await importPkg();

const md = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const key = (dir) => `.agents/skills/${dir}/SKILL.md`;

/** A memory store in small pages, whose listing can carry a warning or fail on demand. */
function store() {
  const inner = memoryStorage();
  for (let i = 0; i < 30; i++) inner.put(key(`s${String(i).padStart(2, "0")}`), md(`s${i}`, `Skill ${i}.`));
  const s = {
    inner,
    warn: false,
    fail: false,
    reads: 0,
    lists: 0,
    location: inner.location,
    async list(prefix, opts) {
      s.lists++;
      if (s.fail) throw new Error("bucket unavailable");
      const { unlessVersion, ...rest } = opts ?? {};
      assert.equal(unlessVersion, undefined, "a store that gave no version is asked with none");
      const page = await inner.list(prefix, { ...rest, limit: 7 });
      delete page.version;
      if (s.warn && opts?.cursor !== undefined) page.warnings = [{ key: prefix, message: "a directory could not be read" }];
      return page;
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

test("a refresh reads nothing of a listing that is as it was, and everything of one that is not", async () => {
  const s = store();
  const reg = await SkillRegistry.discover({ user: s });
  assert.equal(reg.names().length, 30);
  const reads = s.reads;

  // Nothing changed: the pages are listed, no file is read, nothing is reported.
  let report = await reg.refresh();
  assert.deepEqual([report.added, report.changed, report.removed], [[], [], []]);
  assert.equal(s.reads, reads);
  assert.equal(s.lists, 10);
  await agrees(reg, s);

  // One file edited: its etag differs, so its page does; only that file is read.
  s.inner.put(key("s17"), md("s17", "Edited."));
  report = await reg.refresh();
  assert.deepEqual(report.changed.map((r) => r.name), ["s17"]);
  assert.equal(s.reads, reads + 1);
  assert.equal(reg.get("s17").description, "Edited.");
  await agrees(reg, s);

  // Pages that come with a warning are read as a page of another shape: the warning is reported,
  // the skills stand.
  s.warn = true;
  report = await reg.refresh();
  assert.deepEqual([report.added, report.changed, report.removed], [[], [], []]);
  assert.ok(reg.diagnostics().some((d) => d.code === "storage-skipped" && /could not be read/.test(d.message)));
  assert.equal(reg.names().length, 30);
  // And when the warning is gone, so is its diagnostic, though the pages are as two refreshes ago.
  s.warn = false;
  await reg.refresh();
  assert.ok(!reg.diagnostics().some((d) => d.code === "storage-skipped"));
  await reg.refresh();
  assert.ok(!reg.diagnostics().some((d) => d.code === "storage-skipped"));
  await agrees(reg, s);

  // A listing that fails keeps the skills, and says so; the next one that succeeds finds the store.
  s.fail = true;
  await reg.refresh();
  assert.equal(reg.names().length, 30);
  assert.ok(reg.diagnostics().some((d) => d.code === "storage-list-failed"));
  s.fail = false;
  s.inner.delete(key("s03"));
  s.inner.put(key("zz"), md("zz", "Added while the store was down."));
  report = await reg.refresh();
  assert.deepEqual(report.added.map((r) => r.name), ["zz"]);
  assert.deepEqual(report.removed.map((r) => r.name), ["s3"]);
  assert.equal(reg.stats().readCalls, reads + 2);
  await agrees(reg, s);
  // As it was again: nothing read.
  await reg.refresh();
  assert.equal(reg.stats().readCalls, reads + 2);
  await agrees(reg, s);
});
