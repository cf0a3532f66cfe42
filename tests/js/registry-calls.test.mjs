// Store calls of discovery and refresh over thousands of keys, through the package's adapters:
// IndexedDB (fake-indexeddb, every transaction counted) and the memory store. Cold discovery makes
// ceil(keys / 1000) list calls and one prefix read per SKILL.md, `concurrency` of them in flight
// at once; a refresh with nothing changed lists again and reads nothing (both stores keep a
// version, so that listing is one call, answered unchanged); one changed SKILL.md costs one read. (R2 is counted the same way in registry-r2.test.mjs, through workerd.)
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import FDBDatabase from "fake-indexeddb/lib/FDBDatabase";
import { importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const { SkillRegistry, memoryStorage, indexedDbStorage, putSkillFiles } = pkg;

const SKILLS = 2400;
const ROOT = ".agents/skills/";
const PAGE = 1000;
const CONCURRENCY = 8;

const skillMd = (i, edit = "") =>
  `---\nname: skill-${i}\ndescription: Synthetic skill ${i}, for counting store calls.${edit}\n` +
  `allowed-tools: Read\nmetadata:\n  n: "${i}"\n---\n# Skill ${i}\n`;

/** SKILL.md and one reference per skill; every tenth skill nested in the one before it. */
function files() {
  const out = {};
  for (let i = 0; i < SKILLS; i++) {
    const dir = i % 10 === 9 ? `${ROOT}s${i - 1}/nested/s${i}` : `${ROOT}s${i}`;
    out[`${dir}/SKILL.md`] = skillMd(i);
    out[`${dir}/references/notes.md`] = `notes ${i}`;
  }
  return out;
}

// Every IndexedDB transaction opened, on any fake-indexeddb database.
let transactions = 0;
const realTransaction = FDBDatabase.prototype.transaction;
FDBDatabase.prototype.transaction = function countedTransaction(...args) {
  transactions++;
  return realTransaction.apply(this, args);
};

/** The store as the registry sees it, with its calls counted and its reads in flight tracked. */
function counted(storage) {
  const c = { list: 0, read: 0, inFlight: 0, maxInFlight: 0 };
  const store = {
    location: storage.location,
    async list(prefix, opts) {
      c.list++;
      return storage.list(prefix, opts);
    },
    async read(key, opts) {
      c.read++;
      c.inFlight++;
      c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
      try {
        return await storage.read(key, opts);
      } finally {
        c.inFlight--;
      }
    },
  };
  return { store, c };
}

const adapters = {
  "indexedDbStorage (fake-indexeddb)": async (all) => {
    const storage = indexedDbStorage({ dbName: "calls", indexedDB: new IDBFactory(), IDBKeyRange });
    await putSkillFiles(storage, all);
    return {
      storage,
      edit: (key, text) => storage.put(key, text),
      transactions: () => transactions,
      close: () => storage.close(),
    };
  },
  memoryStorage: async (all) => {
    const storage = memoryStorage(all);
    return { storage, edit: async (key, text) => storage.put(key, text), transactions: null, close: () => {} };
  },
};

for (const [label, make] of Object.entries(adapters)) {
  describe(`store calls at ${SKILLS} skills: ${label}`, () => {
    test("cold discovery, refresh with nothing changed, refresh with one SKILL.md changed", async () => {
      const all = files();
      const keys = Object.keys(all).length;
      const a = await make(all);
      try {
        const { store, c } = counted(a.storage);
        const options = { scopes: [{ name: "user", storage: store }], maxDirectories: 100_000 };
        const tx0 = a.transactions?.();
        const reg = await SkillRegistry.discover(options);
        assert.equal(reg.listMetas().length, SKILLS);
        assert.equal(c.list, Math.ceil(keys / PAGE), `${keys} keys: one list call per ${PAGE}`);
        assert.equal(c.read, SKILLS, "one read per SKILL.md");
        assert.equal(c.maxInFlight, CONCURRENCY, "the reads are issued concurrently, `concurrency` at a time");
        assert.deepEqual(reg.stats().listCalls, c.list);
        assert.deepEqual(reg.stats().readCalls, c.read);
        if (a.transactions) assert.equal(a.transactions() - tx0, c.list + c.read, "one transaction per list page and per read");
        const nested = reg.diagnostics().filter((d) => d.code === "skill-nested");
        assert.equal(nested.length, SKILLS / 10);

        // Nothing changed: one listing (one call, for a store still at the version its pages
        // gave), no read, no other transaction.
        const before = { ...c, tx: a.transactions?.() };
        const report = await reg.refresh();
        assert.deepEqual(report, { added: [], changed: [], removed: [] });
        assert.equal(c.list - before.list, 1, "one call, answered unchanged");
        assert.equal(c.read - before.read, 0, "no read");
        if (a.transactions) assert.equal(a.transactions() - before.tx, c.list - before.list, "list transactions only");
        assert.equal(reg.diagnostics().filter((d) => d.code === "skill-nested").length, SKILLS / 10, "no mark repeated");

        // One SKILL.md changed: one listing and one read.
        const key = `${ROOT}s1234/SKILL.md`;
        await a.edit(key, skillMd(1234, " Edited."));
        const mid = { ...c };
        const one = await reg.refresh();
        assert.deepEqual(one.changed.map((r) => r.location), [key]);
        assert.deepEqual([one.added.length, one.removed.length], [0, 0]);
        assert.equal(c.list - mid.list, Math.ceil(keys / PAGE));
        assert.equal(c.read - mid.read, 1, "the changed file only");
        assert.match(reg.get("skill-1234").description, /Edited\.$/);
      } finally {
        a.close();
      }
    });
  });
}
