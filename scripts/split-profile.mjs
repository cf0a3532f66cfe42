#!/usr/bin/env node
// The profile the core module is split by (`make build`, binaryen's wasm-split; see
// docs/internals/ARCHITECTURE.md): runs the work every host does on the core module as
// `wasm-split --instrument` wrote it, in the built pkg/, and writes the profile the module then
// gives (which functions ran, and when first). That work is parsing, discovering, rendering
// catalogs and answering the skill tool, over the repository's example skills, the vetting
// fixtures, a set of frontmatter shapes the fast path reads, and generated trees of hundreds of
// skills shaped like real ones (sizes past the small-collection paths, names out of listing order,
// repeated and nested names, skills hidden from the model or the user). What it never runs is
// moved to the cold module, loaded on its first call. tests/js/cold-split.test.mjs checks that the
// work over the test corpus loads none of it; a path that test finds belongs here.
//
//   node scripts/split-profile.mjs PKG INSTRUMENTED.wasm PROFILE
//
// Only the repository's own files are read (and a temporary directory written from them), so the
// same build makes the same profile.

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [pkgDir, instrumented, profileOut] = process.argv.slice(2);
if (!profileOut) {
  console.error("usage: split-profile.mjs PKG INSTRUMENTED.wasm PROFILE");
  process.exit(2);
}
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PKG = resolve(pkgDir);

const sw = await import(pathToFileURL(join(PKG, "exports.js")).href);
const { provideExtra } = await import(pathToFileURL(join(PKG, "extra.js")).href);
const { nodeFsStorage } = await import(pathToFileURL(join(PKG, "storage/node-fs.js")).href);
// The instrumented module notes the first run of each function; `__write_profile` writes the notes.
const core = sw.initSync({ module: new WebAssembly.Module(readFileSync(instrumented)) });
provideExtra(() => new WebAssembly.Module(readFileSync(join(PKG, "skillwasm_extra_bg.wasm"))));

