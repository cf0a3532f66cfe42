// The origin policy of wellKnownStorage over two real HTTP servers on 127.0.0.1 (two ports, two
// origins): the host's headers go only to the origin they were given for; an index entry or a
// redirect to another origin is refused with `origin-refused` naming it unless `allowOrigins`
// lists it, and then it is requested without the headers; redirects are followed by hand, each
// Location resolved against the URL that answered, at most 5 of them. Every request's headers are
// recorded at the server that got it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { INDEX, answer, edgeServer, indexOf, redirect, skillMd } from "./support/edge-server.mjs";

const pkg = await importPkg();
const SECRETS = { authorization: "Bearer s3cret", "x-api-key": "k3y" };
const scope = (storage) => ({ scopes: [{ name: "site", storage, roots: [""], trusted: true }] });
const messages = (registry, code) => registry.diagnostics().filter((d) => d.code === code).map((d) => d.message);

/** Two origins: `home` (the store's) and `other`, closed after the test. */
async function twoOrigins(t) {
  const home = await edgeServer();
  const other = await edgeServer();
  t.after(() => Promise.all([home.close(), other.close()]));
  return { home, other };
}

const carried = (seen) => [seen.headers.authorization, seen.headers["x-api-key"]];

test("an entry on another origin is refused, naming it, and that origin sees no request", async (t) => {
  const { home, other } = await twoOrigins(t);
  const mine = skillMd("mine");
  const away = skillMd("away");
  const internal = `${other.url}/latest/meta-data`;
  home.routes.set(INDEX, answer(indexOf([
    { name: "mine", url: "mine/SKILL.md", bytes: mine },
    { name: "away", url: `${other.url}/away/SKILL.md`, bytes: away },
    { name: "probe", url: internal, bytes: "x" },
    { name: "userinfo", url: `http://user:pw@${other.url.slice(7)}/x`, bytes: "x" },
    { name: "backslash", url: `${home.url}\\@${other.url.slice(7)}/x`, bytes: "x" },
  ])));
  home.routes.set("/.well-known/agent-skills/mine/SKILL.md", answer(mine));
  other.routes.set("/away/SKILL.md", answer(away));
  other.routes.set("/latest/meta-data", answer("x"));

  const registry = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(home.url, { headers: SECRETS })));
  assert.deepEqual(registry.names(), ["mine"]);
  assert.equal(other.requests.length, 0, "the index cannot make the client request another origin");
  const skipped = messages(registry, "storage-skipped");
  assert.ok(skipped.some((m) => m.includes("origin-refused") && m.includes("away") && m.includes(other.url)), skipped.join("\n"));
  assert.ok(skipped.some((m) => m.includes("origin-refused") && m.includes("probe")), skipped.join("\n"));
  assert.ok(skipped.some((m) => m.includes("index-entry-invalid") && m.includes("userinfo")), skipped.join("\n"));
  assert.ok(skipped.some((m) => m.includes("index-entry-invalid") && m.includes("backslash")), skipped.join("\n"));
  for (const seen of home.requests) assert.deepEqual(carried(seen), ["Bearer s3cret", "k3y"], seen.path);
});

test("allowOrigins: an allowed origin is requested without the host's headers", async (t) => {
  const { home, other } = await twoOrigins(t);
  const mine = skillMd("mine");
  const cdn = skillMd("cdn");
  home.routes.set(INDEX, answer(indexOf([
    { name: "mine", url: "mine/SKILL.md", bytes: mine },
    { name: "cdn", url: `${other.url}/cdn/SKILL.md`, bytes: cdn },
  ])));
  home.routes.set("/.well-known/agent-skills/mine/SKILL.md", answer(mine));
  other.routes.set("/cdn/SKILL.md", answer(cdn));

  const store = pkg.wellKnownStorage(home.url, { headers: SECRETS, allowOrigins: [`${other.url}/`] });
  const registry = await pkg.SkillRegistry.discover(scope(store));
  assert.deepEqual(registry.names().sort(), ["cdn", "mine"]);
  assert.equal(other.requests.length, 1);
  assert.deepEqual(carried(other.requests[0]), [undefined, undefined], "no credential leaves its origin");
  assert.deepEqual(home.requests.map(carried), [["Bearer s3cret", "k3y"], ["Bearer s3cret", "k3y"]]);
});

test("a cross-origin redirect is refused unless allowed, and never carries the host's headers", async (t) => {
  const { home, other } = await twoOrigins(t);
  const moved = skillMd("moved");
  home.routes.set(INDEX, answer(indexOf([{ name: "moved", url: "moved/SKILL.md", bytes: moved }])));
  home.routes.set("/.well-known/agent-skills/moved/SKILL.md", redirect(`${other.url}/elsewhere/SKILL.md`, 307));
  other.routes.set("/elsewhere/SKILL.md", answer(moved));

  const refused = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(home.url, { headers: SECRETS })));
  assert.deepEqual(refused.names(), []);
  const failed = messages(refused, "storage-read-failed");
  assert.ok(failed.some((m) => m.includes("origin-refused") && m.includes(other.url)), failed.join("\n"));
  assert.equal(other.requests.length, 0, "the redirect was not followed");

  const allowed = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(home.url, { headers: SECRETS, allowOrigins: [other.url] })));
  assert.deepEqual(allowed.names(), ["moved"]);
  assert.equal(other.requests.length, 1);
  assert.deepEqual(carried(other.requests[0]), [undefined, undefined], "neither authorization nor x-api-key crosses the redirect");
  for (const seen of home.requests) assert.deepEqual(carried(seen), ["Bearer s3cret", "k3y"], seen.path);
});

