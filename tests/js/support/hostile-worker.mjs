// Worker thread of the hostile-caller suite: one wasm instance, cases run one after another on
// request (see runCases in hostile.mjs). For each case: fresh fixtures, the hostile call repeated,
// every outcome checked, then every export called normally and compared with the baseline taken
// when the worker started.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { STACK_POINTER_EXPORT, attempt, describeOutcome, exportStackPointer, isTrap, outcomeKey, showError } from "./hostile.mjs";

let current = null;
const stray = [];
process.on("uncaughtException", (e) => stray.push({ id: current, text: `uncaught exception: ${showError(e)}` }));
process.on("unhandledRejection", (e) => stray.push({ id: current, text: `unhandled rejection: ${showError(e)}` }));

const { PKG, importPkg } = await import("../helpers.mjs");
const { caseById, canary, fixtures, compareCanary, prepare, probe } = await import("./hostile-cases.mjs");

let pkg;
let baseline;
let probeBaseline;
let sp = () => NaN;
try {
  // The package's own glue, initialised with the module whose stack pointer is exported; the
  // node entry point then finds the instance ready and uses it.
  const glue = await import(pathToFileURL(path.join(PKG, "skillwasm.js")).href);
  const { withColdPlaceholders } = await import("./cold-placeholders.mjs");
  const exports = withColdPlaceholders(() => glue.initSync({ module: new WebAssembly.Module(exportStackPointer(readFileSync(path.join(PKG, "skillwasm_bg.wasm")))) }));
  // The second module likewise (the package's loader then finds it instantiated): a JS exception
  // unwinding through the Rust frames of either module moves the sum.
  const extraGlue = await import(pathToFileURL(path.join(PKG, "skillwasm_extra.js")).href);
  const extraExports = extraGlue.initSync({ module: new WebAssembly.Module(exportStackPointer(readFileSync(path.join(PKG, "skillwasm_extra_bg.wasm")))) });
  sp = () => exports[STACK_POINTER_EXPORT].value + extraExports[STACK_POINTER_EXPORT].value;
  pkg = await importPkg();
  probeBaseline = await probe(pkg);
  await prepare();
  baseline = workerData?.baseline ?? (await canary(pkg));
  parentPort.postMessage({ ready: true, baseline });
} catch (e) {
  parentPort.postMessage({ ready: false, error: showError(e) });
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

function attemptSync(fn) {
  try {
    const value = fn();
    if (value && typeof value.then === "function") return { how: "returned", value, promise: true };
    return { how: "returned", value };
  } catch (error) {
    return { how: "threw", error };
  }
}

// Errors are made by the thousand here; their stack traces are never read.
Error.stackTraceLimit = 1;

parentPort.on("message", async ({ run }) => {
  const c = caseById(run);
  current = run;
  const t0 = performance.now();
  const problems = [];
  const counts = {};
  let calls = 0;
  const sp0 = sp();
  try {
    const fx = await fixtures(pkg);
    const v = c.make ? c.make(fx, pkg) : undefined;
    // Outcomes that look alike (same kind, error class and message) are checked once.
    const verdicts = new Map();
    const judge = (o) => {
      const sig = o.how === "threw" || o.how === "rejected" ? `${o.how}|${o.error?.constructor?.name}|${o.error?.message}` : null;
      if (sig !== null && verdicts.has(sig)) return verdicts.get(sig);
      const p = c.expect.test(o, c.async);
      if (sig !== null) verdicts.set(sig, p);
      return p;
    };
    for (let i = 0; i < c.reps; i++) {
      // Synchronous exports are called in a plain loop, with no job queue turn between calls.
      const o = c.async ? await attempt(() => c.call(pkg, fx, v)) : attemptSync(() => c.call(pkg, fx, v));
      calls++;
      const key = outcomeKey(o);
      counts[key] = (counts[key] ?? 0) + 1;
      const p = judge(o);
      if (p && problems.length < 2) problems.push(`call ${i + 1} of ${c.reps}: ${p}`);
      if (o.how === "timeout" || isTrap(o)) {
        if (problems.length === 0) problems.push(`call ${i + 1}: ${describeOutcome(o)}`);
        break;
      }
    }
  } catch (e) {
    problems.push(`the case itself failed to run: ${showError(e)}`);
  }
  // Let exceptions thrown from queued jobs and timers surface before looking.
  await pause(0);
  await new Promise((r) => setImmediate(r));
  let healthy = true;
  const sp1 = sp();
  if (sp1 !== sp0) {
    healthy = false;
    problems.push(`a JS exception unwound through Rust frames: the wasm stack pointer is ${sp0 - sp1} bytes lower after ${calls} call(s) (${Math.round((sp0 - sp1) / Math.max(1, calls))} per call; the instance corrupts once the stack runs into the heap)`);
  }
  try {
    // Every export after each (export, parameter) group and after anything suspicious; a few
    // exports after every case.
    const full = c.canary || problems.length > 0;
    const after = full ? await canary(pkg) : await probe(pkg);
    const diffs = compareCanary(full ? baseline : probeBaseline, after);
    if (diffs.length > 0) {
      healthy = false;
      problems.push(`after ${calls} call(s) the instance is corrupt; normal calls now differ: ${diffs.slice(0, 6).join("; ")}${diffs.length > 6 ? ` (and ${diffs.length - 6} more)` : ""}`);
    }
  } catch (e) {
    healthy = false;
    problems.push(`after ${calls} call(s) the normal calls failed: ${showError(e)}`);
  }
  // Strays seen between cases belong to the case before (or the one being started).
  const mine = stray.filter((s) => s.id === run || s.id === null).map((s) => s.text);
  stray.length = 0;
  if (mine.length > 0) {
    healthy = false;
    problems.push(`the process got ${mine.length} uncaught exception(s)/unhandled rejection(s), first: ${mine[0]}`);
  }
  current = null;
  parentPort.postMessage({ id: run, problems, counts, calls, healthy, ms: Math.round(performance.now() - t0) });
});
