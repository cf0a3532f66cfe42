// A user's `/skill` message as each API's user message (aiSdkUserMessage, openAiUserMessage,
// anthropicUserMessage, langChainUserContent): the injected skills as text parts of their own,
// then the user's text; the AI SDK's mock models of ai 7 and ai 6 receive them as written, and
// the transcript functions recognise them as injected skill content (and compact them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { generateText as generateText6 } from "ai6";
import { MockLanguageModelV3 } from "ai6/test";
import { HumanMessage } from "@langchain/core/messages";
import { importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, memoryStorage, findSkillContent, compactSkillContent } = pkg;
const { aiSdkUserMessage, openAiUserMessage, anthropicUserMessage, langChainUserContent } = pkg;

const md = (front, body) => `---\n${front}\n---\n${body}`;
const registry = await SkillRegistry.discover({
  user: memoryStorage({
    ".agents/skills/deploy/SKILL.md": md("name: deploy\ndescription: Deploy.\nargument-hint: \"[env]\"", "Deploy to $env."),
    ".agents/skills/pdf/SKILL.md": md("name: pdf\ndescription: PDF work.", "Use pdftotext."),
  }),
});

test("each API's user message: one text part per injected skill, then the user's text", async () => {
  const tool = new SkillTool(registry);
  const inj = await tool.invoke("/deploy staging and check $pdf");
  assert.equal(inj.injected.length, 2);
  const parts = [...inj.injected.map((i) => ({ type: "text", text: i.content })), { type: "text", text: inj.remaining }];
  assert.match(parts[0].text, /^<skill_content name="deploy">\nDeploy to staging/);
  assert.match(parts[1].text, /^<skill_content name="pdf">\nUse pdftotext\./);
  assert.deepEqual(aiSdkUserMessage(inj), { role: "user", content: parts });
  assert.deepEqual(openAiUserMessage(inj), { role: "user", content: parts });
  assert.deepEqual(openAiUserMessage(inj, { api: "chat" }), { role: "user", content: parts });
  assert.deepEqual(openAiUserMessage(inj, { api: "responses" }), { type: "message", role: "user", content: parts.map((p) => ({ type: "input_text", text: p.text })) });
  assert.deepEqual(anthropicUserMessage(inj), { role: "user", content: parts });
  assert.deepEqual(langChainUserContent(inj), parts);
  const human = new HumanMessage({ content: langChainUserContent(inj) });
  assert.match(human.text, /<skill_content name="deploy">/);
  assert.ok(!JSON.stringify(aiSdkUserMessage(inj)).includes("[object Object]"));
});

test("no text part for an empty rest; the text alone when nothing was invoked", async () => {
  const tool = new SkillTool(registry);
  const only = await tool.invoke("/pdf");
  assert.equal(only.remaining, "");
  assert.deepEqual(aiSdkUserMessage(only).content.map((p) => p.text.slice(0, 26)), ['<skill_content name="pdf">']);
  const plain = await tool.invoke("just words");
  assert.deepEqual(anthropicUserMessage(plain), { role: "user", content: [{ type: "text", text: "just words" }] });
});

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
for (const [label, generate, Mock] of [["ai 7", generateText, MockLanguageModelV4], ["ai 6", generateText6, MockLanguageModelV3]]) {
  test(`the AI SDK (${label}) sends the message to the model as written`, async () => {
    const tool = new SkillTool(registry);
    const message = aiSdkUserMessage(await tool.invoke("/deploy prod"));
    const model = new Mock({ doGenerate: { content: [{ type: "text", text: "Deployed." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] } });
    const result = await generate({ model, messages: [message] });
    assert.equal(result.text, "Deployed.");
    const [user] = model.doGenerateCalls[0].prompt.filter((m) => m.role === "user");
    assert.deepEqual(user.content.map((p) => [p.type, p.text]), message.content.map((p) => ["text", p.text]));
  });
}

test("the transcript functions take the parts as injected skill content, in every format", async () => {
  const tool = new SkillTool(registry);
  const inj = await tool.invoke("/deploy staging");
  for (const [format, message, reply] of [
    ["ai-sdk", aiSdkUserMessage(inj), { role: "assistant", content: [{ type: "text", text: "ok" }] }],
    ["openai", openAiUserMessage(inj), { role: "assistant", content: "ok" }],
    ["anthropic", anthropicUserMessage(inj), { role: "assistant", content: [{ type: "text", text: "ok" }] }],
  ]) {
    const transcript = [message, reply];
    const found = findSkillContent(transcript, { format });
    assert.equal(found.error, undefined, format);
    assert.deepEqual(found.uses.map((u) => [u.name, u.kind]), [["deploy", "injected"]], format);
    assert.deepEqual(found.notes, [], format);
    const compacted = compactSkillContent(transcript, { format, keepRecent: 0 });
    assert.equal(compacted.report.changes.length, 1, format);
    const text = JSON.stringify(compacted.transcript[0]);
    assert.match(text, /status=\\"compacted\\"/, format);
    assert.ok(text.includes("staging"), `${format}: the user's text stays`);
  }
});

test("what is no invocation result is a TypeError naming what is wrong", () => {
  for (const fn of [aiSdkUserMessage, openAiUserMessage, anthropicUserMessage, langChainUserContent]) {
    assert.throws(() => fn("/pdf x"), { name: "TypeError", message: new RegExp(`${fn.name}: injection must be`) });
    assert.throws(() => fn(null), { name: "TypeError", message: /injection/ });
    assert.throws(() => fn({ injected: "x", remaining: "" }), { name: "TypeError", message: /injected must be an array/ });
    assert.throws(() => fn({ injected: [], remaining: 5 }), { name: "TypeError", message: /remaining must be a string/ });
    assert.throws(() => fn({ injected: [{ content: 1 }], remaining: "" }), { name: "TypeError", message: /injected\[0\]\.content must be a string/ });
    assert.throws(() => fn({ injected: { length: 1e9 }, remaining: "" }), { name: "TypeError" });
  }
  assert.throws(() => openAiUserMessage({ injected: [], remaining: "x" }, { api: "assistants" }), { name: "TypeError", message: /api must be/ });
  assert.throws(() => openAiUserMessage({ injected: [], remaining: "x" }, { format: "chat" }), { name: "TypeError", message: /unknown option 'format'/ });
});
