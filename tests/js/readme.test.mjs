// The snippets of the README and of docs/ run as written: each `<!-- snippet: NAME -->` block
// (tests/js/support/docs.mjs finds them) is run in a project that depends on the built package,
// with only the placeholders it names supplied. The Worker and browser snippets run in workerd and
// Chromium (docs-runtimes.test.mjs), the esbuild recipe in bundlers-chromium.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync, cpSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, PKG, assertBuilt } from "./helpers.mjs";
import { NODE22_VERSION, node22 } from "./support/node22.mjs";
import { excerpts, marked, snippets as docSnippets } from "./support/docs.mjs";

const snippets = docSnippets();

/** Runs `code` as an ES module in a project with skillwasm (and ai) installed and the example skills in .agents/skills. */
function run(code, preamble, { ai = "ai", node = process.execPath } = {}) {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-readme-"));
  try {
    mkdirSync(path.join(dir, "node_modules"));
    symlinkSync(PKG, path.join(dir, "node_modules", "skillwasm"), "dir");
    // `ai` is the AI SDK a user has: ai 7, or ai 6 (installed as the alias ai6, with its own
    // @ai-sdk packages nested under it, which resolve from its real path).
    symlinkSync(path.join(ROOT, "node_modules", ai), path.join(dir, "node_modules", "ai"), "dir");
    for (const dep of ["@ai-sdk", "@opentelemetry", "@standard-schema", "@vercel", "zod", "eventsource-parser", "json-schema"]) {
      try {
        symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep), "dir");
      } catch {
        // not every dependency exists in every version
      }
    }
    cpSync(path.join(ROOT, "examples", "skills"), path.join(dir, ".agents", "skills"), { recursive: true });
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(path.join(dir, "snippet.mjs"), `${preamble}\n${code}\n`);
    const r = spawnSync(node, ["snippet.mjs"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the README and docs/ have the runnable snippets, the README its agent loop, Worker and page", () => {
  assert.deepEqual(Object.keys(snippets).sort(), ["agent-loop", "anthropic", "browser", "esbuild", "node-ai-sdk", "openai", "openai-responses", "worker"]);
  const all = marked("snippet");
  for (const name of ["agent-loop", "worker", "browser"]) assert.equal(all[name].file, "README.md", name);
});

// A stand-in model: it calls the skill tool once, then answers (the mock of each AI SDK version).
function mockModel(className) {
  return `
import { ${className} } from "ai/test";
var yourModel = new ${className}({ doGenerate: [
  { content: [{ type: "tool-call", toolCallId: "c1", toolName: "view_skill", input: JSON.stringify({ name: "changelog-writer" }) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] },
  { content: [{ type: "text", text: "Changelog written." }], finishReason: { unified: "stop", raw: "stop" },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] },
] });`;
}

// ai 7 asks for Node 22: its snippet also runs there (fetched under target/node22 by make setup).
const NODE22 = node22();
for (const [ai, mock, node, skip] of [
  ["ai", "MockLanguageModelV4"],
  ["ai6", "MockLanguageModelV3"],
  ["ai", "MockLanguageModelV4", NODE22.bin, NODE22.skip ?? false],
]) {
  const on = node ? `, Node ${NODE22_VERSION}` : "";
  test(`Node + nodeFsStorage + the Vercel AI SDK (${ai === "ai" ? "ai 7" : "ai 6"}${on})`, { skip }, () => {
    const r = run(snippets["node-ai-sdk"], mockModel(mock), { ai, node });
    assert.equal(r.status, 0, r.stderr);
    // Two steps: the tool call and its result, then the answer (all of them in the transcript).
    assert.match(r.stdout, /Changelog written\. \[ 'changelog-writer' \] 3/);
  });
}

// A stand-in model that records each call's prompt (printed on stderr at exit) and answers in turn:
// the skill tool's call, then text, then text for the second user message.
function recordingModel(className) {
  return `
import { ${className} } from "ai/test";
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const text = (t) => ({ content: [{ type: "text", text: t }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });
const replies = [
  { content: [{ type: "tool-call", toolCallId: "c1", toolName: "view_skill", input: JSON.stringify({ name: "changelog-writer" }) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
  text("Changelog written."),
  text("Commit message written."),
];
const seen = [];
var yourModel = new ${className}({ doGenerate: async (options) => { seen.push(options.prompt); return replies[seen.length - 1]; } });
process.on("exit", () => console.error(JSON.stringify(seen)));`;
}

