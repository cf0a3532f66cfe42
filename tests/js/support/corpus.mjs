// The skills of ../shared/corpus as files on disk: listing them, what discovery should find among
// them (computed from the files, not hard-coded), and uploading them into an R2 bucket.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SHARED } from "../helpers.mjs";

export const CORPUS_SKILLS = path.join(SHARED, "corpus", "skills");

/** Every file under dir: [{ rel, size }], sorted by rel (JS string order, as R2 lists). */
export function corpusFiles(dir = CORPUS_SKILLS) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) out.push({ rel: r, size: st.size });
    }
  };
  walk("");
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

// A file that opens a frontmatter fence whose closing fence is not within the first `prefix`
// bytes: discovery reads it a second time, in full.
function needsFullRead(bytes, prefix) {
  if (bytes.length <= prefix) return false;
  const head = bytes.subarray(0, prefix).toString("utf8").replace(/^\ufeff/, "");
  if (!/^---[ \t]*\r?\n/.test(head)) return false;
  return !/\r?\n---[ \t]*(\r?\n|$)/.test(head.slice(3));
}

/**
 * What discovery over `files` (keys relative to the scan root) should read: the SKILL.md files not
 * under a dot-directory or node_modules and at most maxDepth directories deep; of those, the ones
 * that need a second (full) read after the prefix read, and the empty ones.
 */
export function expectedDiscovery(files, { dir = CORPUS_SKILLS, maxDepth = 12, prefixBytes = 4096 } = {}) {
  const skillMds = files.filter((f) => f.rel === "SKILL.md" || f.rel.endsWith("/SKILL.md"));
  const visible = skillMds.filter((f) => {
    const parts = f.rel.split("/").slice(0, -1);
    return parts.length <= maxDepth && !parts.some((p) => p.startsWith(".") || p === "node_modules");
  });
  const fullReads = visible.filter((f) => needsFullRead(readFileSync(path.join(dir, f.rel)), prefixBytes)).map((f) => f.rel);
  const empty = visible.filter((f) => f.size === 0).map((f) => f.rel);
  return { skillMds: skillMds.length, visible: visible.map((f) => f.rel), fullReads, empty };
}

/** A skill with a references/ file: { skillMd, resource } (relative paths), the first in order. */
export function skillWithReference(files, visible) {
  const all = new Set(files.map((f) => f.rel));
  for (const md of visible) {
    const dir = md.slice(0, -"SKILL.md".length);
    const ref = files.find((f) => f.rel.startsWith(`${dir}references/`) && f.rel.endsWith(".md") && f.size > 0);
    if (ref && all.has(md)) return { skillMd: md, resource: ref.rel };
  }
  return null;
}

/** Puts every file into the bucket under keyPrefix, `concurrency` puts at a time; returns ms. */
export async function uploadCorpus(bucket, files, keyPrefix, { dir = CORPUS_SKILLS, concurrency = 32 } = {}) {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      await bucket.put(keyPrefix + f.rel, new Uint8Array(readFileSync(path.join(dir, f.rel))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return performance.now() - t0;
}
