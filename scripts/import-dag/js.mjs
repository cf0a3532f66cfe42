// The relative imports of the JavaScript modules under a folder: static `import`/`export ... from`,
// bare `import "./x.js"` and dynamic `import("./x.js")`. Each import between two files under the
// folder becomes an edge in the folder where their paths part: between the two entries (files or
// subfolders) of that folder they are in.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The .js and .mjs files under `dir`, recursively (node_modules left out). */
function jsFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (entry === "node_modules") continue;
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (/\.(m?js)$/.test(entry)) out.push(path);
  }
  return out;
}

const LITERALS = /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** Spaces for `s`, keeping its line breaks. */
const blank = (s) => s.replace(/[^\n]/g, " ");

/** The relative specifiers `src` imports, each with its line. */
export function jsImports(src) {
  // `code`: the comments blanked; `bare`: the strings' contents too, to tell a keyword from text.
  const code = src.replace(LITERALS, (m, str) => (str ? m : blank(m)));
  const bare = code.replace(LITERALS, (m, str) => (str ? m[0] + blank(m.slice(1, -1)) + m.slice(-1) : m));
  const found = [];
  const patterns = [
    /(?:^|[;\n}])\s*(?:import|export)\s[^;'"`]*?\bfrom\s*(["'])(\.{1,2}\/[^"']+)\1/g,
    /(?:^|[;\n}])\s*import\s*(["'])(\.{1,2}\/[^"']+)\1/g,
    /\bimport\s*\(\s*(["'])(\.{1,2}\/[^"']+)\1\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of code.matchAll(re)) {
      const keyword = m.index + m[0].search(/import|export/);
      if (bare.slice(keyword, keyword + 6) !== code.slice(keyword, keyword + 6)) continue;
      const at = m.index + m[0].lastIndexOf(m[2]);
      found.push({ spec: m[2], line: code.slice(0, at).split("\n").length });
    }
  }
  return found;
}

/** The edges among the JS files under `root`, as rust.mjs gives them; folders relative to `base`. */
export function jsEdges(root, base) {
  const edges = [];
  for (const file of jsFiles(root)) {
    for (const { spec, line } of jsImports(readFileSync(file, "utf8"))) {
      const target = resolve(dirname(file), spec);
      const rel = relative(root, target);
      if (rel.startsWith("..") || !existsSync(target)) continue;
      const a = relative(root, file).split(sep);
      const b = rel.split(sep);
      let l = 0;
      while (l < a.length - 1 && l < b.length - 1 && a[l] === b[l]) l++;
      const slash = (segs, k) => (k < segs.length - 1 ? `${segs[k]}/` : segs[k]);
      edges.push({
        folder: relative(base, join(root, ...a.slice(0, l))) || ".",
        from: slash(a, l),
        to: slash(b, l),
        where: `${relative(base, file)}:${line}`,
      });
    }
  }
  return edges;
}
