// A misspelt option is a programming error: a TypeError that names the key and lists the valid
// ones, from the core's option types (parse, compaction, substitution, permissions) and from the
// framework shapes, instead of being ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const { parseSkill, parseSkills, compactSkillContent, substituteArguments, isToolAllowed, SkillRegistry, SkillTool, memoryStorage,
  aiSdkTool, aiSdkTools, openAiTool } = pkg;

const SKILL = "---\nname: a\ndescription: b\n---\nbody\n";

/** Asserts `f` throws a TypeError whose message names `key` once and lists `valid`. */
function refuses(f, prefix, key, valid) {
  assert.throws(f, (e) => {
    assert.equal(e.name, "TypeError");
    assert.ok(e.message.startsWith(prefix), `${e.message} does not start with ${prefix}`);
    assert.ok(e.message.includes(key), `${e.message} does not name ${key}`);
    for (const v of valid) assert.ok(e.message.includes(v), `${e.message} does not list ${v}`);
    assert.doesNotMatch(e.message, /Error: .*Error:/, "no doubled prefixes");
    return true;
  });
}

test("core options: an unknown key is a TypeError naming it and the valid keys", async () => {
  refuses(() => parseSkill(SKILL, { dirname: "a" }), "parseSkill: opts", "dirname", ["dirName", "mode", "includeBody", "partial"]);
  refuses(() => parseSkills([SKILL], { include_body: false }), "parseSkills", "include_body", ["includeBody"]);
  refuses(() => compactSkillContent([], { keep_recent: 1 }), "compactSkillContent: opts", "keep_recent", ["keepRecent", "toolName"]);
  refuses(() => substituteArguments("$0", "x", null, { onebased: true }), "substituteArguments: options", "onebased", ["oneBased"]);
  const registry = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": SKILL }) });
  refuses(() => isToolAllowed(registry, ["a"], "Bash", {}, { cwdd: "/" }), "isToolAllowed: context", "cwdd", []);
  // The right keys still work.
  assert.equal(parseSkill(SKILL, { dirName: "a", includeBody: false }).skill.name, "a");
});

test("framework shapes: an unknown option key is a TypeError naming it and the valid keys", async () => {
  const registry = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": SKILL }) });
  const tool = new SkillTool(registry);
  refuses(() => aiSdkTool(tool, { jsonschema: (s) => s }), "aiSdkTool: unknown option 'jsonschema'", "jsonschema", ["jsonSchema"]);
  refuses(() => aiSdkTools(tool, { schema: 1 }), "aiSdkTools: unknown option 'schema'", "schema", ["jsonSchema"]);
  refuses(() => openAiTool(tool, { API: "responses" }), "openAiTool: unknown option 'API'", "API", ["api", "strict"]);
  assert.equal(openAiTool(tool, { api: "responses", strict: false }).strict, false);
});

test("registry and tool options: an unknown key is a TypeError naming it and the valid keys, from the core's lists", async () => {
  const store = () => memoryStorage({ ".agents/skills/a/SKILL.md": SKILL });
  const rejects = async (p, prefix, key, valid) => {
    await assert.rejects(p, (e) => {
      refuses(() => { throw e; }, prefix, key, valid);
      return true;
    });
  };
  await rejects(SkillRegistry.discover({ user: store(), dirname: "x" }), "SkillRegistry.discover: options.dirname: unknown field `dirname`", "dirname", ["trustProject", "toolName", "scopes", "project", "permitted"]);
  await rejects(SkillRegistry.discover({ scopes: [{ name: "s", storage: store(), root: "x" }] }), "SkillRegistry.discover: options.scopes[0].root: unknown field `root`", "root", ["name", "storage", "roots", "trusted"]);
  const registry = await SkillRegistry.discover({ user: store() });
  refuses(() => SkillRegistry.fromSnapshot(registry.snapshot(), { user: store(), trustproject: true }), "SkillRegistry.fromSnapshot: options.trustproject: unknown field", "trustproject", ["trustProject"]);
  refuses(() => new SkillTool(registry, { toolname: "x" }), "SkillTool: options.toolname: unknown field", "toolname", ["toolName", "catalog", "permitted"]);
  refuses(() => new SkillTool(registry, { catalog: { formats: "xml" } }), "SkillTool: options.catalog.formats: unknown field", "formats", ["format", "budgetTokens"]);
  refuses(() => pkg.renderCatalog(registry, { budget: 10 }), "renderCatalog: options.budget: unknown field", "budget", ["budgetTokens", "permitted"]);
  // The right keys still work, in every place.
  assert.equal(new SkillTool(registry, { toolName: "activate_skill", catalog: { format: "markdown" } }).definition().name, "activate_skill");
  assert.equal(SkillRegistry.fromSnapshot(registry.snapshot(), { user: store() }).names()[0], "a");
});

