// The storage contract (support/contract.mjs) against every adapter in the built package: memory,
// Node fs (a temp directory), IndexedDB (fake-indexeddb) and R2 (inside workerd, through miniflare).
// The same checks run in real Chromium in storage-indexeddb-chromium.test.mjs.
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import FDBDatabase from "fake-indexeddb/lib/FDBDatabase";
import { CONTRACT, FIXTURE, PREFIX_CONTRACT, fixtureBytes } from "./support/contract.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";
import { startWorker } from "./support/workerd.mjs";
import { importPkg } from "./helpers.mjs";

const pkg = await importPkg();

function contractSuite(name, setup, checks = CONTRACT) {
  describe(`storage contract: ${name}`, () => {
    let ctx;
    let teardown;
    before(async () => {
      ({ ctx, teardown } = await setup());
    });
    after(async () => {
      await teardown?.();
    });
    for (const check of checks) {
      test(check.name, () => check.run(ctx));
    }
  });
}

contractSuite("memoryStorage", async () => {
  const storage = pkg.memoryStorage(FIXTURE);
  return {
    ctx: {
      storage,
      capped: async (maxObjectBytes) => pkg.memoryStorage(FIXTURE, { maxObjectBytes }),
      empty: async () => pkg.memoryStorage(),
    },
  };
});

contractSuite("memoryStorage from a Map", async () => {
  const files = new Map(Object.entries(FIXTURE));
  const storage = pkg.memoryStorage(files);
  return {
    ctx: {
      storage,
      capped: async (maxObjectBytes) => pkg.memoryStorage(files, { maxObjectBytes }),
      empty: async () => pkg.memoryStorage(new Map()),
    },
  };
});

const nodeFsSetup = async () => {
  const dir = tempDir("contract");
  writeTree(dir, Object.fromEntries(Object.keys(FIXTURE).map((k) => [k, fixtureBytes(k)])));
  return {
    ctx: {
      storage: pkg.nodeFsStorage(dir),
      capped: async (maxObjectBytes) => pkg.nodeFsStorage(dir, { maxObjectBytes }),
      empty: async () => pkg.nodeFsStorage(path.join(dir, "no-such-directory")),
    },
    teardown: () => removeDir(dir),
  };
};
contractSuite("nodeFsStorage", nodeFsSetup);
// The optional batched listing (listSkillPrefixes) of the adapter that offers it.
contractSuite("nodeFsStorage listSkillPrefixes", nodeFsSetup, PREFIX_CONTRACT);

// Every IndexedDB transaction the adapter opens, on any fake-indexeddb database.
let idbTransactions = 0;
const realTransaction = FDBDatabase.prototype.transaction;
FDBDatabase.prototype.transaction = function countedTransaction(...args) {
  idbTransactions++;
  return realTransaction.apply(this, args);
};

contractSuite("indexedDbStorage (fake-indexeddb)", async () => {
  const indexedDB = new IDBFactory();
  const storage = pkg.indexedDbStorage({ dbName: "contract", storeName: "files", indexedDB, IDBKeyRange });
  await pkg.putSkillFiles(storage, FIXTURE);
  const others = [];
  const another = (options) => {
    const s = pkg.indexedDbStorage({ storeName: "files", indexedDB, IDBKeyRange, ...options });
    others.push(s);
    return s;
  };
  return {
    ctx: {
      storage,
      touches: async () => idbTransactions,
      capped: async (maxObjectBytes) => another({ dbName: "contract", maxObjectBytes }),
      empty: async () => another({ dbName: "contract-never-filled" }),
      wholeValueReads: true,
    },
    teardown: () => {
      storage.close();
      for (const s of others) s.close();
    },
  };
});

contractSuite("r2Storage (workerd, real R2 binding)", async () => {
  const worker = await startWorker();
  // Under a root prefix inside the bucket, with decoys beside it that must never show up.
  for (const key of Object.keys(FIXTURE)) await worker.bucket.put(`fixture/${key}`, fixtureBytes(key));
  await worker.bucket.put("fixturez/a/x", "decoy");
  await worker.bucket.put("fixture", "decoy");
  await worker.bucket.put("a/x", "decoy");
  return {
    ctx: {
      storage: worker.storage("fixture/"),
      capped: async (maxObjectBytes) => worker.storage("fixture/", { maxObjectBytes }),
      empty: async () => worker.storage("nothing-here/"),
      touches: async () => {
        const c = await worker.counts();
        return c.list + c.get + c.head;
      },
    },
    teardown: () => worker.dispose(),
  };
});
