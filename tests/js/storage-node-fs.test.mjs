// nodeFsStorage on real temporary directories: nesting, symbolic links (to a file, to a directory,
// loops, links leaving the root, dangling), special files (FIFOs, sockets, devices), the size cap
// (sparse 3 GiB files, procfs files longer than their size), unreadable files and directories,
// prefix-only reads, a root that does not exist, a directory swapped for a link while reading,
// and 2,000+ directories listed completely across pages.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";
import { listAll } from "./support/contract.mjs";
import { removeDir, tempDir, writeTree } from "./support/fixtures.mjs";

const { nodeFsStorage } = await importPkg();
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const dec = new TextDecoder();

function keys(entries) {
  return entries.map((e) => e.key);
}

function warningFor(warnings, key) {
  return (warnings ?? []).find((w) => w.key === key);
}

describe("nodeFsStorage: links and special files", () => {
  let base;
  let root;
  let outside;
  let storage;
  before(() => {
    base = tempDir("fs");
    root = path.join(base, "root");
    outside = path.join(base, "outside");
    writeTree(root, {
      "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDF tools\n---\nBody\n",
      "skills/pdf/scripts/run.py": "print(1)\n",
      "skills/deep/a/b/c/d/SKILL.md": "---\nname: d\ndescription: deep\n---\n",
      "top.md": "top",
    });
    writeTree(outside, { "secret.txt": "do not read", "sub/SKILL.md": "outside skill" });
    const s = path.join(root, "skills");
    symlinkSync("pdf/SKILL.md", path.join(s, "link-file.md")); // file inside: followed
    symlinkSync("pdf", path.join(s, "link-dir")); // directory inside: followed
    symlinkSync("..", path.join(s, "pdf", "loop")); // back to an ancestor: a loop
    symlinkSync("self", path.join(s, "self")); // a link to itself: ELOOP
    symlinkSync(outside, path.join(s, "escape-dir")); // absolute, outside
    symlinkSync("../../outside/secret.txt", path.join(s, "escape-file")); // relative, outside
    symlinkSync("nowhere", path.join(s, "dangling"));
    symlinkSync(root, path.join(s, "root-link")); // the root itself: an ancestor, a loop
    const mk = spawnSync("mkfifo", [path.join(s, "fifo")]);
    assert.equal(mk.status, 0, `mkfifo failed: ${mk.stderr}`);
    storage = nodeFsStorage(root);
  });
  after(() => removeDir(base));

  test("lists regular files and followed links, sorted, and warns about the rest", async () => {
    const { pages, entries } = await listAll(storage, "");
    assert.deepEqual(keys(entries), [
      "skills/deep/a/b/c/d/SKILL.md",
      "skills/link-dir/SKILL.md",
      "skills/link-dir/scripts/run.py",
      "skills/link-file.md",
      "skills/pdf/SKILL.md",
      "skills/pdf/scripts/run.py",
      "top.md",
    ]);
    const warnings = pages[0].warnings;
    assert.match(warningFor(warnings, "skills/pdf/loop")?.message ?? "", /loop/);
    assert.match(warningFor(warnings, "skills/link-dir/loop")?.message ?? "", /loop/);
    assert.match(warningFor(warnings, "skills/self")?.message ?? "", /loop/);
    assert.match(warningFor(warnings, "skills/root-link")?.message ?? "", /loop/);
    assert.match(warningFor(warnings, "skills/escape-dir")?.message ?? "", /outside the storage root/);
    assert.match(warningFor(warnings, "skills/escape-file")?.message ?? "", /outside the storage root/);
    assert.match(warningFor(warnings, "skills/dangling")?.message ?? "", /dangling/);
    assert.match(warningFor(warnings, "skills/fifo")?.message ?? "", /not a regular file/);
    assert.equal(warnings.length, 8, JSON.stringify(warnings, null, 1));
    const target = readFileSync(path.join(root, "skills/pdf/SKILL.md"));
    const linked = entries.find((e) => e.key === "skills/link-file.md");
    assert.equal(linked.size, target.length, "a followed file link reports its target's size");
    assert.match(linked.etag, /^\d+-[\d.]+$/);
  });

  test("reads through links inside the root, refuses links leaving it", async () => {
    assert.equal(dec.decode(await storage.read("skills/link-file.md")), readFileSync(path.join(root, "skills/pdf/SKILL.md"), "utf8"));
    assert.equal(dec.decode(await storage.read("skills/link-dir/scripts/run.py")), "print(1)\n");
    await assert.rejects(storage.read("skills/escape-file"), /outside the storage root/);
    await assert.rejects(storage.read("skills/escape-dir/secret.txt"), /outside the storage root/);
    await assert.rejects(storage.read("skills/escape-dir/sub/SKILL.md"), /outside the storage root/);
    assert.equal(await storage.read("skills/dangling"), null);
    assert.equal(await storage.read("skills/pdf"), null, "a directory is not an object");
  });

  test("a FIFO is refused at once instead of blocking the read", async () => {
    await assert.rejects(storage.read("skills/fifo"), /not a regular file/);
    await assert.rejects(storage.read("skills/fifo", { maxBytes: 10 }), /not a regular file/);
  });

  test("a bad key never reaches the disk, even where it would name a real file", async () => {
    await assert.rejects(storage.read("skills/pdf/../../top.md"), TypeError);
    await assert.rejects(storage.read("skills/pdf/%2e%2e/SKILL.md"), TypeError);
    await assert.rejects(storage.list("skills/../"), TypeError);
  });

  test("prefixes follow links inside the root and stop at links leaving it", async () => {
    assert.deepEqual(keys((await listAll(storage, "skills/link-dir/")).entries), [
      "skills/link-dir/SKILL.md",
      "skills/link-dir/scripts/run.py",
    ]);
    const escaped = await storage.list("skills/escape-dir/");
    assert.deepEqual(escaped.entries, []);
    assert.match(escaped.warnings?.[0]?.message ?? "", /outside the storage root/);
    assert.deepEqual((await storage.list("skills/pdf/SKILL.md/")).entries, []);
    assert.deepEqual((await storage.list("missing/")).entries, []);
    assert.deepEqual((await nodeFsStorage(path.join(base, "no-such-root")).list("")).entries, []);
    assert.equal(await nodeFsStorage(path.join(base, "no-such-root")).read("x"), null);
  });

  test("a listing keeps its walk between pages; a fresh listing sees changes; etags change", async () => {
    const first = await storage.list("", { limit: 3 });
    assert.equal(first.entries.length, 3);
    writeFileSync(path.join(root, "zz-added-later.md"), "late");
    const rest = await listAll(storage, "", { limit: 3 });
    assert.ok(keys(rest.entries).includes("zz-added-later.md"), "a fresh listing walks again");
    // Continue the first listing: served from its walk, so the new file is not in it.
    let cursor = first.cursor;
    const continued = [...first.entries];
    while (cursor !== undefined) {
      const page = await storage.list("", { limit: 3, cursor });
      continued.push(...page.entries);
      cursor = page.cursor;
    }
    assert.ok(!keys(continued).includes("zz-added-later.md"), "pages of one listing come from one walk");
    assert.equal(continued.length, 7);

    const before = (await listAll(storage, "")).entries.find((e) => e.key === "top.md");
    appendFileSync(path.join(root, "top.md"), " and more");
    const afterChange = (await listAll(storage, "")).entries.find((e) => e.key === "top.md");
    assert.notEqual(afterChange.etag, before.etag);
    assert.equal(afterChange.size, "top and more".length);
  });

  test("a cursor whose walk is gone resumes after its last key", async () => {
    const first = await storage.list("skills/", { limit: 2 });
    const other = nodeFsStorage(root); // knows nothing of the first walk
    const rest = await other.list("skills/", { limit: 100, cursor: first.cursor });
    const all = await listAll(storage, "skills/");
    assert.deepEqual([...keys(first.entries), ...keys(rest.entries)], keys(all.entries));
    await assert.rejects(other.list("skills/", { cursor: "garbage" }), TypeError);
    await assert.rejects(other.list("top/", { cursor: first.cursor }), TypeError, "a cursor of another prefix");
  });
});

