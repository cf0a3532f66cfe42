// A real HTTP server on 127.0.0.1 whose answers a test writes itself (hang, stall mid-body,
// redirect, lie), recording every request: its path, the headers it carried, and whether the
// server saw its connection closed. Two of them are two origins.
import { createHash } from "node:crypto";
import { createServer } from "node:http";

export const sha = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;
export const skillMd = (name, body = "Body.") => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}\n`;
export const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
export const INDEX = "/.well-known/agent-skills/index.json";

/**
 * A server answering with `handle(req, res, seen)` (a route table: path -> handler; a path with no
 * handler is a 404). `requests` records `{ path, headers, closed }` of each request; `closed`
 * becomes true when the server sees the connection go, and `seen.gone` resolves then.
 */
export async function edgeServer(routes = new Map()) {
  const requests = [];
  const server = createServer((req, res) => {
    const seen = { path: new URL(req.url, "http://127.0.0.1").pathname, headers: { ...req.headers }, closed: false };
    seen.gone = new Promise((resolve) => req.socket.once("close", () => { seen.closed = true; resolve(); }));
    requests.push(seen);
    const handle = routes.get(seen.path);
    if (!handle) res.writeHead(404).end("not found");
    else handle(req, res, seen);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url, routes, requests,
    /** The requests of `path`. */
    to: (path) => requests.filter((r) => r.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A handler answering `body` (200, or `status`), with `headers`. */
export const answer = (body, headers = {}, status = 200) => (req, res) => {
  res.writeHead(status, { "content-length": Buffer.byteLength(body), ...headers }).end(body);
};

/** A handler redirecting to `location` with `status`. */
export const redirect = (location, status = 302) => (req, res) => {
  res.writeHead(status, { location, "content-length": 0 }).end();
};

/** A handler that never answers. */
export const hang = () => () => {};

/** A handler that sends the headers of `body` and its first `n` bytes, then nothing more. */
export const stallAfter = (body, n) => (req, res) => {
  res.writeHead(200, { "content-length": Buffer.byteLength(body) });
  res.write(Buffer.from(body).subarray(0, n));
};

/** A v0.2.0 index of `entries` ({ name, url, bytes }: a skill-md entry with the digest of bytes). */
export function indexOf(entries) {
  return JSON.stringify({
    $schema: SCHEMA,
    skills: entries.map((e) => ({ name: e.name, type: "skill-md", description: `The ${e.name} skill.`, url: e.url, digest: sha(e.bytes) })),
  });
}
