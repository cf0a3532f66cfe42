// A tiny static file server on 127.0.0.1 (random port) for browser tests: mounts maps a URL
// prefix ("/pkg/") to a directory; extra maps exact paths to { type, body }.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".html": "text/html; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
};

export async function serveStatic(mounts, extra = {}) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const pathname = decodeURIComponent(url.pathname);
    if (Object.hasOwn(extra, pathname)) {
      res.writeHead(200, { "content-type": extra[pathname].type, "cache-control": "no-store" });
      res.end(extra[pathname].body);
      return;
    }
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!pathname.startsWith(prefix)) continue;
      const file = path.resolve(dir, pathname.slice(prefix.length));
      if (file !== dir && !file.startsWith(dir + path.sep)) break;
      let st;
      try {
        st = statSync(file);
      } catch {
        break;
      }
      if (!st.isFile()) break;
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "content-length": st.size,
        "cache-control": "no-store",
      });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
