// User invocation and permissions through the built package: /skill and $skill in messages,
// injection with arguments, autocomplete, allowed-tools decisions, skill-directory checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, importPkg } from "./helpers.mjs";

const { SkillRegistry, SkillTool, memoryStorage, parseMessage, autocomplete, substituteArguments, isToolAllowed, isInSkillDirectory, compactSkillContent, instanceResets } =
  await importPkg();

const md = (front, body) => `---\n${front}\n---\n${body}`;
const registry = await SkillRegistry.discover({
  user: memoryStorage({
    ".agents/skills/pdf-tools/SKILL.md": md("name: pdf-tools\ndescription: PDF work.\nallowed-tools: Read Bash(pdftotext:*) Bash(git add:*)", "Extract $ARGUMENTS."),
    ".agents/skills/pdf/SKILL.md": md("name: pdf\ndescription: Short PDF.", "x"),
    ".agents/skills/deploy/SKILL.md": md("name: deploy\ndescription: Deploy.\nargument-hint: \"[env]\"\ndisable-model-invocation: true", "Deploy to $env."),
    ".agents/skills/internal/SKILL.md": md("name: internal\ndescription: Not for users.\nuser-invocable: false", "x"),
  }),
});

test("slash invocations and mentions, outside code, user-invocable only", () => {
  const msg = "/pdf-tools report.pdf and ask $deploy, not `$pdf` or $internal";
  const p = parseMessage(registry, msg);
  assert.deepEqual(p.invocations.map((i) => [i.name, i.kind]), [["pdf-tools", "slash"], ["deploy", "mention"]]);
  assert.equal(p.invocations[0].arguments, "report.pdf and ask $deploy, not `$pdf` or $internal");
  const at = msg.indexOf("$deploy");
  assert.deepEqual([p.invocations[1].start, p.invocations[1].end], [at, at + "$deploy".length]);
  assert.deepEqual(parseMessage(registry, "/nope x").unknown, ["nope"]);
  assert.deepEqual(parseMessage(registry, "```\n$pdf\n```").invocations, []);
});

test("the tool injects invoked skills with their arguments and records them", async () => {
  const tool = new SkillTool(registry);
  const out = await tool.invoke("/deploy staging");
  assert.equal(out.injected.length, 1);
  assert.match(out.injected[0].content, /^<skill_content name="deploy">\nDeploy to staging\./);
  assert.equal(out.remaining, "staging");
  assert.equal(tool.session.isLoaded("deploy"), true);
  // A skill hidden from the model can still be invoked by the user, but the model's tool does not offer it.
  assert.ok(!tool.definition().inputSchema.properties.name.enum.includes("deploy"));
});

test("autocomplete ranks exact, prefix, then fuzzy", () => {
  assert.deepEqual(autocomplete(registry, "/pd").map((s) => s.name), ["pdf", "pdf-tools"]);
  assert.deepEqual(autocomplete(registry, "/pdf").map((s) => [s.name, s.matchKind]), [["pdf", "exact"], ["pdf-tools", "prefix"]]);
  assert.deepEqual(autocomplete(registry, "dpy").map((s) => s.name), ["deploy"]);
  assert.ok(!autocomplete(registry, "").some((s) => s.name === "internal"));
  // Words that name no skill find one by what it does.
  const described = autocomplete(registry, "/deploy the app to production");
  assert.ok(described.length > 0 && described.every((s) => s.matchKind === "description"), JSON.stringify(described));
  assert.equal(described[0].name, "deploy");
  assert.deepEqual(autocomplete(registry, "/merge pdf files").map((s) => [s.name, s.matchKind]).sort(), [["pdf", "description"], ["pdf-tools", "description"]]);
  assert.deepEqual(autocomplete(registry, "/zzz qqq"), [], "nothing matched is nothing");
});

test("substituteArguments outside code, with named arguments", () => {
  assert.equal(substituteArguments("Use $file in $mode; `$file`", "a.txt fast", "[file] [mode]"), "Use a.txt in fast; `$file`");
  assert.equal(substituteArguments("No placeholder.", "x y"), "No placeholder.\n\nARGUMENTS: x y");
});

test("allowed-tools decisions for active skills", () => {
  const yes = isToolAllowed(registry, ["pdf-tools"], "Bash", { command: "pdftotext a.pdf -" });
  assert.deepEqual([yes.allowed, yes.skill, yes.pattern], [true, "pdf-tools", "Bash(pdftotext:*)"]);
  assert.equal(isToolAllowed(registry, ["pdf-tools"], "Bash", { command: "pdftotext a.pdf - && rm -rf /" }).allowed, false);
  assert.equal(isToolAllowed(registry, ["pdf-tools"], "Bash", { command: "git add ." }).allowed, true);
  assert.equal(isToolAllowed(registry, ["pdf-tools"], "Bash", { command: "git push" }).allowed, false);
  assert.equal(isToolAllowed(registry, ["pdf-tools"], "Read", { file_path: "/x" }).allowed, true);
  assert.equal(isToolAllowed(registry, [], "Read", { file_path: "/x" }).allowed, false);
  assert.equal(isToolAllowed(registry, ["pdf"], "Read").allowed, false);
});

