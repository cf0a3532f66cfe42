// Hostile stores: SkillStorage objects whose list or read misbehave, through discovery and
// through every call that reads after it; the storage object itself; discovery's scopes and roots.
import {
  DEEP, REPS, STORE_REPS, STORE_TIMEOUT_MS, WIDE, HostileError, cyclicObject, deepArray, describeOutcome, lyingLength,
  lyingLengthProxy, settle, throwingGetter, throwingMethodsU8, trapProxy, typeError, typeErrorOrOwn, value, valueOrTypeError,
  wideArray,
} from "./hostile.mjs";
import { CHECK, SKILL_HURT, enc } from "./hostile-fixtures.mjs";

const registryIsReady = CHECK.registry;

/** An error value whose every trap throws (even instanceof and typeof-driven inspection). */
function poisonedError() {
  const handler = {};
  for (const t of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"]) {
    handler[t] = () => {
      throw new HostileError(`error value ${t} trap`);
    };
  }
  return new Proxy(new Error("poisoned"), handler);
}

const HURT = { "hurt/SKILL.md": SKILL_HURT, "hurt/notes.md": "notes\n" };

/**
 * A store over HURT whose list and/or read misbehave once `armed`. `list(inner, prefix, opts)`
 * and `read(inner, key, opts)` replace the methods.
 */
function hostileStore(pkg, { list, read, prefixes, heads, files = HURT }, armed = true) {
  const inner = pkg.memoryStorage(files);
  const s = {
    armed,
    list(prefix, opts) {
      return s.armed && list ? list(inner, prefix, opts) : inner.list(prefix, opts);
    },
    read(key, opts) {
      return s.armed && read ? read(inner, key, opts) : inner.read(key, opts);
    },
  };
  // A store that offers listSkillPrefixes: the whole answer misbehaves (prefixes), or only the
  // heads of an honest page do (heads(entry) gives the entry the core sees).
  if (prefixes || heads) {
    s.listSkillPrefixes = (prefix, opts) => {
      if (s.armed && prefixes) return prefixes(inner, prefix, opts);
      return honestPrefixes(inner, prefix, opts, s.armed ? heads : null);
    };
  }
  return s;
}

/** A listSkillPrefixes page made from `inner`'s list and reads; `heads` rewrites skill files' entries. */
async function honestPrefixes(inner, prefix, opts, heads) {
  const page = await inner.list(prefix, opts);
  const files = opts?.files ?? ["SKILL.md"];
  const entries = [];
  for (const e of page.entries) {
    if (!files.includes(e.key.slice(e.key.lastIndexOf("/") + 1))) {
      entries.push(e);
      continue;
    }
    const entry = { ...e, head: await inner.read(e.key, { maxBytes: opts?.prefixBytes }) };
    entries.push(heads ? heads(entry) : entry);
  }
  return { ...page, entries };
}

const lister = (entries, extra = {}) => () => Promise.resolve({ entries, ...extra });
const neverSettles = () => new Promise(() => {});
const big = (n) => {
  const u = new Uint8Array(n);
  u.set(enc.encode(SKILL_HURT.replace("Hurt body.", "")));
  u.fill(97, SKILL_HURT.length);
  return u;
};

