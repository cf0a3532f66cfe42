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

// The traps are real (a capacity overflow in the Rust copy of an input); if the Rust side ever
// refuses such inputs before allocating, the scenario has no trap to recover from.
const noTrap = !traps(sw, trapInputs.lying)
  ? "this build does not trap on an input claiming 2 GiB + 16 bytes (support/instance-reset.mjs): no real trap to recover from"
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
    const names = Object.keys(glue).filter((n) => n !== "default");
    assert.ok(names.includes("__wbg_reset_state"), "the glue was generated with --experimental-reset-state-function");
    for (const entry of [sw, browser]) {
      for (const name of names) {
        assert.equal(typeof entry[name], typeof glue[name], name);
        assert.notEqual(entry[name], glue[name], `${name} is exported unguarded: add it to the list in exports.js`);
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

  test("a 2 GiB + 16 byte input traps, and the next call recovers (real input, fresh node)", { skip: noTrap }, () => {
    checkReport(assert, nodeScenario("huge"));
  });

  test("an input that claims 2 GiB + 16 bytes traps, and the next call recovers (fresh node)", { skip: noTrap }, () => {
    checkReport(assert, nodeScenario("lying"));
  });

  test("in this process: a trap, the listener, a manual reset", { skip: noTrap }, () => {
    const seen = [];
    const off = sw.onInstanceReset((e) => seen.push(e));
    const before = sw.instanceResets();
    assert.throws(() => sw.parseSkills(Object.assign([], { length: 2 ** 32 - 1 })), WebAssembly.RuntimeError);
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
    // The lying input only: a real 2 GiB buffer takes workerd seconds to allocate.
    const res = await get("/scenario?input=lying");
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
      const { resetScenario } = await import("/support/instance-reset.mjs");
      return resetScenario(sw, "lying");
    });
    checkReport(assert, report);
    assert.deepEqual(errors, [], "nothing reported as uncaught in the page");
    await page.close();
  });
});
