// The CLI's network commands: `publish` writes a directory of skills as an Agent Skills Discovery
// index and its artifacts. Files only: the index and the artifacts are the core's
// (publishWellKnown).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nodeFsStorage, publishWellKnown } from "./node.js";

export const NETWORK_USAGE = `  publish <dir> --out <dir> [--base-url <url>]
                                     Write the skills of <dir> (its directories holding a
                                     SKILL.md) as <out>/.well-known/agent-skills/index.json
                                     and its artifacts.
`;

function fail(message, code = 2) {
  process.stderr.write(`skillwasm publish: ${message}\n`);
  return code;
}

/** `skillwasm publish <dir> --out <dir> [--base-url <url>]`; resolves to the exit code. */
export async function cmdPublish(args) {
  const positional = [];
  let outDir;
  let baseUrl;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--out" || a === "--base-url") {
      const v = args[++i];
      if (v === undefined) return fail(`${a} needs a value`);
      if (a === "--out") outDir = v;
      else baseUrl = v;
    } else if (a.startsWith("-")) return fail(`unknown option ${a}`);
    else positional.push(a);
  }
  if (positional.length !== 1 || outDir === undefined) {
    return fail("usage: skillwasm publish <dir> --out <dir> [--base-url <url>]");
  }
  try {
    const published = await publishWellKnown(nodeFsStorage(positional[0]), baseUrl === undefined ? {} : { baseUrl });
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
    return fail(e?.message ?? String(e), 1);
  }
}