const LIST_HOSTILE = [
  ["throws an Error synchronously", () => { throw new Error("list broke"); }],
  ["throws a string", () => { throw "list broke"; }],
  ["throws undefined", () => { throw undefined; }],
  ["throws an error value whose every trap throws", () => { throw poisonedError(); }],
  ["returns a rejected promise", () => Promise.reject(new Error("list rejected"))],
  ["rejects with an error value whose every trap throws", () => Promise.reject(poisonedError())],
  ["returns a thenable whose then getter throws", () => throwingGetter({}, "then")],
  ["returns a thenable whose then throws", () => ({ then() { throw new HostileError("then"); } })],
  ["returns a thenable that rejects with a poisoned error", () => ({ then(_res, rej) { rej(poisonedError()); } })],
  ["never settles", neverSettles, "slow"],
  ["resolves to undefined", () => Promise.resolve(undefined)],
  ["resolves to null", () => Promise.resolve(null)],
  ["resolves to a number", () => Promise.resolve(5)],
  ["resolves to a string", () => Promise.resolve("entries")],
  ["resolves to a symbol", () => Promise.resolve(Symbol("s"))],
  ["answers synchronously with a page", (inner, prefix, opts) => ({ entries: [{ key: "hurt/SKILL.md" }] }), "ok"],
  ["a page whose entries is a number", lister(5)],
  ["a page whose entries is a string", lister("hurt/SKILL.md")],
  ["a page whose entries getter throws", () => Promise.resolve(throwingGetter({}, "entries"))],
  ["a page that is a Proxy whose get trap throws", () => Promise.resolve(trapProxy({ entries: [] }, "get"))],
  ["a page whose entries is a Proxy with a throwing index getter", () => Promise.resolve({ entries: trapProxy([{ key: "hurt/SKILL.md" }], "get") })],
  ["a page whose entries is a Proxy whose length is 1e9", () => Promise.resolve({ entries: lyingLengthProxy([{ key: "hurt/SKILL.md" }], 1e9) }), "lying"],
  ["a page whose entries is a Proxy whose length getter throws", () => Promise.resolve({ entries: lyingLengthProxy([], "throw") })],
  ["an entry that is a number", lister([5])],
  ["an entry whose key is a number", lister([{ key: 5 }])],
  ["an entry whose key getter throws", lister([throwingGetter({}, "key")])],
  ["an entry whose size getter throws", lister([throwingGetter({ key: "hurt/SKILL.md" }, "size")]), "ok"],
  ["an entry whose etag getter throws", lister([throwingGetter({ key: "hurt/SKILL.md" }, "etag")]), "ok"],
  ["an entry that is a Proxy whose get trap throws", lister([trapProxy({ key: "hurt/SKILL.md" }, "get")])],
  ["a page whose cursor getter throws", () => Promise.resolve(throwingGetter({ entries: [] }, "cursor"))],
  ["a page whose cursor is a number", lister([], { cursor: 5 })],
  ["a page whose warnings is a Proxy with a throwing index getter", lister([], { warnings: trapProxy([{ key: "a", message: "b" }], "get") }), "ok"],
  ["a warning whose message getter throws", lister([], { warnings: [throwingGetter({ key: "a" }, "message")] }), "ok"],
  ["a key with lone surrogates", lister([{ key: "hu\uD800rt/SKILL.md" }]), "ok"],
  ["keys that leave the root", lister([{ key: "../x/SKILL.md" }, { key: "/abs/SKILL.md" }, { key: "a\\b/SKILL.md" }, { key: "a/%2e%2e/SKILL.md" }]), "ok"],
  ["SKILL.md listed with size 1e300", lister([{ key: "hurt/SKILL.md", size: 1e300 }]), "size"],
  ["SKILL.md listed with size 2**60", lister([{ key: "hurt/SKILL.md", size: 2 ** 60 }]), "size"],
  ["SKILL.md listed with size -1 and NaN etag", lister([{ key: "hurt/SKILL.md", size: -1, etag: NaN }]), "ok"],
  [`a page of ${WIDE} entries`, () => Promise.resolve({ entries: wideArray(WIDE, (i) => ({ key: `junk/${String(i).padStart(6, "0")}.txt`, size: 1 })) }), "wide"],
  ["the same cursor returned forever", () => Promise.resolve({ entries: [{ key: "hurt/SKILL.md", size: 10 }], cursor: "again" }), "endless"],
  ["cursors cycling between two values", (inner, prefix, opts) => Promise.resolve({ entries: [{ key: "hurt/SKILL.md", size: 10 }], cursor: opts?.cursor === "a" ? "b" : "a" }), "endless"],
  ["an endless listing (a new cursor and new keys every page)", (inner, prefix, opts) => {
    const n = Number(opts?.cursor ?? 0) + 1;
    return Promise.resolve({ entries: [{ key: `junk/${String(n).padStart(9, "0")}/SKILL.md`, size: 10 }], cursor: String(n) });
  }, "endless"],
  ["duplicate and unsorted keys", lister([{ key: "hurt/SKILL.md" }, { key: "a/SKILL.md" }, { key: "hurt/SKILL.md" }]), "ok"],
];

