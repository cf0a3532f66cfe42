// The pinning commands as a user runs them, in bash, in real directories: `add` from a directory,
// a git repository (the git binary), a tar.gz and a zip made by the system's tools, a discovery
// index served on 127.0.0.1 and an MCP server of the official SDK (Streamable HTTP on 127.0.0.1,
// and a command over stdio) each pins the same digest for the same skill; `verify` accepts the
// lockfile and a one-byte change breaks it; `install --frozen` restores the project in a fresh
// directory and fails when a source no longer gives what was pinned; `update` shows what changed;
// `--scope user` does the same in the user's home (HOME, a temporary directory here).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { PKG, ROOT, importPkg } from "./helpers.mjs";
import { SKILL, STDIO_SERVER, lockOf, quote, sw, swWith, writeTree } from "./support/cli-lock.mjs";
import { serveHttp } from "./support/mcp-http.mjs";
import { routesOf, serve } from "./support/well-known-server.mjs";

const { SkillRegistry, nodeFsStorage, publishWellKnown } = await importPkg();
const { skillsMcpHandler } = await import(pathToFileURL(path.join(PKG, "mcp-server.js")).href);

test("add pins one digest from every source; verify holds it; a one-byte change breaks it", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-lock-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const src = path.join(tmp, "src", "csv-profile");
  writeTree(src, SKILL);
  // A git repository holding the skill in a folder.
  const repo = path.join(tmp, "repo");
  writeTree(path.join(repo, "skills", "csv-profile"), SKILL);
  const git = (...a) => execFileSync("git", ["-C", repo, ...a], { encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "skills");
  const commit = git("rev-parse", "HEAD").trim();
  // Archives by the system's tools.
  execFileSync("tar", ["-czf", path.join(tmp, "csv.tar.gz"), "-C", src, "."]);
  execFileSync("python3", ["-c", "import sys,zipfile,os\nz=zipfile.ZipFile(sys.argv[1],'w')\nfor r,_,fs in os.walk(sys.argv[2]):\n  for f in fs:\n    p=os.path.join(r,f); z.write(p, os.path.relpath(p, sys.argv[2]))\nz.close()", path.join(tmp, "csv.zip"), src]);
  // A discovery index of the skill on 127.0.0.1.
  const published = await publishWellKnown(await SkillRegistry.discover({ scopes: [{ name: "s", storage: nodeFsStorage(path.join(tmp, "src")), roots: [""], trusted: true }] }));
  const server = await serve(routesOf(published));
  t.after(() => server.close());

  const sources = [
    ["directory", [src], { type: "directory" }],
    ["git", [repo, "--path", "skills/csv-profile"], { type: "git", commit, path: "skills/csv-profile" }],
    ["tar.gz", [path.join(tmp, "csv.tar.gz")], { type: "archive" }],
    ["zip", [path.join(tmp, "csv.zip")], { type: "archive" }],
    ["discovery index", [server.url, "--name", "csv-profile"], { type: "discovery", url: server.url, name: "csv-profile" }],
  ];
  const digests = new Set();
  for (const [label, args, want] of sources) {
    const project = path.join(tmp, `project-${label.replace(/\W/g, "-")}`);
    mkdirSync(project);
    const added = await sw(project, "add", ...args, "--json");
    assert.equal(added.status, 0, `${label}: ${added.stderr}`);
    const entry = JSON.parse(added.stdout);
    assert.equal(entry.name, "csv-profile");
    assert.equal(entry.location, ".agents/skills/csv-profile");
    for (const [k, v] of Object.entries(want)) assert.equal(entry.source[k], v, `${label}: source.${k}`);
    assert.deepEqual(lockOf(project).skills, [entry]);
    assert.equal(readFileSync(path.join(project, ".agents/skills/csv-profile/scripts/profile.sh"), "utf8"), SKILL["scripts/profile.sh"]);
    digests.add(entry.digest);

    const ok = await sw(project, "verify");
    assert.equal(ok.status, 0, `${label}: ${ok.stdout}${ok.stderr}`);
    assert.match(ok.stdout, /1 pinned skill, no drift/);
    // One byte.
    const file = path.join(project, ".agents/skills/csv-profile/references/types.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("int", "Int"));
    const drift = await sw(project, "verify", "--json");
    assert.equal(drift.status, 1, label);
    const report = JSON.parse(drift.stdout);
    assert.equal(report.ok, false);
    assert.deepEqual(report.drift.map((d) => d.code), ["skill-pin-mismatch"]);
    assert.ok(report.drift[0].message.includes(entry.digest), report.drift[0].message);
  }
  assert.equal(digests.size, 1, `one digest from every source: ${[...digests]}`);
});

test("install --frozen restores a project in a fresh directory, and fails on any difference; update shows what changed", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-install-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const repo = path.join(tmp, "repo");
  writeTree(path.join(repo, "csv-profile"), SKILL);
  const git = (...a) => execFileSync("git", ["-C", repo, ...a], { encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "one");
  const project = path.join(tmp, "project");
  writeTree(path.join(project, "vendor", "notes"), { "SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\n" });
  assert.equal((await sw(project, "add", repo, "--path", "csv-profile")).status, 0);
  assert.equal((await sw(project, "add", "vendor/notes")).status, 0);
  const lock = lockOf(project);
  assert.deepEqual(lock.skills.map((e) => [e.name, e.source.type, e.source.path]), [["csv-profile", "git", "csv-profile"], ["notes", "directory", "vendor/notes"]]);

  // A fresh checkout of the project: the lockfile and the vendored folder, no .agents.
  const fresh = path.join(tmp, "fresh");
  mkdirSync(fresh);
  cpSync(path.join(project, "skills-lock.json"), path.join(fresh, "skills-lock.json"));
  cpSync(path.join(project, "vendor"), path.join(fresh, "vendor"), { recursive: true });
  // The repository moves on: a frozen install still takes the pinned commit.
  writeFileSync(path.join(repo, "csv-profile/references/types.md"), "# Types\n\nchanged upstream\n");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "two");
  const installed = await sw(fresh, "install", "--frozen", "--progress");
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  assert.match(installed.stdout, /installed csv-profile \(3 files\)/);
  // Its steps on stderr (a line each off a terminal), the results on stdout.
  assert.match(installed.stderr, /^\[1\/2\] csv-profile: fetching\n\[2\/2\] notes: fetching\n/m);
  assert.doesNotMatch(installed.stdout, /fetching/);
  assert.equal(readFileSync(path.join(fresh, ".agents/skills/csv-profile/references/types.md"), "utf8"), SKILL["references/types.md"]);
  assert.equal((await sw(fresh, "verify")).status, 0);

  // A source that no longer gives what was pinned fails the frozen install, naming both digests.
  writeFileSync(path.join(fresh, "vendor/notes/SKILL.md"), "---\nname: notes\ndescription: Take notes!\n---\n");
  const refused = await sw(fresh, "install", "--frozen");
  assert.equal(refused.status, 1);
  assert.match(refused.stdout, /failed notes: its source now gives sha256:[0-9a-f]{64}, not sha256:/);
  assert.equal((await sw(fresh, "install")).status, 2, "install without --frozen is a usage error");

  // update: the changed file is listed, then written and pinned.
  const dry = await sw(project, "update", "csv-profile", "--dry-run");
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /csv-profile: sha256:\w+ -> sha256:\w+ \(not written: --dry-run\)\n {2}~ references\/types\.md/);
  assert.deepEqual(lockOf(project), lock, "a dry run writes nothing");
  const updated = await sw(project, "update", "csv-profile", "--json");
  const report = JSON.parse(updated.stdout).skills[0];
  assert.deepEqual([report.added, report.removed, report.changed], [[], [], ["references/types.md"]]);
  const after = lockOf(project).skills.find((e) => e.name === "csv-profile");
  assert.equal(after.digest, report.to);
  assert.notEqual(after.source.commit, lock.skills[0].source.commit, "the new commit is pinned");
  assert.equal((await sw(project, "verify")).status, 0);

  // remove drops the files and the pin.
  assert.equal((await sw(project, "remove", "notes")).status, 0);
  assert.ok(!existsSync(path.join(project, ".agents/skills/notes")));
  assert.deepEqual(lockOf(project).skills.map((e) => e.name), ["csv-profile"]);
  // A skill put there by hand is drift until it is pinned.
  writeTree(path.join(project, ".agents/skills/stray"), { "SKILL.md": "---\nname: stray\ndescription: Unpinned.\n---\n" });
  const stray = await sw(project, "verify");
  assert.equal(stray.status, 1);
  assert.match(stray.stdout, /warning: skill-unpinned: skill 'stray' of project is not pinned/);
  assert.equal((await sw(project, "lock")).status, 0);
  assert.equal((await sw(project, "verify")).status, 0);
});

