// Property-based hostile callers: arbitrary JS values (fc.anything(), deep nesting, strings with
// lone surrogates, throwing getters and Proxies) in every parameter of every export and method of
// the SPECS table (support/hostile-cases.mjs), the other arguments normal.
//
// The property, for each call: no wasm trap; no JS exception unwinding through Rust frames (the
// wasm stack pointer is where it was); a synchronous export returns or throws a TypeError (or
// passes a hostile getter's own HostileError on); an async one returns a promise that settles
// within the bound and, if it rejects, rejects with a TypeError (or the HostileError).
//
// How to run it longer: SKILLWASM_FUZZ_RUNS=2000 node --test tests/js/hostile-fuzz.test.mjs
// (default 40 runs per export, a few seconds in all). To replay a failure, take the seed and path
// fast-check prints and set SKILLWASM_FUZZ_SEED=<seed> SKILLWASM_FUZZ_PATH=<path>.
//
// Each export gets its own wasm instance (a fresh copy of the glue module), so a trap found for one
// does not fail the others.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { PKG, importPkg } from "./helpers.mjs";
import {
  DEEP, HostileError, STACK_POINTER_EXPORT, cyclicObject, deepArray, deepObject, exportStackPointer, lyingLength,
  lyingLengthProxy, recordProcessErrors, settle, showError, throwingGetter, trapProxy, TRAPS,
} from "./support/hostile.mjs";
import { SPECS, fixtures, prepare } from "./support/hostile-cases.mjs";

const { guardModule } = await import(pathToFileURL(path.join(PKG, "instance.js")).href);
const { withColdPlaceholders } = await import("./support/cold-placeholders.mjs");
const { installServing } = await import(pathToFileURL(path.join(PKG, "extra.js")).href);

const RUNS = Number(process.env.SKILLWASM_FUZZ_RUNS ?? 40);
const SEED = process.env.SKILLWASM_FUZZ_SEED === undefined ? undefined : Number(process.env.SKILLWASM_FUZZ_SEED);
const PATH = process.env.SKILLWASM_FUZZ_PATH;
const SETTLE = 2000;

const seen = recordProcessErrors();
const node = await importPkg();
await prepare();
const wasmModule = new WebAssembly.Module(exportStackPointer(readFileSync(path.join(PKG, "skillwasm_bg.wasm"))));
let copies = 0;

/** The package over a new wasm instance: the glue loaded again (a new module record), the JS-only exports shared. */
async function freshPackage() {
  const glue = await import(`${pathToFileURL(path.join(PKG, "skillwasm.js")).href}?fuzz=${copies++}`);
  // Its cold code is loaded over it when it needs it, as for the package's own instances.
  const exports = withColdPlaceholders(() => glue.initSync({ module: wasmModule }));
  // Guarded as the package guards its own glue (exports.js): that is what callers get.
  const core = guardModule(glue);
  // SkillsMcp and publishRegistry over the fresh classes, as exports.js puts them on the
  // package's own (over the package's second module, which this copy shares, as its own
  // functions and methods do through boundary.js).
  const pkg = { ...node, ...core, ...installServing(core) };
  return { pkg, sp: () => exports[STACK_POINTER_EXPORT].value };
}

// Arbitraries generate descriptions; the property builds the values from them (fast-check prints
// and copies what it generates, and a throwing getter or a 10,000-deep array would break that).
const hostile = fc.oneof(
  fc.constantFrom(...TRAPS).map((trap) => ({ proxy: trap })),
  fc.constantFrom("name", "input", "mode", "format", "command", "toolName", "0").map((key) => ({ getter: key })),
  fc.constantFrom(1e9, "throw").map((n) => ({ lyingU8: n })),
  // (A Proxy array whose length says 1e9 can make a synchronous call loop for minutes: it is in
  // the case table, which runs in workers that can be stopped, not here.)
  fc.constant({ lyingArray: "throw" }),
  fc.constant({ cyclic: true }),
);

