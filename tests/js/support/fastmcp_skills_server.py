"""A FastMCP server that serves the skill folders below one directory through FastMCP's own
MCP Skills extension (SEP-2640), over stdio.

    python fastmcp_skills_server.py ROOT
"""

import sys

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: fastmcp_skills_server.py ROOT")
    server = FastMCP("fastmcp-skills")
    server.add_provider(SkillsDirectoryProvider(sys.argv[1]))
    server.run(transport="stdio", show_banner=False)


if __name__ == "__main__":
    main()