test("add vets a skill before it writes anything: a finding at or above --severity refuses it unless --allow-findings", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-vet-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const stealer = path.join(ROOT, "tests", "fixtures", "vet", "malicious", "exfiltration", "ssh-key-stealer");
  const refused = await sw(tmp, "add", stealer);
  assert.equal(refused.status, 1, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /high: vet-exfiltration: /);
  assert.match(refused.stderr, /is not added: the skill is refused by the host.s vetting policy \(vet: refuse, vetSeverity: high\): vet-/);
  assert.ok(!existsSync(path.join(tmp, ".agents")) && !existsSync(path.join(tmp, "skills-lock.json")), "nothing written");
  const allowed = await sw(tmp, "add", stealer, "--allow-findings", "--json");
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.match(allowed.stderr, /vet-exfiltration/, "the findings are still listed");
  assert.equal(lockOf(tmp).skills.length, 1);
  assert.equal((await sw(tmp, "add", stealer, "--severity", "extreme")).status, 2);
});

const digestOfDir = async (dir) => {
  const registry = await SkillRegistry.discover({ scopes: [{ name: "s", storage: nodeFsStorage(dir), roots: [""], trusted: true }] });
  return (await registry.contentDigest("csv-profile")).digest;
};

test("add from an MCP server over Streamable HTTP and over stdio: verify holds the pin, a byte breaks it, install --frozen restores it from the server", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-mcp-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const served = path.join(tmp, "served");
  writeTree(path.join(served, "csv-profile"), SKILL);
  writeTree(path.join(served, "notes"), { "SKILL.md": "---\nname: notes\ndescription: Take notes.\n---\n" });
  const want = await digestOfDir(served);
  const registry = await SkillRegistry.discover({ scopes: [{ name: "served", storage: nodeFsStorage(served), roots: [""], trusted: true }] });
  const http = await serveHttp(skillsMcpHandler(registry));
  t.after(() => http.close());
  const stdio = `mcp+stdio:${quote(process.execPath)} ${quote(STDIO_SERVER)} ${quote(served)}`;

  const sources = [
    ["Streamable HTTP", `mcp+${http.url}`, [], new URL(http.url).host],
    ["stdio", stdio, ["--server", "local-skills"], "local-skills"],
  ];
  for (const [label, spec, extra, server] of sources) {
    const project = path.join(tmp, `project-${label.replace(/\W/g, "-")}`);
    mkdirSync(project);
    const added = await sw(project, "add", spec, "--name", "csv-profile", ...extra, "--json");
    assert.equal(added.status, 0, `${label}: ${added.stderr}`);
    const entry = JSON.parse(added.stdout);
    assert.deepEqual(entry.source, { type: "mcp", server, uri: "skill://csv-profile/SKILL.md", connection: spec }, label);
    assert.equal(entry.digest, want, `${label}: the digest of the same skill read from its directory`);
    assert.deepEqual(lockOf(project).skills, [entry]);
    assert.equal(readFileSync(path.join(project, ".agents/skills/csv-profile/scripts/profile.sh"), "utf8"), SKILL["scripts/profile.sh"]);
    assert.ok(added.ms < 30_000, `${label}: the CLI exits once the skill is added (${added.ms} ms)`);

    assert.equal((await sw(project, "verify")).status, 0, label);
    const file = path.join(project, ".agents/skills/csv-profile/references/types.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("int", "Int"));
    const drift = await sw(project, "verify", "--json");
    assert.equal(drift.status, 1, label);
    assert.deepEqual(JSON.parse(drift.stdout).drift.map((d) => d.code), ["skill-pin-mismatch"], label);

    // A fresh checkout holds the lockfile alone: the skill comes back from the server.
    const fresh = path.join(tmp, `fresh-${label.replace(/\W/g, "-")}`);
    mkdirSync(fresh);
    cpSync(path.join(project, "skills-lock.json"), path.join(fresh, "skills-lock.json"));
    // A lockfile's stdio command runs only when the user says so.
    const installed = await sw(fresh, "install", "--frozen", ...(label === "stdio" ? ["--allow-stdio"] : []));
    assert.equal(installed.status, 0, `${label}: ${installed.stdout}${installed.stderr}`);
    assert.match(installed.stdout, /installed csv-profile \(3 files\)/);
    assert.equal(readFileSync(path.join(fresh, ".agents/skills/csv-profile/references/types.md"), "utf8"), SKILL["references/types.md"]);
    assert.equal((await sw(fresh, "verify")).status, 0, label);
  }

  // The server's skill changes: a frozen install refuses it, update shows and pins it.
  const project = path.join(tmp, "project-stdio");
  writeFileSync(path.join(served, "csv-profile/references/types.md"), "# Types\n\nchanged on the server\n");
  const refused = await sw(project, "install", "--frozen", "--allow-stdio");
  assert.equal(refused.status, 1);
  assert.match(refused.stdout, /failed csv-profile: its source now gives sha256:[0-9a-f]{64}, not sha256:/);
  const updated = await sw(project, "update", "csv-profile", "--json", "--allow-stdio");
  assert.equal(updated.status, 0, updated.stderr);
  assert.deepEqual(JSON.parse(updated.stdout).skills[0].changed, ["references/types.md"]);
  assert.equal(lockOf(project).skills[0].source.connection, stdio, "the connection is kept");
  assert.equal((await sw(project, "verify")).status, 0);

  // An entry a host wrote without a connection is checked, but the CLI cannot fetch it again.
  const hostWritten = path.join(tmp, "host-written");
  mkdirSync(hostWritten);
  const lock = lockOf(project);
  delete lock.skills[0].source.connection;
  writeFileSync(path.join(hostWritten, "skills-lock.json"), JSON.stringify(lock));
  const unreachable = await sw(hostWritten, "install", "--frozen");
  assert.equal(unreachable.status, 1);
  assert.match(unreachable.stdout, /failed csv-profile: the MCP source skill:\/\/csv-profile\/SKILL\.md records no connection/);

  // What is not served, and what is not an MCP source's.
  const missing = await sw(project, "add", `mcp+${http.url}`, "--name", "no-such-skill");
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /has no skill 'no-such-skill' \(it lists csv-profile, notes\)/);
  assert.equal((await sw(project, "add", `mcp+${http.url}`)).status, 1, "an MCP source needs --name");
  assert.equal((await sw(project, "add", `mcp+${http.url}`, "--name", "notes", "--path", "x")).status, 2);
  assert.equal((await sw(project, "add", served, "--server", "x")).status, 2, "--server goes with an MCP source");
  const down = await sw(project, "add", "mcp+stdio:false", "--name", "notes");
  assert.equal(down.status, 1);
  assert.match(down.stderr, /mcp\+stdio:false: connecting failed/);
});

