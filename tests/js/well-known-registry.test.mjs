// publishWellKnown over a registry: the skills the registry offers the model, read through their
// own stores (real directories), served by a real HTTP server on 127.0.0.1 and discovered back
// through wellKnownStorage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importPkg } from "./helpers.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";

const pkg = await importPkg();
const skillMd = (name, body = "Body.", extra = "") => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n${body}\n`;

function tree(files) {
  const root = mkdtempSync(path.join(tmpdir(), "skillwasm-publish-"));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const remote = (url) => ({ scopes: [{ name: "site", storage: pkg.wellKnownStorage(url), roots: [""], trusted: true }] });

test("a registry publishes what it offers the model: shadowed, hidden and skipped files left out", async (t) => {
  const project = tree({
    ".agents/skills/alpha/SKILL.md": skillMd("alpha", "Project alpha. See [the form](references/form.md)."),
    ".agents/skills/alpha/references/form.md": "# Form\n",
    ".agents/skills/alpha/scripts/run.py": "print('x')\n",
    ".agents/skills/alpha/node_modules/dep/index.js": "module.exports = 1;\n",
    ".agents/skills/quiet/SKILL.md": skillMd("quiet", "Not for the model.", "disable-model-invocation: true\n"),
  });
  const user = tree({
    "alpha/SKILL.md": skillMd("alpha", "User alpha, shadowed."),
    "beta/SKILL.md": skillMd("beta", "User beta."),
  });
  const registry = await pkg.SkillRegistry.discover({
    scopes: [
      { name: "project", storage: pkg.nodeFsStorage(project), roots: [".agents/skills/"], trusted: true },
      { name: "user", storage: pkg.nodeFsStorage(user), roots: [""], trusted: true },
    ],
  });
  // The shadowed alpha is offered as user:alpha, and left out of the index (one skill per name).
  assert.deepEqual(registry.names().sort(), ["alpha", "beta", "quiet", "user:alpha"]);

  const published = await pkg.publishWellKnown(registry);
  assert.deepEqual(published.diagnostics, []);
  const index = JSON.parse(new TextDecoder().decode(published.index));
  assert.deepEqual(index.skills.map((s) => [s.name, s.type]), [["alpha", "archive"], ["beta", "skill-md"]]);

  const server = await serve(routesOf(published));
  t.after(() => server.close());
  const again = await pkg.SkillRegistry.discover(remote(server.url));
  assert.deepEqual(again.names().sort(), ["alpha", "beta"]);
  assert.match((await again.readFile("alpha")).text, /Project alpha/, "the winning scope's skill, not the shadowed one");
  const form = await again.readScopedFile("site", "alpha", "references/form.md");
  assert.deepEqual(Buffer.from(form.content), readFileSync(path.join(project, ".agents/skills/alpha/references/form.md")));
  assert.ok(await again.readScopedFile("site", "alpha", "scripts/run.py"));
  assert.equal(await again.readScopedFile("site", "alpha", "node_modules/dep/index.js"), null, "skipped directories are not published");

  const twice = await pkg.publishWellKnown(registry, { baseUrl: "https://example.com/.well-known/agent-skills/" });
  const absolute = JSON.parse(new TextDecoder().decode(twice.index));
  assert.equal(absolute.skills[0].url, "https://example.com/.well-known/agent-skills/alpha.tar.gz");
  assert.deepEqual(twice.artifacts.map((a) => a.digest), published.artifacts.map((a) => a.digest), "deterministic bytes");
});

test("a skill over the extension's limits is left out with a diagnostic; the others are published", async () => {
  const files = { "small/SKILL.md": skillMd("small"), "big/SKILL.md": skillMd("big") };
  for (let i = 0; i < 520; i++) files[`big/data/${String(i).padStart(3, "0")}.txt`] = `${i}\n`;
  const registry = await pkg.SkillRegistry.discover({
    scopes: [{ name: "local", storage: pkg.nodeFsStorage(tree(files)), roots: [""], trusted: true }],
  });
  const published = await pkg.publishWellKnown(registry);
  const index = JSON.parse(new TextDecoder().decode(published.index));
  assert.deepEqual(index.skills.map((s) => s.name), ["small"]);
  assert.deepEqual(published.diagnostics.map((d) => [d.code, d.path]), [["mcp-skill-too-large", "big"]]);
  assert.match(published.diagnostics[0].message, /521 files, more than 512/);
});

test("a registry's options are checked: prefix is a store's option", async () => {
  const registry = await pkg.SkillRegistry.discover({
    scopes: [{ name: "local", storage: pkg.memoryStorage({ "a/SKILL.md": skillMd("a") }), roots: [""], trusted: true }],
  });
  await assert.rejects(pkg.publishWellKnown(registry, { prefix: "x/" }), TypeError);
  const published = await pkg.publishWellKnown(registry);
  assert.equal(published.artifacts.length, 1);
  assert.equal(published.artifacts[0].path, "a/SKILL.md");
});
