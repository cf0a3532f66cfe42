// The YAML parser of record (serde_yaml) and the repairs of sloppy YAML live in the package's second
// module: the core reads the YAML subset nearly every frontmatter uses itself and asks the second
// module for the rest. These tests parse frontmatter outside that subset through the built package:
// typed values, repairs, errors with lines, the recursion limit, and batches that mix both paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importPkg, PKG } from "./helpers.mjs";

const { parseSkill, parseSkills, SkillRegistry, memoryStorage } = await importPkg();
// The package's own module instances (the same URLs node.js imports).
const { setFrontmatterReader } = await import(pathToFileURL(path.join(PKG, "boundary.js")).href);
const { extra } = await import(pathToFileURL(path.join(PKG, "extra.js")).href);

const flow = "---\nname: flow-map\ndescription: A skill.\nmetadata: {v: 1.10, n: 3, s: text}\n---\nbody\n";

test("a flow mapping is read by the second module, numbers typed as serde_yaml types them", () => {
  const r = parseSkill(flow);
  assert.equal(r.skill.name, "flow-map");
  assert.deepEqual(r.skill.metadata, { v: "1.1", n: "3", s: "text" });
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.line]),
    [
      ["metadata-not-string", 4],
      ["metadata-not-string", 4],
    ],
  );
});

test("YAML that does not parse is repaired, or refused with the parser's line", () => {
  const repaired = parseSkill("---\nname: a-b\ndescription: x\nfoo: [WIP] text\n---\n");
  assert.ok(repaired.skill !== null);
  assert.deepEqual(repaired.diagnostics.map((d) => d.code), ["yaml-repair-indicator", "unknown-field"]);
  // An open `[` is a broken list, not the text a repair is for: refused, not loaded as "[".
  const open = parseSkill("---\nname: a-b\ndescription: x\nfoo: [\n---\n");
  assert.equal(open.skill, null);
  assert.deepEqual(open.diagnostics.map((d) => [d.code, d.severity, d.line]), [["yaml-invalid", "error", 5]]); // where the parser found the list unclosed
  // An unquoted `: ` in a value, the commonest mistake, is invalid on its face: repaired without
  // asking serde_yaml first.
  const colon = parseSkill("---\nname: colon\ndescription: Use when: asked\n---\n");
  assert.equal(colon.skill?.description, "Use when: asked");
  assert.deepEqual(colon.diagnostics.map((d) => [d.code, d.line]), [["yaml-repair-colon", 3]]);
  const strictColon = parseSkill("---\nname: colon\ndescription: Use when: asked\n---\n", { mode: "strict" });
  assert.equal(strictColon.skill, null);
  assert.deepEqual(strictColon.diagnostics.map((d) => [d.code, d.line]), [["yaml-invalid", 3]]);
  const refused = parseSkill("---\nname: a-b\ndescription: x\nfoo: &x\n  - *y\n---\n", { mode: "strict" });
  assert.equal(refused.skill, null);
  const [d] = refused.diagnostics;
  assert.equal(d.code, "yaml-invalid");
  assert.match(d.message, /^Invalid YAML in frontmatter: /);
  assert.equal(d.line, 5);
});

test("YAML no repair explains is skipped with an error, never reaches the catalog as debris", async () => {
  const files = {
    ".agents/skills/junk/SKILL.md": "---\nname: junk\ndescription: [a, b\n  c: : :\n---\nbody\n",
    ".agents/skills/junk2/SKILL.md": "---\nname: junk2\ndescription: [a, b\nc: : :\n---\nbody\n",
    ".agents/skills/fine/SKILL.md": "---\nname: fine\ndescription: Use when: the logs [all of them] break\n---\nbody\n",
  };
  for (const key of [".agents/skills/junk/SKILL.md", ".agents/skills/junk2/SKILL.md"]) {
    const r = parseSkill(files[key]);
    assert.equal(r.skill, null, `${key} loaded as ${JSON.stringify(r.skill?.description)}`);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity]), [["yaml-invalid", "error"]]);
  }
  const registry = await SkillRegistry.discover({ user: memoryStorage(files) });
  assert.deepEqual(registry.listMetas().map((m) => m.name), ["fine"]);
  const { renderCatalog } = await importPkg();
  const text = renderCatalog(registry).text;
  assert.ok(!text.includes("[a, b") && !text.includes(": : :"), text);
  assert.ok(text.includes("Use when: the logs [all of them] break"), text);
  const errors = registry.diagnostics().filter((d) => d.severity === "error").map((d) => [d.code, d.path]);
  assert.deepEqual(errors, [["yaml-invalid", "user:.agents/skills/junk/SKILL.md"], ["yaml-invalid", "user:.agents/skills/junk2/SKILL.md"]]);
});

