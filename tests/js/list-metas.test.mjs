// A registry's lists of skills (listMetas, listMetasAcross) through the built package: they cross
// from wasm as JSON text a few MiB at a time, and every item must be the very object `get` gives
// for the skill (the same keys in the same order, the same values), over the real corpus, over
// lists long enough to cross in several pieces, and over text that needs escaping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { importPkg, SHARED } from "./helpers.mjs";

const { SkillRegistry, memoryStorage, nodeFsStorage } = await importPkg();
const CORPUS = path.join(SHARED, "corpus", "skills");

/** Each listed skill against what `get` gives for its name; shadowed ones only in shape. */
function assertSameAsGet(reg, list, what) {
  for (const m of list) {
    if (m.shadowedBy === undefined) {
      assert.deepEqual(m, reg.get(m.name), `${what}: ${m.location}`);
      assert.deepEqual(Object.keys(m), Object.keys(reg.get(m.name)), `${what}: key order of ${m.location}`);
    } else {
      assert.equal(typeof m.shadowedBy, "string", what);
      assert.equal(Object.keys(m).at(-1), "shadowedBy", what);
    }
  }
}

test("every skill of the corpus is listed as get gives it, shadowed ones marked", { skip: !existsSync(CORPUS) }, async () => {
  const reg = await SkillRegistry.discover({
    scopes: [{ name: "corpus", storage: nodeFsStorage(CORPUS), roots: [""] }],
    maxDepth: 12,
    maxDirectories: 100_000,
  });
  const metas = reg.listMetas();
  assert.ok(metas.length > 600, `${metas.length} skills`);
  assert.deepEqual(metas.map((m) => m.name), reg.names());
  assertSameAsGet(reg, metas, "listMetas");
  const across = reg.listMetasAcross();
  assert.ok(new Set(across.map((m) => m.name)).size < across.length, "the corpus has skills of the same name");
  assert.equal(metas.length, across.length, "every skill is offered, same-named ones under qualified names");
  assert.ok(across.some((m) => typeof m.shadowedBy === "string"));
  assertSameAsGet(reg, across, "listMetasAcross");
  assertSameAsGet(reg, reg.listMetas("corpus"), "listMetas(scope)");
  // Once the registry knows a skill's content digest, its metadata carries it, listed as got.
  const some = metas.filter((m) => m.shadowedBy === undefined).slice(0, 5);
  for (const m of some) assert.match((await reg.contentDigest(m.name)).digest, /^sha256:/);
  const known = reg.listMetas().filter((m) => m.digest !== undefined);
  assert.deepEqual(known.map((m) => m.name), some.map((m) => m.name));
  assertSameAsGet(reg, known, "listMetas with digests");
});

test("a same-named skill's digest is one, asked for by its qualified name or listed under its own", async () => {
  const md = (name, body) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;
  const reg = await SkillRegistry.discover({
    scopes: [
      { name: "user", storage: memoryStorage({ "skills/pdf/SKILL.md": md("pdf", "User's.") }), roots: ["skills/"] },
      { name: "org", storage: memoryStorage({ "skills/pdf/SKILL.md": md("pdf", "Org's.") }), roots: ["skills/"] },
    ],
  });
  const qualified = reg.names().find((n) => n !== "pdf");
  assert.ok(qualified?.includes(":"), `a qualified name among ${reg.names()}`);
  const { digest, scope } = await reg.contentDigest(qualified);
  assert.match(digest, /^sha256:/);
  const offered = reg.listMetas().find((m) => m.name === qualified);
  const across = reg.listMetasAcross().filter((m) => m.scope === scope);
  assert.equal(offered.digest, digest, "listed under the qualified name it was asked for by");
  assert.deepEqual(across.map((m) => m.digest), [digest], "and under its own name across scopes");
  assert.equal(reg.listMetas().find((m) => m.name === "pdf").digest, undefined, "the other skill's is not known");
});

test("a list of many long skills crosses in pieces, whole and in order", async () => {
  const files = {};
  const n = 6000;
  for (let i = 0; i < n; i++) {
    const name = `skill-${String(i).padStart(5, "0")}`;
    // About 1 KiB of description each: the list is several times a piece's 4 MiB.
    files[`.agents/skills/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: ${`Does task ${i}. `.repeat(70)}\n---\nBody.\n`;
  }
  const reg = await SkillRegistry.discover({ project: memoryStorage(files), trustProject: true, maxDirectories: 100_000 });
  const metas = reg.listMetas();
  assert.equal(metas.length, n);
  metas.forEach((m, i) => assert.equal(m.name, `skill-${String(i).padStart(5, "0")}`));
  assertSameAsGet(reg, [metas[0], metas[2999], metas[n - 1]], "pieces");
  assert.equal(reg.listMetasAcross().length, n);
});

test("text that needs escaping and structured metadata cross unchanged", async () => {
  // YAML's double-quoted escapes: a quote, a backslash, a tab and U+0001.
  const yamlDescription = String.raw`Quotes \" and \\ backslashes, a tab\t, \u0001, é, 漢字 and 😀 — all kept`;
  const text =
    `---\nname: escapes\ndescription: "${yamlDescription}"\nlicense: MIT\nallowed-tools: Bash(git:*) Read\n` +
    `metadata:\n  author: "Zoë"\n  tags: [a, 1, true, {k: v}]\n  big: 18446744073709551615\ncontext: fork\n` +
    `x-unknown: {nested: [1, 2.5, null]}\n---\nBody.\n`;
  const reg = await SkillRegistry.discover({
    scopes: [
      { name: "user", storage: memoryStorage({ ".agents/skills/escapes/SKILL.md": text }) },
      { name: "org", storage: memoryStorage({ ".agents/skills/escapes/SKILL.md": text }) },
    ],
  });
  const [m] = reg.listMetas();
  assert.equal(m.description, reg.get("escapes").description);
  assert.equal(m.description, 'Quotes " and \\ backslashes, a tab\t, \u0001, é, 漢字 and 😀 — all kept');
  assertSameAsGet(reg, reg.listMetas(), "listMetas");
  const across = reg.listMetasAcross();
  assert.equal(across.length, 2);
  assert.equal(across[1].shadowedBy, "user:.agents/skills/escapes/SKILL.md");
  const { shadowedBy, ...rest } = across[1];
  assert.deepEqual({ ...rest, scope: "user", location: m.location, path: m.path }, m);
});
