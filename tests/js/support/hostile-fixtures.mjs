// Fixtures of the hostile-caller suite: the skills and objects every case starts from, the
// checks of normal answers, and the canary (every export called normally) whose results must not
// change after a case.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeOutcome, settle, showError } from "./hostile.mjs";
import { zip as makeZip } from "./zip.mjs";

export const SKILL_GOOD =
  "---\nname: good\ndescription: A good skill for the hostile tests.\nallowed-tools: Bash(git status:*) Read\nargument-hint: <file>\n---\n# Good\n\nWork on $ARGUMENTS carefully.\n";
export const SKILL_OTHER = "---\nname: other\ndescription: Another skill.\n---\nOther body.\n";
export const SKILL_HURT = "---\nname: hurt\ndescription: A skill in a hostile store.\n---\nHurt body.\n";
export const enc = new TextEncoder();

export const GOOD_FILES = {
  "good/SKILL.md": SKILL_GOOD,
  "good/references/a.md": "reference text\n",
  "other/SKILL.md": SKILL_OTHER,
};

export function aiSdkTranscript(content) {
  return [
    { role: "system", content: "You are a helpful agent." },
    { role: "user", content: [{ type: "text", text: "Please use the good skill." }] },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "view_skill", input: { name: "good" } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "view_skill", output: { type: "text", value: content } }] },
    { role: "assistant", content: [{ type: "text", text: "Done." }] },
  ];
}

// What discovery and the first activation give never changes: computed once per instance.
let cached = null;

/** Fresh objects for one case: a registry over a memory store, a tool, a session, a transcript. */
export async function fixtures(pkg) {
  const storage = pkg.memoryStorage(GOOD_FILES);
  const options = { scopes: [{ name: "project", storage, roots: [""], trusted: true }] };
  if (cached === null || cached.pkg !== pkg) {
    const registry = await pkg.SkillRegistry.discover(options);
    const helper = new pkg.SkillTool(registry, {});
    cached = { pkg, snapshot: registry.snapshot(), activation: (await helper.execute({ name: "good" })).content };
    helper.free();
    registry.free();
  }
  const registry = pkg.SkillRegistry.fromSnapshot(cached.snapshot, options);
  const tool = new pkg.SkillTool(registry, {});
  const session = new pkg.SkillSession();
  const mcp = new pkg.SkillsMcp(registry);
  const { activation, snapshot } = cached;
  return {
    storage, options, registry, tool, session, mcp, activation, snapshot: snapshot.slice(),
    transcript: aiSdkTranscript(activation),
    /** A new instance of `cls` that has been freed. */
    freed(cls) {
      const o = fresh(pkg, this, cls);
      o.free();
      return o;
    },
    instance(cls) {
      return fresh(pkg, this, cls);
    },
  };
}

function fresh(pkg, fx, cls) {
  if (cls === "SkillRegistry") return pkg.SkillRegistry.fromSnapshot(fx.snapshot, fx.options);
  if (cls === "SkillTool") return new pkg.SkillTool(fx.registry, {});
  if (cls === "SkillsMcp") return new pkg.SkillsMcp(fx.registry);
  return new pkg.SkillSession();
}

// ----------------------------------------------------------------------------------------------
// Result checks (each returns a problem string or null)
// ----------------------------------------------------------------------------------------------

export const isObj = (v) => typeof v === "object" && v !== null;
export const isDiag = (d) => isObj(d) && typeof d.code === "string" && typeof d.message === "string" && ["error", "warning", "info"].includes(d.severity);

