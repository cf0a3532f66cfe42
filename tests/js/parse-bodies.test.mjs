// Bodies as parseSkill and parseSkills hand them back: the text the core found (trimmed, line
// endings normalised, a byte order mark before the fence ignored), made in JS from the core's own
// copy of the bytes when it is first read, and a plain data property for whatever reads it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";

const { parseSkill, parseSkills } = await importPkg();
const utf8 = new TextEncoder();
const doc = (name, body) => `---\nname: ${name}\ndescription: d — ${name}\n---\n${body}`;

// [label, file text, the body the result must hold]
const CASES = [
  ["plain", doc("plain", "\n# Title\n\nText.\n\n"), "# Title\n\nText."],
  ["non-ASCII", doc("accents", "Café — 😀 ünïcödé\n"), "Café — 😀 ünïcödé"],
  ["CRLF (normalised by the core)", doc("crlf", "a\nb\n").replace(/\n/g, "\r\n"), "a\nb"],
  ["a byte order mark before the fence", `\uFEFF${doc("bom", "body\n")}`, "body"],
  ["a U+FEFF that starts the body", doc("feff", "\uFEFFbody"), "\uFEFFbody"],
  ["no body", doc("empty", ""), ""],
];

test("bodies are the core's text, from bytes and from strings, one by one and in a batch", () => {
  const inputs = CASES.map(([, text]) => utf8.encode(text));
  const batch = parseSkills(inputs);
  const strings = parseSkills(CASES.map(([, text]) => text));
  CASES.forEach(([label, text, body], i) => {
    assert.equal(batch[i].skill?.body, body, label);
    assert.equal(strings[i].skill?.body, body, `${label} (string input)`);
    assert.equal(parseSkill(inputs[i]).skill?.body, body, `${label} (parseSkill)`);
    assert.equal(parseSkill(text).skill?.body, body, `${label} (parseSkill, string)`);
  });
});

test("a batch larger than one handover keeps every body with its result", () => {
  // 40 files of 512 KiB: several handovers of the core's batch buffer.
  const filler = "x".repeat(511) + "\n";
  const inputs = Array.from({ length: 40 }, (_, i) => ({
    input: utf8.encode(doc(`big-${i}`, `start ${i}\n${filler.repeat(1024)}end ${i}`)),
    dirName: `big-${i}`,
  }));
  const results = parseSkills(inputs);
  assert.equal(results.length, 40);
  results.forEach((r, i) => {
    assert.equal(r.skill?.name, `big-${i}`);
    assert.ok(r.skill.body.startsWith(`start ${i}\n`) && r.skill.body.endsWith(`end ${i}`), `body ${i}`);
    assert.equal(r.skill.body.length, `start ${i}\n`.length + filler.length * 1024 + `end ${i}`.length);
  });
});

test("a body is a plain data property for JSON, spread, structuredClone and deep equality", () => {
  const text = doc("data", "Body text.\n");
  const fresh = () => parseSkill(utf8.encode(text));
  const expected = { ...fresh().skill };
  assert.equal(expected.body, "Body text.");
  assert.deepEqual(Object.keys(fresh().skill), Object.keys(expected), "body keeps its place among the keys");
  assert.equal(JSON.parse(JSON.stringify(fresh())).skill.body, "Body text.");
  assert.equal(structuredClone(fresh()).skill.body, "Body text.");
  assert.equal(Object.assign({}, fresh().skill).body, "Body text.");
  assert.deepEqual(fresh().skill, expected);
  assert.deepEqual(Object.entries(fresh().skill), Object.entries(expected));

  const read = fresh().skill;
  assert.equal(read.body, "Body text.");
  assert.deepEqual(Object.getOwnPropertyDescriptor(read, "body"), { value: "Body text.", writable: true, enumerable: true, configurable: true });
  const written = fresh().skill;
  written.body = "changed";
  assert.equal(written.body, "changed");
  const deleted = fresh().skill;
  delete deleted.body;
  assert.equal("body" in deleted, false);
  const frozen = Object.freeze(fresh().skill);
  assert.equal(frozen.body, "Body text.");
  assert.equal(frozen.body, "Body text.");
});

test("a body does not change when the caller's bytes change after the call", () => {
  const bytes = utf8.encode(doc("mine", "original body"));
  const [r] = parseSkills([bytes]);
  const single = parseSkill(bytes);
  bytes.fill(0x41);
  assert.equal(r.skill.body, "original body");
  assert.equal(single.skill.body, "original body");
});

test("a metadata key named __proto__ is an own entry, not a prototype", () => {
  const { skill } = parseSkill(`---\nname: p\ndescription: d\nmetadata:\n  __proto__: x\n  other: "1"\n---\n`);
  assert.equal(Object.getPrototypeOf(skill.metadata), Object.prototype);
  assert.equal(Object.hasOwn(skill.metadata, "__proto__"), true);
  assert.deepEqual(Object.keys(skill.metadata), ["__proto__", "other"]);
});
