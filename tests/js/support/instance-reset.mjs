// A trap in the wasm and the package's recovery from it, as one runtime-neutral scenario: Node
// imports it, the Chromium test serves it to the page, the workerd test bundles it beside the
// package's modules. It takes the package's namespace and returns a plain JSON report.
//
// The traps are real, reached through the public API: the Rust code copies an input of
// `length` bytes into a Vec::with_capacity(length), and a length past isize::MAX (2 GiB - 1 in
// wasm32) is a capacity overflow, which aborts (panic = "abort": an `unreachable` trap).
// `trapInputs.huge` is such an input for real (a 2 GiB + 16 Uint8Array: zero pages the host maps
// lazily, so it is cheap where the runtime allows it); `trapInputs.lying` is a Uint8Array whose
// `length` getter says the same of 8 bytes, for runtimes that cap buffers below 2 GiB.

/** Inputs whose copy into wasm memory traps. */
export const trapInputs = {
  huge: () => new Uint8Array(2 ** 31 + 16),
  lying: () => {
    class LyingLength extends Uint8Array {
      get length() {
        return 2 ** 31 + 16;
      }
    }
    return new LyingLength(8);
  },
};

const DOC = "---\nname: demo\ndescription: A demo skill.\n---\nDemo body.\n";
const FILES = { ".agents/skills/demo/SKILL.md": DOC, ".agents/skills/demo/notes.md": "Some notes.\n" };

function outcome(f) {
  try {
    const value = f();
    return { returned: value === undefined ? null : value };
  } catch (e) {
    return thrown(e);
  }
}

function thrown(e) {
  return {
    threw: e?.name ?? String(e),
    message: e?.message ?? String(e),
    runtimeError: e instanceof WebAssembly.RuntimeError,
    cause: e?.cause instanceof WebAssembly.RuntimeError ? "RuntimeError" : null,
  };
}

