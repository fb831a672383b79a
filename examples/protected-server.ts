// A server only authorized callers may use: serveHttp checks each request's bearer token against an
// authorization server, and the tool sees who is calling. Run: npx tsx examples/protected-server.ts
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider } from "mcp-elicit/oidc";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

//#region startOpenIdProvider
// A local OpenID provider stands in for yours; it knows one machine client (no person signs in).
const provider = await startOpenIdProvider({ clients: [{ clientId: "nightly-report", clientSecret: "example-only-secret" }] });
//#endregion startOpenIdProvider

const kit = createElicitation();
const http = await serveHttp(
  () => {
    const server = new McpServer({ name: "reports", version: "1.0.0" });
    kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
      content: [{ type: "text", text: `${ctx.principal?.sub} via ${ctx.principal?.clientId}, scopes: ${ctx.principal?.scopes.join(" ")}` }],
    }));
    return server;
  },
  { auth: { issuer: provider.issuer, scopes: ["mcp:tools"] } },
);

// Without a token: 401, with a challenge that points at this server's protected-resource metadata.
const refused = await fetch(http.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
console.log(refused.status, /resource_metadata="[^"]+"/.test(refused.headers.get("www-authenticate") ?? "")); // -> 401 true
const metadata = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", http.url))).json();
console.log(metadata.authorization_servers[0] === provider.issuer, metadata.scopes_supported); // -> true [ 'mcp:tools' ]

// The SDK client finds the authorization server from the 401, gets a token for this server, and calls.
const authProvider = new ClientCredentialsProvider({
  clientId: "nightly-report",
  clientSecret: "example-only-secret",
  expectedIssuer: provider.issuer,
  scope: "mcp:tools",
});
const client = new Client({ name: "nightly-report", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(http.url, { authProvider }));
const [said] = (await client.callTool({ name: "whoami", arguments: {} })).content;
console.log(said?.type === "text" && said.text); // -> nightly-report via nightly-report, scopes: mcp:tools

await client.close();
await http.close();
await provider.close();
