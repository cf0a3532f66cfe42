// Production builds as users ship them: a small app with the package installed (a copy of pkg/ in
// node_modules), built minified by Vite (`vite build`), esbuild (`--bundle --minify
// --format=esm`), webpack (`mode: "production"`) and Rollup with terser, served from 127.0.0.1 and
// run in Chromium. Minifiers rename classes and rewrite their source (`class{` with no space), so
// the app constructs every public class and runs a whole flow: discover, catalog, `new SkillTool`,
// execute, a `/skill` invocation, compaction, a session, the MCP Skills methods; and it checks that
// a class without a public constructor still says so under its exported name.
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { assertBuilt } from "./helpers.mjs";
import { appProject, loadApp } from "./support/bundled-app.mjs";

const skip = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`)` : false;

const IMPORTS = `import { init, parseSkill, SkillRegistry, SkillSession, SkillTool, SkillsMcp, InstanceResetError, ZipError, memoryStorage, renderCatalog, openAiToolMessage, version } from "skillwasm";`;

// The flow every build runs; `window.__result` is what the test reads back.
const FLOW = `
try {
  const files = {
    ".agents/skills/demo/SKILL.md": "---\\nname: demo\\ndescription: Shows that the wasm loaded.\\n---\\n" + "Do the demo step carefully.\\n".repeat(40),
    ".agents/skills/other/SKILL.md": "---\\nname: other\\ndescription: Another skill, invoked by the user.\\n---\\nOther body for $ARGUMENTS.\\n",
  };
  const { skill, diagnostics } = parseSkill(files[".agents/skills/demo/SKILL.md"], { dirName: "demo" });
  const registry = await SkillRegistry.discover({ user: memoryStorage(files) });
  const catalog = renderCatalog(registry);
  const tool = new SkillTool(registry);
  const executed = await tool.execute({ name: "demo" });
  const invoked = await tool.invoke("/other now");
  const call = { id: "c1", type: "function", function: { name: tool.definition().name, arguments: JSON.stringify({ name: "demo" }) } };
  const reply = await openAiToolMessage(new SkillTool(registry), call);
  const transcript = [{ role: "user", content: "do the demo" }, { role: "assistant", content: null, tool_calls: [call] }, reply, { role: "assistant", content: "done" }, { role: "user", content: "thanks" }];
  const compacted = tool.compactSkillContent(transcript, { keepRecent: 0 });
  const session = new SkillSession();
  const observed = session.observe(transcript);
  const listed = await new SkillsMcp(registry).listSkills();
  let noConstructor = null;
  try { new SkillRegistry(); } catch (e) { noConstructor = (e instanceof TypeError) + " " + e.message; }
  window.__result = {
    name: skill?.name, diagnostics: diagnostics.length, names: registry.names(), catalogHasDemo: catalog.text.includes("demo"),
    version: version(), executed: executed.isError === false && executed.content.includes("Do the demo step"),
    invoked: invoked.injected.map((i) => i.name), remaining: invoked.remaining,
    compacted: compacted.report.changes.map((c) => [c.skill, c.action]), tokensSaved: compacted.report.tokensAfter < compacted.report.tokensBefore,
    observed: observed !== null && typeof observed === "object" && !("error" in observed),
    mcp: listed.skills.map((s) => s.frontmatter.name), noConstructor,
    errors: [new InstanceResetError("x") instanceof Error, new ZipError("y") instanceof Error],
  };
} catch (e) {
  window.__failed = String(e && e.stack || e);
}
`;

const INDEX = `<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/main.js"></script>`;
const WASM = ["skillwasm_bg.wasm", "skillwasm_cold_bg.wasm", "skillwasm_extra_bg.wasm"];

