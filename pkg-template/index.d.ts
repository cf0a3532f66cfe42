// Types shared by every entry point (node, workerd, browser): the generated wasm-bindgen
// declarations plus `init`.
export * from "./skillwasm.js";
import type { InitInput, SkillStorage } from "./skillwasm.js";

/**
 * Make the wasm module ready. In Node and Cloudflare Workers the module is instantiated at import
 * and this resolves immediately. In browsers it fetches `skillwasm_bg.wasm` next to the package's
 * JS, or instantiates what you pass: a `WebAssembly.Module`, a `Response`, a URL, or the bytes.
 * Calling it again returns the same promise.
 */
export function init(
  input?: InitInput | Promise<InitInput> | { module_or_path: InitInput | Promise<InitInput> },
): Promise<void>;

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

/** A store held in memory; also mutable, for tests and bundled skills. */
export interface MemoryStorage extends SkillStorage {
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
 * lookup and a copy. Etag: FNV-1a of the content; cursor: the last key returned.
 */
export function memoryStorage(
  files?: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>,
): MemoryStorage;

/**
 * A directory of the local filesystem (node entry only). One listing walks the subtree once
 * (readdir per directory, stat per file and link) and serves its pages from that walk. Symbolic
 * links are followed only when they stay inside the root; loops, links leaving the root, dangling
 * links and unreadable directories are skipped and reported in `warnings`. Etag: `size-mtimeMs`.
 * A read opens the file and reads at most `maxBytes` bytes; it throws for a link leaving the root,
 * a non-regular file or an unreadable file.
 */
export function nodeFsStorage(
  dir: string,
  options?: { maxEntries?: number },
): SkillStorage & { readonly root: string; read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null> };

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
  ): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  head(key: string): Promise<object | null>;
}

/**
 * An R2 bucket binding, under `prefix` (its keys are the object keys with the prefix stripped).
 * One `bucket.list` per page (limit at most 1000; the cursor is passed on only when R2 says
 * `truncated`); one `bucket.get` per read, ranged when `maxBytes` is given.
 */
export function r2Storage(
  bucket: R2BucketLike,
  options?: { prefix?: string },
): SkillStorage & { readonly prefix: string; read(key: string, opts?: { maxBytes?: number }): Promise<Uint8Array | null> };

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
}

/**
 * A store in the IndexedDB database `dbName`: object store `storeName` (default `"skills"`) holds
 * `{ data, size, etag }` per key, and `storeName + ":meta"` holds `{ size, etag }` so that a listing
 * never loads file contents. A list page is one read-only transaction with a `getAllKeys` and a
 * `getAll` on the metadata store over the prefix's key range; a read is one `get` of the whole
 * value (trimmed to `maxBytes`). `indexedDB` and `IDBKeyRange` default to the globals (in Node,
 * pass fake-indexeddb's).
 */
export function indexedDbStorage(options: {
  dbName: string;
  storeName?: string;
  /** An IDBFactory (typed loosely so that these declarations need no DOM lib). */
  indexedDB?: { open(name: string, version?: number): unknown };
  /** The IDBKeyRange class of the same implementation. */
  IDBKeyRange?: { bound(...args: any[]): unknown; lowerBound(...args: any[]): unknown };
}): IndexedDbStorage;

/**
 * Write many files into an IndexedDB store in one transaction, at `prefix + path`; all or none.
 * Resolves to the keys written.
 */
export function putSkillFiles(
  storage: IndexedDbStorage,
  files: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>,
  options?: { prefix?: string },
): Promise<string[]>;

/** Delete many keys from an IndexedDB store in one transaction. Resolves to the count given. */
export function deleteKeys(storage: IndexedDbStorage, keys: Iterable<string>): Promise<number>;

// ---------------------------------------------------------------------------------------------
// The skill tool in the shapes model APIs and frameworks take (over one SkillTool definition).
// ---------------------------------------------------------------------------------------------
import type { SkillTool, ToolInput } from "./skillwasm.js";

/** What a Vercel AI SDK tool's `execute` resolves to (and the UI stream carries). */
export interface ReducedToolOutput {
  skillName: string;
  path: string | null;
  /** "Skill activated." for activations; the whole file for path reads. */
  content: string;
  isError: boolean;
}

/**
 * A Vercel AI SDK tool for `tools: { [name]: ... }`: pass the SDK's `jsonSchema` to wrap the input
 * schema. The UI stream gets the reduced output; `toModelOutput` gives the model the full result.
 * Null when no skill is visible.
 */
export function aiSdkTool(
  tool: SkillTool,
  options?: { jsonSchema?: (schema: Record<string, unknown>) => unknown },
): {
  description: string;
  inputSchema: unknown;
  execute(input: ToolInput): Promise<ReducedToolOutput>;
  toModelOutput(options: { output: ReducedToolOutput }): Promise<{ type: "text" | "error-text"; value: string }>;
} | null;

/** An OpenAI function tool (Chat Completions shape, or the Responses API's flat shape). */
export function openAiTool(
  tool: SkillTool,
  options?: { api?: "chat" | "responses" },
): { type: "function"; function?: { name: string; description: string; parameters: Record<string, unknown> }; name?: string; description?: string; parameters?: Record<string, unknown> } | null;

/** The `role: "tool"` message answering an OpenAI Chat Completions tool call. Never rejects. */
export function openAiToolMessage(
  tool: SkillTool,
  call: { id: string; function: { name: string; arguments: string } },
): Promise<{ role: "tool"; tool_call_id: string; content: string }>;

/** An Anthropic Messages tool. */
export function anthropicTool(tool: SkillTool): { name: string; description: string; input_schema: Record<string, unknown> } | null;

/** The `tool_result` block answering an Anthropic `tool_use` block. Never rejects. */
export function anthropicToolResult(
  tool: SkillTool,
  block: { id: string; input: unknown },
): Promise<{ type: "tool_result"; tool_use_id: string; content: string; is_error?: true }>;

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
