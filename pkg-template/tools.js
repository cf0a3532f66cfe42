// The skill tool in the shapes model APIs and frameworks take. One definition (SkillTool, in the
// core) reshaped; no skill logic here.

/** @typedef {import("./index.js").SkillTool} SkillTool */

/**
 * Throw a TypeError unless `tool` is an object (a SkillTool; its own methods check the rest).
 * @param {unknown} tool
 * @param {string} fn
 */
function checkTool(tool, fn) {
  if (tool === null || typeof tool !== "object") {
    throw new TypeError(`${fn}: tool must be a SkillTool, got ${tool === null ? "null" : typeof tool}`);
  }
}

/**
 * Throw a TypeError unless `options` is undefined, null or an options object whose keys are all
 * among `keys` (a misspelt key names itself and the valid ones).
 * @param {unknown} options
 * @param {string} fn
 * @param {string[]} keys
 * @returns {Record<string, any>}
 */
function optionsOf(options, fn, keys) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an options object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  for (const key in options) {
    if (Object.hasOwn(options, key) && !keys.includes(key)) {
      throw new TypeError(`${fn}: unknown option '${key}' (the options are ${keys.join(", ")})`);
    }
  }
  return options;
}

/**
 * `what` read from a value a model sent (a tool call or a block), or `fallback` when it cannot be
 * read (null, not an object, a getter that throws).
 */
function field(v, key, fallback = undefined) {
  try {
    return v !== null && typeof v === "object" ? v[key] : fallback;
  } catch {
    return fallback;
  }
}

/** The full text for the model, kept off the UI stream (not enumerable, so not serialised). */
function reduced(result) {
  const out = { ...result.client, isError: result.isError };
  Object.defineProperty(out, "modelContent", { value: result.content, enumerable: false });
  return out;
}

/**
 * A Vercel AI SDK tool (`tools: { [definition.name]: aiSdkTool(skillTool, { jsonSchema }) }`).
 * Pass the SDK's `jsonSchema` to wrap the input schema. `execute` resolves to the client-reduced
 * output (`{ name, path, content: "Skill activated." }` for activations, `{ name, path,
 * content: "File read.", size }` for path reads), which is what the UI stream carries;
 * `toModelOutput` gives the model the full
 * result, reading it again when the output was rebuilt from the UI messages of an earlier turn.
 * Null when no skill is visible (offer no tool).
 * @param {SkillTool} tool
 * @param {{ jsonSchema?: (schema: object) => unknown }} [options]
 */
export function aiSdkTool(tool, options = {}) {
  checkTool(tool, "aiSdkTool");
  options = optionsOf(options, "aiSdkTool", ["jsonSchema"]);
  if (options.jsonSchema !== undefined && typeof options.jsonSchema !== "function") {
    throw new TypeError("aiSdkTool: jsonSchema must be a function (the AI SDK's jsonSchema)");
  }
  const def = tool.definition();
  if (def === null) return null;
  return {
    description: def.description,
    inputSchema: options.jsonSchema ? options.jsonSchema(def.inputSchema) : def.inputSchema,
    execute: async (input) => reduced(await tool.execute(input)),
    // On a later turn a chat app rebuilds the messages from what the UI stream carried (JSON,
    // so the full text is gone): the instructions are read again rather than lost.
    toModelOutput: async (arg) => {
      // What the framework hands back is data: one it cannot read is an empty output.
      const output = field(arg, "output");
      let value = output?.modelContent;
      let isError = output?.isError;
      // `skillName`: the key of outputs kept from before the results named the skill `name`.
      const name = field(output, "name") || field(output, "skillName");
      if (value === undefined && typeof name === "string" && name !== "" && !isError) {
        const again = await tool.execute({ name, ...(output.path ? { path: output.path } : {}), force: true });
        value = again.content;
        isError = again.isError;
      }
      return { type: isError ? "error-text" : "text", value: value ?? output?.content ?? "" };
    },
  };
}

/**
 * `{ [name]: aiSdkTool(tool, options) }`, or `{}` when no skill is visible: what `tools` takes.
 * @param {SkillTool} tool
 * @param {{ jsonSchema?: (schema: object) => unknown }} [options]
 */
export function aiSdkTools(tool, options = {}) {
  checkTool(tool, "aiSdkTools");
  const shaped = aiSdkTool(tool, optionsOf(options, "aiSdkTools", ["jsonSchema"]));
  // Read after the shape: aiSdkTool has checked the tool and the options.
  const def = shaped === null ? null : tool.definition();
  return def === null ? {} : { [def.name]: shaped };
}

/**
 * The input schema strict mode (OpenAI Structured Outputs) accepts: every property required, the
 * optional ones nullable (`null` means left out, which the tool reads as absent).
 * @param {Record<string, any>} schema
 */
