// The Worker bench/scale-workerd.mjs runs in workerd: a registry started from a snapshot kept in
// R2, with the package's workerd entry. Loaded beside the package files (tests/js/support/
// workerd.mjs's packageModules). Routes take and return JSON; times are performance.now() inside
// the Worker, memory the core module's `memory.buffer.byteLength` (it never shrinks).
//
//   POST /run      { key, budgetTokens, first, queries }  one request as a Worker serves it: one R2
//                  get of the snapshot, fromSnapshot, the first budgeted catalog, the first search,
//                  then the other searches; the registry is freed at the end
//   POST /anatomy  { key, budgetTokens, first }  the same steps untimed, with the bytes the
//                  allocator holds (memory less what it has free) after each
//   POST /start    { key }  get + fromSnapshot, the registry kept for /search (a shard)
//   POST /search   { query, limit }  a search of the kept registry
//   POST /fanout   { query, limit }  (the front) the search sent to both shards (service bindings
//                  SHARD_A and SHARD_B) at once, the answers merged by score
import { SkillRegistry, r2Storage, renderCatalog } from "./workerd.js";
import * as glue from "./skillwasm.js";

/** The scope the snapshots were taken with (bench/synthetic.mjs's SCOPE); the skills are not read. */
const options = (bucket) => ({ scopes: [{ name: "builtin", storage: r2Storage(bucket, { prefix: "registry/" }), roots: ["skills/"] }] });

/** The core module's exports (the package instantiated it at import). */
const core = () => glue.initSync();
const memoryBytes = () => core().memory.buffer.byteLength;

/**
 * The bytes the allocator holds: the memory less what it has free, found by allocating blocks of
 * 16 KiB until one grows the memory, then freeing them all (free runs shorter than a block count
 * as held). It grows the memory by one step, so it runs only where that is no figure.
 */
function heldBytes() {
  const wasm = core();
  const before = wasm.memory.buffer.byteLength;
  const BLOCK = 16384;
  const blocks = [];
  for (;;) {
    blocks.push(wasm.__wbindgen_malloc(BLOCK, 8));
    if (wasm.memory.buffer.byteLength !== before) break;
  }
  for (const p of blocks) wasm.__wbindgen_free(p, BLOCK, 8);
  return before - (blocks.length - 1) * BLOCK;
}

async function getSnapshot(bucket, key) {
  const obj = await bucket.get(key);
  if (obj === null) throw new Error(`no snapshot at ${key}`);
  return new Uint8Array(await obj.arrayBuffer());
}

async function run(body, env) {
  const memory = { start: memoryBytes() };
  const t0 = performance.now();
  let bytes = await getSnapshot(env.SKILLS, body.key);
  const t1 = performance.now();
  const reg = SkillRegistry.fromSnapshot(bytes, options(env.SKILLS));
  const t2 = performance.now();
  memory.fromSnapshot = memoryBytes();
  const snapshotBytes = bytes.length;
  bytes = null;
  try {
    const catalog = renderCatalog(reg, { budgetTokens: body.budgetTokens });
    const t3 = performance.now();
    const hits = reg.search(body.first, { limit: 10 });
    const t4 = performance.now();
    memory.firstCatalogAndSearch = memoryBytes();
    // The Worker's clock counts whole milliseconds: the searches are timed together.
    for (const q of body.queries) reg.search(q, { limit: 10 });
    const t5 = performance.now();
    memory.afterSearches = memoryBytes();
    return {
      snapshotBytes,
      skills: reg.names().length,
      catalog: { skills: catalog.skills.length, chars: catalog.text?.length ?? 0 },
      first: hits.slice(0, 3).map((h) => h.name),
      ms: { get: t1 - t0, fromSnapshot: t2 - t1, firstCatalog: t3 - t2, firstSearch: t4 - t3, laterMean: (t5 - t4) / Math.max(1, body.queries.length) },
      memory,
    };
  } finally {
    reg.free();
  }
}

async function anatomy(body, env) {
  const held = { start: heldBytes() };
  const bytes = await getSnapshot(env.SKILLS, body.key);
  const reg = SkillRegistry.fromSnapshot(bytes, options(env.SKILLS));
  held.fromSnapshot = heldBytes();
  try {
    renderCatalog(reg, { budgetTokens: body.budgetTokens });
    held.firstCatalog = heldBytes();
    reg.search(body.first, { limit: 10 });
    held.firstSearch = heldBytes();
  } finally {
    reg.free();
  }
  held.freed = heldBytes();
  return { held, memory: memoryBytes() };
}

/** The shard's registry, kept between requests. */
let kept = null;

async function start(body, env) {
  kept?.free();
  kept = null;
  const memoryStart = memoryBytes();
  const t0 = performance.now();
  const bytes = await getSnapshot(env.SKILLS, body.key);
  const t1 = performance.now();
  kept = SkillRegistry.fromSnapshot(bytes, options(env.SKILLS));
  const t2 = performance.now();
  const names = kept.names();
  return {
    snapshotBytes: bytes.length,
    skills: names.length,
    range: [names[0], names.at(-1)],
    ms: { get: t1 - t0, fromSnapshot: t2 - t1 },
    memory: { start: memoryStart, fromSnapshot: memoryBytes() },
  };
}

function search(body) {
  if (kept === null) throw new Error("no registry started: POST /start first");
  const t0 = performance.now();
  const hits = kept.search(body.query, { limit: body.limit });
  const ms = performance.now() - t0;
  return { hits: hits.map((h) => ({ name: h.name, score: h.score })), ms, memory: memoryBytes() };
}

async function fanout(body, env) {
  const ask = async (shard) => {
    const res = await shard.fetch("http://shard/search", { method: "POST", body: JSON.stringify(body) });
    const reply = await res.json();
    if (reply.error) throw new Error(reply.error.message);
    return reply.ok;
  };
  const t0 = performance.now();
  const shards = await Promise.all([ask(env.SHARD_A), ask(env.SHARD_B)]);
  const merged = shards
    .flatMap((s) => s.hits)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, body.limit);
  const ms = performance.now() - t0;
  return { names: merged.map((h) => h.name), ms, shards: shards.map((s) => ({ ms: s.ms, memory: s.memory })) };
}

const ROUTES = { "/run": run, "/anatomy": anatomy, "/start": start, "/search": search, "/fanout": fanout };

export default {
  async fetch(request, env) {
    const route = ROUTES[new URL(request.url).pathname];
    if (!route) return new Response("not found", { status: 404 });
    try {
      return Response.json({ ok: await route(await request.json(), env) });
    } catch (e) {
      return Response.json({ error: { name: e?.name ?? "Error", message: String(e?.stack ?? e?.message ?? e) } });
    }
  },
};
