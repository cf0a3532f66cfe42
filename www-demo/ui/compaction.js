// The compaction preview: an AI SDK transcript built from real activations of the ticked skills,
// compacted (compactSkillContent) and re-attached (tool.reattach), with the tokens of each stage.
import * as sw from "/pkg/browser.js";
import { $, busy, details, fmt, h, plural, put } from "./dom.js";
import { TOOL_NAME, state } from "./state.js";
import { toolNames } from "./turn.js";

export function renderCompactionChoices() {
  const names = toolNames();
  const box = $("#compact-skills");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  const pick = checked.size ? checked : new Set(names.slice(0, 4));
  put(box, 
    ...(names.length
      ? names.map((n) => h("label", { class: "chip check" }, h("input", { type: "checkbox", value: n, checked: pick.has(n) }), n))
      : [h("span", { class: "muted", text: "Add skills first." })]),
  );
  $("#compact-run").disabled = names.length === 0;
}

async function runCompaction() {
  const chosen = [...document.querySelectorAll("#compact-skills input:checked")].map((i) => i.value);
  if (chosen.length === 0) throw new Error("tick at least one skill");
  // A tool with its own session: the preview does not touch the model-turn session.
  const tool = new sw.SkillTool(state.registry, { toolName: TOOL_NAME });
  const messages = [{ role: "system", content: "You are a helpful coding agent." }];
  let id = 0;
  for (const name of chosen) {
    messages.push({ role: "user", content: [{ type: "text", text: `Please help me with something ${name} is for.` }] });
    const r = await tool.execute({ name, force: true });
    const callId = `call_${id++}`;
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: callId, toolName: TOOL_NAME, input: { name } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: callId, toolName: TOOL_NAME, output: { type: "text", value: r.content } }] });
    const bash = `call_${id++}`;
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: bash, toolName: "bash", input: { command: "ls" } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: bash, toolName: "bash", output: { type: "text", value: "README.md\nsrc\n" } }] });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Done, following the ${name} skill.` }] });
  }
  const keepRecent = Math.max(0, Number($("#compact-keep").value) || 0);
  const perSkillTokens = Math.max(1, Number($("#compact-per-skill").value) || 5000);
  const opts = { format: "ai-sdk", toolName: TOOL_NAME, keepRecent };
  const found = sw.findSkillContent(messages, opts);
  const compacted = sw.compactSkillContent(messages, opts);
  if (compacted.error) throw new Error(compacted.error.message);
  const reattached = await tool.reattach(compacted.transcript, { ...opts, perSkillTokens, totalTokens: perSkillTokens * 5 });
  if (reattached.error) throw new Error(reattached.error.message);
  tool.free();

  const before = compacted.report.tokensBefore;
  const after = compacted.report.tokensAfter;
  const back = reattached.report.tokensAfter;
  const max = Math.max(before, after, back, 1);
  const bar = (label, tokens, cls, id) =>
    h(
      "div",
      { class: "bar-row" },
      h("span", { class: "bar-label", text: label }),
      h("span", { class: "bar-track" }, h("span", { class: `bar ${cls}`, style: `width:${Math.max(1, (100 * tokens) / max).toFixed(1)}%` })),
      h("span", { class: "bar-value", id, dataset: { tokens: String(tokens) }, text: `${fmt.format(tokens)} tokens` }),
    );
  const saved = before > 0 ? Math.round((100 * (before - after)) / before) : 0;
  const parts = [
    h("p", { class: "summary", text: `${messages.length} messages, ${plural(found.uses?.length ?? 0, "piece")} of skill content found. Compaction saves ${saved}% of the tokens; re-attachment brings back the catalog and ${plural(chosen.length - reattached.report.omitted.length, "skill")} in one message (a host re-attaches after dropping old turns, so it pays for what the session still needs, once).` }),
    h(
      "div",
      { class: "bars" },
      bar("transcript", before, "before", "tokens-before"),
      bar("compacted", after, "after", "tokens-after"),
      bar("+ re-attached", back, "back", "tokens-reattached"),
    ),
    h(
      "table",
      { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", { text: "message" }), h("th", { text: "skill" }), h("th", { text: "action" }), h("th", { text: "tokens" }))),
      h(
        "tbody",
        {},
        [...compacted.report.changes, ...reattached.report.changes].map((c) =>
          h("tr", {}, h("td", { text: String(c.index) }), h("td", { text: c.skill ?? "—" }), h("td", { text: c.action }), h("td", { text: `${fmt.format(c.tokensBefore)} → ${fmt.format(c.tokensAfter)}` })),
        ),
      ),
    ),
    reattached.report.omitted.length ? h("p", { class: "muted", text: `left out of re-attachment for the budget: ${reattached.report.omitted.join(", ")}` }) : null,
    details("A compacted tool result", JSON.stringify(compacted.transcript.find((m, i) => compacted.report.changes.some((c) => c.index === i)) ?? null, null, 2)),
    details("The re-attached message", JSON.stringify(reattached.transcript.at(-1), null, 2)),
    details("The whole transcript before", JSON.stringify(messages, null, 2)),
  ];
  put($("#compact-result"), ...parts.filter(Boolean));
}

/** The run button. */
export function wireCompaction() {
  const run = $("#compact-run");
  run.addEventListener("click", busy(run, runCompaction));
}
