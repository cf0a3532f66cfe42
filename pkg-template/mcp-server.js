// Skills over MCP, the publishing side: the MCP Skills extension (SEP-2640,
// `io.modelcontextprotocol/skills`) registered on a server of the official TypeScript SDK (v2,
// `@modelcontextprotocol/server`), which speaks both protocol eras: 2026-07-28 (`server/discover`,
// the per-request `_meta` envelope, no session) and the 2025 revisions (the `initialize`
// handshake). The methods, their results and their errors are the core's (SkillsMcp); this module
// declares the capabilities, registers the handlers, turns the core's error values into JSON-RPC
// errors, and gives the SDK's two serving entries (HTTP per request, stdio per connection) a
// server per serving unit. The SDK is an optional peer dependency: only `skillwasm/mcp` imports it.
import { Server, createMcpHandler } from "@modelcontextprotocol/server";
import { SkillRegistry, SkillTool, SkillsMcp, version } from "./exports.js";
import { optionsObject, show } from "./storage/keys.js";

/** The extension's identifier, the key of its declaration in the server's capabilities. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

const INVALID_PARAMS = -32602;

// The custom methods' params, as the SDK wants a schema (Standard Schema): any object passes.
// Each value is checked by `param`, so that a bad one is -32602 with a message naming it.
const ANY_PARAMS = Object.freeze({
  "~standard": Object.freeze({ version: 1, vendor: "skillwasm", validate: (value) => ({ value }) }),
});

function rpcError(code, message) {
  return Object.assign(new Error(message), { code });
}

function param(method, params, key, required) {
  const value = params !== null && typeof params === "object" ? params[key] : undefined;
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string") {
    throw rpcError(INVALID_PARAMS, `${method}: params.${key} must be a string, got ${show(value)}`);
  }
  return value;
}

/** A core answer as the SDK wants it: the result, or a thrown JSON-RPC error. */
function settle(answer) {
  if (answer !== null && typeof answer === "object" && "error" in answer) {
    throw rpcError(answer.error.code, answer.error.message);
  }
  return answer;
}

function lowLevel(server) {
  if (server !== null && typeof server === "object" && typeof server.setRequestHandler === "function") return server;
  const inner = server?.server;
  if (inner !== null && typeof inner === "object" && typeof inner.setRequestHandler === "function") return inner;
  throw new TypeError(`skillsMcpServer: options.server must be an SDK Server or McpServer, got ${show(server)}`);
}

function toolResult(outcome) {
  return { content: [{ type: "text", text: outcome.content }], ...(outcome.isError ? { isError: true } : {}) };
}

/** The options of skillsMcpServer and skillsMcpHandler. */
const SERVER_KEYS = ["server", "name", "version", "instructions", "pageSize", "ttlMs", "cacheScope", "directoryRead", "tool"];

/**
 * Serves a registry's skills over MCP: declares the Skills extension (with `directoryRead`) and
 * `resources`, and answers `skills/list`, `skills/get`, `resources/read`, `resources/list`,
 * `resources/templates/list` and `resources/directory/read`. With `tool`, the skill tool is also
 * an ordinary MCP tool (`tools/list`, `tools/call`) and, when this function makes the server, the
 * catalog is in its `instructions`, for clients that do not speak the extension.
 *
 * Registers on `options.server` (an SDK `Server`, or an `McpServer` through its `.server`) before
 * it is connected, or on a new `Server` named `options.name`. Returns the low-level `Server`.
 *
 * @param {import("./index.js").SkillRegistry} registry
 * @param {import("./mcp-server.js").SkillsMcpServerOptions} [options]
 */
export function skillsMcpServer(registry, options = {}) {
  options = optionsObject(options, "skillsMcpServer", { keys: SERVER_KEYS });
  if (!(registry instanceof SkillRegistry)) {
    throw new TypeError(`skillsMcpServer: registry must be a SkillRegistry, got ${show(registry)}`);
  }
  const core = new SkillsMcp(registry, {
    pageSize: options.pageSize,
    ttlMs: options.ttlMs,
    cacheScope: options.cacheScope,
  });
  const directoryRead = options.directoryRead ?? true;
  if (typeof directoryRead !== "boolean") {
    throw new TypeError(`skillsMcpServer: options.directoryRead must be a boolean, got ${show(directoryRead)}`);
  }
  const toolOption = options.tool ?? false;
  const tool = toolOption === false ? null : new SkillTool(registry, toolOption === true ? undefined : toolOption);
  let server;
  if (options.server === undefined) {
    const catalog = tool?.catalog();
    const instructions = [options.instructions, catalog?.text, catalog?.instructions].filter((t) => typeof t === "string" && t !== "");
    server = new Server(
      { name: options.name ?? "skillwasm", version: options.version ?? version() },
      instructions.length > 0 ? { instructions: instructions.join("\n\n") } : {},
    );
  } else {
    server = lowLevel(options.server);
  }
  if (server.transport !== undefined) {
    throw new Error("skillsMcpServer: the server is already connected; register before connect()");
  }
  server.registerCapabilities({
    resources: {},
    extensions: { [SKILLS_EXTENSION]: directoryRead ? { directoryRead: true } : {} },
    ...(tool ? { tools: {} } : {}),
  });
  const custom = (method, handle) => server.setRequestHandler(method, { params: ANY_PARAMS }, (params) => handle(params));
  custom("skills/list", async (p) => settle(await core.listSkills(param("skills/list", p, "cursor", false))));
  custom("skills/get", async (p) => settle(await core.getSkill(param("skills/get", p, "uri", true))));
  server.setRequestHandler("resources/read", async (req) => settle(await core.readResource(req.params.uri)));
  server.setRequestHandler("resources/list", (req) => settle(core.listResources(req.params?.cursor)));
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      {
        uriTemplate: "skill://{name}/{+path}",
        name: "skill-file",
        description: "A file of a skill: skill://<name>/SKILL.md for its instructions, skill://<name>/<path> for the others",
      },
    ],
  }));
  if (directoryRead) {
    custom("resources/directory/read", async (p) =>
      settle(await core.readDirectory(param("resources/directory/read", p, "uri", true), param("resources/directory/read", p, "cursor", false))),
    );
  }
  if (tool) {
    server.setRequestHandler("tools/list", () => {
      const d = tool.definition();
      return { tools: d === null ? [] : [{ name: d.name, description: d.description, inputSchema: d.inputSchema }] };
    });
    server.setRequestHandler("tools/call", async (req) =>
      toolResult(await tool.executeCall(req.params.name, req.params.arguments ?? {})),
    );
  }
  return server;
}

/**
 * The skills over Streamable HTTP, both protocol eras on one endpoint: a fetch-shaped handler
 * (the SDK's `createMcpHandler`) that builds a server with `skillsMcpServer(registry, options)`
 * for each request. A 2026-07-28 request (its `_meta` envelope and `MCP-Protocol-Version`
 * header) is served on the modern path; a 2025 one through the stateless fallback (`initialize`
 * answered, no session). `options.server` is refused: each request needs a server of its own.
 *
 * @param {import("./index.js").SkillRegistry} registry
 * @param {import("./mcp-server.js").SkillsMcpServerOptions} [options]
 */
export function skillsMcpHandler(registry, options = {}) {
  options = optionsObject(options, "skillsMcpHandler", { keys: SERVER_KEYS });
  if (options.server !== undefined) {
    throw new TypeError("skillsMcpHandler: options.server is not taken: every request is served by a server of its own");
  }
  // Built once here, so that a bad option throws now rather than on the first request.
  skillsMcpServer(registry, options);
  return createMcpHandler(() => skillsMcpServer(registry, options));
}
