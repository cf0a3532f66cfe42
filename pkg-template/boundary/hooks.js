// The hooks through which the core module calls the package's second module: the frontmatter
// reader, the command finder, and the operations its classes' transcript methods ask for,
// installed by extra.js.

import { call, NativeU32, taLength, taTag } from "./intrinsics.js";

// What the core module asks of the package's second module, which extra.js installs here:
// frontmatter beyond the core's fast path (YAML outside its subset, sloppy YAML to repair: serde_yaml
// and the repairs are there), and where a skill's body asks for commands when the host gave a
// runner. A call that throws is caught on the Rust side and becomes that file's (or body's)
// diagnostic.
const secondModule = { readFrontmatter: null, findCommands: null, ask: null };

function installed(name) {
  const f = secondModule[name];
  if (f === null) throw new Error(`the second module's ${name} is not installed`);
  return f;
}

/**
 * Installs the function readFrontmatter calls: (text, firstLine, strict, invalid) -> the second
 * module's answer (bytes).
 * @param {(text: string, firstLine: number, strict: boolean, invalid: boolean) => Uint8Array} read
 */
export function setFrontmatterReader(read) {
  secondModule.readFrontmatter = read;
}

/**
 * Installs the function findCommands calls: (body) -> the second module's spans (four numbers
 * each, see wasm/src/core_module/commands.rs).
 * @param {(body: string) => Uint32Array} find
 */
export function setCommandFinder(find) {
  secondModule.findCommands = find;
}

/**
 * Installs the function askSecondModule calls: (op, args) -> the answer of the second module's
 * function `op` to `args`.
 * @param {(op: string, args: unknown[]) => unknown} ask
 */
export function setSecondModuleAsk(ask) {
  secondModule.ask = ask;
}

/**
 * The second module's answer to `op` with `args` (see wasm/src/core_module/seam.rs); throws when
 * nothing is installed, or what the second module throws. `args` is the core's own array.
 * @param {string} op
 * @param {unknown[]} args
 */
export function askSecondModule(op, args) {
  return installed("ask")(op, args);
}

/**
 * The second module's answer for frontmatter `text` whose first line is file line `firstLine`
 * (see wasm/src/core_module/beyond.rs); throws when no reader is installed.
 */
export function readFrontmatter(text, firstLine, strict, invalid) {
  return installed("readFrontmatter")(text, firstLine, strict, invalid);
}

/**
 * The second module's spans of the commands in `body`, a fresh Uint32Array copied by its own
 * length (the glue sizes the copy into wasm memory by `length`, which an object may lie about);
 * throws when no finder is installed or it answers anything else, or more numbers than a body of
 * this length can have spans for (each span takes at least four characters).
 */
export function findCommands(body) {
  const spans = installed("findCommands")(body);
  if (call(taTag, spans) !== "Uint32Array") throw new TypeError("the command finder did not answer a Uint32Array");
  if (call(taLength, spans) > body.length + 1) throw new RangeError("the command finder answered more spans than the body holds");
  return new NativeU32(spans);
}
