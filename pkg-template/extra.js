// The package's second module (skillwasm_extra_bg.wasm): what only some hosts use (transcripts,
// argument substitution and skill-directory checks, the discovery index's reading, unpacking and
// publishing of files, the MCP client's checks), so that the module every host loads stays small.
//
// It is loaded by the same entry points: node.js and workerd.js hand over a synchronous loader and
// the module is instantiated on the first call of one of its functions (the API stays
// synchronous); browser.js compiles it in init(), beside the core module. Its exports are guarded
// as the core's are (instance.js), with an instance state of their own.
//
// The skill tool's transcript methods are the core's (wasm/src/core_module/seam.rs): they hand
// what the tool holds over as plain data (its tool name; for a re-attachment the contents it read
// and its catalog) through askSecondModule in boundary.js, which this file points at this module's
// functions; this module runs the operation and says which skills the result still holds in full,
// and the core's session follows those.
//
// User invocation and permissions likewise (parseMessage, autocomplete, isToolAllowed and
// SkillTool#invoke are the core's: wasm/src/core_module/seam_invoke.rs): the core hands over the
// skills a registry (or a tool) lets the user invoke, once per visibility (this module keeps them,
// see keptInvocables), or the active skills' allowed-tools; this module reads the message,
// completes the name or decides the call, and substitutes arguments for invoke. SkillsMcp and
// publishRegistry run here over a registry's port (portOf): the core says what the registry
// serves and reads its stores; the second module answers the MCP methods or publishes the index.
//
// serde_yaml, the YAML parser of record, and the repairs of sloppy YAML are here too: the core
// asks them (through boundary.js's readFrontmatter) for frontmatter its fast path refuses. So is
// the recognition of `!`command`` lines: the core asks it (findCommands) for the bodies it serves
// when the host gave a command runner.
import * as extraGlue from "./skillwasm_extra.js";
import { checkLive, className, guardModule, instanceResets } from "./instance.js";
import { setCommandFinder, setFrontmatterReader, setSecondModuleAsk } from "./boundary.js";
import { awaitRest } from "./rest.js";

// How to get the compiled second module synchronously (Node, workerd), until it is instantiated.
let loader = null;
// The instance is made (by the loader, or by init() in browsers).
let ready = false;
// Why the browser entry could not load it: thrown by every call of its functions.
let failed = null;

function ensure(what, isAsync) {
  if (ready) return undefined;
  // The browser entry while the module is loading in the background: wait for it, or say so.
  const waiting = awaitRest(what, isAsync, false);
  if (waiting !== undefined) return waiting;
  if (failed !== null) throw failed;
  if (loader === null) return undefined; // the browser entry before init(): the glue says so
  const module = loader();
  extra.initSync({ module });
  ready = true;
  loader = null;
  return undefined;
}

// A member this file puts on a core class or returns, run in the second module: while that module
// is loading in the browser, an async one waits for it and a synchronous one throws (rest.js).
function needingExtra(what, fn, isAsync = false) {
  const member = function (...args) {
    const waiting = ready ? undefined : awaitRest(what, isAsync, false);
    if (waiting !== undefined) return waiting.then(() => fn.apply(this, args));
    return fn.apply(this, args);
  };
  Object.defineProperty(member, "name", { value: fn.name });
  Object.defineProperty(member, "length", { value: fn.length });
  return member;
}

/** The second module's exports, guarded; instantiated on first use where a loader was given. */
export const extra = guardModule(extraGlue, { ensure });

// The core module reads frontmatter its fast path refuses here (serde_yaml and the repairs are in
// this module), and finds the commands of the bodies a host's runner is to run.
setFrontmatterReader((text, firstLine, strict, invalid) => extra.__sw_readFrontmatter(text, firstLine, strict, invalid));
setCommandFinder((body) => extra.__sw_findCommands(body));
// And the operations the core asks for (the transcript methods: see
// wasm/src/core_module/seam.rs; user invocation and permissions: seam_invoke.rs), by the name of
// this module's function. parseMessage and autocomplete read over the invocable skills kept for
// an owner object of the core's at the serial of its visibility: [owner, serial, json | null,
// ...their own arguments]; they answer null when those are not kept and no json came.
// The arguments are applied as a list (Reflect.apply, bound here), not spread: a page that
// patched the array iterator does not see them.
const applyList = Reflect.apply;
// A table with no prototype: what a page puts on Object.prototype or Map.prototype is not in it.
const ASKED = Object.freeze({
  __proto__: null,
  toolTranscript: (args) => applyList(extra.__sw_toolTranscript, undefined, args),
  presentSkills: (args) => applyList(extra.__sw_presentSkills, undefined, args),
  parseMessage: (args) => {
    const skills = keptInvocables(args[0], args[1], args[2]);
    return skills === null ? null : extra.__sw_parseMessage(skills, args[3], args[4], args[5]);
  },
  autocomplete: (args) => {
    const skills = keptInvocables(args[0], args[1], args[2]);
    return skills === null ? null : extra.__sw_autocomplete(skills, args[3], args[4]);
  },
  isToolAllowed: (args) => applyList(extra.__sw_isToolAllowed, undefined, args),
  substituteInvocation: (args) => applyList(extra.__sw_substituteInvocation, undefined, args),
});
setSecondModuleAsk((op, args) => {
  const run = ASKED[op];
  if (run === undefined) throw new Error(`the second module has no operation ${op}`);
  return run(args);
});

