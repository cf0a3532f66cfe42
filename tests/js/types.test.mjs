// The package's TypeScript declarations (generated from the Rust types, plus index.d.ts) type-check
// a program that uses the API the way a user would, and catch a misuse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, PKG, assertBuilt } from "./helpers.mjs";

const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

const PROGRAM = `
import { init, parseSkill, parseSkills, readProperties, toPrompt, SkillRegistry, SkillTool, renderCatalog, memoryStorage, nodeFsStorage,
  onInstanceReset, instanceResets, InstanceResetError,
  type ToolResult, type ParseResult, type SkillMeta, type SkillStorage, type Diagnostic, type RefreshReport, type InstanceResetEvent } from "skillwasm";
await init();
const off: () => void = onInstanceReset((e: InstanceResetEvent) => console.log(e.error.message, e.count));
const lost: number = instanceResets();
const isReset = (e: unknown): boolean => e instanceof InstanceResetError && e instanceof Error;
off();
const r: ParseResult = parseSkill(new Uint8Array([45]), { mode: "strict", dirName: "x", includeBody: false });
const name: string | undefined = r.skill?.name;
const tools: string[] | undefined = r.skill?.allowedTools;
const batch: ParseResult[] = parseSkills(["---", { input: new Uint8Array(), dirName: "d" }], { partial: true });
const props = readProperties("---\\nname: a\\n---\\n");
const errors: string[] = props.errors;
const store: SkillStorage = memoryStorage({ ".agents/skills/a/SKILL.md": "x" });
const reg = await SkillRegistry.discover({ user: store, project: nodeFsStorage("."), trustProject: true, client: "me", concurrency: 4 });
const metas: SkillMeta[] = reg.listMetas("user");
const diags: Diagnostic[] = reg.diagnostics();
const file = await reg.readFile("a", "references/x.md");
const text: string | undefined = file.text;
const bytes: Uint8Array | undefined = file.bytes;
const report: RefreshReport = await reg.refresh();
const cold = SkillRegistry.fromSnapshot(reg.snapshot(), { user: store });
const configured = await SkillRegistry.discover({ user: store, disabled: ["x"], permitted: (s: SkillMeta) => s.name !== "y",
  modelTier: "pro", toolName: "activate_skill", budgetTokens: 100, scopePaths: { user: "/u" }, format: "markdown" });
const scoped = await configured.readScopedFile("user", "a", "references/x.md");
const where: string | undefined = scoped?.path;
const tool = new SkillTool(configured, { maxResources: 5, catalog: { locale: "zh" } });
const answer: Promise<ToolResult> = tool.executeCall("activate_skill", '{"name":"a"}');
const followed = tool.session.observe([], { toolName: "activate_skill" });
const location: string = nodeFsStorage(".").location;
console.log(where, answer, followed, location, renderCatalog(configured).skills);
console.log(lost, isReset, name, tools, batch, errors, metas[0]?.scope, diags, text, bytes, report.added, cold.names(), toPrompt([]));
`;

// Without the web program's types from a lib: what a worker or a browser bundle has.
const WEB_PROGRAM = `
import { init, parseSkill, SkillRegistry, SkillTool, renderCatalog, memoryStorage, wellKnownStorage, aiSdkTool, openAiTool, anthropicTool,
  type ParseResult, type InitInput } from "skillwasm";
declare const wasm: InitInput;
await init(wasm);
const r: ParseResult = parseSkill("---\\nname: a\\ndescription: b\\n---\\n", { mode: "strict" });
const reg = await SkillRegistry.discover({ user: memoryStorage({}), org: wellKnownStorage("https://example.com") });
const tool = new SkillTool(reg, { toolName: "activate_skill" });
export const used = [r.skill?.name, renderCatalog(reg).text, aiSdkTool(tool), openAiTool(tool, { api: "responses", strict: true }), anthropicTool(tool)];
`;

/**
 * Runs tsc --strict over `source` in a project that depends on the package, with `lib` (never
 * more than asked: no DOM unless named) and `types` (Node's, or none).
 */
function typecheck(source, { lib = ["es2022"], types = ["node"] } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-types-"));
  try {
    mkdirSync(path.join(dir, "node_modules"));
    symlinkSync(PKG, path.join(dir, "node_modules", "skillwasm"), "dir");
    // A Node project's types and no extra lib: the declarations need neither DOM nor esnext.disposable.
    mkdirSync(path.join(dir, "node_modules", "@types"));
    symlinkSync(path.join(ROOT, "node_modules", "@types", "node"), path.join(dir, "node_modules", "@types", "node"), "dir");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(path.join(dir, "use.ts"), source);
    const compilerOptions = { noEmit: true, strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib, types, skipLibCheck: false };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["use.ts"] }));
    const r = spawnSync(process.execPath, [TSC, "-p", "."], { cwd: dir, encoding: "utf8" });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the declarations compile with lib es2022 alone (no DOM, no Node types), and with DOM", () => {
  assertBuilt();
  for (const [lib, types] of [[["es2022"], []], [["es2022", "dom"], []], [["es2022", "dom"], ["node"]]]) {
    const r = typecheck(WEB_PROGRAM, { lib, types });
    assert.equal(r.status, 0, `lib ${lib}, types [${types}]:\n${r.out}`);
  }
  // The interfaces index.d.ts declares merge with the real ones: a DOM Response is still one.
  const r = typecheck(`${WEB_PROGRAM}\nconst res: Response = new Response("x");\nawait init(res);\n`, { lib: ["es2022", "dom"], types: [] });
  assert.equal(r.status, 0, r.out);
});

test("a program using the API type-checks against the package's declarations (lib es2022, Node's types, no DOM)", () => {
  assertBuilt();
  const r = typecheck(PROGRAM);
  assert.equal(r.status, 0, r.out);
});

test("a misuse does not type-check", () => {
  const r = typecheck(PROGRAM + `\nconst wrong: number = reg.names();\nparseSkill(42);\n`);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /not assignable to type 'number'/);
  assert.match(r.out, /Argument of type 'number'/);
});
