// A user's `/skill` or `$skill` message as the user message each model API takes. The core's
// `SkillTool.invoke` has already written the skills' content (wrapped in `<skill_content>`, the
// arguments substituted); these helpers only put its pieces into the API's content parts.
//
// Placement: each injected skill is a text part of its own, before the user's text. Compaction
// reads each text part of a user message as a text, and takes a block the tool wrote at the start
// or the end of a text as injected skill content (src/compact/attribute.rs, rule 2): a part that
// is one block is that, whatever comes after it.

/** More skills than one message could name: what SkillTool.invoke never gives. */
const MAX_INJECTED = 10_000;

/**
 * The texts of a user message for `injection`: each injected skill's content, then the text to
 * send on (left out when it is empty and a skill was injected, as APIs refuse an empty text part).
 * @param {unknown} injection
 * @param {string} fn
 * @returns {string[]}
 */
function texts(injection, fn) {
  if (injection === null || typeof injection !== "object" || Array.isArray(injection)) {
    throw new TypeError(`${fn}: injection must be what SkillTool.invoke resolves to ({ injected, remaining }), got ${injection === null ? "null" : Array.isArray(injection) ? "an array" : typeof injection}`);
  }
  const { injected, remaining } = injection;
  if (!Array.isArray(injected)) throw new TypeError(`${fn}: injected must be an array (SkillTool.invoke's result), got ${typeof injected}`);
  if (injected.length > MAX_INJECTED) throw new TypeError(`${fn}: injected holds ${injected.length} skills, more than ${MAX_INJECTED}`);
  if (typeof remaining !== "string") throw new TypeError(`${fn}: remaining must be a string (SkillTool.invoke's result), got ${typeof remaining}`);
  const out = [];
  for (let i = 0; i < injected.length; i++) {
    const item = injected[i];
    const content = item !== null && typeof item === "object" ? item.content : undefined;
    if (typeof content !== "string") throw new TypeError(`${fn}: injected[${i}].content must be a string, got ${typeof content}`);
    out.push(content);
  }
  if (remaining !== "" || out.length === 0) out.push(remaining);
  return out;
}

/** `[{ type: "text", text }]`: the content parts of the AI SDK, OpenAI Chat, Anthropic and LangChain. */
const textParts = (list) => list.map((text) => ({ type: "text", text }));

/**
 * The user message for the Vercel AI SDK (a `ModelMessage`, ai 6 and 7):
 * `{ role: "user", content: [{ type: "text", text }, ...] }`.
 * @param {import("./index.js").Injection} injection
 */
export function aiSdkUserMessage(injection) {
  return { role: "user", content: textParts(texts(injection, "aiSdkUserMessage")) };
}

/**
 * The user message for OpenAI: a Chat Completions `ChatCompletionUserMessageParam`, or with
 * `{ api: "responses" }` a Responses API input item (`{ type: "message", role: "user",
 * content: [{ type: "input_text", text }] }`, which the OpenAI Agents SDK takes as well).
 * @param {import("./index.js").Injection} injection
 * @param {{ api?: "chat" | "responses" }} [options]
 */
export function openAiUserMessage(injection, options = {}) {
  if (options === null) options = {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`openAiUserMessage: options must be an options object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== "api") throw new TypeError(`openAiUserMessage: unknown option '${key}' (the options are api)`);
  }
  const { api } = options;
  if (api !== undefined && api !== "chat" && api !== "responses") {
    throw new TypeError(`openAiUserMessage: api must be "chat" or "responses", got ${typeof api === "string" ? JSON.stringify(api) : typeof api}`);
  }
  const list = texts(injection, "openAiUserMessage");
  if (api === "responses") return { type: "message", role: "user", content: list.map((text) => ({ type: "input_text", text })) };
  return { role: "user", content: textParts(list) };
}

/**
 * The user message for Anthropic Messages (a `MessageParam`):
 * `{ role: "user", content: [{ type: "text", text }, ...] }`.
 * @param {import("./index.js").Injection} injection
 */
export function anthropicUserMessage(injection) {
  return { role: "user", content: textParts(texts(injection, "anthropicUserMessage")) };
}

/**
 * The content of a LangChain `HumanMessage` (`new HumanMessage({ content })`):
 * `[{ type: "text", text }, ...]`.
 * @param {import("./index.js").Injection} injection
 */
export function langChainUserContent(injection) {
  return textParts(texts(injection, "langChainUserContent"));
}
