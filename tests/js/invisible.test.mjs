// No invisible text reaches the model: one skill carries every kind of character no output shows
// (format characters, the other default-ignorable ones, controls, variation selectors that vary
// nothing) in every field, its body, a file's name and contents; every string the model is shown
// (the catalog in each format and locale, the tool definition and its enum, each framework shape
// and answer, activation, file reads, /name, search results and unknown-name answers, the
// subagent prompt, the MCP server's instructions and tool) holds none of them raw. The check is
// JavaScript's own Unicode tables (\p{Cf}, \p{Default_Ignorable_Code_Point}, \p{Cc}), not the
// core's list.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { PKG, importPkg } from "./helpers.mjs";
import { connectInProcess } from "./support/mcp-connect.mjs";

const pkg = await importPkg();
const { skillsMcpServer } = await import(path.join(PKG, "mcp-server.js"));
const {
  SkillRegistry, SkillTool, memoryStorage, renderCatalog, aiSdkTool, openAiTool, openAiToolMessage, openAiResponsesOutput,
  anthropicTool, anthropicToolResult, openAiAgentsTool, mastraTool,
} = pkg;

/** Every kind, one character each, with what it is. */
const KINDS = [
  ["\u00AD", "soft hyphen"], ["\u034F", "combining grapheme joiner"], ["\u0600", "Arabic number sign"],
  ["\u061C", "Arabic letter mark"], ["\u06DD", "Arabic end of ayah"], ["\u070F", "Syriac abbreviation mark"],
  ["\u0890", "Arabic pound mark above"], ["\u08E2", "Arabic disputed end of ayah"], ["\u115F", "Hangul choseong filler"],
  ["\u1160", "Hangul jungseong filler"], ["\u17B4", "Khmer inherent vowel"], ["\u180E", "Mongolian vowel separator"],
  ["\u200B", "zero-width space"], ["\u200C", "zero-width non-joiner"], ["\u200D", "zero-width joiner"],
  ["\u200E", "left-to-right mark"], ["\u200F", "right-to-left mark"], ["\u202A", "left-to-right embedding"],
  ["\u202B", "right-to-left embedding"], ["\u202C", "pop directional formatting"], ["\u202D", "left-to-right override"],
  ["\u202E", "right-to-left override"], ["\u2060", "word joiner"], ["\u2061", "function application"],
  ["\u2062", "invisible times"], ["\u2063", "invisible separator"], ["\u2064", "invisible plus"],
  ["\u2066", "left-to-right isolate"], ["\u2067", "right-to-left isolate"], ["\u2068", "first strong isolate"],
  ["\u2069", "pop directional isolate"], ["\u206A", "inhibit symmetric swapping"], ["\u206F", "nominal digit shapes"],
  ["\u3164", "Hangul filler"], ["\uFEFF", "zero-width no-break space"], ["\uFFA0", "halfwidth Hangul filler"],
  ["\uFFF9", "interlinear annotation anchor"], ["\uFFFB", "interlinear annotation terminator"],
  ["\u{110BD}", "Kaithi number sign"], ["\u{13430}", "Egyptian hieroglyph vertical joiner"],
  ["\u{1BCA0}", "shorthand format letter overlap"], ["\u{1D173}", "musical symbol begin beam"],
  ["\u{E0001}", "language tag"], ["\u{E0041}", "tag Latin capital letter A"], ["\u{E0070}", "tag Latin small letter p"],
  ["\u{E007F}", "cancel tag"], ["\u0001", "C0 control"], ["\u001B", "escape"], ["\u007F", "delete"], ["\u009B", "C1 control"],
  ["\u2764\uFE0F\uFE0F", "a second variation selector after an emoji"], ["\u{E0100}", "a variation selector after a space"],
];
const HOSTILE = KINDS.map(([c], i) => `k${i} ${c}`).join(" ");
const EMOJI = "\u2764\uFE0F"; // a variation selector that varies its emoji: kept