describe("minified production builds construct every class and run the flow in Chromium", { skip }, () => {
  let browser;
  const dirs = [];
  before(async () => {
    assertBuilt();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function run(distDir) {
    const { result, thrown, failed, errors } = await loadApp(browser, distDir);
    assert.equal(thrown, null, "the flow threw");
    assert.deepEqual(failed, [], "no request failed");
    assert.deepEqual(errors, [], "no page error");
    assert.ok(result, "the app ran");
    assert.equal(result.name, "demo");
    assert.equal(result.diagnostics, 0);
    assert.deepEqual(result.names, ["demo", "other"]);
    assert.equal(result.catalogHasDemo, true);
    assert.match(result.version, /^\d+\.\d+\.\d+/);
    assert.equal(result.executed, true, "new SkillTool(...).execute loaded the skill");
    assert.deepEqual(result.invoked, ["other"]);
    assert.equal(result.remaining, "now");
    assert.deepEqual(result.compacted, [["demo", "compacted"]]);
    assert.equal(result.tokensSaved, true);
    assert.equal(result.observed, true, "new SkillSession().observe answered");
    assert.deepEqual(result.mcp, ["demo", "other"], "new SkillsMcp(registry) listed the skills");
    assert.equal(result.noConstructor, "true SkillRegistry has no public constructor: use its static methods");
    assert.deepEqual(result.errors, [true, true]);
  }

  // What a minifier did to the bundle: the check above is only meaningful if classes lost their
  // names and the `class X {` spacing the package once matched.
  function assertMinified(file) {
    const text = readFileSync(file, "utf8");
    assert.ok(!/\bclass SkillTool\b/.test(text), `${path.basename(file)} still names SkillTool: not minified`);
  }

  test("Vite: vite build (default minification), init() with no argument", async () => {
    const { build } = await import("vite");
    const dir = appProject({
      "index.html": INDEX,
      "main.js": `${IMPORTS}\nawait init();\n${FLOW}`,
      "vite.config.js": `export default { build: { target: "es2022" }, optimizeDeps: { exclude: ["skillwasm"] } };\n`,
    });
    dirs.push(dir);
    await build({ root: dir, logLevel: "silent", configFile: path.join(dir, "vite.config.js") });
    const assets = readdirSync(path.join(dir, "dist", "assets"));
    assertMinified(path.join(dir, "dist", "assets", assets.find((f) => f.endsWith(".js"))));
    await run(path.join(dir, "dist"));
  });

  test("esbuild: --bundle --minify --format=esm, the .wasm files through the file loader", async () => {
    const esbuild = await import("esbuild");
    const dir = appProject({
      "main.js": `${IMPORTS}\nimport wasmUrl from "skillwasm/skillwasm_bg.wasm";\nimport coldUrl from "skillwasm/skillwasm_cold_bg.wasm";\nimport extraUrl from "skillwasm/skillwasm_extra_bg.wasm";\nawait init({ module_or_path: wasmUrl, cold: coldUrl, extra: extraUrl });\n${FLOW}`,
      "dist/index.html": INDEX,
    });
    dirs.push(dir);
    await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ["main.js"],
      bundle: true,
      minify: true,
      format: "esm",
      target: "es2022",
      outdir: "dist",
      loader: { ".wasm": "file" },
      logLevel: "silent",
    });
    assert.equal(readdirSync(path.join(dir, "dist")).filter((f) => f.endsWith(".wasm")).length, 3, "esbuild copied the three .wasm files");
    assertMinified(path.join(dir, "dist", "main.js"));
    await run(path.join(dir, "dist"));
  });

  test("webpack: mode production, init() with no argument (webpack follows new URL(..., import.meta.url))", async () => {
    const { default: webpack } = await import("webpack");
    const dir = appProject({ "src/main.js": `${IMPORTS}\nawait init();\n${FLOW}`, "dist/index.html": INDEX });
    dirs.push(dir);
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode: "production",
          context: dir,
          entry: "./src/main.js",
          output: { path: path.join(dir, "dist"), filename: "main.js", clean: false },
          performance: { hints: false },
        },
        (err, s) => (err ? reject(err) : resolve(s)),
      );
    });
    assert.equal(stats.hasErrors(), false, stats.toString({ all: false, errors: true }));
    assert.ok(readdirSync(path.join(dir, "dist")).some((f) => f.endsWith(".wasm")), "webpack emitted the .wasm files");
    assertMinified(path.join(dir, "dist", "main.js"));
    await run(path.join(dir, "dist"));
  });

  test("Rollup with terser: the .wasm files copied beside the bundle, init() with no argument", async () => {
    const { rollup } = await import("rollup");
    const { nodeResolve } = await import("@rollup/plugin-node-resolve");
    const { default: terser } = await import("@rollup/plugin-terser");
    const dir = appProject({ "src/main.js": `${IMPORTS}\nawait init();\n${FLOW}`, "dist/index.html": INDEX });
    dirs.push(dir);
    const bundle = await rollup({
      input: path.join(dir, "src", "main.js"),
      plugins: [nodeResolve({ browser: true, exportConditions: ["browser"] })],
      onwarn: () => {},
    });
    await bundle.write({ file: path.join(dir, "dist", "main.js"), format: "es", plugins: [terser()] });
    await bundle.close();
    // Rollup leaves `new URL("./skillwasm_bg.wasm", import.meta.url)` as it is: the URL is then
    // relative to the bundle, so the files go beside it.
    for (const f of WASM) copyFileSync(path.join(dir, "node_modules", "skillwasm", f), path.join(dir, "dist", f));
    assertMinified(path.join(dir, "dist", "main.js"));
    await run(path.join(dir, "dist"));
  });
});