test("--scope user: add into $HOME/.agents/skills pinned in $HOME/.agents/skills-lock.json, verify, remove", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-user-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const home = path.join(tmp, "home");
  const cwd = path.join(tmp, "work");
  mkdirSync(home);
  mkdirSync(cwd);
  writeTree(path.join(tmp, "src", "csv-profile"), SKILL);
  const user = (...args) => swWith({ HOME: home }, cwd, ...args, "--scope", "user");
  const userLock = () => JSON.parse(readFileSync(path.join(home, ".agents/skills-lock.json"), "utf8"));

  const added = await user("add", path.join(tmp, "src", "csv-profile"), "--json");
  assert.equal(added.status, 0, added.stderr);
  const entry = JSON.parse(added.stdout);
  assert.deepEqual([entry.name, entry.scope, entry.location], ["csv-profile", "user", ".agents/skills/csv-profile"]);
  assert.equal(entry.digest, await digestOfDir(path.join(tmp, "src")));
  assert.deepEqual(userLock().skills, [entry]);
  assert.equal(readFileSync(path.join(home, ".agents/skills/csv-profile/SKILL.md"), "utf8"), SKILL["SKILL.md"]);
  assert.ok(!existsSync(path.join(cwd, "skills-lock.json")) && !existsSync(path.join(cwd, ".agents")), "the project is left alone");

  const ok = await user("verify");
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /1 pinned skill, no drift/);
  const file = path.join(home, ".agents/skills/csv-profile/references/types.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("int", "Int"));
  const drift = await user("verify");
  assert.equal(drift.status, 1);
  assert.match(drift.stdout, new RegExp(`${home.replaceAll("/", "\\/")}/\\.agents/skills/csv-profile/SKILL\\.md: error: skill-pin-mismatch: skill 'csv-profile' of user is refused`));
  const restored = await user("install", "--frozen");
  assert.equal(restored.status, 0, restored.stdout + restored.stderr);
  assert.equal(readFileSync(file, "utf8"), SKILL["references/types.md"]);

  const removed = await user("remove", "csv-profile");
  assert.equal(removed.status, 0, removed.stderr);
  assert.ok(!existsSync(path.join(home, ".agents/skills/csv-profile")));
  assert.deepEqual(userLock().skills, []);
  assert.equal((await user("verify")).status, 0);

  assert.equal((await swWith({ HOME: home }, cwd, "verify", "--scope", "org")).status, 2, "another scope is a usage error");
  assert.equal((await user("verify", cwd)).status, 2, "the user scope takes no directory");
});

