// examples/cloudflare-worker at its edges, in workerd (miniflare, a real R2 binding): every GET
// route answers HEAD alike without a body (the Discovery RFC's MUST); the well-known routes carry
// CORS headers (configurable, never on the write routes) and answer OPTIONS preflights; a catalog
// budget outside 0..2^32-1 is a 400 with a JSON error; an oversized upload sent over a real socket
// with fetch is answered 413 however it is sent (Content-Length, chunked, multipart), and nothing
// is written. A Worker with an invalid VET or VET_SEVERITY answers a JSON 500 on every route but keeps
// its CORS headers and preflights; with VET=report, a vetting that could not read every file says so;
// VET_SEVERITY=medium refuses what the default stores.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { WRITE_SECRET, startExample } from "./support/worker-example.mjs";

const MiB = 1024 * 1024;
const WELL_KNOWN = "/.well-known/agent-skills/";
const skillMd = (name) => `---\nname: ${name}\ndescription: The ${name} skill, for the edge tests.\n---\n# ${name}\n\nDo the ${name} thing.\n`;

function multipart(files) {
  const f = new FormData();
  for (const { rel, bytes } of files) f.append("file", new Blob([bytes]), rel);
  return new Response(f);
}

/** The headers that must agree between GET and HEAD: all but the date and the body's framing. */
const FRAMING = new Set(["date", "transfer-encoding", "connection", "keep-alive"]);
const headersOf = (res) => Object.fromEntries([...res.headers].filter(([k]) => !FRAMING.has(k)));

