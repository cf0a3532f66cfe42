// The package survives a dead wasm instance: after a trap (a WebAssembly.RuntimeError) in a sync
// or an async call, the next call runs on a new instance, the listeners are told, objects of the
// old instance say that they are gone, and no promise stays pending. Proven in Node (child
// processes without error handlers: a trap that escaped would crash them), in workerd (a Worker
// isolate that hit a trap serves the next request) and in Chromium. The scenario and the traps are
// in support/instance-reset.mjs.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { checkReport, trapInputs, traps } from "./support/instance-reset.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { startWorker } from "./support/workerd.mjs";
import { PKG, importPkg } from "./helpers.mjs";

const SUPPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), "support");
const sw = await importPkg();
const glue = await import(pathToFileURL(path.join(PKG, "skillwasm.js")).href);
const extraGlue = await import(pathToFileURL(path.join(PKG, "skillwasm_extra.js")).href);

// The traps are real (the instance aborts inside a getter the engine reads: see
// support/instance-reset.mjs); if they ever stop reaching the guard, the scenario has no trap to
// recover from.
const noTrap = !traps(sw, trapInputs.getter)
  ? "a trap inside a getter does not reach the guard in this build (support/instance-reset.mjs): no real trap to recover from"
  : false;

// The scenario in a fresh node with no error handlers: an uncaught exception or unhandled
// rejection would end it with a non-zero status and a stack on stderr.
function nodeScenario(input) {
  const scenario = pathToFileURL(path.join(SUPPORT, "instance-reset.mjs")).href;
  const entry = pathToFileURL(path.join(PKG, "node.js")).href;
  const source = `
const sw = await import(${JSON.stringify(entry)});
const { resetScenario } = await import(${JSON.stringify(scenario)});
console.log(JSON.stringify(await resetScenario(sw, ${JSON.stringify(input)})));
`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8", timeout: 60_000 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `the scenario failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}`);
  assert.equal(r.stderr, "", "nothing reported as uncaught");
  return JSON.parse(r.stdout);
}

describe("trap recovery in Node", () => {
  test("every generated export is guarded, in every entry", async () => {
    const browser = await import(pathToFileURL(path.join(PKG, "browser.js")).href);
    // Both modules' exports; the `__sw_` ones pass data between the two and are not exported.
    const exported = (g) => Object.keys(g).filter((n) => n !== "default" && !n.startsWith("__sw_"));
    const names = exported(glue);
    assert.ok(names.includes("__wbg_reset_state"), "the glue was generated with --experimental-reset-state-function");
    const extraNames = exported(extraGlue).filter((n) => n !== "initSync" && n !== "__wbg_reset_state");
    assert.ok(extraNames.includes("compactSkillContent"), "the second module holds the transcript functions");
    for (const entry of [sw, browser]) {
      for (const [g, list] of [
        [glue, names],
        [extraGlue, extraNames],
      ]) {
        for (const name of list) {
          assert.equal(typeof entry[name], typeof g[name], name);
          assert.notEqual(entry[name], g[name], `${name} is exported unguarded: add it to the list in guarded.js`);
        }
      }
      for (const g of [glue, extraGlue]) {
        for (const name of Object.keys(g).filter((n) => n.startsWith("__sw_"))) assert.equal(entry[name], undefined, `${name} is internal`);
      }
      for (const name of ["onInstanceReset", "instanceResets", "InstanceResetError"]) assert.ok(entry[name], name);
    }
  });

  test("the classes stay the classes: instanceof, static factories", async () => {
    const reg = await sw.SkillRegistry.discover({ builtin: sw.memoryStorage({}) });
    assert.ok(reg instanceof sw.SkillRegistry);
    assert.ok(reg instanceof glue.SkillRegistry);
    const tool = new sw.SkillTool(reg);
    assert.ok(tool instanceof sw.SkillTool);
    assert.ok(tool.session instanceof sw.SkillSession);
    assert.ok(new sw.SkillSession() instanceof sw.SkillSession);
    assert.equal(sw.SkillRegistry.name, "SkillRegistry");
    // free() and Symbol.dispose of a live object free it.
    const session = new sw.SkillSession();
    session.free();
    assert.equal(session.__wbg_ptr, 0);
    const disposed = new sw.SkillSession();
    disposed[Symbol.dispose]();
    assert.equal(disposed.__wbg_ptr, 0);
    tool.free();
    reg.free();
    assert.ok(new sw.InstanceResetError("x") instanceof Error);
  });

  // These inputs trapped the instance once (a capacity overflow in the Rust copy); now they are
  // refused before anything is copied, or read through the intrinsic length.
  test("a 2 GiB + 16 byte input is refused with a diagnostic, before it is copied: no trap", () => {
    const before = sw.instanceResets();
    const r = sw.parseSkill(new Uint8Array(2 ** 31 + 16));
    assert.equal(r.skill, null);
    assert.equal(r.diagnostics[0].code, "skill-too-large");
    assert.equal(sw.instanceResets(), before);
  });

  test("an input that claims 2 GiB + 16 bytes is refused with a TypeError: no trap", () => {
    const before = sw.instanceResets();
    class LyingLength extends Uint8Array {
      get length() {
        return 2 ** 31 + 16;
      }
    }
    assert.throws(() => sw.parseSkill(new LyingLength(8)), { name: "TypeError", message: /length says 2147483664 but holds 8 bytes/ });
    assert.throws(() => sw.parseSkills(Object.assign([], { length: 2 ** 32 - 1 })), TypeError);
    assert.equal(sw.instanceResets(), before);
  });

  test("a getter that traps the instance: the next call recovers (fresh node)", { skip: noTrap }, () => {
    checkReport(assert, nodeScenario("getter"));
  });

  test("in this process: a trap, the listener, a manual reset", { skip: noTrap }, () => {
    const seen = [];
    const off = sw.onInstanceReset((e) => seen.push(e));
    const before = sw.instanceResets();
    assert.throws(() => sw.parseSkill("---\nname: a\ndescription: d\n---\n", trapInputs.getter(sw)), WebAssembly.RuntimeError);
    assert.equal(sw.instanceResets(), before + 1);
    assert.equal(seen.length, 1);
    assert.ok(seen[0].error instanceof WebAssembly.RuntimeError);
    assert.equal(seen[0].count, before + 1);
    // The next call replaces the instance.
    assert.equal(sw.parseSkill("---\nname: a\ndescription: d\n---\n").skill.name, "a");
    const session = new sw.SkillSession();
    sw.__wbg_reset_state(); // a replacement without a trap: objects go stale, nobody is told
    assert.throws(() => session.isLoaded("a"), { name: "InstanceResetError" });
    assert.equal(seen.length, 1);
    off();
  });
});

