// What a lockfile may make the pinning commands do, run in bash against real directories and
// servers on 127.0.0.1 and over stdio: a lockfile comes with the project, so its `mcp+stdio:`
// command runs only with --allow-stdio (named quoted, control characters visible, with the
// environment the SDK gives a server, not the CLI's); an entry's location is where `add` would
// put it or nothing is replaced or deleted; a server URL that would write a secret into the
// lockfile is refused.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { SKILL, STDIO_SERVER, lockOf, quote, sw, swWith, writeTree } from "./support/cli-lock.mjs";

/** A temporary directory removed after the test. */
function tempDir(t, label) {
  const dir = mkdtempSync(path.join(tmpdir(), `skillwasm-cli-safety-${label}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A stdio server that first writes the environment it was given to `<envFile>`, then serves the
 * skills of `<dir>`: `node probe.mjs <dir> <envFile> [ignored words...]`.
 */
function probeScript(dir) {
  const probe = path.join(dir, "probe.mjs");
  writeFileSync(probe, [
    'import { writeFileSync } from "node:fs";',
    "writeFileSync(process.argv[3], JSON.stringify(process.env));",
    `await import(${JSON.stringify(pathToFileURL(STDIO_SERVER).href)});`,
  ].join("\n"));
  return probe;
}

test("a lockfile's stdio command runs only with --allow-stdio, named quoted on stderr, without the CLI's environment", async (t) => {
  const tmp = tempDir(t, "stdio");
  const served = path.join(tmp, "served");
  writeTree(path.join(served, "csv-profile"), SKILL);
  const envFile = path.join(tmp, "env.json");
  const probe = probeScript(tmp);
  const spec = `mcp+stdio:${quote(process.execPath)} ${quote(probe)} ${quote(served)} ${quote(envFile)}`;
  const secret = { SKILLWASM_TEST_SECRET: "do-not-pass-me" };

  // add runs the command the user typed: no flag, the notice on stderr, the SDK's environment.
  const project = path.join(tmp, "project");
  mkdirSync(project);
  const added = await swWith(secret, project, "add", spec, "--name", "csv-profile");
  assert.equal(added.status, 0, added.stderr);
  const words = [process.execPath, probe, served, envFile];
  assert.ok(added.stderr.includes(`skillwasm: running the MCP server ${JSON.stringify(words)} in ${project}\n`), added.stderr);
  assert.ok(!added.stdout.includes("running the MCP server"), "the notice is on stderr only");
  const env = JSON.parse(readFileSync(envFile, "utf8"));
  assert.equal(env.SKILLWASM_TEST_SECRET, undefined, "the CLI's environment is not passed on");
  assert.equal(env.PATH, process.env.PATH, "the SDK's default environment is");

  // A lockfile whose command hides a word behind an escape sequence and a carriage return.
  const lock = lockOf(project);
  const hidden = "\u001b[2K\rlooks-harmless";
  lock.skills[0].source.connection = `${spec} '${hidden}'`;
  const fresh = path.join(tmp, "fresh");
  mkdirSync(fresh);
  writeFileSync(path.join(fresh, "skills-lock.json"), JSON.stringify(lock));
  const quoted = JSON.stringify([...words, hidden]);
  assert.ok(quoted.includes("\\u001b[2K\\rlooks-harmless"));
  for (const command of [["install", "--frozen"], ["update"]]) {
    rmSync(envFile, { force: true });
    const refused = await swWith(secret, fresh, ...command);
    assert.equal(refused.status, 1, `${command[0]}: ${refused.stdout}${refused.stderr}`);
    assert.ok(refused.stderr.includes(quoted), refused.stderr);
    assert.match(refused.stderr, /--allow-stdio/);
    assert.ok(!/[\u001b\r]/.test(refused.stderr), "no control character reaches the terminal");
    assert.ok(!existsSync(envFile), `${command[0]}: the command did not run`);
    assert.ok(!existsSync(path.join(fresh, ".agents")), `${command[0]}: nothing written`);
  }
  const installed = await swWith(secret, fresh, "install", "--frozen", "--allow-stdio");
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  assert.ok(installed.stderr.includes(`skillwasm: running the MCP server ${quoted} in ${fresh}\n`), installed.stderr);
  assert.ok(!/[\u001b\r]/.test(installed.stderr), "no control character reaches the terminal");
  assert.equal(JSON.parse(readFileSync(envFile, "utf8")).SKILLWASM_TEST_SECRET, undefined);
  assert.equal(readFileSync(path.join(fresh, ".agents/skills/csv-profile/SKILL.md"), "utf8"), SKILL["SKILL.md"]);
  const updated = await swWith(secret, fresh, "update", "--allow-stdio", "--json");
  assert.equal(updated.status, 0, updated.stderr);
  assert.ok(updated.stderr.includes(quoted), updated.stderr);
});

test("a server URL with a user or password, or a query string, is refused: the lockfile would keep it", async (t) => {
  const tmp = tempDir(t, "url");
  for (const [url, said] of [
    ["mcp+http://user:pass@127.0.0.1:9/mcp", /127\.0\.0\.1:9: a user or password in the URL would be written to the lockfile; give the server without them/],
    ["mcp+https://skills.example.com/mcp?api_key=s3cret", /skills\.example\.com: a query string in the URL \(14 characters\) would be written to the lockfile; give the server without it/],
    ["mcp+https://skills.example.com/mcp?x", /a query string in the URL/],
  ]) {
    const refused = await sw(tmp, "add", url, "--name", "csv-profile");
    assert.equal(refused.status, 1, `${url}: ${refused.stderr}`);
    assert.match(refused.stderr, said);
    assert.ok(!refused.stderr.includes("s3cret") && !refused.stderr.includes("pass@"), "the secret is not repeated");
    assert.ok(!existsSync(path.join(tmp, "skills-lock.json")), "nothing written");
  }
  // A lockfile written by hand with such a URL is refused too, before anything is fetched.
  writeFileSync(path.join(tmp, "skills-lock.json"), JSON.stringify({
    lockfileVersion: 1,
    skills: [{
      name: "csv-profile", scope: "project", location: ".agents/skills/csv-profile", digest: `sha256:${"0".repeat(64)}`,
      source: { type: "mcp", server: "x", uri: "skill://csv-profile/SKILL.md", connection: "mcp+http://127.0.0.1:9/mcp?token=s3cret" },
    }],
  }));
  const install = await sw(tmp, "install", "--frozen");
  assert.equal(install.status, 1);
  assert.match(install.stdout, /failed csv-profile: .*a query string in the URL/);
});

test("an entry whose location is not where add puts its skill is refused by install, update and remove: nothing is replaced or deleted", async (t) => {
  const tmp = tempDir(t, "location");
  const project = path.join(tmp, "project");
  writeTree(path.join(project, "vendor", "csv-profile"), SKILL);
  assert.equal((await sw(project, "add", "vendor/csv-profile")).status, 0);
  const pinned = lockOf(project);
  writeTree(project, { ".git/HEAD": "ref: refs/heads/main\n", "src/main.js": "main();\n" });
  writeTree(tmp, { "x/keep.txt": "kept\n" });
  const home = path.join(tmp, "home");
  writeTree(home, { ".ssh/id_ed25519": "key\n" });
  const untouched = () => {
    assert.equal(readFileSync(path.join(project, ".git/HEAD"), "utf8"), "ref: refs/heads/main\n");
    assert.equal(readFileSync(path.join(project, "src/main.js"), "utf8"), "main();\n");
    assert.equal(readFileSync(path.join(tmp, "x/keep.txt"), "utf8"), "kept\n");
    assert.equal(readFileSync(path.join(home, ".ssh/id_ed25519"), "utf8"), "key\n");
  };
  for (const location of [".git", "src", "../x", ".agents/skills/other", ".agents/skills/csv-profile/.."]) {
    const lock = structuredClone(pinned);
    lock.skills[0].location = location;
    writeFileSync(path.join(project, "skills-lock.json"), JSON.stringify(lock));
    for (const command of [["install", "--frozen"], ["update"], ["update", "csv-profile"], ["remove", "csv-profile"]]) {
      const refused = await sw(project, ...command);
      assert.equal(refused.status, 1, `${location}: ${command.join(" ")}: ${refused.stdout}${refused.stderr}`);
      assert.match(refused.stderr, /"csv-profile"/, `${location}: ${command.join(" ")}: the entry is named`);
      untouched();
    }
  }
  // The user's scope: an entry that points at the home's .ssh.
  const lock = structuredClone(pinned);
  Object.assign(lock.skills[0], { scope: "user", location: ".ssh" });
  lock.skills[0].source.path = path.join(project, "vendor", "csv-profile");
  mkdirSync(path.join(home, ".agents"), { recursive: true });
  writeFileSync(path.join(home, ".agents", "skills-lock.json"), JSON.stringify(lock));
  for (const command of [["install", "--frozen"], ["update"], ["remove", "csv-profile"]]) {
    const refused = await swWith({ HOME: home }, tmp, ...command, "--scope", "user");
    assert.equal(refused.status, 1, `--scope user ${command.join(" ")}: ${refused.stdout}${refused.stderr}`);
    assert.match(refused.stderr, /"csv-profile" has the location "\.ssh", not "\.agents\/skills\/csv-profile"/);
    untouched();
  }
  // The entry as add wrote it still installs.
  writeFileSync(path.join(project, "skills-lock.json"), JSON.stringify(pinned));
  const installed = await sw(project, "install", "--frozen");
  assert.equal(installed.status, 0, installed.stdout + installed.stderr);
});
