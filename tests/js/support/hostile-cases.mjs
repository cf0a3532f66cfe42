// The hostile-caller cases, one table for every export of the package (and every method of its
// classes), shared by the test files (which list them) and the worker (which runs them by id).
//
// A case: { id, group, export, param, label, async, reps, timeoutMs, make(fx, pkg), call(pkg, fx, made), expect }.
// `make` builds the hostile value once; `call` is repeated `reps` times. Expectations are the
// contract (see hostile.mjs): programming errors are TypeErrors naming the parameter, bad data is
// an error value or a diagnostic, promises settle, nothing traps or corrupts the instance.
//
// Where the contract left a choice, these cases take the one a user of the library would expect:
// - A throwing getter or Proxy trap in an argument the host wrote (options, entries, scopes)
//   fails the call like a programming error: a TypeError naming the parameter or option, or the
//   host's own exception passed on unchanged. Either way it must not unwind through Rust.
// - A TypeError "names the parameter": for a wrong option value, the option's key (`mode`), not
//   only "options"; for a wrong `this`, the class.
// - Async entry points report wrong arguments by rejecting, never by throwing synchronously
//   (`promise.catch` must see every failure), the wasm-bindgen glue's own checks included.
// - A transcript is conversation data, whatever it is: a value that is no array gets the engine's
//   `{ error }` (transcript-not-array), and whatever is inside an array (a Proxy standing in for
//   it included) gets a result or `{ error }`, never a throw.
// - parseSkills: the array is the caller's (TypeError when it is none); each item is data, so a
//   bad item, even one with a throwing getter, gets an error diagnostic and the others load.
// - toPrompt entries and reattachSkills contents are the host's records: a wrong field is a
//   TypeError naming it.
// - Tool input, an OpenAI tool call and an Anthropic tool_use block come from the model: never a
//   throw or a rejection (documented "never rejects"), even when the call or block is null; and
//   isToolAllowed fails closed (allowed: false) on an input it cannot read.
// - A string with lone surrogates cannot be written as UTF-8: as text it is accepted (replacement
//   characters are fine), but as a storage key or root it is refused, since the key the engine
//   would use differs from the host's.
// - An array-like whose length says 1e9 must be refused quickly (TypeError or RangeError), not
//   iterated; an out-of-range number (NaN, -1, 0.5, 2**53) may be accepted or refused, a string
//   where a number belongs is a TypeError.
// - An option key the entry does not know is a TypeError naming it, whatever its value (a
//   function too: a misspelt callback must not silently do nothing); only a key set to undefined
//   counts as absent. Deep, wide or cyclic values under an unknown key may fail on their size
//   first; under a key it knows, they are a TypeError naming it.
// - `new SkillRegistry()` (its constructor is private) and a method called on a freed instance, a
//   bare prototype object or an instance of another class throw a TypeError.
// - fromSnapshot with bytes that are no snapshot throws its documented Error (about the
//   snapshot); bytes of the wrong JS type are a TypeError. unzip rejects garbage with a ZipError.
// - Stores: a failing list costs `storage-list-failed`, a failing read `storage-read-failed` (and
//   that skill is not listed); a SKILL.md listed or read above the size cap costs a size
//   diagnostic; an endless or cycling cursor ends with a list or scan diagnostic. A store object
//   whose `list` cannot even be read is the host's programming error (TypeError or its own error).
// - A permission predicate that calls back into the engine may get an answer or an Error, but
//   the instance must survive it.
import {
  DEEP, DEEPER, WIDE, REPS, LONE_SURROGATES, TRAPS, WRONG, HostileError, cyclicArray, cyclicObject, deepArray, deepObject,
  lyingLength, lyingLengthProxy, throwingGetter, throwingIndex, throwingMethodsU8, trapProxy, typeError, typeErrorOrOwn,
  value, valueOrTypeError, wideArray, wideObject, describeOutcome,
} from "./hostile.mjs";
import {
  CHECK, GOOD_FILES, SKILL_GOOD, SKILL_OTHER, aiSdkTranscript, enc, fakeBucket, fakeIdb, forgetProbeFixtures, fsFixtureDir, idbGlobals,
  isDiag, isObj, nextDbName,
} from "./hostile-fixtures.mjs";
import { storeCases } from "./hostile-store-cases.mjs";
import { zip as makeZip } from "./zip.mjs";

export { canary, compareCanary, fixtures, probe } from "./hostile-fixtures.mjs";

// ----------------------------------------------------------------------------------------------
// Value families per parameter kind. Each returns [{ label, make(fx, pkg, base), expect, reps?, timeoutMs? }].
// ----------------------------------------------------------------------------------------------

const COST = {
  cheap: { reps: REPS, timeoutMs: 15_000 },
  deep: { reps: 10, timeoutMs: 15_000 },
  deeper: { reps: 2, timeoutMs: 15_000 },
  wide: { reps: 2, timeoutMs: 20_000 },
  lying: { reps: 20, timeoutMs: 3_000 },
  huge: { reps: 1, timeoutMs: 30_000 },
};

const rx = (s) => new RegExp(s, "i");
const wrongOf = (labels) => labels.map((k) => ({ label: `wrong type: ${k}`, make: () => WRONG[k](), cost: "cheap" }));
const ALL_WRONG = ["number", "NaN", "bigint", "symbol", "null", "undefined", "function", "boolean", "string", "object", "array"];
const without = (list, ...drop) => list.filter((k) => !drop.includes(k));