// Settles `p` or says that it did not within `ms`.
async function settled(p, ms = 5000) {
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ pending: true }), ms);
  });
  try {
    return await Promise.race([p.then((v) => ({ resolved: v ?? null }), (e) => thrown(e)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when `make` gives an input that traps this build (then the scenario can run). */
export function traps(sw, make) {
  try {
    sw.parseSkill(make());
    return false;
  } catch (e) {
    return e instanceof WebAssembly.RuntimeError;
  }
}

/**
 * The scenario. `input` names one of trapInputs. Steps: objects made, a trap in a sync call, the
 * next call, every old object, the factories; then a trap inside an async call while another
 * async call is pending, the stale callbacks of that dead instance answering after the reset,
 * and the next async call.
 */
export async function resetScenario(sw, input = "lying") {
  const trapInput = trapInputs[input];
  const events = [];
  const off = sw.onInstanceReset((e) => events.push({ error: e.error?.name ?? null, runtimeError: e.error instanceof WebAssembly.RuntimeError, count: e.count }));
  const resetsBefore = sw.instanceResets();
  const mem = sw.memoryStorage(FILES);
  let poison = null; // a key whose read answers with the trapping input
  let release;
  const gate = new Promise((resolve) => {
    release = resolve;
  });
  let gated = null; // a key whose read waits for the gate
  const storage = {
    list: (prefix, opts) => mem.list(prefix, opts),
    async read(key, opts) {
      if (key === poison) return trapInput();
      if (key === gated) await gate;
      return mem.read(key, opts);
    },
  };
  const options = { project: storage, trustProject: true, timeoutMs: 1000 };
  const r = {};

  const registry = await sw.SkillRegistry.discover(options);
  const tool = new sw.SkillTool(registry);
  const session = tool.session;
  const ownSession = new sw.SkillSession();
  const snapshot = registry.snapshot();
  r.before = { names: registry.names(), parsed: sw.parseSkill(DOC).skill?.name ?? null };

  // A trap in a synchronous call: the caller gets the RuntimeError, the listener is told.
  r.syncTrap = outcome(() => sw.parseSkill(trapInput()));
  r.eventsAfterSyncTrap = events.length;
  // The next call runs on a new instance.
  r.afterSyncTrap = outcome(() => sw.parseSkill(DOC).skill?.name);
  r.version = outcome(() => sw.version());
  // Objects of the old instance say so, whatever is called on them or with them.
  r.stale = {
    registryNames: outcome(() => registry.names()),
    registryRead: await settled(Promise.resolve().then(() => registry.readFile("demo"))),
    toolDefinition: outcome(() => tool.definition()),
    session: outcome(() => session.isLoaded("demo")),
    toolSession: outcome(() => tool.session),
    ownSession: outcome(() => ownSession.activations()),
    renderCatalog: outcome(() => sw.renderCatalog(registry)),
    newTool: outcome(() => new sw.SkillTool(registry)),
    free: outcome(() => {
      registry.free();
      tool.free();
      session.free();
      ownSession.free();
    }),
  };
  // Static and async factories work after the reset.
  r.fromSnapshot = outcome(() => sw.SkillRegistry.fromSnapshot(snapshot, options).names());
  const fresh = await sw.SkillRegistry.discover(options);
  const freshTool = new sw.SkillTool(fresh);
  r.fresh = {
    names: fresh.names(),
    execute: await settled(freshTool.execute({ name: "demo" }).then((res) => ({ isError: res.isError, skillName: res.skillName }))),
    newSession: outcome(() => new sw.SkillSession().isLoaded("demo")),
  };

  // A trap inside an async call (in a poll the engine runs as a microtask), while another async
  // call waits on its store: both settle, neither stays pending.
  gated = ".agents/skills/demo/notes.md";
  const waiting = fresh.readFile("demo", "notes.md");
  poison = ".agents/skills/demo/SKILL.md";
  const trapping = sw.SkillRegistry.discover(options);
  r.asyncTrap = await settled(trapping);
  r.pendingDuringTrap = await settled(waiting);
  r.eventsAfterAsyncTrap = events.length;
  // The dead instance's store answer comes in now: it is dropped, not run.
  poison = null;
  gated = null;
  release();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const again = await sw.SkillRegistry.discover(options);
  r.afterAsyncTrap = {
    names: again.names(),
    read: await settled(again.readFile("demo", "notes.md").then((f) => f.text ?? null)),
    staleFresh: outcome(() => fresh.names()),
  };
  r.events = events;
  r.resets = sw.instanceResets() - resetsBefore;
  off();
  r.eventsAfterOff = outcome(() => {
    try {
      sw.parseSkill(trapInput());
    } catch {}
    return sw.parseSkill(DOC).skill?.name;
  });
  r.eventsCountedAfterOff = events.length;
  return r;
}

/** What every runtime's report must say. */
export function checkReport(assert, r) {
  const staleMessage = (what) => new RegExp(`^this ${what} belonged to a WebAssembly instance that was reset after a trap; create it again$`);
  assert.deepEqual(r.before, { names: ["demo"], parsed: "demo" });
  assert.equal(r.syncTrap.runtimeError, true, `the sync trap: ${JSON.stringify(r.syncTrap)}`);
  assert.equal(r.eventsAfterSyncTrap, 1, "the listener is told at the trap");
  assert.deepEqual(r.afterSyncTrap, { returned: "demo" });
  assert.ok(typeof r.version.returned === "string");
  for (const [k, what] of [
    ["registryNames", "SkillRegistry"],
    ["registryRead", "SkillRegistry"],
    ["toolDefinition", "SkillTool"],
    ["session", "SkillSession"],
    ["toolSession", "SkillTool"],
    ["ownSession", "SkillSession"],
    ["renderCatalog", "SkillRegistry"],
    ["newTool", "SkillRegistry"],
  ]) {
    assert.equal(r.stale[k].threw, "InstanceResetError", `${k}: ${JSON.stringify(r.stale[k])}`);
    assert.match(r.stale[k].message, staleMessage(what), k);
  }
  assert.deepEqual(r.stale.free, { returned: null }, "free() of an old object is a no-op");
  assert.deepEqual(r.fromSnapshot, { returned: ["demo"] });
  assert.deepEqual(r.fresh, { names: ["demo"], execute: { resolved: { isError: false, skillName: "demo" } }, newSession: { returned: false } });
  assert.equal(r.asyncTrap.threw, "InstanceResetError", `the async trap: ${JSON.stringify(r.asyncTrap)}`);
  assert.equal(r.asyncTrap.cause, "RuntimeError");
  assert.match(r.asyncTrap.message, /trapped \(RuntimeError: unreachable\) while this call was pending/);
  assert.equal(r.pendingDuringTrap.threw, "InstanceResetError", `the other pending call: ${JSON.stringify(r.pendingDuringTrap)}`);
  assert.equal(r.eventsAfterAsyncTrap, 2);
  assert.deepEqual(r.afterAsyncTrap.names, ["demo"]);
  assert.deepEqual(r.afterAsyncTrap.read, { resolved: "Some notes.\n" });
  assert.match(r.afterAsyncTrap.staleFresh.message, staleMessage("SkillRegistry"));
  assert.deepEqual(r.events.map((e) => [e.error, e.runtimeError]), [["RuntimeError", true], ["RuntimeError", true]]);
  assert.deepEqual(r.events.map((e) => e.count - r.events[0].count), [0, 1], "count goes up by one per trap");
  assert.equal(r.resets, 2);
  assert.deepEqual(r.eventsAfterOff, { returned: "demo" });
  assert.equal(r.eventsCountedAfterOff, 2, "a removed listener is not told");
}
