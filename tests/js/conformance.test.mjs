// The 40 skills-ref reference cases (../shared/conformance/skills-ref-cases.json), each
// materialised in a temporary directory and run through the built CLI (node pkg/cli.js), compared
// with the reference's recorded verdicts and exact output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SHARED, assertBuilt, runCli } from "./helpers.mjs";

const CASES_FILE = path.join(SHARED, "conformance", "skills-ref-cases.json");

// Our YAML parser words its syntax errors differently from strictyaml: only the prefix must match.
const YAML_MESSAGE_CASES = new Set(["parser.invalid_yaml"]);
const YAML_PREFIX = "Invalid YAML in frontmatter:";

function materialise(c, root) {
  const write = (dir, name, content) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), content);
  };
  const target = c.dir_name == null ? null : path.join(root, c.dir_name);
  switch (c.setup) {
    case "dir_with_skill_md":
      if (Array.isArray(c.skills)) {
        for (const s of c.skills) write(path.join(root, s.dir_name), s.skill_md_filename ?? "SKILL.md", s.skill_md);
      }
      if (target !== null) {
        mkdirSync(target, { recursive: true });
        if (c.skill_md != null) write(target, c.skill_md_filename, c.skill_md);
      }
      break;
    case "empty_dir":
      mkdirSync(target, { recursive: true });
      break;
    case "path_does_not_exist":
      break;
    case "path_is_regular_file":
      writeFileSync(target, c.file_content ?? "");
      break;
    default:
      throw new Error(`unknown setup ${c.setup}`);
  }
  for (const [name, content] of Object.entries(c.extra_files ?? {})) write(target, name, content);
  return target;
}

function fill(s, root) {
  return s.replaceAll("{ROOT}", root);
}

// stderr of a failed validate: header, then one "  - " line per error (an error may continue
// over further lines, like a YAML parser message).
function validateErrors(stderr, target) {
  const lines = stderr.replace(/\n$/, "").split("\n");
  assert.equal(lines[0], `Validation failed for ${target}:`);
  const errors = [];
  for (const line of lines.slice(1)) {
    if (line.startsWith("  - ")) errors.push(line.slice(4));
    else if (errors.length > 0) errors[errors.length - 1] += `\n${line}`;
    else assert.fail(`unexpected stderr line before the first error: ${JSON.stringify(line)}`);
  }
  return { errors, dashLines: lines.filter((l) => l.startsWith("  - ")).length };
}

