// The browser playground (www-demo/) in real Chromium (Debian's /usr/bin/chromium through
// playwright-core), served by its own server: load the bundled examples into IndexedDB, see the
// skills and a repaired line, render every catalog format and cut it with the budget, call the
// skill tool, autocomplete and send a /skill message, preview compaction, reload and find the
// skills again. Screenshots go to a temporary directory; any console error fails the test.
// Prints the time from page load to the first catalog for the examples and for 500 corpus skills.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM, CI, missing } from "./support/chromium.mjs";
import { assertBuilt } from "./helpers.mjs";
import { CORPUS_SKILLS, corpusFiles, expectedDiscovery } from "./support/corpus.mjs";
import { makeZip, startPlaygroundServer } from "./support/playground.mjs";
import { ROOT } from "./helpers.mjs";

const skip = missing && !CI ? `${CHROMIUM} is missing (run \`make setup\`, which installs the Debian chromium package)` : false;
const CORPUS_COUNT = 500;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the browser playground in Chromium", { skip }, () => {
  let server;
  let browser;
  let shots;
  const screenshots = [];

  before(async () => {
    assert.ok(!missing, `${CHROMIUM} is missing and CI is set: install the Debian chromium package`);
    assertBuilt();
    server = await startPlaygroundServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    shots = mkdtempSync(path.join(os.tmpdir(), "skillwasm-playground-"));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (shots) console.log(`playground screenshots: ${shots} (${screenshots.length} files)`);
  });

  /** A fresh browser context (its own, empty IndexedDB) and a page that records console errors. */
  async function openPage() {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
    const external = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith("data:")) external.push(r.url());
    });
    return { context, page, errors, external };
  }

  async function gotoReady(page, url = server.url) {
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    return Date.now() - t0;
  }

  async function shot(page, name) {
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    const bytes = readFileSync(file);
    assert.ok(bytes.subarray(0, 8).equals(PNG), `${name}.png is a PNG`);
    assert.ok(statSync(file).size > 5000, `${name}.png is not empty`);
    screenshots.push(file);
  }

  const skillNames = (page) => page.$$eval("#skill-list .skill-item", (els) => els.map((e) => e.dataset.name));

  test("examples in, every panel works, and the skills survive a reload", async () => {
    const { context, page, errors, external } = await openPage();
    await gotoReady(page);
    assert.match(await page.textContent("#skill-list"), /No skills yet/);
    await shot(page, "01-empty");

    // The bundled examples, through /examples/index.json and putSkillFiles.
    const index = await (await fetch(`${server.url}examples/index.json`)).json();
    const expected = index.groups.flatMap((g) => g.skills.map((s) => s.dir)).sort();
    assert.ok(expected.includes("needs-repair") && expected.includes("sql-review"), expected.join(" "));
    await page.click("#load-examples");
    await page.waitForFunction((n) => document.querySelectorAll("#skill-list .skill-item").length >= n, expected.length);
    const names = await skillNames(page);
    assert.deepEqual([...names].sort(), expected);
    assert.match(await page.textContent("#status"), new RegExp(`${expected.length} skills`));

    // The broken example: its diagnostics, and the repaired lines marked in its source.
    await page.click('#skill-list .skill-item[data-name="needs-repair"]');
    await page.waitForSelector("#skill-detail .src-line.repaired");
    const diags = await page.$$eval("#skill-detail .diag", (els) => els.map((e) => e.textContent));
    assert.ok(diags.some((d) => /yaml-repair-colon/.test(d) && /line 3/.test(d)), diags.join("\n"));
    assert.ok(diags.some((d) => /crlf/.test(d)), "the CRLF warning is listed");
    const repaired = await page.$$eval("#skill-detail .src-line.repaired", (els) =>
      els.map((e) => ({ line: Number(e.dataset.line), text: e.textContent })),
    );
    const line3 = repaired.find((r) => r.line === 3);
    assert.ok(line3, `line 3 is marked repaired: ${JSON.stringify(repaired)}`);
    assert.match(line3.text, /description: Use this skill when: /);
    assert.match(line3.text, /yaml-repair-colon/);
    assert.match(line3.text, /read as description = /);
    assert.ok(repaired.some((r) => r.line === 4 && /yaml-repair-indicator/.test(r.text)), "argument-hint repaired");
    assert.match(await page.textContent('#skill-list .skill-item[data-name="needs-repair"]'), /repaired/);
    await shot(page, "02-skill-repairs");

    // The catalog in every format, then cut by the budget slider.
    await page.click('.tabs button[data-tab="catalog"]');
    const formats = {};
    for (const format of ["xml", "json", "markdown", "reference"]) {
      await page.click(`#catalog-formats button[data-format="${format}"]`);
      await page.waitForSelector(`body[data-catalog-format="${format}"]`);
      formats[format] = { text: await page.textContent("#catalog-text"), stats: await page.textContent("#catalog-stats") };
      assert.match(formats[format].stats, /≈ [\d,]+ tokens/);
      for (const n of expected) assert.ok(formats[format].text.includes(n), `${format} catalog names ${n}`);
    }
    assert.match(formats.xml.text, /^<available_skills>/);
    assert.ok(Array.isArray(JSON.parse(formats.json.text).skills ?? JSON.parse(formats.json.text)), "json catalog parses");
    assert.match(formats.markdown.text, /^- \*\*|^#|^- /m);
    await page.click('#catalog-formats button[data-format="xml"]');
    const full = Number(await page.getAttribute("#budget", "max"));
    assert.ok(full > 50, `${full} tokens without a budget`);
    await page.$eval("#budget", (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, Math.round(full * 0.4));
    await page.waitForSelector(".cut.dropped .chip");
    const dropped = await page.$$eval(".cut.dropped .chip", (els) => els.map((e) => e.textContent));
    const cut = await page.textContent("#catalog-text");
    assert.ok(dropped.length > 0 && dropped.length < expected.length, dropped.join(" "));
    for (const n of dropped) assert.ok(!cut.includes(`<name>${n}</name>`), `${n} left the catalog`);
    assert.match(await page.textContent("#budget-value"), /tokens/);
    await shot(page, "03-catalog-budget");

    // A model turn: activate, activate again (a pointer), read a resource.
    await page.click('.tabs button[data-tab="turn"]');
    await page.selectOption("#turn-skill", "sql-review");
    await page.click("#turn-call");
    await page.waitForSelector("#turn-content");
    assert.match(await page.textContent("#turn-content"), /^<skill_content name="sql-review">/);
    assert.match(await page.textContent("#turn-content"), /<skill_resources>/);
    assert.match(await page.textContent("#turn-client"), /Skill activated\./);
    await shot(page, "04-model-turn");
    await page.click("#turn-call");
    await page.waitForFunction(() => /already loaded/.test(document.querySelector("#turn-result").textContent));
    await page.selectOption("#turn-path", "references/checklist.md");
    await page.click("#turn-call");
    await page.waitForFunction(() => /checklist\.md/.test(document.querySelector("#turn-activations tbody").textContent));
    // The repeat returned a pointer and is not an activation; the file read is.
    const rows = await page.$$eval("#turn-activations tbody tr", (els) => els.map((e) => [...e.cells].map((c) => c.textContent)));
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [["1", "sql-review", "—"], ["2", "sql-review", "references/checklist.md"]]);

    // Chat: autocomplete after "/", then a /skill message with arguments.
    await page.click('.tabs button[data-tab="chat"]');
    await page.click("#chat-text");
    await page.keyboard.type("/rel");
    await page.waitForSelector("#suggestions:not([hidden]) .suggestion");
    const suggestions = await page.$$eval("#suggestions .s-name", (els) => els.map((e) => e.textContent));
    assert.equal(suggestions[0], "/release-notes-zh");
    await shot(page, "05-autocomplete");
    await page.keyboard.press("Tab");
    assert.equal(await page.inputValue("#chat-text"), "/release-notes-zh ");
    await page.keyboard.type("2.4.0 for the forum");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".bubble.injected");
    assert.match(await page.textContent(".bubble.injected .injection"), /^<skill_content name="release-notes-zh">/);
    assert.match(await page.textContent(".bubble.injected .who"), /arguments: 2\.4\.0 for the forum/);
    assert.equal(await page.textContent(".bubble.sent .remaining"), "2.4.0 for the forum");
    await shot(page, "06-chat");

    // Compaction preview on a transcript built from real activations.
    await page.click('.tabs button[data-tab="compaction"]');
    await page.click("#compact-run");
    await page.waitForSelector("#tokens-before");
    const tokens = await page.$$eval(".bar-value", (els) => Object.fromEntries(els.map((e) => [e.id, Number(e.dataset.tokens)])));
    console.log(`playground compaction preview: ${JSON.stringify(tokens)}`);
    assert.ok(tokens["tokens-before"] > tokens["tokens-after"], JSON.stringify(tokens));
    assert.ok(tokens["tokens-reattached"] > tokens["tokens-after"], JSON.stringify(tokens));
    await shot(page, "07-compaction");

    // Reload: the skills come back from IndexedDB, and the catalog is timed.
    const loadMs = await gotoReady(page);
    await page.waitForFunction(() => window.playground.timings.firstCatalogMs !== undefined);
    assert.deepEqual(await skillNames(page), names);
    const t = await page.evaluate(() => window.playground.timings);
    console.log(
      `playground, ${names.length} bundled examples from IndexedDB: first catalog ${t.firstCatalogMs.toFixed(0)} ms after navigation ` +
        `(wasm init ${t.initMs.toFixed(0)} ms, discovery ${t.discoverMs.toFixed(0)} ms; page ready in ${loadMs} ms by the test's clock)`,
    );
    await shot(page, "08-after-reload");

    // Clear empties the database.
    await page.click("#clear");
    await page.waitForFunction(() => document.querySelectorAll("#skill-list .skill-item").length === 0);
    await gotoReady(page);
    assert.match(await page.textContent("#skill-list"), /No skills yet/);

    // A folder through the directory picker, and a zip with SKILL.md at its top.
    await page.setInputFiles("#folder-input", path.join(ROOT, "examples", "skills", "changelog-writer"));
    await page.waitForSelector('#skill-list .skill-item[data-name="changelog-writer"]');
    const zip = makeZip({
      "SKILL.md": Buffer.from("---\nname: tiny-zip\ndescription: A skill that arrived as a zip archive.\n---\n\nSay hello.\n"),
      "references/notes.md": Buffer.from("# Notes\n"),
    });
    await page.setInputFiles("#zip-input", { name: "tiny-zip.zip", mimeType: "application/zip", buffer: zip });
    await page.waitForSelector('#skill-list .skill-item[data-name="tiny-zip"]');
    await page.click('#skill-list .skill-item[data-name="changelog-writer"]');
    await page.waitForFunction(() => /scripts\/collect_commits\.sh/.test(document.querySelector("#skill-detail .files")?.textContent ?? ""));
    await page.click('#skill-list .skill-item[data-name="tiny-zip"]');
    await page.waitForFunction(() => /references\/notes\.md/.test(document.querySelector("#skill-detail .files")?.textContent ?? ""));
    assert.deepEqual(await skillNames(page), ["changelog-writer", "tiny-zip"]);

    assert.deepEqual(external, [], "no request leaves the page's server");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("an empty first visit has no warning; a folder with a refused SKILL.md is counted the same everywhere", async () => {
    const { context, page, errors } = await openPage();
    await gotoReady(page);
    // The first visit: an empty database is "No skills yet", not a warning.
    assert.match(await page.textContent("#skill-list"), /No skills yet/);
    assert.equal(await page.$$eval(".diag", (els) => els.length), 0, await page.textContent("#registry-notes"));
    assert.doesNotMatch(await page.textContent("body"), /storage-skipped|holds nothing/);

    // A folder of 20 skill directories, one of whose SKILL.md the core refuses.
    const folder = path.join(mkdtempSync(path.join(os.tmpdir(), "skillwasm-playground-folder-")), "team-skills");
    for (let i = 1; i <= 20; i++) {
      const name = `skill-${String(i).padStart(2, "0")}`;
      mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(path.join(folder, name, "SKILL.md"), i === 7 ? "No frontmatter at all.\n" : `---\nname: ${name}\ndescription: Skill number ${i}.\n---\nDo ${i}.\n`);
    }
    await page.setInputFiles("#folder-input", folder);
    await page.waitForFunction(() => /^Added/.test(document.querySelector("#toast")?.textContent ?? ""));
    const toastText = await page.textContent("#toast");
    const status = await page.textContent("#status");
    const count = await page.textContent("#skill-count");
    const items = await page.$$eval("#skill-list .skill-item", (els) => els.map((e) => e.classList.contains("refused")));
    const catalogSkills = await page.evaluate(() => window.playground.state.registry.names().length);
    // One number for "skills" (what the core loaded, what the catalog can offer): 19.
    assert.equal(catalogSkills, 19);
    assert.match(toastText, /^Added 19 skills, 1 SKILL\.md refused \(20 files\) from the folder/);
    assert.match(status, /(^|\D)19 skills/);
    assert.match(status, /1 refused SKILL\.md/);
    assert.match(status, /refresh: 19 added, 1 refused/);
    assert.equal(count, "19 · 1 refused");
    assert.deepEqual([items.filter((r) => !r).length, items.filter((r) => r).length], [19, 1], "listed: 19 skills and the refused one");
    for (const text of [toastText, status, count]) assert.doesNotMatch(text, /20 skills/, text);
    await shot(page, "10-refused-counted");

    // After Clear the database is empty again: still no warning.
    await page.click("#clear");
    await page.waitForFunction(() => document.querySelectorAll("#skill-list .skill-item").length === 0);
    assert.equal(await page.$$eval(".diag", (els) => els.length), 0);
    await gotoReady(page);
    assert.equal(await page.$$eval(".diag", (els) => els.length), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("imports follow the package's rules: skipped directories inside a skill, SKILL.md names, the fences", async () => {
    const { context, page, errors } = await openPage();
    await gotoReady(page);
    const added = await page.evaluate(() =>
      window.playground.addFiles([
        // A dropped repository: its dot-directories above the skill are kept, .git/ holds no skill.
        { path: "repo/.agents/skills/tidy/SKILL.md", data: "\n---\nname: tidy\ndescription: Tidies things.\n---\nBody\n" },
        { path: "repo/.agents/skills/tidy/scripts/run.sh", data: "echo tidy\n" },
        { path: "repo/.agents/skills/tidy/scripts/node_modules/dep/SKILL.md", data: "---\nname: dep\ndescription: A dependency.\n---\n" },
        { path: "repo/.agents/skills/tidy/scripts/node_modules/dep/index.js", data: "module.exports = 1;\n" },
        { path: "repo/.agents/skills/tidy/.cache/state.json", data: "{}" },
        { path: "repo/.git/config", data: "[core]\n" },
      ]),
    );
    assert.deepEqual({ folders: added.folders, skills: added.skills, refused: added.refused, files: added.files }, { folders: 1, skills: 1, refused: 0, files: 2 });
    assert.deepEqual(await skillNames(page), ["tidy"]);
    await page.click('#skill-list .skill-item[data-name="tidy"]');
    await page.waitForSelector("#skill-detail .src-line");
    // The frontmatter as the core finds it: after the blank line, fences included.
    const front = await page.$$eval("#skill-detail .src-line", (els) => els.map((e) => e.classList.contains("front")));
    assert.deepEqual(front, [false, true, true, true, true, false]);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("500 corpus skills: stored through the page, then the catalog after a reload", { skip: existsSync(CORPUS_SKILLS) ? false : "no ../shared/corpus" }, async () => {
    const files = corpusFiles();
    const { visible } = expectedDiscovery(files);
    const chosen = visible.slice(0, CORPUS_COUNT);
    assert.equal(chosen.length, CORPUS_COUNT);
    const entries = chosen.map((rel) => ({ path: rel, b64: readFileSync(path.join(CORPUS_SKILLS, rel)).toString("base64") }));

    const { context, page, errors } = await openPage();
    await gotoReady(page);
    const added = await page.evaluate(async (list) => {
      const fromBase64 = (b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const t0 = performance.now();
      const r = await window.playground.addFiles(list.map((e) => ({ path: e.path, data: fromBase64(e.b64) })));
      return { ...r, ms: performance.now() - t0 };
    }, entries);
    assert.equal(added.folders, CORPUS_COUNT);
    assert.equal(added.files, CORPUS_COUNT);
    // Every folder is a loaded skill or a refused SKILL.md (two folders with one name, say).
    assert.equal(added.skills + added.refused, CORPUS_COUNT, JSON.stringify(added.skipped));
    assert.ok(added.skills >= CORPUS_COUNT * 0.9, `${added.skills} loaded`);

    const loadMs = await gotoReady(page);
    await page.waitForFunction(() => window.playground.timings.firstCatalogMs !== undefined);
    const t = await page.evaluate(() => window.playground.timings);
    const listed = (await skillNames(page)).length;
    const status = await page.textContent("#status");
    console.log(
      `playground, ${CORPUS_COUNT} corpus SKILL.md in IndexedDB (${listed} listed, ${t.firstCatalogSkills} in the catalog): ` +
        `first catalog ${t.firstCatalogMs.toFixed(0)} ms after navigation (wasm init ${t.initMs.toFixed(0)} ms, discovery ${t.discoverMs.toFixed(0)} ms; ` +
        `page ready in ${loadMs} ms by the test's clock); storing them through the page took ${added.ms.toFixed(0)} ms`,
    );
    assert.ok(listed >= CORPUS_COUNT * 0.9, `${listed} listed`);
    assert.match(status, new RegExp(`(^|\\D)${added.skills} skills`), "the header counts what the import said");
    assert.ok(t.firstCatalogSkills >= CORPUS_COUNT * 0.8, `${t.firstCatalogSkills} in the catalog`);
    assert.match(status, /500 files in IndexedDB/);
    await page.fill("#skill-filter", "pdf");
    const shown = await page.$$eval("#skill-list li:not([hidden]) .skill-item", (els) => els.map((e) => e.dataset.name));
    assert.ok(shown.length > 0 && shown.length < listed, `${shown.length} match "pdf"`);
    await shot(page, "09-corpus-500");
    assert.deepEqual(errors, []);
    await context.close();
  });
});
