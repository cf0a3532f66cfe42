// A Worker that serves r2Storage (imported from the package's workerd entry) over fetch, with the
// R2 binding wrapped to count the calls that reach it. Loaded by workerd.mjs beside the package.
import { r2Storage, version } from "./workerd.js";

let counts;
function reset() {
  counts = { list: 0, get: 0, head: 0, put: 0, listLimits: [], getRanges: [], bytesFromR2: 0 };
}
reset();

function counted(bucket) {
  return {
    list(options) {
      counts.list++;
      counts.listLimits.push(options?.limit ?? null);
      return bucket.list(options);
    },
    async get(key, options) {
      counts.get++;
      counts.getRanges.push(options?.range ?? null);
      const obj = await bucket.get(key, options);
      if (obj === null) return null;
      return {
        size: obj.size,
        async arrayBuffer() {
          const b = await obj.arrayBuffer();
          counts.bytesFromR2 += b.byteLength;
          return b;
        },
      };
    },
    head(key) {
      counts.head++;
      return bucket.head(key);
    },
  };
}

function bytesToBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/counts") return Response.json(counts);
    if (url.pathname === "/reset") {
      reset();
      return Response.json(counts);
    }
    if (url.pathname === "/version") return new Response(version());
    const body = await request.json();
    if (url.pathname === "/seed") {
      // body: { prefix, count, size }: synthetic objects written from inside the Worker.
      const keys = [];
      for (let i = 0; i < body.count; i++) keys.push(`${body.prefix}d${String(i).padStart(5, "0")}/SKILL.md`);
      for (let i = 0; i < keys.length; i += 100) {
        await Promise.all(keys.slice(i, i + 100).map((k) => env.SKILLS.put(k, "x".repeat(body.size ?? 8))));
      }
      return Response.json({ written: keys.length });
    }
    try {
      const storage = r2Storage(counted(env.SKILLS), { ...body.options, prefix: body.root ?? "" });
      if (url.pathname === "/list") {
        return Response.json({ ok: await storage.list(body.prefix, body.opts) });
      }
      if (url.pathname === "/read") {
        const bytes = await storage.read(body.key, body.opts);
        if (bytes === null) return Response.json({ ok: null });
        return Response.json({
          ok: { base64: bytesToBase64(bytes), type: Object.prototype.toString.call(bytes) },
        });
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: { name: e?.name ?? "Error", message: String(e?.message ?? e), code: e?.code } });
    }
  },
};
