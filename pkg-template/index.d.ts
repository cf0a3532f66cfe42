// Types shared by every entry point (node, workerd, browser): the generated wasm-bindgen
// declarations plus `init`. Among the generated ones, besides the registry, the tool and the
// transcript functions: the storage contract (`SkillStorage`, `ListPage`, `ListSkip`, the skip
// hint of `list`) and discovery's small rules for code outside a registry: `isSkippedDirectory`,
// `skillFileNames`, `frontmatterSpan` (`FrontmatterSpan`) and `estimateTokens`.
export * from "./skillwasm.js";
// The second module's functions (transcripts, argument substitution, skill-directory checks, the
// discovery index, the MCP client's checks) and the types only they use; its other types are the
// core module's, exported above. The generic transcript functions are declared further down.
export {
  checkRequestUrl,
  detectTranscriptFormat,
  findSkillContent,
  isInSkillDirectory,
  mcpFileUri,
  mcpSkillsExtension,
  parseMcpSkills,
  parseSkillsIndex,
  protectedMessages,
  publishSkillFiles,
  readProperties,
  substituteArguments,
  toPrompt,
  unpackSkillArtifact,
  verifyMcpFile,
} from "./skillwasm_extra.js";
export type {
  PropertiesResult,
  Change,
  ChangeAction,
  CompactOptions,
  CompactReport,
  CompactResult,
  Compacted,
  Found,
  FoundResult,
  McpFile,
  McpSkill,
  McpSkillsDeclared,
  McpSkillsPage,
  McpVerified,
  OriginOptions,
  RequestTarget,
  SkillContent,
  SkillUse,
  Skipped,
  Transcript,
  TranscriptFormat,
  UseKind,
} from "./skillwasm_extra.js";
// User invocation and permissions (the second module runs them over the core's registries and
// tools): the types only they use, and the functions, declared here since extra.js puts them
// together (SkillTool.invoke is declared with the tool's transcript methods below).
export type {
  ArgumentName,
  MatchKind,
  PermissionContext,
  SubstituteOptions,
  Suggestion,
  ToolDecision,
} from "./skillwasm_extra.js";
import type { PermissionContext, Suggestion, ToolDecision } from "./skillwasm_extra.js";
import type { Injection, InvokeOptions, ParsedMessage } from "./skillwasm.js";
/**
 * The `/name args` at the start of a message and the `$name` mentions in it (outside code),
 * among the skills the registry's configuration lets the user invoke.
 */
export function parseMessage(registry: SkillRegistry, text: string): ParsedMessage;
/**
 * Ranked suggestions for a partial `/name` (exact, prefix, word, then fuzzy matches), among the
 * skills the registry's configuration lets the user invoke.
 */
export function autocomplete(registry: SkillRegistry, partial: string, limit?: number): Suggestion[];
/** Whether one of the active skills' `allowed-tools` pre-approves this call (and which entry). */
export function isToolAllowed(
  registry: SkillRegistry,
  activeSkills: string[],
  tool: string,
  input?: unknown,
  context?: PermissionContext,
): ToolDecision;
import type { ListSkip, PackedSkillPrefixPage, SkillPrefixPage, SkillRegistry, SkillStorage } from "./skillwasm.js";
// Serving a registry's skills (the MCP Skills extension's server methods, publishing a discovery
// index): the second module runs them over the core's registries; the types come from it, the
// class and the function are declared here since extra.js puts them together.
export type {
  IndexSkill,
  McpCacheable,
  McpGetSkillResult,
  McpListSkillsResult,
  McpMethodError,
  McpReadResourceResult,
  McpResource,
  McpResourcesResult,
  McpSkillEntry,
  McpSkillResource,
  ParsedIndex,
  PublishedArtifact,
  PublishedIndex,
  SkillsMcpOptions,
  UnpackOptions,
  UnpackedSkill,
} from "./skillwasm_extra.js";
import type { PublishedIndex, SkillsMcp as ServedSkillsMcp, SkillsMcpOptions } from "./skillwasm_extra.js";
/** The MCP Skills extension's methods over a registry: its skills, read through its stores. */
export type SkillsMcp = ServedSkillsMcp;
/** The MCP Skills extension's methods over a registry: its skills, read through its stores. */
export declare const SkillsMcp: {
  new (registry: SkillRegistry, options?: SkillsMcpOptions): ServedSkillsMcp;
  readonly prototype: ServedSkillsMcp;
};

/**
 * An index and its artifacts for the skills `registry` offers the model, each with every file of
 * its directory read through its store. Skills left out (over the limits, a failing store) are in
 * the result's diagnostics.
 */
export function publishRegistry(registry: SkillRegistry, opts?: { baseUrl?: string }): Promise<PublishedIndex>;

declare global {
  // The classes' `[Symbol.dispose]()` (for `using`): declared here as @types/node does, so that a
  // project needs neither the esnext.disposable lib nor Node's types.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
  // The web types `init` and the network store name, as the interfaces they are: they merge with
  // the DOM lib's, Node's or a worker's where a project has those, and let the declarations
  // compile with lib es2022 alone where it has none.
  interface Request {}
  interface Response {}
  interface URL {}
  interface AbortSignal {}
  namespace WebAssembly {
    interface Module {}
    interface Memory {}
    interface Table {}
  }
}

