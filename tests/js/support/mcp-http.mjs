// A fetch-shaped MCP handler (skillsMcpHandler) served by node:http on 127.0.0.1: each request
// becomes a web-standard Request and the Response is streamed back (JSON or SSE), for the MCP
// tests that need a real HTTP endpoint (the conformance suite, clients of other languages).
import { createServer } from "node:http";
import { Readable } from "node:stream";

/** Serves `handler` (`{ fetch(request) }`) at `http://127.0.0.1:<port>/mcp`: `{ url, close() }`. */
export async function serveHttp(handler) {
  const server = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === "string") headers.set(k, v);
        else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
      }
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const request = new Request(url, {
        method: req.method,
        headers,
        ...(req.method === "GET" || req.method === "HEAD" ? {} : { body }),
      });
      const response = url.pathname === "/mcp" ? await handler.fetch(request) : new Response("not found", { status: 404 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) Readable.fromWeb(response.body).pipe(res);
      else res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e?.message ?? e));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