// Every SKILL.md of the examples, and frontmatter the fast path reads in its other shapes.
const EXAMPLES = join(REPO, "examples");
const files = [];
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") walk(p);
    else if (e.name === "SKILL.md") files.push(p);
  }
})(EXAMPLES);
// In a page, a SKILL.md whose frontmatter is beyond the fast path can be read before the second
// module has arrived (it loads in the background after init()): the core then gives that file a
// yaml-parser-unavailable diagnostic, and a discovery waits for the module and reads it again.
// That is the usual work too: the examples read once with the reader failing as it does then
// (the read again comes after the module, and with it the cold code, has arrived).
{
  const { setFrontmatterReader } = await import(pathToFileURL(join(PKG, "boundary.js")).href);
  const { extra } = await import(pathToFileURL(join(PKG, "extra.js")).href);
  setFrontmatterReader(() => {
    throw new Error("the second module is still loading");
  });
  for (const f of files) sw.parseSkill(readFileSync(f));
  (await sw.SkillRegistry.discover({ user: nodeFsStorage(EXAMPLES) })).free();
  setFrontmatterReader((text, firstLine, strict, invalid) => extra.__sw_readFrontmatter(text, firstLine, strict, invalid));
}
const shapes = [
  `---\nname: plain-skill\ndescription: Plain words, no quotes.\n---\n# Body\n\nText.\n`,
  `---\nname: "quoted-skill"\ndescription: 'Single ''quoted'' text'\nlicense: MIT\ncompatibility: "Needs git"\n---\nBody\n`,
  `---\nname: folded\ndescription: >\n  Folded text\n  over lines.\nallowed-tools: Read Grep Bash(git:*)\nmetadata:\n  author: someone\n  version: "1.0"\n---\n\nBody with \`!\`echo hi\`\` and [a link](ref.md).\n`,
  `---\nname: literal\ndescription: |\n  Literal text.\n  Second line.\nallowed-tools: [Read, Write]\nuser-invocable: true\nargument-hint: "[file]"\ndisable-model-invocation: false\n---\nUse $ARGUMENTS.\n`,
  `---\nname: Bad Name\ndescription: ""\nunknown-field: 1\n---\n`,
  // A title for a name beside a usable description, as real skills have ("Some Product API").
  `---\nname: Spaced Title API\ndescription: Guide for the API, with a title for a name.\n---\n\n# Spaced Title API\n`,
  `---\nname: flow\ndescription: {a: 1}\nmetadata: {k: v, n: "2"}\n---\nBody\n`,
  `---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\nBody\r\n`,
  `\uFEFF---\nname: bom-skill\ndescription: "Unicode \\u00e9 \u00e9t\u00e9 \u{1F600}"\n---\n`,
  `no frontmatter at all\n`,
  `---\nname: unclosed\ndescription: never ends\n`,
  `---\nname: anchors\ndescription: &d text\nother: *d\n---\n`,
  `---\nname: nested-list\ndescription: Lists.\nmetadata:\n  tags:\n    - one\n    - two\n---\n`,
  `---\nname: nested-map\ndescription: Maps in maps.\nmetadata:\n  owner:\n    team: docs\n    since: 2024\n  flags: {a: true, b: null}\nhooks:\n  pre: [x, y]\n---\n`,
  `---\nname: dup\ndescription: Twice.\ndescription: Again.\nname: dup\n---\n`,
  `---\nname: many-keys\ndescription: Many.\n${Array.from({ length: 40 }, (_, i) => `k${i}: v${i}`).join("\n")}\n---\n`,
  // A description over the limit, and frontmatter longer than the prefix a metadata parse reads.
  `---\nname: long-text\ndescription: "${"Long words \u2014 caf\u00e9 ".repeat(120)}"\nwhen_to_use: "${"When. ".repeat(900)}"\n---\nBody\n`,
  `---\nname: comma-tools\ndescription: "Uses \`code\` \u2014 and 'quotes'"\nallowed-tools: Bash, Read, Write, Edit, Task\nsource_book: A Book \u2014 Someone\n---\n`,
  `---\nname: unknown-fields\ndescription: |\n  A scenario \u00d7 lever table. Use for 'achieve X%', 'set the KPIs'.\nsource_book: B\nsource_chapter: "C"\nsource_language: en\ntags: [a, b]\nrelated_skills:\n  - slug: s\n    relation: r\nversion: 2\n---\n`,
  `---\nname: beyond-fast-path\ndescription: |\n  Block text with 'quotes' \u00d7 signs.\nsource_book: B \u2014 A\nsource_chapter: "Chapter 10 (3\u00d7N + y); Chapter 12 \u2014 z"\ntags: [a, b]\nrelated_skills:\n  - slug: s\n    relation: r\n# v0.6.0 (2026-05-13): a comment with \`code\`\n# and a second line.\n---\n`,
  `---\nname: listed-triggers\ndescription: One unknown field, a list.\nallowed-tools: Bash, Read\ntriggers:\n  - one\n  - two\n---\n`,
  // Marks real skills carry: emoji with a variation selector, zero-width spaces, combining marks.
  `---\nname: marks\ndescription: "Hearts \u2764\uFE0F, checks \u2705\uFE0F, zero\u200Bwidth and x\u0302 marks."\n---\nBody \u2764\uFE0F with a\u200Bb.\n`,
  `---\nname: commented\ndescription: |\n  Text.\nrelated:\n  - slug: other\n    relation: depends-on\n  - slug: third\n    relation: [a, b]\n# a comment line\n# another\ntags: [x, y]\n---\n`,
];
const inputs = [...files.map((f) => readFileSync(f)), ...shapes.map((s) => new TextEncoder().encode(s))];

for (const includeBody of [false, true]) {
  for (const mode of [undefined, "strict"]) {
    for (const r of sw.parseSkills(inputs, { includeBody, mode })) void [r.skill, r.body, r.diagnostics];
  }
}
// Batch items as { input, dirName }, as discovery hands them, matching and not.
sw.parseSkills(inputs.map((input, i) => ({ input, dirName: i % 2 ? "plain-skill" : `dir-${i}` })), { includeBody: false });
for (const s of shapes) sw.parseSkill(s);
for (const b of inputs) sw.parseSkill(b, { includeBody: false });

