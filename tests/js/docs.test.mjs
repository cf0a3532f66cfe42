// The README as a front door and docs/ behind it: every JavaScript or TypeScript block is marked
// (run, compiled or quoted verbatim: tests/js/support/docs.mjs), every relative link leads to a
// file and heading that exist, and the options reference lists every key the core accepts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, importPkg } from "./helpers.mjs";
import { docFiles, unmarkedCode } from "./support/docs.mjs";

const read = (rel) => readFileSync(path.join(ROOT, rel), "utf8");

test("the README is a front door: at most 300 lines, make demo and make test in its first 60", () => {
  const lines = read("README.md").split("\n");
  assert.ok(lines.length <= 300, `the README has ${lines.length} lines`);
  const head = lines.slice(0, 60).join("\n");
  assert.match(head, /^make demo\b/m);
  assert.match(head, /^make test\b/m);
  assert.match(head, /^npm install skillwasm$/m);
});

test("every JavaScript and TypeScript block of the README and docs/ runs, compiles or is quoted verbatim", () => {
  assert.ok(docFiles().length >= 15, docFiles().join(", "));
  assert.deepEqual(unmarkedCode().map((b) => `${b.file}:${b.line}`), []);
});

/** GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown file's headings (outside fenced blocks), repeated ones numbered. */
function anchors(rel) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of read(rel).split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test("slug follows GitHub's anchors", () => {
  assert.equal(slug("Skills over the network: the Agent Skills Discovery index"), "skills-over-the-network-the-agent-skills-discovery-index");
  assert.equal(slug("`wellKnownStorage(baseUrl, options)`"), "wellknownstoragebaseurl-options");
  assert.equal(slug("Cloudflare Workers (skills in R2)"), "cloudflare-workers-skills-in-r2");
  assert.equal(slug("A user's `/skill` message"), "a-users-skill-message");
});

test("every relative link of the README and docs/ leads to a file, and its #anchor to a heading there", () => {
  const broken = [];
  for (const file of docFiles()) {
    let fenced = false;
    read(file).split("\n").forEach((line, i) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced) return;
      for (const [, target] of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue; // http(s), mailto
        const [rel, anchor] = target.split("#");
        const to = rel === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rel));
        if (!existsSync(path.join(ROOT, to))) broken.push(`${file}:${i + 1}: ${target} (no ${to})`);
        else if (anchor !== undefined && to.endsWith(".md") && !anchors(to).has(anchor)) broken.push(`${file}:${i + 1}: ${target} (no heading #${anchor} in ${to})`);
      }
    });
  }
  assert.deepEqual(broken, []);
});

test("every guide and reference page is linked from the README", () => {
  const readme = read("README.md");
  for (const file of docFiles().filter((f) => f !== "README.md")) {
    assert.ok(readme.includes(`](${file})`) || readme.includes(`](${file}#`), `the README does not link ${file}`);
  }
});

/** The keys a TypeError lists for an unknown option ("expected one of `a`, `b`"). */
async function validKeys(call) {
  try {
    await call();
  } catch (e) {
    const list = /expected one of (.*)$/.exec(e.message)?.[1];
    assert.ok(list, e.message);
    return [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  }
  assert.fail("no TypeError for an unknown key");
}

/** The text of options.md's section under the heading that starts with `heading`. */
function section(heading) {
  const text = read("docs/reference/options.md");
  const start = text.indexOf(`\n## ${heading}`);
  assert.notEqual(start, -1, `options.md has no section ${heading}`);
  const end = text.indexOf("\n## ", start + 4);
  return text.slice(start, end === -1 ? undefined : end);
}

test("the options reference lists every key the core accepts, in the right section", async () => {
  const sw = await importPkg();
  const registry = await sw.SkillRegistry.discover({ user: sw.memoryStorage({}) });
  const cases = [
    ["`SkillRegistry.discover(options)`", () => sw.SkillRegistry.discover({ "no-such-key": 1 })],
    ["A scope in `scopes`", () => sw.SkillRegistry.discover({ scopes: [{ name: "a", storage: sw.memoryStorage({}), "no-such-key": 1 }] })],
    ["`new SkillTool(registry, options)`", () => new sw.SkillTool(registry, { "no-such-key": 1 })],
    ["`new SkillTool(registry, options)`", () => new sw.SkillTool(registry, { catalog: { "no-such-key": 1 } })],
    ["`renderCatalog(registry, options)`", () => sw.renderCatalog(registry, { "no-such-key": 1 })],
    ["`parseSkill(input, options)`", () => sw.parseSkill("x", { "no-such-key": 1 })],
    ["Transcript functions", () => sw.compactSkillContent([], { "no-such-key": 1 })],
  ];
  const missing = [];
  for (const [heading, call] of cases) {
    const text = section(heading);
    for (const key of await validKeys(call)) {
      if (!text.includes(`\`${key}\``)) missing.push(`${heading}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
  registry.free?.();
});