/**
 * A wasm module as {@link init} takes it: a URL (or its string), a `Request` or `Response` to
 * read it from, its bytes, or a compiled `WebAssembly.Module`.
 */
export type InitInput = Request | string | URL | Response | ArrayBufferView | ArrayBuffer | WebAssembly.Module;

/**
 * Instantiate the core module synchronously from its bytes or a compiled module (the browser
 * entry's `init` does this asynchronously and fetches the rest; Node and Cloudflare Workers
 * need neither). Returns the instance's raw exports, for tooling such as reading its memory.
 * Once the module is instantiated (by this, `init` or at import), it returns the current
 * instance's exports and needs no argument; before that, it throws without one.
 */
export function initSync(
  module?: { module: ArrayBufferView | ArrayBuffer | WebAssembly.Module } | ArrayBufferView | ArrayBuffer | WebAssembly.Module,
): { readonly memory: WebAssembly.Memory };

/**
 * Make the wasm module ready. In Node and Cloudflare Workers the module is instantiated at import
 * and this resolves immediately. In browsers it fetches `skillwasm_bg.wasm` next to the package's
 * JS, or instantiates what you pass: a `WebAssembly.Module`, a `Response`, a URL, or the bytes;
 * it resolves once that core module is instantiated, so that parsing, discovery, catalogs and the
 * skill tool work. The rest of the package, the core's cold code (`skillwasm_cold_bg.wasm`) and
 * the second module (`skillwasm_extra_bg.wasm`), is fetched in the background afterwards, or
 * taken from `cold` and `extra` when given (the same kinds of input): see {@link ready}. Calling
 * it again returns the same promise.
 */
export function init(
  input?:
    | InitInput
    | Promise<InitInput>
    | { module_or_path: InitInput | Promise<InitInput>; cold?: InitInput | Promise<InitInput>; extra?: InitInput | Promise<InitInput> },
): Promise<void>;

/**
 * Resolves once every module of the package is loaded: at once in Node and Cloudflare Workers; in
 * browsers when the parts {@link init} fetches in the background have arrived (or could not be
 * had). Until then an async member that needs them waits for them, and a synchronous one (such as
 * `SkillRegistry.fromSnapshot`, `search`, `parseMessage`, the transcript functions) throws an
 * Error saying to await this first; parsing, discovery, catalogs and the skill tool need only the
 * core. Never rejects.
 */
export function ready(): Promise<void>;

// ---------------------------------------------------------------------------------------------
// A dead instance. A trap in the wasm (a WebAssembly.RuntimeError: out of memory, `unreachable`)
// is thrown to the caller as it is, and the package replaces the instance before the next call of
// any export. Async calls pending when it traps reject with an InstanceResetError (its `cause` is
// the RuntimeError); objects made by the old instance (SkillRegistry, SkillTool, SkillSession)
// throw an InstanceResetError from then on: make them again (SkillRegistry.fromSnapshot is quick).
// ---------------------------------------------------------------------------------------------

/** What an {@link onInstanceReset} listener is told. */
export interface InstanceResetEvent {
  /** The WebAssembly.RuntimeError that killed the instance. */
  error: Error;
  /** How many instances have been lost since the package was loaded, this one included. */
  count: number;
}

/**
 * Calls `listener` each time the wasm instance traps, when the trap is noticed (the replacement is
 * made on the next call of any export, so the listener may already call them). Returns a function
 * that removes the listener.
 */
export function onInstanceReset(listener: (event: InstanceResetEvent) => void): () => void;

/** How many wasm instances have been lost to a trap since the package was loaded. */
export function instanceResets(): number;

/**
 * Thrown by an object of a replaced instance ("this SkillRegistry belonged to a WebAssembly
 * instance that was reset after a trap; create it again"), and the rejection of an async call that
 * was pending when the instance trapped (`cause`: the RuntimeError).
 */
export class InstanceResetError extends Error {
  name: "InstanceResetError";
}

// ---------------------------------------------------------------------------------------------
// Storage: the contract every store implements, and the adapters shipped with the package.
// ---------------------------------------------------------------------------------------------

/** Throws a TypeError unless `key` is a valid storage key. */
export function assertKey(key: unknown): asserts key is string;
/** Throws a TypeError unless `prefix` is `""` or a valid key followed by `/`. */
export function assertPrefix(prefix: unknown): asserts prefix is string;

/**
 * The default size cap of every shipped adapter, in bytes: 16 MiB (16,777,216), the MCP Skills
 * extension's per-skill limit. Each adapter takes its own cap as the `maxObjectBytes` option
 * (an integer from 0 to 2^31 - 1).
 *
 * The refused-read contract, the same for every shipped adapter: a read that would return more
 * than the cap (a whole read of an object above it, or a `maxBytes` above it of an object above it)
 * is refused before a byte of the object is read, from the size the store already knows (the
 * listing's metadata, an fstat, the object's metadata in R2's `get` answer). The promise rejects
 * with an {@link ObjectTooLargeError}, which the core reports as a `storage-read-failed` diagnostic
 * of the skill (or as the `error` of `readFile`). A prefix read of at most the cap is served and
 * never reads, or allocates, more than min(maxBytes, size) bytes. The listing is not affected: an
 * object above the cap is still listed, with its size. IndexedDB cannot read part of a value, so
 * `indexedDbStorage` refuses every read of a value above the cap, prefix reads included.
 */
