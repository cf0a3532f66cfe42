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
