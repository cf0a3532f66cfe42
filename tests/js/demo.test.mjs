// The terminal demo (make demo) runs on the bundled examples and tells the main job's story in
// order: discovery, the catalog, an agent turn, a /skill message, compaction. `make demo` puts
// the build's output in a log (shown when the build fails), so nothing of it comes before the
// story, and ends with the playground's URL and how to stop it. The build is stood in for by a
// command that prints what a build prints (DEMO_BUILD), so that no test builds the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ROOT, assertBuilt } from "./helpers.mjs";

const STORY = ["1/5 discovery", "2/5 catalog", "3/5 agent turn", "4/5 /skill", "5/5 compaction"];

/** Where each step's heading is in `out`; asserts they are all there, in order. */
function assertStory(out) {
  const at = STORY.map((s) => out.indexOf(`=== ${s}`));
  for (const [i, p] of at.entries()) assert.ok(p >= 0, `step "${STORY[i]}" is told:\n${out}`);
  for (let i = 1; i < at.length; i++) assert.ok(at[i] > at[i - 1], `"${STORY[i]}" comes after "${STORY[i - 1]}"`);
  return at;
}

test("examples/demo.mjs: discovery, catalog, activation, /skill, compaction", () => {
  assertBuilt();
  const r = spawnSync(process.execPath, [path.join(ROOT, "examples", "demo.mjs")], { encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const [first] = assertStory(r.stdout);
  assert.equal(r.stdout.slice(0, first).trim(), "", "the story is what the script prints first");
  assert.match(r.stdout, /=== 1\/5 discovery: 7 skills ===/);
  assert.match(r.stdout, /needs-repair\s+user\s+warning:crlf warning:yaml-repair-colon/);
  assert.match(r.stdout, /<available_skills>\n<skill><name>changelog-writer<\/name>/);
  assert.match(r.stdout, /<skill_content name="csv-profiler">\n# CSV profiler/);
  assert.match(r.stdout, /UI stream gets: \{"name":"csv-profiler","skillName":"csv-profiler","path":null,"content":"Skill activated."\}/);
  assert.match(r.stdout, /ARGUMENTS: 2\.1\.0/);
  assert.match(r.stdout, /remaining message: "2\.1\.0"/);
  const [, before, after] = r.stdout.match(/compacted: (\d+) -> (\d+) tokens/);
  assert.ok(Number(after) < Number(before));
  assert.match(r.stdout, /re-attached: \d+ tokens; appended csv-profiler/);
  // Readable in a terminal: long skill content is shortened.
  assert.ok(r.stdout.split("\n").length < 70, `${r.stdout.split("\n").length} lines`);
});

// What a build prints on stdout and stderr (cargo, npm's engine warnings on Node 20, wasm-opt).
const NOISY_BUILD = `bash -c 'echo "   Compiling skillwasm v0.1.0"; echo "npm warn EBADENGINE Unsupported engine" >&2; echo "[wasm-opt] optimizing"'`;

/** `make demo` with the stand-in build; resolves once `until` matches its stdout, or it exits. */
function makeDemo(build, log, until) {
  const child = spawn("make", ["--no-print-directory", "demo", `DEMO_BUILD=${build}`, `DEMO_LOG=${log}`], {
    cwd: ROOT,
    env: { ...process.env, CI: "", PORT: "0", NO_COLOR: "1", MAKEFLAGS: "" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: the test ends make, node and the server together
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGTERM");
      reject(new Error(`make demo did not get there in time:\n${stdout}\n${stderr}`));
    }, 60_000);
    const done = (status) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, status, stop: () => stop(child) });
    };
    child.stdout.on("data", (d) => {
      stdout += d;
      if (until.test(stdout)) done(null);
    });
    child.on("exit", (code) => done(code));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(-child.pid, "SIGINT");
  });
}

test("make demo: the build's output in its log, then the story, then the playground and how to stop it", { skip: !existsSync("/usr/bin/make") && "no make" }, async () => {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), "skillwasm-demo-"));
  try {
    const log = path.join(dir, "build.log");
    const r = await makeDemo(NOISY_BUILD, log, /\(Ctrl-C to stop\)\n/);
    try {
      const out = r.stdout + r.stderr;
      const [first] = assertStory(r.stdout);
      for (const noise of ["Compiling", "EBADENGINE", "wasm-opt]"]) assert.ok(!out.includes(noise), `"${noise}" is not shown:\n${out}`);
      const log_ = readFileSync(log, "utf8");
      for (const noise of ["Compiling skillwasm", "npm warn EBADENGINE", "[wasm-opt]"]) assert.ok(log_.includes(noise), `the log has "${noise}"`);
      // Before the story: only what make demo says of the build.
      const before = r.stdout.slice(0, first).trim().split("\n");
      assert.equal(before.length, 2, before.join("\n"));
      assert.match(before[0], new RegExp(`^make demo: building the package .*output in ${log.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
      assert.match(before[1], /^make demo: built in \d+ s$/);
      // Last: the playground's address, with how to stop it beside it; it answers.
      const lines = r.stdout.trimEnd().split("\n");
      const m = /^skillwasm playground: (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C to stop\)$/.exec(lines.at(-1));
      assert.ok(m, lines.at(-1));
      assert.equal((await fetch(m[1])).status, 200);
      assert.equal(r.stdout.lastIndexOf("=== "), r.stdout.indexOf("=== 5/5 compaction"), "compaction is the last step");
    } finally {
      await r.stop();
    }

    // A failing build: its log is shown, and no story follows.
    const failed = await makeDemo(`bash -c 'echo "error[E0308]: mismatched types"; exit 3'`, log, /$^/);
    assert.notEqual(failed.status, 0);
    assert.match(failed.stdout, /make demo: the build failed\. The last lines of .*build\.log:\nerror\[E0308\]: mismatched types/);
    assert.ok(!failed.stdout.includes("=== 1/5"), failed.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("make -n demo: the real build's output goes to target/demo-build.log, not the terminal", { skip: !existsSync("/usr/bin/make") && "no make" }, () => {
  const r = spawnSync("make", ["-n", "--no-print-directory", "demo"], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, MAKEFLAGS: "" } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes("if ! make --no-print-directory build > target/demo-build.log 2>&1; then"), r.stdout);
  assert.match(r.stdout, /tail -n \d+ target\/demo-build\.log/, "the log is shown when the build fails");
  const lines = r.stdout.split("\n");
  const at = (re) => lines.findIndex((l) => re.test(l));
  assert.ok(at(/build > target\/demo-build\.log/) < at(/examples\/demo\.mjs/), "the build, then the story");
  assert.ok(at(/examples\/demo\.mjs/) < at(/www-demo\/serve\.mjs/), "the story, then the playground");
});
