// The OpenAI Agents SDK for JS (@openai/agents): the skill tool given to an Agent through the
// SDK's own `tool()` (openAiAgentsTool), run by the SDK's Runner with its own Responses API model
// (OpenAIResponsesModel) over the official `openai` client, pointed at a Responses API stand-in on
// 127.0.0.1 that answers first with a function call of the skill tool, then with text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Agent, Runner, tool, OpenAIResponsesModel, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { importPkg } from "./helpers.mjs";

setTracingDisabled(true);
const { SkillRegistry, SkillTool, memoryStorage, openAiAgentsTool } = await importPkg();

const registry = await SkillRegistry.discover({
  user: memoryStorage({
    ".agents/skills/csv-profiler/SKILL.md": "---\nname: csv-profiler\ndescription: Profile a CSV file.\n---\n# CSV profiler\nCount the rows, then the nulls per column.\n",
    ".agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDFs.\n---\nUse pdftotext.\n",
  }),
});

const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
const response = (id, output) => ({ id, object: "response", created_at: 1, model: "stand-in", status: "completed", output, usage, parallel_tool_calls: true, tool_choice: "auto", tools: [] });

/** A Responses API stand-in: each POST /v1/responses gets the next scripted answer; bodies kept. */
let server;
let base;
const bodies = [];
let script = [];
before(async () => {
  server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      bodies.push(JSON.parse(data));
      const next = script.shift();
      res.writeHead(next ? 200 : 500, { "content-type": "application/json" });
      res.end(JSON.stringify(next ?? { error: { message: "no scripted answer left" } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}/v1`;
});
after(() => server.close());

function model() {
  const client = new OpenAI({ apiKey: "test-key", baseURL: base, maxRetries: 0 });
  return new OpenAIResponsesModel(client, "stand-in");
}

test("an Agent's model calls the skill tool and gets the skill's instructions back", async () => {
  const skills = new SkillTool(registry);
  const shape = openAiAgentsTool(skills);
  assert.ok(shape);
  const viewSkill = tool(shape);
  script = [
    response("resp_1", [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "view_skill", arguments: JSON.stringify({ name: "csv-profiler", path: null, force: null }), status: "completed" }]),
    response("resp_2", [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Profiled.", annotations: [] }] }]),
  ];
  bodies.length = 0;
  const agent = new Agent({ name: "analyst", instructions: "Use skills.", model: model(), tools: [viewSkill] });
  const result = await new Runner({ tracingDisabled: true }).run(agent, "Profile data.csv");
  assert.equal(result.finalOutput, "Profiled.");
  assert.equal(bodies.length, 2);

  // The tool as the SDK sent it: strict, with the schema strict mode accepts.
  const [offered] = bodies[0].tools;
  assert.equal(offered.type, "function");
  assert.equal(offered.name, "view_skill");
  assert.equal(offered.strict, true);
  assert.deepEqual(offered.parameters.properties.name.enum, ["csv-profiler", "pdf"]);
  assert.deepEqual(offered.parameters.required, ["name", "path", "force"]);

  // The second request carries the tool's answer: the skill, in <skill_content>.
  const out = bodies[1].input.find((i) => i.type === "function_call_output");
  assert.equal(out.call_id, "call_1");
  const text = typeof out.output === "string" ? out.output : out.output.map((p) => p.text).join("");
  assert.match(text, /^<skill_content name="csv-profiler">\n# CSV profiler\nCount the rows/);
  assert.deepEqual(skills.session.activations().map((a) => a.name), ["csv-profiler"]);
});

test("a call the tool cannot serve is answered with the tool's error text", async () => {
  const skills = new SkillTool(registry);
  const viewSkill = tool(openAiAgentsTool(skills));
  script = [
    response("resp_3", [{ type: "function_call", id: "fc_2", call_id: "call_2", name: "view_skill", arguments: JSON.stringify({ name: "pdf", path: "../../etc/passwd", force: null }), status: "completed" }]),
    response("resp_4", [{ type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Could not.", annotations: [] }] }]),
  ];
  bodies.length = 0;
  const agent = new Agent({ name: "analyst", instructions: "Use skills.", model: model(), tools: [viewSkill] });
  const result = await new Runner({ tracingDisabled: true }).run(agent, "Read it");
  assert.equal(result.finalOutput, "Could not.");
  const out = bodies[1].input.find((i) => i.type === "function_call_output");
  const text = typeof out.output === "string" ? out.output : out.output.map((p) => p.text).join("");
  assert.match(text, /leaves the skill directory/);
  assert.deepEqual(skills.session.activations(), []);
});

test("openAiAgentsTool: null with no visible skill; a TypeError for what is no SkillTool", async () => {
  const empty = new SkillTool(await SkillRegistry.discover({ user: memoryStorage() }));
  assert.equal(openAiAgentsTool(empty), null);
  assert.throws(() => openAiAgentsTool(null), { name: "TypeError", message: /openAiAgentsTool: tool must be a SkillTool/ });
});
