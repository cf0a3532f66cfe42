// Every export of the package, every method of its classes and every parameter has hostile cases
// (support/hostile-cases.mjs): a new export or a new parameter fails here until it gets some.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";
import { coverage } from "./support/hostile-cases.mjs";

const pkg = await importPkg();
const covered = coverage();
const CLASSES = ["SkillRegistry", "SkillSession", "SkillTool", "SkillsMcp"];

/** Parameters that stand for a positional argument (not `this`, `new`, or a part of another one). */
function positional(params) {
  return [...params].filter((p) => p !== "this" && p !== "new.target" && !p.includes(".") && !p.includes("(") && !p.includes(" "));
}

/** Every callable the package offers: exports, and the static and prototype members of its classes. */
function members() {
  const out = [];
  for (const [name, v] of Object.entries(pkg)) {
    if (typeof v !== "function") continue;
    if (CLASSES.includes(name)) {
      out.push({ name, fn: v, isClass: true });
      for (const m of Object.getOwnPropertyNames(v)) {
        if (["length", "name", "prototype", "__wrap"].includes(m) || typeof v[m] !== "function") continue;
        out.push({ name: `${name}.${m}`, fn: v[m] });
      }
      // Up the prototype chain: a class the package subclasses (SkillsMcp, constructed with a
      // registry) has its methods on the second module's class.
      const seen = new Set(["constructor", "__destroy_into_raw"]);
      for (let proto = v.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
        for (const m of Object.getOwnPropertyNames(proto)) {
          if (seen.has(m)) continue;
          seen.add(m);
          const d = Object.getOwnPropertyDescriptor(proto, m);
          out.push({ name: `${name}#${m}`, fn: d.get ?? d.value });
        }
      }
    } else {
      out.push({ name, fn: v });
    }
  }
  return out;
}

test("the package exports what the hostile table knows about", () => {
  assert.ok(Object.keys(pkg).length >= 38, `only ${Object.keys(pkg).length} exports`);
});

for (const { name, fn, isClass } of members()) {
  test(`hostile cases cover ${name}`, () => {
    const params = covered.get(name);
    assert.ok(params, `${name} has no hostile case: add it to SPECS in support/hostile-cases.mjs`);
    if (isClass) return;
    // The class itself is covered by its constructor cases (new.target, or its parameters).
    const n = positional(params).length;
    assert.ok(n >= fn.length, `${name} takes ${fn.length} parameter(s) but the table covers ${n}: ${[...params].join(", ")}`);
  });
}

test("every class method is covered on a hostile `this`", () => {
  const missing = members().filter((m) => m.name.includes("#") && !covered.get(m.name)?.has("this")).map((m) => m.name);
  assert.deepEqual(missing, []);
});
