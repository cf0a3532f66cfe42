// Types of `skillwasm/mcp`: the MCP Skills extension (SEP-2640) on a server of the official
// TypeScript SDK, v2 (`@modelcontextprotocol/server`, an optional peer dependency of skillwasm),
// which serves MCP 2026-07-28 beside the 2025 revisions.
import type { McpHttpHandler, McpServer, Server } from "@modelcontextprotocol/server";
import type { SkillRegistry, SkillToolOptions } from "./index.js";

/** `"io.modelcontextprotocol/skills"`, the key the extension is declared under. */
export declare const SKILLS_EXTENSION: "io.modelcontextprotocol/skills";

/** The options of {@link skillsMcpServer}. */
export interface SkillsMcpServerOptions {
  /** Register on this server (before it is connected) instead of a new one. Not taken by {@link skillsMcpHandler}. */
  server?: Server | McpServer;
  /** The new server's name (default "skillwasm"). */
  name?: string;
  /** The new server's version (default the package's). */
  version?: string;
  /** Text put first in the new server's `instructions`. */
  instructions?: string;
  /** Entries per page of `skills/list`, `resources/list` and directory reads (default 50, at most 1000). */
  pageSize?: number;
  /** The results' `ttlMs` (default 60000). */
  ttlMs?: number;
  /** The results' `cacheScope` (default "private"). */
  cacheScope?: "public" | "private";
  /** Declare `directoryRead` and answer `resources/directory/read` (default true). */
  directoryRead?: boolean;
  /**
   * Also offer the skill tool as an ordinary MCP tool (`tools/list`, `tools/call`), with the
   * catalog in a new server's `instructions`; an object gives the tool's options. Default false.
   */
  tool?: boolean | SkillToolOptions;
}

/**
 * Registers the Skills extension over `registry` on an SDK server and returns the low-level
 * `Server`: the extension declared in `capabilities.extensions` (with `directoryRead`) next to
 * `resources`; `skills/list` (paged), `skills/get`, `resources/read` of `skill://` URIs,
 * `resources/list`, `resources/templates/list` and `resources/directory/read`. An unknown skill,
 * file or directory is JSON-RPC -32602.
 */
export declare function skillsMcpServer(registry: SkillRegistry, options?: SkillsMcpServerOptions): Server;

/**
 * The skills over Streamable HTTP, both protocol eras on one endpoint: the SDK's
 * `createMcpHandler` with a server from {@link skillsMcpServer} for each request. A 2026-07-28
 * request is served on the modern path (`server/discover`, the per-request `_meta` envelope); a
 * 2025 one through the stateless fallback (`initialize` answered, no session). Serve it with
 * `handler.fetch(request)` (Workers, Deno, Bun) or the SDK's Node adapter.
 */
export declare function skillsMcpHandler(registry: SkillRegistry, options?: Omit<SkillsMcpServerOptions, "server">): McpHttpHandler;