const READ_HOSTILE = [
  ["throws an Error synchronously", () => { throw new Error("read broke"); }],
  ["throws an error value whose every trap throws", () => { throw poisonedError(); }],
  ["returns a rejected promise", () => Promise.reject(new Error("read rejected"))],
  ["rejects with an error value whose every trap throws", () => Promise.reject(poisonedError())],
  ["returns a thenable whose then getter throws", () => throwingGetter({}, "then")],
  ["returns a thenable whose then throws", () => ({ then() { throw new HostileError("then"); } })],
  ["never settles", neverSettles, "slow"],
  ["resolves to a number", () => Promise.resolve(5)],
  ["resolves to a plain object", () => Promise.resolve({ length: 3 })],
  ["resolves to a symbol", () => Promise.resolve(Symbol("s"))],
  ["resolves to an array of numbers", () => Promise.resolve([45, 45, 45])],
  ["resolves to a Uint8Array whose length says 1e9", () => Promise.resolve(lyingLength(enc.encode(SKILL_HURT), 1e9)), "lying"],
  ["resolves to a Uint8Array whose length getter throws", () => Promise.resolve(lyingLength(enc.encode(SKILL_HURT), "throw"))],
  ["resolves to a Proxy over a Uint8Array whose get trap throws", () => Promise.resolve(trapProxy(enc.encode(SKILL_HURT), "get"))],
  ["resolves to a Uint8Array subclass whose methods throw", () => Promise.resolve(throwingMethodsU8(enc.encode(SKILL_HURT))), "ok"],
  ["resolves to a Uint8Array over a detached buffer", () => { const u = enc.encode(SKILL_HURT); structuredClone(u.buffer, { transfer: [u.buffer] }); return Promise.resolve(u); }, "ok"],
  ["resolves to text with lone surrogates", () => Promise.resolve(SKILL_HURT.replace("Hurt body.", "\uD800 body")), "ok"],
  ["ignores maxBytes and returns 1 MiB", () => Promise.resolve(big(1 << 20)), "big"],
  ["resolves to a 520 MiB SKILL.md (bytes)", () => Promise.resolve(big(520 << 20)), "huge"],
  ["resolves to a 520 MiB SKILL.md (a string of 2-byte characters)", () => Promise.resolve(SKILL_HURT.replace("Hurt body.", "") + "\u00e9".repeat(260 << 20)), "huge"],
];

// The heads of an honest listSkillPrefixes page, misbehaving. "read": the skill's file counts as
// unreadable; "list": the whole page is unreadable; "ok": the skill loads.
const HEAD_HOSTILE = [
  ["a head that is a number", (e) => ({ ...e, head: 5 }), "read"],
  ["a head that is a plain object", (e) => ({ ...e, head: { length: 3 } }), "read"],
  ["a head of 1 MiB (more than prefixBytes)", (e) => ({ ...e, head: big(1 << 20) }), "read"],
  ["a head whose length says 1e9", (e) => ({ ...e, head: lyingLength(enc.encode(SKILL_HURT), 1e9) }), "read"],
  ["a head over a detached buffer", (e) => { const u = enc.encode(SKILL_HURT); structuredClone(u.buffer, { transfer: [u.buffer] }); return { ...e, head: u }; }, "empty"],
  ["a head that is text", (e) => ({ ...e, head: SKILL_HURT }), "ok"],
  ["a head of text with lone surrogates", (e) => ({ ...e, head: SKILL_HURT.replace("Hurt body.", "\uD800") }), "ok"],
  ["a head whose getter throws", (e) => throwingGetter({ key: e.key }, "head"), "list"],
  ["a headError that is a string", (e) => ({ key: e.key, headError: "disk on fire" }), "read"],
  ["a headError that is a number", (e) => ({ key: e.key, headError: 5 }), "read"],
  ["a headError of 1 MiB", (e) => ({ key: e.key, headError: "e".repeat(1 << 20) }), "read"],
  ["a head and a headError", (e) => ({ ...e, headError: "both" }), "read"],
  ["no head at all (the core reads it)", (e) => ({ key: e.key }), "ok"],
  ["an empty head (not the file's bytes)", (e) => ({ ...e, head: new Uint8Array(0) }), "empty"],
];