describe("nodeFsStorage: prefix-only reads", () => {
  let dir;
  before(() => {
    dir = tempDir("fs-big");
    // 3 GiB, sparse: reading it whole would fail (larger than a Node buffer may be) and take long.
    writeFileSync(path.join(dir, "huge.bin"), "");
    truncateSync(path.join(dir, "huge.bin"), 3 * 1024 ** 3);
    writeFileSync(path.join(dir, "SKILL.md"), "---\nname: x\n---\n");
  });
  after(() => removeDir(dir));

  test("maxBytes reads that many bytes, never the whole file", async () => {
    const storage = nodeFsStorage(dir);
    const start = Date.now();
    const head = await storage.read("huge.bin", { maxBytes: 4096 });
    assert.equal(head.length, 4096);
    assert.ok(head.every((b) => b === 0));
    assert.ok(Date.now() - start < 5_000, "a prefix read of a 3 GiB file is quick");
    const { entries } = await storage.list("");
    assert.equal(entries.find((e) => e.key === "huge.bin").size, 3 * 1024 ** 3);
    assert.equal((await storage.read("SKILL.md", { maxBytes: 3 })).length, 3);
    assert.equal(dec.decode(await storage.read("SKILL.md")), "---\nname: x\n---\n");
  });
});

// Permission checks. chmod 000 does not stop root, so when the tests run as root the checks run in a
// child process as the unprivileged user "nobody" (uid 65534).
const PERMISSION_SCRIPT = `
const { nodeFsStorage } = await import(process.env.PKG_NODE);
const s = nodeFsStorage(process.env.ROOT);
const out = {};
const pages = [];
let cursor;
do { const p = await s.list("", cursor ? { cursor } : {}); pages.push(p); cursor = p.cursor; } while (cursor);
out.keys = pages.flatMap((p) => p.entries.map((e) => e.key));
out.warnings = pages[0].warnings ?? [];
try { await s.read("locked.md"); out.read = "no error"; } catch (e) { out.read = String(e.code ?? e.message); }
out.readable = new TextDecoder().decode(await s.read("open.md"));
console.log(JSON.stringify(out));
`;

