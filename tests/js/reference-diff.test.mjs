// The Python reference (skills-ref on PyPI, whose CLI is `agentskills`) against this package over
// every skill directory of ../shared/corpus: the verdict and messages of `validate`, and the
// output of `read-properties`, as each CLI prints them. The reference is installed from PyPI
// into a virtual environment under target/ (once); both sides run in one process each, the
// reference through its library with its CLI's formatting, this package through the exports its
// CLI uses. The agreement is printed; the differences are tallied by kind (docs/guides/cli.md
// lists them and why they remain).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SHARED, importPkg } from "./helpers.mjs";

const REF_VERSION = "0.1.1";
const VENV = path.join(ROOT, "target", "ref-venv");
const PY = path.join(VENV, "bin", "python");
const CORPUS = path.join(SHARED, "corpus", "skills");
const CI = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";

/** The reference in target/ref-venv: true when it is (or could be made) ready. */
function ensureReference() {
  const has = () => existsSync(PY) && spawnSync(PY, ["-c", "import skills_ref"], { encoding: "utf8" }).status === 0;
  if (has()) return true;
  mkdirSync(path.dirname(VENV), { recursive: true });
  let r = spawnSync("python3", ["-m", "venv", VENV], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) return false;
  r = spawnSync(path.join(VENV, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `skills-ref==${REF_VERSION}`], { encoding: "utf8", timeout: 300_000 });
  return r.status === 0 && has();
}

const ready = existsSync(CORPUS) && ensureReference();
const skip = !existsSync(CORPUS) ? "no ../shared/corpus" : !ready && !CI ? "python3 -m venv / pip install skills-ref failed (offline?)" : false;

// The reference's CLI output for each directory, from its library (cli.py's formatting).
const DRIVER = `
import json, sys
from pathlib import Path
from skills_ref.validator import validate
from skills_ref.parser import read_properties
from skills_ref.errors import SkillError
out = []
for d in json.load(sys.stdin):
    p = Path(d)
    try:
        errors = [str(e) for e in validate(p)]
    except Exception as e:
        errors = ["crash: " + type(e).__name__ + ": " + str(e)]
    try:
        props = json.dumps(read_properties(p).to_dict(), indent=2)
        perr = None
    except SkillError as e:
        props, perr = None, "Error: " + str(e)
    except Exception as e:
        props, perr = None, "crash: " + type(e).__name__ + ": " + str(e)
    out.append({"errors": errors, "props": props, "propsError": perr})
json.dump(out, sys.stdout)
`;

function skillDirs() {
  const dirs = [];
  const walk = (dir) => {
    const names = readdirSync(dir);
    if (names.includes("SKILL.md") || names.includes("skill.md")) dirs.push(dir);
    for (const n of names) {
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  walk(CORPUS);
  return dirs.sort();
}

// Python's json.dumps(..., indent=2) (ensure_ascii), as the CLI prints read-properties.
function pyJson(value) {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Why two outputs differ, by what the difference touches. */
function kindOf(ref, ours) {
  if (typeof ref === "string" && typeof ours === "string") {
    const a = JSON.parse(ref);
    const b = JSON.parse(ours);
    if (JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b))) return "properties: key set or order";
    for (const k of Object.keys(a)) {
      if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
      if (k === "metadata") {
        const same = JSON.stringify(Object.keys(a[k] ?? {}).sort()) === JSON.stringify(Object.keys(b[k] ?? {}).sort());
        return same ? "properties: metadata key order or values" : "properties: metadata keys";
      }
      return `properties: ${k}`;
    }
    return "properties: formatting";
  }
  return "properties: one side refuses the file";
}

test("the Python reference and this package over the corpus: validate and read-properties", { skip, timeout: 600_000 }, async () => {
  assert.ok(ready, "the reference could not be installed from PyPI");
  const { parseSkill, readProperties } = await importPkg();
  const dirs = skillDirs();
  assert.ok(dirs.length > 100, `only ${dirs.length} skill directories`);
  const r = spawnSync(PY, ["-c", DRIVER], { input: JSON.stringify(dirs), encoding: "utf8", maxBuffer: 512 * 1024 * 1024, timeout: 600_000 });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout);
  assert.equal(ref.length, dirs.length);

  let verdictSame = 0;
  let messagesSame = 0;
  let propsSame = 0;
  const kinds = new Map();
  const note = (kind, dir) => {
    const k = kinds.get(kind) ?? { n: 0, example: path.relative(CORPUS, dir) };
    k.n++;
    kinds.set(kind, k);
  };
  for (let i = 0; i < dirs.length; i++) {
    const dir = dirs[i];
    const file = ["SKILL.md", "skill.md"].map((n) => path.join(dir, n)).find((f) => existsSync(f));
    const bytes = readFileSync(file);
    const ours = parseSkill(bytes, { mode: "strict", dirName: path.basename(dir) }).diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    const theirs = ref[i].errors;
    if ((ours.length === 0) === (theirs.length === 0)) verdictSame++;
    else note(`validate verdict: ${theirs.length === 0 ? "reference valid, ours invalid" : "reference invalid, ours valid"}`, dir);
    if (JSON.stringify(ours) === JSON.stringify(theirs)) messagesSame++;
    else if ((ours.length === 0) === (theirs.length === 0)) note("validate: same verdict, other messages", dir);

    const p = readProperties(bytes);
    const oursProps = p.errors.length === 0 && p.properties != null ? pyJson(p.properties) : null;
    const refOut = ref[i].props ?? ref[i].propsError;
    const ourOut = oursProps ?? `Error: ${p.errors.join("\n")}`;
    if (refOut === ourOut || (ref[i].props === null && oursProps === null)) propsSame++;
    else note(kindOf(ref[i].props, oursProps), dir);
  }
  const pct = (n) => `${((100 * n) / dirs.length).toFixed(1)}%`;
  console.log(`reference skills-ref ${REF_VERSION} vs skillwasm over ${dirs.length} skill directories:`);
  console.log(`  validate verdict agrees:        ${verdictSame} (${pct(verdictSame)})`);
  console.log(`  validate messages agree:        ${messagesSame} (${pct(messagesSame)})`);
  console.log(`  read-properties output agrees:  ${propsSame} (${pct(propsSame)})`);
  for (const [kind, { n, example }] of [...kinds].sort((a, b) => b[1].n - a[1].n)) console.log(`  differs: ${kind}: ${n} (e.g. ${example})`);
  // The reference never crashes on the corpus, and the verdicts agree on almost every file.
  assert.ok(!ref.some((x) => x.errors.some((e) => e.startsWith("crash:"))), "the reference crashed on a file");
  assert.ok(verdictSame >= dirs.length * 0.9, `the verdicts agree on only ${pct(verdictSame)}`);
});
