// Run by framework-mastra.test.mjs under Node 22, copied into the project where @mastra/core is
// installed (support/mastra.mjs): a Mastra Agent with the skill tool (createTool over mastraTool)
// and Mastra's own scripted model (MastraLanguageModelV2Mock), which calls the tool, then answers.
// Prints one JSON line of what happened. argv[2]: the package's node entry, as a file URL.
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { MastraLanguageModelV2Mock } from "@mastra/core/test-utils/llm-mock";

const { SkillRegistry, SkillTool, memoryStorage, mastraTool } = await import(process.argv[2]);
const call = JSON.parse(process.argv[3]);

const registry = await SkillRegistry.discover({
  user: memoryStorage({
    ".agents/skills/csv-profiler/SKILL.md": "---\nname: csv-profiler\ndescription: Profile a CSV file.\n---\n# CSV profiler\nCount the rows, then the nulls per column.\n",
    ".agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDFs.\n---\nUse pdftotext.\n",
  }),
});
const skills = new SkillTool(registry);

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const answers = [
  { content: [{ type: "tool-call", toolCallId: "call-1", toolName: "view_skill", input: JSON.stringify(call) }], finishReason: "tool-calls", usage, warnings: [] },
  { content: [{ type: "text", text: "Profiled." }], finishReason: "stop", usage, warnings: [] },
];
// The scripted answers in order (a function: the mock's array form starts at the second one).
const prompts = [];
const model = new MastraLanguageModelV2Mock({
  doGenerate: async (options) => {
    prompts.push(options);
    return answers.shift() ?? { content: [{ type: "text", text: "(no scripted answer left)" }], finishReason: "stop", usage, warnings: [] };
  },
});

const agent = new Agent({
  id: "analyst",
  name: "analyst",
  instructions: "Use skills.",
  model,
  tools: { view_skill: createTool(mastraTool(skills)) },
});
const result = await agent.generate("Profile data.csv", { maxSteps: 3 });

// What the model was given on its second call: the tool results in its prompt.
const second = prompts[1]?.prompt ?? [];
const toolResults = second.filter((m) => m.role === "tool").flatMap((m) => m.content).filter((p) => p.type === "tool-result");
const offered = prompts[0]?.tools ?? [];
console.log(JSON.stringify({
  text: result.text,
  calls: prompts.length,
  offered: offered.map((t) => ({ name: t.name, enum: t.inputSchema?.properties?.name?.enum })),
  toolResults: toolResults.map((p) => ({ toolName: p.toolName, output: p.output })),
  activations: skills.session.activations().map((a) => a.name),
}));
