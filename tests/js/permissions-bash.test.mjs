// The `Bash(...)` permission matcher against real bash. Several hundred command lines, ordinary
// and adversarial, are each decided by `isToolAllowed`; every one it allows is then run by
// `bash -c` in a temporary directory whose PATH holds only recording programs (each appends its
// argv to a log outside the directory; a program bash cannot find is recorded by
// command_not_found_handle, set through BASH_ENV). An allowed command passes when
// - every program bash ran (or tried to run) is, with the very arguments bash gave it, a command
//   the same patterns allow on its own (so the matcher's reading of quotes, operators and
//   options is bash's), and
// - no file anywhere under the temporary directory was created, changed or removed (the matcher
//   allows no redirection to a file).
// The commands people rely on stay allowed, and the attacks this matcher was written against are
// refused with a reason.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { importPkg } from "./helpers.mjs";

const BASH = "/bin/bash";
const { SkillRegistry, memoryStorage, isToolAllowed } = await importPkg();

// The patterns of the active skill, as a skill would write them.
const PATTERNS = ["Bash(git:*)", "Bash(npm run test)", "Bash(ls *)", "Bash(cat:*)", "Bash(head:*)", "Bash(grep:*)", "Bash(find:*)", "Bash(* --version)", "Bash(wc -l:*)"];

// Programs given a recording stand-in: those the patterns name and those attacks try to run.
const PROGRAMS = [
  "git", "npm", "ls", "cat", "head", "grep", "find", "wc", "cargo", "touch", "rm", "sh", "curl", "wget", "python3", "node",
  "env", "xargs", "id", "tee", "cp", "mv", "chmod", "sed", "awk", "sort", "printf", "nc", "base64", "less", "perl",
];

async function registryWith(patterns) {
  const lines = patterns.map((p) => `  - "${p}"`).join("\n");
  const skill = `---\nname: s\ndescription: A skill whose allowed-tools the test exercises.\nallowed-tools:\n${lines}\n---\nBody\n`;
  return SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/s/SKILL.md": skill }) });
}

function decide(registry, command) {
  return isToolAllowed(registry, ["s"], "Bash", { command });
}

// One argument as bash reads it back to exactly these characters.
function quote(arg) {
  if (/[\x00-\x1f\x7f]/.test(arg)) {
    const esc = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x07": "\\a", "\b": "\\b", "\x1b": "\\e", "\f": "\\f", "\v": "\\v", "\\": "\\\\", "'": "\\'" };
    return `$'${[...arg].map((c) => esc[c] ?? c).join("")}'`;
  }
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------------
// The command lines
// ---------------------------------------------------------------------------------------------

// What people run, each a list of words.
const ORDINARY = [
  ["git", "status"], ["git", "log", "--oneline", "-5"], ["git", "add", "--", "a.txt"], ["git", "diff", "HEAD~1"],
  ["git", "commit", "-m", "fix: the parser; keeps (quotes) & pipes | intact"], ["git", "log", "--format=%H %s", "-n", "3"],
  ["git", "show", "HEAD:README.md"], ["git", "branch", "-a"], ["git", "push", "origin", "main"], ["git", "stash", "list"],
  ["git", "rev-parse", "--abbrev-ref", "HEAD"], ["git", "log", "@{u}.."], ["git", "add", "-u"], ["git", "cherry-pick", "-x", "abc123"],
  ["npm", "run", "test"], ["ls"], ["ls", "-la"], ["ls", "-la", "src"], ["cat", "README.md"], ["cat", "a b.txt"],
  ["head", "-n", "20", "src/main.rs"], ["grep", "-rn", "TODO", "src"], ["grep", "-E", "a|b", "file"], ["grep", "x*y", "f"],
  ["find", ".", "-name", "*.md"], ["find", "src", "-type", "f"], ["cargo", "--version"], ["wc", "-l", "a.txt"],
  ["git", "log", "-S", "$HOME"], ["git", "grep", "-n", "`x`"], ["cat", "~/.ssh/id_rsa"], ["cat", "{a,b}"], ["grep", "-e", "#", "f"],
  ["git", "commit", "-m", "line one\nline two"], ["git", "commit", "-m", "tab\there"], ["git", "commit", "-m", "it's"],
  ["git", "commit", "-m", 'say "hi"'], ["git", "commit", "-m", "back\\slash"], ["git", "commit", "-m", ""], ["ls", "--", "-rf"],
];

// Ways to write one argument so that bash reads it back as the same characters.
const QUOTINGS = [
  (a) => quote(a),
  (a) => `"${a.replace(/["\\$`]/g, (c) => `\\${c}`)}"`,
  (a) => `$'${a.replace(/[\\']/g, (c) => `\\${c}`).replaceAll("\n", "\\n").replaceAll("\t", "\\t")}'`,
  (a) => (a === "" ? "''" : [...a].map((c) => (c === "\n" ? "$'\\n'" : /[A-Za-z0-9._\/-]/.test(c) ? c : `\\${c}`)).join("")),
  (a) => (a.length > 1 ? `${quote(a.slice(0, 1))}"${a.slice(1).replace(/["\\$`]/g, (c) => `\\${c}`)}"` : quote(a)),
];