test("isInSkillDirectory refuses traversal", () => {
  const dirs = ["/home/me/.agents/skills/pdf"];
  assert.equal(isInSkillDirectory("/home/me/.agents/skills/pdf/scripts/x.py", dirs), true);
  for (const bad of ["/home/me/.agents/skills/pdf/../other/x", "/home/me/.agents/skills/pdf-evil/x", "/home/me/.agents/skills/pdf/%2e%2e/x", "/home/me/.agents/skills/pdf/a\u0000b", "/etc/passwd", "..\\..\\x"]) {
    assert.equal(isInSkillDirectory(bad, dirs), false, bad);
  }
});

test("options and inputs treat an undefined property as absent", async () => {
  const { parseSkill, compactSkillContent } = await importPkg();
  const reg = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\nbody" }), client: undefined, concurrency: undefined });
  const tool = new SkillTool(reg, { toolName: undefined, catalog: { format: undefined } });
  const r = await tool.execute({ name: "a", path: undefined, force: undefined });
  assert.equal(r.isError, false, r.content);
  assert.equal(parseSkill("---\nname: a\ndescription: d\n---\n", { mode: undefined, dirName: undefined }).skill.name, "a");
  assert.deepEqual(compactSkillContent([], { format: undefined }).report.changes, []);
});

test("a repeated /name, or /name of a skill the model holds, is a pointer unless forced", async () => {
  const tool = new SkillTool(registry, {});
  const first = (await tool.invoke("/pdf")).injected[0];
  assert.equal(first.alreadyLoaded, false);
  assert.match(first.content, /^<skill_content name="pdf">\nx/);
  const again = await tool.invoke("/pdf");
  assert.equal(again.injected.length, 1);
  assert.equal(again.injected[0].alreadyLoaded, true);
  assert.equal(again.injected[0].size, 0);
  // The pointer the model's own repeat gets, word for word.
  const modelRepeat = await tool.execute({ name: "pdf" });
  assert.equal(modelRepeat.alreadyLoaded, true);
  assert.equal(again.injected[0].content, modelRepeat.content);
  assert.equal((await tool.invoke("ask $pdf")).injected[0].alreadyLoaded, true);
  const forced = (await tool.invoke("/pdf", { force: true })).injected[0];
  assert.equal(forced.alreadyLoaded, false);
  assert.equal(forced.content, first.content);
  assert.deepEqual(tool.session.activations().map((a) => a.index), [1, 2], "pointers load nothing");

  // The model loaded it first: the user's /pdf points at that load.
  const other = new SkillTool(registry, {});
  await other.execute({ name: "pdf" });
  const user = (await other.invoke("/pdf")).injected[0];
  assert.equal(user.alreadyLoaded, true);
  assert.match(user.content, /status="already-loaded".*\(activation 1\)/);

  // Arguments that fill a placeholder are new instructions: injected in full.
  const t = new SkillTool(registry, {});
  assert.match((await t.invoke("/pdf-tools a.pdf")).injected[0].content, /Extract a\.pdf\./);
  const b = (await t.invoke("/pdf-tools b.pdf")).injected[0];
  assert.equal(b.alreadyLoaded, false);
  assert.match(b.content, /Extract b\.pdf\./);

  // Options are checked: unknown keys and wrong types are TypeErrors.
  await assert.rejects(tool.invoke("/pdf", { forced: true }), { name: "TypeError", message: /unknown field `forced`/ });
  await assert.rejects(tool.invoke("/pdf", { force: "yes" }), { name: "TypeError", message: /force/ });
  await assert.rejects(tool.invoke("/pdf", 3), { name: "TypeError" });
});

test("after the second module traps, the skills it kept are handed over again: invocation answers as before", async () => {
  // The second module keeps each registry's and tool's invocable skills once per visibility; a
  // trap replaces its instance and loses them, and the next call must not read a stale object.
  const tool = new SkillTool(registry);
  const before = {
    parsed: parseMessage(registry, "/pdf-tools a.pdf"),
    suggested: autocomplete(registry, "/pd"),
    injected: (await tool.invoke("/pdf-tools a.pdf", { force: true })).injected.map((i) => i.content),
  };
  const extraGlue = await import(pathToFileURL(path.join(PKG, "skillwasm_extra.js")).href);
  const resets = instanceResets();
  const trapping = {
    get keepRecent() {
      extraGlue.initSync(undefined).__wbindgen_malloc(2 ** 32 - 16, 8);
      return 1;
    },
  };
  assert.throws(() => compactSkillContent([], trapping), WebAssembly.RuntimeError);
  assert.equal(instanceResets(), resets + 1, "the trap replaced the second module's instance");
  assert.deepEqual(parseMessage(registry, "/pdf-tools a.pdf"), before.parsed);
  assert.deepEqual(autocomplete(registry, "/pd"), before.suggested);
  assert.deepEqual((await tool.invoke("/pdf-tools a.pdf", { force: true })).injected.map((i) => i.content), before.injected);
});
