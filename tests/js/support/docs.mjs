// The code blocks of the README and of docs/: each JavaScript or TypeScript block is marked on the
// line before its fence, and the mark says how a test holds it to the code:
//   <!-- snippet: NAME -->  runs as written (tests/js/readme.test.mjs, docs-runtimes.test.mjs,
//                           bundlers-chromium.test.mjs) and, where it is Node code, compiles in
//                           tests/js/types-sdk.test.mjs;
//   <!-- check: NAME -->    compiles against the package's and the SDKs' types (types-sdk), with
//                           the placeholders that test declares for NAME;
//   <!-- excerpt: FILE -->  stands, whole and verbatim, in FILE (whose own tests run it).
// A block in a list item is indented; its code is read without that indentation.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers.mjs";

/** README.md and every Markdown file under docs/, relative to the repository, in a stable order. */
export function docFiles() {
  const out = ["README.md"];
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".md")) out.push(child);
    }
  };
  walk("docs");
  return out;
}

const MARK = /^\s*<!-- (snippet|check|excerpt): (\S+) -->$/;
const CODE_LANGS = new Set(["js", "mjs", "javascript", "ts", "typescript"]);

/**
 * Every fenced block of `file`: { file, line (1-based, of the opening fence), lang, mark, name,
 * code }. mark and name come from a mark on the line before the fence (null without one).
 */
export function blocks(file) {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== fence) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    const mark = i > 0 ? MARK.exec(lines[i - 1]) : null;
    out.push({ file, line: i + 1, lang, mark: mark?.[1] ?? null, name: mark?.[2] ?? null, code: body.join("\n") + "\n" });
    i = j;
  }
  return out;
}

/** The blocks of every doc file. */
export function allBlocks() {
  return docFiles().flatMap(blocks);
}

/** The JavaScript and TypeScript blocks that carry no mark (there should be none). */
export function unmarkedCode() {
  return allBlocks().filter((b) => CODE_LANGS.has(b.lang) && b.mark === null);
}

/** name -> block for the blocks marked `kind` ("snippet" or "check"); a name used twice throws. */
export function marked(kind) {
  const out = {};
  for (const b of allBlocks().filter((x) => x.mark === kind)) {
    if (Object.hasOwn(out, b.name)) throw new Error(`${kind} ${b.name} is named twice (${out[b.name].file}, ${b.file})`);
    out[b.name] = b;
  }
  return out;
}

/** name -> code of the runnable snippets. */
export function snippets() {
  return Object.fromEntries(Object.entries(marked("snippet")).map(([name, b]) => [name, b.code]));
}

/** The excerpt blocks: { file (the doc), line, name (the quoted file), code }. */
export function excerpts() {
  return allBlocks().filter((b) => b.mark === "excerpt");
}
