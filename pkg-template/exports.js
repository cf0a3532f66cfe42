// What every entry point exports (node.js, workerd.js and browser.js re-export this module and add
// only what differs: how the wasm is loaded, and nodeFsStorage in node). Adding an export is one
// edit here.
import * as glue from "./skillwasm.js";
import { guardModule } from "./instance.js";

// Anything of the generated module not listed below would still be exported, unguarded; the
// trap-recovery test (tests/js/instance-reset.test.mjs) fails when that happens, so a new Rust
// export gets its name added here.
export * from "./skillwasm.js";

// The generated exports, guarded against a dead instance (see instance.js).
export const {
  SkillRegistry,
  SkillSession,
  SkillTool,
  SkillsMcp,
  autocomplete,
  compactSkillContent,
  dedupeSkillContent,
  detectTranscriptFormat,
  estimateTokens,
  findSkillContent,
  frontmatterSpan,
  isInSkillDirectory,
  isSkippedDirectory,
  isToolAllowed,
  mcpFileUri,
  mcpSkillsExtension,
  parseMcpSkills,
  parseMessage,
  parseSkill,
  parseSkills,
  parseSkillsIndex,
  publishRegistry,
  publishSkillFiles,
  protectedMessages,
  pruneTranscript,
  readProperties,
  reattachSkills,
  renderCatalog,
  skillFileNames,
  substituteArguments,
  toPrompt,
  unpackSkillArtifact,
  verifyMcpFile,
  version,
  initSync,
  __wbg_reset_state,
} = guardModule(glue);

export { onInstanceReset, instanceResets, InstanceResetError } from "./instance.js";

// Storage adapters (see index.d.ts: SkillStorage). nodeFsStorage is in the node entry only.
export { memoryStorage } from "./storage/memory.js";
export { r2Storage } from "./storage/r2.js";
export { indexedDbStorage, putSkillFiles, deleteKeys } from "./storage/indexeddb.js";
export { DEFAULT_MAX_OBJECT_BYTES, assertKey, assertPrefix } from "./storage/keys.js";

// Skills over the network: a discovery index as a store, and publishing one.
export { wellKnownStorage } from "./storage/well-known.js";
export { publishWellKnown } from "./publish.js";
export { mcpStorage } from "./storage/mcp.js";

export { aiSdkTool, aiSdkTools, openAiTool, openAiToolMessage, openAiResponsesOutput, anthropicTool, anthropicToolResult } from "./tools.js";
export { unzip, ZipError } from "./zip.js";
