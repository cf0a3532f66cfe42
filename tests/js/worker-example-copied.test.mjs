// examples/cloudflare-worker as a user gets it: the folder copied out of the repository, skillwasm
// installed in its node_modules from the package's tarball (not a link into the repository), run
// in workerd through miniflare on a real port, and the README's own steps run by bash: the local
// secret written to .dev.vars as the README says, then every curl of "Try it", writes included,
// each answered 2xx.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { ROOT, assertBuilt } from "./helpers.mjs";
import { copyExample, serveApp } from "./support/worker-copy.mjs";
import { EXAMPLE } from "./support/worker-example.mjs";

const README = readFileSync(path.join(EXAMPLE, "README.md"), "utf8");
const VERSION = JSON.parse(readFileSync(path.join(ROOT, "pkg-template", "package.json"), "utf8")).version;

/** The text of the README section under `heading` (up to the next `## `). */
function section(heading) {
  const start = README.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `the README has ${heading}`);
  const end = README.indexOf("\n## ", start + heading.length + 2);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The ```sh blocks of a section. */
const shBlocks = (text) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);

function bash(script, cwd) {
  const r = spawnSync("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  return r;
}

let dir;
let app;
let server;

before(() => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), "skillwasm-worker-copy-"));
  app = copyExample(dir);
});

after(async () => {
  await server?.mf.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the copied example depends on skillwasm by version, and installs it as a real package", () => {
  const manifest = JSON.parse(readFileSync(path.join(app, "package.json"), "utf8"));
  for (const [name, spec] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    assert.doesNotMatch(spec, /^(file|link|portal):|^\.{0,2}\//, `${name} does not point into the repository`);
  }
  assert.equal(manifest.dependencies.skillwasm, VERSION, "the package's own version");
  const installed = path.join(app, "node_modules", "skillwasm");
  assert.ok(!lstatSync(installed).isSymbolicLink());
  assert.equal(JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).version, VERSION);
  assert.ok(existsSync(path.join(installed, "skillwasm_bg.wasm")));
});

test("the README: the local secret in .dev.vars, wrangler secret put after a login, no contradicting paragraph", () => {
  const run = section("## Run and deploy");
  assert.match(run, /npx wrangler login[\s\S]*npx wrangler secret put WRITE_SECRET/);
  assert.match(run, /`\.dev\.vars`/);
  assert.doesNotMatch(README, /No authentication/);
  assert.doesNotMatch(README, /file:\.\.\/\.\.\/pkg|links skillwasm from/);
});

test("the README's steps run against the copied Worker: every curl answers 2xx, writes with Authorization", async () => {
  // The secret as the README writes it, from the example's folder.
  const setup = shBlocks(section("## Run and deploy"))[0].split("\n").filter((l) => /^echo .*>\s*\.dev\.vars/.test(l));
  assert.equal(setup.length, 1, "one line writes .dev.vars");
  assert.equal(bash(setup[0], app).status, 0);

  server = await serveApp(app, path.join(dir, "r2"));
  const [steps] = shBlocks(section("## Try it"));
  const local = "W=http://localhost:8787";
  assert.ok(steps.split("\n").includes(local), "the steps name wrangler dev's address");
  const calls = steps.split("\n").filter((l) => /(^|[|(]\s*)curl /.test(l) && !l.trimStart().startsWith("#")).length;
  // Each curl reports its status on a line of its own; the address is the running Worker's.
  const wrapper = "curl() { command curl -sS -w '\\n@@ %{http_code} %{method} %{url_effective}\\n' \"$@\"; }\n";
  const r = bash(wrapper + steps.replace(local, `W=${server.url}`), app);
  assert.equal(r.status, 0, r.stderr);
  const answers = [...r.stdout.matchAll(/^@@ (\d{3}) (\S+) (\S+)$/gm)].map(([, status, method, url]) => ({ status: Number(status), method, path: new URL(url).pathname }));
  assert.equal(answers.length, calls, r.stdout);
  for (const a of answers) assert.ok(a.status >= 200 && a.status < 300, `${a.method} ${a.path}: ${a.status}\n${r.stdout}`);
  const writes = answers.filter((a) => a.path.startsWith("/skills/") || a.path === "/refresh");
  assert.deepEqual(writes.map((a) => `${a.method} ${a.path}`), [
    "POST /skills/pdf-tools", "POST /skills/pdf-tools", "POST /refresh", "DELETE /skills/pdf-tools",
  ]);
  // The tool's answers are the uploaded skill's instructions and its reference file.
  assert.match(r.stdout, /Read references\/forms\.md, then fill the form\./);
  assert.match(r.stdout, /Every field has a name\./);
  // And a write without the header is refused, as the README says.
  const anonymous = await fetch(`${server.url}/refresh`, { method: "POST" });
  assert.equal(anonymous.status, 401);
});
