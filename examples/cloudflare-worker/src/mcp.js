// The Worker's MCP endpoint: the registry's skills over the MCP Skills extension
// (skillwasm/mcp), Streamable HTTP through the SDK's web-standard transport, stateless (a server
// and a transport per request, JSON responses). Read-only: nothing here writes to the bucket.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { version } from "skillwasm";
import { skillsMcpServer } from "skillwasm/mcp";

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
  const server = skillsMcpServer(registry, {
    name: "skillwasm-skills",
    version: version(),
    cacheScope: "public",
    tool: { toolName },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: message });
}
