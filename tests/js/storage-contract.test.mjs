// The storage contract (support/contract.mjs) against every adapter in the built package: memory,
// Node fs (a temp directory), IndexedDB (fake-indexeddb) and R2 (inside workerd, through miniflare).
// The same checks run in real Chromium in storage-indexeddb-chromium.test.mjs.
import { after, before, describe, test } from "node:test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import FDBDatabase from "fake-indexeddb/lib/FDBDatabase";
import { CONTRACT, FIXTURE, fixtureBytes } from "./support/contract.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";
import { startWorker } from "./support/workerd.mjs";
import { importPkg } from "./helpers.mjs";

const pkg = await importPkg();

function contractSuite(name, setup) {
  describe(`storage contract: ${name}`, () => {
    let ctx;
    let teardown;
    before(async () => {
      ({ ctx, teardown } = await setup());
    });
    after(async () => {
      await teardown?.();
    });
    for (const check of CONTRACT) {
      test(check.name, () => check.run(ctx));
    }
  });
}

contractSuite("memoryStorage", async () => {
  const storage = pkg.memoryStorage(FIXTURE);
  return { ctx: { storage } };
});

contractSuite("memoryStorage from a Map", async () => {
  const storage = pkg.memoryStorage(new Map(Object.entries(FIXTURE)));
  return { ctx: { storage } };
});

contractSuite("nodeFsStorage", async () => {
  const dir = tempDir("contract");
  writeTree(dir, Object.fromEntries(Object.keys(FIXTURE).map((k) => [k, fixtureBytes(k)])));
  return { ctx: { storage: pkg.nodeFsStorage(dir) }, teardown: () => removeDir(dir) };
});

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
  return {
    ctx: { storage, touches: async () => idbTransactions },
    teardown: () => storage.close(),
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
      touches: async () => {
        const c = await worker.counts();
        return c.list + c.get + c.head;
      },
    },
    teardown: () => worker.dispose(),
  };
});