function instanceFamily(p) {
  const names = p.names ?? rx(`${p.cls}|${p.name}`);
  const other = p.cls === "SkillSession" ? "SkillTool" : "SkillSession";
  return [
    ...wrongOf(without(ALL_WRONG, "NaN", "array")).map((c) => ({ ...c, expect: typeError(names) })),
    { label: `an object made from ${p.cls}.prototype (no instance behind it)`, make: (fx, pkg) => Object.create(pkg[p.cls].prototype), expect: typeError(names), cost: "cheap" },
    { label: `a freed ${p.cls}`, make: (fx) => fx.freed(p.cls), expect: typeError(names), cost: "cheap" },
    { label: `a ${other} instead of a ${p.cls}`, make: (fx) => fx.instance(other), expect: typeError(names), cost: "cheap" },
    { label: `a Proxy over a ${p.cls} whose get trap throws`, make: (fx) => trapProxy(fx.instance(p.cls), "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
  ];
}

function stringFamily(p) {
  const names = p.names ?? rx(p.name);
  const wrong = p.optional ? without(ALL_WRONG, "null", "undefined", "string") : without(ALL_WRONG, "string");
  const out = [
    ...wrongOf(wrong).map((c) => ({ ...c, expect: typeError(names) })),
    { label: `a ${DEEP}-deep array`, make: () => deepArray(DEEP), expect: typeError(names), cost: "deep" },
    { label: "a String object whose toString throws", make: () => Object.assign(new String("x"), { toString() { throw new HostileError("toString"); } }), expect: typeErrorOrOwn(names), cost: "cheap" },
    { label: "an object with a throwing Symbol.toPrimitive", make: () => ({ [Symbol.toPrimitive]() { throw new HostileError("toPrimitive"); } }), expect: typeErrorOrOwn(names), cost: "cheap" },
    // As text a lone surrogate is accepted; as a storage key or prefix it is refused (no UTF-8 form).
    ...LONE_SURROGATES.map((s, i) => ({ label: `lone surrogates (${i + 1})`, make: () => (p.surround ? p.surround(s) : s), expect: p.storageKey ? typeError(names) : value(p.check), cost: "cheap" })),
  ];
  if (p.huge) out.push({ label: "an 8 MiB string", make: () => (p.surround ? p.surround("x".repeat(8 << 20)) : "x".repeat(8 << 20)), expect: value(p.check), cost: "huge" });
  return out;
}

function numberFamily(p) {
  const names = p.names ?? rx(p.name);
  const wrong = without(ALL_WRONG, "number", "NaN", ...(p.optional ? ["null", "undefined"] : []));
  return [
    ...wrongOf(wrong).map((c) => ({ ...c, expect: typeError(names) })),
    ...[["NaN", NaN], ["-1", -1], ["Infinity", Infinity], ["1e300", 1e300], ["2**53", 2 ** 53], ["0.5", 0.5]].map(([l, n]) => ({
      label: `out-of-range number ${l}`, make: () => n, expect: valueOrTypeError(p.check, names, { rangeOk: true }), cost: "cheap",
    })),
  ];
}

function stringArrayFamily(p) {
  const names = p.names ?? rx(p.name);
  return [
    ...wrongOf(without(ALL_WRONG, "array")).map((c) => ({ ...c, expect: typeError(names) })),
    { label: "an array of numbers", make: () => [1, 2], expect: typeError(names), cost: "cheap" },
    { label: "an array holding a symbol", make: () => ["a", Symbol("s")], expect: typeError(names), cost: "cheap" },
    { label: `an array holding a ${DEEP}-deep array`, make: () => [deepArray(DEEP)], expect: typeError(names), cost: "deep" },
    // A store's batch call may refuse more keys than its documented per-call limit.
    { label: `${WIDE} strings`, make: () => wideArray(WIDE), expect: p.storageKeys ? valueOrTypeError(p.check, names) : value(p.check), cost: "wide" },
    { label: "an array whose element 0 is a throwing getter", make: () => throwingIndex(["a", "b"]), expect: typeErrorOrOwn(names), cost: "cheap" },
    // Reading an array takes `length` and the items (`get`); a reader that does only that never
    // calls the other traps, so for those an answer is as good as a refusal.
    ...TRAPS.map((t) => ({ label: `a Proxy array whose ${t} trap throws`, make: () => trapProxy(["a", "b"], t), expect: t === "get" ? typeErrorOrOwn(names) : valueOrTypeError(p.check, names, { own: true }), cost: "cheap" })),
    { label: "a Proxy array whose length is 1e9", make: () => lyingLengthProxy(["a"], 1e9), expect: typeError(names, { rangeOk: true }), cost: "lying" },
    { label: "a Proxy array whose length getter throws", make: () => lyingLengthProxy(["a"], "throw"), expect: typeErrorOrOwn(names), cost: "cheap" },
    { label: "a cyclic array", make: () => cyclicArray("a"), expect: typeError(names), cost: "cheap" },
    // As text a lone surrogate is accepted; as a storage key it is refused (see the key family).
    ...LONE_SURROGATES.slice(0, 2).map((s, i) => ({ label: `an item with lone surrogates (${i + 1})`, make: () => ["good", s], expect: p.storageKeys ? typeError(names) : value(p.check), cost: "cheap" })),
  ];
}

const WRONG_FOR = {
  string: [5],
  enum: [5, "no-such-value"],
  bool: ["yes"],
  number: ["10"],
  stringArray: ["a b", [5]],
  function: [5],
  map: [5],
  object: [5],
  stringOrArray: [5, [5]],
};

/**
 * Options objects. `schema` maps each known option to its type; `base(fx)` gives a valid
 * options object the variants start from; `text` names a free-text option for lone surrogates.
 */
function optionsFamily(p) {
  const names = p.names ?? rx(`\\b${p.name}\\b|options`);
  const keyRe = (k) => rx(`\\b${k}\\b`);
  const base = (fx) => ({ ...(p.base ? p.base(fx) : {}) });
  const wrong = p.optional ? without(ALL_WRONG, "null", "undefined", "object") : without(ALL_WRONG, "object");
  const out = wrongOf(wrong).map((c) => ({ ...c, expect: typeError(names) }));
  const first = Object.keys(p.schema)[0];
  const firstString = Object.keys(p.schema).find((k) => p.schema[k] === "string");
  for (const [k, type] of Object.entries(p.schema)) {
    for (const w of WRONG_FOR[type]) {
      out.push({ label: `option ${k} = ${JSON.stringify(w)}`, make: (fx) => ({ ...base(fx), [k]: w }), expect: typeError(keyRe(k)), cost: "cheap" });
    }
    if (k === first || ["function", "object", "map"].includes(type)) {
      out.push({ label: `option ${k} is a throwing getter`, make: (fx) => throwingGetter(base(fx), k), expect: typeErrorOrOwn(rx(`\\b${k}\\b|${names.source}`)), cost: "cheap" });
    }
    if (type === "stringArray" || type === "stringOrArray") {
      out.push({ label: `option ${k} is an array with a throwing element getter`, make: (fx) => ({ ...base(fx), [k]: throwingIndex(["a"]) }), expect: typeErrorOrOwn(keyRe(k)), cost: "cheap" });
    }
    if (type === "object") {
      out.push({ label: `option ${k} holds a throwing getter`, make: (fx) => ({ ...base(fx), [k]: throwingGetter({}, "format") }), expect: typeErrorOrOwn(rx(`\\b${k}\\b|format`)), cost: "cheap" });
    }
    if (type === "string" && k === firstString) {
      out.push({ label: `option ${k} is a ${DEEP}-deep array`, make: (fx) => ({ ...base(fx), [k]: deepArray(DEEP) }), expect: typeError(keyRe(k)), cost: "deep" });
    }
  }
  // A misspelt option is refused whatever its value, a function's included: JSON would drop a
  // function, and a misspelt callback (`permited`) would silently filter nothing. Only a key
  // set to undefined counts as left out.
  // `extraKeys`: not a caller's options but a record the package made (an Injection) or a store's
  // hints from the engine (list and read options), where a key a store does not know is a hint
  // it may ignore (the storage contract's room to grow).
  for (const kind of p.extraKeys ? [] : without(ALL_WRONG, "undefined")) {
    out.push({ label: `an unknown option (permited) holding ${kind === "array" || kind === "object" ? "an" : "a"} ${kind}`, make: (fx) => ({ ...base(fx), permited: WRONG[kind]() }), expect: typeError(keyRe("permited")), cost: "cheap" });
  }
  out.push(
    // Reading options must call `get`; an implementation that reads the known keys one by one
    // never calls the other traps, so for those an answer is as good as a refusal.
    ...TRAPS.map((t) => ({ label: `a Proxy whose ${t} trap throws`, make: (fx) => trapProxy(base(fx), t), expect: t === "get" ? typeErrorOrOwn(names) : valueOrTypeError(p.check, names, { own: true }), cost: "cheap" })),
    { label: "a nested object under an unknown key with a throwing getter", make: (fx) => ({ ...base(fx), extra: throwingGetter({}, "x") }), expect: valueOrTypeError(p.check, names, { own: true }), cost: "cheap" },
    { label: `a ${DEEP}-deep value under an unknown key`, make: (fx) => ({ ...base(fx), extra: deepArray(DEEP) }), expect: valueOrTypeError(p.check, names, { rangeOk: true }), cost: "deep" },
    { label: `a ${DEEPER}-deep value under an unknown key`, make: (fx) => ({ ...base(fx), extra: deepObject(DEEPER) }), expect: valueOrTypeError(p.check, names, { rangeOk: true }), cost: "deeper" },
    { label: `${WIDE} unknown keys`, make: (fx) => ({ ...wideObject(WIDE), ...base(fx) }), expect: valueOrTypeError(p.check, names, { rangeOk: true }), cost: "wide" },
    { label: "a cyclic options object", make: (fx) => cyclicObject(base(fx)), expect: valueOrTypeError(p.check, names), cost: "cheap" },
  );
  if (p.text) {
    // `textRule`: the option has a rule of its own that U+FFFD breaks (a tool name): a TypeError naming it.
    const expect = p.textRule ? typeError(keyRe(p.text)) : value(p.check);
    out.push(...LONE_SURROGATES.slice(0, 2).map((s, i) => ({ label: `option ${p.text} with lone surrogates (${i + 1})`, make: (fx) => ({ ...base(fx), [p.text]: s }), expect, cost: "cheap" })));
  }
  return out;
}

/** Data from a model or a conversation: never a throw, always `check`-able answer. */
function dataFamily(p) {
  const bad = p.check;
  const any = p.anyCheck ?? p.check;
  const wrap = p.wrap ?? ((v) => v);
  const v = (label, make, cost = "cheap", check = bad) => ({ label, make: (fx) => wrap(make(fx)), expect: value(check, p.what ?? "an error result"), cost });
  return [
    ...ALL_WRONG.map((k) => v(`wrong type: ${k}`, () => WRONG[k]())),
    v(`a ${DEEP}-deep object`, () => deepObject(DEEP, "name"), "deep"),
    v(`a ${DEEP}-deep array`, () => deepArray(DEEP), "deep"),
    v(`a ${DEEPER}-deep object`, () => deepObject(DEEPER, "a"), "deeper"),
    v(`an object with ${WIDE} keys`, () => wideObject(WIDE), "wide"),
    v(`an array of ${WIDE} elements`, () => wideArray(WIDE), "wide"),
    v("a throwing getter on name", () => throwingGetter({ name: "good" }, "name")),
    v("a throwing getter on path", () => throwingGetter({ name: "good" }, "path")),
    v("a throwing getter on command", () => throwingGetter({}, "command")),
    v("a nested object with a throwing getter", () => ({ name: "good", extra: throwingGetter({}, "x") }), "cheap", any),
    // Reading the input lists its keys and gets them; nothing asks `has`, so that one may be read.
    ...TRAPS.map((t) => v(`a Proxy whose ${t} trap throws`, () => trapProxy({ name: "good" }, t), "cheap", t === "has" ? any : bad)),
    v("a Proxy array whose length is 1e9", () => lyingLengthProxy([], 1e9), "lying"),
    v("a cyclic object", () => cyclicObject({ name: "good" }), "cheap", any),
    v("name with lone surrogates", () => ({ name: "\uD800good" })),
    v("name is a bigint", () => ({ name: 1n })),
    v("name is a symbol", () => ({ name: Symbol("s") })),
    v(`path is a ${DEEP}-deep array`, () => ({ name: "good", path: deepArray(DEEP) }), "deep"),
  ];
}

/**
 * A transcript is conversation data, whatever it is: a value that is no array gets the engine's
 * own `{ error }` (code transcript-not-array; for detectTranscriptFormat, null), and whatever is
 * inside the array gets a result or an `{ error }`, never a throw.
 */
function transcriptFamily(p) {
  const msg = (m) => (fx) => [...fx.transcript, m];
  const d = (label, make, cost = "cheap") => ({ label, make, expect: value(p.check, "a result or { error }"), cost });
  const notArray = p.check === CHECK.format ? CHECK.format : (v) => (isObj(v) && isDiag(v.error) ? null : "no { error } for a transcript that is no array");
  return [
    ...wrongOf(without(ALL_WRONG, "array", "NaN")).map((c) => ({ ...c, expect: value(notArray, p.check === CHECK.format ? "null" : "{ error }") })),
    d(`a message holding a ${DEEP}-deep array`, msg({ role: "user", content: deepArray(DEEP) }), "deep"),
    d(`a message holding a ${DEEPER}-deep object`, msg({ role: "user", content: deepObject(DEEPER) }), "deeper"),
    d(`a message with ${WIDE} parts`, msg({ role: "user", content: wideArray(WIDE, () => ({ type: "text", text: "x" })) }), "wide"),
    d(`${WIDE} messages`, () => wideArray(WIDE, (i) => ({ role: i % 2 ? "assistant" : "user", content: "hi" })), "wide"),
    d("a message whose content getter throws", msg(throwingGetter({ role: "user" }, "content"))),
    d("a part whose text getter throws", msg({ role: "user", content: [throwingGetter({ type: "text" }, "text")] })),
    d("a message whose toJSON throws", msg({ role: "user", content: "x", toJSON() { throw new HostileError("toJSON"); } })),
    ...TRAPS.map((t) => d(`a message that is a Proxy whose ${t} trap throws`, msg(trapProxy({ role: "user", content: "x" }, t)))),
    d("the transcript is a Proxy whose get trap throws", (fx) => trapProxy([...fx.transcript], "get")),
    d("the transcript is a Proxy whose length is 1e9", (fx) => lyingLengthProxy([...fx.transcript], 1e9), "lying"),
    d("a cyclic message", msg(cyclicObject({ role: "user", content: "x" }))),
    d("a message holding a bigint", msg({ role: "user", content: 1n })),
    d("messages that are a symbol, a function and undefined", (fx) => [...fx.transcript, Symbol("s"), () => 1, undefined]),
    d("text with lone surrogates", msg({ role: "user", content: [{ type: "text", text: "\uD800 and \uDC00" }] })),
    d("a tool result with lone surrogates in the skill content", (fx) => aiSdkTranscript(`${fx.activation}\uD800`)),
  ];
}

function bytesFamily(p) {
  const names = p.names ?? rx(p.name);
  const garbage = p.garbage;
  return [
    ...wrongOf(without(ALL_WRONG, "array")).map((c) => ({ ...c, expect: typeError(names) })),
    { label: "an array of numbers", make: () => [1, 2, 3], expect: typeError(names), cost: "cheap" },
    { label: "random bytes", make: () => Uint8Array.from({ length: 200 }, (_, i) => (i * 73) & 255), expect: garbage, cost: "cheap" },
    { label: "a Uint8Array whose length says 1e9", make: (fx) => lyingLength(p.real(fx), 1e9), expect: p.lying ?? valueOrTypeError(p.check, names), cost: "lying" },
    { label: "a Uint8Array whose length getter throws", make: (fx) => lyingLength(p.real(fx), "throw"), expect: p.lying ?? valueOrTypeError(p.check, names, { own: true }), cost: "cheap" },
    { label: "a Proxy over a Uint8Array whose get trap throws", make: (fx) => trapProxy(p.real(fx), "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
    { label: "a Uint8Array subclass whose methods throw", make: (fx) => throwingMethodsU8(p.real(fx)), expect: p.lying ?? valueOrTypeError(p.check, names, { own: true }), cost: "cheap" },
    { label: "a Uint8Array over a detached buffer", make: (fx) => { const u = p.real(fx); structuredClone(u.buffer, { transfer: [u.buffer] }); return u; }, expect: garbage, cost: "cheap" },
    { label: "64 MiB of zeros", make: () => new Uint8Array(64 << 20), expect: garbage, cost: "huge" },
  ];
}

// ----------------------------------------------------------------------------------------------
// Option schemas
// ----------------------------------------------------------------------------------------------

const PARSE = { dirName: "string", mode: "enum", includeBody: "bool", partial: "bool" };
const CATALOG = {
  format: "enum", includeLocation: "bool", locale: "string", disabled: "stringArray", modelTier: "string", tiers: "stringArray",
  hostVersion: "string", budgetChars: "number", budgetTokens: "number", priority: "stringArray", minDescriptionChars: "number",
  activation: "enum", toolName: "string", instructions: "string", agent: "string",
};
const RENDER = { ...CATALOG, permitted: "function" };
const TOOL = { toolName: "string", embedCatalog: "bool", keepFrontmatter: "bool", maxResources: "number", maxFileBytes: "number", scopePaths: "map", catalog: "object", permitted: "function", agent: "string" };
const SUBST = { oneBased: "bool", appendIfUnused: "bool", maxOutputBytes: "number" };
const PERM = { cwd: "string", home: "string" };
const COMPACT = { format: "enum", toolName: "stringOrArray", keepRecent: "number", perSkillTokens: "number", totalTokens: "number", maxMessageChars: "number", strict: "bool" };
const DISCOVER = {
  client: "string", trustProject: "bool", concurrency: "number", prefixBytes: "number", maxDepth: "number", maxDirectories: "number",
  pageSize: "number", acceptLowercaseSkillMd: "bool", mode: "enum", timeoutMs: "number", search: "enum", searchAbove: "number",
  // Fields and substitutions: the agent skills are offered to, the runner of !`command` lines.
  agent: "string", commands: "function",
};

const FAMILIES = {
  instance: instanceFamily, string: stringFamily, number: numberFamily, stringArray: stringArrayFamily, options: optionsFamily,
  data: dataFamily, transcript: transcriptFamily, bytes: bytesFamily,
};

// ----------------------------------------------------------------------------------------------
// The table: every export, every method, every parameter.
// ----------------------------------------------------------------------------------------------

const inst = (name, cls) => ({ name, kind: "instance", cls });
const ctorOf = (cls) => (pkg) => pkg[cls];
const method = (cls, m) => (pkg) => pkg[cls].prototype[m];
// An MCP method's answer: a result, or the JSON-RPC error value.
const CHECK_MCP = (v) => (isObj(v) && (v.resultType === "complete" || (isObj(v.error) && Number.isInteger(v.error.code) && typeof v.error.message === "string")) ? null : "neither an MCP result nor { error: { code, message } }");
const registryIsReady = CHECK.registry;
const registryAnd = (check) => (v) => registryIsReady(v) ?? check(v);

const transcriptParams = (check) => [{ name: "transcript", kind: "transcript", check }, { name: "opts", kind: "options", optional: true, schema: COMPACT, text: "toolName", check }];

// The network cases: a served index of one skill, answered by a fetch of the test's own (no socket).
const INDEX_JSON = JSON.stringify({ $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json", skills: [] });
const CHECK_INDEX = (v) => (isObject(v) && Array.isArray(v.skills) && Array.isArray(v.diagnostics) ? null : "not a ParsedIndex");
const CHECK_UNPACKED = (v) => (isObject(v) && Array.isArray(v.files) && Array.isArray(v.diagnostics) ? null : "not an UnpackedSkill");
const CHECK_PUBLISHED = (v) => (isObject(v) && v.index instanceof Uint8Array && Array.isArray(v.artifacts) ? null : "not a PublishedIndex");
const isObject = (v) => typeof v === "object" && v !== null;
const CHECK_SUBAGENT_PLAN = (v) => (v === null || (isObject(v) && typeof v.prompt === "string" && Array.isArray(v.resources)) ? null : "neither a SubagentTask nor null");
const refusingFetch = async () => { throw new Error("no network in the hostile cases"); };
async function indexFetch(url) {
  const { createHash } = await import("node:crypto");
  const digest = `sha256:${createHash("sha256").update(SKILL_GOOD).digest("hex")}`;
  if (String(url).endsWith("/index.json")) {
    return new Response(JSON.stringify({ $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [{ name: "good", type: "skill-md", description: "d", url: "good/SKILL.md", digest }] }));
  }
  return String(url).endsWith("/good/SKILL.md") ? new Response(SKILL_GOOD) : new Response("no", { status: 404 });
}

// The MCP cases: one skill (good) listed by a client of the test's own.
const MCP_EXT = "io.modelcontextprotocol/skills";
const MCP_CAPS = { resources: {}, extensions: { [MCP_EXT]: {} } };
// sha256 of SKILL_GOOD (a changed SKILL_GOOD gives unverified results, which the checks take too).
const MCP_GOOD_DIGEST = "sha256:ea13c80f9448f9f552d81ca9b1ade587a95d9254bef0dfab264f5f5169b49f62";
function mcpEntryValue() {
  const fm = { name: "good", description: "A good skill for the hostile tests.", "allowed-tools": "Bash(git status:*) Read", "argument-hint": "<file>" };
  return { uri: "skill://good/SKILL.md", frontmatter: fm, resources: [{ uri: "skill://good/SKILL.md", digest: MCP_GOOD_DIGEST, size: enc.encode(SKILL_GOOD).length }] };
}
const MCP_PAGE = { resultType: "complete", skills: [], ttlMs: 0, cacheScope: "public" };
const mcpEntry = (p) => p.parseMcpSkills({ skills: [mcpEntryValue()] }).skills[0];
function mcpClient() {
  return {
    getServerCapabilities: () => MCP_CAPS,
    async request(req) {
      if (req.method === "skills/list") return { skills: [mcpEntryValue()], ttlMs: 0, cacheScope: "public" };
      if (req.method === "skills/get") return { skill: mcpEntryValue(), ttlMs: 0, cacheScope: "public" };
      if (req.method === "resources/read") return { contents: [{ uri: req.params.uri, text: SKILL_GOOD }] };
      throw new Error("unknown method");
    },
  };
}
const CHECK_MCP_DECLARED = (v) => (isObject(v) && typeof v.declared === "boolean" && Array.isArray(v.diagnostics) ? null : "not a McpSkillsDeclared");
const CHECK_MCP_PAGE = (v) => (isObject(v) && Array.isArray(v.skills) && Array.isArray(v.diagnostics) ? null : "not a McpSkillsPage");
const CHECK_REQUEST_TARGET = (v) => (isObject(v) && (typeof v.url === "string" ? typeof v.credentials === "boolean" : isObject(v.error)) ? null : "not a RequestTarget");
const CHECK_MCP_VERIFIED = (v) => (isObject(v) && typeof v.verified === "boolean" && Array.isArray(v.diagnostics) ? null : "not a McpVerified");

/**
 * name: the export ("parseSkill") or member ("SkillRegistry#readFile", "SkillRegistry.discover").
 * f(pkg, fx): the function; self(pkg, fx): its `this`; args(fx, pkg): normal arguments.
 */
export const SPECS = [
  { name: "parseSkill", group: "args", f: (p) => p.parseSkill, args: () => [SKILL_GOOD, { dirName: "good" }], params: [
    { name: "input", kind: "skillInput", check: CHECK.parseResult },
    { name: "opts", kind: "options", optional: true, schema: PARSE, text: "dirName", check: CHECK.parseResult },
  ] },
  { name: "parseSkills", group: "args", f: (p) => p.parseSkills, args: () => [[SKILL_GOOD, SKILL_OTHER], { includeBody: false }], params: [
    { name: "inputs", kind: "batch", check: CHECK.parseResults },
    { name: "opts", kind: "options", optional: true, schema: PARSE, text: "dirName", check: CHECK.parseResults },
  ] },
  { name: "readProperties", group: "args", f: (p) => p.readProperties, args: () => [SKILL_GOOD], params: [{ name: "input", kind: "skillInput", check: CHECK.properties }] },
  { name: "toPrompt", group: "args", f: (p) => p.toPrompt, args: () => [[{ name: "good", description: "d", location: "/s/good/SKILL.md" }]], params: [{ name: "entries", kind: "entries", check: CHECK.string }] },
  { name: "version", group: "args", f: (p) => p.version, args: () => [], params: [{ name: "(extra arguments)", kind: "ignored", check: CHECK.string }] },
  { name: "renderCatalog", group: "args", f: (p) => p.renderCatalog, args: (fx) => [fx.registry, { format: "xml" }], params: [
    inst("registry", "SkillRegistry"),
    { name: "options", kind: "options", optional: true, schema: RENDER, text: "instructions", check: CHECK.catalog },
  ] },
  { name: "autocomplete", group: "args", f: (p) => p.autocomplete, args: (fx) => [fx.registry, "go", 5], params: [
    inst("registry", "SkillRegistry"),
    { name: "partial", kind: "string", check: CHECK.suggestions, huge: true },
    { name: "limit", kind: "number", optional: true, check: CHECK.suggestions },
  ] },
  { name: "parseMessage", group: "args", f: (p) => p.parseMessage, args: (fx) => [fx.registry, "/good now"], params: [
    inst("registry", "SkillRegistry"),
    { name: "text", kind: "string", check: CHECK.parsedMessage, huge: true, surround: (s) => `/good ${s} $good` },
  ] },
  { name: "substituteArguments", group: "args", f: (p) => p.substituteArguments, args: () => ["Do $ARGUMENTS with $file.", "a.txt", "<file>", {}], params: [
    { name: "body", kind: "string", check: CHECK.string, huge: true, surround: (s) => `$ARGUMENTS ${s} $0` },
    { name: "arguments", kind: "string", check: CHECK.string, huge: true },
    { name: "argumentHint", kind: "string", optional: true, names: /argument.?hint|hint/i, check: CHECK.string },
    { name: "options", kind: "options", optional: true, schema: SUBST, check: CHECK.string },
  ] },
  { name: "isToolAllowed", group: "args", f: (p) => p.isToolAllowed, args: (fx) => [fx.registry, ["good"], "Bash", { command: "git status" }, {}], params: [
    inst("registry", "SkillRegistry"),
    { name: "activeSkills", kind: "stringArray", names: /active.?skills/i, check: CHECK.decision },
    { name: "tool", kind: "string", check: CHECK.decision },
    // The tool input comes from the model: whatever it is, the answer is "not pre-approved".
    { name: "input", kind: "data", check: CHECK.denied, what: "a ToolDecision with allowed: false" },
    { name: "context", kind: "options", optional: true, schema: PERM, text: "cwd", check: CHECK.decision },
  ] },
  { name: "isInSkillDirectory", group: "args", f: (p) => p.isInSkillDirectory, args: () => ["/s/good/a.md", ["/s/good"]], params: [
    { name: "path", kind: "string", check: CHECK.boolean, huge: true },
    { name: "skillDirectories", kind: "stringArray", names: /skill.?directories/i, check: CHECK.boolean },
  ] },
  { name: "isSkippedDirectory", group: "args", f: (p) => p.isSkippedDirectory, args: () => ["node_modules"], params: [{ name: "name", kind: "string", check: CHECK.boolean, huge: true }] },
  { name: "skillFileNames", group: "args", f: (p) => p.skillFileNames, args: () => [{ acceptLowercaseSkillMd: true }], params: [
    { name: "opts", kind: "options", optional: true, schema: { acceptLowercaseSkillMd: "bool" }, check: (v) => (Array.isArray(v) && v.every((n) => typeof n === "string") ? null : "not string[]") },
  ] },
  { name: "frontmatterSpan", group: "args", f: (p) => p.frontmatterSpan, args: () => [SKILL_GOOD], params: [
    { name: "input", kind: "skillInput", check: (v) => (v === null || (isObj(v) && Number.isInteger(v.openLine)) ? null : "neither a FrontmatterSpan nor null") },
  ] },
  { name: "estimateTokens", group: "args", f: (p) => p.estimateTokens, args: () => ["some text"], params: [{ name: "text", kind: "string", check: (v) => (Number.isInteger(v) ? null : "not a number"), huge: true }] },
  { name: "detectTranscriptFormat", group: "transcripts", f: (p) => p.detectTranscriptFormat, args: (fx) => [fx.transcript], params: [{ name: "transcript", kind: "transcript", check: CHECK.format }] },
  { name: "findSkillContent", group: "transcripts", f: (p) => p.findSkillContent, args: (fx) => [fx.transcript, {}], params: transcriptParams(CHECK.found) },
  { name: "compactSkillContent", group: "transcripts", f: (p) => p.compactSkillContent, args: (fx) => [fx.transcript, {}], params: transcriptParams(CHECK.compactResult) },
  { name: "protectedMessages", group: "transcripts", f: (p) => p.protectedMessages, args: (fx) => [fx.transcript, {}], params: transcriptParams(CHECK.protected) },
  { name: "pruneTranscript", group: "transcripts", f: (p) => p.pruneTranscript, args: (fx) => [fx.transcript, 50, {}], params: [
    { name: "transcript", kind: "transcript", check: CHECK.compactResult },
    { name: "budgetTokens", kind: "number", names: /budget/i, check: CHECK.compactResult },
    { name: "opts", kind: "options", optional: true, schema: COMPACT, text: "toolName", check: CHECK.compactResult },
  ] },
  { name: "reattachSkills", group: "transcripts", f: (p) => p.reattachSkills, args: (fx) => [fx.transcript, [{ name: "good", content: fx.activation }], "catalog", {}], params: [
    { name: "transcript", kind: "transcript", check: CHECK.compactResult },
    { name: "contents", kind: "contents", check: CHECK.compactResult },
    { name: "catalog", kind: "string", optional: true, check: CHECK.compactResult, huge: true },
    { name: "opts", kind: "options", optional: true, schema: COMPACT, text: "toolName", check: CHECK.compactResult },
  ] },
  { name: "dedupeSkillContent", group: "transcripts", f: (p) => p.dedupeSkillContent, args: (fx) => [fx.transcript, {}], params: transcriptParams(CHECK.compactResult) },

  // SkillRegistry
  { name: "SkillRegistry.discover", group: "stores", async: true, f: (p) => p.SkillRegistry.discover, self: (p) => p.SkillRegistry, args: (fx) => [fx.options], params: [
    { name: "options", kind: "options", names: /options|scope/i, schema: DISCOVER, text: "client", base: (fx) => fx.options, check: registryIsReady },
  ] },
  { name: "SkillRegistry.fromSnapshot", group: "stores", f: (p) => p.SkillRegistry.fromSnapshot, self: (p) => p.SkillRegistry, args: (fx) => [fx.snapshot, fx.options], params: [
    { name: "bytes", kind: "bytes", names: /bytes|snapshot/i, real: (fx) => fx.snapshot.slice(), check: registryIsReady,
      // Bytes that are no snapshot of these options: documented to throw (then discover afresh).
      garbage: { what: "an Error about the snapshot", test: (o) => (o.how === "threw" && o.error instanceof Error && !(o.error instanceof WebAssembly.RuntimeError) && /snapshot/i.test(o.error.message) ? null : `${describeOutcome(o)}; expected an Error saying the snapshot does not fit`) } },
    { name: "options", kind: "options", names: /options|scope/i, schema: DISCOVER, text: "client", base: (fx) => fx.options, check: registryIsReady },
  ] },
  // A search of any query answers SearchHit[] (at most 100), whatever the options say.
  { name: "SkillRegistry#search", group: "args", f: method("SkillRegistry", "search"), self: (p, fx) => fx.registry,
    args: () => ["good skill", { limit: 3 }],
    params: [
      { ...inst("this", "SkillRegistry"), names: /SkillRegistry|registry|this/i },
      { name: "query", kind: "string", check: CHECK.hits, huge: true },
      { name: "options", kind: "options", optional: true, schema: { limit: "number", scope: "string" }, text: "scope", check: CHECK.hits },
    ] },
  ...["get", "lookalike", "listMetas", "listMetasAcross", "names", "diagnostics", "stats", "snapshot", "free", "readFile", "readScopedFile", "refresh", "listLazyScopes", "approvals", "contentDigest", "lockfile"].map((m) => ({
    name: `SkillRegistry#${m}`, group: "args", async: ["readFile", "readScopedFile", "refresh", "listLazyScopes", "contentDigest", "lockfile"].includes(m), f: method("SkillRegistry", m), self: (p, fx) => fx.registry,
    args: () => (m === "get" || m === "contentDigest" || m === "lookalike" ? ["good"] : m === "readFile" ? ["good", "references/a.md"] : m === "readScopedFile" ? ["project", "good", "references/a.md"] : m === "listMetas" ? ["project"] : []),
    params: [
      { ...inst("this", "SkillRegistry"), names: /SkillRegistry|registry|this/i },
      ...(m === "get" ? [{ name: "name", kind: "string", check: CHECK.metaOrNull, huge: true }] : []),
      ...(m === "lookalike" ? [{ name: "name", kind: "string", check: CHECK.stringOrNull, huge: true }] : []),
      // A lockfile of the registry: { lockfile: { lockfileVersion: 1, skills }, diagnostics }.
      ...(m === "lockfile" ? [{ name: "previous", kind: "options", optional: true, schema: { lockfileVersion: "number" }, base: () => ({ lockfileVersion: 1, skills: [] }), check: (v) => (isObject(v) && isObject(v.lockfile) && Array.isArray(v.lockfile.skills) && Array.isArray(v.diagnostics) ? null : "not a LockfileResult") }] : []),
      ...(m === "snapshot" ? [{ name: "options", kind: "options", optional: true, schema: { approvals: "bool" }, check: (v) => (v instanceof Uint8Array ? null : "not snapshot bytes") }] : []),
      // A digest of any name: the skill's { name, scope, digest, files, size }, or { name, error }.
      ...(m === "contentDigest" ? [{ name: "name", kind: "string", check: (v) => (isObject(v) && typeof v.name === "string" && (typeof v.digest === "string" || isObject(v.error)) ? null : "not a ContentDigest"), huge: true }] : []),
      ...(m === "listMetas" ? [{ name: "scope", kind: "string", optional: true, check: CHECK.metas }] : []),
      ...(m === "readFile" ? [
        { name: "name", kind: "string", check: CHECK.fileResult, huge: true },
        { name: "relPath", kind: "string", optional: true, names: /rel.?path|path/i, check: CHECK.fileResult, huge: true },
      ] : []),
      // A scoped read resolves to { content, path } or null (unknown scope or skill, refused path).
      ...(m === "readScopedFile" ? [
        { name: "scope", kind: "string", check: CHECK.scopedFile, huge: true },
        { name: "name", kind: "string", check: CHECK.scopedFile, huge: true },
        { name: "relPath", kind: "string", optional: true, names: /rel.?path|path/i, check: CHECK.scopedFile, huge: true },
      ] : []),
    ],
  })),
  // A vet of any name: the skill's { name, scope, files, skipped, size, findings }, or { name, error }.
  { name: "SkillRegistry#vet", group: "args", async: true, f: method("SkillRegistry", "vet"), self: (p, fx) => fx.registry,
    args: () => ["good"],
    params: [
      { ...inst("this", "SkillRegistry"), names: /SkillRegistry|registry|this/i },
      { name: "name", kind: "string", check: (v) => (isObject(v) && typeof v.name === "string" && (Array.isArray(v.findings) || isObject(v.error)) ? null : "not a VetReport"), huge: true },
      { name: "options", kind: "options", optional: true, schema: { severity: "enum" }, check: (v) => (isObject(v) && typeof v.name === "string" ? null : "not a VetReport") },
    ] },

  // SkillSession
  { name: "SkillSession", group: "args", ctor: true, f: ctorOf("SkillSession"), args: () => [], params: [{ name: "(extra arguments)", kind: "ignored", check: (v) => (isObj(v) ? null : "no session") }] },
  ...["activations", "counts", "isLoaded", "clear", "free", "observe"].map((m) => ({
    name: `SkillSession#${m}`, group: m === "observe" ? "transcripts" : "args", f: method("SkillSession", m), self: (p, fx) => fx.session,
    args: (fx) => (m === "isLoaded" ? ["good"] : m === "observe" ? [fx.transcript, {}] : []),
    params: [
      { ...inst("this", "SkillSession"), names: /SkillSession|session|this/i },
      ...(m === "isLoaded" ? [{ name: "name", kind: "string", check: CHECK.boolean, huge: true }] : []),
      ...(m === "observe" ? transcriptParams(CHECK.sessionChange) : []),
    ],
  })),

  // SkillTool
  { name: "SkillTool", group: "args", ctor: true, f: ctorOf("SkillTool"), args: (fx) => [fx.registry, {}], params: [
    inst("registry", "SkillRegistry"),
    { name: "options", kind: "options", optional: true, schema: TOOL, text: "toolName", textRule: true, check: (v) => (isObj(v) && typeof v.definition === "function" ? null : "not a SkillTool") },
  ] },
  ...["definition", "catalog", "free", "setSession", "invoke", "subagentPrompt", "subagentPlan", "execute", "executeCall", "reattach", "compactSkillContent", "pruneTranscript", "dedupeSkillContent", "session"].map((m) => ({
    name: `SkillTool#${m}`, group: ["reattach", "compactSkillContent", "pruneTranscript", "dedupeSkillContent"].includes(m) ? "transcripts" : "args",
    async: ["invoke", "subagentPrompt", "subagentPlan", "execute", "executeCall", "reattach"].includes(m),
    f: m === "session" ? (p) => Object.getOwnPropertyDescriptor(p.SkillTool.prototype, "session").get : method("SkillTool", m),
    self: (p, fx) => fx.tool,
    args: (fx) => ({
      setSession: [fx.session], invoke: ["/good now"], subagentPrompt: ["good", "a task"], subagentPlan: ["good", "a task"], execute: [{ name: "good" }],
      executeCall: ["view_skill", '{"name":"good"}'], reattach: [fx.transcript, {}], compactSkillContent: [fx.transcript, {}],
      pruneTranscript: [fx.transcript, 50, {}], dedupeSkillContent: [fx.transcript, {}],
    })[m] ?? [],
    params: [
      { ...inst("this", "SkillTool"), names: /SkillTool|tool|this/i },
      ...({
        setSession: [inst("session", "SkillSession")],
        invoke: [
          { name: "message", kind: "string", check: CHECK.injection, huge: true, surround: (s) => `/good ${s}` },
          { name: "options", kind: "options", optional: true, schema: { force: "bool" }, check: CHECK.injection },
        ],
        subagentPrompt: [{ name: "name", kind: "string", check: CHECK.stringOrNull }, { name: "task", kind: "string", check: CHECK.stringOrNull, huge: true }],
        subagentPlan: [{ name: "name", kind: "string", check: CHECK_SUBAGENT_PLAN }, { name: "task", kind: "string", check: CHECK_SUBAGENT_PLAN, huge: true }],
        execute: [{ name: "input", kind: "data", check: CHECK.errorResult, anyCheck: CHECK.toolResult, what: "a ToolResult with isError" }],
        // The call's arguments come from the model API: any value is an answer, never a rejection.
        executeCall: [
          { name: "toolName", kind: "string", optional: true, names: /tool.?name|name/i, check: CHECK.toolResult },
          { name: "arguments", kind: "data", check: CHECK.errorResult, anyCheck: CHECK.toolResult, what: "a ToolResult with isError" },
        ],
        reattach: transcriptParams(CHECK.compactResult),
        compactSkillContent: transcriptParams(CHECK.compactResult),
        dedupeSkillContent: transcriptParams(CHECK.compactResult),
        pruneTranscript: [
          { name: "transcript", kind: "transcript", check: CHECK.compactResult },
          { name: "budgetTokens", kind: "number", names: /budget/i, check: CHECK.compactResult },
          { name: "opts", kind: "options", optional: true, schema: COMPACT, text: "toolName", check: CHECK.compactResult },
        ],
      })[m] ?? [],
    ],
  })),

  // SkillsMcp: the MCP Skills extension's methods. A method error is a value
  // ({ error: { code, message } }), never a throw or a rejection; only wrong types are TypeErrors.
  { name: "SkillsMcp", group: "args", ctor: true, f: ctorOf("SkillsMcp"), args: (fx) => [fx.registry, {}], params: [
    inst("registry", "SkillRegistry"),
    { name: "options", kind: "options", optional: true, schema: { pageSize: "number", ttlMs: "number" }, check: (v) => (isObj(v) && typeof v.listSkills === "function" ? null : "not a SkillsMcp") },
  ] },
  ...["listSkills", "getSkill", "readResource", "readDirectory", "listResources", "diagnostics", "free"].map((m) => ({
    name: `SkillsMcp#${m}`, group: "args", async: ["listSkills", "getSkill", "readResource", "readDirectory"].includes(m),
    f: method("SkillsMcp", m), self: (p, fx) => fx.mcp,
    args: () => ({ getSkill: ["skill://good/SKILL.md"], readResource: ["skill://good/references/a.md"], readDirectory: ["skill://good", undefined] })[m] ?? [],
    params: [
      { ...inst("this", "SkillsMcp"), names: /SkillsMcp|mcp|this/i },
      ...({
        listSkills: [{ name: "cursor", kind: "string", optional: true, check: CHECK_MCP, huge: true }],
        getSkill: [{ name: "uri", kind: "string", check: CHECK_MCP, huge: true }],
        readResource: [{ name: "uri", kind: "string", check: CHECK_MCP, huge: true }],
        readDirectory: [{ name: "uri", kind: "string", check: CHECK_MCP, huge: true }, { name: "cursor", kind: "string", optional: true, check: CHECK_MCP }],
        listResources: [{ name: "cursor", kind: "string", optional: true, check: CHECK_MCP, huge: true }],
      })[m] ?? [],
    ],
  })),

  // Framework shapes
  { name: "aiSdkTool", group: "args", f: (p) => p.aiSdkTool, args: (fx) => [fx.tool, {}], params: [
    inst("tool", "SkillTool"),
    { name: "options", kind: "options", optional: true, schema: { jsonSchema: "function" }, check: (v) => (isObj(v) && typeof v.execute === "function" ? null : "not an AI SDK tool") },
  ] },
  { name: "aiSdkTool().execute", group: "args", async: true, f: (p, fx) => p.aiSdkTool(fx.tool).execute, args: () => [{ name: "good" }], params: [
    { name: "input", kind: "data", check: CHECK.reducedError, anyCheck: CHECK.reduced, what: "a reduced output with isError" },
  ] },
  { name: "aiSdkTool().toModelOutput", group: "args", async: true, f: (p, fx) => p.aiSdkTool(fx.tool).toModelOutput, args: () => [{ output: { skillName: "good", path: null, content: "x", isError: false } }], params: [
    { name: "options", kind: "data", check: CHECK.modelOutput, what: "{ type, value }" },
  ] },
  { name: "aiSdkTools", group: "args", f: (p) => p.aiSdkTools, args: (fx) => [fx.tool, {}], params: [
    inst("tool", "SkillTool"),
    { name: "options", kind: "options", optional: true, schema: { jsonSchema: "function" }, check: (v) => (isObj(v) && typeof v.view_skill?.execute === "function" ? null : "not an AI SDK tool set") },
  ] },
  { name: "openAiTool", group: "args", f: (p) => p.openAiTool, args: (fx) => [fx.tool, {}], params: [
    inst("tool", "SkillTool"),
    { name: "options", kind: "options", optional: true, schema: { api: "enum", strict: "bool" }, check: (v) => (isObj(v) && v.type === "function" ? null : "not an OpenAI tool") },
  ] },
  { name: "openAiResponsesOutput", group: "args", async: true, f: (p) => p.openAiResponsesOutput, args: (fx) => [fx.tool, { type: "function_call", call_id: "c", name: "view_skill", arguments: '{"name":"good"}' }], params: [
    inst("tool", "SkillTool"),
    // The item comes from the model API's answer: never a rejection (documented).
    { name: "item", kind: "data", check: (v) => (isObj(v) && v.type === "function_call_output" && typeof v.output === "string" ? null : "not a function_call_output item"), what: "a function_call_output item" },
  ] },
  { name: "openAiToolMessage", group: "args", async: true, f: (p) => p.openAiToolMessage, args: (fx) => [fx.tool, { id: "c", function: { name: "view_skill", arguments: '{"name":"good"}' } }], params: [
    inst("tool", "SkillTool"),
    // The call comes from the model API's answer: never a rejection (documented).
    { name: "call", kind: "data", check: CHECK.openAiMessage, what: "a role: tool message" },
    { name: "call.function.arguments", kind: "data", wrap: (v) => ({ id: "c", function: { name: "view_skill", arguments: v } }), check: CHECK.openAiMessage, what: "a role: tool message" },
  ] },
  { name: "openAiAgentsTool", group: "args", f: (p) => p.openAiAgentsTool, args: (fx) => [fx.tool], params: [inst("tool", "SkillTool")] },
  { name: "openAiAgentsTool().execute", group: "args", async: true, f: (p, fx) => p.openAiAgentsTool(fx.tool).execute, args: () => [{ name: "good" }], params: [
    { name: "input", kind: "data", check: CHECK.string, what: "the tool's text" },
  ] },
  { name: "mastraTool", group: "args", f: (p) => p.mastraTool, args: (fx) => [fx.tool], params: [inst("tool", "SkillTool")] },
  { name: "mastraTool().execute", group: "args", async: true, f: (p, fx) => p.mastraTool(fx.tool).execute, args: () => [{ name: "good" }], params: [
    { name: "input", kind: "data", check: CHECK.string, what: "the tool's text" },
  ] },
  // SkillTool.invoke's result is the host's record: a wrong shape is a programming error.
  ...["aiSdkUserMessage", "anthropicUserMessage", "langChainUserContent"].map((name) => ({
    name, group: "args", f: (p) => p[name], args: () => [{ injected: [], remaining: "x" }], params: [
      { name: "injection", kind: "options", extraKeys: true, schema: { injected: "object", remaining: "string" }, base: () => ({ injected: [], remaining: "x" }), check: CHECK.userMessage },
    ],
  })),
  { name: "openAiUserMessage", group: "args", f: (p) => p.openAiUserMessage, args: () => [{ injected: [], remaining: "x" }, {}], params: [
    { name: "injection", kind: "options", extraKeys: true, schema: { injected: "object", remaining: "string" }, base: () => ({ injected: [], remaining: "x" }), check: CHECK.userMessage },
    { name: "options", kind: "options", optional: true, schema: { api: "enum" }, check: CHECK.userMessage },
  ] },
  { name: "anthropicTool", group: "args", f: (p) => p.anthropicTool, args: (fx) => [fx.tool], params: [inst("tool", "SkillTool")] },
  { name: "anthropicToolResult", group: "args", async: true, f: (p) => p.anthropicToolResult, args: (fx) => [fx.tool, { id: "t", input: { name: "good" } }], params: [
    inst("tool", "SkillTool"),
    { name: "block", kind: "data", check: CHECK.anthropicResult, what: "a tool_result block" },
    { name: "block.input", kind: "data", wrap: (v) => ({ id: "t", input: v }), check: CHECK.anthropicError, anyCheck: CHECK.anthropicResult, what: "a tool_result block with is_error" },
  ] },

  // Storage adapters and helpers (plain JS, same contract)
  { name: "memoryStorage", group: "adapters", f: (p) => p.memoryStorage, args: () => [{ "a/SKILL.md": "x" }], params: [{ name: "files", kind: "files", names: /files|content|key/i, check: CHECK.storage }] },
  { name: "memoryStorage().list", group: "adapters", async: true, f: (p) => p.memoryStorage(GOOD_FILES).list, self: () => undefined, args: () => ["", { limit: 2 }], params: [
    { name: "prefix", kind: "string", names: /prefix/i, storageKey: true, check: CHECK.page },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { cursor: "string", limit: "number" }, check: CHECK.page },
  ] },
  { name: "memoryStorage().read", group: "adapters", async: true, f: (p) => p.memoryStorage(GOOD_FILES).read, args: () => ["good/SKILL.md", { maxBytes: 5 }], params: [
    { name: "key", kind: "string", storageKey: true, check: CHECK.bytesOrNull },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { maxBytes: "number" }, check: CHECK.bytesOrNull },
  ] },
  { name: "nodeFsStorage", group: "adapters", f: (p) => p.nodeFsStorage, args: () => [fsFixtureDir(), {}], params: [
    { name: "dir", kind: "string", check: CHECK.storage },
    { name: "options", kind: "options", optional: true, schema: { maxEntries: "number", listSkillPrefixes: "bool" }, check: CHECK.storage },
  ] },
  { name: "nodeFsStorage().listSkillPrefixes", group: "adapters", f: (p) => p.nodeFsStorage(fsFixtureDir()).listSkillPrefixes, self: () => undefined, args: () => ["", { limit: 2, files: ["SKILL.md"], prefixBytes: 64 }], params: [
    { name: "prefix", kind: "string", names: /prefix/i, storageKey: true, check: CHECK.page },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { cursor: "string", limit: "number", files: "stringArray", prefixBytes: "number" }, check: CHECK.page },
  ] },
  { name: "r2Storage", group: "adapters", f: (p) => p.r2Storage, args: () => [fakeBucket(), { prefix: "" }], params: [
    { name: "bucket", kind: "bucket", check: CHECK.storage },
    { name: "options", kind: "options", optional: true, schema: { prefix: "string" }, check: CHECK.storage },
  ] },
  { name: "indexedDbStorage", group: "adapters", f: (p) => p.indexedDbStorage, args: () => [{ dbName: "hostile", ...idbGlobals() }], params: [
    { name: "options", kind: "options", schema: { dbName: "string", storeName: "string", indexedDB: "object", IDBKeyRange: "object" }, base: () => ({ dbName: "hostile", ...idbGlobals() }), check: CHECK.storage },
  ] },
  { name: "putSkillFiles", group: "adapters", async: true, f: (p) => p.putSkillFiles, args: (fx, p) => [p.indexedDbStorage({ dbName: nextDbName("put"), ...idbGlobals() }), { "SKILL.md": SKILL_OTHER }, { prefix: "other/" }], params: [
    { name: "storage", kind: "idbStorage", check: CHECK.array },
    { name: "files", kind: "files", names: /files|content|key/i, check: CHECK.array },
    { name: "options", kind: "options", optional: true, schema: { prefix: "string" }, check: CHECK.array },
  ] },
  { name: "deleteKeys", group: "adapters", async: true, f: (p) => p.deleteKeys, args: (fx, p) => [p.indexedDbStorage({ dbName: nextDbName("del"), ...idbGlobals() }), ["a/b"]], params: [
    { name: "storage", kind: "idbStorage", check: (v) => (typeof v === "number" ? null : "not a count") },
    { name: "keys", kind: "stringArray", storageKeys: true, check: (v) => (typeof v === "number" ? null : "not a count") },
  ] },
  { name: "assertKey", group: "adapters", f: (p) => p.assertKey, args: () => ["a/b"], params: [{ name: "key", kind: "key" }] },
  { name: "assertPrefix", group: "adapters", f: (p) => p.assertPrefix, args: () => ["a/"], params: [{ name: "prefix", kind: "key" }] },
  { name: "unzip", group: "adapters", async: true, f: (p) => p.unzip, args: () => [makeZip([{ rel: "SKILL.md", bytes: enc.encode(SKILL_OTHER) }]), {}], params: [
    // Uint8Array.from: a Buffer from Node's pool cannot be detached, so the detached case needs bytes of their own.
    { name: "zip", kind: "bytes", names: /zip|archive|input/i, real: () => Uint8Array.from(makeZip([{ rel: "SKILL.md", bytes: enc.encode(SKILL_OTHER) }])), check: CHECK.array,
      garbage: { what: "a rejection with a ZipError", test: (o) => (o.how === "rejected" && o.error?.constructor?.name === "ZipError" && [400, 413].includes(o.error.status) ? null : `${describeOutcome(o)}; expected a rejection with a ZipError (status 400/413)`) } },
    { name: "limits", kind: "options", optional: true, schema: { fileBytes: "number", uploadBytes: "number", files: "number" }, check: CHECK.array },
  ] },
  { name: "ZipError", group: "adapters", ctor: true, f: ctorOf("ZipError"), args: () => [400, "bad"], params: [
    { name: "status", kind: "anything", check: (v) => (v instanceof Error ? null : "not an Error") },
    { name: "message", kind: "anything", check: (v) => (v instanceof Error ? null : "not an Error") },
  ] },
  // Skills over the network: the discovery index's rules, the store over it, publishing
  { name: "parseSkillsIndex", group: "args", f: (p) => p.parseSkillsIndex, args: () => [INDEX_JSON, "https://example.com/.well-known/agent-skills/index.json"], params: [
    { name: "bytes", kind: "skillInput", check: CHECK_INDEX },
    { name: "indexUrl", kind: "string", check: CHECK_INDEX, huge: true, surround: (s) => `https://example.com/${s}/index.json` },
  ] },
  { name: "unpackSkillArtifact", group: "args", f: (p) => p.unpackSkillArtifact, args: () => [enc.encode(SKILL_GOOD), { type: "skill-md", unverified: true }], params: [
    { name: "bytes", kind: "skillInput", check: CHECK_UNPACKED },
    { name: "opts", kind: "options", schema: { type: "string", digest: "string", unverified: "bool", maxSkillBytes: "number", maxEntries: "number", maxArtifactBytes: "number" }, base: () => ({ type: "skill-md", unverified: true }), check: CHECK_UNPACKED },
  ] },
  { name: "publishSkillFiles", group: "args", f: (p) => p.publishSkillFiles, args: () => [[{ input: SKILL_GOOD, dirName: "good/SKILL.md" }], {}], params: [
    { name: "files", kind: "anything", check: CHECK_PUBLISHED },
    { name: "opts", kind: "options", optional: true, schema: { baseUrl: "string" }, text: "baseUrl", check: CHECK_PUBLISHED },
  ] },
  { name: "publishRegistry", group: "args", async: true, f: (p) => p.publishRegistry, args: (fx) => [fx.registry, {}], params: [
    inst("registry", "SkillRegistry"),
    { name: "opts", kind: "options", optional: true, schema: { baseUrl: "string" }, text: "baseUrl", check: CHECK_PUBLISHED },
  ] },
  { name: "publishWellKnown", group: "adapters", async: true, f: (p) => p.publishWellKnown, args: () => [{ "good/SKILL.md": SKILL_GOOD }, {}], params: [
    { name: "source", kind: "files", names: /source|files|content|key/i, check: CHECK_PUBLISHED },
    { name: "options", kind: "options", optional: true, schema: { baseUrl: "string", prefix: "string" }, check: CHECK_PUBLISHED },
  ] },
  { name: "wellKnownStorage", group: "adapters", f: (p) => p.wellKnownStorage, args: () => ["http://127.0.0.1:9/", { fetch: refusingFetch }], params: [
    { name: "baseUrl", kind: "string", check: CHECK.storage, surround: (s) => `http://127.0.0.1:9/${s}` },
    { name: "options", kind: "options", optional: true, schema: { fetch: "function", maxSkillBytes: "number", maxEntries: "number", maxArtifactBytes: "number", maxIndexBytes: "number" }, base: () => ({ fetch: refusingFetch }), check: CHECK.storage },
  ] },
  { name: "wellKnownStorage().list", group: "adapters", async: true, f: (p) => p.wellKnownStorage("http://127.0.0.1:9/", { fetch: indexFetch }).list, self: () => undefined, args: () => ["", { limit: 2 }], params: [
    { name: "prefix", kind: "string", names: /prefix/i, storageKey: true, check: CHECK.page },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { cursor: "string", limit: "number" }, check: CHECK.page },
  ] },
  { name: "wellKnownStorage().read", group: "adapters", async: true, f: (p) => p.wellKnownStorage("http://127.0.0.1:9/", { fetch: indexFetch }).read, args: () => ["good/SKILL.md", { maxBytes: 5 }], params: [
    { name: "key", kind: "string", storageKey: true, check: CHECK.bytesOrNull },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { maxBytes: "number" }, check: CHECK.bytesOrNull },
  ] },
  // Skills over MCP: a client of the test's own that answers one listed skill (no SDK, no socket).
  { name: "mcpSkillsExtension", group: "args", f: (p) => p.mcpSkillsExtension, args: () => [MCP_CAPS], params: [
    { name: "capabilities", kind: "data", check: CHECK_MCP_DECLARED, what: "a McpSkillsDeclared" },
  ] },
  { name: "parseMcpSkills", group: "args", f: (p) => p.parseMcpSkills, args: () => [MCP_PAGE, {}], params: [
    { name: "result", kind: "data", check: CHECK_MCP_PAGE, what: "a McpSkillsPage" },
    { name: "opts", kind: "options", optional: true, schema: { dynamic: "bool", get: "bool", bounds: "object", listing: "object" }, check: CHECK_MCP_PAGE },
  ] },
  { name: "mcpFileUri", group: "args", f: (p) => p.mcpFileUri, args: (fx, p) => [mcpEntry(p), "good/SKILL.md"], params: [
    { name: "skill", kind: "anything", check: (v) => (v === null || typeof v === "string" ? null : "not a URI or null") },
    { name: "key", kind: "string", check: (v) => (v === null || typeof v === "string" ? null : "not a URI or null") },
  ] },
  { name: "verifyMcpFile", group: "args", f: (p) => p.verifyMcpFile, args: (fx, p) => [mcpEntry(p), "good/SKILL.md", SKILL_GOOD], params: [
    { name: "skill", kind: "anything", check: CHECK_MCP_VERIFIED },
    { name: "key", kind: "string", check: CHECK_MCP_VERIFIED },
    { name: "bytes", kind: "skillInput", check: CHECK_MCP_VERIFIED },
  ] },
  { name: "checkRequestUrl", group: "args", f: (p) => p.checkRequestUrl, args: () => ["https://example.com/skills/a/SKILL.md", { origin: "https://example.com/" }], params: [
    { name: "url", kind: "string", check: CHECK_REQUEST_TARGET },
    { name: "opts", kind: "options", schema: { origin: "string", allowOrigins: "stringArray", base: "string", redirects: "number" }, base: () => ({ origin: "https://example.com/" }), check: CHECK_REQUEST_TARGET },
  ] },
  { name: "mcpStorage", group: "adapters", f: (p) => p.mcpStorage, args: () => [mcpClient(), { server: "hostile" }], params: [
    { name: "client", kind: "anything", check: CHECK.storage },
    { name: "options", kind: "options", optional: true, schema: { server: "string", dynamic: "bool", timeoutMs: "number", maxPages: "number", maxObjectBytes: "number", maxMessageBytes: "number", maxCursorBytes: "number", maxListingBytes: "number", reconnect: "function" }, base: () => ({ server: "hostile" }), check: CHECK.storage },
  ] },
  { name: "mcpStorage().list", group: "adapters", async: true, f: (p) => p.mcpStorage(mcpClient(), { server: "hostile" }).list, self: () => undefined, args: () => ["", { limit: 2 }], params: [
    { name: "prefix", kind: "string", names: /prefix/i, storageKey: true, check: CHECK.page },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { cursor: "string", limit: "number" }, check: CHECK.page },
  ] },
  { name: "mcpStorage().read", group: "adapters", async: true, f: (p) => p.mcpStorage(mcpClient(), { server: "hostile" }).read, args: () => ["good/SKILL.md", { maxBytes: 5 }], params: [
    { name: "key", kind: "string", storageKey: true, check: CHECK.bytesOrNull },
    { name: "opts", kind: "options", extraKeys: true, optional: true, schema: { maxBytes: "number" }, check: CHECK.bytesOrNull },
  ] },
  // Instance resets
  { name: "onInstanceReset", group: "adapters", f: (p) => p.onInstanceReset, args: () => [() => {}], params: [
    { name: "listener", kind: "listener", check: (v) => (typeof v === "function" ? null : "not a function that removes the listener") },
  ] },
  { name: "instanceResets", group: "adapters", f: (p) => p.instanceResets, args: () => [], params: [
    { name: "(none)", kind: "ignored", check: (v) => (Number.isInteger(v) && v >= 0 ? null : "not a count") },
  ] },
  { name: "InstanceResetError", group: "adapters", ctor: true, f: ctorOf("InstanceResetError"), args: () => ["replaced", {}], params: [
    { name: "message", kind: "anything", check: (v) => (v instanceof Error && v.name === "InstanceResetError" ? null : "not an InstanceResetError") },
    { name: "options", kind: "anything", check: (v) => (v instanceof Error && v.name === "InstanceResetError" ? null : "not an InstanceResetError") },
  ] },
  // Replacing the instance makes every object made before it stale: the case forgets the probe's
  // objects, and its worker is not used again (its stack pointer check watches the old instance).
  // Not fuzzed: the fuzz test's package copies share the reset bookkeeping, so a reset of one
  // would make the objects of every later copy stale.
  { name: "__wbg_reset_state", group: "adapters", retire: true, noFuzz: true, f: (p) => function resetAndForget(...a) {
    const r = Reflect.apply(p.__wbg_reset_state, this, a);
    forgetProbeFixtures();
    return r;
  }, args: () => [], params: [
    { name: "(none)", kind: "ignored", reps: 3, check: (v) => (v === undefined ? null : "returned something") },
  ] },
  { name: "init", group: "adapters", async: true, f: (p) => p.init, args: () => [], params: [{ name: "input", kind: "anything", check: CHECK.any }] },
  // Takes no argument: whatever is passed is ignored, and the promise resolves (in Node at once).
  { name: "ready", group: "adapters", async: true, f: (p) => p.ready, args: () => [], params: [
    { name: "(none)", kind: "ignored", check: (v) => (v === undefined ? null : "resolved to something") },
  ] },
  { name: "initSync", group: "adapters", f: (p) => p.initSync, args: () => [], params: [{ name: "module", kind: "anything", check: CHECK.any }] },
];

