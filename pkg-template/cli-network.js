// The CLI's network commands: `publish` writes a directory of skills as an Agent Skills Discovery
// index and its artifacts. Files only: the index and the artifacts are the core's
// (publishWellKnown).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError, readFlags } from "./cli-agent.js";
import { nodeFsStorage, publishWellKnown } from "./node.js";

export const NETWORK_USAGE = `  publish <dir> --out <dir> [--base-url <url>]
                                     Write the skills of <dir> (its directories holding a
                                     SKILL.md) as <out>/.well-known/agent-skills/index.json
                                     and its artifacts.
`;

/** A publish that could not be written: the message on stderr, exit code 1. */
function fail(message) {
  process.stderr.write(`skillwasm publish: ${message}\n`);
  return 1;
}

/** `skillwasm publish <dir> --out <dir> [--base-url <url>]`; resolves to the exit code. */
export async function cmdPublish(args) {
  const { flags, rest } = readFlags(args, { "--out": "string", "--base-url": "string" });
  if (rest.length !== 1 || flags.out === undefined) throw new UsageError("expected one directory and --out <dir>");
  const [dir] = rest;
  const outDir = flags.out;
  const baseUrl = flags["base-url"];
  try {
    const published = await publishWellKnown(nodeFsStorage(dir), baseUrl === undefined ? {} : { baseUrl });
    const root = path.join(outDir, ".well-known", "agent-skills");
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "index.json"), published.index);
    for (const a of published.artifacts) {
      const file = path.join(root, ...a.path.split("/"));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, a.bytes);
    }
    for (const d of published.diagnostics) {
      process.stderr.write(`${d.severity}: ${d.path ?? ""}: ${d.code}: ${d.message}\n`);
    }
    process.stdout.write(`${JSON.stringify({
      index: path.join(root, "index.json"),
      artifacts: published.artifacts.map((a) => ({ path: a.path, digest: a.digest, bytes: a.bytes.length })),
      skipped: published.diagnostics.length,
    }, null, 2)}\n`);
    return published.artifacts.length === 0 ? 1 : 0;
  } catch (e) {
    return fail(e?.message ?? String(e));
  }
}
