// Types of `skillwasm/mcp`: the MCP Skills extension (SEP-2640) on a server of the official
// TypeScript SDK. `@modelcontextprotocol/sdk` is an optional peer dependency of skillwasm.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { SkillRegistry, SkillToolOptions } from "./index.js";

/** `"io.modelcontextprotocol/skills"`, the key the extension is declared under. */
export declare const SKILLS_EXTENSION: "io.modelcontextprotocol/skills";

/** The options of {@link skillsMcpServer}. */
export interface SkillsMcpServerOptions {
  /** Register on this server (before it is connected) instead of a new one. */
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
