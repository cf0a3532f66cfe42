// The module tree of a Rust crate, read from its root file as rustc reads it (`mod x;`, `x.rs` or
// `x/mod.rs`, `#[path]`, inline `mod x { }`), and the paths each module names (`use` trees,
// `crate::`, `self::`, `super::` paths, paths through its own child modules). Test code
// (`#[cfg(test)]` and `#[cfg(all(test, ...))]` items) is left out: it is not what the crate is
// built from. Every path is made absolute and followed through re-exports (`use` in the module
// that holds the name), then becomes an edge in the one folder where the two modules part:
// between the two children of that folder they are in, or its own file (`mod`) when one of them is
// the folder's module itself.

import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { blank, closing, lexRust, lineOf } from "./rust-lex.mjs";

const TEST_ATTR = /#\[cfg\((?:all\(\s*)?test\b[^\]]*\]/g;

/** Blanks every test item of `t` (`{ code, bare }`, changed in place). */
function dropTests(t) {
  for (;;) {
    TEST_ATTR.lastIndex = 0;
    const m = TEST_ATTR.exec(t.bare);
    if (!m) return;
    let j = m.index + m[0].length;
    for (;;) {
      while (/\s/.test(t.bare[j] ?? "")) j++;
      if (t.bare[j] === "#" && t.bare[j + 1] === "[") j = closing(t.bare, j + 1);
      else break;
    }
    const semi = t.bare.indexOf(";", j);
    const brace = t.bare.indexOf("{", j);
    const end = brace < 0 || (semi >= 0 && semi < brace) ? semi + 1 : closing(t.bare, brace);
    cut(t, m.index, end);
  }
}

/** Blanks `[from, to)` of both copies of `t`. */
function cut(t, from, to) {
  t.code = t.code.slice(0, from) + blank(t.code.slice(from, to)) + t.code.slice(to);
  t.bare = t.bare.slice(0, from) + blank(t.bare.slice(from, to)) + t.bare.slice(to);
}

/** The `use` tree `text` (after `use`) as `{ path, alias }` pairs; `*` stays a segment. */
export function expandUse(text) {
  const tokens = text.match(/::|\w+|[{},*]/g) ?? [];
  let k = 0;
  const out = [];
  const tree = (prefix) => {
    const segs = [...prefix];
    for (;;) {
      const t = tokens[k];
      if (t === "{") {
        k++;
        while (k < tokens.length && tokens[k] !== "}") {
          tree(segs);
          if (tokens[k] === ",") k++;
        }
        k++;
        return;
      }
      if (t === "*") {
        k++;
        out.push({ path: [...segs, "*"], alias: null });
        return;
      }
      if (t === undefined || t === "," || t === "}") return;
      k++;
      if (t === "self" && prefix.length > 0 && segs.length === prefix.length) {
        // `{self}` names the module the braces are in.
        const alias = tokens[k] === "as" ? tokens[k + 1] : segs[segs.length - 1];
        if (tokens[k] === "as") k += 2;
        out.push({ path: segs, alias });
        return;
      }
      segs.push(t);
      if (tokens[k] === "::") {
        k++;
        continue;
      }
      let alias = t;
      if (tokens[k] === "as") {
        alias = tokens[k + 1];
        k += 2;
      }
      out.push({ path: segs, alias });
      return;
    }
  };
  tree([]);
  return out;
}