// What attacks append to an allowed command, or put in place of it.
const PAYLOADS = [
  "; touch pwned", " && touch pwned", " || touch pwned", " | sh", " |& sh", " & touch pwned", "\ntouch pwned", " $(touch pwned)",
  " `touch pwned`", " \"$(touch pwned)\"", " > pwned", " >> pwned", " &> pwned", " 2> pwned", " >| pwned", " >& pwned",
  " < /etc/passwd", " <<EOF\nx\nEOF", " <<< x", " <(touch pwned)", " >(touch pwned)", " $'\\'' ; touch pwned ; #'",
  " $\"$(touch pwned)\"", " '; touch pwned'", " \"; touch pwned\"", " # ; touch pwned", " \\; touch pwned", " \\\ntouch pwned",
  " ${IFS}touch pwned", " $HOME", " ~", " *", " ?", " [a]", " {a,b}", " x{1..3}", " a=~/x", "; eval 'touch pwned'",
  "; (touch pwned)", "; { touch pwned; }", "; if true; then touch pwned; fi", " ;; touch pwned", " & ", ";\ntouch pwned",
  "\r\ntouch pwned", " $'\\x3b' touch pwned", " $'\\073' touch pwned", "; FOO=1 touch pwned", "; exec touch pwned",
  " | xargs touch", " | tee pwned", " -exec touch pwned \\;", " 3>pwned", " 1>&2 >pwned", "; source /dev/null",
];

// Whole commands aimed at a pattern's holes.
const ATTACKS = [
  "git log $'\\'' ; touch pwned ; #'", "git status > FILE", "git -c alias.x='!touch pwned' x", "git -c core.pager='touch pwned' -p log",
  "git --config-env=core.pager=PAGER log", "git fetch --upload-pack='touch pwned' origin", "git rebase --exec 'touch pwned' main",
  "git submodule foreach touch pwned", "git bisect run touch pwned", "git difftool -x touch", "git status --help",
  "find . -exec touch pwned \\;", "find . -execdir touch pwned +", "find . -delete", "find . -fprint pwned",
  "sh -c 'touch pwned' --version", "env touch pwned --version", "xargs touch pwned --version", "python3 -c 'x' --version",
  "node -e 'x' --version", "FOO=1 git status", "GIT_PAGER='touch pwned' git -p log", "git status &", "(git status)",
  "{ git status; }", "! git status", "time git status", "eval git status", "exec git status", "command git status",
  "builtin echo x", "source x", ". x", "cat <<EOF\nx\nEOF", "cat < /etc/passwd", "ls *", "ls ~", "cat ~/.ssh/id_rsa",
  "git log HEAD@{1,2}", "git status\u0000touch pwned", "git status\u000btouch", "git status\u00a0; touch pwned",
  "ls;touch pwned", "ls&&touch pwned", "ls||touch pwned", "ls|sh", "ls&touch pwned", "ls>pwned", "ls 2>&1>pwned",
  "git log -- \"a$(touch pwned)\"", "git log -- 'a'\"$(touch pwned)\"", "git log $\"x\"$(touch pwned)", "git log `touch pwned`",
  "git log $((1+1))", "git log ${x:-$(touch pwned)}", "git log $[1]", "git log \\$(touch pwned)", "git log \\`touch pwned\\`",
  "grep x f | sh", "grep x f |& sh", "head -1 f | xargs touch", "wc -l a.txt >/dev/null; touch pwned",
  "npm run test -- --watch", "npm run test; npm publish", "npm  run   test", "npm run test #; touch pwned",
];