export const DEFAULT_MAX_OBJECT_BYTES: number;

/** What a read refused by the size cap rejects with (see {@link DEFAULT_MAX_OBJECT_BYTES}). */
export interface ObjectTooLargeError extends Error {
  /** The message names the key, the size and the cap. */
  readonly code: "object-too-large";
  readonly key: string;
  /** The object's size in bytes; null when only "more than the cap" is known (a file that grew). */
  readonly size: number | null;
  readonly maxObjectBytes: number;
}

/**
 * What every shipped adapter promises besides the contract: `list` and `read` never throw
 * synchronously and always settle. A bad key, prefix or option rejects with a TypeError before
 * anything is touched; an I/O error rejects with an Error whose message names the key (a system
 * error keeps its `code`, e.g. EACCES, ELOOP); what a listing leaves out (a link leaving the root,
 * an unreadable directory, a FIFO, a root that does not exist or holds nothing) is a `warnings`
 * entry of the page, which the core reports as a `storage-skipped` diagnostic.
 */
export interface AdapterOptions {
  /** The size cap in bytes (default {@link DEFAULT_MAX_OBJECT_BYTES}). */
  maxObjectBytes?: number;
}

/** A store held in memory; also mutable, for tests and bundled skills. */
export interface MemoryStorage extends SkillStorage {
  /** `"memory:/"`: the model is shown its skills as `memory:/<key>`. */
  readonly location: string;
  /** The size cap of this store, in bytes. */
  readonly maxObjectBytes: number;
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null>;
  /** Add or replace one object (strings are stored as UTF-8). */
  put(key: string, content: string | Uint8Array): void;
  /** Remove one object; true when it existed. */
  delete(key: string): boolean;
  /** The number of objects. */
  readonly size: number;
}

/**
 * In-memory store. No I/O: a list page is a binary search plus one entry per key; a read is a
 * lookup and a copy. Etag: FNV-1a of the content; cursor: the last key returned. A read that would
 * return more than `maxObjectBytes` rejects with an {@link ObjectTooLargeError} and copies nothing.
 */
export function memoryStorage(
  files?: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>,
  options?: AdapterOptions,
): MemoryStorage;

/**
 * A directory of the local filesystem (node entry only). A listing walks the subtree depth
 * first in key order, a page at a time (a realpath and a stat of the root, readdir per directory,
 * stat per file and link): each call reads only the directories its page needs (at most 4,096), and
 * the cursor names where the walk stopped, so no call walks a whole large tree. The directories a `skip` hint names ({@link ListSkip}: what discovery
 * drops anyway, `.git`, `node_modules` and dot-directories) are not entered at all: no readdir, no
 * stat, no key from them; a malformed `skip` rejects with a TypeError. Symbolic links are followed only when they stay inside the root; loops,
 * links leaving the root, dangling links, unreadable directories, FIFOs, sockets and devices are
 * skipped and reported in `warnings`; a root that does not exist (or is not a directory) is an
 * empty page with a warning saying so. Etag: `size-mtimeMs`.
 *
 * A read opens the file with `O_NOFOLLOW | O_NONBLOCK` (a FIFO never blocks the open), checks the
 * opened descriptor (fstat: regular files only; inside the root: on Linux by `/proc/self/fd`, so a
 * path swapped for a link while it is opened never serves an outside file; elsewhere by comparing
 * dev/ino with the path resolved again, which narrows that race to a swap and a swap back),
 * refuses a read above the cap from the fstat size ({@link ObjectTooLargeError}), and reads at most
 * min(maxBytes, cap) bytes. It resolves to null for a missing key or a directory and rejects for a
 * link leaving the root, a FIFO, socket or device, and an unreadable file.
 *
 * `listSkillPrefixes` (left out with `{ listSkillPrefixes: false }`): the batched listing of the
 * storage contract, made of synchronous calls and answered synchronously (it holds the event loop
 * while it walks and reads). One walk as `list` makes it, without a stat per file; the entries of
 * the files `files` names carry their first `prefixBytes` bytes, read under the rules of `read`
 * (the descriptor checked to be inside the root; a file above the cap is listed with its size and
 * a `headError`, unread; an unreadable one gets a `headError` naming the system code). With
 * `listOnly` (file names) only those files and the `files` are listed, the ones `files` does not
 * name with a size and an etag from a stat, and each directory entered below the prefix is named in
 * `directories` (`dir/`; a line of a packed page); without, the other entries carry only their key.
 * Discovery uses it instead of one read per SKILL.md. The store says `headsCostReads: true`: a
 * refresh asks it for no heads (`files: []`), and reads only the skill files whose size or etag
 * changed.
 */
