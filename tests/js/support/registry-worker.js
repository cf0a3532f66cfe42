// A Worker that runs SkillRegistry (from the package's workerd entry) over r2Storage on the real
// R2 binding, counting every bucket call that the registry causes. Loaded by workerd.mjs beside
// the package files (`startWorker({ script: "registry-worker.js" })`). Routes take and return JSON:
//
//   POST /discover        { root, roots, options, snapshotKey?, keep?, metas? }
//   POST /from-snapshot   { root, roots, options, snapshotKey, keep?, metas? }
//   POST /read            { id, reads: [[name, relPath | null], ...] }
//   POST /refresh         { id }
//   POST /search          { id, queries: [string], limit? } -> the names found, per query
//   POST /faulty          { root, roots, options, throwKey, hangKey }
//   POST /put             { key, text }
//   POST /pinned          { root, roots, lock? } -> a lockfile of the skills, the pin diagnostics
//                         and the names the model is offered, with `lock` checked when given
//   GET  /version
//
// Each answer carries `r2` (the bucket calls of that step) and `ms` (Date.now and
// performance.now around it, measured inside the Worker).
import { SkillRegistry, SkillTool, r2Storage, version } from "./workerd.js";

/** Registries kept between requests (a registry started in one request, refreshed in another). */
const kept = new Map();

function newCounts() {
  const counts = { list: 0, get: 0, head: 0, getRanges: [] };
  // Gets under way and the most at once (not enumerable: the answers spread the counts).
  Object.defineProperty(counts, "flight", { value: { now: 0, max: 0 }, enumerable: false });
  return counts;
}

/**
 * The binding, wrapped to count calls. `faults` maps a full object key to "throw" (get throws at
 * once) or "hang" (get never answers).
 */
function counting(bucket, counts, faults = {}) {
  return {
    list(options) {
      counts.list++;
      return bucket.list(options);
    },
    get(key, options) {
      counts.get++;
      counts.getRanges.push(options?.range ? options.range.length : null);
      if (faults[key] === "throw") throw new Error(`injected failure for ${key}`);
      if (faults[key] === "hang") return new Promise(() => {});
      const flight = counts.flight;
      flight.now++;
      flight.max = Math.max(flight.max, flight.now);
      return Promise.resolve(bucket.get(key, options)).finally(() => flight.now--);
    },
    head(key) {
      counts.head++;
      return bucket.head(key);
    },
  };
}

function clock() {
  const perf = typeof performance !== "undefined" && typeof performance.now === "function";
  const d0 = Date.now();
  const p0 = perf ? performance.now() : null;
  return () => ({ date: Date.now() - d0, perf: perf ? performance.now() - p0 : null });
}

function options(body, storage) {
  return { ...(body.options ?? {}), scopes: [{ name: "builtin", storage, roots: body.roots }] };
}

function summary(reg) {
  const diagnostics = reg.diagnostics();
  const errors = diagnostics.filter((d) => d.severity === "error" && d.path);
  return {
    names: reg.names().length,
    across: reg.listMetasAcross().length,
    refused: new Set(errors.map((d) => d.path)).size,
    refusedPaths: [...new Set(errors.map((d) => d.path))].sort(),
    diagnostics: diagnostics.length,
    locations: reg.listMetasAcross().map((m) => m.location).sort(),
    stats: reg.stats(),
  };
}

/** readFile with the bucket calls it caused. */
async function readCounted(reg, counts, name, rel) {
  const before = { list: counts.list, get: counts.get, head: counts.head };
  const result = rel === undefined ? await reg.readFile(name) : await reg.readFile(name, rel);
  const r2 = { list: counts.list - before.list, get: counts.get - before.get, head: counts.head - before.head };
  const out = { name, rel: rel ?? null, r2, path: result.path, size: result.size, error: result.error ?? null };
  if (result.text !== undefined) out.text = result.text;
  if (result.bytes !== undefined) out.bytes = result.bytes.length;
  return out;
}

async function discover(body, env) {
  const counts = newCounts();
  const storage = r2Storage(counting(env.SKILLS, counts), { prefix: body.root });
  const t = clock();
  const reg = await SkillRegistry.discover(options(body, storage));
  const ms = t();
  const r2 = { ...counts, getRanges: undefined };
  const out = { ...summary(reg), r2, ranges: counts.getRanges, maxGetsInFlight: counts.flight.max, ms };
  if (body.metas) out.metas = reg.listMetas();
  if (body.snapshotKey) {
    const bytes = reg.snapshot();
    await env.SKILLS.put(body.snapshotKey, bytes);
    out.snapshotBytes = bytes.length;
  }
  if (body.keep) kept.set(body.keep, { reg, counts });
  return out;
}