const STORE_COST = {
  cheap: { reps: STORE_REPS, timeoutMs: 20_000 },
  ok: { reps: STORE_REPS, timeoutMs: 20_000 },
  big: { reps: 10, timeoutMs: 20_000 },
  slow: { reps: 5, timeoutMs: 20_000 },
  lying: { reps: 5, timeoutMs: 4_000 },
  size: { reps: STORE_REPS, timeoutMs: 20_000 },
  wide: { reps: 2, timeoutMs: 30_000 },
  endless: { reps: 1, timeoutMs: 30_000 },
  huge: { reps: 1, timeoutMs: 60_000 },
};

/** Registry options with a good scope first and the hostile store second. */
function twoScopes(fx, store, extra = {}) {
  return {
    scopes: [
      { name: "good", storage: fx.storage, roots: [""] },
      { name: "hostile", storage: store, roots: [""] },
    ],
    timeoutMs: STORE_TIMEOUT_MS,
    ...extra,
  };
}

function codes(reg) {
  return reg.diagnostics().map((d) => d.code);
}

function discoveredCheck(kind, which) {
  return (reg) => {
    if (registryIsReady(reg)) return registryIsReady(reg);
    const names = reg.names();
    if (!names.includes("good") || !names.includes("other")) return `the good scope's skills did not load (names: ${JSON.stringify(names)})`;
    const c = codes(reg);
    if (kind === "ok" || kind === "big") return null;
    if (kind === "size") return c.some((x) => /too-large|storage-read-failed/.test(x)) ? null : `no size diagnostic (codes: ${JSON.stringify(c)})`;
    if (kind === "wide") return null;
    if (kind === "endless") return c.some((x) => /storage-list-failed|scan-/.test(x)) ? null : `no diagnostic for a listing that never ends (codes: ${JSON.stringify(c)})`;
    if (kind === "huge") return c.some((x) => /too-large|storage-read-failed/.test(x)) ? null : `no diagnostic for a 520 MiB SKILL.md (codes: ${JSON.stringify(c)})`;
    const want = which === "list" ? "storage-list-failed" : "storage-read-failed";
    if (!c.includes(want)) return `no ${want} diagnostic (codes: ${JSON.stringify(c)})`;
    if (names.includes("hurt") && which === "read") return "the skill whose read failed is listed";
    return null;
  };
}

/** What discovery must make of a store whose heads misbehave (see HEAD_HOSTILE). */
function headCheck(kind) {
  return (reg) => {
    if (registryIsReady(reg)) return registryIsReady(reg);
    const names = reg.names();
    if (!names.includes("good") || !names.includes("other")) return `the good scope's skills did not load (names: ${JSON.stringify(names)})`;
    const c = codes(reg);
    if (kind === "ok") return names.includes("hurt") ? null : `the skill with a usable head did not load (codes: ${JSON.stringify(c)})`;
    // An empty head is an empty file: the skill has no frontmatter, which is a diagnostic of its own.
    if (kind === "empty") return names.includes("hurt") ? "an empty head loaded a skill" : null;
    const want = kind === "list" ? "storage-list-failed" : "storage-read-failed";
    if (!c.includes(want)) return `no ${want} diagnostic (codes: ${JSON.stringify(c)})`;
    if (names.includes("hurt")) return "the skill whose head was unusable is listed";
    return null;
  };
}

/** After a normal discovery the store turns hostile: every call that reads must still answer. */
async function afterDiscovery(pkg, fx, store) {
  store.armed = false;
  const reg = await pkg.SkillRegistry.discover(twoScopes(fx, store));
  store.armed = true;
  const tool = new pkg.SkillTool(reg, {});
  const out = {};
  out.readFile = await settle(reg.readFile("hurt"));
  out.readResource = await settle(reg.readFile("hurt", "notes.md"));
  out.execute = await settle(tool.execute({ name: "hurt" }));
  out.invoke = await settle(tool.invoke("/hurt go"));
  out.subagentPrompt = await settle(tool.subagentPrompt("hurt", "task"));
  out.refresh = await settle(reg.refresh());
  out.goodStill = reg.names();
  store.armed = false;
  tool.free();
  reg.free();
  return out;
}

