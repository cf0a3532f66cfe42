// The YAML parser of record (serde_yaml) lives in the package's second module: the core reads the
// YAML subset nearly every frontmatter uses itself and asks the second module for the rest. These
// tests parse frontmatter outside that subset through the built package: typed values, repairs,
// errors with lines, the recursion limit, and batches that mix both paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";

const { parseSkill, parseSkills } = await importPkg();

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
  const repaired = parseSkill("---\nname: a-b\ndescription: x\nfoo: [\n---\n");
  assert.ok(repaired.skill !== null);
  assert.deepEqual(repaired.diagnostics.map((d) => d.code), ["yaml-repair-indicator", "unknown-field"]);
  const refused = parseSkill("---\nname: a-b\ndescription: x\nfoo: &x\n  - *y\n---\n", { mode: "strict" });
  assert.equal(refused.skill, null);
  const [d] = refused.diagnostics;
  assert.equal(d.code, "yaml-invalid");
  assert.match(d.message, /^Invalid YAML in frontmatter: /);
  assert.equal(d.line, 5);
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
