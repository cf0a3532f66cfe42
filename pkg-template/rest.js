// The rest of the package in browsers: the core's cold code (skillwasm_cold_bg.wasm) and the
// second module (skillwasm_extra_bg.wasm). The browser entry's init() resolves once the core module
// is instantiated, and fetches these two in the background afterwards, so that a page fetches only
// the core before its first catalog. Until they have arrived, a call the usual work makes runs as
// ever (that work never needs them: tests/js/cold-code.test.mjs), and any other call waits for them
// (an async member) or throws an Error saying to `await ready()` (a synchronous one), before it
// enters either module. In Node and workerd both modules are had synchronously on first use, so
// nothing is ever pending there.

// What the usual work calls (scripts/split-profile.mjs runs it to split the core): parsing,
// discovering, listing, rendering catalogs and answering the skill tool. The names are the ones the
// guards give members (instance.js): `Class.static`, `Class#method`, `new Class`.
// tests/js/cold-code.test.mjs calls each and checks that none loads the cold module.
export const USUAL_WORK = new Set([
  "parseSkill",
  "parseSkills",
  "renderCatalog",
  "estimateTokens",
  "frontmatterSpan",
  "isSkippedDirectory",
  "skillFileNames",
  "version",
  "SkillRegistry.discover",
  "SkillRegistry#names",
  "SkillRegistry#get",
  "SkillRegistry#listMetas",
  "SkillRegistry#listMetasAcross",
  "SkillRegistry#diagnostics",
  "SkillRegistry#stats",
  "SkillRegistry#readFile",
  "new SkillTool",
  "SkillTool#definition",
  "SkillTool#catalog",
  "SkillTool#execute",
  "SkillTool#executeCall",
  "SkillTool#session",
  "SkillTool#setSession",
  "new SkillSession",
  "SkillSession#activations",
  "SkillSession#clear",
]);

// The core's exports the second module's members call (extra.js), which wait for that module
// themselves.
const INTERNAL = "__sw_";

// While the browser entry loads the rest: the promise of its arrival.
let pending = null;
let arrived = Promise.resolve();
// Whether the rest can run now: in Node and workerd always (had on first use); in browsers once
// it has arrived, and not if it could not be had.
let present = true;

/**
 * The browser entry's init(): `loading` settles when the rest has arrived (or failed to: then the
 * calls that need it fail as they would without it); `coldArrived` then says whether the core's
 * cold code did.
 * @param {Promise<unknown>} loading
 * @param {() => boolean} coldArrived
 */
export function loadingRest(loading, coldArrived) {
  present = false;
  const settled = loading.then(
    () => {
      present = coldArrived();
    },
    () => undefined,
  );
  pending = settled;
  arrived = settled.then(() => {
    if (pending === settled) pending = null;
  });
}

/**
 * Resolves once every module of the package is loaded: at once in Node and workerd; in browsers
 * when the core's cold code and the second module, fetched in the background after init(), have
 * arrived (or could not be had). Never rejects.
 * @returns {Promise<void>}
 */
export function ready() {
  return arrived;
}

/**
 * Whether the rest of the package (the core's cold code and the second module) can run now (see
 * `present`). The core asks it, through boundary.js, before work only that code does and the usual
 * work can go without: a discovery's building of the search index (INDEXED_BY_DISCOVERY_FROM in
 * src/discover/registry.rs).
 * @returns {boolean}
 */
export function restArrived() {
  return present;
}

/**
 * Run by the guards before each call of member `what`: nothing while no part is pending or for the
 * usual work; else the promise an async member waits for, or, for a synchronous one, the Error it
 * throws.
 * @param {string} what
 * @param {boolean} isAsync
 * @param {boolean} usualAllowed whether the usual work may go ahead (the core module's members)
 * @returns {Promise<void> | undefined}
 */
export function awaitRest(what, isAsync, usualAllowed) {
  if (pending === null || (usualAllowed && (USUAL_WORK.has(what) || what.startsWith(INTERNAL)))) return undefined;
  if (isAsync) return arrived;
  throw new Error(
    `skillwasm: ${what} needs the part of the package that is still loading in the background after init() ` +
      "(skillwasm_cold_bg.wasm, skillwasm_extra_bg.wasm): `await ready()` before calling it",
  );
}

// The diagnostic of a SKILL.md whose frontmatter needs the second module (YAML beyond the subset
// the core reads, or a repair), which a registry does not keep: its next refresh reads the file.
const NEEDS_SECOND_MODULE = "yaml-parser-unavailable";

/**
 * Wraps the core's `SkillRegistry.discover` so that a discovery that met a file only the second
 * module can read while that module was still loading waits for it and reads such files again
 * (a refresh) before it resolves; any other discovery resolves as soon as it is done.
 * @param {(...args: unknown[]) => Promise<any>} discover the guarded static method
 */
export function completingDiscovery(discover) {
  return async function completeDiscovery(...args) {
    // Begun in the window: its files may have been read before the second module arrived, even
    // if it has arrived by the time the discovery ends.
    const early = pending !== null;
    const registry = await discover.apply(this, args);
    if (early && registry.diagnostics().some((d) => d.code === NEEDS_SECOND_MODULE)) {
      await arrived;
      await registry.refresh();
    }
    return registry;
  };
}
