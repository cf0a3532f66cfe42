// Corpora for the benchmarks: ../shared/corpus as it is, and a larger one made from it (every skill
// copied `times` times under a new name, in a temporary directory that the caller removes).
import { linkSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Copies the tree `src` into `dst` with every skill directory (one holding a SKILL.md) renamed
 * `<name>-c<n>` and its frontmatter `name:` renamed alike. Files other than SKILL.md are hard
 * links (copies when linking fails), so the copy costs little disk.
 */
function copyRenamed(src, dst, n) {
  const entries = readdirSync(src, { withFileTypes: true });
  mkdirSync(dst, { recursive: true });
  for (const e of entries) {
    const from = join(src, e.name);
    if (e.isDirectory()) {
      const isSkill = readdirSync(from).includes("SKILL.md");
      copyRenamed(from, join(dst, isSkill ? `${e.name}-c${n}` : e.name), n);
    } else if (e.isFile() && e.name === "SKILL.md") {
      const text = readFileSync(from, "utf8");
      // The first `name:` line of the frontmatter, quoted or not.
      const renamed = text.replace(/^(name:[ \t]*)(["']?)([^"'\r\n]*?)\2([ \t]*)$/m, `$1$2$3-c${n}$2$4`);
      writeFileSync(join(dst, e.name), renamed);
    } else if (e.isFile()) {
      try {
        linkSync(from, join(dst, e.name));
      } catch {
        copyFileSync(from, join(dst, e.name));
      }
    }
  }
}

/**
 * A corpus of `times` renamed copies of the skills under `skillsDir`, as `<tmp>/skills/c<n>/...`.
 * @returns {{ root: string; skills: string; remove(): void }}
 */
export function multipliedCorpus(skillsDir, times) {
  const root = mkdtempSync(join(tmpdir(), "skillwasm-bench-"));
  const skills = join(root, "skills");
  for (let n = 1; n <= times; n++) copyRenamed(skillsDir, join(skills, `c${n}`), n);
  return { root, skills, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every SKILL.md under `dir` (dot-directories and node_modules left out), sorted. */
export function skillFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") skillFiles(p, out);
    else if (e.name === "SKILL.md") out.push(p);
  }
  return out.sort();
}

/** min and median of a list of times. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return { min: s[0], median: s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 };
}
