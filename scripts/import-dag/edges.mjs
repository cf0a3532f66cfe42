// What is checked: the crate roots and JS folders of the repository, and their edges.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { jsEdges } from "./js.mjs";
import { rustEdges } from "./rust.mjs";

/** The crate roots and JS folders checked, relative to the repository. */
export const RUST_ROOTS = ["src/lib.rs", "parse/src/lib.rs", "search/src/lib.rs", "wasm/src/lib.rs"];
export const JS_ROOTS = ["pkg-template"];

/** Every edge of the Rust crates in `rust` and the JS folders in `js` below `base`. */
export function edgesOf(base, rust = RUST_ROOTS, js = JS_ROOTS) {
  const edges = [];
  for (const root of rust) if (existsSync(join(base, root))) edges.push(...rustEdges(join(base, root), base));
  for (const root of js) if (existsSync(join(base, root))) edges.push(...jsEdges(join(base, root), base));
  return edges;
}

