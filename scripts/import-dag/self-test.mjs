// The checker checked: fixtures written to a temporary folder, each with the circles it must find
// (none for the ones whose imports only look circular: re-exports, test code, comments, strings).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { edgesOf } from "./edges.mjs";
import { circles } from "./graph.mjs";

/** Each fixture: its files, then the circles expected as `folder: a -> b -> a`. */
const FIXTURES = [
  {
    name: "two Rust files that use each other",
    files: {
      "src/lib.rs": "mod a;\nmod b;\n",
      "src/a.rs": "use super::b::g;\npub fn f() { g() }\n",
      "src/b.rs": "pub fn g() { crate::a::f() }\n",
    },
    expect: ["src: a.rs -> b.rs -> a.rs"],
  },
  {
    name: "a Rust subfolder and its parent's sibling",
    files: {
      "src/lib.rs": "pub mod net;\npub mod x;\n",
      "src/net/mod.rs": "pub mod inner;\n",
      "src/net/inner.rs": "use crate::x::X;\npub struct Y(X);\n",
      "src/x.rs": "pub struct X;\npub fn f(_: crate::net::inner::Y) {}\n",
    },
    expect: ["src: net/ -> x.rs -> net/"],
  },
  {
    name: "a folder's module that calls a child which uses the module's own items",
    files: {
      "src/lib.rs": "mod a;\npub const N: u32 = 1;\npub fn f() -> u32 { a::g() }\n",
      "src/a.rs": "pub fn g() -> u32 { super::N }\n",
    },
    expect: ["src: a.rs -> lib.rs -> a.rs"],
  },
  {
    name: "#[path] modules and nested use trees",
    files: {
      "src/lib.rs": "mod reg;\n",
      "src/reg.rs": '#[path = "reg_wire.rs"]\nmod wire;\n#[path = "reg_records.rs"]\nmod records;\npub fn f() { records::r() }\n',
      "src/reg_records.rs": "use super::{wire::{self, W}, f as _f};\npub fn r() {}\n",
      "src/reg_wire.rs": "pub struct W;\n",
    },
    expect: ["src/reg.rs: reg.rs -> reg_records.rs -> reg.rs"],
  },
  {
    name: "Rust imports that only look circular",
    files: {
      "src/lib.rs": "pub mod a;\npub mod b;\nmod shared;\npub use shared::Thing;\npub use a::A;\n",
      "src/shared.rs": "pub struct Thing;\n",
      "src/a.rs":
        'use crate::b::B;\npub struct A(B);\n// crate::b::x and super::b are words here\nconst S: &str = "crate::b::B";\nconst C: char = \'"\';\n',
      "src/b.rs":
        "use crate::Thing;\npub struct B(Thing);\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n#[cfg(all(test, feature = \"x\"))]\nfn t() { crate::a::f() }\n",
    },
    expect: [],
  },
  {
    name: "JS modules in a circle, static and dynamic",
    files: {
      "pkg-template/a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
      "pkg-template/b.js": 'export { a } from "./a.js";\nexport const b = 2;\n',
      "pkg-template/c.js": 'export async function c() {\n  return import("./d.js");\n}\n',
      "pkg-template/d.js": 'import "./c.js";\n',
      "pkg-template/x.js": 'import { y } from "./sub/y.js";\n',
      "pkg-template/sub/y.js": 'import { x } from "../x.js";\nexport const y = 1;\n',
    },
    expect: ["pkg-template: a.js -> b.js -> a.js", "pkg-template: c.js -> d.js -> c.js", "pkg-template: sub/ -> x.js -> sub/"],
  },
  {
    name: "JS imports that only look circular",
    files: {
      "pkg-template/a.js": '// import { a } from "./b.js";\nimport { b } from "./b.js";\n/* import("./b.js") */\n',
      "pkg-template/b.js": 'export const b = "import(\'./a.js\')";\n',
    },
    expect: [],
  },
];

/** Runs every fixture; prints what differs and returns the exit code. */
export function selfTest() {
  let failed = 0;
  for (const f of FIXTURES) {
    const dir = mkdtempSync(join(tmpdir(), "import-dag-"));
    try {
      for (const [path, text] of Object.entries(f.files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const got = circles(edgesOf(dir, ["src/lib.rs"], ["pkg-template"])).map((c) => `${c.folder}: ${c.nodes.join(" -> ")}`);
      const same = got.length === f.expect.length && got.every((g, k) => g === f.expect[k]);
      if (!same) {
        failed++;
        console.error(`import-dag self-test: ${f.name}: expected ${JSON.stringify(f.expect)}, found ${JSON.stringify(got)}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`import-dag self-test: ${FIXTURES.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}
