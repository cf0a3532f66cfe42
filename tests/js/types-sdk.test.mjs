// The package's declarations against the official SDKs' own types: each framework shape is
// assignable to what that SDK takes (AI SDK 6 and 7, openai Chat Completions and Responses,
// @anthropic-ai/sdk), the transcript functions give back the message type they were given, and
// results narrow. The code blocks of the README and docs/ compile as they are written (their
// placeholders declared with the SDKs' types). `tsc --noEmit --strict`, with no extra lib.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, PKG, assertBuilt } from "./helpers.mjs";
import { mastra } from "./support/mastra.mjs";
import { marked } from "./support/docs.mjs";

const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
// No `lib` beyond the target's, and Node's types: what a Node project has.
const ARGS = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node"];
const DEPS = ["ai6", "openai", "@anthropic-ai/sdk", "@types/node", "@langchain/core", "@openai/agents", "@modelcontextprotocol/sdk", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "@modelcontextprotocol/core"];

/**
 * Type-checks `files` (name -> source) in a project that depends on the package and the SDKs;
 * `ai` is the AI SDK it has as `ai` (ai 7, or ai6 for ai 6), `mastra` a directory whose
 * node_modules hold @mastra/core.
 */
function typecheck(files, { ai = "ai", mastra } = {}) {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-sdk-types-"));
  try {
    for (const scope of ["@anthropic-ai", "@types", "@langchain", "@openai", "@modelcontextprotocol"]) mkdirSync(path.join(dir, "node_modules", scope), { recursive: true });
    symlinkSync(PKG, path.join(dir, "node_modules", "skillwasm"), "dir");
    symlinkSync(path.join(ROOT, "node_modules", ai), path.join(dir, "node_modules", "ai"), "dir");
    for (const dep of DEPS) symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep), "dir");
    if (mastra) symlinkSync(path.join(mastra, "node_modules", "@mastra"), path.join(dir, "node_modules", "@mastra"), "dir");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
    const r = spawnSync(process.execPath, [TSC, ...ARGS, ...Object.keys(files)], { cwd: dir, encoding: "utf8", timeout: 300_000 });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TYPED_USES = `
import { SkillRegistry, SkillTool, memoryStorage, renderCatalog, aiSdkTool, aiSdkTools, openAiTool, openAiToolMessage,
  openAiResponsesOutput, anthropicTool, anthropicToolResult, compactSkillContent, dedupeSkillContent, pruneTranscript,
  findSkillContent, reattachSkills, isToolAllowed, substituteArguments, aiSdkUserMessage, openAiUserMessage, anthropicUserMessage,
  langChainUserContent, openAiAgentsTool, type Diagnostic } from "skillwasm";
import { HumanMessage } from "@langchain/core/messages";
import { tool as agentsTool, type AgentInputItem } from "@openai/agents";
import { jsonSchema, type ToolSet, type ModelMessage } from "ai";
import { jsonSchema as jsonSchema6, type ToolSet as ToolSet6, type ModelMessage as ModelMessage6 } from "ai6";
import type { ChatCompletionTool, ChatCompletionFunctionTool, ChatCompletionMessageFunctionToolCall, ChatCompletionToolMessageParam,
  ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem, Tool as ResponsesTool } from "openai/resources/responses/responses";
import type Anthropic from "@anthropic-ai/sdk";
import { watch } from "skillwasm/watch";

const registry = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": "---\\nname: a\\ndescription: b\\n---\\n" }) });
const tool = new SkillTool(registry);
const catalog = renderCatalog(registry);

// AI SDK 7 and 6
const one = aiSdkTool(tool, { jsonSchema });
if (one !== null) { const set: ToolSet = { view_skill: one }; console.log(set); }
const set7: ToolSet = aiSdkTools(tool, { jsonSchema });
const set6: ToolSet6 = aiSdkTools(tool, { jsonSchema: jsonSchema6 });
const plain = aiSdkTool(tool);
const schemaType: "object" | undefined = plain?.inputSchema.type;

// OpenAI Chat Completions
const chat = openAiTool(tool);
if (chat !== null) { const a: ChatCompletionTool = chat; const b: ChatCompletionFunctionTool = chat; console.log(a, b); }
const strictChat = openAiTool(tool, { strict: true });
const chatTools: ChatCompletionTool[] = strictChat ? [strictChat] : [];
declare const call: ChatCompletionMessageFunctionToolCall;
const reply: ChatCompletionToolMessageParam = await openAiToolMessage(tool, call);
const history: ChatCompletionMessageParam[] = [reply];

// OpenAI Responses
const flat = openAiTool(tool, { api: "responses", strict: true });
if (flat !== null) { const a: FunctionTool = flat; const b: ResponsesTool = flat; console.log(a, b); }
declare const fnCall: ResponseFunctionToolCall;
const output: ResponseInputItem = await openAiResponsesOutput(tool, fnCall);
const next: ResponseInputItem[] = [fnCall, output];

// Anthropic
const anth = anthropicTool(tool);
if (anth !== null) { const a: Anthropic.Tool = anth; const b: Anthropic.ToolUnion = anth; console.log(a, b); }
declare const use: Anthropic.ToolUseBlock;
const result: Anthropic.ToolResultBlockParam = await anthropicToolResult(tool, use);

// Transcripts keep their message type; results narrow.
declare const messages: ModelMessage[];
const compacted = compactSkillContent(messages);
if (compacted.error === undefined) { const back: ModelMessage[] = compacted.transcript; console.log(back, compacted.report); }
else { const d: Diagnostic = compacted.error; console.log(d.code); }
declare const messages6: ModelMessage6[];
const deduped = tool.dedupeSkillContent(messages6);
if (!deduped.error) { const back: ModelMessage6[] = deduped.transcript; console.log(back); }
const pruned = pruneTranscript(history, 1000, { format: "openai" });
if (!pruned.error) { const back: ChatCompletionMessageParam[] = pruned.transcript; console.log(back); }
const viaTool = tool.pruneTranscript(history, 1000);
if (!viaTool.error) { const back: ChatCompletionMessageParam[] = viaTool.transcript; console.log(back); }
const again = await tool.reattach(messages);
if (!again.error) { const back: ModelMessage[] = again.transcript; console.log(back); }
const reattached = reattachSkills(messages, [{ name: "a", content: "x" }]);
const found = findSkillContent(messages);
if (found.error) { const d: Diagnostic = found.error; console.log(d); } else { console.log(found.uses.length, found.notes); }
const outcome = await tool.execute({ name: "a" });
if (outcome.isError) { const d: Diagnostic = outcome.error; console.log(d.message); }
const file = await registry.readFile("a");
const watcher = watch(registry, { roots: ["."], onChange: (r) => console.log(r.added.map((s) => s.name)), debounceMs: 50 });
watcher.close();
// A user's /skill message as each API's user message; the results name the skill \`name\`.
const invoked = await tool.invoke("/a x");
const m7: ModelMessage = aiSdkUserMessage(invoked);
const m6: ModelMessage6 = aiSdkUserMessage(invoked);
const chatUser: ChatCompletionMessageParam = openAiUserMessage(invoked);
const responsesUser: ResponseInputItem = openAiUserMessage(invoked, { api: "responses" });
const agentsUser: AgentInputItem = openAiUserMessage(invoked, { api: "responses" });
const anthropicUser: Anthropic.MessageParam = anthropicUserMessage(invoked);
const human = new HumanMessage({ content: langChainUserContent(invoked) });
const named: string = outcome.name + outcome.client.name + (plain ? (await plain.execute({ name: "a" })).name : "");
// The OpenAI Agents SDK's tool() takes the shape as it is.
const agentsShape = openAiAgentsTool(tool);
if (agentsShape !== null) { const t = agentsTool(agentsShape); console.log(t.name); }
console.log(m7, m6, chatUser, responsesUser, agentsUser, anthropicUser, human, named);
console.log(dedupeSkillContent(messages), isToolAllowed(registry, ["a"], "Bash"), substituteArguments("$0", "x"), reattached,
  set7, set6, schemaType, chatTools, next, result, catalog.text);
`;