export const CHECK = {
  any: () => null,
  registry: (v) => (isObj(v) && typeof v.names === "function" ? null : "not a SkillRegistry"),
  parseResult(v) {
    if (!isObj(v) || !("skill" in v)) return "not a ParseResult";
    if (!Array.isArray(v.diagnostics) || !v.diagnostics.every(isDiag)) return "diagnostics are not Diagnostic[]";
    return null;
  },
  parseResults(v) {
    if (!Array.isArray(v)) return "not an array";
    return v.map(CHECK.parseResult).find(Boolean) ?? null;
  },
  properties(v) {
    return isObj(v) && "properties" in v && Array.isArray(v.errors) ? null : "not a PropertiesResult";
  },
  string: (v) => (typeof v === "string" ? null : "not a string"),
  /** A user message (or a LangChain content array) of text parts. */
  userMessage(v) {
    const parts = Array.isArray(v) ? v : isObj(v) && v.role === "user" ? v.content : null;
    return Array.isArray(parts) && parts.every((p) => isObj(p) && typeof p.text === "string") ? null : "not a user message of text parts";
  },
  boolean: (v) => (typeof v === "boolean" ? null : "not a boolean"),
  stringOrNull: (v) => (v === null || typeof v === "string" ? null : "neither a string nor null"),
  catalog(v) {
    return isObj(v) && (v.text === null || typeof v.text === "string") && Array.isArray(v.skills) ? null : "not a CatalogResult";
  },
  suggestions: (v) => (Array.isArray(v) && v.every((s) => typeof s.name === "string") ? null : "not Suggestion[]"),
  parsedMessage: (v) => (isObj(v) && Array.isArray(v.invocations) && typeof v.remaining === "string" ? null : "not a ParsedMessage"),
  decision: (v) => (isObj(v) && typeof v.allowed === "boolean" && typeof v.reason === "string" ? null : "not a ToolDecision"),
  /** The input could not be read as a `git status` command: it must not be pre-approved. */
  denied(v) {
    return CHECK.decision(v) ?? (v.allowed === false ? null : `allowed: true (by ${v.pattern}) for an input that is no git status command`);
  },
  toolResult: (v) => (isObj(v) && typeof v.content === "string" && typeof v.isError === "boolean" ? null : "not a ToolResult"),
  errorResult(v) {
    return CHECK.toolResult(v) ?? (v.isError ? null : "isError is false for an input that names no skill");
  },
  definition: (v) => (v === null || (isObj(v) && typeof v.name === "string") ? null : "not a ToolDefinition"),
  injection: (v) => (isObj(v) && Array.isArray(v.injected) && typeof v.remaining === "string" ? null : "not an Injection"),
  fileResult: (v) => (isObj(v) && typeof v.name === "string" && typeof v.path === "string" ? null : "not a FileResult"),
  fileError(v) {
    return CHECK.fileResult(v) ?? (isDiag(v.error) ? null : "no error for a file that cannot be read");
  },
  refreshReport: (v) => (isObj(v) && Array.isArray(v.added) && Array.isArray(v.changed) && Array.isArray(v.removed) ? null : "not a RefreshReport"),
  metas: (v) => (Array.isArray(v) && v.every((m) => typeof m.name === "string") ? null : "not SkillMeta[]"),
  hits: (v) => (Array.isArray(v) && v.length <= 100 && v.every((h) => typeof h.name === "string" && typeof h.score === "number") ? null : "not SearchHit[] (at most 100)"),
  scopedFile: (v) => (v === null || (isObj(v) && typeof v.path === "string" && "content" in v) ? null : "neither { content, path } nor null"),
  sessionChange(v) {
    if (isObj(v) && isDiag(v.error)) return null;
    return isObj(v) && Array.isArray(v.forgotten) ? null : "neither a SessionChange nor { error }";
  },
  metaOrNull: (v) => (v === null || (isObj(v) && typeof v.name === "string") ? null : "neither SkillMeta nor null"),
  compactResult(v) {
    if (isObj(v) && isDiag(v.error)) return null;
    return isObj(v) && Array.isArray(v.transcript) && isObj(v.report) ? null : "neither { transcript, report } nor { error }";
  },
  found(v) {
    if (isObj(v) && isDiag(v.error)) return null;
    return isObj(v) && Array.isArray(v.uses) ? null : "neither Found nor { error }";
  },
  protected(v) {
    if (isObj(v) && isDiag(v.error)) return null;
    return Array.isArray(v) && v.every(Number.isInteger) ? null : "neither number[] nor { error }";
  },
  format: (v) => (v === null || ["ai-sdk", "openai", "anthropic"].includes(v) ? null : "not a TranscriptFormat or null"),
  anthropicResult(v) {
    return isObj(v) && v.type === "tool_result" && typeof v.content === "string" ? null : "not a tool_result block";
  },
  anthropicError(v) {
    return CHECK.anthropicResult(v) ?? (v.is_error === true ? null : "is_error is not set for a block that names no skill");
  },
  openAiMessage: (v) => (isObj(v) && v.role === "tool" && typeof v.content === "string" ? null : "not a role: tool message"),
  reduced: (v) => (isObj(v) && typeof v.content === "string" && typeof v.isError === "boolean" ? null : "not a reduced tool output"),
  reducedError(v) {
    return CHECK.reduced(v) ?? (v.isError ? null : "isError is false for an input that names no skill");
  },
  modelOutput: (v) => (isObj(v) && ["text", "error-text"].includes(v.type) && typeof v.value === "string" ? null : "not { type, value }"),
  array: (v) => (Array.isArray(v) ? null : "not an array"),
  storage: (v) => (isObj(v) && typeof v.list === "function" && typeof v.read === "function" ? null : "not a storage"),
  undef: (v) => (v === undefined ? null : "not undefined"),
  page: (v) => (isObj(v) && Array.isArray(v.entries) ? null : "not a ListPage"),
  bytesOrNull: (v) => (v === null || v instanceof Uint8Array ? null : "not Uint8Array | null"),
};

