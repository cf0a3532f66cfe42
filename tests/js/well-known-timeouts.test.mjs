// Timeouts of wellKnownStorage over a real HTTP server on 127.0.0.1: every request is aborted at
// `timeoutMs` (its body read included) and the server sees its connection closed; nothing failed
// is kept, so the next call asks again; a listing never waits for an artifact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { INDEX, answer, edgeServer, hang, indexOf, skillMd, stallAfter } from "./support/edge-server.mjs";

const pkg = await importPkg();
// The registry would wait 10 s for a store call; the store's own timeout is what is tested.
const scope = (storage) => ({ scopes: [{ name: "site", storage, roots: [""], trusted: true }], timeoutMs: 10_000 });

/** `p`, or a rejection after `ms`: a promise that does not settle fails the test instead of hanging it. */
const settlesWithin = (p, ms, what) => Promise.race([
  p, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms).unref()),
]);

test("a first index request that hangs costs one discovery: it is aborted, the next one succeeds", async (t) => {
  const server = await edgeServer();
  t.after(() => server.close());
  const alpha = skillMd("alpha");
  const index = answer(indexOf([{ name: "alpha", url: "alpha/SKILL.md", bytes: alpha }]));
  server.routes.set(INDEX, hang());
  server.routes.set("/.well-known/agent-skills/alpha/SKILL.md", answer(alpha));
  const store = pkg.wellKnownStorage(server.url, { timeoutMs: 300 });

  const t0 = performance.now();
  const first = await settlesWithin(pkg.SkillRegistry.discover(scope(store)), 5000, "the first discovery");
  const took = performance.now() - t0;
  assert.deepEqual(first.names(), []);
  const failed = first.diagnostics().filter((d) => d.code === "storage-list-failed").map((d) => d.message);
  assert.ok(failed.some((m) => m.includes("fetch-timeout") || m.includes("300 ms")), failed.join("\n"));
  assert.ok(took < 3000, `aborted at its timeout (${took.toFixed(0)} ms)`);
  await settlesWithin(server.to(INDEX)[0].gone, 2000, "the server's view of the aborted connection");
  assert.equal(server.to(INDEX)[0].closed, true, "aborting closed the socket");

  server.routes.set(INDEX, index);
  const second = await settlesWithin(pkg.SkillRegistry.discover(scope(store)), 5000, "the second discovery");
  assert.deepEqual(second.names(), ["alpha"], "the failed request was not kept: the next discovery asked again");
  assert.equal(server.to(INDEX).length, 2);
});

test("an artifact that stalls after 5 bytes costs only itself; later listings and retries work", async (t) => {
  const server = await edgeServer();
  t.after(() => server.close());
  const good = skillMd("good");
  const slow = skillMd("slow", "A body long enough to stall in.");
  server.routes.set(INDEX, answer(indexOf([
    { name: "good", url: "good/SKILL.md", bytes: good },
    { name: "slow", url: "slow/SKILL.md", bytes: slow },
  ])));
  server.routes.set("/.well-known/agent-skills/good/SKILL.md", answer(good));
  server.routes.set("/.well-known/agent-skills/slow/SKILL.md", stallAfter(slow, 5));
  const store = pkg.wellKnownStorage(server.url, { timeoutMs: 400 });

  const first = await settlesWithin(pkg.SkillRegistry.discover(scope(store)), 5000, "the discovery");
  assert.deepEqual(first.names(), ["good"]);
  const failed = first.diagnostics().filter((d) => d.code === "storage-read-failed").map((d) => d.message);
  assert.ok(failed.some((m) => m.includes("slow") && m.includes("fetch-timeout")), failed.join("\n"));
  const stalled = server.to("/.well-known/agent-skills/slow/SKILL.md");
  await settlesWithin(stalled[0].gone, 2000, "the server's view of the aborted body");
  assert.equal(stalled[0].closed, true, "the body read was aborted and its socket closed");

  // A read that is still stalling does not hold up a listing.
  const read = store.read("slow/SKILL.md");
  read.catch(() => {});
  const page = await settlesWithin(store.list(""), 1000, "a listing beside a stalled read");
  assert.deepEqual(page.entries.map((e) => e.key), ["good/SKILL.md", "slow/SKILL.md"]);
  await assert.rejects(settlesWithin(read, 3000, "the stalled read"), (e) => e.code === "fetch-timeout");

  // Nothing failed was kept: once the server answers, the skill loads.
  server.routes.set("/.well-known/agent-skills/slow/SKILL.md", answer(slow));
  const later = await settlesWithin(pkg.SkillRegistry.discover(scope(store)), 5000, "a later discovery");
  assert.deepEqual(later.names().sort(), ["good", "slow"]);
  assert.equal(server.to("/.well-known/agent-skills/slow/SKILL.md").length, 3, "each try asked again");
  assert.equal(server.to("/.well-known/agent-skills/good/SKILL.md").length, 1, "what arrived whole is kept");
});

test("a host's fetch that ignores the signal still settles at the timeout", async () => {
  const store = pkg.wellKnownStorage("http://127.0.0.1:9/", { timeoutMs: 200, fetch: () => new Promise(() => {}) });
  await assert.rejects(settlesWithin(store.list(""), 3000, "the listing"), (e) => e.code === "fetch-timeout");
});