function afterCheck(which, kind) {
  return (o) => {
    const problems = [];
    for (const k of ["readFile", "readResource", "execute", "invoke", "subagentPrompt", "refresh"]) {
      if (o[k].how !== "resolved") problems.push(`${k} ${describeOutcome(o[k])}`);
    }
    if (problems.length) return problems.join("; ");
    if (which === "read" && kind !== "ok" && kind !== "big") {
      if (!o.readFile.value?.error) problems.push(`readFile("hurt") resolved without an error: ${JSON.stringify(o.readFile.value).slice(0, 80)}`);
      if (!o.execute.value?.isError) problems.push("execute({ name: \"hurt\" }) is not an error result");
    }
    if (!o.goodStill.includes("good")) problems.push("the good skill disappeared");
    return problems.length ? problems.join("; ") : null;
  };
}

export function storeCases() {
  const out = [];
  const tables = [
    ["list", LIST_HOSTILE, (fn) => ({ list: fn })],
    ["read", READ_HOSTILE, (fn) => ({ read: fn })],
    // listSkillPrefixes misbehaving as a whole is a listing that fails, like list.
    ["listSkillPrefixes", LIST_HOSTILE, (fn) => ({ prefixes: fn })],
  ];
  for (const [which, table, behaveOf] of tables) {
    for (const [label, fn, kind = "cheap"] of table) {
      const cost = STORE_COST[kind];
      const behave = behaveOf(fn);
      out.push({
        group: "stores", export: "SkillRegistry.discover", param: `options.scopes[].storage.${which}`, label, async: true, ...cost,
        make: () => behave,
        call: (pkg, fx, b) => pkg.SkillRegistry.discover(twoScopes(fx, hostileStore(pkg, b))),
        expect: value(discoveredCheck(kind, which === "read" ? "read" : "list"), `a registry with the good scope's skills and a ${which === "read" ? "storage-read-failed" : "storage-list-failed"} diagnostic`),
      });
      if (kind === "wide" || kind === "huge" || kind === "endless") continue;
      out.push({
        group: "stores", export: "SkillRegistry#readFile", param: `store.${which} after discovery`, label, async: true,
        ...cost, reps: Math.min(cost.reps, 300),
        make: (fx, pkg) => hostileStore(pkg, behave, false),
        call: (pkg, fx, store) => afterDiscovery(pkg, fx, store),
        expect: value(afterCheck(which, kind), "readFile, execute, invoke, subagentPrompt and refresh all resolving"),
      });
    }
  }
  for (const [label, heads, kind] of HEAD_HOSTILE) {
    out.push({
      group: "stores", export: "SkillRegistry.discover", param: "options.scopes[].storage.listSkillPrefixes heads", label, async: true,
      reps: STORE_REPS, timeoutMs: 20_000,
      make: () => ({ heads }),
      call: (pkg, fx, b) => pkg.SkillRegistry.discover(twoScopes(fx, hostileStore(pkg, b))),
      expect: value(headCheck(kind), kind === "ok" ? "a registry with every skill" : `a registry with the good scope's skills and a ${kind === "list" ? "storage-list-failed" : "storage-read-failed"} diagnostic`),
    });
  }
  // The storage object itself, and the discovery options around it.
  const names = /storage|list|read|scope/i;
  const storeItself = [
    ["a storage whose list getter throws", () => throwingGetter({ read: () => null }, "list"), typeErrorOrOwn(names)],
    ["a storage that is a Proxy whose get trap throws", () => trapProxy({ list: () => ({ entries: [] }), read: () => null }, "get"), typeErrorOrOwn(names)],
    ["a storage that is a Proxy whose has trap throws", () => trapProxy({ list: () => ({ entries: [] }), read: () => null }, "has"), valueOrTypeError(registryIsReady, names, { own: true })],
    ["a storage without read", () => ({ list: () => ({ entries: [] }) }), typeError(/read/i)],
    ["a storage whose list is a Proxy function whose apply trap throws", () => ({ list: new Proxy(() => {}, { apply() { throw new HostileError("apply"); } }), read: () => null }), value(discoveredCheck("cheap", "list"))],
    ["a storage that is a number", () => 5, typeError(/storage/i)],
    ["a storage that is a Promise", () => Promise.resolve({ list: () => ({ entries: [] }), read: () => null }), typeError(/storage|list/i)],
  ];
  for (const [label, make, expect] of storeItself) {
    out.push({ group: "stores", export: "SkillRegistry.discover", param: "options.scopes[].storage", label, async: true, reps: REPS, timeoutMs: 20_000, make, call: (pkg, fx, s) => pkg.SkillRegistry.discover(twoScopes(fx, s)), expect });
  }
  const scopeNames = /scopes?|name|storage|roots?|trusted/i;
  const scopes = [
    ["scopes is a number", () => 5, typeError(/scopes/i)],
    ["scopes holds a number", () => [5], typeError(/scope/i)],
    ["a scope whose name is a number", (fx) => [{ name: 5, storage: fx.storage }], typeError(/name/i)],
    ["a scope whose name getter throws", (fx) => [throwingGetter({ storage: fx.storage }, "name")], typeErrorOrOwn(scopeNames)],
    ["a scope whose storage getter throws", (fx) => [throwingGetter({ name: "x" }, "storage")], typeErrorOrOwn(scopeNames)],
    ["a scope whose roots getter throws", (fx) => [throwingGetter({ name: "x", storage: fx.storage }, "roots")], typeErrorOrOwn(scopeNames)],
    ["a scope whose trusted getter throws", (fx) => [throwingGetter({ name: "x", storage: fx.storage }, "trusted")], typeErrorOrOwn(scopeNames)],
    ["a scope that is a Proxy whose get trap throws", (fx) => [trapProxy({ name: "x", storage: fx.storage }, "get")], typeErrorOrOwn(scopeNames)],
    ["scopes is a Proxy with a throwing index getter", (fx) => trapProxy([{ name: "x", storage: fx.storage }], "get"), typeErrorOrOwn(scopeNames)],
    ["scopes is a Proxy whose length is 1e9", (fx) => lyingLengthProxy([{ name: "x", storage: fx.storage }], 1e9), typeError(/scopes/i, { rangeOk: true })],
    ["a root that leaves the store", (fx) => [{ name: "x", storage: fx.storage, roots: ["../up/"] }], typeError(/root/i)],
    ["a root that is a number", (fx) => [{ name: "x", storage: fx.storage, roots: [5] }], typeError(/root/i)],
    ["a root with lone surrogates", (fx) => [{ name: "x", storage: fx.storage, roots: ["a\uD800/"] }], typeError(/root/i)],
    ["roots is a Proxy with a throwing index getter", (fx) => [{ name: "x", storage: fx.storage, roots: trapProxy(["a/"], "get") }], typeErrorOrOwn(scopeNames)],
    [`${DEEP}-deep roots`, (fx) => [{ name: "x", storage: fx.storage, roots: deepArray(DEEP) }], typeError(/root/i)],
    ["a scope name with lone surrogates", (fx) => [{ name: "x\uD800", storage: fx.storage, roots: [""] }], valueOrTypeError(registryIsReady, /name/i)],
    // The cycle is cut, and the key that holds it (`self`) is no key of a scope: a TypeError naming it.
    ["a cyclic scope", (fx) => [cyclicObject({ name: "x", storage: fx.storage, roots: [""] })], typeError(/scopes\[0\]\.self: unknown field/)],
  ];
  for (const [label, make, expect] of scopes) {
    out.push({ group: "stores", export: "SkillRegistry.discover", param: "options.scopes", label, async: true, reps: REPS, timeoutMs: 20_000, make, call: (pkg, fx, s) => pkg.SkillRegistry.discover({ scopes: s }), expect });
    out.push({ group: "stores", export: "SkillRegistry.fromSnapshot", param: "options.scopes", label, async: false, reps: REPS, timeoutMs: 20_000, make, call: (pkg, fx, s) => pkg.SkillRegistry.fromSnapshot(fx.snapshot, { scopes: s }), expect: syncOf(expect, label) });
  }
  return out;
}

/** The same expectation for the synchronous twin (fromSnapshot): a registry whose options do not
 * fit the snapshot is documented to throw, so "a value" there may also be that Error. */
function syncOf(expect) {
  return {
    what: expect.what,
    test(o) {
      if (o.how === "threw" && o.error instanceof Error && !(o.error instanceof TypeError) && !(o.error instanceof WebAssembly.RuntimeError) && /snapshot/i.test(o.error.message) && /a valid result|registry/.test(expect.what)) return null;
      return expect.test(o, false);
    },
  };
}