// Kinds that only a few exports have.
Object.assign(FAMILIES, {
  /** SKILL.md bytes: a string, Uint8Array or ArrayBuffer; other types are programming errors. */
  skillInput(p) {
    const names = rx(p.name);
    return [
      ...wrongOf(without(ALL_WRONG, "string")).map((c) => ({ ...c, expect: typeError(names) })),
      { label: `a ${DEEP}-deep array`, make: () => deepArray(DEEP), expect: typeError(names), cost: "deep" },
      { label: `an array of ${WIDE} numbers`, make: () => wideArray(WIDE, (i) => i & 255), expect: typeError(names), cost: "wide" },
      { label: "a Uint8Array whose length says 1e9", make: () => lyingLength(enc.encode(SKILL_GOOD), 1e9), expect: valueOrTypeError(p.check, names), cost: "lying" },
      { label: "a Uint8Array whose length getter throws", make: () => lyingLength(enc.encode(SKILL_GOOD), "throw"), expect: valueOrTypeError(p.check, names, { own: true }), cost: "cheap" },
      { label: "a Proxy over a Uint8Array whose get trap throws", make: () => trapProxy(enc.encode(SKILL_GOOD), "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
      { label: "a Uint8Array subclass whose methods throw (8 KiB)", make: () => throwingMethodsU8(enc.encode(SKILL_GOOD + "x".repeat(8192))), expect: valueOrTypeError(p.check, names, { own: true }), cost: "cheap" },
      { label: "a Uint8Array over a detached buffer", make: () => { const u = enc.encode(SKILL_GOOD); structuredClone(u.buffer, { transfer: [u.buffer] }); return u; }, expect: value(p.check), cost: "cheap" },
      { label: "a Uint8Array on a SharedArrayBuffer", make: () => { const u = new Uint8Array(new SharedArrayBuffer(SKILL_GOOD.length)); u.set(enc.encode(SKILL_GOOD)); return u; }, expect: value(p.check), cost: "cheap" },
      ...LONE_SURROGATES.map((s, i) => ({ label: `text with lone surrogates (${i + 1})`, make: () => SKILL_GOOD.replace("A good", `A ${s} good`), expect: value(p.check), cost: "cheap" })),
      { label: "a 64 MiB SKILL.md", make: () => SKILL_GOOD + "x".repeat(64 << 20), expect: value(p.check), cost: "huge" },
    ];
  },
  /** parseSkills' inputs: the array is the programmer's; each item is data (a diagnostic of its own). */
  batch(p) {
    const names = rx(p.name);
    const itemCheck = (v) => CHECK.parseResults(v) ?? (v.length !== 3 ? `${v.length} results for 3 inputs` : v[0].skill === null || v[2].skill === null ? "a good item next to the bad one did not load" : v[1].diagnostics.some((d) => d.severity === "error") ? null : "the bad item has no error diagnostic");
    const item = (label, make, cost = "cheap") => ({ label: `item: ${label}`, make: () => [SKILL_GOOD, make(), SKILL_OTHER], expect: value(itemCheck, "three results, the bad item with an error diagnostic"), cost });
    // An item read through `get` only (input, dirName) never meets the other traps: it may load.
    const neighbours = (v) => CHECK.parseResults(v) ?? (v.length !== 3 ? `${v.length} results for 3 inputs` : v[0].skill === null || v[2].skill === null ? "a good item next to the other one did not load" : null);
    const trapItem = (t) => (t === "get" ? item(`a Proxy whose ${t} trap throws`, () => trapProxy({ input: SKILL_GOOD }, t)) : { label: `item: a Proxy whose ${t} trap throws`, make: () => [SKILL_GOOD, trapProxy({ input: SKILL_GOOD }, t), SKILL_OTHER], expect: value(neighbours, "three results, the good ones loaded"), cost: "cheap" });
    return [
      ...wrongOf(without(ALL_WRONG, "array")).map((c) => ({ ...c, expect: typeError(names) })),
      ...["number", "bigint", "symbol", "null", "undefined", "function", "boolean", "object", "array"].map((k) => item(`wrong type: ${k}`, WRONG[k])),
      item(`a ${DEEP}-deep array`, () => deepArray(DEEP), "deep"),
      item("{ input } with a throwing getter", () => throwingGetter({}, "input")),
      item("{ input, dirName } with a throwing dirName getter", () => throwingGetter({ input: SKILL_GOOD }, "dirName")),
      item("{ input: 5 }", () => ({ input: 5 })),
      item("{ dirName: 5 }", () => ({ input: SKILL_GOOD, dirName: 5 })),
      ...TRAPS.map(trapItem),
      item("a Uint8Array whose length getter throws", () => lyingLength(enc.encode(SKILL_GOOD), "throw")),
      item("a Proxy over a Uint8Array whose get trap throws", () => trapProxy(enc.encode(SKILL_GOOD), "get")),
      { label: `${WIDE} inputs`, make: () => wideArray(WIDE, () => SKILL_OTHER), expect: value((v) => CHECK.parseResults(v) ?? (v.length === WIDE ? null : `${v.length} results`)), cost: "wide" },
      { label: "a Proxy array whose get trap throws", make: () => trapProxy([SKILL_GOOD], "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
      { label: "a Proxy array whose length is 1e9", make: () => lyingLengthProxy([SKILL_GOOD], 1e9), expect: typeError(names, { rangeOk: true }), cost: "lying" },
      { label: "a cyclic array", make: () => cyclicArray(SKILL_GOOD), expect: value(CHECK.parseResults), cost: "cheap" },
    ];
  },
  /** toPrompt's entries: the host's own objects, so a wrong shape is a programming error. */
  entries(p) {
    const names = /entries|entry|name|description|location/i;
    const e = { name: "good", description: "d", location: "/s/good/SKILL.md" };
    return [
      ...wrongOf(without(ALL_WRONG, "array")).map((c) => ({ ...c, expect: typeError(names) })),
      ...["name", "description", "location"].map((k) => ({ label: `an entry whose ${k} is 5`, make: () => [{ ...e, [k]: 5 }], expect: typeError(rx(k)), cost: "cheap" })),
      ...["name", "description", "location"].map((k) => ({ label: `an entry whose ${k} getter throws`, make: () => [throwingGetter(e, k)], expect: typeErrorOrOwn(rx(`${k}|entries`)), cost: "cheap" })),
      // Reading an entry lists its keys and gets them; nothing asks `has`.
      ...TRAPS.map((t) => ({ label: `an entry that is a Proxy whose ${t} trap throws`, make: () => [trapProxy({ ...e }, t)], expect: t === "has" ? valueOrTypeError(p.check, names, { own: true }) : typeErrorOrOwn(names), cost: "cheap" })),
      { label: "entries is a Proxy array whose get trap throws", make: () => trapProxy([e], "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
      { label: "entries is a Proxy array whose length is 1e9", make: () => lyingLengthProxy([e], 1e9), expect: typeError(names, { rangeOk: true }), cost: "lying" },
      { label: `an entry whose name is a ${DEEP}-deep array`, make: () => [{ ...e, name: deepArray(DEEP) }], expect: typeError(rx("name")), cost: "deep" },
      { label: `a ${DEEPER}-deep value under an unknown key`, make: () => [{ ...e, extra: deepObject(DEEPER) }], expect: valueOrTypeError(p.check, names, { rangeOk: true }), cost: "deeper" },
      { label: `${WIDE} entries`, make: () => wideArray(WIDE, (i) => ({ ...e, name: `s${i}` })), expect: value(p.check), cost: "wide" },
      { label: "a cyclic entry", make: () => [cyclicObject(e)], expect: valueOrTypeError(p.check, names), cost: "cheap" },
      ...LONE_SURROGATES.slice(0, 2).map((s, i) => ({ label: `a description with lone surrogates (${i + 1})`, make: () => [{ ...e, description: s }], expect: value(p.check), cost: "cheap" })),
    ];
  },
  /** reattachSkills' contents: the host's records of skill content (a programming error when malformed). */
  contents(p) {
    const names = /contents|name|content/i;
    const c = (fx) => ({ name: "good", content: fx.activation });
    return [
      ...wrongOf(without(ALL_WRONG, "array")).map((x) => ({ ...x, expect: typeError(names) })),
      { label: "an item whose name is 5", make: (fx) => [{ ...c(fx), name: 5 }], expect: typeError(rx("name")), cost: "cheap" },
      { label: "an item whose content getter throws", make: (fx) => [throwingGetter(c(fx), "content")], expect: typeErrorOrOwn(rx("content")), cost: "cheap" },
      ...TRAPS.map((t) => ({ label: `an item that is a Proxy whose ${t} trap throws`, make: (fx) => [trapProxy(c(fx), t)], expect: t === "has" ? valueOrTypeError(p.check, names, { own: true }) : typeErrorOrOwn(names), cost: "cheap" })),
      { label: "contents is a Proxy array whose length is 1e9", make: (fx) => lyingLengthProxy([c(fx)], 1e9), expect: typeError(names, { rangeOk: true }), cost: "lying" },
      { label: `an item whose content is a ${DEEP}-deep array`, make: (fx) => [{ ...c(fx), content: deepArray(DEEP) }], expect: typeError(rx("content")), cost: "deep" },
      { label: `${WIDE} items`, make: (fx) => wideArray(WIDE, (i) => ({ name: `s${i}`, content: "x" })), expect: value(p.check), cost: "wide" },
      { label: "a cyclic item", make: (fx) => [cyclicObject(c(fx))], expect: valueOrTypeError(p.check, names), cost: "cheap" },
      { label: "content with lone surrogates", make: (fx) => [{ name: "good", content: "\uD800x" }], expect: value(p.check), cost: "cheap" },
    ];
  },
  /** Extra arguments to a function that takes none: ignored. */
  ignored(p) {
    return [
      { label: "hostile extra arguments", make: () => [trapProxy({}, "get"), Symbol("s"), 1n, deepArray(DEEP)], expect: value(p.check), cost: "cheap", spread: true, ...(p.reps ? { reps: p.reps } : {}) },
    ];
  },
  /** A callback: anything but a function is a TypeError naming it; a function that throws is taken. */
  listener(p) {
    const names = rx(p.name);
    return [
      ...wrongOf(without(ALL_WRONG, "function")).map((c) => ({ ...c, expect: typeError(names) })),
      { label: "a Proxy whose get trap throws", make: () => trapProxy({}, "get"), expect: typeErrorOrOwn(names), cost: "cheap" },
      { label: `a ${DEEP}-deep array`, make: () => deepArray(DEEP), expect: typeError(names), cost: "deep" },
      { label: "a function that throws", make: () => () => { throw new HostileError("listener"); }, expect: value(p.check), cost: "cheap" },
    ];
  },
  /** A parameter that takes anything (init's input, ZipError's fields): no trap, no hang. */
  anything(p) {
    const ok = valueOrTypeError(p.check, rx(p.name), { own: true });
    return [
      ...ALL_WRONG.map((k) => ({ label: `wrong type: ${k}`, make: WRONG[k], expect: ok, cost: "cheap" })),
      { label: "a Proxy whose get trap throws", make: () => trapProxy({}, "get"), expect: ok, cost: "cheap" },
      { label: `a ${DEEP}-deep array`, make: () => deepArray(DEEP), expect: ok, cost: "deep" },
    ];
  },
  /** memoryStorage/putSkillFiles files: a record or Map of key -> content. */
  files(p) {
    const names = p.names;
    return [
      ...wrongOf(["number", "bigint", "symbol", "function", "boolean", "string"]).map((c) => ({ ...c, expect: typeError(names) })),
      { label: "a content that is a number", make: () => ({ "a/SKILL.md": 5 }), expect: typeError(names), cost: "cheap" },
      { label: "a bad key", make: () => ({ "../x": "x" }), expect: typeError(/key/i), cost: "cheap" },
      { label: "a key with lone surrogates", make: () => ({ "a\uD800/SKILL.md": "x" }), expect: typeError(/key/i), cost: "cheap" },
      { label: "a throwing getter", make: () => throwingGetter({}, "a/SKILL.md"), expect: typeErrorOrOwn(names), cost: "cheap" },
      ...TRAPS.map((t) => ({ label: `a Proxy whose ${t} trap throws`, make: () => trapProxy({ "a/SKILL.md": "x" }, t), expect: t === "has" ? valueOrTypeError(p.check, names, { own: true }) : typeErrorOrOwn(names), cost: "cheap" })),
      { label: "a Uint8Array content whose length lies", make: () => ({ "a/SKILL.md": lyingLength(enc.encode("x"), 1e9) }), expect: valueOrTypeError(p.check, names), cost: "lying" },
      // 100,000 valid keys are valid data: stored, or refused by a documented per-call limit.
      { label: `${WIDE} files`, make: () => wideObject(WIDE, () => "x"), expect: valueOrTypeError(p.check, /key/i), cost: "wide" },
      { label: `a ${DEEP}-deep content`, make: () => ({ "a/SKILL.md": deepArray(DEEP) }), expect: typeError(names), cost: "deep" },
    ];
  },
  /** A storage key or prefix: anything that is not one is a TypeError. */
  key(p) {
    const names = rx(`${p.name}|key`);
    return [
      ...wrongOf(without(ALL_WRONG, "string")).map((c) => ({ ...c, expect: typeError(names) })),
      ...["../x", "/abs", "a\\b", "a/./b", "a%2e%2e/b", "a\u0000b"].map((k) => ({ label: `the key ${JSON.stringify(k)}`, make: () => k, expect: typeError(names), cost: "cheap" })),
      // A lone surrogate cannot be written as UTF-8: the key the engine would see differs from the host's.
      ...LONE_SURROGATES.slice(0, 2).map((s, i) => ({ label: `a key with lone surrogates (${i + 1})`, make: () => `a${s}/b${p.name === "prefix" ? "/" : ""}`, expect: typeError(names), cost: "cheap" })),
      { label: "a String object whose toString throws", make: () => Object.assign(new String("a"), { toString() { throw new HostileError("toString"); } }), expect: typeErrorOrOwn(names), cost: "cheap" },
    ];
  },
  bucket(p) {
    const names = /bucket/i;
    return [
      ...wrongOf(without(ALL_WRONG, "array", "NaN")).map((c) => ({ ...c, expect: typeError(names) })),
      { label: "a bucket whose list getter throws", make: () => throwingGetter(fakeBucket(), "list"), expect: typeErrorOrOwn(names), cost: "cheap" },
      ...TRAPS.map((t) => ({ label: `a Proxy bucket whose ${t} trap throws`, make: () => trapProxy(fakeBucket(), t), expect: typeErrorOrOwn(names), cost: "cheap" })),
    ];
  },
  idbStorage(p) {
    const names = /storage|indexedDbStorage/i;
    return [
      ...wrongOf(without(ALL_WRONG, "array", "NaN")).map((c) => ({ ...c, expect: typeError(names) })),
      { label: "a memoryStorage instead", make: (fx, pkg) => pkg.memoryStorage({}), expect: typeError(names), cost: "cheap" },
      ...TRAPS.map((t) => ({ label: `a Proxy whose ${t} trap throws`, make: () => trapProxy({}, t), expect: typeErrorOrOwn(names), cost: "cheap" })),
    ];
  },
});

// ----------------------------------------------------------------------------------------------
// Cases from the table
// ----------------------------------------------------------------------------------------------

function callWith(spec, index, family) {
  return {
    make(fx, pkg, hv) {
      const args = spec.args(fx, pkg);
      const f = spec.f(pkg, fx);
      const self = spec.self ? spec.self(pkg, fx) : undefined;
      const base = index >= 0 ? args[index] : self;
      const v = family.make(fx, pkg, base);
      if (family.spread) return { f, self, args: [...args, ...v] };
      if (index < 0) return { f, self: v, args };
      const a = [...args];
      a[index] = v;
      return { f, self, args: a };
    },
  };
}

let built = null;

export function allCases() {
  if (built) return built;
  const out = [];
  for (const spec of SPECS) {
    let offset = 0;
    spec.params.forEach((p, i) => {
      const isThis = p.name === "this";
      if (isThis) offset = 1;
      // Several params may describe parts of one argument ("call" and "call.function.arguments").
      let index = isThis ? -1 : i - offset;
      if (p.name.includes(".")) {
        index = spec.params.findIndex((q) => q.name === p.name.split(".")[0]) - offset;
      }
      const families = FAMILIES[p.kind](p);
      for (const fam of families) {
        const c = callWith(spec, index, fam);
        const cost = COST[fam.cost ?? "cheap"];
        out.push({
          group: spec.group,
          export: spec.name,
          param: p.name,
          label: fam.label,
          async: !!spec.async,
          reps: fam.reps ?? cost.reps,
          timeoutMs: fam.timeoutMs ?? cost.timeoutMs,
          make: (fx, pkg) => {
            const m = c.make(fx, pkg);
            return m;
          },
          call: spec.ctor
            ? (pkg, fx, m) => Reflect.construct(m.f, m.args)
            : (pkg, fx, m) => Reflect.apply(m.f, m.self, m.args),
          expect: fam.expect,
          ...(spec.retire ? { retire: true } : {}),
        });
      }
    });
  }
  // SkillRegistry's constructor is private (instances come from discover and fromSnapshot).
  out.push({
    group: "args", export: "SkillRegistry", param: "new.target", label: "called with new (the constructor is private)", async: false, reps: REPS, timeoutMs: 15_000,
    make: () => null, call: (pkg) => new pkg.SkillRegistry(), expect: typeError(/SkillRegistry|discover|fromSnapshot|private|constructor/i),
  });
  // Class constructors called without `new`.
  for (const cls of ["SkillTool", "SkillSession", "ZipError", "InstanceResetError"]) {
    out.push({
      group: "args", export: cls, param: "new.target", label: "called without new", async: false, reps: REPS, timeoutMs: 15_000,
      make: (fx) => [fx.registry, {}], call: (pkg, fx, a) => pkg[cls](...a), expect: typeError(rx(`${cls}|new|constructor`)),
    });
  }
  // A permission predicate that calls back into the engine while the engine is calling it.
  const reentrant = [
    ["renderCatalog", "a permitted predicate that renders the catalog again", (pkg, fx) => pkg.renderCatalog(fx.registry, { permitted: () => pkg.renderCatalog(fx.registry, {}).skills.length > 0 })],
    ["renderCatalog", "a permitted predicate that frees the registry", (pkg, fx) => pkg.renderCatalog(fx.registry, { permitted: () => { fx.registry.free(); return true; } })],
    ["SkillTool#definition", "a permitted predicate that replaces the tool's session", (pkg, fx) => {
      const t = new pkg.SkillTool(fx.registry, { permitted: () => { t.setSession(new pkg.SkillSession()); return true; } });
      return t.definition();
    }],
    ["SkillTool#definition", "a permitted predicate that frees the tool", (pkg, fx) => {
      const t = new pkg.SkillTool(fx.registry, { permitted: () => { t.free(); return true; } });
      return t.definition();
    }],
    ["SkillTool#execute", "a permitted predicate that starts a refresh", (pkg, fx) => {
      const t = new pkg.SkillTool(fx.registry, { permitted: () => { fx.registry.refresh(); return true; } });
      return t.execute({ name: "good" });
    }],
  ];
  for (const [exp, label, call] of reentrant) {
    out.push({
      group: "args", export: exp, param: "options.permitted (re-entrant)", label, async: exp.endsWith("execute"), reps: 300, timeoutMs: 15_000,
      make: () => null, call: (pkg, fx) => call(pkg, fx),
      // Re-entry is the host's choice: the call may answer or refuse with an Error, but must not
      // trap or corrupt the instance (checked by the canary).
      expect: valueOrTypeError(CHECK.any, /./, { own: true }),
    });
  }
  // A commands runner (the host's !`command` preprocessing) that calls back into the engine while
  // a body is being served: it serves the skill again, refreshes, frees the tool or the registry.
  const commandSkill = { ".agents/skills/cmd/SKILL.md": "---\nname: cmd\ndescription: A command.\n---\nNow: !`date`\n" };
  const servedWith = async (pkg, runner) => {
    const box = { depth: 0 };
    box.registry = await pkg.SkillRegistry.discover({ user: pkg.memoryStorage(commandSkill), commands: () => runner(box) });
    box.tool = new pkg.SkillTool(box.registry);
    return box.tool.execute({ name: "cmd" });
  };
  const reentrantCommands = [
    ["a commands runner that serves the skill again", (box) => (++box.depth > 2 ? "x" : box.tool.execute({ name: "cmd", force: true }).then((r) => r.content))],
    ["a commands runner that refreshes the registry", (box) => box.registry.refresh().then(() => "x")],
    ["a commands runner that frees the tool", (box) => { box.tool.free(); return "x"; }],
    ["a commands runner that frees the registry", (box) => { box.registry.free(); return "x"; }],
  ];
  for (const [label, runner] of reentrantCommands) {
    out.push({
      group: "args", export: "SkillTool#execute", param: "options.commands (re-entrant)", label, async: true, reps: 50, timeoutMs: 15_000,
      make: () => null, call: (pkg) => servedWith(pkg, runner),
      expect: valueOrTypeError(CHECK.any, /./, { own: true }),
    });
  }
  out.push(...storeCases());
  const ids = new Set();
  for (const c of out) {
    let id = `${c.export} ${c.param}: ${c.label}`;
    for (let n = 2; ids.has(id); n++) id = `${c.export} ${c.param}: ${c.label} #${n}`;
    ids.add(id);
    c.id = id;
  }
  // The full canary runs after the last case of each (export, parameter) group.
  for (let i = 0; i < out.length; i++) {
    out[i].canary = i === out.length - 1 || out[i + 1].export !== out[i].export || out[i + 1].param !== out[i].param;
  }
  built = out;
  return out;
}

export function caseById(id) {
  const c = allCases().find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c;
}

/** Which parameters the table covers, per export or member. */
export function coverage() {
  const m = new Map();
  for (const c of allCases()) {
    if (!m.has(c.export)) m.set(c.export, new Set());
    m.get(c.export).add(c.param);
  }
  return m;
}

/** The IndexedDB cases need fake-indexeddb loaded before any case is made. */
export async function prepare() {
  await fakeIdb();
}
