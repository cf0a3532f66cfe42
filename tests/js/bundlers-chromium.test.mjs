// The bundler recipes of docs/guides/runtimes.md, built and loaded as a user would: a project with
// the package installed (a copy of pkg/ in node_modules), bundled by Vite and by esbuild as the
// guide says (the esbuild recipe is its snippet, as written), served from 127.0.0.1 and run in
// Chromium. The page parses a skill and renders a catalog, so the .wasm the bundle points at was
// found, fetched and instantiated.
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { assertBuilt } from "./helpers.mjs";
import { appProject, loadApp } from "./support/bundled-app.mjs";
import { snippets } from "./support/docs.mjs";

const skip = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`)` : false;

// What the page does with the package: one parse, one registry over memory, one catalog.
const APP_BODY = `
const { skill, diagnostics } = parseSkill("---\\nname: demo\\ndescription: Shows that the wasm loaded.\\n---\\nBody\\n", { dirName: "demo" });
const registry = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/demo/SKILL.md": "---\\nname: demo\\ndescription: Shows that the wasm loaded.\\n---\\n" }) });
const catalog = renderCatalog(registry);
window.__result = { name: skill?.name, diagnostics: diagnostics.length, names: registry.names(), catalogHasDemo: catalog.text.includes("demo"), version: version() };
`;

describe("bundlers: the runtimes guide's recipes in Chromium", { skip }, () => {
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

  const load = (distDir, page) => loadApp(browser, distDir, page);


  function assertLoaded({ result, failed, errors }) {
    assert.deepEqual(failed, [], "no request failed");
    assert.deepEqual(errors, [], "no page error");
    assert.ok(result, "the app ran");
    assert.equal(result.name, "demo");
    assert.equal(result.diagnostics, 0);
    assert.deepEqual(result.names, ["demo"]);
    assert.equal(result.catalogHasDemo, true);
    assert.match(result.version, /^\d+\.\d+\.\d+/);
  }

  test("Vite: vite build, init() with no argument", async () => {
    const { build } = await import("vite");
    const dir = appProject({
      "index.html": `<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/main.js"></script>`,
      "main.js": `import { init, parseSkill, SkillRegistry, memoryStorage, renderCatalog, version } from "skillwasm";\nawait init();\n${APP_BODY}`,
      "vite.config.js": `export default { build: { target: "es2022" }, optimizeDeps: { exclude: ["skillwasm"] } };\n`,
    });
    dirs.push(dir);
    await build({ root: dir, logLevel: "silent", configFile: path.join(dir, "vite.config.js") });
    const assets = readdirSync(path.join(dir, "dist", "assets"));
    assert.ok(assets.some((f) => f.endsWith(".wasm")), `Vite emitted the .wasm (assets: ${assets.join(", ")})`);
    assertLoaded(await load(path.join(dir, "dist")));
  });

  test("esbuild: the three .wasm files through the file loader, their URLs passed to init", async () => {
    const esbuild = await import("esbuild");
    const dir = appProject({
      // The recipe as docs/guides/runtimes.md writes it (it imports init and parseSkill), then the app.
      "main.js": `${snippets().esbuild}import { SkillRegistry, memoryStorage, ready, renderCatalog, substituteArguments, version } from "skillwasm";\nawait ready();\n${APP_BODY}\nwindow.__result.substituted = substituteArguments("x $0", "y");\n`,
      "dist/index.html": `<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/main.js"></script>`,
    });
    dirs.push(dir);
    await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ["main.js"],
      bundle: true,
      format: "esm",
      target: "es2022",
      outdir: "dist",
      loader: { ".wasm": "file" },
      logLevel: "silent",
    });
    assert.equal(readdirSync(path.join(dir, "dist")).filter((f) => f.endsWith(".wasm")).length, 3, "esbuild copied the three .wasm files");
    const seen = await load(path.join(dir, "dist"));
    assertLoaded(seen);
    assert.equal(seen.result.substituted, "x y", "the second module was loaded");
  });

  test("esbuild without the recipe: the .wasm is not copied, and init() says what failed", async () => {
    const esbuild = await import("esbuild");
    const dir = appProject({
      "main.js": `import { init } from "skillwasm";\ntry { await init(); window.__result = { ok: true }; } catch (e) { window.__result = { error: String(e.message) }; }\n`,
      "dist/index.html": `<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/main.js"></script>`,
    });
    dirs.push(dir);
    await esbuild.build({ absWorkingDir: dir, entryPoints: ["main.js"], bundle: true, format: "esm", target: "es2022", outdir: "dist", logLevel: "silent" });
    assert.equal(existsSync(path.join(dir, "dist", "skillwasm_bg.wasm")), false);
    const seen = await load(path.join(dir, "dist"));
    assert.match(seen.result?.error ?? JSON.stringify(seen), /failed to fetch Wasm: 404/);
  });
});
