// Consent bound to content: the host's `approve` hook is asked with a skill's content digest
// before the skill tool or `/name` serves it, once per digest; a changed file asks again; a
// refusal, a throw or a hook that never answers is a clear error result for the model; a remote
// skill's `allowed-tools` count only once its content is approved; approvals are exported and
// restored. Real directories through nodeFsStorage, a real discovery index on 127.0.0.1.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importPkg } from "./helpers.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, memoryStorage, nodeFsStorage, isToolAllowed } = pkg;

// The example of docs/guides/consent.md.
const HELLO = {
  "hello/SKILL.md": "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n",
  "hello/scripts/hello.sh": "echo hello\n",
};
const HELLO_DIGEST = "sha256:475219899a0c0943ffa17216644f00f7a0c1c979c5d41fcd8d2a829c969b954d";

function tree(files) {
  const root = mkdtempSync(path.join(tmpdir(), "skillwasm-consent-"));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const local = (storage, extra = {}) => ({ scopes: [{ name: "user", storage, roots: [""] }], ...extra });

test("the digest is the documented one, from a directory, from memory and by sha256sum", async () => {
  const root = tree(HELLO);
  const fromDisk = await SkillRegistry.discover(local(nodeFsStorage(root)));
  const fromMemory = await SkillRegistry.discover(local(memoryStorage(HELLO)));
  const a = await fromDisk.contentDigest("hello");
  const b = await fromMemory.contentDigest("hello");
  assert.deepEqual([a.digest, a.files, a.size, a.scope], [HELLO_DIGEST, 2, 67, "user"]);
  assert.equal(b.digest, a.digest);
  // The shell recipe of the guide gives the same value.
  const shell = execFileSync("bash", ["-c", "cd hello && find . -type f | sed 's|^\\./||' | LC_ALL=C sort | xargs -d '\\n' sha256sum | sha256sum"], { cwd: root, encoding: "utf8" });
  assert.equal(`sha256:${shell.split(" ")[0]}`, HELLO_DIGEST);
  const unknown = await fromDisk.contentDigest("nope");
  assert.equal(unknown.digest, undefined);
  assert.equal(unknown.error.code, "skill-unknown");
  await assert.rejects(async () => fromDisk.contentDigest(1), TypeError);
});

test("the digest refuses beyond the per-skill limits with a diagnostic", async () => {
  const files = { "big/SKILL.md": "---\nname: big\ndescription: Big.\n---\nx\n", "big/data.bin": "x".repeat(2000) };
  const registry = await SkillRegistry.discover(local(memoryStorage(files), { maxObjectBytes: 1000 }));
  const d = await registry.contentDigest("big");
  assert.equal(d.digest, undefined);
  assert.equal(d.error.code, "content-digest-failed");
  assert.match(d.error.message, /more than the 1000/);
});

test("the hook is asked once per digest; a changed file asks again after refresh", async () => {
  const root = tree(HELLO);
  const asked = [];
  const registry = await SkillRegistry.discover(local(nodeFsStorage(root), {
    approve: async (req) => (asked.push(req), true),
  }));
  const tool = new SkillTool(registry);
  const first = await tool.execute({ name: "hello" });
  assert.equal(first.isError, false, first.content);
  assert.equal(first.digest, HELLO_DIGEST);
  assert.deepEqual(asked, [{
    name: "hello", scope: "user", origin: null, digest: HELLO_DIGEST, allowedTools: [], reason: "activate", previous: null,
  }]);
  // Another read, another tool, a forced activation and /hello: approved already, not asked again.
  assert.equal((await tool.execute({ name: "hello", path: "scripts/hello.sh" })).isError, false);
  assert.equal((await new SkillTool(registry).execute({ name: "hello", force: true })).isError, false);
  assert.equal((await tool.invoke("/hello")).injected.length, 1);
  assert.equal(asked.length, 1);
  assert.deepEqual(registry.approvals(), [{ name: "hello", scope: "user", digest: HELLO_DIGEST }]);

  writeFileSync(path.join(root, "hello/scripts/hello.sh"), "echo bonjour\n");
  await registry.refresh();
  const again = await tool.execute({ name: "hello", path: "scripts/hello.sh" });
  assert.equal(again.isError, false);
  assert.equal(asked.length, 2, "the new content is asked for");
  assert.equal(asked[1].reason, "read");
  assert.equal(asked[1].previous, HELLO_DIGEST);
  assert.notEqual(asked[1].digest, HELLO_DIGEST);
  assert.equal(again.digest, asked[1].digest);
  assert.deepEqual(registry.approvals().map((a) => a.digest), [asked[1].digest], "one approval per skill: the current one");
});

test("a refusal, a throw, a rejection, a non-boolean and no answer in time refuse with a clear result", async () => {
  const answers = {
    refused: () => false,
    threw: () => { throw new Error("no prompt here"); },
    rejected: () => Promise.reject(new Error("dialog closed")),
    string: () => "yes",
    hanging: () => new Promise(() => {}),
  };
  for (const [what, approve] of Object.entries(answers)) {
    const registry = await SkillRegistry.discover(local(memoryStorage(HELLO), { approve, approvalTimeoutMs: 200 }));
    const tool = new SkillTool(registry);
    const r = await tool.execute({ name: "hello" });
    assert.equal(r.isError, true, what);
    assert.equal(r.error.code, "skill-not-approved", what);
    assert.match(r.content, /The skill 'hello' is not approved/, what);
    assert.doesNotMatch(r.content, /Say hello/, what);
    const read = await tool.execute({ name: "hello", path: "scripts/hello.sh" });
    assert.equal(read.error?.code, "skill-not-approved", `${what}: a file read`);
    assert.doesNotMatch(read.content, /echo hello/, what);
    const inj = await tool.invoke("/hello");
    assert.deepEqual([inj.injected.length, inj.errors.map((d) => d.code)], [0, ["skill-not-approved"]], what);
    assert.equal(tool.session.activations().length, 0, what);
    assert.deepEqual(registry.approvals(), [], what);
  }
  const slow = await SkillRegistry.discover(local(memoryStorage(HELLO), { approve: answers.hanging, approvalTimeoutMs: 200 }));
  const r = await new SkillTool(slow).execute({ name: "hello" });
  assert.match(r.content, /no answer within 200 ms/);
});

test("options are checked: approve must be a function, approvals well formed, unknown keys refused", async () => {
  const storage = memoryStorage(HELLO);
  await assert.rejects(SkillRegistry.discover(local(storage, { approve: true })), { name: "TypeError", message: /approve must be a function/ });
  await assert.rejects(SkillRegistry.discover(local(storage, { approvals: [{ name: "x", scope: "u", digest: "sha256:1" }] })), { name: "TypeError", message: /approvals\[0\]\.digest/ });
  await assert.rejects(SkillRegistry.discover(local(storage, { approvals: {} })), { name: "TypeError", message: /approvals must be an array/ });
  await assert.rejects(SkillRegistry.discover(local(storage, { approveAll: true })), { name: "TypeError", message: /unknown field `approveAll`/ });
  await assert.rejects(SkillRegistry.discover(local({ ...storage, list: storage.list, read: storage.read, origin: 7 })), { name: "TypeError", message: /origin must be a string/ });
});

test("a remote skill's allowed-tools do nothing until its content is approved; approvals survive export and restore", async (t) => {
  const source = await SkillRegistry.discover(local(memoryStorage({
    "deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys.\nallowed-tools: Bash(git push:*)\n---\nPush it.\n",
    "deploy/notes.md": "Notes.\n",
  })));
  const published = await pkg.publishWellKnown(source);
  const server = await serve(routesOf(published));
  t.after(() => server.close());
  const storage = pkg.wellKnownStorage(server.url);
  assert.equal(storage.origin, new URL(server.url).origin);
  const scopes = [{ name: "site", storage, roots: [""], trusted: true }];
  const push = { command: "git push origin main" };

  // Without a hook: served, but its allowed-tools count for nothing.
  const plain = await SkillRegistry.discover({ scopes });
  const served = await new SkillTool(plain).execute({ name: "deploy" });
  assert.equal(served.isError, false, served.content);
  assert.match(served.digest, /^sha256:[0-9a-f]{64}$/);
  assert.equal(isToolAllowed(plain, ["deploy"], "Bash", push).allowed, false, "not approved");

  // With a hook: before the approval nothing; after it the pattern holds.
  const asked = [];
  let answer = false;
  const registry = await SkillRegistry.discover({ scopes, approve: (req) => (asked.push(req), answer) });
  assert.equal(isToolAllowed(registry, ["deploy"], "Bash", push).allowed, false, "before");
  assert.equal((await new SkillTool(registry).execute({ name: "deploy" })).error?.code, "skill-not-approved");
  assert.equal(isToolAllowed(registry, ["deploy"], "Bash", push).allowed, false, "refused");
  answer = true;
  assert.equal((await new SkillTool(registry).execute({ name: "deploy" })).isError, false);
  assert.deepEqual(asked.map((r) => [r.origin, r.allowedTools, r.digest]), [
    [storage.origin, ["Bash(git push:*)"], served.digest],
    [storage.origin, ["Bash(git push:*)"], served.digest],
  ]);
  const allowed = isToolAllowed(registry, ["deploy"], "Bash", push);
  assert.deepEqual([allowed.allowed, allowed.skill], [true, "deploy"], "after");
  assert.equal(isToolAllowed(registry, ["deploy"], "Bash", { command: "rm -rf /" }).allowed, false);

  // Exported and restored, through discover and through a snapshot: no hook needed to hold.
  const approvals = registry.approvals();
  assert.deepEqual(approvals, [{ name: "deploy", scope: "site", digest: served.digest }]);
  const restored = await SkillRegistry.discover({ scopes, approvals: JSON.parse(JSON.stringify(approvals)) });
  assert.deepEqual(restored.approvals(), approvals);
  assert.equal((await restored.contentDigest("deploy")).digest, served.digest);
  assert.equal(isToolAllowed(restored, ["deploy"], "Bash", push).allowed, true, "restored");
  const fromSnapshot = SkillRegistry.fromSnapshot(registry.snapshot(), { scopes, approvals });
  assert.deepEqual(fromSnapshot.approvals(), approvals);
  assert.equal((await new SkillTool(fromSnapshot).execute({ name: "deploy" })).isError, false);
  assert.equal(isToolAllowed(fromSnapshot, ["deploy"], "Bash", push).allowed, true, "from a snapshot");
  // Inside the snapshot, when the host asks on both sides: a plain snapshot carries none, and
  // approvals written into one are taken only with `approvals: "snapshot"`.
  assert.deepEqual(SkillRegistry.fromSnapshot(registry.snapshot(), { scopes, approvals: "snapshot" }).approvals(), []);
  const withApprovals = registry.snapshot({ approvals: true });
  assert.ok(withApprovals.length > registry.snapshot().length);
  assert.deepEqual(SkillRegistry.fromSnapshot(withApprovals, { scopes }).approvals(), [], "not taken unless asked");
  const carried = SkillRegistry.fromSnapshot(withApprovals, { scopes, approvals: "snapshot" });
  assert.deepEqual(carried.approvals(), approvals);
  assert.equal((await new SkillTool(carried).execute({ name: "deploy" })).isError, false);
  assert.equal(isToolAllowed(carried, ["deploy"], "Bash", push).allowed, true, "carried by the snapshot");
  await assert.rejects(SkillRegistry.discover({ scopes, approvals: "snapshot" }), (e) => e instanceof TypeError && /fromSnapshot only/.test(e.message));
  assert.throws(() => SkillRegistry.fromSnapshot(withApprovals, { scopes, approvals: "all" }), (e) => e instanceof TypeError && /approvals/.test(e.message));
  assert.throws(() => registry.snapshot({ approval: true }), (e) => e instanceof TypeError && /approval/.test(e.message));
  // An approval of other content does not hold.
  const other = [{ ...approvals[0], digest: `sha256:${"0".repeat(64)}` }];
  const stale = await SkillRegistry.discover({ scopes, approvals: other });
  await new SkillTool(stale).execute({ name: "deploy" });
  assert.equal(isToolAllowed(stale, ["deploy"], "Bash", push).allowed, false, "other content");
});

test("local skills keep their allowed-tools without any hook", async () => {
  const registry = await SkillRegistry.discover(local(memoryStorage({
    "lint/SKILL.md": "---\nname: lint\ndescription: Lints.\nallowed-tools: Bash(npm run lint:*)\n---\nLint.\n",
  })));
  assert.equal(isToolAllowed(registry, ["lint"], "Bash", { command: "npm run lint" }).allowed, true);
  const r = await new SkillTool(registry).execute({ name: "lint" });
  assert.equal(r.digest, undefined, "no digest is computed for a local skill without a hook");
  assert.deepEqual(registry.approvals(), []);
});
