// Fields and substitutions other clients use, through the built package, over a memory store and a
// real directory (nodeFsStorage): the skill directory placeholders, !`command` lines handed to the
// host's `commands` runner (none, a good one, one that throws, rejects, answers with no string,
// answers too much or never answers; the second module that finds them failing), context: fork
// plans with resources, and per-agent scoping across the catalog, the tool's enum, search, /name
// and subagents. The table is tests/cases/fields.json, also read by tests/fields.rs.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importPkg, PKG, ROOT } from "./helpers.mjs";

const { SkillRegistry, SkillTool, renderCatalog, memoryStorage, nodeFsStorage } = await importPkg();
// The package's own module instances (the same URLs node.js imports): the core asks the second
// module where a body's commands are.
const { setCommandFinder } = await import(pathToFileURL(path.join(PKG, "boundary.js")).href);
const { extra } = await import(pathToFileURL(path.join(PKG, "extra.js")).href);
const table = JSON.parse(readFileSync(path.join(ROOT, "tests", "cases", "fields.json"), "utf8"));
const files = Object.fromEntries(Object.entries(table.files).map(([k, v]) => [`.agents/skills/${k}`, v]));

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "skillwasm-fields-")));
for (const [key, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
  writeFileSync(path.join(root, key), text);
}
after(() => rmSync(root, { recursive: true, force: true }));

const stores = {
  memory: () => ({ storage: memoryStorage(files), dir: (name) => `memory:/.agents/skills/${name}` }),
  "a real directory": () => ({ storage: nodeFsStorage(root), dir: (name) => path.join(root, ".agents", "skills", name) }),
};

const discover = (storage, options = {}) => SkillRegistry.discover({ project: storage, trustProject: true, ...options });
const activate = (tool, name) => tool.execute({ name, force: true });

for (const [label, make] of Object.entries(stores)) {
  test(`the skill directory placeholders resolve where bodies are served (${label})`, async () => {
    const { storage, dir } = make();
    const tool = new SkillTool(await discover(storage));
    const want = table.resolved.map((l) => l.replaceAll("<DIR>", dir("dirs")));
    const served = {
      tool: (await activate(tool, "dirs")).content,
      "/name": (await tool.invoke("/dirs", { force: true })).injected[0].content,
      subagent: await tool.subagentPrompt("dirs", "run it"),
      plan: (await tool.subagentPlan("dirs", "run it")).prompt,
    };
    for (const [where, content] of Object.entries(served)) {
      for (const line of want) assert.ok(content.includes(line), `${where}: ${line}\n${content}`);
    }
    // The resolved path reads through the tool, as the relative path it names.
    const read = await tool.execute({ name: "dirs", path: `${dir("dirs")}/scripts/run.sh` });
    assert.equal(read.isError, false, read.content);
    assert.equal(read.content, "echo run\n");
    assert.equal(read.path, "scripts/run.sh");
  });

  test(`!\`command\` lines: as written without a runner, the host's answers with one (${label})`, async () => {
    const { storage, dir } = make();
    const plain = await activate(new SkillTool(await discover(storage)), "dirs");
    for (const line of table.asWritten) assert.ok(plain.content.includes(line), line);
    assert.equal(plain.diagnostics, undefined);
    const seen = [];
    const commands = async (request) => {
      seen.push(request);
      return `[${request.command} @ ${request.skill}]\n`;
    };
    const tool = new SkillTool(await discover(storage, { commands }));
    const ran = await activate(tool, "dirs");
    for (const line of table.ran) assert.ok(ran.content.includes(line), `${line}\n${ran.content}`);
    assert.deepEqual(seen.map((r) => r.command), table.commands);
    assert.deepEqual([...new Set(seen.map((r) => `${r.skill} ${r.dir}`))], [`dirs ${dir("dirs")}`]);
    assert.ok((await tool.invoke("/dirs", { force: true })).injected[0].content.includes(table.ran[0]));
  });
}

test("a runner that throws, rejects, answers with no string, too much or never is contained", async () => {
  const body = "A !`throw` B !`reject` C !`number` D !`huge` E !`never` F !`sync` G";
  const storage = memoryStorage({ ".agents/skills/cmds/SKILL.md": `---\nname: cmds\ndescription: Commands.\n---\n${body}\n` });
  const commands = ({ command }) => {
    if (command === "throw") throw new TypeError("no shell");
    if (command === "reject") return Promise.reject(new Error("denied"));
    if (command === "number") return Promise.resolve(42);
    if (command === "huge") return "z".repeat(10 << 20);
    if (command === "never") return new Promise(() => {});
    return "synchronous";
  };
  const registry = await discover(storage, { commands, timeoutMs: 200 });
  const tool = new SkillTool(registry);
  const r = await activate(tool, "cmds");
  assert.equal(r.isError, false);
  assert.match(r.content, /A \[command failed: threw: .*no shell.*\] B/);
  assert.match(r.content, /B \[command failed: rejected: .*denied.*\] C/);
  assert.match(r.content, /C \[command failed: answered with a number instead of a string\] D/);
  assert.match(r.content, /\n\[output cut at 65536 characters\] E/);
  assert.match(r.content, /E \[command failed: no answer within 200 ms\] F/);
  assert.match(r.content, /F synchronous G/);
  assert.ok(r.content.length < 70_000, `${r.content.length} characters`);
  assert.deepEqual(r.diagnostics.map((d) => d.code), Array(4).fill("command-failed"));
  // The registry and the tool still work.
  assert.deepEqual(registry.names(), ["cmds"]);
  assert.equal((await tool.invoke("/cmds")).injected.length, 1);
  await assert.rejects(() => discover(storage, { commands: "echo" }), (e) => e instanceof TypeError && /commands/.test(e.message));
});

test("context: fork with agent: the activation says so and subagentPlan lists the resources", async () => {
  const { storage, dir } = stores["a real directory"]();
  const tool = new SkillTool(await discover(storage));
  const { name, agent, resources } = table.fork;
  const plan = await tool.subagentPlan(name, "Why is the build slow?");
  assert.equal(plan.name, name);
  assert.equal(plan.context, "fork");
  assert.equal(plan.agent, agent);
  assert.equal(plan.directory, dir(name));
  assert.deepEqual(plan.resources, resources);
  assert.equal(plan.resourcesComplete, true);
  assert.ok(plan.prompt.includes("<task>\nWhy is the build slow?\n</task>"));
  assert.ok(plan.prompt.includes(`${resources.join("\n")}\n</skill_resources>`));
  assert.equal(await tool.subagentPlan("nope", "x"), null);
  assert.deepEqual(tool.session.activations(), [], "a plan loads nothing in this conversation");
  const r = await activate(tool, name);
  assert.deepEqual(r.fork, { agent });
  assert.match(r.content, /meant to run in a subagent \(agent: Explore\)/);
  assert.equal((await activate(tool, "dirs")).fork, undefined);
  assert.deepEqual((await tool.invoke(`/${name}`)).injected[0].fork, { agent });
});

test("per-agent scoping: the catalog, the enum, search, /name and subagents follow one filter", async () => {
  const storage = memoryStorage(files);
  for (const [agent, want] of Object.entries(table.agents)) {
    const registry = await discover(storage, agent ? { agent } : {});
    const tool = new SkillTool(registry);
    assert.deepEqual([...renderCatalog(registry).skills].sort(), want, `${agent}: catalog`);
    assert.deepEqual([...tool.definition().inputSchema.properties.name.enum].sort(), want, `${agent}: enum`);
    for (const name of table.agents[""]) {
      const offered = want.includes(name);
      assert.equal((await activate(tool, name)).isError, !offered, `${agent}: tool ${name}`);
      assert.equal((await tool.invoke(`/${name}`)).injected.length, offered ? 1 : 0, `${agent}: /${name}`);
      assert.equal((await tool.subagentPlan(name, "x")) !== null, offered, `${agent}: subagent ${name}`);
      assert.equal(registry.search(name).some((h) => h.name === name), offered, `${agent}: search ${name}`);
    }
    for (const h of renderCatalog(registry).hidden) assert.equal(h.reason, "agent");
  }
  // One registry, a tool per agent.
  const registry = await discover(storage);
  const reviewer = new SkillTool(registry, { agent: "reviewer" });
  assert.deepEqual([...reviewer.catalog().skills].sort(), table.agents.reviewer);
  assert.deepEqual([...renderCatalog(registry, { agent: "planner" }).skills].sort(), table.agents.planner);
  assert.equal(renderCatalog(registry).skills.length, table.agents[""].length);
});

test("commands the second module cannot find stay as written, with a warning; the rest is served", async () => {
  const body = "Branch: !`git branch` and !`date`";
  const storage = memoryStorage({ ".agents/skills/cmds/SKILL.md": `---\nname: cmds\ndescription: Commands.\n---\n${body}\n` });
  const seen = [];
  const commands = ({ command }) => {
    seen.push(command);
    return `<${command}>`;
  };
  const tool = new SkillTool(await discover(storage, { commands }));
  const real = (text) => extra.__sw_findCommands(text);
  const spans = Array.from(real(body));
  assert.equal(spans.length, 9, "their number, then four numbers for each of the two");
  const broken = {
    throws: () => {
      throw new Error("the second module is gone");
    },
    "answers a number": () => 42,
    "answers a plain array": () => [...spans],
    "answers more numbers than the body has room for": () => new Uint32Array(body.length + 2),
    "answers nothing": () => new Uint32Array(0),
    "answers spans cut short": () => new Uint32Array(spans.slice(0, 8)),
    "answers a span past the body": () => new Uint32Array([1, 0, 10_000, 1, 2]),
    "answers spans out of order": () => new Uint32Array([2, ...spans.slice(5), ...spans.slice(1, 5)]),
  };
  try {
    for (const [what, finder] of Object.entries(broken)) {
      setCommandFinder(finder);
      const r = await activate(tool, "cmds");
      assert.equal(r.isError, false, what);
      assert.ok(r.content.includes(body), `${what}: ${r.content}`);
      assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity]), [["command-failed", "warning"]], what);
      assert.match(r.diagnostics[0].message, /could not be found/, what);
    }
    assert.deepEqual(seen, [], "no command ran");
    // An answer whose own `length` lies is copied by its real one: the spans are used as they are.
    setCommandFinder((text) => {
      const a = real(text);
      Object.defineProperty(a, "length", { value: 2 ** 30 });
      return a;
    });
    const lied = await activate(tool, "cmds");
    assert.ok(lied.content.includes("Branch: <git branch> and <date>"), lied.content);
    assert.deepEqual(seen.splice(0), ["git branch", "date"]);
  } finally {
    setCommandFinder(real);
  }
  const r = await activate(tool, "cmds");
  assert.ok(r.content.includes("Branch: <git branch> and <date>"), r.content);
  assert.deepEqual(seen, ["git branch", "date"]);
});