export function nodeFsStorage(
  dir: string,
  options?: AdapterOptions & { maxEntries?: number; listSkillPrefixes?: boolean },
): SkillStorage & {
  listSkillPrefixes?(
    prefix: string,
    opts?: { cursor?: string; limit?: number; skip?: ListSkip; files?: string[]; prefixBytes?: number; packed?: false; listOnly?: string[] },
  ): SkillPrefixPage;
  /** Packed: the page's lines in one string and its heads in one buffer (what discovery asks for). */
  listSkillPrefixes?(
    prefix: string,
    opts: { cursor?: string; limit?: number; skip?: ListSkip; files?: string[]; prefixBytes?: number; packed: true; listOnly?: string[] },
  ): PackedSkillPrefixPage;
  /** The absolute root directory. */
  readonly root: string;
  /** The same absolute directory: the model is shown its skills' paths under it. */
  readonly location: string;
  readonly maxObjectBytes: number;
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null>;
};

/** The part of a Cloudflare R2 bucket binding that r2Storage uses. */
export interface R2BucketLike {
  list(options: { prefix?: string; cursor?: string; limit?: number }): Promise<{
    objects: { key: string; size: number; etag?: string; httpEtag?: string }[];
    truncated: boolean;
    cursor?: string;
  }>;
  get(
    key: string,
    options?: { range?: { offset: number; length: number } },
  ): Promise<{ size?: number; body?: { cancel(): Promise<void> }; arrayBuffer(): Promise<ArrayBuffer> } | null>;
  head(key: string): Promise<object | null>;
}

/**
 * An R2 bucket binding, under `prefix` (its keys are the object keys with the prefix stripped).
 * One `bucket.list` per page (limit at most 1000; the cursor is passed on only when R2 says
 * `truncated`); an empty first page costs one more `bucket.list` of one key, and carries a warning
 * when nothing at all is stored under `prefix`. One `bucket.get` per read, ranged when `maxBytes`
 * is given; a read above the cap is refused from the size in the `get` answer, its body cancelled
 * unread ({@link ObjectTooLargeError}).
 */
export function r2Storage(
  bucket: R2BucketLike,
  /** `bucketName` names the bucket in the locations the model is shown (a binding does not say it). */
  options?: AdapterOptions & { prefix?: string; bucketName?: string },
): SkillStorage & {
  readonly prefix: string;
  /** `r2://<bucketName>/<prefix>`, or `r2:/<prefix>` without a bucket name. */
  readonly location: string;
  readonly maxObjectBytes: number;
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null>;
};

/** A store in IndexedDB (see {@link indexedDbStorage}). */
export interface IndexedDbStorage extends SkillStorage {
  read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null>;
  /** Add or replace one object, in one transaction. */
  put(key: string, content: string | Uint8Array): Promise<void>;
  /** Remove one object, in one transaction. */
  delete(key: string): Promise<void>;
  /** Close the database connection (the next call opens it again). */
  close(): void;
  readonly dbName: string;
  readonly storeName: string;
  /** `indexeddb://<dbName>/<storeName>/` (URI-encoded names). */
  readonly location: string;
  /** The size cap of this store, in bytes. */
  readonly maxObjectBytes: number;
}

/**
 * A store in the IndexedDB database `dbName`: object store `storeName` (default `"skills"`) holds
 * `{ data, size, etag }` per key, and `storeName + ":meta"` holds `{ size, etag }` so that a listing
 * never loads file contents. A list page is one read-only transaction with a `getAllKeys` and a
 * `getAll` on the metadata store over the prefix's key range; a read is one `get` of the whole
 * value (trimmed to `maxBytes`), after a `get` of its metadata: any read of a value above the cap,
 * prefix reads included, is refused before the value is loaded ({@link ObjectTooLargeError}). An
 * empty first page carries a warning when the object store holds nothing at all. `indexedDB` and
 * `IDBKeyRange` default to the globals (in Node, pass fake-indexeddb's).
 */
export function indexedDbStorage(options: AdapterOptions & {
  dbName: string;
  storeName?: string;
  /** An IDBFactory (typed loosely so that these declarations need no DOM lib). */
  indexedDB?: { open(name: string, version?: number): unknown };
  /** The IDBKeyRange class of the same implementation. */
  IDBKeyRange?: { bound(...args: any[]): unknown; lowerBound(...args: any[]): unknown };
}): IndexedDbStorage;

/**
 * Write many files into an IndexedDB store in one transaction, at `prefix + path`; all or none.
 * Resolves to the keys written. At most 10,000 files per call: more rejects with a TypeError
 * before anything is written (split a larger set into several calls).
 */
export function putSkillFiles(
  storage: IndexedDbStorage,
  files: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>,
  options?: { prefix?: string },
): Promise<string[]>;

/**
 * Delete many keys from an IndexedDB store in one transaction. Resolves to the count given. At
 * most 10,000 keys per call, all valid storage keys: anything else rejects with a TypeError
 * naming `keys`, and nothing is deleted.
 */
export function deleteKeys(storage: IndexedDbStorage, keys: Iterable<string>): Promise<number>;

// ---------------------------------------------------------------------------------------------
// The skill tool in the shapes model APIs and frameworks take (over one SkillTool definition).
// ---------------------------------------------------------------------------------------------
import type { SkillTool, ToolInput, ToolResult } from "./skillwasm.js";

/**
 * The JSON schema of the skill tool's input (`SkillTool.definition().inputSchema`): an object with
 * `name` (the visible skills as its enum) and an optional `path`. Typed so that it is assignable
 * to the AI SDK's `JSONSchema7`, OpenAI's `FunctionParameters` and Anthropic's `Tool.InputSchema`.
 */