test("--client: add into the client's own .<client>/skills, which verify with the same client reads", async (t) => {
  const tmp = mkdtempSync(path.join(tmpdir(), "skillwasm-cli-client-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const project = path.join(tmp, "project");
  mkdirSync(project);
  writeTree(path.join(tmp, "src", "csv-profile"), SKILL);
  const added = await sw(project, "add", path.join(tmp, "src", "csv-profile"), "--client", "claude", "--json");
  assert.equal(added.status, 0, added.stderr);
  assert.equal(JSON.parse(added.stdout).location, ".claude/skills/csv-profile");
  assert.equal(readFileSync(path.join(project, ".claude/skills/csv-profile/SKILL.md"), "utf8"), SKILL["SKILL.md"]);
  assert.ok(!existsSync(path.join(project, ".agents")));
  const ok = await sw(project, "verify", "--client", "claude");
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  // Without the client, discovery does not read .claude/skills: the pin is missing.
  const missing = await sw(project, "verify");
  assert.equal(missing.status, 1);
  assert.match(missing.stdout, /skill-pin-missing/);
  assert.equal((await sw(project, "verify", "--client", "../etc")).status, 2, "a client is a name");
});

test("each pinning command's synopsis names every option it takes", async () => {
  for (const command of ["add", "remove", "lock", "verify", "install", "update"]) {
    const unknown = await sw(ROOT, command, "--no-such-option");
    assert.equal(unknown.status, 2, command);
    const taken = /\(options: ([^)]*)\)/.exec(unknown.stderr)?.[1].split(", ");
    assert.ok(taken && taken.length > 0, unknown.stderr);
    const help = await sw(ROOT, command, "--help");
    assert.equal(help.status, 0, command);
    const synopsis = help.stdout.split("\n")[0];
    assert.match(synopsis, new RegExp(`^Usage: skillwasm ${command} `));
    for (const option of taken) assert.ok(synopsis.includes(`[${option}`) || synopsis.includes(` ${option}`), `${command}: ${option} in ${synopsis}`);
  }
});
