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

const heading = (t) => console.log(`\n=== ${t} ===`);
const registry = await SkillRegistry.discover({
  scopes: [
    { name: "project", storage: nodeFsStorage(here), roots: ["skills/"], trusted: true },
    { name: "user", storage: nodeFsStorage(here), roots: ["extended/", "broken/"] },
  ],
});

heading(`discovered ${registry.names().length} skills`);
for (const m of registry.listMetasAcross()) {
  console.log(`${m.name.padEnd(20)} ${m.scope.padEnd(8)} ${m.diagnostics.map((d) => `${d.severity}:${d.code}`).join(" ")}`);
}

heading("the catalog the model sees (xml, no locations)");
const catalog = renderCatalog(registry, { includeLocation: false });
console.log(catalog.instructions);
console.log(catalog.text);
console.log(`(${catalog.skills.length} skills, about ${catalog.tokens} tokens)`);

heading("the model calls view_skill { name: \"csv-profiler\" }");
const tool = new SkillTool(registry, { scopePaths: { project: here, user: here } });
const activation = await tool.execute({ name: "csv-profiler" });
console.log(activation.content);
console.log("UI stream gets:", JSON.stringify(activation.client));

heading("the user types: /release-notes-zh 2.1.0");
const injection = await tool.invoke("/release-notes-zh 2.1.0");
for (const i of injection.injected) console.log(i.content.split("\n").slice(0, 8).join("\n"), "\n...");
console.log("remaining message:", JSON.stringify(injection.remaining));

heading("compaction");
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