describe("trap recovery in workerd", { skip: noTrap }, () => {
  let worker;
  before(async () => {
    worker = await startWorker({ script: "reset-worker.js", support: ["instance-reset.mjs"] });
  });
  after(async () => {
    await worker?.dispose();
  });

  async function get(pathname) {
    const res = await worker.mf.dispatchFetch(`http://worker${pathname}`);
    return { status: res.status, text: await res.text() };
  }

  test("an isolate that hit a trap serves the next request normally", async () => {
    const first = JSON.parse((await get("/parse")).text);
    assert.deepEqual(first, { name: "demo", resets: 0, keptRegistry: null });
    assert.equal((await get("/keep")).status, 200);
    const trapped = await get("/trap");
    assert.equal(trapped.status, 500);
    assert.match(trapped.text, /RuntimeError: unreachable/);
    const next = JSON.parse((await get("/parse")).text);
    assert.equal(next.name, "demo");
    assert.equal(next.resets, 1);
    assert.equal(next.keptRegistry.threw, "InstanceResetError", "a registry kept from before the trap says it is gone");
  });

  test("the scenario inside one request", async () => {
    const res = await get("/scenario?input=getter");
    assert.equal(res.status, 200, res.text);
    checkReport(assert, JSON.parse(res.text));
    assert.equal(JSON.parse((await get("/parse")).text).name, "demo");
  });
});

const noChromium = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`, which installs the Debian chromium package)` : false;

describe("trap recovery in Chromium", { skip: noTrap || noChromium }, () => {
  let server;
  let browser;
  before(async () => {
    assert.ok(!missing, `${CHROMIUM} is missing and CI is set: install the Debian chromium package`);
    server = await serveStatic(
      { "/pkg/": PKG, "/support/": SUPPORT },
      { "/": { type: "text/html", body: `<!doctype html><meta charset="utf-8"><title>skillwasm trap</title>` } },
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("the scenario in a page", async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/`);
    const report = await page.evaluate(async () => {
      const sw = await import("/pkg/browser.js");
      await sw.init();
      // The scenario takes snapshots: the rest of the package, loaded in the background.
      await sw.ready();
      const { resetScenario } = await import("/support/instance-reset.mjs");
      return resetScenario(sw, "getter");
    });
    checkReport(assert, report);
    assert.deepEqual(errors, [], "nothing reported as uncaught in the page");
    await page.close();
  });
});
