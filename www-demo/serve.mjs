#!/usr/bin/env node
// The playground's static server (node:http, no dependencies), on 127.0.0.1:
//   /             www-demo/ (index.html, app.js, style.css, and the views' modules in ui/)
//   /pkg/         the built package (make build writes it to pkg/; SKILLWASM_PKG points elsewhere)
//   /examples/    the repository's examples/ folder, and /examples/index.json: every file of the
//                 bundled example skills (examples/skills, examples/extended, examples/broken),
//                 listed when asked, so a new example shows up without a build step.
//
//   node www-demo/serve.mjs [port]     (or PORT=...; default 8080; 0 picks a free port)
import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..");

/** The example groups the page offers, in order. */
export const EXAMPLE_GROUPS = ["skills", "extended", "broken"];

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".md": "text/markdown; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

// A file manager's leftovers, never served as an example's file.
const JUNK = new Set([".DS_Store"]);

/**
 * The package's naming rules (isSkippedDirectory, skillFileNames), from the built package that
 * the page uses too; null when it is not built.
 * @param {string} pkgDir
 */
export async function packageRules(pkgDir) {
  if (!existsSync(path.join(pkgDir, "node.js"))) return null;
  const pkg = await import(pathToFileURL(path.join(pkgDir, "node.js")).href);
  return { isSkippedDirectory: pkg.isSkippedDirectory, skillFileNames: pkg.skillFileNames({ acceptLowercaseSkillMd: true }) };
}

/** Every file under dir, as `/`-separated paths relative to it, sorted; skipped directories left out. */
function walk(dir, rules, rel = "") {
  const out = [];
  let names;
  try {
    names = readdirSync(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of names) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory() && !rules.isSkippedDirectory(d.name)) out.push(...walk(dir, rules, r));
    else if (d.isFile() && !JUNK.has(d.name)) out.push(r);
  }
  return out.sort();
}

/**
 * The bundled examples: { groups: [{ group, skills: [{ dir, files: [{ path, size }] }] }] }, where
 * a skill is a directory of examples/<group>/ holding a SKILL.md (or skill.md), and paths are
 * relative to it. `rules`: see packageRules.
 */
export function exampleIndex(examplesDir, rules) {
  const groups = [];
  for (const group of EXAMPLE_GROUPS) {
    const gdir = path.join(examplesDir, group);
    if (!existsSync(gdir)) continue;
    const skills = [];
    for (const d of readdirSync(gdir, { withFileTypes: true })) {
      if (!d.isDirectory() || rules.isSkippedDirectory(d.name)) continue;
      const sdir = path.join(gdir, d.name);
      const files = walk(sdir, rules).map((p) => ({ path: p, size: statSync(path.join(sdir, p)).size }));
      if (files.some((f) => rules.skillFileNames.includes(f.path))) skills.push({ dir: d.name, files });
    }
    skills.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
    groups.push({ group, skills });
  }
  return { groups };
}

/** The file under `dir` that `rel` names, or null when it leaves dir or is not a file. */
function resolveIn(dir, rel) {
  const file = path.resolve(dir, "." + path.posix.normalize("/" + rel));
  if (file !== dir && !file.startsWith(dir + path.sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * An http.Server for the playground (not listening yet).
 * @param {{ pkgDir?: string; examplesDir?: string; demoDir?: string }} [options]
 */
export function createPlaygroundServer(options = {}) {
  const demoDir = path.resolve(options.demoDir ?? HERE);
  const pkgDir = path.resolve(options.pkgDir ?? process.env.SKILLWASM_PKG ?? path.join(REPO, "pkg"));
  const examplesDir = path.resolve(options.examplesDir ?? path.join(REPO, "examples"));
  const mounts = [
    ["/pkg/", pkgDir],
    ["/examples/", examplesDir],
    ["/", demoDir],
  ];

  let rules;
  return createServer(async (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "text/plain", "method not allowed");
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    } catch {
      return send(400, "text/plain", "bad request");
    }
    if (pathname.includes("\0")) return send(400, "text/plain", "bad request");
    if (pathname === "/examples/index.json") {
      rules ??= await packageRules(pkgDir).catch(() => null);
      if (rules === null) return send(404, "text/plain", "the package is not built: run `make build` first");
      return send(200, TYPES[".json"], JSON.stringify(exampleIndex(examplesDir, rules)));
    }
    if (pathname === "/") pathname = "/index.html";
    for (const [prefix, dir] of mounts) {
      if (!pathname.startsWith(prefix)) continue;
      const rel = pathname.slice(prefix.length);
      // The demo's own folder serves only its page and the modules in ui/, not this script or
      // the README.
      if (prefix === "/" && !/^(ui\/)?[\w-]+\.(html|js|css|svg|png)$/.test(rel)) break;
      const file = resolveIn(dir, rel);
      if (file === null) break;
      const size = statSync(file).size;
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "content-length": size,
        "cache-control": "no-store",
      });
      if (req.method === "HEAD") return res.end();
      createReadStream(file).pipe(res);
      return;
    }
    if (pathname.startsWith("/pkg/") && !existsSync(path.join(pkgDir, "browser.js"))) {
      return send(404, "text/plain", "the package is not built: run `make build` first");
    }
    send(404, "text/plain", "not found");
  });
}

/**
 * Listen on 127.0.0.1:port (0: a free port). Resolves to { url, port, server, close() }.
 * @param {{ port?: number; host?: string } & Parameters<typeof createPlaygroundServer>[0]} [options]
 */
export async function startPlayground(options = {}) {
  const server = createPlaygroundServer(options);
  const host = options.host ?? "127.0.0.1";
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8080, host, resolve);
  });
  const { port } = server.address();
  return {
    url: `http://${host}:${port}/`,
    port,
    server,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function portFrom(value) {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`serve.mjs: not a port: ${value}`);
    process.exit(2);
  }
  return n;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = portFrom(process.argv[2]) ?? portFrom(process.env.PORT) ?? 8080;
  const pkgDir = path.resolve(process.env.SKILLWASM_PKG ?? path.join(REPO, "pkg"));
  if (!existsSync(path.join(pkgDir, "browser.js")) || !existsSync(path.join(pkgDir, "skillwasm_bg.wasm"))) {
    console.error("serve.mjs: the package is not built (no pkg/browser.js): run `make build` first");
    process.exit(1);
  }
  startPlayground({ port, pkgDir }).then(
    ({ url }) => console.log(`skillwasm playground: ${url} (Ctrl-C to stop)`),
    (err) => {
      console.error(`serve.mjs: ${err.message}`);
      process.exit(1);
    },
  );
}
