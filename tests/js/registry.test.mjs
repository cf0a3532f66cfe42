// The SkillRegistry through the built package, over real stores: memory, a real directory tree
// (nodeFsStorage), and stores that fail in every way a JS store can.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importPkg, SHARED } from "./helpers.mjs";

const { SkillRegistry, memoryStorage, nodeFsStorage } = await importPkg();

const md = (name, description, body = `# ${name}\n\nSteps.\n`) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

/** Wraps a store, counting calls and the most reads in flight at once. */
function counted(store, delayMs = 0) {
  const c = { lists: 0, reads: 0, inFlight: 0, maxInFlight: 0, maxBytes: [] };
  return {
    c,
    async list(prefix, opts) {
      c.lists++;
      return store.list(prefix, opts);
    },
    async read(key, opts) {
      c.reads++;
      c.maxBytes.push(opts?.maxBytes);
      c.inFlight++;
      c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
      try {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        return await store.read(key, opts);
      } finally {
        c.inFlight--;
      }
    },
  };
}

test("scopes in precedence order, shadowing reported with both locations", async () => {
  const project = memoryStorage({ ".agents/skills/pdf/SKILL.md": md("pdf", "Project PDF") });
  const user = memoryStorage({
    ".agents/skills/pdf/SKILL.md": md("pdf", "User PDF"),
    ".myagent/skills/csv/SKILL.md": md("csv", "CSV from the client root"),
  });
  const reg = await SkillRegistry.discover({ project, user, trustProject: true, client: "myagent" });
  // The user's pdf is offered too, under its qualified name (docs/guides/naming.md).
  assert.deepEqual(reg.names(), ["csv", "pdf", "user:pdf"]);
  assert.equal(reg.get("user:pdf").description, "User PDF");
  assert.equal(reg.get("pdf").description, "Project PDF");
  assert.equal(reg.get("pdf").scope, "project");
  assert.equal(reg.get("nope"), null);
  const across = reg.listMetasAcross();
  assert.equal(across.length, 3);
  assert.equal(across.find((m) => m.scope === "user" && m.name === "pdf").shadowedBy, "project:.agents/skills/pdf/SKILL.md");
  const shadow = reg.diagnostics().find((d) => d.code === "skill-shadowed");
  assert.match(shadow.message, /user:\.agents\/skills\/pdf\/SKILL\.md.*project:\.agents\/skills\/pdf\/SKILL\.md/);
  // A scope's own listing has its shadowed skills too, flagged.
  assert.deepEqual(reg.listMetas("user").map((m) => [m.name, m.shadowedBy ?? null]), [["csv", null], ["pdf", "project:.agents/skills/pdf/SKILL.md"]]);
});

test("an untrusted project is listed, never read, and reported with its count", async () => {
  const project = counted(memoryStorage({ ".agents/skills/a/SKILL.md": md("a", "A"), ".agents/skills/b/SKILL.md": md("b", "B") }));
  const user = memoryStorage({ ".agents/skills/u/SKILL.md": md("u", "U") });
  const reg = await SkillRegistry.discover({ project, user });
  assert.deepEqual(reg.names(), ["u"]);
  assert.equal(project.c.reads, 0);
  assert.match(reg.diagnostics().find((d) => d.code === "scope-untrusted").message, /holds 2 skill/);
});

test("prefix reads, bounded concurrency, one list call per page", async () => {
  const files = {};
  for (let i = 0; i < 40; i++) files[`.agents/skills/s${String(i).padStart(2, "0")}/SKILL.md`] = md(`s${String(i).padStart(2, "0")}`, "Skill", "x\n".repeat(5000));
  const long = `---\nname: long\ndescription: ${"d".repeat(5000)}\n---\nbody\n`;
  files[".agents/skills/long/SKILL.md"] = long;
  const store = counted(memoryStorage(files), 5);
  const reg = await SkillRegistry.discover({ scopes: [{ name: "user", storage: store }], concurrency: 3, pageSize: 10 });
  assert.equal(reg.names().length, 41);
  assert.equal(store.c.lists, Math.ceil(41 / 10));
  assert.equal(store.c.reads, 42, "one prefix read each, one full read for the long frontmatter");
  assert.equal(store.c.maxBytes.filter((m) => m === 4096).length, 41);
  assert.ok(store.c.maxInFlight <= 3 && store.c.maxInFlight >= 2, `max in flight ${store.c.maxInFlight}`);
  assert.equal(reg.stats().readCalls, 42);
  assert.ok(reg.stats().bytesRead < 41 * 4096 + long.length + 1);
});

