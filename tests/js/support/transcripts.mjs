// Realistic transcripts in the three formats, built from what the skill tool really returns:
// activations, repeats, path reads, user /skill injections and other tools, interleaved.

/** One conversation as format-neutral steps. */
export async function conversation(tool, skills, rounds, { files = {} } = {}) {
  const steps = [{ kind: "system", text: "You are a helpful agent." }];
  let call = 0;
  for (let r = 0; r < rounds; r++) {
    const name = skills[r % skills.length];
    steps.push({ kind: "user", text: `Task ${r}: please help with ${name}.` });
    const act = await tool.execute({ name, force: true });
    steps.push({ kind: "skill", id: `call_${call++}`, input: { name }, output: act.content });
    if (files[name]) {
      const read = await tool.execute({ name, path: files[name] });
      steps.push({ kind: "skill", id: `call_${call++}`, input: { name, path: files[name] }, output: read.content });
    }
    steps.push({ kind: "other", id: `call_${call++}`, tool: "bash", input: { command: `ls task-${r}` }, output: `file-${r}.txt\n` });
    if (r % 7 === 3) {
      // Forced, like the activations above: the transcript holds whole injections (a repeat
      // without force is a pointer, see invoke.test.mjs).
      const inj = await tool.invoke(`/${name} again please`, { force: true });
      steps.push({ kind: "user", text: `${inj.injected.map((i) => i.content).join("\n")}\n\n${inj.remaining}` });
    }
    steps.push({ kind: "assistant", text: `Done with task ${r}.` });
  }
  return steps;
}

export function toAiSdk(steps, skillTool = "view_skill") {
  const out = [];
  for (const s of steps) {
    if (s.kind === "system") out.push({ role: "system", content: s.text });
    else if (s.kind === "user") out.push({ role: "user", content: [{ type: "text", text: s.text }] });
    else if (s.kind === "assistant") out.push({ role: "assistant", content: [{ type: "text", text: s.text }], providerOptions: { x: { keep: 1 } } });
    else {
      const toolName = s.kind === "skill" ? skillTool : s.tool;
      out.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: s.id, toolName, input: s.input }] });
      out.push({ role: "tool", content: [{ type: "tool-result", toolCallId: s.id, toolName, output: { type: "text", value: s.output } }] });
    }
  }
  return out;
}

export function toOpenAi(steps, skillTool = "view_skill") {
  const out = [];
  for (const s of steps) {
    if (s.kind === "system") out.push({ role: "system", content: s.text });
    else if (s.kind === "user") out.push({ role: "user", content: s.text });
    else if (s.kind === "assistant") out.push({ role: "assistant", content: s.text, refusal: null });
    else {
      const name = s.kind === "skill" ? skillTool : s.tool;
      out.push({ role: "assistant", content: null, tool_calls: [{ id: s.id, type: "function", function: { name, arguments: JSON.stringify(s.input) } }] });
      out.push({ role: "tool", tool_call_id: s.id, content: s.output });
    }
  }
  return out;
}

export function toAnthropic(steps, skillTool = "view_skill") {
  const out = [];
  let system;
  for (const s of steps) {
    if (s.kind === "system") system = s.text;
    else if (s.kind === "user") out.push({ role: "user", content: [{ type: "text", text: s.text }] });
    else if (s.kind === "assistant") out.push({ role: "assistant", content: [{ type: "text", text: s.text }] });
    else {
      const name = s.kind === "skill" ? skillTool : s.tool;
      out.push({ role: "assistant", content: [{ type: "tool_use", id: s.id, name, input: s.input }] });
      out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: s.id, content: s.output }] });
    }
  }
  void system;
  return out;
}

export const FORMATS = { "ai-sdk": toAiSdk, openai: toOpenAi, anthropic: toAnthropic };
