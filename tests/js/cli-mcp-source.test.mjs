// The CLI's MCP source (cli-mcp-source.js) against servers of the official SDK on 127.0.0.1 and
// over stdio: how a command line is split into words, how long closing a session may take, and
// how often a pinned server is connected to and discovered within one command.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";
import { SKILL, lockOf, sw, writeTree } from "./support/cli-lock.mjs";
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
