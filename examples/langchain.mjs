#!/usr/bin/env node
// The skill tool in LangChain.js: the catalog in the system message, the tool as a LangChain
// `tool()` over the JSON schema skillwasm gives, and the model's tool calls answered with
// ToolMessages. The model here is LangChain's offline FakeStreamingChatModel, scripted to call the
// tool; put your chat model (ChatOpenAI, ChatAnthropic ...) in its place.
// Run after `make build`: node examples/langchain.mjs
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tool } from "@langchain/core/tools";
import { AIMessageChunk, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";

const here = dirname(fileURLToPath(import.meta.url));
const { SkillRegistry, SkillTool, nodeFsStorage, renderCatalog } = await import(
  pathToFileURL(join(here, "..", "pkg", "node.js")).href
);

const registry = await SkillRegistry.discover({
  scopes: [{ name: "project", storage: nodeFsStorage(here), roots: ["skills/"], trusted: true }],
});
const catalog = renderCatalog(registry, { includeLocation: false });
const skills = new SkillTool(registry);
const definition = skills.definition(); // null when no skill is visible: offer no tool then

// The skill tool as LangChain sees it: a name, a description and a JSON schema. The model gets
// the tool's whole answer (the skill's instructions, or an error that lists what exists).
const viewSkill = tool(async (input) => (await skills.execute(input)).content, {
  name: definition.name,
  description: definition.description,
  schema: definition.inputSchema,
});

// Offline: a model that asks for the csv-profiler skill. With a real model, bindTools is the same.
const model = new FakeStreamingChatModel({
  chunks: [new AIMessageChunk({ content: "", tool_calls: [{ type: "tool_call", id: "call_1", name: definition.name, args: { name: "csv-profiler" } }] })],
}).bindTools([viewSkill]);

const messages = [
  new SystemMessage([catalog.instructions, catalog.text].filter(Boolean).join("\n\n")),
  new HumanMessage("Profile data.csv for me."),
];
const reply = await model.invoke(messages);
messages.push(reply);
for (const call of reply.tool_calls ?? []) {
  // Invoked with the whole tool call, a LangChain tool answers with a ToolMessage for that call.
  messages.push(await viewSkill.invoke(call));
}
// Send `messages` back to the model for its next step; here, show what it would read.
const answer = messages.at(-1);
console.log(`tool call: ${reply.tool_calls[0].name} ${JSON.stringify(reply.tool_calls[0].args)}`);
console.log(`tool message for ${answer.tool_call_id}:`);
console.log(answer.content.split("\n").slice(0, 4).join("\n"));
console.log(`activated: ${skills.session.activations().map((a) => a.name).join(", ")}`);