// Discovery over a directory and over memory, then what a host does with a registry.
const memory = {};
files.forEach((f, i) => (memory[`skills/s${i}/SKILL.md`] = readFileSync(f)));
shapes.forEach((s, i) => (memory[`skills/shape${i}/SKILL.md`] = s));
memory["skills/s0/references/guide.md"] = "# Guide\n";
memory["skills/nested/inner/SKILL.md"] = shapes[0].replace("plain-skill", "inner-skill");
memory["skills/nested/SKILL.md"] = shapes[0].replace("plain-skill", "outer-skill");
// Hundreds of skills, as a real host has: sorts, hash tables and listings past their small sizes,
// skills of one name in two scopes (shadowed) and skills nested in others.
const many = {};
const body = readFileSync(files[0]);
for (let i = 0; i < 600; i++) {
  // Parents in another order than the names, as in a real tree, and names that repeat.
  const name = i % 7 === 0 ? `nested-${i}` : i % 10 === 3 ? `dup-${i % 20}` : `gen-${(i * 7919) % 600}-${i}`;
  const dir = i % 7 === 0 ? `skills/group-${i % 5}/${name}` : `skills/p${(i * 31) % 17}/${name}`;
  many[`${dir}/SKILL.md`] = new TextEncoder().encode(
    `---\nname: ${name}\ndescription: Generated skill ${i} for the profile.\n` +
      (i % 9 === 4 ? "disable-model-invocation: true\n" : i % 11 === 5 ? "user-invocable: false\n" : "") +
      "---\n" +
      new TextDecoder().decode(body).slice(0, 400),
  );
  if (i % 50 === 0) many[`${dir}/references/r.md`] = "reference\n";
}
// Names that prefix one another ("a1", "a1-b"): a directory's listing order and the order of
// their paths differ, as in real trees.
for (let i = 0; i < 60; i++) {
  for (const name of [`a${i}`, `a${i}-b`]) many[`skills/q/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Prefixed.\n---\n`;
}
for (let g = 0; g < 5; g++) many[`skills/group-${g}/SKILL.md`] = `---\nname: group-${g}\ndescription: A skill holding others.\n---\n`;
// The same tree on disk, with what real directories hold besides: skipped directories, a deep
// nesting, an empty SKILL.md, a link that leads nowhere (a temporary directory, removed after).
const disk = mkdtempSync(join(tmpdir(), "skillwasm-profile-"));
process.on("exit", () => rmSync(disk, { recursive: true, force: true }));
const oddities = {
  "skills/.git/SKILL.md": shapes[0],
  "skills/node_modules/x/SKILL.md": shapes[0],
  "skills/empty/SKILL.md": "",
  ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`skills/p0/many-files/refs/f${(i * 13) % 40}.md`, "x\n"])),
  "skills/p0/many-files/SKILL.md": `---\nname: many-files\ndescription: Files.\n---\n`,
  [`skills/${Array.from({ length: 12 }, (_, i) => `d${i}`).join("/")}/SKILL.md`]: shapes[0],
};
for (const [key, bytes] of Object.entries({ ...many, ...oddities })) {
  mkdirSync(dirname(join(disk, key)), { recursive: true });
  writeFileSync(join(disk, key), bytes);
}
try {
  symlinkSync(join(disk, "nowhere"), join(disk, "skills", "dangling"));
} catch {
  // A file system without links: the rest of the tree stands.
}
const shadow = Object.fromEntries(Object.entries(many).filter(([k]) => k.startsWith("skills/p1/")));
// Plugins that each ship a skill of a common name (setup, tether) in one scope: both are offered,
// the later under a qualified name, with the fields such skills carry (hidden from the model or
// not, a model tier, an argument hint).
const plugin = (name, extra) => `---\nname: ${name}\ndescription: The ${name} step of a plugin.\n${extra}---\n# /plugin:${name}\n\nText.\n`;
const plugins = {
  "skills/alpha-tools/skills/tether/SKILL.md": plugin("tether", `allowed-tools: Bash, Read, Write\nargument-hint: "[install|uninstall] [-y|--yes]"\ndisable-model-invocation: true\n`),
  "skills/alpha-tools/skills/setup/SKILL.md": plugin("setup", `allowed-tools: Bash, Read\nargument-hint: "[check|install]"\nmodel: haiku\ndisable-model-invocation: false\n`),
  "skills/beta-commander/skills/setup/SKILL.md": plugin("setup", `allowed-tools: Bash, Read, Write, Edit\ndisable-model-invocation: false\n`),
  "skills/gamma-tools/skills/tether/SKILL.md": plugin("tether", `allowed-tools: Read, Bash\nargument-hint: "[install|status]"\nmodel: haiku\ndisable-model-invocation: true\n`),
};
const stores = [
  { scopes: [{ name: "project", storage: nodeFsStorage(disk), roots: ["skills/"], trusted: true }] },
  {
    scopes: [
      { name: "project", storage: sw.memoryStorage(many), roots: ["skills/"], trusted: true },
      { name: "user", storage: sw.memoryStorage(shadow), roots: ["skills/"], trusted: true },
    ],
  },
  { scopes: [{ name: "project", storage: nodeFsStorage(EXAMPLES), roots: ["skills/", "extended/", "broken/"], trusted: true }] },
  { scopes: [{ name: "builtin", storage: sw.memoryStorage(plugins), roots: ["skills/"] }] },
  {
    scopes: [
      { name: "project", storage: sw.memoryStorage(memory), roots: ["skills/"], trusted: true },
      { name: "user", storage: sw.memoryStorage({ "skills/s0/SKILL.md": shapes[0] }), roots: ["skills/"] },
      { name: "org", storage: sw.memoryStorage({ "skills/o/SKILL.md": shapes[1] }), roots: ["skills/"], trusted: false },
    ],
  },
];
// The small calls hosts make beside those steps (rest.js lets them run in browsers while the rest
// of the package is loading, so they must not need the cold module).
for (const text of [shapes[0], "no frontmatter\n", "---\nname: x\n"]) sw.frontmatterSpan(text);
for (const dir of ["node_modules", ".git", "src", "skills"]) sw.isSkippedDirectory(dir);
void [sw.version(), sw.skillFileNames(), sw.skillFileNames({ acceptLowercaseSkillMd: true }), sw.estimateTokens("A few words.")];
const ownSession = new sw.SkillSession();

