// The skill tool in the shapes model APIs and frameworks take. One definition (SkillTool, in the
// core) reshaped; no skill logic here.

/** @typedef {import("./index.js").SkillTool} SkillTool */

/** The full text for the model, kept off the UI stream (not enumerable, so not serialised). */
function reduced(result) {
  const out = { ...result.client, isError: result.isError };
  Object.defineProperty(out, "modelContent", { value: result.content, enumerable: false });
  return out;
}

/**
 * A Vercel AI SDK tool (`tools: { [definition.name]: aiSdkTool(skillTool, { jsonSchema }) }`).
 * Pass the SDK's `jsonSchema` to wrap the input schema. `execute` resolves to the client-reduced
 * output (`{ skillName, path, content: "Skill activated." }` for activations, the whole file for
 * path reads), which is what the UI stream carries; `toModelOutput` gives the model the full
 * result, reading it again when the output was rebuilt from the UI messages of an earlier turn.
 * Null when no skill is visible (offer no tool).
 * @param {SkillTool} tool
 * @param {{ jsonSchema?: (schema: object) => unknown }} [options]
 */
export function aiSdkTool(tool, options = {}) {
  const def = tool.definition();
  if (def === null) return null;
  return {
    description: def.description,
    inputSchema: options.jsonSchema ? options.jsonSchema(def.inputSchema) : def.inputSchema,
    execute: async (input) => reduced(await tool.execute(input)),
    // On a later turn a chat app rebuilds the messages from what the UI stream carried (JSON,
    // so the full text is gone): the instructions are read again rather than lost.
    toModelOutput: async ({ output }) => {
      let value = output?.modelContent;
      let isError = output?.isError;
      if (value === undefined && output?.skillName && !isError) {
        const again = await tool.execute({ name: output.skillName, ...(output.path ? { path: output.path } : {}), force: true });
        value = again.content;
        isError = again.isError;
      }
      return { type: isError ? "error-text" : "text", value: value ?? output?.content ?? "" };
    },
  };
}

/**
 * An OpenAI function tool: `{ type: "function", function: { name, description, parameters } }`
 * (Chat Completions), or with `{ api: "responses" }` the Responses API's flat
 * `{ type: "function", name, description, parameters }`. Null when no skill is visible.
 * @param {SkillTool} tool
 * @param {{ api?: "chat" | "responses" }} [options]
 */
export function openAiTool(tool, options = {}) {
  const def = tool.definition();
  if (def === null) return null;
  const fn = { name: def.name, description: def.description, parameters: def.inputSchema };
  return options.api === "responses" ? { type: "function", ...fn } : { type: "function", function: fn };
}

/**
 * Answers an OpenAI Chat Completions tool call (`message.tool_calls[i]`) with the `role: "tool"`
 * message to append. The answer is the tool's own (`executeCall`): arguments that are not JSON
 * and a call of another tool are error results written by the core, not exceptions.
 * @param {SkillTool} tool
 * @param {{ id: string; function: { name: string; arguments: string } }} call
 */
export async function openAiToolMessage(tool, call) {
  const result = await tool.executeCall(call?.function?.name, call?.function?.arguments ?? "");
  return { role: "tool", tool_call_id: call?.id, content: result.content };
}

/**
 * An Anthropic Messages tool: `{ name, description, input_schema }`. Null when no skill is visible.
 * @param {SkillTool} tool
 */
export function anthropicTool(tool) {
  const def = tool.definition();
  if (def === null) return null;
  return { name: def.name, description: def.description, input_schema: def.inputSchema };
}

/**
 * Answers an Anthropic `tool_use` content block with the `tool_result` block to send back (a
 * block naming another tool gets the tool's error result).
 * @param {SkillTool} tool
 * @param {{ id: string; input: unknown }} block
 */
export async function anthropicToolResult(tool, block) {
  const result = await tool.executeCall(block?.name, block?.input);
  return { type: "tool_result", tool_use_id: block.id, content: result.content, ...(result.isError ? { is_error: true } : {}) };
}