// ----------------------------------------------------------------------------------------------
// The canary: every export called normally. Its digest before and after a case must be equal.
// ----------------------------------------------------------------------------------------------

function digest(v) {
  return JSON.stringify(v, (k, x) => {
    if (k === "at") return "<time>";
    if (x instanceof Uint8Array) {
      let h = 0x811c9dc5;
      for (let i = 0; i < x.length; i++) h = Math.imul(h ^ x[i], 0x01000193);
      return `bytes:${x.length}:${(h >>> 0).toString(16)}`;
    }
    if (typeof x === "function") return `function ${x.name}`;
    if (typeof x === "bigint") return `${x}n`;
    if (isObj(x) && x.constructor && !["Object", "Array"].includes(x.constructor.name)) {
      if (x instanceof Error) return `${x.name}: ${x.message}`;
      if (typeof x.free === "function") return `<${x.constructor.name}>`;
    }
    return x;
  });
}

let fsDir = null;
export function fsFixtureDir() {
  if (fsDir === null) {
    fsDir = mkdtempSync(path.join(tmpdir(), "skillwasm-hostile-"));
    for (const [k, v] of Object.entries(GOOD_FILES)) {
      const f = path.join(fsDir, ...k.split("/"));
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, v);
    }
  }
  return fsDir;
}

/** A minimal R2 bucket binding over a Map. */
export function fakeBucket(files = GOOD_FILES) {
  const objects = new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)]));
  return {
    async list({ prefix = "", cursor, limit = 1000 } = {}) {
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      const start = cursor ? keys.indexOf(cursor) + 1 : 0;
      const page = keys.slice(start, start + limit);
      const truncated = start + limit < keys.length;
      return { objects: page.map((key) => ({ key, size: objects.get(key).length, etag: `e${objects.get(key).length}` })), truncated, ...(truncated ? { cursor: page[page.length - 1] } : {}) };
    },
    async get(key, opts) {
      const b = objects.get(key);
      if (!b) return null;
      const r = opts?.range ? b.slice(opts.range.offset, opts.range.offset + opts.range.length) : b.slice();
      return { arrayBuffer: async () => r.buffer, size: b.length };
    },
    async head(key) {
      return objects.has(key) ? { size: objects.get(key).length } : null;
    },
  };
}

let idb = null;
export async function fakeIdb() {
  if (idb === null) idb = await import("fake-indexeddb");
  return idb;
}
/** fake-indexeddb's globals, once fakeIdb() has loaded it. */
export function idbGlobals() {
  return { indexedDB: idb.indexedDB, IDBKeyRange: idb.IDBKeyRange };
}
let dbCounter = 0;
export function nextDbName(prefix) {
  return `${prefix}-${dbCounter++}`;
}

