// What every entry point exports (node.js, workerd.js and browser.js re-export this module and add
// only what differs: how the wasm is loaded, and nodeFsStorage in node). Adding an export is one
// edit here, or in guarded.js for an export of the wasm modules.
export * from "./guarded.js";

export { onInstanceReset, instanceResets, InstanceResetError } from "./instance.js";
export { ready } from "./rest.js";

// Storage adapters (see index.d.ts: SkillStorage). nodeFsStorage is in the node entry only.
export { memoryStorage } from "./storage/memory.js";
export { r2Storage } from "./storage/r2.js";
export { indexedDbStorage, putSkillFiles, deleteKeys } from "./storage/indexeddb.js";
export { DEFAULT_MAX_OBJECT_BYTES, assertKey, assertPrefix } from "./storage/keys.js";

// Skills over the network: a discovery index as a store, and publishing one.
export { wellKnownStorage } from "./storage/well-known.js";
export { publishWellKnown } from "./publish.js";
export { mcpStorage } from "./storage/mcp.js";

export { aiSdkTool, aiSdkTools, openAiTool, openAiToolMessage, openAiResponsesOutput, anthropicTool, anthropicToolResult, openAiAgentsTool, mastraTool } from "./tools.js";
export { aiSdkUserMessage, openAiUserMessage, anthropicUserMessage, langChainUserContent } from "./messages.js";
export { unzip, ZipError } from "./zip.js";
