// Shared by the catalog and skill-tool tests and the activation benchmark: the corpus in a
// memoryStorage and in a nodeFsStorage, a store that counts its calls, the core's token estimate
// (the package's export), and small SKILL.md builders.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SHARED, importPkg } from "../helpers.mjs";
import { corpusFiles, CORPUS_SKILLS } from "./corpus.mjs";

export const CORPUS = path.join(SHARED, "corpus");
export const SCAN = { maxDepth: 12, maxDirectories: 100000 };
export const FORMATS = ["xml", "reference", "json", "markdown"];

/** Every corpus file as `.agents/skills/<rel>` -> bytes (the layout of a project's skills). */
export function corpusMemoryFiles() {
  const files = {};
  for (const f of corpusFiles()) files[`.agents/skills/${f.rel}`] = new Uint8Array(readFileSync(path.join(CORPUS_SKILLS, f.rel)));
  return files;
}

/** The corpus as one trusted scope over memory (its files under `.agents/skills/`). */
export async function corpusInMemory(pkg, files = corpusMemoryFiles()) {
  const storage = pkg.memoryStorage(files);
  const registry = await pkg.SkillRegistry.discover({ scopes: [{ name: "project", storage, trusted: true }], ...SCAN });
  return { registry, storage };
}

/** The corpus on disk: one scope at ../shared/corpus with the root `skills/`. */
export async function corpusOnDisk(pkg, wrap = (s) => s) {
  const storage = wrap(pkg.nodeFsStorage(CORPUS));
  const registry = await pkg.SkillRegistry.discover({ scopes: [{ name: "builtin", storage, roots: ["skills/"] }], ...SCAN });
  return { registry, storage };
}

/** Wraps a store, counting list and read calls and the keys read. */
export function counted(store) {
  const c = { lists: 0, reads: 0, keys: [] };
  return {
    c,
    location: store.location,
    list(prefix, opts) {
      c.lists++;
      return store.list(prefix, opts);
    },
    read(key, opts) {
      c.reads++;
      c.keys.push(key);
      return store.read(key, opts);
    },
  };
}

/** The core's token estimate, from the package (one implementation; tests/cases/tokens.json pins it). */
export const { estimateTokens } = await importPkg();

/** Runs of whitespace as one space, trimmed: how a description stands in a catalog. */
export const oneLine = (s) => s.split(/\s+/u).filter(Boolean).join(" ");

/** Element text in the compact XML catalog: only `&`, `<` and `>` are escaped. */
export const escapeXmlText = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** The reference layout and attributes: quotes escaped too (Python's html.escape). */
export const escapeXml = (s) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
export const unescapeXml = (s) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");

/**
 * Markdown text read back: the entities and backslash escapes the core's `markdown_text` writes,
 * undone (so a rendered line can be compared with the value it shows).
 */
export const unescapeMarkdown = (s) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\\([\\`*_[\]#|~\-+=.)])/g, "$1");

/** How many times `needle` occurs in `hay`. */
export const count = (hay, needle) => hay.split(needle).length - 1;

/** A SKILL.md from a frontmatter object (values written as given: quote them yourself). */
export function skillMd(fields, body = "# Steps\n\nDo the thing.\n") {
  const fm = Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join("\n");
  return `---\n${fm}\n---\n${body}`;
}