test("same-origin redirects are followed by hand, each Location resolved against the URL that answered", async (t) => {
  const { home, other } = await twoOrigins(t);
  const a = skillMd("a");
  // The index moves twice (relative Locations); its entries resolve against where it ended.
  home.routes.set(INDEX, redirect("../moved/index.json", 301));
  home.routes.set("/.well-known/moved/index.json", redirect("final/index.json", 308));
  home.routes.set("/.well-known/moved/final/index.json", answer(indexOf([{ name: "a", url: "a/SKILL.md", bytes: a }])));
  // The artifact redirects to itself with a query (a Location of only `?v=1`), answered there.
  home.routes.set("/.well-known/moved/final/a/SKILL.md", (req, res) => (req.url.endsWith("?v=1") ? answer(a) : redirect("?v=1"))(req, res));

  const store = pkg.wellKnownStorage(home.url, { headers: SECRETS });
  const registry = await pkg.SkillRegistry.discover(scope(store));
  assert.deepEqual(registry.names(), ["a"]);
  assert.deepEqual(home.requests.map((r) => r.path), [
    INDEX, "/.well-known/moved/index.json", "/.well-known/moved/final/index.json",
    "/.well-known/moved/final/a/SKILL.md", "/.well-known/moved/final/a/SKILL.md",
  ]);
  for (const seen of home.requests) assert.deepEqual(carried(seen), ["Bearer s3cret", "k3y"], "same origin: the headers follow");
  assert.equal(other.requests.length, 0);
});

test("lying redirects: a loop stops after 5, a Location that is not http(s) or is missing is not followed", async (t) => {
  const { home } = await twoOrigins(t);
  const body = skillMd("x");
  home.routes.set(INDEX, answer(indexOf([
    { name: "loop", url: "/loop", bytes: body },
    { name: "file", url: "/file", bytes: body },
    { name: "blank", url: "/blank", bytes: body },
  ])));
  home.routes.set("/loop", redirect("/loop", 302));
  home.routes.set("/file", redirect("file:///etc/passwd", 302));
  home.routes.set("/blank", (req, res) => res.writeHead(302, { "content-length": 0 }).end());

  const registry = await pkg.SkillRegistry.discover(scope(pkg.wellKnownStorage(home.url)));
  assert.deepEqual(registry.names(), []);
  const failed = messages(registry, "storage-read-failed");
  for (const name of ["loop", "file", "blank"]) {
    assert.ok(failed.some((m) => m.includes(name) && m.includes("redirect-invalid")), `${name}: ${failed.join("\n")}`);
  }
  assert.equal(home.to("/loop").length, 6, "the first request and 5 redirects");
});

test("options: allowOrigins and timeoutMs are checked, an unknown option is a TypeError", () => {
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigin: ["http://x"] }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigins: "http://x" }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigins: ["x.test"] }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigins: ["ftp://x.test"] }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigins: [7] }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { timeoutMs: 0 }), TypeError);
  assert.throws(() => pkg.wellKnownStorage("http://127.0.0.1:9/", { timeoutMs: "1s" }), TypeError);
  assert.ok(pkg.wellKnownStorage("http://127.0.0.1:9/", { allowOrigins: ["https://cdn.example.com"], timeoutMs: 500 }));
});

test("checkRequestUrl: the core's decision, one URL or one redirect at a time", () => {
  const policy = { origin: "http://127.0.0.1:1000/", allowOrigins: ["http://127.0.0.1:2000"] };
  assert.deepEqual(pkg.checkRequestUrl("http://127.0.0.1:1000/a", policy), { url: "http://127.0.0.1:1000/a", credentials: true });
  assert.deepEqual(pkg.checkRequestUrl("http://127.0.0.1:2000/a", policy), { url: "http://127.0.0.1:2000/a", credentials: false });
  assert.equal(pkg.checkRequestUrl("http://127.0.0.1:3000/a", policy).error.code, "origin-refused");
  const hop = pkg.checkRequestUrl("../b", { ...policy, base: "http://127.0.0.1:2000/x/y/z", redirects: 1 });
  assert.deepEqual(hop, { url: "http://127.0.0.1:2000/x/b", credentials: false });
  assert.equal(pkg.checkRequestUrl("/b", { ...policy, base: "http://127.0.0.1:1000/", redirects: 6 }).error.code, "redirect-invalid");
  assert.throws(() => pkg.checkRequestUrl("http://a.test/", { origin: "http://a.test/", allowOrigins: ["http://b.test/path"] }), TypeError);
  assert.throws(() => pkg.checkRequestUrl("http://a.test/", { origin: "http://a.test/", nope: 1 }), TypeError);
});
