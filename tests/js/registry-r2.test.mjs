// SkillRegistry inside workerd (miniflare, a real R2 binding, the package's workerd entry) over
// every file of ../shared/corpus/skills: R2 calls counted per list page and per SKILL.md, file
// reads, a snapshot kept in R2 that starts a second request with one get, refresh after an edit in
// R2, and a bucket that throws or never answers for some keys.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SHARED, importPkg } from "./helpers.mjs";
import { CORPUS_SKILLS, corpusFiles, expectedDiscovery, skillWithReference, uploadCorpus } from "./support/corpus.mjs";
import { startWorker } from "./support/workerd.mjs";

const { parseSkill, SkillRegistry, nodeFsStorage } = await importPkg();

const ROOT = "corpus/"; // the store's root inside the bucket
const KEY_PREFIX = `${ROOT}skills/`; // where the corpus files go
const SNAPSHOT_KEY = "snapshots/corpus.bin"; // outside the store's root: never listed
const REQUEST = { root: ROOT, roots: ["skills/"], options: { maxDepth: 12, maxDirectories: 100000 } };
const R2_PAGE = 1000;

const skip = !existsSync(CORPUS_SKILLS) && `no ${path.relative(process.cwd(), CORPUS_SKILLS)}`;

describe("SkillRegistry in workerd over a real R2 binding, on the corpus", { skip }, () => {
  let worker;
  let files;
  let expected;
  /** { skillMd, resource, name }: a visible skill with a references/ file */
  let sample;
  /** the fresh discovery's answer */
  let fresh;

  before(async () => {
    worker = await startWorker({ script: "registry-worker.js" });
    files = corpusFiles();
    expected = expectedDiscovery(files);
    const ms = await uploadCorpus(worker.bucket, files, KEY_PREFIX);
    const bytes = files.reduce((n, f) => n + f.size, 0);
    console.log(`uploaded ${files.length} files (${(bytes / 1e6).toFixed(1)} MB) into R2 in ${(ms / 1000).toFixed(1)} s (32 puts in flight)`);
  });
  after(() => worker?.dispose());

  const post = async (route, body) => {
    const reply = await worker.post(route, body);
    if (reply.error) throw new Error(`${route}: ${reply.error.message}`);
    return reply.ok;
  };

  test("cold discovery: one R2 list per 1000 keys, one ranged get per SKILL.md, every SKILL.md loaded or refused", async () => {
    const t0 = performance.now();
    fresh = await post("/discover", { ...REQUEST, snapshotKey: SNAPSHOT_KEY, keep: "fresh", metas: true });
    const nodeMs = performance.now() - t0;
    const { r2, stats, ms } = fresh;
    console.log(
      `cold discovery in workerd: ${fresh.across} loaded, ${fresh.refused} refused, ${fresh.names} visible names; ` +
        `R2 ${r2.list} list, ${r2.get} get, ${r2.head} head; ${stats.bytesRead} bytes read; ` +
        `Worker Date.now ${ms.date} ms, performance.now ${ms.perf?.toFixed(1)} ms; request seen from Node ${nodeMs.toFixed(0)} ms`,
    );
    assert.ok(expected.visible.length > 700, `${expected.visible.length} SKILL.md files in the corpus`);
    assert.equal(r2.list, Math.ceil(files.length / R2_PAGE), `${files.length} keys under ${KEY_PREFIX}`);
    assert.equal(r2.get, expected.visible.length + expected.fullReads.length, "one get per SKILL.md, a second only for long frontmatter");
    assert.equal(r2.head, expected.empty.length, "a head only for empty SKILL.md files");
    assert.equal(fresh.ranges.filter((len) => len === 4096).length, expected.visible.length, "every first read is a 4096-byte range");
    assert.equal(fresh.ranges.filter((len) => len === null).length, expected.fullReads.length);
    assert.equal(fresh.maxGetsInFlight, 8, "the gets are issued concurrently, `concurrency` (8) at a time");
    assert.equal(stats.listCalls, r2.list);
    assert.equal(stats.readCalls, r2.get + r2.head);
    assert.equal(fresh.across + fresh.refused, expected.visible.length, "every visible SKILL.md is a skill or an error");
    assert.ok(fresh.refused < expected.visible.length / 10, `${fresh.refused} refused`);
    assert.equal(fresh.metas.length, fresh.names);
    assert.equal(fresh.locations.length, fresh.across);
    assert.ok(fresh.names <= fresh.across && fresh.names > 0);
    // Every loaded location is one of the files on disk, none under a dot-directory.
    const onDisk = new Set(expected.visible.map((rel) => `skills/${rel}`));
    for (const l of fresh.locations) assert.ok(onDisk.has(l), l);
    for (const p of fresh.refusedPaths) assert.ok(onDisk.has(p.replace(/^builtin:/, "")), p);
    assert.ok(fresh.snapshotBytes > 1000);

    // A skill with a references/ file that no other skill shadows.
    const byLocation = new Map(fresh.metas.map((m) => [m.location, m]));
    const candidates = expected.visible.filter((rel) => byLocation.has(`skills/${rel}`));
    const found = skillWithReference(files, candidates);
    assert.ok(found, "a visible skill with a references/ file");
    sample = { ...found, name: byLocation.get(`skills/${found.skillMd}`).name };
  });

  test("readFile in workerd: the body and a resource, one get each; a traversal is refused with no R2 call", async () => {
    assert.ok(sample, "needs the cold discovery");
    const [body, resource, traversal, missing] = await post("/read", {
      id: "fresh",
      reads: [[sample.name, null], [sample.name, sample.resource.slice(path.posix.dirname(sample.skillMd).length + 1)], [sample.name, "../../x"], [sample.name, "references/no-such-file.md"]],
    });
    const disk = readFileSync(path.join(CORPUS_SKILLS, sample.skillMd));
    assert.equal(body.error, null);
    assert.equal(body.path, "SKILL.md");
    assert.equal(body.text, parseSkill(disk).skill.body, "the body, frontmatter stripped");
    assert.ok(!body.text.startsWith("---"));
    assert.equal(body.size, disk.length);
    assert.deepEqual(body.r2, { list: 0, get: 1, head: 0 });

    assert.equal(resource.error, null);
    assert.equal(resource.text, readFileSync(path.join(CORPUS_SKILLS, sample.resource), "utf8"));
    assert.deepEqual(resource.r2, { list: 0, get: 1, head: 0 });

    assert.equal(traversal.error?.code, "path-invalid");
    assert.deepEqual(traversal.r2, { list: 0, get: 0, head: 0 }, "refused before R2 was asked");

    assert.equal(missing.error?.code, "file-not-found");
    assert.deepEqual(missing.r2, { list: 0, get: 1, head: 0 });
  });

  test("a snapshot kept in R2 starts a second request with exactly one R2 get and the same metas", async () => {
    assert.ok(fresh, "needs the cold discovery");
    const t0 = performance.now();
    const cold = await post("/from-snapshot", { ...REQUEST, snapshotKey: SNAPSHOT_KEY, keep: "snap", metas: true });
    const nodeMs = performance.now() - t0;
    console.log(
      `snapshot start in workerd: ${cold.snapshotBytes} bytes; R2 ${cold.r2.list} list, ${cold.r2.get} get; ` +
        `Worker Date.now ${cold.ms.date} ms, performance.now ${cold.ms.perf?.toFixed(1)} ms; request seen from Node ${nodeMs.toFixed(0)} ms`,
    );
    assert.deepEqual(cold.r2, { list: 0, get: 1, head: 0 }, "the snapshot get and nothing else before listMetas answered");
    assert.deepEqual(cold.stats, { listCalls: 0, readCalls: 0, bytesRead: 0 });
    assert.equal(cold.snapshotBytes, fresh.snapshotBytes);
    assert.deepEqual(cold.metas, fresh.metas);
    assert.deepEqual(cold.locations, fresh.locations);
    assert.equal(cold.names, fresh.names);
    assert.deepEqual(cold.refusedPaths, fresh.refusedPaths);
  });

  test("a registry started from the snapshot searches with the index it carries, as Node does, with no R2 call", async () => {
    const queries = ["fill in pdf forms", "spreadsheet formulas in excel", "test a web app in the browser", "阿里云百炼的模型价格", "pdf"];
    const { found, r2 } = await post("/search", { id: "snap", queries, limit: 5 });
    assert.deepEqual(r2, { list: 0, get: 0, head: 0 }, "search reads nothing");
    const local = await SkillRegistry.discover({ scopes: [{ name: "builtin", storage: nodeFsStorage(path.join(SHARED, "corpus")), roots: ["skills/"] }], ...REQUEST.options });
    assert.deepEqual(found, queries.map((q) => local.search(q, { limit: 5 }).map((h) => h.name)));
    assert.ok(found.every((names) => names.length > 0), JSON.stringify(found));
    assert.equal(found[3][0], "bailian-docs-llm-wiki");
    local.free();
  });
  test("refresh after one SKILL.md changes in R2 reports it and re-reads only it", async () => {
    assert.ok(sample, "needs the cold discovery");
    const key = KEY_PREFIX + sample.skillMd;
    const original = readFileSync(path.join(CORPUS_SKILLS, sample.skillMd));
    await worker.bucket.put(key, new Uint8Array(Buffer.concat([original, Buffer.from("\n\nEdited in R2.\n")])));
    try {
      const r = await post("/refresh", { id: "snap" });
      assert.deepEqual(r.report.changed.map((c) => c.name), [sample.name]);
      assert.deepEqual(r.report.added, []);
      assert.deepEqual(r.report.removed, []);
      assert.deepEqual(r.r2, { list: Math.ceil(files.length / R2_PAGE), get: 1, head: 0 }, "a full re-list and one get");
      assert.equal(r.across, fresh.across);
      const [body] = await post("/read", { id: "snap", reads: [[sample.name, null]] });
      assert.match(body.text, /Edited in R2\.$/);
      // A second refresh finds nothing new and reads nothing.
      const again = await post("/refresh", { id: "snap" });
      assert.deepEqual(again.report, { added: [], changed: [], removed: [] });
      assert.deepEqual(again.r2, { list: Math.ceil(files.length / R2_PAGE), get: 0, head: 0 }, "one listing, no get");
    } finally {
      await worker.bucket.put(key, new Uint8Array(original));
    }
  });

  test("a bucket whose get throws for one key and never answers for another: those two get diagnostics, the rest load", async () => {
    assert.ok(fresh, "needs the cold discovery");
    const sub = "skills/Jeffallan__claude-skills/";
    const inSub = fresh.locations.filter((l) => l.startsWith(sub));
    assert.ok(inSub.length >= 10, `${inSub.length} skills under ${sub}`);
    const [throwKey, hangKey] = [inSub[1], inSub[inSub.length - 2]];
    const t0 = performance.now();
    const r = await post("/faulty", { ...REQUEST, roots: [sub], options: { ...REQUEST.options, timeoutMs: 500 }, throwKey, hangKey });
    const nodeMs = performance.now() - t0;
    console.log(`fault injection: ${r.across} loaded, errors at ${Object.keys(r.errors).length} paths; R2 ${r.r2.list} list, ${r.r2.get} get, ${r.r2.head} head; ${nodeMs.toFixed(0)} ms`);
    assert.deepEqual(r.locations, inSub.filter((l) => l !== throwKey && l !== hangKey));
    assert.deepEqual(Object.keys(r.errors).sort(), [`builtin:${throwKey}`, `builtin:${hangKey}`].sort());
    assert.equal(r.errors[`builtin:${throwKey}`][0].code, "storage-read-failed");
    assert.match(r.errors[`builtin:${throwKey}`][0].message, /injected failure/);
    assert.equal(r.errors[`builtin:${hangKey}`][0].code, "storage-read-failed");
    assert.match(r.errors[`builtin:${hangKey}`][0].message, /did not answer within 500 ms/);
    assert.equal(r.refused, 2);
    assert.ok(r.afterwards?.ok, "the registry still reads files");
    assert.ok(nodeMs < 10_000, `${nodeMs} ms`);
  });
});