export interface SkillToolInputSchema {
  type: "object";
  properties: {
    [key: string]: { type: "string" | "boolean" | ["string" | "boolean", "null"]; description?: string; enum?: string[] };
  };
  required: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

/** What a Vercel AI SDK tool's `execute` resolves to (and the UI stream carries). */
export interface ReducedToolOutput {
  /** The skill's name. */
  name: string;
  /**
   * The skill's name under its former key (the same as `name`).
   * @deprecated Use `name`, as every other result does.
   */
  skillName: string;
  path: string | null;
  /** "Skill activated." for activations, "File read." for path reads (the file goes to the model only). */
  content: string;
  /** Bytes of the file, for path reads. */
  size?: number;
  isError: boolean;
}

/** The skill tool as a Vercel AI SDK tool (ai 6 and 7): `inputSchema` is what `jsonSchema` made of it. */
export interface AiSdkSkillTool<Schema> {
  description: string;
  inputSchema: Schema;
  execute(input: ToolInput, options?: unknown): Promise<ReducedToolOutput>;
  toModelOutput(options: { output: ReducedToolOutput }): Promise<{ type: "text" | "error-text"; value: string }>;
}

/**
 * A Vercel AI SDK tool for `tools: { [name]: ... }`: pass the SDK's `jsonSchema` to wrap the input
 * schema. The UI stream gets the reduced output; `toModelOutput` gives the model the full result.
 * Null when no skill is visible.
 */
export function aiSdkTool<Schema>(
  tool: SkillTool,
  options: { jsonSchema: (schema: SkillToolInputSchema) => Schema },
): AiSdkSkillTool<Schema> | null;
export function aiSdkTool(tool: SkillTool, options?: { jsonSchema?: undefined }): AiSdkSkillTool<SkillToolInputSchema> | null;

/**
 * `{ [name]: aiSdkTool(...) }`, or `{}` when no skill is visible: spread it into `tools`.
 */
export function aiSdkTools<Schema>(
  tool: SkillTool,
  options: { jsonSchema: (schema: SkillToolInputSchema) => Schema },
): Record<string, AiSdkSkillTool<Schema>>;

/** An OpenAI Chat Completions function tool (assignable to the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAiChatTool {
  type: "function";
  function: { name: string; description: string; parameters: SkillToolInputSchema; strict?: boolean };
}

/** An OpenAI Responses API function tool (assignable to the SDK's `FunctionTool`). */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: SkillToolInputSchema;
  strict: boolean;
}

/**
 * An OpenAI function tool: the Chat Completions shape, or with `{ api: "responses" }` the
 * Responses API's flat shape. `strict: true` gives the schema strict mode accepts (every property
 * required, `path` as `["string", "null"]`; a `null` path reads the instructions); the Responses
 * shape always says `strict` (false unless asked). Null when no skill is visible.
 */
export function openAiTool(tool: SkillTool, options: { api: "responses"; strict?: boolean }): OpenAiResponsesTool | null;
export function openAiTool(tool: SkillTool, options?: { api?: "chat"; strict?: boolean }): OpenAiChatTool | null;

/**
 * The `role: "tool"` message answering an OpenAI Chat Completions tool call, with the tool's own
 * answer (`SkillTool.executeCall`): a call of another tool and arguments that are not JSON are
 * its error results (route calls by `function.name` first when the model has several tools).
 * Never rejects.
 */
export function openAiToolMessage(
  tool: SkillTool,
  /** A `ChatCompletionMessageToolCall` (a custom tool's call, which has no `function`, gets an error answer). */
  call: { id: string; function?: { name: string; arguments: string } },
): Promise<{ role: "tool"; tool_call_id: string; content: string }>;

/**
 * The `function_call_output` item answering a Responses API `function_call` output item (its
 * `call_id`, the tool's answer as `output`; another tool's call is an error answer, as for
 * {@link openAiToolMessage}). Never rejects.
 */
export function openAiResponsesOutput(
  tool: SkillTool,
  item: { call_id: string; name: string; arguments: string },
): Promise<{ type: "function_call_output"; call_id: string; output: string }>;

/** An Anthropic Messages tool (assignable to the SDK's `Tool`). */
export interface AnthropicSkillTool {
  name: string;
  description: string;
  input_schema: SkillToolInputSchema;
}

/** An Anthropic Messages tool. Null when no skill is visible. */
export function anthropicTool(tool: SkillTool): AnthropicSkillTool | null;

/**
 * The `tool_result` block answering an Anthropic `tool_use` block (a block naming another tool gets
 * the tool's error result). Never rejects.
 */
export function anthropicToolResult(
  tool: SkillTool,
  block: { id: string; name?: string; input: unknown },
): Promise<{ type: "tool_result"; tool_use_id: string; content: string; is_error?: true }>;

/**
 * What the OpenAI Agents SDK's `tool()` takes: `tool(openAiAgentsTool(skillTool))`. The schema is
 * the one strict mode accepts (the SDK's default); `execute` answers with the tool's text for the
 * model, error results included.
 */
export interface OpenAiAgentsSkillTool {
  name: string;
  description: string;
  parameters: SkillToolInputSchema;
  strict: true;
  execute(input: unknown): Promise<string>;
}

