// Real-sized synthetic skills for the benchmarks that need more skills than the corpus holds:
// copies of the corpus's visible skills under new names, each a SKILL.md of the name, the
// description, the localized descriptions and the body's first 4 KiB (what discovery reads and the
// search index takes words from). Used by bench/search.mjs and bench/scale-workerd.mjs.

import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The scope every synthetic registry is discovered (and started from its snapshot) with. */
export const SCOPE = Object.freeze({ name: "builtin", roots: Object.freeze(["skills/"]) });

/** Registry options over `storage` for `n` skills (room for the directories a listing shows). */
export const syntheticOptions = (storage, n) => ({
  scopes: [{ name: SCOPE.name, storage, roots: [...SCOPE.roots] }],
  maxDirectories: 4 * n + 100,
});

/** The options the corpus is discovered with, over `storage` (the directory holding skills/). */
export const corpusOptions = (storage) => ({
  scopes: [{ name: SCOPE.name, storage, roots: [...SCOPE.roots] }],
  maxDepth: 12,
  maxDirectories: 100000,
});

/**
 * The corpus's skills, discovered from `corpus` (the directory holding skills/) with the built
 * package `pkg`: the registry, its visible metas, each SKILL.md's body's first 4 KiB by location,
 * and a memory store of the same skills with their bodies emptied (names and descriptions only).
 */
export async function readCorpus(pkg, corpus) {
  const { SkillRegistry, nodeFsStorage, memoryStorage } = pkg;
  const reg = await SkillRegistry.discover(corpusOptions(nodeFsStorage(corpus)));
  const metas = reg.listMetas();
  const frontOnly = memoryStorage({});
  const bodies = new Map();
  for (const m of reg.listMetasAcross()) {
    const text = readFileSync(join(corpus, m.location), "utf8").replace(/^\uFEFF/, "");
    const end = text.match(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/);
    frontOnly.put(m.location, end ? end[0] : text);
    bodies.set(m.location, end ? text.slice(end[0].length, end[0].length + 4096) : "");
  }
  return { reg, metas, bodies, frontOnly };
}

const yamlString = (s) => JSON.stringify(s);

/** The SKILL.md of corpus skill `m` under `name`. */
function skillText(m, name, bodies) {
  const lines = ["---", `name: ${name}`, `description: ${yamlString(m.description)}`];
  for (const [lang, d] of Object.entries(m.localizedDescriptions ?? {})) lines.push(`description_${lang}: ${yamlString(d)}`);
  return `${lines.join("\n")}\n---\n${bodies.get(m.location) ?? ""}`;
}

/** The name of the `i`th synthetic skill, a copy of corpus skill `m`. */
function syntheticName(m, i) {
  return `s${i}-${m.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "skill"}`.slice(0, 64).replace(/-$/, "");
}

/**
 * `n` synthetic skills, the `i`th a copy of metas[i % metas.length]: [{ name, key, text }], in the
 * order made (not sorted).
 */
export function syntheticSkills({ metas, bodies }, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const m = metas[i % metas.length];
    const name = syntheticName(m, i);
    out.push({ name, key: `skills/synthetic/${name}/SKILL.md`, text: skillText(m, name, bodies) });
  }
  return out;
}

/** A memory store (from `memoryStorage`) holding `skills` (from `syntheticSkills`). */
export function storeOf(memoryStorage, skills) {
  const store = memoryStorage({});
  for (const s of skills) store.put(s.key, s.text);
  return store;
}
