// Search at scale, against the built package in Node on ../shared/corpus: SkillRegistry.search
// (ranking, CJK, typos, scope and limit, the snapshot's index), a catalog at its budget that says
// what it leaves out in every format, and the skill tool in its three framework shapes reaching
// a skill the catalog did not list, searching, and answering unknown names with the nearest.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { SHARED, importPkg } from "./helpers.mjs";

const pkg = await importPkg();
const { SkillRegistry, SkillTool, nodeFsStorage, renderCatalog, aiSdkTool, openAiTool, openAiToolMessage, anthropicTool, anthropicToolResult } = pkg;
const CORPUS = path.join(SHARED, "corpus");
const skip = !existsSync(CORPUS) && "no ../shared/corpus";
const options = (extra = {}) => ({
  scopes: [{ name: "builtin", storage: nodeFsStorage(CORPUS), roots: ["skills/"] }],
  maxDepth: 12,
  maxDirectories: 100000,
  ...extra,
});
const names = (hits) => hits.map((h) => h.name);

describe("SkillRegistry.search over the corpus", { skip }, () => {
  let reg;
  before(async () => {
    reg = await SkillRegistry.discover(options());
  });

  test("ranks the skill a request is about first: English, a name, CJK, a typo", () => {
    assert.equal(names(reg.search("merge pdf files"))[0], "pdf");
    assert.equal(names(reg.search("pdf"))[0], "pdf", "a name goes first");
    assert.equal(names(reg.search("阿里云百炼的模型价格"))[0], "bailian-docs-llm-wiki");
    assert.equal(names(reg.search("pandoc-pdf-generaton"))[0], "pandoc-pdf-generation", "a name with a typo");
    const hit = reg.search("merge pdf files", { limit: 1 })[0];
    const meta = reg.get("pdf");
    assert.deepEqual([hit.description, hit.scope, typeof hit.score], [meta.description, "builtin", "number"]);
    assert.ok(hit.location.endsWith("SKILL.md") && path.isAbsolute(hit.location), hit.location);
    assert.deepEqual(reg.search("zzqx vbnmw"), []);
    assert.deepEqual(reg.search(""), []);
  });

  test("limit and scope bound what comes back", () => {
    assert.equal(reg.search("code review", { limit: 3 }).length, 3);
    assert.ok(reg.search("code review", { limit: 1e6 }).length <= 100);
    assert.equal(reg.search("code review", { limit: 0 }).length, 1);
    assert.equal(reg.search("code review").length, 10);
    assert.deepEqual(reg.search("code review", { scope: "project" }), []);
    assert.equal(reg.search("code review", { scope: "builtin" }).length, 10);
    assert.throws(() => reg.search("x", { limit: "3" }), (e) => e instanceof TypeError && /limit/.test(e.message));
    assert.throws(() => reg.search(5), (e) => e instanceof TypeError && /query/.test(e.message));
  });

  test("a registry from a snapshot carries the index and searches alike", () => {
    const bytes = reg.snapshot();
    const cold = SkillRegistry.fromSnapshot(bytes, options());
    for (const q of ["merge pdf files", "write unit tests first", "数据分析", "slack messages"]) {
      assert.deepEqual(cold.search(q), reg.search(q), q);
    }
    // A snapshot of the earlier JSON format is refused as one of another format (the host then
    // discovers afresh, and the new registry searches).
    const old = new TextEncoder().encode(JSON.stringify({ format: "skillwasm-registry/1", scopes: [], records: [], diagnostics: [] }));
    assert.throws(() => SkillRegistry.fromSnapshot(old, options()), /^Error: snapshot-invalid: snapshot format "skillwasm-registry\/1" is not "skillwasm-registry\/5"$/);
  });

  test("hidden skills are not found", async () => {
    const r = await SkillRegistry.discover(options({ disabled: ["pdf"] }));
    assert.ok(!names(r.search("merge pdf files")).includes("pdf"));
  });
});

