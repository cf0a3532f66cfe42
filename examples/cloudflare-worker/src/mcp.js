// The Worker's MCP endpoint: the registry's skills over the MCP Skills extension
// (skillwasm/mcp), Streamable HTTP through the SDK's per-request entry, stateless: a 2026-07-28
// request (server/discover, the per-request _meta envelope) and a 2025 one (initialize, no
// session) are each served by a server of their own, JSON responses. Read-only: nothing here
// writes to the bucket.
import { version } from "skillwasm";
import { skillsMcpHandler } from "skillwasm/mcp";

/** A JSON-RPC error answered without a server (a bad method or body). */
export function mcpRefused(status, code, message) {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/** One MCP exchange: `body` is the request's bytes, already read within the Worker's bound. */
export async function serveMcp(registry, request, body, toolName) {
  let message;
  try {
    message = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return mcpRefused(400, -32700, "the body is not JSON");
  }
  const handler = skillsMcpHandler(registry, {
    name: "skillwasm-skills",
    version: version(),
    cacheScope: "public",
    tool: { toolName },
  });
  return handler.fetch(request, { parsedBody: message });
}
