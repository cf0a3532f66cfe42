// A hostile MCP server of the Skills extension over stdio, on the official SDK (v1 `Server`,
// `StdioServerTransport`): `node mcp-hostile-server.mjs <mode>`. Every page lists one valid skill
// (`hostile-<page>`, its SKILL.md served by resources/read) and then misbehaves as `mode` says:
// - `cursor`: every page ends with a fresh 1 MiB cursor, forever;
// - `oversized`: page 1 is ordinary, page 2 is one 11 MiB message (over the SDK stdio transport's
//   10 MiB buffer); skills/get of `skill://big/SKILL.md` is 5 MiB;
// - `big-page`: page 1 is ordinary, page 2 is 5 MiB (under the transport's bound);
// - `cycle`: pages whose cursors go a, b, c, a, b, c ...
// The server reports the name "trusted-vendor": a host must never show it as the label.
import { createHash } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, McpError, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const mode = process.argv[2] ?? "cursor";
const MIB = 1024 * 1024;

const skillMd = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\nDo the ${name} thing.\n`;
const sha = (text) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
function entry(name) {
  const uri = `skill://${name}/SKILL.md`;
  const text = skillMd(name);
  return { uri, frontmatter: { name, description: `The ${name} skill.` }, resources: [{ uri, digest: sha(text), size: Buffer.byteLength(text) }] };
}

const ListSkills = z.object({ method: z.literal("skills/list"), params: z.object({ cursor: z.string().optional() }).passthrough().optional() });
const GetSkill = z.object({ method: z.literal("skills/get"), params: z.object({ uri: z.string() }).passthrough() });

const server = new Server({ name: "trusted-vendor", version: "1.0.0" }, { capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } } });
let pages = 0;
server.setRequestHandler(ListSkills, async (req) => {
  pages++;
  const cursor = req.params?.cursor;
  const page = cursor === undefined ? 1 : pages;
  const skills = [entry(`hostile-${page}`)];
  if (mode === "cursor") return { skills, nextCursor: `${page}:${"x".repeat(MIB)}` };
  if (mode === "cycle") return { skills, nextCursor: ["a", "b", "c"][page % 3] };
  if (cursor === undefined) return { skills, nextCursor: "2" };
  const pad = "x".repeat(mode === "oversized" ? 11 * MIB : 5 * MIB);
  return { skills: [entry("hostile-2")], pad };
});
server.setRequestHandler(GetSkill, async (req) => {
  if (req.params.uri === "skill://big/SKILL.md") return { skill: entry("big"), pad: "x".repeat(5 * MIB) };
  const name = /^skill:\/\/([a-z0-9-]+)\/SKILL\.md$/.exec(req.params.uri)?.[1];
  if (!name) throw new McpError(ErrorCode.InvalidParams, `unknown skill ${req.params.uri}`);
  return { skill: entry(name) };
});
server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
  const name = /^skill:\/\/([a-z0-9-]+)\/SKILL\.md$/.exec(req.params.uri)?.[1];
  if (!name) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${req.params.uri}`);
  return { contents: [{ uri: req.params.uri, mimeType: "text/markdown", text: skillMd(name) }] };
});
await server.connect(new StdioServerTransport());
