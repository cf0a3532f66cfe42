// The connection mcpStorage sends its requests through: the host's SDK client, the label the host
// gives the server, and what happens when the connection closes under a request (a stdio transport
// closes the whole connection on one message over its buffer bound): the store says why, and
// reconnects through the host's `reconnect` before its next request when the host gave one.
import { codedError, show } from "./keys.js";

// The SDK checks every result against a schema. The core reads these results with its own bounds
// and rules, so the schema passed lets any value through, in both shapes the SDK's two lines take:
// `safeParse` (zod-compatible, `@modelcontextprotocol/sdk` 1.x) and Standard Schema
// (`@modelcontextprotocol/client` 2.x, which speaks 2026-07-28 as well as the 2025 revisions).
const ANY_RESULT = Object.freeze({
  safeParse: (data) => ({ success: true, data }),
  "~standard": Object.freeze({ version: 1, vendor: "skillwasm", validate: (value) => ({ value }) }),
});

/** What a method of `client` answers, or undefined when it has none or it throws. */
export function ask(client, method) {
  try {
    const f = client[method];
    return typeof f === "function" ? f.call(client) : undefined;
  } catch {
    return undefined;
  }
}

/** The client's transport, or undefined (a client without one, or a getter that throws). */
function transportOf(client) {
  try {
    return client.transport ?? undefined;
  } catch {
    return undefined;
  }
}

const lastSegment = (s) => s.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "";

/**
 * A label for the server from the host's own configuration of the client's transport, never from
 * anything the server says: the host (and port) of the URL an HTTP or WebSocket transport of either
 * SDK line was given (no path, query or credentials: those may hold secrets), or, for a stdio
 * transport, the last segment of its command and of its first argument that is not an option
 * (`node /srv/acme.mjs --x` is `node acme.mjs`). Undefined when the transport has neither.
 * @param {any} client
 * @returns {string | undefined}
 */
export function transportLabel(client) {
  const t = transportOf(client);
  try {
    const url = t?._url;
    if (url instanceof URL && url.host !== "") return url.host;
    const params = t?._serverParams;
    if (params && typeof params.command === "string" && params.command !== "") {
      const args = Array.isArray(params.args) ? params.args : [];
      const arg = args.find((a) => typeof a === "string" && a !== "" && !a.startsWith("-"));
      const words = [lastSegment(params.command), ...(arg === undefined ? [] : [lastSegment(arg)])].filter((w) => w !== "");
      return words.length > 0 ? words.join(" ").slice(0, 256) : undefined;
    }
  } catch {
    // A transport whose fields cannot be read gives no label.
  }
  return undefined;
}

/**
 * `promise`, or a rejection after `ms` (an Error saying that `what` did not settle in time); the
 * timer is cleared either way.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
export function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Requests through `client` (a connected SDK client), each with `timeout`; a connection that
 * closed under a request is reported (`mcp-connection-closed`, with what the transport said) and,
 * with `reconnect` (a function resolving to a newly connected client), replaced before the next
 * request.
 * @param {any} client
 * @param {string} label
 * @param {{ timeout: number; reconnect?: () => unknown }} how
 */
export function mcpConnection(client, label, { timeout, reconnect }) {
  let current = client;
  /** What the current client's transport reported first since the last request that succeeded (its onerror). */
  let lastError;
  /** Why the connection is closed, until it is replaced. */
  let closed = null;
  let reconnects = 0;
  let reconnecting = null;
  // A client that never had a transport (a stand-in with only request()) is never "closed".
  let watched = false;

  function watch(c) {
    lastError = undefined;
    watched = transportOf(c) !== undefined;
    if (!watched) return;
    try {
      const previous = c.onerror;
      c.onerror = function onerror(e) {
        // The first error says why (a stdio transport's buffer bound); what follows is its aftermath.
        lastError ??= e;
        if (typeof previous === "function") previous.call(this, e);
      };
    } catch {
      // A client whose onerror cannot be set: the closure is still seen, without the transport's word.
    }
  }
  watch(current);

  async function replace() {
    const next = await within(Promise.resolve().then(() => reconnect()), timeout, "reconnect()");
    if (typeof next !== "object" || next === null || typeof next.request !== "function") {
      throw new TypeError(`reconnect() must resolve to a connected MCP Client, got ${show(next)}`);
    }
    current = next;
    closed = null;
    reconnects++;
    watch(next);
  }

  async function ensureOpen(method) {
    if (closed === null) return;
    if (typeof reconnect !== "function") {
      throw codedError(`${label}: ${method}: not sent: ${closed}; the store reconnects only with options.reconnect`, "mcp-connection-closed", { method });
    }
    reconnecting ??= replace().finally(() => { reconnecting = null; });
    try {
      await reconnecting;
    } catch (e) {
      throw codedError(`${label}: ${method}: not sent: ${closed}; reconnecting failed: ${e?.message ?? e}`, "mcp-connection-closed", { method });
    }
  }

  /** The result of `method`, or an Error with a `code`: mcp-connection-closed or mcp-request-failed. */
  async function request(method, params) {
    await ensureOpen(method);
    const via = current;
    // Aborted at the timeout (the SDK cancels the request at the server); a client that ignores
    // both its timeout and the signal still settles then.
    const controller = new AbortController();
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => {
        const e = codedError(`${label}: ${method}: no answer within ${timeout} ms; the request was cancelled`, "mcp-request-failed", { method });
        controller.abort(e);
        reject(e);
      }, timeout);
    });
    expired.catch(() => {});
    try {
      const result = await Promise.race([via.request({ method, params }, ANY_RESULT, { timeout, signal: controller.signal }), expired]);
      if (via === current) lastError = undefined;
      return result;
    } catch (e) {
      if (controller.signal.aborted) throw controller.signal.reason;
      if (watched && via === current && transportOf(via) === undefined) {
        const said = lastError === undefined ? "" : ` (the transport said: ${String(lastError?.message ?? lastError).slice(0, 300)})`;
        closed ??= `the connection closed under ${method}${said}`;
        const next = typeof reconnect === "function" ? "the store reconnects before its next request" : "give options.reconnect to reconnect";
        throw codedError(`${label}: ${method}: ${closed}; ${next}`, "mcp-connection-closed", { method });
      }
      throw codedError(`${label}: ${method}: ${e?.message ?? e}`, "mcp-request-failed", { method, rpcCode: e?.code });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    request,
    /** The current client's capabilities (after a reconnect, the new client's). */
    capabilities: () => ask(current, "getServerCapabilities"),
    /** How often the connection was replaced. */
    reconnects: () => reconnects,
  };
}
