// What a hostile MCP server can cost a host: bounded. A host process with a 512 MiB heap
// (support/mcp-bounds-host.mjs, a child) discovers one registry over a local store and stores over
// hostile servers of the official SDK spawned over stdio (support/mcp-hostile-server.mjs), through
// clients of both SDK lines: a server answering every page with a fresh 1 MiB cursor, one whose
// cursors cycle, one whose second page is one 11 MiB message (over the stdio transport's buffer:
// the connection closes), one whose second page is 5 MiB (over maxMessageBytes only). The discovery
// settles with a diagnostic, the process lives, the local store is unaffected, and the label is the
// host's, never the name the server reports ("trusted-vendor").
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), "support", "mcp-bounds-host.mjs");
const MIB = 1024 * 1024;

/** Runs the host on `scenario` with the SDK line `line` under a 512 MiB heap: its JSON line. */
function host(scenario, line) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--max-old-space-size=512", HOST, scenario, line], { timeout: 180_000, maxBuffer: 16 * MIB }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the host process failed (${error.code ?? error.signal}):\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()));
    });
  });
}

const codes = (list) => list.map((d) => d.code);
const said = (list, code, pattern) => list.some((d) => d.code === code && pattern.test(d.message));

for (const line of ["v1", "v2"]) {
  test(`SDK ${line}: 1 MiB cursors and cycling cursors stop the listing with a diagnostic; the process lives, the local store is unaffected`, { timeout: 200_000 }, async () => {
    const out = await host("cursor", line);
    assert.equal(out.local, "ok");
    assert.ok(out.names.includes("local-skill"), JSON.stringify(out.names));
    assert.ok(out.names.includes("hostile-1"), "the first page's skill is kept");
    // Default bounds: the first page's 1 MiB cursor is not sent back.
    assert.ok(said(out.listing.cursor, "mcp-listing-bound", /cursor is \d+ bytes, over maxCursorBytes \(8192\)/), JSON.stringify(out.listing.cursor));
    assert.equal(out.stats.cursor.listRequests, 1);
    // A host that allows 2 MiB cursors: the listing's total stops the server.
    assert.ok(said(out.listing.total, "mcp-listing-bound", /maxListingBytes \(25165824 bytes\)/), JSON.stringify(out.listing.total));
    assert.ok(out.stats.total.listBytes <= 24 * MIB, `${out.stats.total.listBytes} bytes read`);
    assert.ok(out.stats.total.listRequests >= 20 && out.stats.total.listRequests <= 26, `${out.stats.total.listRequests} pages`);
    assert.ok(out.names.includes("hostile-20"), "the pages within the bound are kept");
    // Cursors a, b, c, a ...: the cycle is found within a few pages.
    assert.ok(said(out.listing.cycle, "mcp-listing-bound", /cycle/), JSON.stringify(out.listing.cycle));
    assert.ok(out.stats.cycle.listRequests <= 8, `${out.stats.cycle.listRequests} pages`);
    // The registry reports each stop; the label is the host's (from its stdio command), never the server's name.
    assert.ok(out.diagnostics.some((d) => d.message.includes("mcp-listing-bound")), JSON.stringify(out.diagnostics));
    assert.equal(out.labels.cursor, "node mcp-hostile-server.mjs");
    assert.ok(!JSON.stringify(out).includes("trusted-vendor"), "the name the server reports is shown");
    assert.ok(out.heapMiB < 256, `${out.heapMiB} MiB of heap`);
    console.log(`# ${line}: cursor scenario settled in ${out.ms} ms, heap ${out.heapMiB} MiB, ${out.stats.total.listRequests} pages of 1 MiB under maxListingBytes`);
  });

  test(`SDK ${line}: an 11 MiB message closes the stdio connection: the pages before are kept, the store reconnects or says why; 5 MiB costs only its request`, { timeout: 200_000 }, async () => {
    const out = await host("oversized", line);
    assert.equal(out.local, "ok");
    assert.ok(out.names.includes("hostile-1") && !out.names.includes("hostile-2"), JSON.stringify(out.names));
    for (const store of ["reconnecting", "plain"]) {
      assert.ok(said(out.listing[store], "mcp-connection-closed", /ReadBuffer exceeded maximum size/), JSON.stringify(out.listing[store]));
    }
    assert.ok(said(out.listing.reconnecting, "mcp-connection-closed", /the store reconnects before its next request/));
    assert.ok(said(out.listing.plain, "mcp-connection-closed", /give options.reconnect to reconnect/));
    // The next request reconnects; without reconnect it fails and says why.
    assert.equal(out.readReconnecting, "ok");
    assert.equal(out.stats.reconnecting.reconnects, 1);
    assert.match(out.readPlain, /mcp-connection-closed|not sent/);
    assert.match(out.readPlain, /options\.reconnect/);
    // A 5 MiB skills/get result over maxMessageBytes: refused, the connection stays.
    assert.deepEqual(out.addBig, { key: null, codes: ["mcp-listing-bound"] }, "refused by the bound, not a failed request");
    assert.equal(out.stats.reconnecting.reconnects, 1, "no reconnect for a result refused by the bound");
    // A 5 MiB page (under the transport's bound): refused by maxMessageBytes, the connection stays.
    assert.ok(said(out.listing.bigPage, "mcp-listing-bound", /maxMessageBytes \(4194304/), JSON.stringify(out.listing.bigPage));
    assert.equal(out.readBigPage, "ok");
    assert.equal(out.stats.bigPage.reconnects, 0);
  });
}