function strictSchema(schema) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    properties[key] = required.has(key) ? prop : { ...prop, type: [prop.type, "null"] };
  }
  return { ...schema, properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * An OpenAI function tool: `{ type: "function", function: { name, description, parameters } }`
 * (Chat Completions), or with `{ api: "responses" }` the Responses API's flat
 * `{ type: "function", name, description, parameters, strict }`. With `strict: true` the schema is
 * the one strict mode accepts (see strictSchema) and the tool says `strict: true`; the Responses
 * shape says `strict: false` otherwise (the field is required there). Null when no skill is visible.
 * @param {SkillTool} tool
 * @param {{ api?: "chat" | "responses", strict?: boolean }} [options]
 */
export function openAiTool(tool, options = {}) {
  checkTool(tool, "openAiTool");
  options = optionsOf(options, "openAiTool", ["api", "strict"]);
  if (options.api !== undefined && options.api !== "chat" && options.api !== "responses") {
    throw new TypeError(`openAiTool: api must be "chat" or "responses", got ${typeof options.api === "string" ? JSON.stringify(options.api) : typeof options.api}`);
  }
  if (options.strict !== undefined && typeof options.strict !== "boolean") {
    throw new TypeError(`openAiTool: strict must be a boolean, got ${typeof options.strict}`);
  }
  const def = tool.definition();
  if (def === null) return null;
  const strict = options.strict === true;
  const parameters = strict ? strictSchema(def.inputSchema) : def.inputSchema;
  const fn = { name: def.name, description: def.description, parameters };
  if (options.api === "responses") return { type: "function", ...fn, strict };
  return { type: "function", function: strict ? { ...fn, strict } : fn };
}

/**
 * Answers an OpenAI Chat Completions tool call (`message.tool_calls[i]`) with the `role: "tool"`
 * message to append. The answer is the tool's own (`executeCall`): arguments that are not JSON
 * and a call of another tool are error results written by the core, not exceptions.
 * @param {SkillTool} tool
 * @param {{ id: string; function: { name: string; arguments: string } }} call
 */
export async function openAiToolMessage(tool, call) {
  checkTool(tool, "openAiToolMessage");
  // The call comes from the model API: whatever it holds is answered by the core, never thrown.
  const fn = field(call, "function");
  const name = field(fn, "name");
  const args = field(fn, "arguments");
  const id = field(call, "id");
  const result = await tool.executeCall(typeof name === "string" ? name : undefined, args ?? "");
  return { role: "tool", tool_call_id: typeof id === "string" ? id : "", content: result.content };
}

/**
 * Answers a Responses API `function_call` output item (`response.output[i]`) with the
 * `function_call_output` item to send back (`call_id`, and the tool's answer as `output`). Like
 * openAiToolMessage, the answer is the core's: a call of another tool or arguments that are not
 * JSON are error results, never exceptions.
 * @param {SkillTool} tool
 * @param {{ call_id: string; name: string; arguments: string }} item
 */
export async function openAiResponsesOutput(tool, item) {
  checkTool(tool, "openAiResponsesOutput");
  const name = field(item, "name");
  const args = field(item, "arguments");
  const id = field(item, "call_id");
  const result = await tool.executeCall(typeof name === "string" ? name : undefined, args ?? "");
  return { type: "function_call_output", call_id: typeof id === "string" ? id : "", output: result.content };
}

/**
 * An Anthropic Messages tool: `{ name, description, input_schema }`. Null when no skill is visible.
 * @param {SkillTool} tool
 */
export function anthropicTool(tool) {
  checkTool(tool, "anthropicTool");
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
  checkTool(tool, "anthropicToolResult");
  // The block comes from the model: whatever it holds is answered by the core, never thrown.
  const name = field(block, "name");
  block = { id: field(block, "id"), input: field(block, "input") };
  const result = await tool.executeCall(typeof name === "string" ? name : undefined, block.input);
  return { type: "tool_result", tool_use_id: typeof block.id === "string" ? block.id : "", content: result.content, ...(result.isError ? { is_error: true } : {}) };
}

/**
 * What the OpenAI Agents SDK's `tool()` takes (`tool(openAiAgentsTool(skillTool))`, from
 * `@openai/agents`): the name, the description, the schema strict mode accepts (the SDK's default,
 * see strictSchema) and an `execute` that answers with the tool's text for the model (error
 * results included, so the model reads why). Null when no skill is visible.
 * @param {SkillTool} tool
 */
export function openAiAgentsTool(tool) {
  checkTool(tool, "openAiAgentsTool");
  const def = tool.definition();
  if (def === null) return null;
  return {
    name: def.name,
    description: def.description,
    parameters: strictSchema(def.inputSchema),
    strict: true,
    execute: async (input) => (await tool.execute(input)).content,
  };
}

/**
 * What Mastra's `createTool()` takes (`createTool(mastraTool(skillTool))`, from
 * `@mastra/core/tools`): the tool's name as the `id`, the description, the input schema as JSON
 * schema, and an `execute` that answers with the tool's text for the model (error results
 * included). Null when no skill is visible.
 * @param {SkillTool} tool
 */
export function mastraTool(tool) {
  checkTool(tool, "mastraTool");
  const def = tool.definition();
  if (def === null) return null;
  return {
    id: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    execute: async (input) => (await tool.execute(input)).content,
  };
}
