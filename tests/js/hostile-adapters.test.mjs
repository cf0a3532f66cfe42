// Hostile callers of the plain-JS exports: the storage adapters and their key checks, the
// IndexedDB helpers, unzip and ZipError, init and initSync. Same contract as the wasm exports.
// See support/hostile-cases.mjs.
import { hostileSuite } from "./support/hostile-suite.mjs";

hostileSuite((c) => c.group === "adapters");