test("tool names: spaces, characters outside [a-zA-Z0-9_-] and more than 64 characters are TypeErrors naming the rule", async () => {
  const store = () => memoryStorage({ ".agents/skills/a/SKILL.md": SKILL });
  const registry = await SkillRegistry.discover({ user: store() });
  const rule = "a tool name is 1 to 64 of the characters a-z, A-Z, 0-9, _ and -";
  for (const [name, why] of [["view skill", "contains a space"], ["skills.view", "contains '.'"], ["x".repeat(65), "has 65 characters"], ["", "is empty"], ["naïve", "contains 'ï'"]]) {
    refuses(() => new SkillTool(registry, { toolName: name }), "SkillTool: options: toolName: ", why, [rule]);
    await assert.rejects(SkillRegistry.discover({ user: store(), toolName: name }), (e) => e instanceof TypeError && e.message.startsWith("SkillRegistry.discover: options: toolName: ") && e.message.includes(rule));
  }
  for (const name of ["view_skill", "activate-skill", "x".repeat(64)]) assert.equal(new SkillTool(registry, { toolName: name }).definition().name, name);
});

// Every bad call's message names where it went wrong once: one "fn: " prefix, the key, no
// "Error:" copied in from a wrapped error.
test("messages read cleanly: one prefix, the key named, nothing doubled", async () => {
  const store = () => memoryStorage({ ".agents/skills/a/SKILL.md": SKILL });
  const registry = await SkillRegistry.discover({ user: store() });
  const tool = new SkillTool(registry);
  const cases = [
    [() => parseSkill(SKILL, { mode: "nope" }), "parseSkill", "opts.mode"],
    [() => parseSkills([SKILL], { mode: 1 }), "parseSkills", "opts.mode"],
    [() => SkillRegistry.discover({ user: 5 }), "SkillRegistry.discover", "options.user"],
    [() => SkillRegistry.discover({ scopes: [{ name: "s", storage: {} }] }), "SkillRegistry.discover", "options.scopes[0].storage"],
    [() => SkillRegistry.discover({ user: store(), mode: "nope" }), "SkillRegistry.discover", "options.mode"],
    [() => SkillRegistry.discover({ user: store(), maxDepth: "x" }), "SkillRegistry.discover", "options.maxDepth"],
    [() => SkillRegistry.discover({}), "SkillRegistry.discover", "at least one scope"],
    [() => SkillRegistry.fromSnapshot(registry.snapshot(), { user: store(), format: "nope" }), "SkillRegistry.fromSnapshot", "options.format"],
    [() => new SkillTool(registry, { maxResources: "many" }), "SkillTool", "options.maxResources"],
    [() => new SkillTool(registry, { catalog: 3 }), "SkillTool", "options.catalog"],
    [() => new SkillTool(registry, { toolName: "a b" }), "SkillTool", "toolName"],
    [() => pkg.renderCatalog(registry, { format: "nope" }), "renderCatalog", "options.format"],
    [() => pkg.renderCatalog(registry, { budgetTokens: -1 }), "renderCatalog", "options.budgetTokens"],
    [() => compactSkillContent([], { keepRecent: "x" }), "compactSkillContent", "opts.keepRecent"],
    [() => tool.pruneTranscript([], "x"), "SkillTool.pruneTranscript", "budgetTokens"],
    [() => openAiTool(tool, { api: "x" }), "openAiTool", "api"],
  ];
  for (const [call, prefix, key] of cases) {
    let error;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof TypeError, `${prefix} ${key}: ${error}`);
    const m = error.message;
    assert.ok(m.startsWith(`${prefix}: `) || m.startsWith(`${prefix}.`), `${m} does not start with ${prefix}`);
    assert.equal(m.split(`${prefix.split(".")[0]}`).length - 1, 1, `${m} names ${prefix} more than once`);
    assert.ok(m.includes(key), `${m} does not name ${key}`);
    assert.doesNotMatch(m, /\b(Type)?Error: /, `${m} has a wrapped error's prefix`);
    assert.doesNotMatch(m, /: options: options|opts: opts/, m);
  }
});