/**
 * What each code block of the README and docs/ needs declared to compile (tests/js/support/docs.mjs
 * finds the blocks): the placeholders its runnable test supplies, or the values a fragment takes
 * from the text around it, declared with the package's and the SDKs' types. `after` is code that
 * must compile after the block (the storage contract's interface is the package's).
 */
const DECLARED = {
  // Runnable snippets (tests/js/readme.test.mjs).
  "agent-loop": `import type { LanguageModel } from "ai";\ndeclare const yourModel: LanguageModel;\n`,
  "node-ai-sdk": `import type { LanguageModel } from "ai";\ndeclare const yourModel: LanguageModel;\n`,
  openai: `import type { ChatCompletionMessage } from "openai/resources/chat/completions";\ndeclare const sampleOpenAiMessage: ChatCompletionMessage & { tool_calls: NonNullable<ChatCompletionMessage["tool_calls"]> };\n`,
  "openai-responses": `import type { Response } from "openai/resources/responses/responses";\ndeclare const sampleResponse: Response;\n`,
  anthropic: `import type Anthropic from "@anthropic-ai/sdk";\ndeclare const sampleAnthropicContent: Anthropic.ContentBlock[];\n`,
  // Blocks that are type-checked (<!-- check: NAME -->).
  "install-import": "",
  parse: `declare const bytes: Uint8Array;\ndeclare const files: { bytes: Uint8Array; dir: string }[];\n`,
  commands: `import { SkillRegistry, nodeFsStorage } from "skillwasm";\ndeclare function runInSandbox(command: string, options: { cwd: string }): Promise<string>;\n`,
  "subagent-plan": `import type { SkillTool } from "skillwasm";\ndeclare const tool: SkillTool;\ndeclare const call: { input: { name: string } };\ndeclare const userTask: string;\n`,
  "instance-reset": "",
  registry: "",
  watch: `import { SkillRegistry, nodeFsStorage } from "skillwasm";\n`,
  "storage-contract": `import type { ListSkip, PackedSkillPrefixPage, SkillPrefixPage, SkillStorage as PackageStorage } from "skillwasm";\n`,
  "size-cap": `import { nodeFsStorage } from "skillwasm";\n`,
  "lazy-scopes": `import { SkillRegistry, nodeFsStorage, wellKnownStorage } from "skillwasm";\n`,
  "catalog-tool": `import type { SkillRegistry as Registry } from "skillwasm";\ndeclare const registry: Registry;\ndeclare const call: { function: { name: string; arguments: string } };\n`,
  search: `import type { SkillRegistry, SkillTool } from "skillwasm";\ndeclare const registry: SkillRegistry;\ndeclare const tool: SkillTool;\n`,
  permissions: `import { isToolAllowed, type SkillRegistry } from "skillwasm";\ndeclare const registry: SkillRegistry;\n`,
  compaction: `import type { SkillTool } from "skillwasm";\nimport type { ModelMessage } from "ai";\ndeclare const messages: ModelMessage[];\ndeclare const compactedMessages: ModelMessage[];\ndeclare const tool: SkillTool;\n`,
  "well-known": "",
  "well-known-origins": `declare const token: string;\n`,
  "mcp-serve": "",
  "mcp-consume": `import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";\ndeclare const transport: Transport;\n`,
  "mcp-serve-eras": "",
  "mcp-client-eras": "",
  "openai-agents": "",
  "consent-approve": `import { SkillRegistry, wellKnownStorage } from "skillwasm";\ndeclare function askTheUser(question: string, context: unknown): Promise<boolean>;\n`,
  "consent-approvals": `import { SkillRegistry } from "skillwasm";\ndeclare const registry: SkillRegistry;\ndeclare const options: { scopes: [] };\ndeclare const bytes: Uint8Array;\n`,
  "pinning-lock": `import { SkillRegistry } from "skillwasm";\nimport { readFile } from "node:fs/promises";\ndeclare const options: { scopes: [] };\n`,
  "consent-snapshot": `import { SkillRegistry } from "skillwasm";\ndeclare const registry: SkillRegistry;\ndeclare const options: { scopes: [] };\n`,
  "mcp-bounds-reconnect": "",
  "store-layout": `import { SkillRegistry, wellKnownStorage } from "skillwasm";\n`,
};
const AFTER = {
  // The contract as the docs write it is the package's SkillStorage, both ways.
  "storage-contract": `declare const documented: SkillStorage;\nconst asPackage: PackageStorage = documented;\ndeclare const shipped: PackageStorage;\nconst asDocumented: SkillStorage = shipped;\nconsole.log(asPackage, asDocumented);\n`,
};
// Blocks compiled elsewhere or run instead: the Worker and the page run in workerd and Chromium
// (docs-runtimes.test.mjs), the esbuild recipe (which imports .wasm files) in
// bundlers-chromium.test.mjs, and Mastra's block in the Mastra test below (it needs @mastra/core).
const ELSEWHERE = new Set(["worker", "browser", "esbuild", "mastra"]);