/** One module: its path from the crate root, its file, and its text with child modules cut out. */
function readModule(file, path, isModRs, text, crate) {
  const t = text ?? lexRust(readFileSync(file, "utf8"));
  dropTests(t);
  const mod = { path, file, isModRs, children: new Map(), uses: [], refs: [] };
  crate.modules.set(path.join("::"), mod);
  // Inline modules: each a module of its own, over the same file.
  const inline = /\bmod\s+(\w+)\s*\{/g;
  for (let m; (m = inline.exec(t.bare)); ) {
    const open = m.index + m[0].length - 1;
    const end = closing(t.bare, open);
    const inner = { code: blank(t.code.slice(0, open + 1)) + t.code.slice(open + 1, end) + blank(t.code.slice(end)) };
    inner.bare = blank(t.bare.slice(0, open + 1)) + t.bare.slice(open + 1, end) + blank(t.bare.slice(end));
    cut(t, m.index, end);
    mod.children.set(m[1], readModule(file, [...path, m[1]], isModRs, inner, crate));
    inline.lastIndex = 0;
  }
  // Modules in files of their own.
  const dir = isModRs ? dirname(file) : join(dirname(file), basename(file, ".rs"));
  const decl = /\bmod\s+(\w+)\s*;/g;
  const declared = [];
  for (let m; (m = decl.exec(t.bare)); ) {
    declared.push([m.index, m.index + m[0].length]);
    const before = t.code.slice(Math.max(0, t.bare.lastIndexOf(";", m.index), t.bare.lastIndexOf("}", m.index)), m.index);
    const at = [...before.matchAll(/#\[path\s*=\s*"([^"]+)"\s*\]/g)].pop();
    let child;
    if (at) child = readModule(join(dirname(file), at[1]), [...path, m[1]], true, null, crate);
    else if (existsSync(join(dir, `${m[1]}.rs`))) child = readModule(join(dir, `${m[1]}.rs`), [...path, m[1]], false, null, crate);
    else if (existsSync(join(dir, m[1], "mod.rs"))) child = readModule(join(dir, m[1], "mod.rs"), [...path, m[1]], true, null, crate);
    else continue;
    mod.children.set(m[1], child);
  }
  for (const [from, to] of declared) cut(t, from, to);
  // `use` declarations, then the paths left in the code.
  const use = /\b(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]+);/g;
  for (let m; (m = use.exec(t.bare)); ) {
    const line = lineOf(t.bare, m.index);
    for (const u of expandUse(m[2])) mod.uses.push({ ...u, pub: Boolean(m[1]), line });
  }
  t.bare = t.bare.replace(use, (s) => blank(s));
  const paths = /(?<![\w:])(\w+)((?:\s*::\s*\w+)+)/g;
  for (let m; (m = paths.exec(t.bare)); ) {
    const first = m[1];
    if (!["crate", "self", "super"].includes(first) && !mod.children.has(first)) continue;
    const segs = [first, ...m[2].split("::").map((s) => s.trim()).filter(Boolean)];
    mod.refs.push({ path: segs, line: lineOf(t.bare, m.index) });
  }
  return mod;
}

/** `segs` made absolute from module `mod`; null for a path into another crate. */
function absolute(segs, mod) {
  const [first, ...rest] = segs;
  if (first === "crate") return rest;
  if (first === "self") return [...mod.path, ...rest];
  if (first === "super") {
    let up = 0;
    while (segs[up] === "super") up++;
    return [...mod.path.slice(0, mod.path.length - up), ...segs.slice(up)];
  }
  if (mod.children.has(first)) return [...mod.path, ...segs];
  return null;
}

/** Every module of the crate whose root file is `root`: a Map from `a::b` to the module. */
export function readCrate(root) {
  const crate = { modules: new Map() };
  readModule(root, [], true, null, crate);
  for (const mod of crate.modules.values()) {
    mod.aliases = new Map();
    for (const u of mod.uses) if (u.alias && u.alias !== "_") mod.aliases.set(u.alias, absolute(u.path, mod));
  }
  return crate.modules;
}

/** `abs` followed through the re-exports of the modules it passes; null when it leaves the crate. */
function followAliases(abs, modules) {
  for (let hops = 0; abs && hops < 32; hops++) {
    let p = abs.length;
    while (p > 0 && !modules.has(abs.slice(0, p).join("::"))) p--;
    if (p === abs.length) return abs;
    const holder = modules.get(abs.slice(0, p).join("::"));
    const target = holder.aliases.get(abs[p]);
    if (target === undefined) return abs;
    if (target === null) return null;
    if (target.join("::") === abs.slice(0, p + 1).join("::")) return abs;
    abs = [...target, ...abs.slice(p + 1)];
  }
  return abs;
}

/**
 * The edges of crate `root` (from a crate root file) as `{ folder, from, to, where }`: `folder` is
 * the module's file or directory (relative to `base`), `from`/`to` its children's file names (or
 * its own file's name), `where` a `file:line` that makes the edge.
 */
export function rustEdges(root, base) {
  const modules = readCrate(root);
  const edges = [];
  const name = (m) => (m.isModRs && /^(mod|lib|main)\.rs$/.test(basename(m.file)) ? dirname(m.file) : m.file);
  const nodeName = (folder, child) => {
    if (!child) return basename(folder.file);
    const m = folder.children.get(child);
    if (m.file === folder.file) return `mod ${child}`;
    return m.isModRs && basename(m.file) === "mod.rs" ? `${child}/` : basename(m.file);
  };
  for (const mod of modules.values()) {
    const refs = [
      ...mod.uses.map((u) => ({ path: u.path, line: u.line, pub: u.pub })),
      ...mod.refs.map((r) => ({ path: r.path, line: r.line, pub: false })),
    ];
    for (const r of refs) {
      const abs = followAliases(absolute(r.path, mod), modules);
      if (!abs) continue;
      let l = 0;
      while (l < mod.path.length && l < abs.length && mod.path[l] === abs[l]) l++;
      const folder = modules.get(mod.path.slice(0, l).join("::"));
      let from, to;
      if (l === mod.path.length) {
        // A module naming its own children: its re-exports are its interface, not a use.
        if (r.pub || l === abs.length || !mod.children.has(abs[l])) continue;
        from = null;
        to = abs[l];
      } else {
        from = mod.path[l];
        to = l < abs.length && folder.children.has(abs[l]) ? abs[l] : null;
      }
      edges.push({
        folder: relative(base, name(folder)) || ".",
        from: nodeName(folder, from),
        to: nodeName(folder, to),
        where: `${relative(base, mod.file)}:${r.line}`,
      });
    }
  }
  return edges;
}