/** The skill tool as options for the OpenAI Agents SDK's `tool()` (`@openai/agents`). Null when no skill is visible. */
export function openAiAgentsTool(tool: SkillTool): OpenAiAgentsSkillTool | null;

/**
 * What Mastra's `createTool()` takes: `createTool(mastraTool(skillTool))`. The tool's name is the
 * `id`, the input schema is JSON schema; `execute` answers with the tool's text for the model,
 * error results included.
 */
export interface MastraSkillTool {
  id: string;
  description: string;
  inputSchema: SkillToolInputSchema;
  execute(input: unknown): Promise<string>;
}

/** The skill tool as options for Mastra's `createTool()` (`@mastra/core/tools`). Null when no skill is visible. */
export function mastraTool(tool: SkillTool): MastraSkillTool | null;

// ---------------------------------------------------------------------------------------------
// A user's `/skill` or `$skill` message (SkillTool.invoke's result) as each API's user message:
// each injected skill a text part of its own, then the text to send on (left out when empty and
// a skill was injected). Compaction recognises each such part as injected skill content.
// ---------------------------------------------------------------------------------------------

/** What the user-message helpers read of {@link SkillTool.invoke}'s result. */
export type InjectionLike = { injected: readonly { content: string }[]; remaining: string };

/**
 * A text part: the AI SDK's `TextPart`, OpenAI's `ChatCompletionContentPartText`, Anthropic's
 * `TextBlockParam`, LangChain's text block (a type, not an interface: LangChain's blocks have an
 * index signature, which only a type literal satisfies).
 */
export type UserTextPart = {
  type: "text";
  text: string;
};

/** A user message of text parts: an AI SDK `ModelMessage`, an OpenAI `ChatCompletionUserMessageParam`, an Anthropic `MessageParam`. */
export interface UserTextMessage {
  role: "user";
  content: UserTextPart[];
}

/** A Responses API user message input item (`ResponseInputItem`; the OpenAI Agents SDK's `AgentInputItem`). */
export interface OpenAiResponsesUserMessage {
  type: "message";
  role: "user";
  content: { type: "input_text"; text: string }[];
}

/** The user message for the Vercel AI SDK (a `ModelMessage`, ai 6 and 7). */
export function aiSdkUserMessage(injection: InjectionLike): UserTextMessage;
/**
 * The user message for OpenAI: Chat Completions (`ChatCompletionMessageParam`), or with
 * `{ api: "responses" }` a Responses API input item.
 */
export function openAiUserMessage(injection: InjectionLike, options: { api: "responses" }): OpenAiResponsesUserMessage;
export function openAiUserMessage(injection: InjectionLike, options?: { api?: "chat" }): UserTextMessage;
/** The user message for Anthropic Messages (a `MessageParam`). */
export function anthropicUserMessage(injection: InjectionLike): UserTextMessage;
/** The content of a LangChain `HumanMessage`: `new HumanMessage({ content: langChainUserContent(injection) })`. */
export function langChainUserContent(injection: InjectionLike): UserTextPart[];

// ---------------------------------------------------------------------------------------------
// Transcript operations: what they report beside the transcript.
// ---------------------------------------------------------------------------------------------
import type { Diagnostic, SessionChange } from "./skillwasm.js";
import type { McpSkill } from "./skillwasm_extra.js";

/**
 * The codes of the `notes` of a transcript operation (`Found.notes`, `CompactReport.notes`).
 * Content is attributed to a skill only where the skill tool or the host put it: a result of the
 * skill tool (one of the `toolName`s given; without them `view_skill` or any tool that answered a
 * call with a genuine `<skill_content>` answer for the skill the call names), or a block the
 * tool wrote at the start or the end of a user message. What could not be attributed is a note:
 * - `skill-content-unattributed` (warning): `<skill_content>` markup in a user's text or in another
 *   tool's result that is no block the tool wrote (quoted in the middle of the user's words, an
 *   imitation, left unclosed);
 * - `skill-result-unrecognised` (warning): a result of the skill tool that is not an answer the
 *   tool writes, or answers for another skill than the call named (it counts as an `error` use);
 * - `skill-content-other-tool` (info): a genuine answer under a tool that is not one of the
 *   `toolName`s given;
 * - `format-assumed` (info), `prune-cannot-fit` (warning), `already-reattached` (info).
 */
export type TranscriptNoteCode =
  | "skill-content-unattributed"
  | "skill-result-unrecognised"
  | "skill-content-other-tool"
  | "format-assumed"
  | "prune-cannot-fit"
  | "already-reattached";

import type { CompactOptions, CompactResult, SkillContent, Transcript } from "./skillwasm_extra.js";

// Generic over the transcript's message type: what goes in (AI SDK `ModelMessage[]`, OpenAI
// `ChatCompletionMessageParam[]`, Anthropic `MessageParam[]`) comes back typed as it went in.
// These declarations take the place of the generated ones of the same names.

/** Replaces activations (not file reads) with a short pointer, keeping the `keepRecent` latest whole. */
export function compactSkillContent<M>(transcript: readonly M[], opts?: CompactOptions): CompactResult<M>;
/** Replaces later repeats of an activation with a pointer to the first. */
export function dedupeSkillContent<M>(transcript: readonly M[], opts?: CompactOptions): CompactResult<M>;
/**
 * Drops the oldest unprotected messages (calls and results together) until the transcript fits
 * `budgetTokens`; never cuts skill content.
 */
