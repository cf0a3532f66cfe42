// A real HTTP server on 127.0.0.1 for discovery indexes: fixed routes, ETags with 304 answers to
// If-None-Match, and every request counted by path.
import { createHash } from "node:crypto";
import { createServer } from "node:http";

const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

/** A server of `routes` (path -> { body, type }), answering If-None-Match with 304, counting requests. */
export async function serve(routes) {
  const hits = new Map();
  const server = createServer((req, res) => {
    const p = new URL(req.url, "http://127.0.0.1").pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const r = routes.get(p);
    if (!r) {
      res.writeHead(404).end("not found");
      return;
    }
    const etag = `"${sha(r.body).slice(7, 23)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { "content-type": r.type ?? "application/octet-stream", etag }).end(Buffer.from(r.body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const count = (pred = () => true) => [...hits].filter(([p]) => pred(p)).reduce((n, [, c]) => n + c, 0);
  return {
    url, routes, hits, count,
    artifacts: () => count((p) => !p.endsWith("/index.json")),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Routes serving a publishWellKnown result at /.well-known/agent-skills/. */
export function routesOf(published) {
  const routes = new Map([["/.well-known/agent-skills/index.json", { body: published.index, type: "application/json" }]]);
  for (const a of published.artifacts) routes.set(`/.well-known/agent-skills/${a.path}`, { body: a.bytes, type: a.contentType });
  return routes;
}
