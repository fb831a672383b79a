// URL mode: a tool sends the person to a page of yours (through the kit's connect page, which checks who
// opened it), waits, and goes on when your page says the person is done. Run: npx tsx examples/url-mode.ts
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, type ElicitationUI } from "mcp-elicit/client";
import { createElicitation, createUrlKit } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

//#region createUrlKit
// "loopback": the pages trust the person at this machine, for a local server (see the identity rules).
const urlKit = createUrlKit({ identity: "loopback", serverName: "weather" });
const kit = createElicitation({ urlKit });
//#endregion createUrlKit

function createServer() {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  kit.registerTool(server, "set_api_key", { description: "Store the person's weather API key" }, async (_args, ctx) => {
    // The URL the client sees is the kit's opaque /elicit/connect/<id>, never this one.
    const { outcome } = await ctx.elicitUrl("Enter your weather API key", (flowId) => `https://keys.example.com/new?flow=${flowId}`);
    return { content: [{ type: "text", text: outcome === "completed" ? "Key saved." : `No key (${outcome}).` }] };
  });
  return server;
}

const http = await serveHttp(createServer, { urlKit });

// A host whose person consents, and whose browser ends on your page: here that page's handler is the
// one line it must run when the person is done.
const ui: ElicitationUI = {
  async form() {
    return { action: "cancel" };
  },
  async url({ analysis }) {
    const flowId = new URL(analysis.url).pathname.split("/").pop()!;
    console.log(analysis.url.replace(flowId, "<id>").replace(/:\d+\//, ":<port>/")); // -> http://127.0.0.1:<port>/elicit/connect/<id>
    const flow = await urlKit.flows.get(flowId);
    console.log(flow?.target?.replace(flowId, "<id>")); // -> https://keys.example.com/new?flow=<id>
    setImmediate(() => void urlKit.flows.finish(flowId, "completed")); // your page, once the key is stored
    return "accept";
  },
  notice() {},
};
const client = new Client({ name: "host", version: "1.0.0" });
const { callTool } = attachElicitation(client, { ui });
await client.connect(new StreamableHTTPClientTransport(http.url));
const result = await callTool({ name: "set_api_key", arguments: {} });
console.log(result.content); // -> [ { type: 'text', text: 'Key saved.' } ]
await client.close();
await http.close();
await urlKit.close();
