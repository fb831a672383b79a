// The MCP conformance suite's "everything server", built with mcp-elicit (the implementation lives
// in src/servers/conformance/ so that the `elicit serve conformance` command ships it in dist/).
//   npx tsx examples/conformance/server.ts [--http [HOST:]PORT]     # same as: elicit serve conformance
//   npx -y @modelcontextprotocol/conformance server --url http://localhost:PORT/mcp   (Node >= 22)
import { fileURLToPath } from "node:url";
import { serve } from "../../src/cli/serve.js";

export { createConformanceServer, type ConformanceServerOptions } from "../../src/servers/conformance/index.js";

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--http");
  process.exitCode = await serve("conformance", at === -1 ? {} : { http: process.argv[at + 1] ?? "" });
}