function commandLines() {
  const lines = new Set();
  for (const words of ORDINARY) {
    for (const q of QUOTINGS) lines.add(words.map((w, i) => (i === 0 && q !== QUOTINGS[0] ? w : q(w))).join(" "));
    lines.add(words.map(quote).join(" \\\n  "));
    lines.add(words.map(quote).join("\t"));
  }
  for (const words of ORDINARY.slice(0, 12)) {
    const base = words.map(quote).join(" ");
    for (const p of PAYLOADS) lines.add(base + p);
  }
  for (const a of ATTACKS) lines.add(a);
  return [...lines];
}

// ---------------------------------------------------------------------------------------------
// Running a command in bash
// ---------------------------------------------------------------------------------------------

function tree(dir, skip) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p === skip) continue;
      const st = statSync(p, { throwIfNoEntry: false });
      out.set(p, st === undefined ? "gone" : `${e.isDirectory() ? "d" : "f"}:${st.size}:${st.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

describe("the Bash(...) matcher against real bash", () => {
  let root;
  let registry;
  let log;
  let env;
  const lines = commandLines();
  const decisions = [];

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), "skillwasm-bash-"));
    const bin = path.join(root, "bin");
    const work = path.join(root, "work");
    mkdirSync(bin);
    mkdirSync(path.join(work, "src"), { recursive: true });
    mkdirSync(path.join(root, "home", ".ssh"), { recursive: true });
    writeFileSync(path.join(work, "a.txt"), "a\n");
    writeFileSync(path.join(work, "README.md"), "# readme\n");
    writeFileSync(path.join(root, "home", ".ssh", "id_rsa"), "secret\n");
    log = path.join(root, "exec.log");
    // Each record: the program's argv, NUL-terminated, then a record separator.
    for (const p of PROGRAMS) {
      const stub = path.join(bin, p);
      writeFileSync(stub, `#!${BASH}\nprintf '%s\\0' "${p}" "$@" >> "$SW_EXEC_LOG"\nprintf '\\036' >> "$SW_EXEC_LOG"\n`);
      chmodSync(stub, 0o755);
    }
    const bashEnv = path.join(root, "bash-env");
    writeFileSync(bashEnv, `command_not_found_handle() { printf '%s\\0' "$@" >> "$SW_EXEC_LOG"; printf '\\036' >> "$SW_EXEC_LOG"; return 127; }\n`);
    env = { PATH: bin, HOME: path.join(root, "home"), SW_EXEC_LOG: log, BASH_ENV: bashEnv, LC_ALL: "C.UTF-8" };
    registry = await registryWith(PATTERNS);
    for (const command of lines) decisions.push({ command, ...decide(registry, command) });
  });
  after(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("hundreds of command lines, ordinary and adversarial, are decided", () => {
    assert.ok(lines.length >= 500, `${lines.length} command lines`);
    const allowed = decisions.filter((d) => d.allowed).length;
    assert.ok(allowed >= 150 && allowed < lines.length - 250, `${allowed} allowed of ${lines.length}`);
    for (const d of decisions) assert.equal(typeof d.reason, "string");
  });

  test("every allowed command runs in bash only programs the patterns allow, with the arguments the matcher read, and writes no file", (t) => {
    const work = path.join(root, "work");
    const failures = [];
    let ran = 0;
    let execs = 0;
    // A NUL cannot reach bash in an argument (the matcher refuses it: it ends a C string).
    for (const d of decisions.filter((x) => x.allowed && !x.command.includes("\0"))) {
      writeFileSync(log, "");
      const beforeTree = tree(root, log);
      spawnSync(BASH, ["--norc", "--noprofile", "-c", d.command], { cwd: work, env, encoding: "utf8", timeout: 10_000 });
      ran += 1;
      const afterTree = tree(root, log);
      const changed = [...new Set([...beforeTree.keys(), ...afterTree.keys()])].filter((k) => beforeTree.get(k) !== afterTree.get(k));
      if (changed.length > 0) failures.push(`${JSON.stringify(d.command)} changed ${changed.map((c) => path.relative(root, c)).join(", ")}`);
      const records = readFileSync(log, "latin1") === "" ? [] : readFileSync(log).toString("utf8").split("\x1e").filter((r) => r !== "");
      execs += records.length;
      for (const r of records) {
        const argv = r.split("\0").slice(0, -1);
        const again = decide(registry, argv.map(quote).join(" "));
        if (!again.allowed) failures.push(`${JSON.stringify(d.command)} ran ${JSON.stringify(argv)}: ${again.reason}`);
      }
    }
    t.diagnostic(`${lines.length} command lines decided, ${ran} allowed and run in bash, ${execs} programs run`);
    assert.ok(ran >= 150, `${ran} commands ran`);
    assert.deepEqual(failures, []);
  });

  test("the commands people rely on stay allowed", () => {
    for (const command of ["git status", "git log --oneline -5", "git add -- a.txt", "git diff HEAD~1", "git commit -m 'x; y'", "npm run test", "ls -la", "cat README.md", "git log 2>&1 | head -5", "git status && git diff", "cargo --version"]) {
      const d = decide(registry, command);
      assert.equal(d.allowed, true, `${command}: ${d.reason}`);
    }
  });

  test("the attacks are refused, each with its reason", () => {
    const cases = [
      ["git log $'\\'' ; touch /tmp/x ; #'", /no active skill allows the command 'touch/],
      ["git status > FILE", /redirects to or from the file 'FILE'/],
      ["git -c alias.x='!cmd' x", /'-c' makes 'git' run/],
      ["git -c core.pager=cmd -p log", /'-c' makes 'git' run/],
      ["sh -c 'rm -rf ~' --version", /'sh' makes 'sh' run/],
      ["find . -exec rm {} +", /'-exec' makes 'find' run/],
      ["FOO=1 git status", /sets a variable/],
      ["git status &", /background/],
      ["git log $(id)", /substitution/],
      ["ls *", /glob/],
    ];
    for (const [command, reason] of cases) {
      const d = decide(registry, command);
      assert.equal(d.allowed, false, command);
      assert.match(d.reason, reason, command);
    }
  });

  test("URLs that parsers read differently are refused for WebFetch(domain:...)", async () => {
    const web = await registryWith(["WebFetch(domain:example.com)"]);
    const fetchUrl = (url) => isToolAllowed(web, ["s"], "WebFetch", { url });
    assert.equal(fetchUrl("https://example.com/docs").allowed, true);
    for (const url of ["https://example.com\\@evil.net/", "https://user@example.com/", "https://example.com@evil.net/", "https://evil.net\\@example.com/"]) {
      const d = fetchUrl(url);
      assert.equal(d.allowed, false, url);
      assert.match(d.reason, /backslash|user info/, url);
    }
  });

  test("a malformed allowed-tools entry is a diagnostic with its line, and allows nothing", async () => {
    const skill = "---\nname: s\ndescription: d\nallowed-tools: Bash(git:* Read WebFetch(example.com)\n---\nBody\n";
    const reg = await SkillRegistry.discover({ user: memoryStorage({ ".agents/skills/s/SKILL.md": skill }) });
    const d = reg.diagnostics().find((x) => x.code === "allowed-tools-invalid");
    assert.ok(d, JSON.stringify(reg.diagnostics()));
    assert.equal(d.line, 4);
    assert.equal(isToolAllowed(reg, ["s"], "Bash", { command: "git status" }).allowed, false);
    assert.equal(isToolAllowed(reg, ["s"], "Read", { file_path: "x" }).allowed, false);
  });
});
