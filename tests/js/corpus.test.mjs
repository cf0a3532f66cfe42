// Every real SKILL.md in ../shared/corpus/skills through parseSkills (lenient) of the built
// package: each file yields a skill or says why not, and nothing throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SHARED, importPkg } from "./helpers.mjs";

const CORPUS = path.join(SHARED, "corpus", "skills");
const SEVERITIES = new Set(["error", "warning", "info"]);

function findSkillMds(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findSkillMds(full, out);
    else if (entry.isFile() && entry.name === "SKILL.md") out.push(full);
  }
  return out;
}

function top(counter, n) {
  return [...counter.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
}

if (!existsSync(CORPUS)) {
  test("corpus", { skip: `${CORPUS} not found (../shared is absent)` }, () => {});
} else {
  test("every corpus SKILL.md parses to a skill or an error diagnostic (lenient)", async () => {
    const { parseSkills, parseSkill } = await importPkg();
    const files = findSkillMds(CORPUS).sort();
    assert.ok(files.length > 700, `expected the ~776 corpus files, found ${files.length}`);

    const inputs = files.map((f) => {
      const buf = readFileSync(f);
      return { input: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), dirName: path.basename(path.dirname(f)) };
    });
    const t0 = performance.now();
    const results = parseSkills(inputs, { mode: "lenient" });
    const ms = performance.now() - t0;
    assert.ok(Array.isArray(results));
    assert.equal(results.length, files.length, "one result per input");

    const problems = [];
    const warningCodes = new Map();
    const errorCodes = new Map();
    let skills = 0;
    let rejected = 0;
    let warnings = 0;
    results.forEach((r, i) => {
      const rel = path.relative(CORPUS, files[i]);
      for (const d of r.diagnostics) {
        if (!SEVERITIES.has(d.severity) || typeof d.code !== "string" || d.code === "" || typeof d.message !== "string" || d.message === "") {
          problems.push(`${rel}: malformed diagnostic ${JSON.stringify(d)}`);
        }
        if (d.severity === "warning") {
          warnings++;
          warningCodes.set(d.code, (warningCodes.get(d.code) ?? 0) + 1);
        }
      }
      if (r.skill) {
        skills++;
        if (typeof r.skill.name !== "string" || r.skill.name.trim() === "") problems.push(`${rel}: skill with empty name`);
        if (typeof r.skill.description !== "string" || r.skill.description.trim() === "") problems.push(`${rel}: skill with empty description`);
      } else {
        rejected++;
        const errors = r.diagnostics.filter((d) => d.severity === "error" && d.message);
        if (errors.length === 0) problems.push(`${rel}: no skill and no error diagnostic: ${JSON.stringify(r.diagnostics)}`);
        for (const d of errors) errorCodes.set(d.code, (errorCodes.get(d.code) ?? 0) + 1);
      }
    });

    console.log(`corpus: ${files.length} files, ${skills} skills, ${rejected} rejected, ${warnings} warnings, parseSkills ${ms.toFixed(0)} ms`);
    console.log(`corpus: warnings by code (top 10): ${top(warningCodes, 10).map(([c, n]) => `${c}=${n}`).join(", ") || "none"}`);
    console.log(`corpus: rejections by error code: ${top(errorCodes, 10).map(([c, n]) => `${c}=${n}`).join(", ") || "none"}`);

    assert.deepEqual(problems, []);
    assert.equal(skills + rejected, files.length);
    // A real-world corpus is mostly usable skills; lenient mode exists to keep them.
    assert.ok(skills > files.length * 0.9, `only ${skills} of ${files.length} corpus files gave a skill`);

    // The batch and the single-file API agree.
    for (const i of [0, Math.floor(files.length / 2), files.length - 1]) {
      assert.deepEqual(parseSkill(inputs[i].input, { mode: "lenient", dirName: inputs[i].dirName }), results[i]);
    }
  });
}

test("metadata-only parsing (prefix copies across the boundary) agrees with full parsing", async () => {
  const { parseSkills } = await importPkg();
  const long = `---\nname: long\ndescription: ${"word ".repeat(1000)}\nlicense: MIT\n---\n${"body line\n".repeat(500)}`;
  const short = `---\nname: short\ndescription: d\n---\n${"body line\n".repeat(500)}`;
  const utf8 = new TextEncoder();
  const inputs = [long, short, `---\nname: cut\ndescription: ${"é".repeat(1500)}\n---\nbody`].map((t) => utf8.encode(t));
  const full = parseSkills(inputs);
  const meta = parseSkills(inputs, { includeBody: false });
  assert.equal(meta.length, 3);
  for (let i = 0; i < 3; i++) {
    assert.ok(full[i].skill && meta[i].skill, `input ${i}`);
    const { body, ...rest } = full[i].skill;
    assert.ok(body.length > 0);
    assert.deepEqual(meta[i].skill, rest, `input ${i}`);
    assert.deepEqual(meta[i].diagnostics, full[i].diagnostics, `input ${i}`);
  }
  assert.equal(meta[0].skill.license, "MIT", "the frontmatter longer than the first copy was read whole");
});