// The shorthand a host writes most: stores by scope name, under the default root (.agents/skills/).
const underDefaultRoot = (files) => Object.fromEntries(Object.entries(files).map(([key, bytes]) => [key.replace(/^skills\//, ".agents/skills/"), bytes]));
stores.push({ user: sw.memoryStorage(underDefaultRoot(shadow)), project: sw.memoryStorage(underDefaultRoot(memory)) });
stores.push({ user: sw.memoryStorage(underDefaultRoot(plugins)) });

// A first visit: nothing stored yet, or files but no skill.
stores.push({ user: sw.memoryStorage({}) }, { user: sw.memoryStorage({ ".agents/notes.md": "not a skill\n" }) });
// A browser's store (IndexedDB, here the fake-indexeddb package in Node): empty, then with skills.
await import("fake-indexeddb/auto");
const browserStore = sw.indexedDbStorage({ dbName: "skillwasm-profile", storeName: "files" });
stores.push({ user: browserStore });
const browserFiles = underDefaultRoot(plugins);

// As a page does it before the rest of the package has arrived (rest.js): then a discovery of
// many skills leaves the search index to the first search (INDEXED_BY_DISCOVERY_FROM), which in
// Node, where the rest is always there, it builds.
const { loadingRest } = await import(pathToFileURL(join(PKG, "rest.js")).href);
let arrive;
loadingRest(new Promise((resolve) => (arrive = resolve)), () => true);
for (const options of stores) {
  const registry = await sw.SkillRegistry.discover(options);
  const names = registry.names();
  registry.listMetas();
  registry.diagnostics();
  registry.stats();
  for (const name of names) registry.get(name);
  registry.get("no-such-skill");
  for (const format of ["xml", "reference", "json", "markdown"]) {
    sw.renderCatalog(registry, { format });
    sw.renderCatalog(registry, { format, includeLocation: true, toolName: "skill_view" });
    sw.renderCatalog(registry, { format, includeLocation: false, toolName: "skill_view", budgetTokens: 120 });
    sw.renderCatalog(registry, { format, budgetChars: 300 });
    sw.renderCatalog(registry, { format, budgetTokens: 80 });
  }
  const tool = new sw.SkillTool(registry);
  new sw.SkillTool(registry, { toolName: "skill_view" }).definition();
  tool.definition();
  tool.catalog();
  for (const name of names) {
    await tool.execute({ name });
    await tool.execute({ name });
    await tool.executeCall("skill", JSON.stringify({ name, force: true }));
    await tool.execute({ name, path: "references/guide.md" });
    await registry.readFile(name);
    await registry.readFile(name, "references/guide.md");
    // A path that leaves the skill's directory is refused, as a model's mistake often is.
    await registry.readFile(name, "../../x");
    await tool.execute({ name, path: "../../x" });
  }
  await tool.execute({ name: "no-such-skill" });
  await tool.executeCall("skill", "{not json");
  tool.session.activations();
  // A session of the host's own, kept across tools (as a host that rebuilds its tool after a refresh).
  tool.setSession(ownSession);
  if (names.length > 0) await tool.execute({ name: names[0] });
  ownSession.activations();
  ownSession.clear();
}
arrive();
await sw.ready();

await sw.putSkillFiles(browserStore, browserFiles);
{
  const registry = await sw.SkillRegistry.discover({ user: browserStore });
  sw.renderCatalog(registry, { budgetTokens: 2000 });
  const tool = new sw.SkillTool(registry, { toolName: "skill_view" });
  for (const name of registry.names()) await tool.execute({ name });
}

// The vetting fixtures: discovery vets each description, and the skill tool each text it serves,
// so every check runs (serving the corpus finds most of them).
const vetted = await sw.SkillRegistry.discover({
  scopes: [{ name: "project", storage: nodeFsStorage(join(REPO, "tests/fixtures/vet")), roots: ["malicious/", "benign/"], trusted: true }],
});
vetted.listMetasAcross();
vetted.diagnostics();
const vetTool = new sw.SkillTool(vetted);
for (const name of vetted.names()) await vetTool.execute({ name });
vetted.free();

const size = core.__write_profile(0, 0);
const at = core.__wbindgen_malloc(size, 1);
const written = core.__write_profile(at, size);
writeFileSync(profileOut, new Uint8Array(core.memory.buffer, at, written));
console.log(`profile: ${written} bytes`);