describe("the Cloudflare Worker example at its edges", () => {
  let persistDir;
  let worker;

  const upload = async (dir, files) => {
    const encoded = multipart(files);
    const body = new Uint8Array(await encoded.arrayBuffer());
    return worker.fetch(`/skills/${dir}`, { method: "POST", headers: { "content-type": encoded.headers.get("content-type") }, body });
  };
  const storedKeys = async () => {
    const bucket = await worker.mf.getR2Bucket("SKILLS");
    return (await bucket.list({ prefix: "skills/" })).objects.map((o) => o.key).sort();
  };

  before(async () => {
    persistDir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-edges-"));
    worker = await startExample({ persistDir, listen: true });
    const enc = new TextEncoder();
    assert.equal((await upload("alpha", [{ rel: "SKILL.md", bytes: enc.encode(skillMd("alpha")) }])).status, 201);
    const beta = [{ rel: "SKILL.md", bytes: enc.encode(skillMd("beta")) }, { rel: "references/notes.md", bytes: enc.encode("# Notes\n") }];
    assert.equal((await upload("beta", beta)).status, 201);
  });
  after(async () => {
    await worker?.dispose();
    if (persistDir) rmSync(persistDir, { recursive: true, force: true });
  });

  test("every GET route answers HEAD with the same status and headers and no body", async () => {
    const index = await (await worker.fetch(`${WELL_KNOWN}index.json`)).json();
    assert.equal(index.skills.length, 2);
    const paths = [
      "/", "/catalog", "/catalog?format=json", "/catalog?format=yaml", "/tool", "/diagnostics", "/status", "/mcp", "/nowhere",
      `${WELL_KNOWN}index.json`, `${WELL_KNOWN}no-such/SKILL.md`, ...index.skills.map((e) => `${WELL_KNOWN}${e.url}`),
    ];
    // Uncompressed, so that the lengths are the representation's (not the transfer's).
    const headers = { "accept-encoding": "identity" };
    for (const p of paths) {
      const get = await worker.fetch(p, { headers });
      const getBody = new Uint8Array(await get.arrayBuffer());
      const head = await worker.fetch(p, { method: "HEAD", headers });
      const headBody = new Uint8Array(await head.arrayBuffer());
      assert.equal(head.status, get.status, `HEAD ${p}: ${head.status}, GET: ${get.status}`);
      assert.equal(headBody.byteLength, 0, `HEAD ${p} has no body`);
      assert.deepEqual(headersOf(head), headersOf(get), `HEAD ${p}: the headers of GET`);
      if (get.headers.has("content-length")) assert.equal(Number(get.headers.get("content-length")), getBody.byteLength);
    }
    // The artifacts (a SKILL.md and an archive) and the index, the routes the RFC names.
    assert.deepEqual(index.skills.map((e) => e.type).sort(), ["archive", "skill-md"]);
    // A conditional HEAD is a 304 like a conditional GET.
    const etag = (await worker.fetch(`${WELL_KNOWN}index.json`, { method: "HEAD" })).headers.get("etag");
    assert.equal((await worker.fetch(`${WELL_KNOWN}index.json`, { method: "HEAD", headers: { "if-none-match": etag } })).status, 304);
  });

  test("the well-known routes carry CORS headers and answer preflights; no other route does", async () => {
    const index = await (await worker.fetch(`${WELL_KNOWN}index.json`)).json();
    const origin = { origin: "https://agent.example" };
    for (const p of [`${WELL_KNOWN}index.json`, `${WELL_KNOWN}${index.skills[0].url}`, `${WELL_KNOWN}missing.md`]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await worker.fetch(p, { method, headers: origin });
        assert.equal(res.headers.get("access-control-allow-origin"), "*", `${method} ${p}`);
        assert.match(res.headers.get("access-control-expose-headers") ?? "", /etag/i, `${method} ${p}`);
        await res.arrayBuffer();
      }
      const pre = await worker.fetch(p, { method: "OPTIONS", headers: { ...origin, "access-control-request-method": "GET", "access-control-request-headers": "if-none-match" } });
      assert.equal(pre.status, 204, `OPTIONS ${p}`);
      assert.equal(pre.headers.get("access-control-allow-origin"), "*");
      assert.match(pre.headers.get("access-control-allow-methods"), /\bGET\b.*\bHEAD\b/);
      assert.match(pre.headers.get("access-control-allow-headers"), /if-none-match/i);
      assert.equal((await pre.arrayBuffer()).byteLength, 0);
    }
    // Not the API routes, not the write routes (a preflight there gets no CORS answer either).
    for (const [p, init] of [["/catalog", {}], ["/status", {}], ["/tool", {}], ["/skills/alpha", { method: "OPTIONS" }], ["/refresh", { method: "POST" }], ["/skills/nope", { method: "DELETE" }], ["/mcp", { method: "OPTIONS" }]]) {
      const res = await worker.fetch(p, { ...init, headers: origin });
      assert.equal(res.headers.get("access-control-allow-origin"), null, `${init.method ?? "GET"} ${p}`);
      await res.arrayBuffer();
    }
  });

  test("WELL_KNOWN_CORS_ORIGINS names the origins that may read the well-known routes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-cors-"));
    const listed = await startExample({ persistDir: dir, vars: { WELL_KNOWN_CORS_ORIGINS: "https://a.example, https://b.example" } });
    const none = await startExample({ persistDir: dir, vars: { WELL_KNOWN_CORS_ORIGINS: "" } });
    try {
      const index = `${WELL_KNOWN}index.json`;
      const from = async (w, origin, method = "GET") => {
        const res = await w.fetch(index, { method, headers: { origin } });
        await res.arrayBuffer();
        return res;
      };
      let res = await from(listed, "https://b.example");
      assert.equal(res.headers.get("access-control-allow-origin"), "https://b.example");
      assert.match(res.headers.get("vary"), /origin/i);
      res = await from(listed, "https://evil.example");
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      assert.match(res.headers.get("vary"), /origin/i, "a cache keeps the answers per origin");
      res = await from(listed, "https://evil.example", "OPTIONS");
      assert.equal(res.status, 204);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      res = await from(none, "https://a.example");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
    } finally {
      await listed.dispose();
      await none.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a catalog budget outside 0..2^32-1, negative or no integer is a 400 with a JSON error", async () => {
    for (const key of ["budgetTokens", "budgetChars"]) {
      for (const bad of [String(2 ** 32), String(2 ** 40), "1e21", "99999999999999999999", "-1", "1.5", "x", "", "0x10", "Infinity"]) {
        const res = await worker.fetch(`/catalog?${key}=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 400, `${key}=${bad}: ${res.status}`);
        assert.match(res.headers.get("content-type"), /application\/json/);
        assert.match((await res.json()).error, new RegExp(key));
      }
      for (const good of ["0", "1000", String(2 ** 32 - 1)]) {
        const res = await worker.fetch(`/catalog?${key}=${good}`);
        assert.equal(res.status, 200, `${key}=${good}: ${res.status}`);
        await res.arrayBuffer();
      }
    }
  });

  test("an oversized upload over a socket is answered 413 however it is sent; nothing is written", async () => {
    const before = await storedKeys();
    const auth = { authorization: `Bearer ${WRITE_SECRET}` };
    const big = new Uint8Array(6 * MiB).fill(97);
    const url = new URL("/skills/oversized", worker.url);
    const encoded = multipart([{ rel: "SKILL.md", bytes: new TextEncoder().encode(skillMd("oversized")) }, { rel: "big.bin", bytes: big }]);
    const type = encoded.headers.get("content-type");
    const multipartBytes = new Uint8Array(await encoded.arrayBuffer());
    const chunked = (bytes, size = 64 * 1024) => new ReadableStream({
      start(c) {
        for (let at = 0; at < bytes.byteLength; at += size) c.enqueue(bytes.subarray(at, at + size));
        c.close();
      },
    });
    const cases = [
      ["multipart, FormData given to fetch", () => ({ body: (() => { const f = new FormData(); f.append("file", new Blob([skillMd("oversized")]), "SKILL.md"); f.append("file", new Blob([big]), "big.bin"); return f; })() })],
      ["multipart bytes with Content-Length", () => ({ headers: { "content-type": type }, body: multipartBytes })],
      ["multipart chunked, no Content-Length", () => ({ headers: { "content-type": type }, body: chunked(multipartBytes), duplex: "half" })],
      ["zip bytes with Content-Length", () => ({ headers: { "content-type": "application/zip" }, body: big })],
      ["zip chunked, no Content-Length", () => ({ headers: { "content-type": "application/zip" }, body: chunked(big), duplex: "half" })],
    ];
    for (const [label, init] of cases) {
      const i = init();
      let res;
      try {
        res = await fetch(url, { method: "POST", ...i, headers: { ...auth, ...i.headers } });
      } catch (e) {
        assert.fail(`${label}: the request failed (${e?.cause?.code ?? e?.cause?.message ?? e?.message}) instead of a 413`);
      }
      assert.equal(res.status, 413, `${label}: ${res.status}`);
      assert.match((await res.json()).error, /larger than/, label);
    }
    // The Worker still answers, and nothing of the refused uploads was stored.
    assert.equal((await fetch(new URL("/status", worker.url))).status, 200);
    assert.deepEqual(await storedKeys(), before);
  });
});

/** A Worker of its own over a fresh bucket, disposed after the test. */
async function ownWorker(t, options) {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-own-"));
  const w = await startExample({ persistDir: dir, ...options });
  t.after(async () => {
    await w.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  return w;
}

/** `files` ({ path: text }) posted to /skills/<dir> of `w` as multipart: { status, body }. */
async function post(w, dir, files) {
  const encoded = multipart(Object.entries(files).map(([rel, text]) => ({ rel, bytes: new TextEncoder().encode(text) })));
  const res = await w.fetch(`/skills/${dir}`, { method: "POST", headers: { "content-type": encoded.headers.get("content-type") }, body: new Uint8Array(await encoded.arrayBuffer()) });
  return { status: res.status, body: await res.json() };
}

test("an invalid VET or VET_SEVERITY: every route answers a JSON 500 naming it, the well-known routes keep their CORS headers and preflights", async (t) => {
  for (const [name, value] of [["VET", "bogus"], ["VET_SEVERITY", "extreme"]]) {
    const w = await ownWorker(t, { vars: { [name]: value } });
    const said = new RegExp(`${name} must be one of .*, not "${value}"`);
    assert.equal(w.first.status, 500, `${name}: /status`);
    assert.match(w.first.body.error, said);
    const origin = { origin: "https://agent.example" };
    for (const p of [`${WELL_KNOWN}index.json`, `${WELL_KNOWN}alpha/SKILL.md`]) {
      const pre = await w.fetch(p, { method: "OPTIONS", headers: { ...origin, "access-control-request-method": "GET" } });
      assert.equal(pre.status, 204, `${name}: OPTIONS ${p}`);
      assert.equal(pre.headers.get("access-control-allow-origin"), "*");
      await pre.arrayBuffer();
      const get = await w.fetch(p, { headers: origin });
      assert.equal(get.status, 500, `${name}: GET ${p}`);
      assert.match(get.headers.get("content-type"), /application\/json/);
      assert.equal(get.headers.get("access-control-allow-origin"), "*", `${name}: GET ${p} keeps its CORS headers`);
      assert.match((await get.json()).error, said);
      const head = await w.fetch(p, { method: "HEAD", headers: origin });
      assert.equal(head.status, 500, `${name}: HEAD ${p}`);
      assert.equal(head.headers.get("access-control-allow-origin"), "*");
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    }
    const catalog = await w.fetch("/catalog");
    assert.equal(catalog.status, 500);
    assert.match((await catalog.json()).error, said);
  }
});

test("VET=report: a vetting that could not read every file says so in the 201 answer (vetError)", async (t) => {
  // The package's vetting as the Worker sees it, with the error of a vetting beyond the limits.
  const shim = fileURLToPath(new URL("./support/worker-vet-incomplete.js", import.meta.url));
  const report = await ownWorker(t, { vars: { VET: "report" }, shim });
  const stored = await post(report, "tidy", { "SKILL.md": skillMd("tidy") });
  assert.equal(stored.status, 201, JSON.stringify(stored.body));
  assert.equal(stored.body.vetError?.code, "vet-incomplete", JSON.stringify(stored.body));
  assert.match(stored.body.vetError.message, /the first 512 were vetted/);
  // VET=refuse refuses such an upload, naming the same error.
  const refuse = await ownWorker(t, { shim });
  const refused = await post(refuse, "tidy", { "SKILL.md": skillMd("tidy") });
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.equal(refused.body.refusal.code, "vet-incomplete");
  // A vetting that read everything has no vetError.
  const plain = await ownWorker(t, { vars: { VET: "report" } });
  const clean = await post(plain, "tidy", { "SKILL.md": skillMd("tidy") });
  assert.equal(clean.status, 201);
  assert.equal(clean.body.vetError, undefined);
});

test("VET_SEVERITY=medium refuses an upload whose only finding is medium; the default (high) stores it with the finding listed", async (t) => {
  const pushy = { "SKILL.md": "---\nname: pushy\ndescription: Deletes old branches without asking.\n---\n# Pushy\n\nClean up.\n" };
  const strict = await ownWorker(t, { vars: { VET_SEVERITY: "medium" } });
  const refused = await post(strict, "pushy", pushy);
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.equal(refused.body.refusal.code, "vet-refused");
  assert.deepEqual(refused.body.findings.map((f) => f.level), ["medium"]);
  const bucket = await strict.mf.getR2Bucket("SKILLS");
  assert.deepEqual((await bucket.list({ prefix: "skills/pushy/" })).objects, [], "nothing written");
  const lenient = await ownWorker(t, {});
  const stored = await post(lenient, "pushy", pushy);
  assert.equal(stored.status, 201, JSON.stringify(stored.body));
  assert.deepEqual(stored.body.findings.map((f) => f.level), ["medium"]);
});