export function pruneTranscript<M>(transcript: readonly M[], budgetTokens: number, opts?: CompactOptions): CompactResult<M>;
/**
 * Puts back the latest instructions of skills that were in use (within `perSkillTokens` and
 * `totalTokens`), after the catalog, as one user message.
 */
export function reattachSkills<M>(
  transcript: readonly M[],
  contents: SkillContent[],
  catalog?: string | null,
  opts?: CompactOptions,
): CompactResult<M>;

declare module "./skillwasm.js" {
  // The tool's transcript operations, generic in the same way (merged into the generated class).
  interface SkillTool {
    /**
     * Handles a user's message: the skills it invokes (`/name args`, arguments substituted) or
     * mentions (`$name`) among those the user may invoke, wrapped for the conversation and
     * recorded in the session, and the text to send on. A skill whose instructions the
     * conversation holds already (loaded by the model or by an earlier `/name`) gets the short
     * pointer a repeated activation gets (`alreadyLoaded: true`), unless `force` is set. Rejects
     * only on arguments of the wrong type (a `TypeError`, unknown option keys included).
     */
    invoke(message: string, options?: InvokeOptions): Promise<Injection>;
    compactSkillContent<M>(transcript: readonly M[], options?: CompactOptions): CompactResult<M>;
    dedupeSkillContent<M>(transcript: readonly M[], options?: CompactOptions): CompactResult<M>;
    pruneTranscript<M>(transcript: readonly M[], budgetTokens: number, options?: CompactOptions): CompactResult<M>;
    reattach<M>(transcript: readonly M[], options?: CompactOptions): Promise<CompactResult<M>>;
  }
  // Follows a transcript the host keeps (after its own compaction or pruning): skills whose
  // instructions are no longer in it are forgotten, so their next activation is full.
  interface SkillSession {
    observe(transcript: Transcript, options?: CompactOptions): SessionChange | { error: Diagnostic };
  }
}

/**
 * One note of a transcript operation: a diagnostic (`{ severity, code, message }`) whose message
 * begins with `message N: ` when it is about the message at index N.
 */
export type TranscriptNote = Diagnostic & { code: TranscriptNoteCode };

/** A malformed archive (`status` 400) or one over a limit (413). */
export class ZipError extends Error {
  readonly status: 400 | 413;
}

/**
 * The files of a zip archive (stored and deflated entries; no zip64 or encryption), directory
 * entries left out. Sizes are checked while inflating, so an archive whose headers lie stops at the
 * limit; CRCs are checked. Defaults: 16 MiB per file, 64 MiB in all, 10,000 files.
 */
export function unzip(
  zip: Uint8Array | ArrayBuffer,
  limits?: { fileBytes?: number; uploadBytes?: number; files?: number },
): Promise<{ path: string; bytes: Uint8Array }[]>;

// ---------------------------------------------------------------------------------------------
// Skills over the network: the Agent Skills Discovery index (README: Skills over the network).
// The core's rules are the generated parseSkillsIndex, unpackSkillArtifact and publishSkillFiles.
// ---------------------------------------------------------------------------------------------

/** Options of {@link wellKnownStorage}. */
export interface WellKnownOptions {
  /**
   * Used instead of `globalThis.fetch`. It is called with `redirect: "manual"` (the store follows
   * redirects itself, checking each hop) and an AbortSignal that fires at `timeoutMs`.
   */
  fetch?: (url: string, init: { headers: Record<string, string>; redirect: "manual"; signal: AbortSignal }) => Promise<Response>;
  /** Sent with every request to the origin of `baseUrl`, and to no other origin. */
  headers?: Record<string, string>;
  /**
   * Origins (`"https://cdn.example.com"`) the index's entries and redirects may also lead to,
   * requested without `headers`. Any other origin is refused (`origin-refused`). Default none.
   */
  allowOrigins?: string[];
  /** Most milliseconds one request may take, redirects and body included, before it is aborted (default 30,000). */
  timeoutMs?: number;
  /** Most bytes a skill's files may have together, unpacked (default 16 MiB). */
  maxSkillBytes?: number;
  /** Most bytes one artifact download may have (default 16 MiB). */
  maxArtifactBytes?: number;
  /** Most entries an archive may hold (default 512). */
  maxEntries?: number;
  /** Most bytes of the index (default 16 MiB). */
  maxIndexBytes?: number;
  /** The size cap of a read (default 16 MiB). */
  maxObjectBytes?: number;
  /** Try the v0.1.0 `/.well-known/skills/index.json` when the v0.2.0 index answers 404 (default true). */
  fallback?: boolean;
}

/** A store over a discovery index: read only, `remote: true` (untrusted unless the scope says `trusted: true`). */
export interface WellKnownStorage extends SkillStorage {
  readonly location: string;
  /** The index URL's origin (`https://example.com`): where its skills come from, for the host's `approve`. */
  readonly origin: string;
  readonly remote: true;
  /** `[""]`: its skills are at its root, where a scope that names no roots searches. */
  readonly roots: readonly string[];
  readonly maxObjectBytes: number;
  /** What the last index and each skill's artifact said. */
  diagnostics(): { index: Diagnostic[]; skills: Record<string, Diagnostic[]> };
  /** Requests made so far. */
  stats(): { indexRequests: number; indexNotModified: number; artifactRequests: number; artifactBytes: number };
}