describe("the catalog and the tool when the skills do not fit the budget", { skip }, () => {
  const BUDGET = 4000;
  let reg;
  let tool;
  let dropped;
  before(async () => {
    reg = await SkillRegistry.discover(options({ budgetTokens: BUDGET }));
    tool = new SkillTool(reg);
    dropped = tool.catalog().dropped;
  });

  test("the catalog says how many skills it leaves out and how to find them, in every format", () => {
    for (const format of ["xml", "reference", "json", "markdown"]) {
      const c = renderCatalog(reg, { format });
      assert.equal(c.search, true, format);
      assert.ok(c.dropped.length > 100 && c.tokens <= BUDGET, `${format}: ${c.dropped.length} dropped, ${c.tokens} tokens`);
      const note = new RegExp(`^${c.dropped.length} more skills are not listed here\\. To find one, call \`view_skill\` with \`query\``);
      if (format === "json") {
        const list = JSON.parse(c.text); // still one JSON document
        assert.equal(list.at(-1).notListed, c.dropped.length);
        assert.match(list.at(-1).search, note);
        assert.equal(list.length, c.skills.length + 1);
      } else assert.match(c.text.trimEnd().split("\n").at(-1), note, format);
      assert.match(c.instructions, /`query` to search the others/);
    }
  });

  test("the dropped names read as a plain list: split from one string when first read", () => {
    const c = renderCatalog(reg, { format: "xml" });
    const hidden = new Set(c.hidden.map((h) => h.name));
    const all = new Set(reg.listMetas().map((m) => m.name).filter((name) => !hidden.has(name)));
    // What a host does with a result: reads, copies, serializes it, or replaces the list.
    const copied = { ...c };
    const cloned = structuredClone(c);
    const json = JSON.parse(JSON.stringify(c));
    assert.ok(Array.isArray(c.dropped) && c.dropped.length > 100);
    assert.ok(Object.keys(c).includes("dropped"));
    for (const list of [copied.dropped, cloned.dropped, json.dropped]) assert.deepEqual(list, c.dropped);
    assert.ok(c.dropped.every((name) => all.has(name) && !c.skills.includes(name)));
    assert.equal(new Set(c.dropped).size + c.skills.length, all.size, "every skill offered to the model is shown or dropped, once");
    assert.equal(c.dropped, c.dropped, "read once, then the same array");
    const fresh = renderCatalog(reg, { format: "xml" });
    fresh.dropped = ["replaced"];
    assert.deepEqual(fresh.dropped, ["replaced"]);
    const frozen = Object.freeze(renderCatalog(reg, { format: "xml" }));
    assert.deepEqual(frozen.dropped, c.dropped, "a frozen result still answers the list");
  });

  test("below the threshold the catalog and the tool are as they were", async () => {
    const small = await SkillRegistry.discover(options());
    const c = renderCatalog(small);
    assert.ok(!("search" in c) && !c.text.includes("not listed"));
    const def = new SkillTool(small).definition();
    assert.deepEqual(def.inputSchema.properties.name.enum, c.skills);
    assert.ok(!("query" in def.inputSchema.properties));
    const never = await SkillRegistry.discover(options({ budgetTokens: BUDGET, search: "never" }));
    assert.ok(!("search" in renderCatalog(never)) && new SkillTool(never).definition().inputSchema.properties.name.enum);
  });

  test("every framework shape offers query and any skill's name", () => {
    const shapes = [aiSdkTool(tool).inputSchema, openAiTool(tool).function.parameters, openAiTool(tool, { api: "responses" }).parameters, anthropicTool(tool).input_schema];
    for (const schema of shapes) {
      assert.equal(schema.properties.query.type, "string");
      assert.equal(schema.properties.name.enum, undefined);
    }
    const c = tool.catalog();
    assert.match(tool.definition().description, new RegExp(`${c.skills.length + c.dropped.length} skills are available`));
  });

  test("the tool loads a skill the catalog did not list (AI SDK shape)", async () => {
    const name = dropped.find((n) => reg.get(n));
    const out = await aiSdkTool(tool).execute({ name });
    assert.equal(out.isError, false);
    assert.ok(out.modelContent.startsWith(`<skill_content name="${name}"`), out.modelContent.slice(0, 80));
    assert.ok(tool.session.isLoaded(name));
  });

  test("a query finds skills by what they do (OpenAI shape)", async () => {
    const msg = await openAiToolMessage(tool, { id: "c1", function: { name: "view_skill", arguments: JSON.stringify({ query: "merge pdf files" }) } });
    assert.ok(msg.content.startsWith('Skills found for "merge pdf files"'), msg.content);
    assert.match(msg.content.split("\n")[1], /^- pdf: /);
  });

  test("an unknown name is answered with the nearest skills (Anthropic shape)", async () => {
    const block = await anthropicToolResult(tool, { id: "t1", name: "view_skill", input: { name: "pandoc-pdf-generaton" } });
    assert.equal(block.is_error, true);
    assert.match(block.content, /^There is no skill named 'pandoc-pdf-generaton'\. The nearest skills:\n- pandoc-pdf-generation: /);
  });
});

test("each hit says where the request's words were found, and the tool's answer tells the model", async () => {
  const { memoryStorage } = pkg;
  const md = (name, description, body) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
  const reg = await SkillRegistry.discover({
    scopes: [
      {
        name: "user",
        storage: memoryStorage({
          "skills/documents/SKILL.md": md("documents", "Works with office documents.", "# Merge PDF files\n\nUse qpdf."),
          "skills/sheets/SKILL.md": md("sheets", "Works with spreadsheets.", "# Pivot tables"),
        }),
        roots: ["skills/"],
      },
    ],
    search: "always",
  });
  assert.deepEqual(reg.search("qpdf").map((h) => [h.name, h.matched]), [["documents", ["body"]]]);
  assert.deepEqual(reg.search("office spreadsheets").map((h) => [h.name, h.matched]), [
    ["sheets", ["description"]],
    ["documents", ["description"]],
  ]);
  assert.deepEqual(reg.search("sheets")[0].matched, ["name"]);
  assert.deepEqual(reg.search("office documents").map((h) => [h.name, h.matched]), [["documents", ["name", "description"]]]);
  const answer = await new SkillTool(reg).execute({ query: "qpdf" });
  assert.match(answer.content, /^- documents: Works with office documents\. \(matched: body\)$/m);
  reg.free();
});
