// An SDK client connected in process (the SDK's InMemoryTransport) to an MCP server, and a count
// of the requests a client sends by method: for the MCP tests and benchmarks.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

/** A client named `name` connected to `server` in process. */
export async function connectInProcess(server, name = "skillwasm-test") {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name, version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** The requests `client` sends from now on, counted by method: `{ [method]: count }`. */
export function countRequests(client) {
  const counts = {};
  const request = client.request.bind(client);
  client.request = (req, schema, opts) => {
    counts[req.method] = (counts[req.method] ?? 0) + 1;
    return request(req, schema, opts);
  };
  return counts;
}
