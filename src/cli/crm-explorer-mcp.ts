/** The `crm-explorer-mcp` command (built to dist/mcp.js, the package's bin): an MCP server on stdin and stdout. */
import { StdioLineTransport } from "../agent/stdioTransport";
import { runMcpCli } from "./mcpCli";

void runMcpCli({
  argv: process.argv.slice(2), env: process.env, cwd: process.cwd(),
  out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`),
}, async () => new StdioLineTransport()).then((code) => {
  process.exitCode = code;
});