for (const [ai, mock, node, skip] of [
  ["ai", "MockLanguageModelV4"],
  ["ai6", "MockLanguageModelV3"],
  ["ai", "MockLanguageModelV4", NODE22.bin, NODE22.skip ?? false],
]) {
  const on = node ? `, Node ${NODE22_VERSION}` : "";
  test(`the README's agent loop: catalog, skill tool, a /skill message (${ai === "ai" ? "ai 7" : "ai 6"}${on})`, { skip }, () => {
    const r = run(snippets["agent-loop"], recordingModel(mock), { ai, node });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "Changelog written.\nCommit message written.\n");
    const prompts = JSON.parse(r.stderr.trim().split("\n").at(-1));
    assert.equal(prompts.length, 3);
    const text = (message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content));
    // The catalog is the system prompt of every call.
    for (const prompt of prompts) {
      assert.equal(prompt[0].role, "system");
      assert.match(prompt[0].content, /<available_skills>[\s\S]*commit-message[\s\S]*<\/available_skills>/);
    }
    // The model's call of the skill tool got the skill's instructions back.
    assert.match(prompts[1].map(text).join("\n"), /<skill_content name=\\?"changelog-writer\\?"/);
    // The second turn holds the first one whole (its tool call and result), then the user's
    // /commit-message with the skill injected in the message itself.
    const last = prompts[2];
    assert.ok(last.some((m) => m.role === "tool"), "the first turn's tool result is kept");
    const user = last.filter((m) => m.role === "user").at(-1);
    assert.match(text(user), /<skill_content name=\\?"commit-message\\?"/);
  });
}

test("OpenAI Responses API: strict flat tool, function_call_output items", () => {
  const preamble = `var sampleResponse = { output: [
  { type: "reasoning", id: "rs_1", summary: [] },
  { type: "function_call", id: "fc_1", call_id: "call_1", name: "view_skill", arguments: JSON.stringify({ name: "sql-review", path: null, force: null }) },
  { type: "function_call", id: "fc_2", call_id: "call_2", name: "web_search", arguments: "{}" }] };`;
  const r = run(snippets["openai-responses"], preamble);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^true \[\s+'<skill_content name="sql-review">/);
  assert.match(r.stdout, /The input must be a call of view_skill/);
});

test("OpenAI tool shape", () => {
  const preamble = `var sampleOpenAiMessage = { role: "assistant", content: null, tool_calls: [
  { id: "call_1", type: "function", function: { name: "view_skill", arguments: JSON.stringify({ name: "sql-review" }) } },
  { id: "call_2", type: "function", function: { name: "view_skill", arguments: "{not json" } }] };`;
  const r = run(snippets.openai, preamble);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^view_skill \[\s+'<skill_content name="sql-review">/);
  assert.match(r.stdout, /The input must be \{ name, path\? \}/);
});

test("Anthropic tool shape", () => {
  const preamble = `var sampleAnthropicContent = [{ type: "text", text: "Let me look." },
  { type: "tool_use", id: "toolu_1", name: "activate_skill", input: { name: "commit-message" } },
  { type: "tool_use", id: "toolu_2", name: "activate_skill", input: { name: "commit-message", path: "../../etc/passwd" } }];`;
  const r = run(snippets.anthropic, preamble);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^activate_skill \[\s+'<skill_content name="commit-message">/);
  assert.match(r.stdout, /leaves the skill/);
});

test("excerpts stand whole and verbatim in the files they quote (which their own tests run)", () => {
  const found = excerpts();
  assert.ok(found.length >= 3);
  for (const { file, line, name, code } of found) {
    const source = readFileSync(path.join(ROOT, name), "utf8");
    assert.ok(source.includes(code), `${file}:${line}: ${name} does not contain, as one piece:\n${code}`);
  }
});
