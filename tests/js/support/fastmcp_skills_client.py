"""A FastMCP client that reads every skill an MCP server offers through the Skills extension
(SEP-2640): `skills/list`, then `read_skill` for each entry (`skills/get`, every file read and
checked by FastMCP against the entry's size, digest and frontmatter). Prints one JSON object:
the protocol version negotiated, the server's name, and each skill's name, URI and files with
their SHA-256 digests.

    python fastmcp_skills_client.py COMMAND [ARG...]
"""

import asyncio
import hashlib
import json
import sys

from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.skills import SkillsClientExtension


async def main(command: str, args: list[str]) -> None:
    client = Client(StdioTransport(command=command, args=args), extensions=[SkillsClientExtension()])
    async with client:
        entries = await client.list_skills()
        skills = []
        for entry in entries:
            skill = await client.read_skill(entry.uri)
            files = {path: f"sha256:{hashlib.sha256(data).hexdigest()}" for path, data in skill.files.items()}
            skills.append({"name": skill.name, "uri": entry.uri, "files": files})
        server_info = client.server_info
        print(json.dumps({
            "protocolVersion": client.protocol_version,
            "server": server_info.name if server_info is not None else None,
            "skills": skills,
        }))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: fastmcp_skills_client.py COMMAND [ARG...]")
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