describe("nodeFsStorage: unreadable files and directories", () => {
  let dir;
  before(() => {
    dir = tempDir("fs-perm");
    writeTree(dir, { "open.md": "fine", "locked.md": "secret", "closed/SKILL.md": "hidden", "zz/ok.md": "ok" });
    chmodSync(path.join(dir, "locked.md"), 0o000);
    chmodSync(path.join(dir, "closed"), 0o000);
    chmodSync(dir, 0o755); // mkdtemp makes 0700; the unprivileged child must get in
  });
  after(() => {
    chmodSync(path.join(dir, "closed"), 0o755);
    removeDir(dir);
  });

  test("an unreadable file throws on read; an unreadable directory is a warning", async (t) => {
    let out;
    if (!isRoot) {
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", PERMISSION_SCRIPT], {
        env: { ...process.env, PKG_NODE: pathToFileURL(path.join(PKG, "node.js")).href, ROOT: dir },
        encoding: "utf8",
      });
      assert.equal(r.status, 0, r.stderr);
      out = JSON.parse(r.stdout);
    } else {
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", PERMISSION_SCRIPT], {
        env: { PATH: process.env.PATH, PKG_NODE: pathToFileURL(path.join(PKG, "node.js")).href, ROOT: dir },
        encoding: "utf8",
        uid: 65534,
        gid: 65534,
        cwd: "/",
      });
      if (r.status !== 0 && /EACCES|permission denied|Cannot find module|ERR_MODULE_NOT_FOUND/i.test(r.stderr)
          && !r.stderr.includes(dir)) {
        // The package itself is not readable by the unprivileged user (e.g. a private home).
        t.skip(`running as root and user 65534 cannot load the package: ${r.stderr.split("\n")[0]}`);
        return;
      }
      assert.equal(r.status, 0, r.stderr);
      out = JSON.parse(r.stdout);
    }
    assert.deepEqual(out.keys, ["locked.md", "open.md", "zz/ok.md"], "stat works without read permission");
    assert.equal(out.read, "EACCES");
    assert.equal(out.readable, "fine");
    assert.equal(out.warnings.length, 1, JSON.stringify(out.warnings));
    assert.equal(out.warnings[0].key, "closed/");
    assert.match(out.warnings[0].message, /cannot read directory: EACCES/);
  });
});

