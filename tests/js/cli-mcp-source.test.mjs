// The CLI's MCP source (cli-mcp-source.js) against servers of the official SDK on 127.0.0.1 and
// over stdio: how a command line is split into words, how long closing a session may take, and
// how often a pinned server is connected to and discovered within one command.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";
import { SKILL, STDIO_SERVER, lockOf, quote, sw, writeTree } from "./support/cli-lock.mjs";
import { serveHttp } from "./support/mcp-http.mjs";

const { SkillRegistry, nodeFsStorage } = await importPkg();
const { skillsMcpHandler } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);

/** A temporary directory removed after the test. */
function tempDir(t, label) {
  const dir = mkdtempSync(path.join(tmpdir(), `skillwasm-cli-mcp-${label}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The skills of `dir` served over Streamable HTTP by the package's handler. */
async function servedOver(t, dir, wrap = (h) => h) {
  const registry = await SkillRegistry.discover({ scopes: [{ name: "served", storage: nodeFsStorage(dir), roots: [""], trusted: true }] });
  const http = await serveHttp(wrap(skillsMcpHandler(registry)));
  t.after(() => http.close());
  return http;
}

test("closing an HTTP session is bounded: a server that never answers the DELETE does not hold add", async (t) => {
  const tmp = tempDir(t, "close");
  writeTree(path.join(tmp, "served", "csv-profile"), SKILL);
  let deletes = 0;
  // A server that gives a session and never answers its end.
  const http = await servedOver(t, path.join(tmp, "served"), (handler) => ({
    async fetch(request) {
      if (request.method === "DELETE") {
        deletes++;
        return new Promise(() => {});
      }
      const res = await handler.fetch(request);
      const headers = new Headers(res.headers);
      headers.set("mcp-session-id", "session-1");
      return new Response(res.body, { status: res.status, headers });
    },
  }));
  const project = path.join(tmp, "project");
  mkdirSync(project);
  const added = await sw(project, "add", `mcp+${http.url}`, "--name", "csv-profile", "--json");
  assert.equal(added.status, 0, added.stderr);
  assert.equal(deletes, 1, "the session's end was asked for");
  assert.ok(added.ms < 30_000, `add returns once closing the session times out (${added.ms} ms)`);
  assert.equal(lockOf(project).skills[0].name, "csv-profile");
});

/**
 * `handler` with each JSON-RPC request counted by method (`counts`), and with `edit(method,
 * result)` applied to every result it answers (JSON or an SSE stream of one message).
 */
function watched(handler, counts, edit = (_m, r) => r) {
  return {
    async fetch(request) {
      if (request.method !== "POST") return handler.fetch(request);
      const body = await request.text();
      const message = JSON.parse(body);
      counts[message.method] = (counts[message.method] ?? 0) + 1;
      const res = await handler.fetch(new Request(request.url, { method: "POST", headers: request.headers, body }));
      const type = res.headers.get("content-type") ?? "";
      const text = await res.text();
      const rewrite = (json) => {
        const m = JSON.parse(json);
        if (m.result !== undefined) m.result = edit(message.method, m.result);
        return JSON.stringify(m);
      };
      let out = text;
      if (type.includes("application/json") && text !== "") out = rewrite(text);
      else if (type.includes("text/event-stream")) out = text.replace(/^data: (.*)$/gm, (_, d) => `data: ${rewrite(d)}`);
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      return new Response(out, { status: res.status, headers });
    },
  };
}

test("a pinned skill is found by its entry's URI when listed, and by loading its URI when the server no longer lists it", async (t) => {
  const tmp = tempDir(t, "uri");
  writeTree(path.join(tmp, "served", "csv-profile"), SKILL);
  writeTree(path.join(tmp, "served", "notes"), { "SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\n" });
  const counts = {};
  let hide = false;
  const http = await servedOver(t, path.join(tmp, "served"), (handler) => watched(handler, counts, (method, result) => {
    if (method === "skills/list" && hide) result.skills = result.skills.filter((s) => !String(s.uri).includes("csv-profile"));
    return result;
  }));
  const project = path.join(tmp, "project");
  mkdirSync(project);
  assert.equal((await sw(project, "add", `mcp+${http.url}`, "--name", "csv-profile")).status, 0);
  const fresh = path.join(tmp, "fresh");
  mkdirSync(fresh);
  writeFileSync(path.join(fresh, "skills-lock.json"), JSON.stringify(lockOf(project)));

  for (const k of Object.keys(counts)) delete counts[k];
  const listed = await sw(fresh, "install", "--frozen");
  assert.equal(listed.status, 0, listed.stdout + listed.stderr);
  assert.equal(counts["skills/get"] ?? 0, 0, `a listed skill is found without asking for it: ${JSON.stringify(counts)}`);

  hide = true;
  rmSync(path.join(fresh, ".agents"), { recursive: true });
  for (const k of Object.keys(counts)) delete counts[k];
  const unlisted = await sw(fresh, "install", "--frozen");
  assert.equal(unlisted.status, 0, unlisted.stdout + unlisted.stderr);
  assert.match(unlisted.stdout, /installed csv-profile \(3 files\)/);
  assert.ok(counts["skills/get"] >= 1, `asked for by its URI: ${JSON.stringify(counts)}`);
  assert.deepEqual(lockOf(fresh), lockOf(project), "the same pin, URI and all");

  // A URI the server neither lists nor serves.
  const lock = lockOf(project);
  lock.skills[0].source.uri = "skill://no-such/SKILL.md";
  writeFileSync(path.join(fresh, "skills-lock.json"), JSON.stringify(lock));
  const missing = await sw(fresh, "install", "--frozen");
  assert.equal(missing.status, 1);
  assert.match(missing.stdout, /failed csv-profile: .* has no skill skill:\/\/no-such\/SKILL\.md/);
});

test("one command connects to and discovers each pinned server once, however many skills it pins, and closes it", async (t) => {
  const tmp = tempDir(t, "session");
  const served = path.join(tmp, "served");
  writeTree(path.join(served, "csv-profile"), SKILL);
  writeTree(path.join(served, "notes"), { "SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\n" });
  const counts = {};
  let deletes = 0;
  const http = await servedOver(t, served, (handler) => {
    const inner = watched(handler, counts);
    return { fetch: (request) => (request.method === "DELETE" ? (deletes++, handler.fetch(request)) : inner.fetch(request)) };
  });
  const stdio = `mcp+stdio:${quote(process.execPath)} ${quote(STDIO_SERVER)} ${quote(served)}`;
  for (const [label, spec] of [["http", `mcp+${http.url}`], ["stdio", stdio]]) {
    const project = path.join(tmp, `project-${label}`);
    mkdirSync(project);
    for (const name of ["csv-profile", "notes"]) assert.equal((await sw(project, "add", spec, "--name", name)).status, 0, `${label} ${name}`);
    assert.equal(lockOf(project).skills.length, 2);
    const fresh = path.join(tmp, `fresh-${label}`);
    mkdirSync(fresh);
    writeFileSync(path.join(fresh, "skills-lock.json"), JSON.stringify(lockOf(project)));
    for (const k of Object.keys(counts)) delete counts[k];
    const installed = await sw(fresh, "install", "--frozen", ...(label === "stdio" ? ["--allow-stdio"] : []));
    assert.equal(installed.status, 0, installed.stdout + installed.stderr);
    assert.match(installed.stdout, /installed csv-profile \(3 files\)\ninstalled notes \(1 file\)/);
    if (label === "http") {
      assert.equal(counts.initialize, 1, `one connection: ${JSON.stringify(counts)}`);
      assert.equal(counts["skills/list"], 1, `one discovery: ${JSON.stringify(counts)}`);
    } else {
      assert.equal(installed.stderr.match(/running the MCP server/g)?.length, 1, installed.stderr);
    }
    for (const k of Object.keys(counts)) delete counts[k];
    const updated = await sw(fresh, "update", "--json", ...(label === "stdio" ? ["--allow-stdio"] : []));
    assert.equal(updated.status, 0, updated.stderr);
    assert.deepEqual(JSON.parse(updated.stdout).skills.map((s) => s.name), ["csv-profile", "notes"]);
    if (label === "http") assert.equal(counts.initialize, 1, `one connection: ${JSON.stringify(counts)}`);
    else assert.equal(updated.stderr.match(/running the MCP server/g)?.length, 1, updated.stderr);
  }
});

test("commandWords splits a command line as a shell does, expanding nothing", async () => {
  const { commandWords } = await import(pathToFileURL(path.join(PKG, "cli-mcp-source.js")).href);
  const cases = [
    ["node serve.mjs", ["node", "serve.mjs"]],
    ["  node\tserve.mjs \n --port 3 ", ["node", "serve.mjs", "--port", "3"]],
    ['node "my server.mjs"', ["node", "my server.mjs"]],
    ['echo "a \\"quoted\\" word"', ["echo", 'a "quoted" word']],
    ['echo "back\\\\slash" "keep \\n and \\$HOME"', ["echo", "back\\slash", "keep \\n and \\$HOME"]],
    ["echo 'single \"double\" \\n $HOME'", ["echo", 'single "double" \\n $HOME']],
    ["echo a\\ b \\'c\\'", ["echo", "a b", "'c'"]],
    ["echo pre'mid dle'post\"end\"", ["echo", "premid dlepostend"]],
    ["echo '' \"\"", ["echo", "", ""]],
    ["echo $HOME ~ *.mjs", ["echo", "$HOME", "~", "*.mjs"]],
    ["echo trailing\\", ["echo", "trailing\\"]],
    ["", []],
    ["   ", []],
  ];
  for (const [line, words] of cases) assert.deepEqual(commandWords(line), words, JSON.stringify(line));
  for (const line of ["echo 'open", 'echo "open', 'echo "escaped end\\"']) {
    assert.throws(() => commandWords(line), /the command line has an unclosed/, JSON.stringify(line));
  }
});