async function fromSnapshot(body, env) {
  const counts = newCounts();
  const bucket = counting(env.SKILLS, counts);
  const t = clock();
  const obj = await bucket.get(body.snapshotKey);
  if (obj === null) throw new Error(`no snapshot at ${body.snapshotKey}`);
  const bytes = new Uint8Array(await obj.arrayBuffer());
  const reg = SkillRegistry.fromSnapshot(bytes, options(body, r2Storage(bucket, { prefix: body.root })));
  const metas = reg.listMetas();
  const ms = t();
  const out = { ...summary(reg), r2: { ...counts, getRanges: undefined }, ms, snapshotBytes: bytes.length, metaCount: metas.length };
  if (body.metas) out.metas = metas;
  if (body.keep) kept.set(body.keep, { reg, counts });
  return out;
}

async function reads(body) {
  const entry = kept.get(body.id);
  if (!entry) throw new Error(`no registry kept as ${body.id}`);
  const out = [];
  for (const [name, rel] of body.reads) out.push(await readCounted(entry.reg, entry.counts, name, rel ?? undefined));
  return out;
}

async function refresh(body) {
  const entry = kept.get(body.id);
  if (!entry) throw new Error(`no registry kept as ${body.id}`);
  const { reg, counts } = entry;
  const before = { list: counts.list, get: counts.get, head: counts.head };
  const t = clock();
  const report = await reg.refresh();
  const ms = t();
  const r2 = { list: counts.list - before.list, get: counts.get - before.get, head: counts.head - before.head };
  return { report, r2, ms, ...summary(reg) };
}

function search(body) {
  const entry = kept.get(body.id);
  if (!entry) throw new Error(`no registry kept as ${body.id}`);
  const before = { list: entry.counts.list, get: entry.counts.get, head: entry.counts.head };
  const found = body.queries.map((q) => entry.reg.search(q, { limit: body.limit ?? 5 }).map((h) => h.name));
  const r2 = { list: entry.counts.list - before.list, get: entry.counts.get - before.get, head: entry.counts.head - before.head };
  return { found, r2 };
}

async function faulty(body, env) {
  const counts = newCounts();
  const faults = { [body.root + body.throwKey]: "throw", [body.root + body.hangKey]: "hang" };
  const storage = r2Storage(counting(env.SKILLS, counts, faults), { prefix: body.root });
  const t = clock();
  const reg = await SkillRegistry.discover(options(body, storage));
  const ms = t();
  const byPath = {};
  for (const d of reg.diagnostics()) {
    if (d.path && d.severity === "error") (byPath[d.path] ??= []).push({ code: d.code, message: d.message });
  }
  // The registry keeps answering after the faults.
  const first = reg.names()[0];
  const body0 = first === undefined ? null : await reg.readFile(first);
  return {
    ...summary(reg),
    errors: byPath,
    r2: { ...counts, getRanges: undefined },
    ms,
    afterwards: body0 ? { name: first, ok: typeof body0.text === "string" && !body0.error } : null,
  };
}

/** Discovery over R2 with a lockfile (or none): what it pins, refuses and reports. */
async function pinned(body, env) {
  const storage = r2Storage(env.SKILLS, { prefix: body.root });
  const reg = await SkillRegistry.discover(body.lock ? { ...options(body, storage), lock: body.lock } : options(body, storage));
  try {
    const { lockfile } = await reg.lockfile();
    const pins = reg.diagnostics().filter((d) => d.code.startsWith("skill-pin") || d.code === "skill-unpinned");
    // What the model is offered: the skill tool's names.
    const tool = new SkillTool(reg);
    const names = tool.definition().inputSchema.properties.name.enum;
    tool.free();
    return { lockfile, pins, names };
  } finally {
    reg.free();
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/version") return new Response(version());
    try {
      const body = await request.json();
      switch (url.pathname) {
        case "/discover":
          return Response.json({ ok: await discover(body, env) });
        case "/from-snapshot":
          return Response.json({ ok: await fromSnapshot(body, env) });
        case "/read":
          return Response.json({ ok: await reads(body) });
        case "/refresh":
          return Response.json({ ok: await refresh(body) });
        case "/search":
          return Response.json({ ok: search(body) });
        case "/faulty":
          return Response.json({ ok: await faulty(body, env) });
        case "/pinned":
          return Response.json({ ok: await pinned(body, env) });
        case "/put":
          await env.SKILLS.put(body.key, body.text);
          return Response.json({ ok: true });
        default:
          return new Response("not found", { status: 404 });
      }
    } catch (e) {
      return Response.json({ error: { name: e?.name ?? "Error", message: String(e?.stack ?? e?.message ?? e) } });
    }
  },
};
