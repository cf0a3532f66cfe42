// Parse results as JS receives them: the core hands a batch over as one flat array of every
// result's values (parse/src/parse/result_json.rs), and boundary.js builds each object. Every field must come out with serde's keys, in serde's order,
// absent optional fields absent, and every map and list a fresh object of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importPkg, PKG } from "./helpers.mjs";

const { parseSkill, parseSkills } = await importPkg();
const { takeResults } = await import(pathToFileURL(path.join(PKG, "boundary.js")).href);

const FULL = `---
name: full
description: "d — é 😀"
description_zh: 中文
license: MIT
compatibility: node >= 20
metadata:
  __proto__: x
  k: "1"
  nested: {a: [1, 2.5]}
allowed-tools: Bash(git:*) Read
argument-hint: "[x]"
min_tier: large
disable-model-invocation: true
user-invocable: false
context: fork
agent: Explore
weird-key: {z: 1}
---
Body — é
`;

const EXPECTED = {
  skill: {
    name: "full",
    description: "d — é 😀",
    localizedDescriptions: { zh: "中文" },
    license: "MIT",
    compatibility: "node >= 20",
    metadata: { ["__proto__"]: "x", k: "1", nested: '{"a":["1","2.5"]}' },
    metadataStructured: { nested: { a: ["1", "2.5"] } },
    allowedTools: ["Bash(git:*)", "Read"],
    argumentHint: "[x]",
    minTier: "large",
    disableModelInvocation: true,
    userInvocable: false,
    context: "fork",
    agent: "Explore",
    extra: { "weird-key": { z: "1" } },
    body: "Body — é",
    bodyLine: 20,
  },
};

test("every field of a skill, with serde's keys in serde's order", () => {
  for (const r of [parseSkill(FULL), parseSkills([FULL])[0], parseSkills([new TextEncoder().encode(FULL)])[0]]) {
    assert.equal(JSON.stringify(r.skill), JSON.stringify(EXPECTED.skill));
    assert.deepEqual(Object.keys(r), ["skill", "diagnostics"]);
    assert.deepEqual(
      r.diagnostics.map((d) => Object.keys(d)),
      r.diagnostics.map((d) => ["severity", "code", "message", ...(d.line === undefined ? [] : ["line"])]),
    );
    assert.equal(Object.hasOwn(r.skill.metadata, "__proto__"), true);
  }
});

test("absent fields are absent, empty maps and lists are fresh objects", () => {
  const doc = "---\nname: small\ndescription: d\n---\n";
  const [a, b] = parseSkills([doc, doc], { includeBody: false });
  assert.deepEqual(Object.keys(a.skill), [
    "name", "description", "localizedDescriptions", "metadata", "metadataStructured", "allowedTools",
    "disableModelInvocation", "userInvocable", "extra", "bodyLine",
  ]);
  assert.equal(a.skill.userInvocable, true);
  assert.equal(a.skill.disableModelInvocation, false);
  assert.deepEqual(a.diagnostics, []);
  for (const key of ["localizedDescriptions", "metadata", "metadataStructured", "extra", "allowedTools"]) {
    assert.notEqual(a.skill[key], b.skill[key], key);
    assert.equal(Object.getPrototypeOf(a.skill[key]), Array.isArray(a.skill[key]) ? Array.prototype : Object.prototype);
  }
  assert.notEqual(a.diagnostics, b.diagnostics);
  a.skill.metadata.x = "1";
  a.diagnostics.push(1);
  assert.deepEqual(b.skill.metadata, {});
  assert.deepEqual(b.diagnostics, []);
});

test("no skill, and a prefix that was not enough", () => {
  const none = parseSkill("no frontmatter");
  assert.equal(none.skill, null);
  assert.deepEqual(Object.keys(none), ["skill", "diagnostics"]);
  assert.equal(none.diagnostics[0].severity, "error");
  const cut = parseSkills(["---\nname: a\ndescr"], { partial: true })[0];
  assert.deepEqual(cut, { skill: null, diagnostics: [], incomplete: true });
  assert.deepEqual(Object.keys(cut), ["skill", "diagnostics", "incomplete"]);
});

test("a batch whose values and result count disagree is refused, not read askew", () => {
  const NO = 0xffffffff;
  // A skill's 16 values as result_json.rs writes them: name, description, the empty maps and
  // lists as 0, absent fields as null, flags 2 (user-invocable).
  const skill = ["n", "d", 0, null, null, 0, 0, 0, null, null, 2, null, null, 0, null, null];
  // Two results: one with a skill and no diagnostics; one without a skill, incomplete.
  const values = [1, ...skill, 0, 2, 0];
  const take = (vals, results) => {
    const out = [];
    const ok = takeResults(JSON.stringify(vals), new Uint8Array(0), new Uint32Array(2 * results).fill(NO), out);
    return [ok, out];
  };
  const [ok, out] = take(values, 2);
  assert.equal(ok, true);
  assert.deepEqual(out, [
    { skill: { name: "n", description: "d", localizedDescriptions: {}, metadata: {}, metadataStructured: {}, allowedTools: [], disableModelInvocation: false, userInvocable: true, extra: {} }, diagnostics: [] },
    { skill: null, diagnostics: [], incomplete: true },
  ]);
  // One result more, or one fewer, than the values hold; a skill one value short or one long.
  assert.equal(take(values, 3)[0], false);
  assert.equal(take(values, 1)[0], false);
  assert.equal(take([1, ...skill.slice(1), 0, 2, 0], 2)[0], false);
  assert.equal(take([1, ...skill, null, 0, 2, 0], 2)[0], false);
});