export async function canary(pkg) {
  const out = {};
  const run = async (name, f) => {
    try {
      let r = f();
      if (r && typeof r.then === "function") {
        const s = await settle(r, 3000);
        r = s.how === "resolved" ? s.value : describeOutcome(s);
      }
      out[name] = digest(r);
    } catch (e) {
      out[name] = `threw ${showError(e)}`;
    }
  };
  let fx;
  try {
    fx = await fixtures(pkg);
  } catch (e) {
    return { fixtures: `threw ${showError(e)}` };
  }
  const { registry, tool, transcript } = fx;
  await run("parseSkill", () => pkg.parseSkill(SKILL_GOOD, { dirName: "good" }));
  await run("parseSkills", () => pkg.parseSkills([SKILL_GOOD, { input: enc.encode(SKILL_OTHER), dirName: "other" }], { includeBody: false }));
  await run("readProperties", () => pkg.readProperties(SKILL_GOOD));
  await run("toPrompt", () => pkg.toPrompt([{ name: "good", description: "d <x>", location: "/s/good/SKILL.md" }]));
  await run("version", () => pkg.version());
  await run("renderCatalog", () => pkg.renderCatalog(registry, { format: "xml", permitted: (m) => m.name !== "other" }));
  await run("autocomplete", () => pkg.autocomplete(registry, "go", 5));
  await run("parseMessage", () => pkg.parseMessage(registry, "/good report.pdf and $other"));
  await run("substituteArguments", () => pkg.substituteArguments("Do $ARGUMENTS and $file.", "a.txt", "<file>", {}));
  await run("isToolAllowed", () => [
    pkg.isToolAllowed(registry, ["good"], "Bash", { command: "git status -s" }, {}),
    pkg.isToolAllowed(registry, ["good"], "Bash", { command: "rm -rf /" }, {}),
  ]);
  await run("isInSkillDirectory", () => [pkg.isInSkillDirectory("/s/good/a.md", ["/s/good"]), pkg.isInSkillDirectory("/s/good/../x", ["/s/good"])]);
  await run("detectTranscriptFormat", () => pkg.detectTranscriptFormat(transcript));
  await run("findSkillContent", () => pkg.findSkillContent(transcript, {}));
  await run("compactSkillContent", () => pkg.compactSkillContent(transcript, {}));
  await run("protectedMessages", () => pkg.protectedMessages(transcript, {}));
  await run("pruneTranscript", () => pkg.pruneTranscript(transcript, 50, {}));
  await run("reattachSkills", () => pkg.reattachSkills(transcript, [{ name: "good", content: fx.activation }], "catalog", {}));
  await run("dedupeSkillContent", () => pkg.dedupeSkillContent([...transcript, ...transcript.slice(2, 4)], {}));
  await run("SkillRegistry.discover", async () => (await pkg.SkillRegistry.discover(fx.options)).names());
  await run("SkillRegistry.fromSnapshot", () => pkg.SkillRegistry.fromSnapshot(fx.snapshot, fx.options).names());
  await run("SkillRegistry#get", () => registry.get("good"));
  await run("SkillRegistry#listMetas", () => registry.listMetas());
  await run("SkillRegistry#listMetasAcross", () => registry.listMetasAcross());
  await run("SkillRegistry#names", () => registry.names());
  await run("SkillRegistry#diagnostics", () => registry.diagnostics());
  await run("SkillRegistry#readFile", async () => [await registry.readFile("good"), await registry.readFile("good", "references/a.md")]);
  await run("SkillRegistry#refresh", () => registry.refresh());
  await run("SkillRegistry#stats", () => registry.stats());
  await run("SkillRegistry#snapshot", () => registry.snapshot());
  await run("SkillRegistry#free", () => pkg.SkillRegistry.fromSnapshot(fx.snapshot, fx.options).free());
  await run("SkillSession", () => {
    const s = new pkg.SkillSession();
    const r = [s.activations(), s.isLoaded("good")];
    s.clear();
    s.free();
    return r;
  });
  await run("SkillTool#definition", () => tool.definition());
  await run("SkillTool#catalog", () => tool.catalog());
  await run("SkillTool#execute", async () => [await tool.execute({ name: "good" }), await tool.execute({ name: "good" }), await tool.execute({ name: "nope" })]);
  await run("SkillTool#invoke", () => tool.invoke("/good now"));
  await run("SkillTool#subagentPrompt", () => tool.subagentPrompt("good", "a task"));
  await run("SkillTool#reattach", () => tool.reattach(transcript.slice(0, 2), {}));
  await run("SkillTool#session", () => tool.session.activations());
  await run("SkillTool#setSession", () => {
    const t = new pkg.SkillTool(registry, {});
    t.setSession(fx.session);
    const r = t.session.isLoaded("good");
    t.free();
    return r;
  });
  await run("aiSdkTool", async () => {
    const t = pkg.aiSdkTool(new pkg.SkillTool(registry, {}));
    const output = await t.execute({ name: "good" });
    return [t.description, output, await t.toModelOutput({ output })];
  });
  await run("openAiTool", () => [pkg.openAiTool(tool), pkg.openAiTool(tool, { api: "responses" })]);
  await run("openAiToolMessage", () => pkg.openAiToolMessage(new pkg.SkillTool(registry, {}), { id: "c", function: { name: "view_skill", arguments: '{"name":"good"}' } }));
  await run("anthropicTool", () => pkg.anthropicTool(tool));
  await run("anthropicToolResult", () => pkg.anthropicToolResult(new pkg.SkillTool(registry, {}), { id: "t", input: { name: "nope" } }));
  await run("memoryStorage", async () => {
    const s = pkg.memoryStorage({ "a/b": "x" });
    s.put("a/c", "y");
    return [await s.list(""), await s.read("a/c"), s.delete("a/b"), s.size];
  });
  await run("nodeFsStorage", async () => {
    const s = pkg.nodeFsStorage(fsFixtureDir());
    const heads = s.listSkillPrefixes("", { files: ["SKILL.md"], prefixBytes: 10 }).entries.map((e) => [e.key, e.head ?? null]);
    return [(await s.list("")).entries.map((e) => [e.key, e.size]), await s.read("good/SKILL.md", { maxBytes: 10 }), heads];
  });
  await run("r2Storage", async () => {
    const s = pkg.r2Storage(fakeBucket(), { prefix: "" });
    return [await s.list(""), await s.read("other/SKILL.md")];
  });
  await run("indexedDbStorage", async () => {
    const { indexedDB, IDBKeyRange } = await fakeIdb();
    const s = pkg.indexedDbStorage({ dbName: nextDbName("canary"), indexedDB, IDBKeyRange });
    const keys = await pkg.putSkillFiles(s, { "SKILL.md": SKILL_OTHER, "r.md": "r" }, { prefix: "other/" });
    const listed = await s.list("");
    const deleted = await pkg.deleteKeys(s, ["other/r.md"]);
    const after = await s.list("");
    s.close();
    return [keys, listed.entries.map((e) => e.key), deleted, after.entries.map((e) => e.key)];
  });
  await run("assertKey", () => {
    pkg.assertKey("a/b");
    try {
      pkg.assertKey("../x");
      return "accepted ../x";
    } catch (e) {
      return e.name;
    }
  });
  await run("assertPrefix", () => {
    pkg.assertPrefix("a/");
    try {
      pkg.assertPrefix("a");
      return "accepted a";
    } catch (e) {
      return e.name;
    }
  });
  await run("unzip", async () => (await pkg.unzip(makeZip([{ rel: "SKILL.md", bytes: enc.encode(SKILL_OTHER) }]))).map((f) => [f.path, f.bytes]));
  await run("ZipError", () => {
    const e = new pkg.ZipError(400, "bad");
    return [e instanceof Error, e.status, e.message];
  });
  await run("init", () => pkg.init());
  await run("initSync", () => typeof pkg.initSync);
  return out;
}

/** A few exports, called after every case. */
let probeFx = null;

/** Drops the probe's objects (after a case that replaced the instance, which makes them stale). */
export function forgetProbeFixtures() {
  probeFx = null;
}
export async function probe(pkg) {
  const out = {};
  try {
    probeFx ??= await fixtures(pkg);
    const fx = probeFx;
    fx.tool.session.clear();
    out.parseSkill = digest(pkg.parseSkill(SKILL_GOOD, { dirName: "good" }));
    out.renderCatalog = digest(pkg.renderCatalog(fx.registry, {}));
    out.isToolAllowed = digest(pkg.isToolAllowed(fx.registry, ["good"], "Bash", { command: "git status" }, {}));
    out.execute = digest(await fx.tool.execute({ name: "good" }));
    out.compact = digest(pkg.compactSkillContent(fx.transcript, {}));
  } catch (e) {
    out.threw = showError(e);
  }
  return out;
}

export function compareCanary(before, after) {
  const diffs = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[k] !== after[k]) diffs.push(`${k}: ${String(after[k]).slice(0, 140)} (was ${String(before[k]).slice(0, 60)})`);
  }
  return diffs;
}

