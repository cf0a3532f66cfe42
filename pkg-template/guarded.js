// The two wasm modules' exports, guarded against a dead instance (see instance.js): what the
// package's own modules (the storage adapters, publish.js) call, and what exports.js hands on.
import * as glue from "./skillwasm.js";
import { guardModule } from "./instance.js";
import { extra, installServing } from "./extra.js";
import { awaitRest, completingDiscovery } from "./rest.js";

// Every generated export is listed below, guarded: the trap-recovery test
// (tests/js/instance-reset.test.mjs) fails when a generated export of either module is missing
// here (its `__sw_` functions excepted: they pass data between the two modules, see extra.js), so
// a new Rust export gets its name added here.
// In browsers, what the usual work does not call waits for (or, synchronous, refuses to run
// before) the rest of the package, loaded in the background after init() (rest.js).
const core = guardModule(glue, { ensure: (what, isAsync) => awaitRest(what, isAsync, true) });
// A discovery that met a file only the second module reads, while it was loading, waits for it.
Object.defineProperty(core.SkillRegistry, "discover", { value: completingDiscovery(core.SkillRegistry.discover), writable: true, configurable: true });
const serving = installServing(core);

// The core module's exports (wasm/), guarded against a dead instance (see instance.js).
export const {
  SkillRegistry,
  SkillSession,
  SkillTool,
  autocomplete,
  estimateTokens,
  frontmatterSpan,
  isSkippedDirectory,
  isToolAllowed,
  parseMessage,
  parseSkill,
  parseSkills,
  renderCatalog,
  skillFileNames,
  version,
  initSync,
  __wbg_reset_state,
} = core;

// The second module's exports (wasm/src/second_module/, see extra.js), guarded the same way.
export const {
  checkRequestUrl,
  compactSkillContent,
  dedupeSkillContent,
  detectTranscriptFormat,
  findSkillContent,
  isInSkillDirectory,
  mcpFileUri,
  mcpSkillsExtension,
  parseMcpSkills,
  parseSkillsIndex,
  publishSkillFiles,
  protectedMessages,
  pruneTranscript,
  readProperties,
  reattachSkills,
  substituteArguments,
  toPrompt,
  unpackSkillArtifact,
  verifyMcpFile,
} = extra;

// A registry's skills served over MCP and published as a discovery index, run in the second module
// over the registry's port (extra.js).
export const { SkillsMcp, publishRegistry } = serving;