/** The snippets and checked blocks of the README and docs/ as TypeScript files, placeholders first. */
function docFiles() {
  const files = {};
  for (const [name, block] of Object.entries({ ...marked("snippet"), ...marked("check") })) {
    if (ELSEWHERE.has(name)) continue;
    assert.ok(DECLARED[name] !== undefined, `${block.file}:${block.line}: block ${name} has no declared placeholders here`);
    // The block's imports are hoisted anyway: the placeholders first, then the block.
    files[`doc-${name}.ts`] = `${DECLARED[name]}${block.code}${AFTER[name] ?? ""}\nexport {};\n`;
  }
  return files;
}

test("framework shapes fit the SDKs' own types; transcripts keep their message type; results narrow", () => {
  const r = typecheck({ "uses.ts": TYPED_USES });
  assert.equal(r.status, 0, r.out);
});

for (const ai of ["ai", "ai6"]) {
  test(`the code blocks of the README and docs/ compile against the SDKs' types (${ai === "ai" ? "ai 7" : "ai 6"})`, () => {
    const files = docFiles();
    assert.ok(Object.keys(files).length >= 25);
    const r = typecheck(files, { ai });
    assert.equal(r.status, 0, r.out);
  });
}

const MASTRA = mastra();
test("mastraTool fits Mastra's createTool, and the docs' Mastra agent compiles", { skip: MASTRA.skip ?? false }, () => {
  const got = MASTRA;
  const r = typecheck({
    "mastra.ts": `import { SkillRegistry, SkillTool, memoryStorage, mastraTool } from "skillwasm";
import { createTool } from "@mastra/core/tools";
const tool = new SkillTool(await SkillRegistry.discover({ user: memoryStorage() }));
const shape = mastraTool(tool);
if (shape !== null) { const t = createTool(shape); console.log(t.id); }
`,
    // docs/guides/frameworks.md's Mastra block, its model declared as the Agent takes it.
    "doc-mastra.ts": `import type { Agent as MastraAgent } from "@mastra/core/agent";\ndeclare const yourModel: ConstructorParameters<typeof MastraAgent>[0]["model"];\n${marked("check").mastra.code}\nexport {};\n`,
  }, { mastra: got.dir });
  assert.equal(r.status, 0, r.out);
});

test("a misuse of a shape is refused by the SDK's type", () => {
  const r = typecheck({
    "wrong.ts": `import { SkillRegistry, SkillTool, memoryStorage, openAiTool, compactSkillContent } from "skillwasm";
import type { FunctionTool } from "openai/resources/responses/responses";
import type { ModelMessage } from "ai";
const tool = new SkillTool(await SkillRegistry.discover({ user: memoryStorage() }));
const chatShape = openAiTool(tool);
if (chatShape) { const t: FunctionTool = chatShape; console.log(t); }
declare const messages: ModelMessage[];
const c = compactSkillContent(messages);
if (!c.error) { const n: number[] = c.transcript; console.log(n); }
`,
  });
  assert.notEqual(r.status, 0);
  assert.match(r.out, /FunctionTool/);
  assert.match(r.out, /not assignable to type 'number\[\]'/);
});