/**
 * How node.js and workerd.js provide the second module: `load()` returns its compiled
 * WebAssembly.Module, synchronously, when one of its functions is first called.
 * @param {() => WebAssembly.Module} load
 */
export function provideExtra(load) {
  loader = load;
}

/**
 * The browser entry's init(): instantiates the compiled second module, or remembers why it could
 * not be had (then its functions throw that error; the core's work without it).
 * @param {PromiseSettledResult<WebAssembly.Module>} outcome
 */
export function settleExtra(outcome) {
  if (ready) return;
  if (outcome.status === "fulfilled") {
    extra.initSync({ module: outcome.value });
    ready = true;
    failed = null;
  } else {
    const reason = outcome.reason;
    failed = new Error(`skillwasm: the second module (skillwasm_extra_bg.wasm) could not be loaded: ${reason?.message ?? reason}`, { cause: reason });
  }
}

// The skills an owner (a SkillRegistry, or the object a core SkillTool keeps for this) lets the
// user invoke, kept in the second module: owner -> { serial, resets, skills }. The core says when its visibility is another one
// than the serial kept (a refresh, a predicate answering otherwise); a trap of either module
// drops what was kept.
const invocablesKept = new WeakMap();

/**
 * The skills kept for `owner` at `serial`, kept now from `json` when given; null when they are
 * not kept and no `json` came (the core's SkillTool#invoke then asks again with them).
 * @param {object} owner
 * @param {number} serial
 * @param {string | null} json
 */
function keptInvocables(owner, serial, json) {
  const kept = invocablesKept.get(owner);
  if (kept !== undefined && kept.resets === instanceResets() && kept.serial === serial) return kept.skills;
  if (json === null) return null;
  const skills = new extra.__sw_Invocables(json);
  invocablesKept.set(owner, { serial, resets: instanceResets(), skills });
  return skills;
}

function checkArgument(value, C, what, role) {
  if (!(value instanceof C)) throw new TypeError(`${what}: expected a ${className(C)} (the ${role} argument)`);
}

/**
 * The port of a core registry for the second module (see wasm/src/second_module/served.rs): what the
 * registry serves, and its stores' listings and reads, through the core's __sw_served* exports.
 * @param {Record<string, any>} core the guarded core exports
 * @param {object} registry a live SkillRegistry of the core
 */
function portOf(core, registry) {
  // Asked before every call: a registry freed since reads as such, not as the core's guard words it.
  const live = () => {
    if (registry.__wbg_ptr === 0) throw new Error("the registry was freed");
    return registry;
  };
  return {
    generation: () => core.__sw_servedGeneration(live()),
    names: () => core.__sw_servedNames(live()),
    skill: (name) => core.__sw_servedSkill(live(), name),
    descriptions: (names) => core.__sw_servedDescriptions(live(), names),
    list: (name, prefix, cursor, limit) => core.__sw_servedList(live(), name, prefix, cursor, limit),
    read: (name, key, maxBytes) => core.__sw_servedRead(live(), name, key, maxBytes),
  };
}

/**
 * What serves a core registry's skills to others, run in the second module over the registry's
 * port: SkillsMcp (the MCP Skills extension's methods; the second module's class, constructed
 * with a registry) and publishRegistry (a discovery index).
 * @param {Record<string, any>} core the guarded core exports
 */
export function installServing(core) {
  const { SkillRegistry } = core;
  // A registry that is not a live one of the core is a TypeError here (the guard's own check), and
  // one of a lost core instance an InstanceResetError (from the core's guard, on the first call).
  const served = (registry, what) => {
    checkArgument(registry, SkillRegistry, what, "registry");
    checkLive([SkillRegistry], registry, what, "the registry argument");
    core.__sw_servedGeneration(registry);
    return portOf(core, registry);
  };
  class SkillsMcp extends extra.SkillsMcp {
    /**
     * @param {object} registry the SkillRegistry whose skills are served
     * @param {object} [options] SkillsMcpOptions
     */
    constructor(registry, options) {
      super(served(registry, "new SkillsMcp"), options);
    }
  }
  return {
    SkillsMcp,
    publishRegistry: needingExtra(
      "publishRegistry",
      async function publishRegistry(registry, opts) {
        return extra.__sw_publishServed(served(registry, "publishRegistry"), opts);
      },
      true,
    ),
  };
}