test("nesting past serde_yaml's recursion limit is refused, not repaired", () => {
  const r = parseSkill(`---\nname: a\ndescription: ${"[".repeat(300)}${"]".repeat(300)}\n---\n`);
  assert.equal(r.skill, null);
  assert.deepEqual(r.diagnostics.map((d) => [d.code, d.line]), [["yaml-invalid", 3]]);
  assert.match(r.diagnostics[0].message, /recursion limit exceeded/);
});

test("a batch mixes the fast path and the second module's parser, results in order", () => {
  const plain = (i) => `---\nname: plain-${i}\ndescription: Plain ${i}.\n---\n`;
  const inputs = [];
  for (let i = 0; i < 50; i++) inputs.push(i % 5 === 0 ? flow.replace("flow-map", `flow-${i}`) : plain(i));
  const out = parseSkills(inputs, { includeBody: false });
  assert.deepEqual(
    out.map((r) => r.skill.name),
    inputs.map((_, i) => (i % 5 === 0 ? `flow-${i}` : `plain-${i}`)),
  );
  assert.deepEqual(out[5].skill.metadata, { v: "1.1", n: "3", s: "text" });
});

const real = (text, firstLine, strict, invalid) => extra.__sw_readFrontmatter(text, firstLine, strict, invalid);

test("a reader that throws, answers the wrong type or a damaged answer costs that file a diagnostic", () => {
  const answer = real("metadata: {v: 1}\n", 2, false, false);
  const broken = {
    throws: () => {
      throw new Error("the second module is gone");
    },
    "answers a number": () => 42,
    "answers a cut answer": () => answer.subarray(0, answer.length - 1),
    "answers a string": () => "not bytes",
  };
  try {
    for (const [what, loader] of Object.entries(broken)) {
      setFrontmatterReader(loader);
      const out = parseSkills([flow, "---\nname: plain\ndescription: Plain.\n---\n"], { includeBody: false });
      assert.equal(out[0].skill, null, what);
      assert.equal(out[0].diagnostics[0].code, "yaml-parser-unavailable", what);
      // Not repaired: nothing is known of a text no parser read.
      assert.equal(out[0].diagnostics.length, 1, what);
      assert.match(out[0].diagnostics[0].message, /YAML parser/, what);
      assert.equal(out[0].diagnostics[0].line, 2, what);
      assert.equal(out[1].skill.name, "plain", `${what}: the fast path's file is parsed as ever`);
      // The repairs are the second module's too: sloppy YAML is refused alike, not half read.
      const [colon] = parseSkills(["---\nname: colon\ndescription: Use when: asked\n---\n"], { includeBody: false });
      assert.equal(colon.skill, null, what);
      assert.deepEqual(colon.diagnostics.map((d) => [d.code, d.line]), [["yaml-parser-unavailable", 2]], what);
    }
  } finally {
    setFrontmatterReader(real);
  }
  assert.equal(parseSkill(flow).skill.name, "flow-map", "the real parser again");
});

test("a skill no YAML parser could read is read again at the registry's next refresh, snapshot or not", async () => {
  const store = memoryStorage();
  store.put(".agents/skills/flow-map/SKILL.md", flow);
  store.put(".agents/skills/plain/SKILL.md", "---\nname: plain\ndescription: Plain.\n---\n");
  let reads = 0;
  const counted = { list: (...a) => store.list(...a), read: (...a) => (reads++, store.read(...a)) };
  let reg;
  let snap;
  try {
    setFrontmatterReader(() => {
      throw new Error("the second module is gone");
    });
    reg = await SkillRegistry.discover({ user: counted });
    assert.deepEqual(reg.names(), ["plain"]);
    assert.ok(reg.diagnostics().some((d) => d.code === "yaml-parser-unavailable"), JSON.stringify(reg.diagnostics()));
    snap = reg.snapshot();
    // Still no parser: the refresh reads that file again (and only it), and still refuses it.
    reads = 0;
    assert.deepEqual(await reg.refresh(), { added: [], changed: [], removed: [] });
    assert.equal(reads, 1);
  } finally {
    setFrontmatterReader(real);
  }
  for (const r of [reg, SkillRegistry.fromSnapshot(snap, { user: counted })]) {
    reads = 0;
    const report = await r.refresh();
    assert.deepEqual(report.changed.map((s) => s.name), ["flow-map"]);
    assert.equal(reads, 1, "the unread file only");
    assert.deepEqual(r.names(), ["flow-map", "plain"]);
    assert.ok(!r.diagnostics().some((d) => d.code === "yaml-parser-unavailable"));
    reads = 0;
    await r.refresh();
    assert.equal(reads, 0, "once read, nothing is read again");
  }
});