/** The characters of `text` no output may show raw: JavaScript's own tables, and selectors that vary nothing. */
function raw(text) {
  const out = [];
  let prev = "";
  for (const c of text) {
    const selector = /\p{Variation_Selector}/u.test(c);
    const varies = selector && prev !== "" && !/[\s\p{Variation_Selector}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(prev);
    if (!varies && c !== "\n" && c !== "\t" && /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(c)) {
      out.push(`U+${c.codePointAt(0).toString(16).toUpperCase()}`);
    }
    prev = c;
  }
  return out;
}

function clean(label, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  assert.equal(typeof text, "string", label);
  assert.deepEqual(raw(text), [], `${label}: ${JSON.stringify(text).slice(0, 300)}`);
}

const skillMd = [
  "---",
  "name: hostile",
  `description: "Fill forms ${EMOJI} ${HOSTILE}"`,
  `description_zh: "填写表格 ${HOSTILE}"`,
  `compatibility: "needs ${HOSTILE}"`,
  `argument-hint: "[file ${HOSTILE}]"`,
  "---",
  "",
  `# Steps ${EMOJI}`,
  "",
  HOSTILE,
  "$ARGUMENTS",
  "",
].join("\n");
const FILE = `notes/a\u200B\u202E\u{E0041}.md`;

async function registryOf(options = {}) {
  return SkillRegistry.discover({
    scopes: [{ name: "user", storage: memoryStorage({
      "hostile/SKILL.md": skillMd,
      [`hostile/${FILE}`]: `Notes ${HOSTILE}`,
      "hostile/notes/b.md": `Notes ${HOSTILE}`,
      "pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms.\n---\nBody.\n",
      "p\u200Bdf/SKILL.md": "---\nname: \"p\u200Bdf\"\ndescription: The impostor.\n---\nBody.\n",
    }), roots: [""], trusted: true }],
    ...options,
  });
}

test("the test's own check sees every kind raw", () => {
  for (const [c, what] of KINDS) assert.notDeepEqual(raw(`x ${c}y`), [], what);
  assert.deepEqual(raw(`ok ${EMOJI}\tx\n`), []);
});

test("a name holding an invisible character is refused: names are what every output shows", async () => {
  const registry = await registryOf();
  assert.deepEqual(registry.names(), ["hostile", "pdf"]);
  assert.ok(registry.diagnostics().some((d) => d.code === "name-hidden-chars" && d.severity === "error"));
});

test("every model-visible string neutralises every kind the same way", async () => {
  const registry = await registryOf();
  for (const format of ["xml", "json", "markdown", "reference"]) {
    for (const locale of [undefined, "zh"]) {
      const c = renderCatalog(registry, { format, ...(locale ? { locale } : {}) });
      clean(`catalog ${format} ${locale ?? ""}`, c.text);
      clean(`catalog ${format} instructions`, c.instructions);
      assert.ok(c.text.includes("\uFFFD"), `${format}: the hidden characters are shown as U+FFFD`);
      assert.ok(c.text.includes(EMOJI), `${format}: an emoji's selector stays: ${c.text}`);
    }
  }
  for (const embedCatalog of [false, true]) {
    const tool = new SkillTool(registry, { embedCatalog });
    const def = tool.definition();
    clean(`definition (embedCatalog ${embedCatalog})`, def);
    assert.deepEqual(def.inputSchema.properties.name.enum, ["hostile", "pdf"]);
    for (const [label, shape] of [
      ["AI SDK", aiSdkTool(tool)], ["OpenAI", openAiTool(tool)], ["OpenAI responses", openAiTool(tool, { api: "responses" })],
      ["Anthropic", anthropicTool(tool)], ["OpenAI Agents", openAiAgentsTool(tool)], ["Mastra", mastraTool(tool)],
    ]) clean(label, shape);
  }
  const tool = new SkillTool(registry);
  const activation = await tool.execute({ name: "hostile" });
  assert.equal(activation.isError, false);
  clean("activation", activation.content);
  clean("activation, UI line", activation.client);
  assert.ok(activation.content.includes(EMOJI));
  const listed = activation.content.split("\n").find((l) => l.startsWith("notes/a"));
  assert.ok(listed, activation.content);
  const file = await tool.execute({ name: "hostile", path: "notes/b.md" });
  clean("file read", file.content);
  const again = await tool.execute({ name: "hostile" });
  clean("already loaded", again.content);
  const unknown = await tool.execute({ name: `pdf${HOSTILE}` });
  clean("unknown name", unknown.content);
  const missing = await tool.execute({ name: "hostile", path: `x${HOSTILE}.md` });
  clean("missing file", missing.content);

  const fresh = new SkillTool(registry);
  const invoked = await fresh.invoke(`/hostile ${HOSTILE}`);
  // What the library writes for the model; `arguments` and `remaining` are the user's own words.
  assert.equal(invoked.injected.length, 1);
  clean("/name", invoked.injected.map((i) => i.content));
  assert.ok(invoked.injected[0].content.includes("\uFFFD"));
  const repeated = await fresh.invoke("/hostile again");
  clean("repeated /name", repeated.injected.map((i) => i.content));
  clean("subagent prompt", await fresh.subagentPrompt("hostile", `do ${HOSTILE}`));

  const shaped = new SkillTool(registry);
  clean("AI SDK answer", await aiSdkTool(shaped).execute({ name: "hostile" }));
  clean("OpenAI answer", await openAiToolMessage(shaped, { id: "c1", function: { name: "view_skill", arguments: JSON.stringify({ name: "hostile", force: true }) } }));
  clean("OpenAI responses answer", await openAiResponsesOutput(shaped, { type: "function_call", call_id: "c2", name: "view_skill", arguments: JSON.stringify({ name: "hostile", force: true }) }));
  clean("Anthropic answer", await anthropicToolResult(shaped, { type: "tool_use", id: "c3", name: "view_skill", input: { name: "hostile", force: true } }));
});

test("search results and the nearest names neutralise them too", async () => {
  const registry = await registryOf({ search: "always" });
  const tool = new SkillTool(registry);
  clean("search definition", tool.definition());
  const found = await tool.execute({ query: `forms ${HOSTILE}` });
  assert.match(found.content, /hostile/);
  clean("search results", found.content);
  const nearest = await tool.execute({ name: `hostil${HOSTILE}` });
  clean("nearest names", nearest.content);
});

test("the MCP server's instructions and tool", async () => {
  const registry = await registryOf();
  const client = await connectInProcess(skillsMcpServer(registry, { tool: true }));
  clean("MCP instructions", client.getInstructions());
  const { tools } = await client.listTools();
  clean("MCP tool", tools);
  const called = await client.callTool({ name: tools[0].name, arguments: { name: "hostile" } });
  clean("MCP tool answer", called.content);
  await client.close();
});