/**
 * A store over the discovery index of `baseUrl` (a site, or the index's own URL ending in `.json`).
 * A listing fetches the index (conditionally) and no artifact; the first read of a skill fetches
 * its artifact once, verifies its digest and unpacks it in the core; files are kept by digest.
 */
export function wellKnownStorage(baseUrl: string | URL, options?: WellKnownOptions): WellKnownStorage;

// ---------------------------------------------------------------------------------------------
// Skills over MCP: a server of the Skills extension as a store (README: Consuming skills over
// MCP). The core's rules are the generated mcpSkillsExtension, parseMcpSkills, mcpFileUri and
// verifyMcpFile.
// ---------------------------------------------------------------------------------------------

/** What {@link mcpStorage} needs of a client: the SDK's `Client`, connected, has all of it. */
export interface McpClientLike {
  request(request: { method: string; params?: Record<string, unknown> }, resultSchema: unknown, options?: { timeout?: number; signal?: AbortSignal }): Promise<unknown>;
  getServerCapabilities?(): Record<string, unknown> | undefined;
  getServerVersion?(): { name: string; version?: string } | undefined;
  /** The SDK's transport: its configured command (stdio) or URL (HTTP) may give the server's label. */
  readonly transport?: unknown;
}

/** Options of {@link mcpStorage}. */
export interface McpStorageOptions {
  /**
   * The host's label for the server: the scope name to give it and the host of its `mcp://`
   * locations. Required unless the client's transport was configured with a command (stdio: the
   * command's and its first argument's last segments, `node acme.mjs`) or a URL (its host and port);
   * the name the server reports is never used.
   */
  server?: string;
  /** Take skills whose resources are "dynamic" (no digests: only their frontmatter is verified). Default false. */
  dynamic?: boolean;
  /** Most milliseconds one request may take before it is cancelled (default 10,000). */
  timeoutMs?: number;
  /** Most skills/list pages one listing reads (default 10,000). */
  maxPages?: number;
  /** Most bytes of JSON in one skills/list page or skills/get result (default 4 MiB). */
  maxMessageBytes?: number;
  /** Most bytes in one cursor a server gives (default 8 KiB). */
  maxCursorBytes?: number;
  /** Most bytes of JSON one listing reads in all (default 64 MiB). */
  maxListingBytes?: number;
  /**
   * Connects a new client when the connection closed under a request (a stdio transport closes on
   * one message over its buffer bound): called before the store's next request.
   */
  reconnect?: () => Promise<McpClientLike>;
  /** The size cap of a read (default 16 MiB). */
  maxObjectBytes?: number;
}

/** A store over an MCP server of the Skills extension: read only, `remote: true`. */
export interface McpStorage extends SkillStorage {
  /** `mcp://<server>/`. */
  readonly location: string;
  readonly server: string;
  /** `mcp:<server>`: where its skills come from, for the host's `approve`. */
  readonly origin: string;
  readonly remote: true;
  /** `[""]`: its skills are at its root (each at its skill path), where a scope that names no roots searches. */
  readonly roots: readonly string[];
  readonly maxObjectBytes: number;
  listSkillPrefixes(prefix: string, opts: { cursor?: string; limit?: number; skip?: ListSkip; files: string[]; prefixBytes: number }): Promise<SkillPrefixPage>;
  /** Loads a skill by the URI of its SKILL.md (skills/get); later listings keep it. Then `registry.refresh()`. */
  addSkill(uri: string): Promise<{ key: string | null; name: string | null; uri: string; diagnostics: Diagnostic[]; error?: string }>;
  /** The retained entry of the skill a key belongs to, or null. */
  entry(key: string): McpSkill | null;
  /** What the last listing and each refused read said. */
  diagnostics(): { listing: Diagnostic[]; skills: Record<string, Diagnostic[]> };
  /** Requests made so far. */
  stats(): { listRequests: number; getRequests: number; readRequests: number; readBytes: number; mismatches: number; listBytes: number; reconnects: number };
}

/**
 * A store over a connected MCP client whose server declares `io.modelcontextprotocol/skills`.
 * A listing pages through skills/list and reads no file; a read fetches one listed URI with
 * resources/read and verifies it in the core (size, digest, frontmatter), refetching the entry
 * with skills/get on a mismatch.
 */
export function mcpStorage(client: McpClientLike, options?: McpStorageOptions): McpStorage;

/**
 * The discovery index and its artifacts for `source`: a registry (the skills it offers the model,
 * each with every file of its directory, read through its store; `prefix` does not apply),
 * `{ key: content }` (or a Map) whose top-level directories holding a SKILL.md are the skills, or a
 * store read under `prefix`.
 */
export function publishWellKnown(
  source: SkillRegistry | Record<string, string | Uint8Array> | Map<string, string | Uint8Array> | SkillStorage,
  options?: { baseUrl?: string; prefix?: string },
): Promise<PublishedIndex>;
