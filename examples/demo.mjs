#!/usr/bin/env node
// The main job end to end on the bundled example skills: discover them, show the catalog the model
// sees, answer a skill-tool call and a user's /skill message, then compact a transcript and put the
// skill back. Run after `make build`: node examples/demo.mjs
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { SkillRegistry, SkillTool, nodeFsStorage, renderCatalog, compactSkillContent } = await import(
  pathToFileURL(join(here, "..", "pkg", "node.js")).href
);

// Each step: a numbered heading, a line on what happens, then what the host or the model sees.
const STEPS = 5;
let step = 0;
const heading = (title, what) => {
  console.log(`\n=== ${++step}/${STEPS} ${title} ===`);
  console.log(`    ${what}`);
};
// Long model-visible text, shortened for the terminal: its first lines, a count, its last lines.
const excerpt = (text, head = 6, tail = 4) => {
  const lines = text.split("\n");
  if (lines.length <= head + tail + 1) return text;
  return [...lines.slice(0, head), `    [... ${lines.length - head - tail} more lines ...]`, ...(tail > 0 ? lines.slice(-tail) : [])].join("\n");
};

const registry = await SkillRegistry.discover({
  scopes: [
    { name: "project", storage: nodeFsStorage(here), roots: ["skills/"], trusted: true },
    { name: "user", storage: nodeFsStorage(here), roots: ["extended/", "broken/"] },
  ],
});

heading(`discovery: ${registry.names().length} skills`, "SKILL.md files found under examples/ (a broken one repaired, with what was repaired):");
for (const m of registry.listMetasAcross()) {
  console.log(`${m.name.padEnd(20)} ${m.scope.padEnd(8)} ${m.diagnostics.map((d) => `${d.severity}:${d.code}`).join(" ")}`);
}

heading("catalog", "What the model sees up front: the instructions, then one line per skill (xml, no locations).");
const catalog = renderCatalog(registry, { includeLocation: false });
console.log(catalog.instructions);
console.log(catalog.text);
console.log(`(${catalog.skills.length} skills, about ${catalog.tokens} tokens)`);

heading("agent turn: the model calls view_skill { name: \"csv-profiler\" }", "The tool answers with the skill's instructions and the files it may read next:");
const tool = new SkillTool(registry, { scopePaths: { project: here, user: here } });
const activation = await tool.execute({ name: "csv-profiler" });
console.log(excerpt(activation.content));
console.log("UI stream gets:", JSON.stringify(activation.client));

heading("/skill: the user types /release-notes-zh 2.1.0", "The host injects the skill's content (arguments substituted) and sends the rest on:");
const injection = await tool.invoke("/release-notes-zh 2.1.0");
for (const i of injection.injected) console.log(excerpt(i.content, 4, 5));
console.log("remaining message:", JSON.stringify(injection.remaining));

heading("compaction", "The context fills: skill content is shrunk to pointers, then the skills in use are put back.");
const transcript = [
  { role: "user", content: [{ type: "text", text: "Profile data.csv" }] },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "view_skill", input: { name: "csv-profiler" } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "view_skill", output: { type: "text", value: activation.content } }] },
  { role: "assistant", content: [{ type: "text", text: "Here is the profile." }] },
];
const compacted = compactSkillContent(transcript);
console.log(`compacted: ${compacted.report.tokensBefore} -> ${compacted.report.tokensAfter} tokens`);
const back = await tool.reattach(compacted.transcript);
console.log(`re-attached: ${back.report.tokensAfter} tokens; ${back.report.changes.map((c) => `${c.action} ${c.skill}`).join(", ")}`);