function checkValidate(c, root, target) {
  const r = runCli(["validate", target]);
  const valid = r.status === 0;
  assert.equal(valid, c.expect_valid, `validate verdict: status ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  if (valid) {
    assert.equal(r.stdout, `Valid skill: ${target}\n`);
    assert.equal(r.stderr, "");
    return;
  }
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  const { errors, dashLines } = validateErrors(r.stderr, target);
  for (const sub of c.expect_errors_contains ?? []) {
    assert.ok(errors.some((e) => e.includes(sub)), `no error contains ${JSON.stringify(sub)}: ${JSON.stringify(errors)}`);
  }
  if (c.expect_error_count != null) assert.equal(dashLines, c.expect_error_count, "error count");
  const ref = (c.ref_validate_errors ?? []).map((e) => fill(e, root));
  if (YAML_MESSAGE_CASES.has(c.id)) {
    assert.equal(errors.length, ref.length, "error count");
    for (const e of errors) assert.ok(e.startsWith(YAML_PREFIX), `expected ${YAML_PREFIX}...: ${JSON.stringify(e)}`);
  } else {
    assert.deepEqual(errors, ref, "errors must equal the reference's, in order");
  }
}

function checkReadProperties(c, root, target, { expectOk }) {
  const r = runCli(["read-properties", target]);
  if (expectOk) {
    assert.equal(r.status, 0, `read-properties failed: ${r.stderr}`);
    const props = JSON.parse(r.stdout);
    for (const [k, v] of Object.entries(c.expect_properties ?? {})) {
      assert.deepEqual(props[k], v, `property ${k}`);
    }
    if (c.ref_read_properties) {
      // Exact text: Python's json.dumps(indent=2) of the reference's to_dict(), keys in its order.
      assert.equal(r.stdout, `${JSON.stringify(c.ref_read_properties, null, 2)}\n`);
    }
    return;
  }
  assert.equal(r.status, 1, `read-properties should fail; stdout: ${r.stdout}`);
  assert.equal(r.stdout, "");
  for (const sub of c.expect_errors_contains ?? []) assert.ok(r.stderr.includes(sub), `stderr lacks ${JSON.stringify(sub)}: ${r.stderr}`);
  if (c.ref_read_properties_error != null) {
    const ref = fill(c.ref_read_properties_error, root);
    if (YAML_MESSAGE_CASES.has(c.id)) assert.ok(r.stderr.startsWith(`Error: ${YAML_PREFIX}`), r.stderr);
    else assert.equal(r.stderr, `Error: ${ref}\n`);
  }
}

function checkBody(c, target) {
  const r = runCli(["parse", target, "--strict"]);
  assert.equal(r.status, 0, r.stderr);
  const { skill } = JSON.parse(r.stdout);
  assert.ok(skill.body.includes(c.expect_body_contains), `body ${JSON.stringify(skill.body)}`);
}

function checkFindSkillMd(c, target) {
  const r = runCli(["parse", target]);
  if (c.expect_found_file == null) {
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, `Error: SKILL.md not found in ${target}\n`);
    return;
  }
  const report = JSON.parse(r.stdout);
  assert.equal(path.basename(report.file), c.expect_found_file);
  assert.equal(report.file, path.join(target, c.expect_found_file));
  const content = c.expect_found_file === c.skill_md_filename ? c.skill_md : c.extra_files[c.expect_found_file];
  assert.equal(readFileSync(report.file, "utf8"), content);
  assert.ok(Array.isArray(report.diagnostics));
  // These files hold a single word, no frontmatter: there is no skill, and the CLI says so.
  assert.equal(report.skill, null);
  assert.equal(r.status, 1);
  assert.ok(report.diagnostics.some((d) => d.severity === "error"));
}

function checkToPrompt(c, root, target) {
  const dirs = Array.isArray(c.skills) ? c.skills.map((s) => path.join(root, s.dir_name)) : [target];
  const r = runCli(["to-prompt", ...dirs]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const text = r.stdout.replace(/\n$/, "");
  assert.equal(r.stdout, `${text}\n`, "output ends with one newline");
  assert.equal(text, fill(c.ref_prompt_output, root));
  if (c.expect_prompt_exact != null) assert.equal(text, fill(c.expect_prompt_exact, root));
  for (const s of c.expect_prompt_contains ?? []) assert.ok(text.includes(s), `lacks ${s}`);
  for (const s of c.expect_prompt_not_contains ?? []) assert.ok(!text.includes(s), `contains ${s}`);
  for (const [s, n] of Object.entries(c.expect_prompt_counts ?? {})) assert.equal(text.split(s).length - 1, n, `count of ${s}`);
}

if (!existsSync(CASES_FILE)) {
  test("conformance (skills-ref cases)", { skip: `${CASES_FILE} not found (../shared is absent)` }, () => {});
} else {
  const cases = JSON.parse(readFileSync(CASES_FILE, "utf8"));

  test("the case file holds the 40 reference cases", () => {
    assert.equal(cases.length, 40);
    assert.equal(new Set(cases.map((c) => c.id)).size, 40);
  });

  for (const c of cases) {
    test(c.id, () => {
      assertBuilt();
      // realpath: the reference prints resolved paths in to-prompt output
      const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "skillwasm-conf-")));
      try {
        const target = materialise(c, root);
        switch (c.api) {
          case "validate":
            checkValidate(c, root, target);
            break;
          case "parse_frontmatter":
            checkValidate(c, root, target);
            if (c.expect_properties) checkReadProperties(c, root, target, { expectOk: true });
            if (c.ref_read_properties_error != null) checkReadProperties(c, root, target, { expectOk: false });
            if (c.expect_body_contains != null) checkBody(c, target);
            break;
          case "read_properties":
            checkReadProperties(c, root, target, { expectOk: c.expect_valid === true });
            break;
          case "find_skill_md":
            checkFindSkillMd(c, target);
            break;
          case "to_prompt":
            checkToPrompt(c, root, target);
            break;
          default:
            assert.fail(`unknown api ${c.api}`);
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
}