describe("nodeFsStorage: 2,000+ directories", () => {
  const COUNT = 2_345;
  let dir;
  before(() => {
    dir = tempDir("fs-many");
    for (let i = 0; i < COUNT; i++) {
      const d = path.join(dir, "skills", `skill-${String(i).padStart(5, "0")}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "SKILL.md"), `---\nname: skill-${i}\ndescription: number ${i}\n---\n`);
    }
  });
  after(() => removeDir(dir));

  test("every directory's file is listed, across pages of 1000 and of 7", async () => {
    const storage = nodeFsStorage(dir);
    const big = await listAll(storage, "skills/", { limit: 1000 });
    assert.equal(big.entries.length, COUNT);
    assert.equal(big.pages.length, Math.ceil(COUNT / 1000));
    assert.equal(new Set(keys(big.entries)).size, COUNT);
    assert.equal(big.entries[0].key, "skills/skill-00000/SKILL.md");
    assert.equal(big.entries[COUNT - 1].key, `skills/skill-${String(COUNT - 1).padStart(5, "0")}/SKILL.md`);
    const small = await listAll(storage, "", { limit: 7 });
    assert.equal(small.pages.length, Math.ceil(COUNT / 7));
    assert.deepEqual(keys(small.entries), keys(big.entries));
  });
});

describe("nodeFsStorage: FIFOs, sockets, devices and the size cap", () => {
  const MiB = 1024 * 1024;
  let dir;
  let server;
  before(async () => {
    dir = tempDir("fs-special");
    writeTree(dir, {
      "SKILL.md": "---\nname: x\ndescription: y\n---\n",
      "top.md": "top",
      "cap/at.bin": "a".repeat(1000),
      "cap/over.bin": "o".repeat(1001),
    });
    const mk = spawnSync("mkfifo", [path.join(dir, "fifo")]);
    assert.equal(mk.status, 0, `mkfifo failed: ${mk.stderr}`);
    server = net.createServer();
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(path.join(dir, "sock"), resolve);
    });
    // 3 GiB, sparse: costs no disk; a whole read of it used to abort Node (a read longer than int32).
    writeFileSync(path.join(dir, "huge.bin"), "");
    truncateSync(path.join(dir, "huge.bin"), 3 * 1024 ** 3);
    symlinkSync("/dev/zero", path.join(dir, "zero"));
    symlinkSync("self-loop", path.join(dir, "self-loop"));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    removeDir(dir);
  });

  test("a listing skips the FIFO and the socket with warnings that say what they are", async () => {
    const page = await nodeFsStorage(dir).list("");
    assert.deepEqual(keys(page.entries), ["SKILL.md", "cap/at.bin", "cap/over.bin", "huge.bin", "top.md"]);
    assert.match(warningFor(page.warnings, "fifo")?.message ?? "", /not a regular file/);
    assert.match(warningFor(page.warnings, "sock")?.message ?? "", /not a regular file/);
    assert.match(warningFor(page.warnings, "zero")?.message ?? "", /outside the storage root/);
  });

  test("reading a FIFO or a socket is refused at once, with and without maxBytes", { timeout: 10_000 }, async () => {
    const storage = nodeFsStorage(dir);
    for (const opts of [undefined, { maxBytes: 10 }]) {
      await assert.rejects(storage.read("fifo", opts), /fifo: not a regular file \(a FIFO\)/);
      await assert.rejects(storage.read("sock", opts), /sock: not a regular file \(a socket\); it was not read/);
    }
  });

  test("a character device inside the root is refused, never read: /dev/zero as /dev's zero and /'s dev/zero", { timeout: 10_000 }, async () => {
    for (const [root, key] of [["/dev", "zero"], ["/dev", "null"], ["/", "dev/zero"], ["/", "dev/urandom"]]) {
      const storage = nodeFsStorage(root);
      await assert.rejects(storage.read(key), /not a regular file \(a character device\)/, `${root} ${key}`);
      await assert.rejects(storage.read(key, { maxBytes: 16 }), /a character device/, `${root} ${key} with maxBytes`);
    }
    // A link to it from inside a root leaves the root.
    await assert.rejects(nodeFsStorage(dir).read("zero"), /outside the storage root/);
  });

  test("a whole read above the cap is refused from the fstat size, at once; prefix reads within it are served", { timeout: 10_000 }, async () => {
    const { DEFAULT_MAX_OBJECT_BYTES } = await importPkg();
    assert.equal(DEFAULT_MAX_OBJECT_BYTES, 16 * MiB);
    const storage = nodeFsStorage(dir);
    assert.equal(storage.maxObjectBytes, 16 * MiB);
    const start = Date.now();
    const e = await storage.read("huge.bin").then(() => assert.fail("read whole"), (x) => x);
    assert.equal(e.code, "object-too-large");
    assert.equal(e.key, "huge.bin");
    assert.equal(e.size, 3 * 1024 ** 3);
    assert.equal(e.maxObjectBytes, 16 * MiB);
    assert.match(e.message, /huge\.bin is 3221225472 bytes, above the size cap of 16777216 bytes/);
    await assert.rejects(storage.read("huge.bin", { maxBytes: 16 * MiB + 1 }), { code: "object-too-large" });
    assert.ok(Date.now() - start < 2_000, "refused without reading");
    const head = await storage.read("huge.bin", { maxBytes: 16 * MiB });
    assert.equal(head.length, 16 * MiB);
    assert.equal(head.buffer.byteLength, 16 * MiB, "no more than the prefix was allocated");
    assert.equal((await storage.read("huge.bin", { maxBytes: 10 })).length, 10);
  });

  test("maxObjectBytes: a file at the cap reads, one byte more is refused", async () => {
    const storage = nodeFsStorage(dir, { maxObjectBytes: 1000 });
    assert.equal((await storage.read("cap/at.bin")).length, 1000);
    await assert.rejects(storage.read("cap/over.bin"), /cap\/over\.bin is 1001 bytes, above the size cap of 1000 bytes/);
    assert.equal(dec.decode(await storage.read("cap/over.bin", { maxBytes: 4 })), "oooo");
    for (const bad of [-1, 1.5, "10", 2 ** 31, Number.NaN]) {
      assert.throws(() => nodeFsStorage(dir, { maxObjectBytes: bad }), TypeError, `maxObjectBytes ${bad}`);
    }
  });

  test("a file longer than its fstat size (procfs) is read to its end, but never past the cap", { skip: !existsSync("/proc/self/status") }, async () => {
    const whole = await nodeFsStorage("/proc/self").read("status");
    assert.match(dec.decode(whole), /^Name:/, "stat says 0 bytes; the content is read anyway");
    await assert.rejects(
      nodeFsStorage("/proc/self", { maxObjectBytes: 64 }).read("status"),
      /status holds more than 64 bytes, above the size cap of 64 bytes/,
    );
    assert.equal((await nodeFsStorage("/proc/self", { maxObjectBytes: 64 }).read("status", { maxBytes: 8 })).length, 0,
      "a prefix read trusts fstat");
  });

  test("ENOTDIR and directories are null; ELOOP rejects with its code; nothing throws synchronously", async () => {
    const storage = nodeFsStorage(dir);
    assert.equal(await storage.read("top.md/below"), null);
    assert.equal(await storage.read("cap"), null);
    await assert.rejects(storage.read("self-loop"), (err) => err.code === "ELOOP" && /^self-loop: /.test(err.message));
    const p = storage.read("../x");
    assert.ok(p instanceof Promise);
    await assert.rejects(p, TypeError);
  });
});

describe("nodeFsStorage: a root that does not exist", () => {
  let base;
  before(() => {
    base = tempDir("fs-noroot");
    writeFileSync(path.join(base, "a-file"), "not a directory");
  });
  after(() => removeDir(base));

  test("lists as an empty page with a warning that the directory does not exist", async () => {
    const storage = nodeFsStorage(path.join(base, "missing"));
    for (const prefix of ["", ".agents/skills/"]) {
      const page = await storage.list(prefix);
      assert.deepEqual(page.entries, []);
      assert.equal(page.cursor, undefined);
      assert.equal(page.warnings?.length, 1, JSON.stringify(page.warnings));
      assert.equal(page.warnings[0].key, prefix);
      assert.match(page.warnings[0].message, /the storage root directory .*missing does not exist/);
    }
    const file = await nodeFsStorage(path.join(base, "a-file")).list("");
    assert.deepEqual(file.entries, []);
    assert.match(file.warnings?.[0]?.message ?? "", /is not a directory/);
    // An existing root with no such prefix is not worth a warning.
    assert.equal((await nodeFsStorage(base).list(".agents/skills/")).warnings, undefined);
  });

  test("discovery reports it in registry.diagnostics() and keeps the other scopes", async () => {
    const { SkillRegistry, memoryStorage } = await importPkg();
    const reg = await SkillRegistry.discover({
      scopes: [
        { name: "gone", storage: nodeFsStorage(path.join(base, "missing")), trusted: true },
        { name: "mem", storage: memoryStorage({ ".agents/skills/ok/SKILL.md": "---\nname: ok\ndescription: fine\n---\n" }), trusted: true },
      ],
    });
    const skipped = reg.diagnostics().filter((d) => d.code === "storage-skipped" && d.path?.startsWith("gone:"));
    assert.ok(skipped.length >= 1, JSON.stringify(reg.diagnostics(), null, 1));
    assert.equal(skipped[0].severity, "warning");
    assert.match(skipped[0].message, /does not exist/);
    assert.deepEqual(reg.listMetas().map((m) => m.name), ["ok"]);
  });

  test("discovery turns a SKILL.md above the cap into storage-read-failed and loads the rest", async () => {
    const { SkillRegistry } = await importPkg();
    const root = path.join(base, "capped");
    writeTree(root, {
      ".agents/skills/small/SKILL.md": "---\nname: small\ndescription: fits\n---\n",
      ".agents/skills/large/SKILL.md": `---\nname: large\ndescription: too big\n---\n${"x".repeat(5000)}`,
    });
    const reg = await SkillRegistry.discover({ project: nodeFsStorage(root, { maxObjectBytes: 2000 }), trustProject: true });
    assert.deepEqual(reg.listMetas().map((m) => m.name), ["small"]);
    const failed = reg.diagnostics().find((d) => d.code === "storage-read-failed");
    assert.ok(failed, JSON.stringify(reg.diagnostics(), null, 1));
    assert.match(failed.message, /large\/SKILL\.md is \d+ bytes, above the size cap of 2000 bytes/);
  });
});

// The swapper runs in its own process, so its renames race the reads for real.
const SWAP_SCRIPT = `
const fs = require("node:fs");
const path = require("node:path");
const [root, outside, ms] = [process.env.ROOT, process.env.OUTSIDE, Number(process.env.MS)];
const d = path.join(root, "d"), dReal = path.join(root, "d.real");
const f = path.join(root, "e", "f"), fReal = path.join(root, "e", "f.real");
const end = Date.now() + ms;
let swaps = 0;
while (Date.now() < end) {
  fs.renameSync(d, dReal); fs.symlinkSync(path.join(outside, "d"), d);
  fs.renameSync(f, fReal); fs.symlinkSync(path.join(outside, "d", "f"), f);
  fs.unlinkSync(d); fs.renameSync(dReal, d);
  fs.unlinkSync(f); fs.renameSync(fReal, f);
  swaps++;
}
process.stdout.write(String(swaps));
`;

describe("nodeFsStorage: a directory or file swapped for a link leaving the root while reading", () => {
  let base;
  before(() => {
    base = tempDir("fs-swap");
    writeTree(path.join(base, "root"), { "d/f": "inside d", "e/f": "inside e" });
    writeTree(path.join(base, "outside"), { "d/f": "OUTSIDE SECRET" });
  });
  after(() => removeDir(base));

  // The exact check names the opened file through /proc/self/fd (Linux); elsewhere the adapter's
  // dev/ino check only narrows the race, so this test would not hold there.
  const noProc = !existsSync("/proc/self/fd") && "no /proc/self/fd on this system";
  test("no read ever returns an outside byte", { timeout: 20_000, skip: noProc }, async () => {
    const root = path.join(base, "root");
    const storage = nodeFsStorage(root);
    const child = spawn(process.execPath, ["-e", SWAP_SCRIPT], {
      env: { ...process.env, ROOT: root, OUTSIDE: path.join(base, "outside"), MS: "1500" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let swaps = "";
    let stderr = "";
    child.stdout.on("data", (b) => { swaps += b; });
    child.stderr.on("data", (b) => { stderr += b; });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let running = true;
    exited.then(() => { running = false; });
    const seen = { inside: 0, null: 0, refused: 0 };
    const outsideBytes = [];
    async function reader(key, opts) {
      while (running) {
        try {
          const got = await storage.read(key, opts);
          if (got === null) { seen.null++; continue; }
          const text = dec.decode(got);
          if (text !== "" && `inside ${key[0]}`.startsWith(text)) seen.inside++;
          else outsideBytes.push(`${key}: ${text}`);
        } catch (e) {
          assert.ok(!(e instanceof TypeError), e.message);
          seen.refused++;
        }
      }
    }
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => reader("d/f", i % 3 === 0 ? undefined : { maxBytes: i % 3 === 1 ? 100 : 3 })),
      reader("e/f"), reader("e/f", { maxBytes: 100 }),
    ]);
    const code = await exited;
    assert.equal(code, 0, stderr);
    assert.deepEqual(outsideBytes.slice(0, 5), [], `outside bytes were served (${outsideBytes.length} times)`);
    assert.ok(Number(swaps) > 10, `the swapper swapped ${swaps} times`);
    assert.ok(seen.inside > 0, `some reads saw the inside file: ${JSON.stringify(seen)}`);
  });
});