test("stores that throw, reject, answer with the wrong type or never answer cost only what they touch", async () => {
  const good = memoryStorage({
    ".agents/skills/ok/SKILL.md": md("ok", "Fine"),
    ".agents/skills/throws/SKILL.md": md("throws", "T"),
    ".agents/skills/rejects/SKILL.md": md("rejects", "R"),
    ".agents/skills/number/SKILL.md": md("number", "N"),
    ".agents/skills/hangs/SKILL.md": md("hangs", "H"),
  });
  const faulty = {
    list: (p, o) => good.list(p, o),
    read(key, opts) {
      if (key.includes("/throws/")) throw new Error("disk on fire");
      if (key.includes("/rejects/")) return Promise.reject(new Error("access denied"));
      if (key.includes("/number/")) return Promise.resolve(42);
      if (key.includes("/hangs/")) return new Promise(() => {});
      return good.read(key, opts);
    },
  };
  const listBroken = { list: () => Promise.reject(new Error("bucket gone")), read: async () => null };
  const listWrong = { list: async () => "not a page", read: async () => null };
  const t0 = performance.now();
  const reg = await SkillRegistry.discover({
    scopes: [
      { name: "project", storage: faulty, trusted: true },
      { name: "org", storage: listBroken },
      { name: "builtin", storage: listWrong },
    ],
    timeoutMs: 300,
  });
  assert.ok(performance.now() - t0 < 3000);
  assert.deepEqual(reg.names(), ["ok"]);
  const byPath = Object.fromEntries(reg.diagnostics().filter((d) => d.path).map((d) => [d.path, d]));
  assert.match(byPath["project:.agents/skills/throws/SKILL.md"].message, /threw: disk on fire/);
  assert.match(byPath["project:.agents/skills/rejects/SKILL.md"].message, /rejected: access denied/);
  assert.match(byPath["project:.agents/skills/number/SKILL.md"].message, /a number instead of bytes/);
  assert.match(byPath["project:.agents/skills/hangs/SKILL.md"].message, /did not answer within 300 ms/);
  assert.match(byPath["org:.agents/skills/"].message, /rejected: bucket gone/);
  assert.match(byPath["builtin:.agents/skills/"].message, /instead of \{ entries/);
  // The registry keeps answering.
  assert.equal((await reg.readFile("ok")).text, "# ok\n\nSteps.");
  const again = await reg.refresh();
  assert.deepEqual(again, { added: [], changed: [], removed: [] });
});

test("readFile: body, resources, binary, refusals before any store call", async () => {
  const store = counted(memoryStorage({
    ".agents/skills/pdf/SKILL.md": md("pdf", "PDF"),
    ".agents/skills/pdf/references/forms.md": "# Forms\n",
    ".agents/skills/pdf/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]),
    ".agents/skills/secret.txt": "no",
  }));
  const reg = await SkillRegistry.discover({ user: store });
  assert.deepEqual(await reg.readFile("pdf"), { name: "pdf", path: "SKILL.md", text: "# pdf\n\nSteps.", size: md("pdf", "PDF").length });
  assert.equal((await reg.readFile("pdf", "references/forms.md")).text, "# Forms\n");
  const png = await reg.readFile("pdf", "logo.png");
  assert.ok(png.bytes instanceof Uint8Array && png.bytes.length === 6 && png.text === undefined);
  const reads = store.c.reads;
  for (const bad of ["../secret.txt", "/etc/passwd", "references/../../secret.txt", "..\\secret.txt", "%2e%2e/secret.txt"]) {
    const r = await reg.readFile("pdf", bad);
    assert.equal(r.error?.code, "path-invalid", bad);
  }
  assert.equal(store.c.reads, reads, "refused before the store was touched");
  assert.equal((await reg.readFile("pdf", "nope.md")).error.code, "file-not-found");
  const unknown = await reg.readFile("nope");
  assert.equal(unknown.error.code, "skill-unknown");
  assert.match(unknown.error.message, /pdf/);
});

test("a real directory: refresh sees edits on disk, a snapshot starts cold with zero calls", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-reg-"));
  try {
    const put = (rel, text) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    };
    put(".agents/skills/a/SKILL.md", md("a", "A"));
    put(".agents/skills/b/SKILL.md", md("b", "B"));
    put(".agents/skills/b/scripts/run.sh", "echo hi\n");
    put(".agents/skills/.git/SKILL.md", md("git", "skipped"));
    put(".agents/skills/a/node_modules/x/SKILL.md", md("x", "skipped"));
    const opts = () => ({ user: counted(nodeFsStorage(dir)) });
    const o1 = opts();
    const reg = await SkillRegistry.discover(o1);
    assert.deepEqual(reg.names(), ["a", "b"]);
    assert.equal((await reg.readFile("b", "scripts/run.sh")).text, "echo hi\n");

    const snap = reg.snapshot();
    const o2 = opts();
    const cold = SkillRegistry.fromSnapshot(snap, o2);
    assert.deepEqual([o2.user.c.lists, o2.user.c.reads], [0, 0]);
    assert.deepEqual(cold.listMetas(), reg.listMetas());

    put(".agents/skills/a/SKILL.md", md("a", "A, edited on disk"));
    rmSync(path.join(dir, ".agents/skills/b"), { recursive: true });
    put(".agents/skills/c/SKILL.md", md("c", "C"));
    const report = await cold.refresh();
    assert.deepEqual(report.added.map((r) => r.name), ["c"]);
    assert.deepEqual(report.changed.map((r) => r.name), ["a"]);
    assert.deepEqual(report.removed.map((r) => r.name), ["b"]);
    assert.equal(o2.user.c.reads, 2, "only the edited and the new SKILL.md were read");
    assert.equal(cold.get("a").description, "A, edited on disk");
    assert.throws(() => SkillRegistry.fromSnapshot(snap, { project: nodeFsStorage(dir), trustProject: true }), /snapshot-mismatch/);
    // A snapshot cut short or with a byte changed is an Error naming snapshot-invalid (not a
    // trap); the instance goes on, and the whole snapshot still starts.
    const damaged = snap.slice();
    damaged[damaged.length >> 1] ^= 0x20;
    for (const bad of [snap.subarray(0, snap.length - 1), snap.subarray(0, 40), damaged]) {
      assert.throws(() => SkillRegistry.fromSnapshot(bad, opts()), (e) => e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && /^snapshot-invalid: /.test(e.message));
    }
    assert.deepEqual(SkillRegistry.fromSnapshot(snap, opts()).names(), ["a", "b"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the corpus from disk: every SKILL.md is a skill or a diagnostic", { skip: !existsSync(SHARED) && "no ../shared" }, async () => {
  const store = counted(nodeFsStorage(path.join(SHARED, "corpus")));
  const reg = await SkillRegistry.discover({ scopes: [{ name: "builtin", storage: store, roots: ["skills/"] }], maxDepth: 12, maxDirectories: 100000 });
  const loaded = reg.listMetasAcross().length;
  const refused = new Set(reg.diagnostics().filter((d) => d.severity === "error" && d.path).map((d) => d.path)).size;
  console.log(`corpus from disk: ${loaded} loaded, ${refused} refused, ${reg.names().length} visible names; ${store.c.lists} list calls, ${store.c.reads} reads`);
  assert.ok(loaded >= 760, `${loaded} loaded`);
  assert.equal(store.c.reads, loaded + refused, "one prefix read per SKILL.md (none of the corpus needs a second)");
});

test("bad options throw a TypeError; a bad root too", async () => {
  await assert.rejects(SkillRegistry.discover({}), TypeError);
  await assert.rejects(SkillRegistry.discover({ user: { list() {} } }), /read\(key, opts\)/);
  await assert.rejects(SkillRegistry.discover({ scopes: [{ name: "x", storage: memoryStorage({}), roots: ["../up/"] }] }), /root/);
});