const value = fc.oneof(
  { weight: 4, arbitrary: fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withDate: true, maxDepth: 4 }).map((plain) => ({ plain })) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 64 }).map((plain) => ({ plain })) },
  { weight: 1, arbitrary: fc.integer({ min: DEEP, max: 2 * DEEP }).map((n) => ({ deepArray: n })) },
  { weight: 1, arbitrary: fc.integer({ min: DEEP, max: 2 * DEEP }).map((n) => ({ deepObject: n })) },
  { weight: 2, arbitrary: hostile },
);

function build(d) {
  if ("plain" in d) return d.plain;
  if ("normal" in d) return d.normal;
  if ("deepArray" in d) return deepArray(d.deepArray);
  if ("deepObject" in d) return deepObject(d.deepObject, "name");
  if ("proxy" in d) return trapProxy({ name: "good", input: "x" }, d.proxy);
  if ("getter" in d) return throwingGetter({ name: "good" }, d.getter);
  if ("lyingU8" in d) return lyingLength(new TextEncoder().encode("---\nname: a\n---\n"), d.lyingU8);
  if ("lyingArray" in d) return lyingLengthProxy(["good"], d.lyingArray);
  return cyclicObject({ name: "good" });
}

/** TypeErrors (and a hostile getter's own error); plus the two documented errors for bad data. */
function acceptable(e, spec) {
  if (e instanceof TypeError || e instanceof HostileError) return true;
  if (spec.name === "unzip") return e?.constructor?.name === "ZipError";
  if (spec.name === "SkillRegistry.fromSnapshot") return e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && /snapshot/i.test(e.message);
  return false;
}

for (const spec of SPECS.filter((s) => !s.noFuzz)) {
  const arity = spec.params.filter((p) => p.name !== "this" && !p.name.includes(".") && !p.name.startsWith("(")).length;
  const hasThis = spec.params.some((p) => p.name === "this");
  test(`fuzz ${spec.name}: arbitrary arguments never trap, unwind or hang`, async () => {
    const { pkg, sp } = await freshPackage();
    const fx = await fixtures(pkg);
    const normal = spec.args(fx, pkg);
    const f = spec.f(pkg, fx);
    const self = spec.self ? spec.self(pkg, fx) : undefined;
    // Each argument is its normal value or an arbitrary one.
    const slot = () => fc.oneof({ weight: 1, arbitrary: fc.constant({ normal: true }) }, { weight: 2, arbitrary: value });
    const argsArb = fc.tuple(...Array.from({ length: arity }, () => slot()));
    const thisArb = hasThis ? fc.oneof({ weight: 3, arbitrary: fc.constant({ normal: true }) }, { weight: 1, arbitrary: value }) : fc.constant({ normal: true });
    await fc.assert(
      fc.asyncProperty(thisArb, argsArb, async (thisDesc, descs) => {
        const thisValue = "normal" in thisDesc ? self : build(thisDesc);
        const args = descs.map((d, i) => ("normal" in d ? normal[i] : build(d)));
        const before = sp();
        let outcome;
        try {
          const r = spec.ctor ? Reflect.construct(f, args) : Reflect.apply(f, thisValue, args);
          outcome = spec.async ? await settle(r, SETTLE) : { how: "returned" };
        } catch (error) {
          outcome = { how: "threw", error };
        }
        const how = outcome.how;
        if (spec.async && how === "threw") return fail(`threw synchronously: ${showError(outcome.error)} (an async export rejects)`);
        if (how === "timeout") return fail(`the promise did not settle within ${SETTLE} ms`);
        if ((how === "threw" || how === "rejected") && !acceptable(outcome.error, spec)) {
          return fail(`${how} ${showError(outcome.error)} (only a TypeError is allowed)`);
        }
        const after = sp();
        if (after !== before) return fail(`${how}, but a JS exception unwound through Rust frames (stack pointer ${before - after} bytes lower)`);
        return true;
      }),
      { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: true, interruptAfterTimeLimit: 20_000 },
    ).catch((e) => {
      // fast-check's report names the counterexample; the cause says what the export did with it.
      throw new Error(`${spec.name}: ${e.cause?.message ?? ""}\n${e.message}`);
    });
  });
}

function fail(message) {
  throw new Error(message);
}

test("the fuzz process saw no uncaught exception or unhandled rejection", async () => {
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(seen, []);
});
