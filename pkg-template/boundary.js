// The boundary's reading side, imported by the wasm glue (wasm/src/boundary/convert.rs). Every
// value a caller hands the engine (options, tool input, transcripts, store answers, batch items)
// is read here, once, before any Rust state is touched: getters, Proxy traps, toJSON and thenables
// run inside try/catch, so no JS exception ever unwinds through a Rust frame. What comes back to Rust
// is JSON text or a tagged error (for data), a fresh Uint8Array view read through the intrinsic
// typed-array getters (for bytes), or a promise that always settles (for store calls).
//
// The bounds (depth, nodes, characters, bytes) are passed in by Rust, which documents them. No
// skill logic lives here: only reading values safely.
//
// The module the Rust bindings import (`raw_module = "./boundary.js"`), made of the files of
// boundary/, one capability each: intrinsics.js (what every reader shares), values.js (any value as
// bounded JSON, bytes), pages.js (store listing pages as JSON and as lines), store.js (store calls
// and their errors), batch.js (parseSkills batch items), results.js (parse results and metadata
// made into objects), hooks.js (what the core module asks the second: frontmatter beyond its
// fast path, the commands of a body, its classes' transcript operations), and rest.js's
// restArrived (whether the rest of the package can run now).

export { isWellFormedString } from "./boundary/intrinsics.js";
export { boundedBytes, boundedJson, stringLength } from "./boundary/values.js";
export { packedLines, pageJson, pageLines, pageLinesUtf8 } from "./boundary/pages.js";
export { callStore, describeError } from "./boundary/store.js";
export { batchDone, batchFill, batchItems, batchPlan } from "./boundary/batch.js";
export { lazyLines, takeMetas, takeResults } from "./boundary/results.js";
export {
  askSecondModule,
  findCommands,
  readFrontmatter,
  setCommandFinder,
  setFrontmatterReader,
  setSecondModuleAsk,
} from "./boundary/hooks.js";
export { restArrived } from "./rest.js";

