// The skill tool end to end through each framework shape, over corpus skills in a memoryStorage:
// the Vercel AI SDK (generateText with a mock model that calls the tool, then answers), OpenAI Chat
// Completions tool calls, and Anthropic Messages tool_use blocks.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { generateText, streamText, jsonSchema, isStepCount, toUIMessageStream, readUIMessageStream, convertToModelMessages } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { importPkg } from "./helpers.mjs";
import { CORPUS_SKILLS } from "./support/corpus.mjs";
import { count } from "./support/skill-tool.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, memoryStorage, aiSdkTool, aiSdkTools, openAiTool, openAiToolMessage, openAiResponsesOutput, anthropicTool, anthropicToolResult } = pkg;

// A handful of corpus skills, with all their files.
const SKILL_DIRS = [
  "letta-ai__skills/tools/pdf",
  "letta-ai__skills/tools/1password",
  "getsentry__skills/skills/iterate-pr",
];
function corpusSkills() {
  const files = {};
  const walk = (dir, rel) => {
    for (const e of readdirSync(path.join(CORPUS_SKILLS, dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(dir, r);
      else if (e.isFile()) files[`.agents/skills/${path.basename(dir)}/${r}`] = new Uint8Array(readFileSync(path.join(CORPUS_SKILLS, dir, r)));
    }
  };
  for (const d of SKILL_DIRS) walk(d, "");
  return files;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const toolCallStep = (calls) => ({
  content: calls.map((c, i) => ({ type: "tool-call", toolCallId: `call-${i + 1}`, toolName: "view_skill", input: JSON.stringify(c) })),
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const textStep = (text) => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });

/** The text of every tool-result part in a prompt the model was called with. */
function toolResultsInPrompt(prompt) {
  return prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).filter((p) => p.type === "tool-result");
}

let registry;
let files;
before(async () => {
  files = corpusSkills();
  registry = await SkillRegistry.discover({ scopes: [{ name: "project", storage: memoryStorage(files), trusted: true }] });
  assert.deepEqual(registry.names(), ["1password", "iterate-pr", "pdf"]);
});

describe("Vercel AI SDK (ai 7)", () => {
  test("generateText: the model calls the tool, gets the full <skill_content>; the step result is reduced", async () => {
    const tool = new SkillTool(registry, {});
    const full = (await new SkillTool(registry, {}).execute({ name: "pdf" })).content;
    assert.ok(full.startsWith('<skill_content name="pdf">\n# PDF Skill'));
    const def = tool.definition();
    const sdkTool = aiSdkTool(tool, { jsonSchema });
    const model = new MockLanguageModelV4({ doGenerate: [toolCallStep([{ name: "pdf" }]), textStep("Rendered the PDF.")] });
    const result = await generateText({
      model,
      tools: { [def.name]: sdkTool },
      prompt: "Check my PDF's layout.",
      stopWhen: isStepCount(2),
    });
    assert.equal(result.text, "Rendered the PDF.");
    assert.equal(model.doGenerateCalls.length, 2);

    // The tool as the model saw it: name, description, and the enum of skills as JSON schema.
    const offered = model.doGenerateCalls[0].tools;
    assert.equal(offered.length, 1);
    assert.equal(offered[0].name, "view_skill");
    assert.equal(offered[0].description, def.description);
    assert.deepEqual(offered[0].inputSchema.properties.name.enum, ["1password", "iterate-pr", "pdf"]);

    // The tool ran once and recorded the activation.
    assert.deepEqual(tool.session.activations().map((a) => a.name), ["pdf"]);

    // The second call's prompt carries the full instructions (toModelOutput).
    const [part] = toolResultsInPrompt(model.doGenerateCalls[1].prompt);
    assert.equal(part.toolCallId, "call-1");
    assert.equal(part.toolName, "view_skill");
    assert.deepEqual(part.output, { type: "text", value: full });

    // What the step (and so the UI stream) carries is the reduced output.
    const stepResult = result.steps[0].toolResults[0];
    assert.deepEqual(JSON.parse(JSON.stringify(stepResult.output)), { name: "pdf", skillName: "pdf", path: null, content: "Skill activated.", isError: false });
    const parts = result.steps[0].content.filter((p) => p.type === "tool-result");
    assert.equal(parts.length, 1);
    assert.ok(!JSON.stringify(parts).includes("# PDF Skill"), "the instructions are not in the step's tool results");
    // The model's messages of the step do carry them (that is what goes back to the model).
    const toolMessage = result.steps[0].response.messages.find((m) => m.role === "tool");
    assert.deepEqual(toolMessage.content[0].output, { type: "text", value: full });
  });

  test("generateText: a path read gives the model the file and the UI stream a stub; errors reach the model as error text", async () => {
    const tool = new SkillTool(registry, {});
    const yaml = new TextDecoder().decode(files[".agents/skills/pdf/agents/openai.yaml"]);
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallStep([{ name: "pdf", path: "agents/openai.yaml" }, { name: "pdf", path: "../1password/SKILL.md" }, { name: "nope" }]),
        textStep("Done."),
      ],
    });
    const result = await generateText({
      model,
      tools: { view_skill: aiSdkTool(tool, { jsonSchema }) },
      prompt: "Read the agent config.",
      stopWhen: isStepCount(2),
    });
    assert.equal(result.text, "Done.");
    const parts = toolResultsInPrompt(model.doGenerateCalls[1].prompt);
    assert.deepEqual(parts.map((p) => p.toolCallId), ["call-1", "call-2", "call-3"]);
    assert.deepEqual(parts[0].output, { type: "text", value: yaml });
    assert.equal(parts[1].output.type, "error-text");
    assert.match(parts[1].output.value, /leaves the skill directory/);
    assert.equal(parts[2].output.type, "error-text");
    assert.equal(parts[2].output.value, "There is no skill named 'nope'. The skills are: 1password, iterate-pr, pdf.");
    const outputs = result.steps[0].toolResults.map((r) => JSON.parse(JSON.stringify(r.output)));
    const size = files[".agents/skills/pdf/agents/openai.yaml"].length;
    assert.deepEqual(outputs[0], { name: "pdf", skillName: "pdf", path: "agents/openai.yaml", content: "File read.", size, isError: false });
    assert.ok(!JSON.stringify(result.steps[0].toolResults).includes(yaml.slice(0, 40)), "the file is not in the step's tool results");
    assert.equal(outputs[1].isError, true);
    assert.deepEqual(tool.session.activations().map((a) => a.path), ["agents/openai.yaml"]);
  });

  test("inputs the schema does not describe reach the tool and are answered, not thrown", async () => {
    const tool = new SkillTool(registry, {});
    const model = new MockLanguageModelV4({ doGenerate: [toolCallStep([{ name: 7 }, { name: "iterate-pr", extra: 1 }]), textStep("ok")] });
    const result = await generateText({ model, tools: { view_skill: aiSdkTool(tool, { jsonSchema }) }, prompt: "x", stopWhen: isStepCount(2) });
    assert.equal(result.text, "ok");
    const [bad, extra] = toolResultsInPrompt(model.doGenerateCalls[1].prompt);
    assert.equal(bad.output.type, "error-text");
    assert.match(bad.output.value, /^The input must be \{ name, path\? \}.*The skills are: /);
    // Unknown keys are ignored: the call is an activation.
    assert.equal(extra.output.type, "text");
    assert.ok(extra.output.value.startsWith('<skill_content name="iterate-pr">'));
    assert.deepEqual(tool.session.activations().map((a) => a.name), ["iterate-pr"]);
  });

  const streamSteps = () => [
    { stream: convertArrayToReadableStream([
      { type: "stream-start", warnings: [] },
      { type: "tool-call", toolCallId: "call-1", toolName: "view_skill", input: '{"name":"pdf"}' },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ]) },
    { stream: convertArrayToReadableStream([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Done." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ]) },
  ];

  test("streamText: the UI message stream carries the reduced output, the model the full one", async () => {
    const tool = new SkillTool(registry, {});
    const tools = { view_skill: aiSdkTool(tool, { jsonSchema }) };
    const model = new MockLanguageModelV4({ doStream: streamSteps() });
    const result = streamText({ model, tools, prompt: "Check my PDF.", stopWhen: isStepCount(2) });
    const chunks = [];
    for await (const c of toUIMessageStream({ stream: result.stream, tools })) chunks.push(c);
    const outputs = chunks.filter((c) => c.type === "tool-output-available");
    assert.deepEqual(outputs, [{ type: "tool-output-available", toolCallId: "call-1", output: { name: "pdf", skillName: "pdf", path: null, content: "Skill activated.", isError: false } }]);
    assert.ok(!JSON.stringify(chunks).includes("# PDF Skill"));
    const [part] = toolResultsInPrompt(model.doStreamCalls[1].prompt);
    assert.equal(part.output.type, "text");
    assert.ok(part.output.value.startsWith('<skill_content name="pdf">\n# PDF Skill'));
  });

  // A chat app sends the UI messages back on the next turn; convertToModelMessages then calls
  // toModelOutput with the reduced output read back from JSON, where the full text is gone.
  test("the next turn, rebuilt from the UI messages, still gives the model the instructions", async () => {
    const tool = new SkillTool(registry, {});
    const tools = { view_skill: aiSdkTool(tool, { jsonSchema }) };
    const model = new MockLanguageModelV4({ doStream: streamSteps() });
    const result = streamText({ model, tools, prompt: "Check my PDF.", stopWhen: isStepCount(2) });
    let assistant;
    for await (const m of readUIMessageStream({ stream: toUIMessageStream({ stream: result.stream, tools }) })) assistant = m;
    const ui = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Check my PDF." }] }, JSON.parse(JSON.stringify(assistant))];
    const messages = await convertToModelMessages(ui, { tools });
    const [part] = messages.filter((m) => m.role === "tool").flatMap((m) => m.content);
    assert.ok(part.output.value.startsWith('<skill_content name="pdf">'), part.output.value);
  });

  test("the next turn, rebuilt from the UI messages, gives the model a file read's content again", async () => {
    const tool = new SkillTool(registry, {});
    const sdkTool = aiSdkTool(tool, { jsonSchema });
    const yaml = new TextDecoder().decode(files[".agents/skills/pdf/agents/openai.yaml"]);
    const output = JSON.parse(JSON.stringify(await sdkTool.execute({ name: "pdf", path: "agents/openai.yaml" })));
    assert.deepEqual(output, { name: "pdf", skillName: "pdf", path: "agents/openai.yaml", content: "File read.", size: files[".agents/skills/pdf/agents/openai.yaml"].length, isError: false });
    assert.deepEqual(await sdkTool.toModelOutput({ output }), { type: "text", value: yaml });
  });
});

describe("one name for the skill across results", () => {
  test("results, client outputs and injections name the skill `name`; skillName stays as its former key", async () => {
    const tool = new SkillTool(registry, {});
    const r = await tool.execute({ name: "pdf" });
    assert.equal(r.name, "pdf");
    assert.equal(r.client.name, "pdf");
    assert.equal(r.skillName, r.name);
    assert.equal(r.client.skillName, r.client.name);
    assert.equal((await aiSdkTool(tool).execute({ name: "1password" })).name, "1password");
    assert.deepEqual(tool.session.activations().map((a) => a.name), ["pdf", "1password"]);
  });

  test("toModelOutput reads again an output kept from before the rename (skillName only)", async () => {
    const tool = new SkillTool(registry, {});
    const out = await aiSdkTool(tool).toModelOutput({ output: { skillName: "pdf", path: null, content: "Skill activated.", isError: false } });
    assert.equal(out.type, "text");
    assert.ok(out.value.startsWith('<skill_content name="pdf">'), out.value);
    const renamed = await aiSdkTool(tool).toModelOutput({ output: { name: "iterate-pr", path: null, content: "Skill activated.", isError: false } });
    assert.ok(renamed.value.startsWith('<skill_content name="iterate-pr">'), renamed.value);
  });
});

describe("OpenAI Chat Completions", () => {
  test("openAiTool is a function tool; the Responses shape is flat", () => {
    const tool = new SkillTool(registry, {});
    const t = openAiTool(tool);
    assert.deepEqual(Object.keys(t).sort(), ["function", "type"]);
    assert.equal(t.type, "function");
    assert.deepEqual(Object.keys(t.function).sort(), ["description", "name", "parameters"]);
    assert.equal(t.function.name, "view_skill");
    assert.match(t.function.name, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.equal(t.function.parameters.type, "object");
    assert.deepEqual(t.function.parameters.required, ["name"]);
    assert.deepEqual(t.function.parameters.properties.name.enum, ["1password", "iterate-pr", "pdf"]);
    assert.equal(t.function.parameters.additionalProperties, false);
    JSON.parse(JSON.stringify(t)); // serialisable as a request body
    const r = openAiTool(tool, { api: "responses" });
    // The Responses API requires `strict`: false unless asked, with the schema as it is.
    assert.deepEqual(r, { type: "function", name: "view_skill", description: t.function.description, parameters: t.function.parameters, strict: false });
  });

  test("strict: every property required, the optional ones nullable; null reads as absent", async () => {
    const tool = new SkillTool(registry, {});
    const r = openAiTool(tool, { api: "responses", strict: true });
    assert.equal(r.strict, true);
    assert.deepEqual(r.parameters.required, ["name", "path", "force"]);
    assert.deepEqual(r.parameters.properties.path.type, ["string", "null"]);
    assert.deepEqual(r.parameters.properties.force.type, ["boolean", "null"]);
    assert.deepEqual(r.parameters.properties.name.type, "string");
    assert.equal(r.parameters.additionalProperties, false);
    const chat = openAiTool(tool, { strict: true });
    assert.equal(chat.function.strict, true);
    assert.deepEqual(chat.function.parameters, r.parameters);
    // What a strict model sends for "instructions, no force" is an activation.
    const out = await openAiResponsesOutput(tool, { type: "function_call", call_id: "c9", name: "view_skill", arguments: JSON.stringify({ name: "pdf", path: null, force: null }) });
    assert.equal(out.type, "function_call_output");
    assert.equal(out.call_id, "c9");
    assert.match(out.output, /^<skill_content name="pdf">/);
    assert.throws(() => openAiTool(tool, { strict: "yes" }), { name: "TypeError", message: /strict must be a boolean/ });
  });

  test("aiSdkTools: { [name]: tool }, or {} with no visible skill", async () => {
    const tool = new SkillTool(registry, {});
    const set = aiSdkTools(tool, {});
    assert.deepEqual(Object.keys(set), ["view_skill"]);
    assert.equal(typeof set.view_skill.execute, "function");
    const empty = new SkillTool(await SkillRegistry.discover({ user: memoryStorage({}) }), {});
    assert.deepEqual(aiSdkTools(empty, {}), {});
  });

  test("an assistant message's tool_calls answered one role: tool message each", async () => {
    const tool = new SkillTool(registry, {});
    const assistant = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_ok", type: "function", function: { name: "view_skill", arguments: '{"name":"1password"}' } },
        { id: "call_bad", type: "function", function: { name: "view_skill", arguments: '{"name": "pdf"' } },
        { id: "call_unknown", type: "function", function: { name: "view_skill", arguments: '{"name":"docx"}' } },
        { id: "call_file", type: "function", function: { name: "view_skill", arguments: '{"name":"pdf","path":"assets/pdf-small.svg"}' } },
      ],
    };
    const answers = await Promise.all(assistant.tool_calls.map((c) => openAiToolMessage(tool, c)));
    assert.deepEqual(answers.map((a) => [a.role, a.tool_call_id]), [["tool", "call_ok"], ["tool", "call_bad"], ["tool", "call_unknown"], ["tool", "call_file"]]);
    for (const a of answers) assert.deepEqual(Object.keys(a).sort(), ["content", "role", "tool_call_id"]);
    assert.ok(answers[0].content.startsWith('<skill_content name="1password">\n'));
    assert.equal(count(answers[0].content, "</skill_content>"), 1);
    assert.match(answers[1].content, /^The input must be \{ name, path\? \} \(the tool arguments are not JSON: /);
    assert.equal(answers[2].content, "There is no skill named 'docx'. The skills are: 1password, iterate-pr, pdf.");
    assert.equal(answers[3].content, new TextDecoder().decode(files[".agents/skills/pdf/assets/pdf-small.svg"]));
    // Parallel calls: recorded as each finishes.
    assert.deepEqual(tool.session.activations().map((a) => [a.name, a.path]).sort(), [["1password", null], ["pdf", "assets/pdf-small.svg"]]);
  });
});

describe("Anthropic Messages", () => {
  test("anthropicTool has input_schema", () => {
    const t = anthropicTool(new SkillTool(registry, { toolName: "activate_skill" }));
    assert.deepEqual(Object.keys(t).sort(), ["description", "input_schema", "name"]);
    assert.equal(t.name, "activate_skill");
    assert.equal(t.input_schema.type, "object");
    assert.deepEqual(t.input_schema.properties.name.enum, ["1password", "iterate-pr", "pdf"]);
  });

  test("tool_use blocks answered with tool_result blocks", async () => {
    const tool = new SkillTool(registry, {});
    const ok = await anthropicToolResult(tool, { type: "tool_use", id: "toolu_1", name: "view_skill", input: { name: "iterate-pr" } });
    assert.equal(ok.type, "tool_result");
    assert.equal(ok.tool_use_id, "toolu_1");
    assert.ok(!("is_error" in ok));
    assert.ok(ok.content.startsWith('<skill_content name="iterate-pr">\n'));

    const trav = await anthropicToolResult(tool, { type: "tool_use", id: "toolu_2", name: "view_skill", input: { name: "pdf", path: "../../../etc/passwd" } });
    assert.deepEqual(Object.keys(trav).sort(), ["content", "is_error", "tool_use_id", "type"]);
    assert.equal(trav.is_error, true);
    assert.equal(trav.tool_use_id, "toolu_2");
    assert.match(trav.content, /leaves the skill directory/);

    const unknown = await anthropicToolResult(tool, { type: "tool_use", id: "toolu_3", name: "view_skill", input: { name: "xlsx" } });
    assert.equal(unknown.is_error, true);
    assert.equal(unknown.content, "There is no skill named 'xlsx'. The skills are: 1password, iterate-pr, pdf.");

    const again = await anthropicToolResult(tool, { type: "tool_use", id: "toolu_4", name: "view_skill", input: { name: "iterate-pr" } });
    assert.ok(!("is_error" in again));
    assert.match(again.content, /status="already-loaded"/);
  });
});
