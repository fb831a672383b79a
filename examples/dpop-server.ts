// A server that takes DPoP-bound tokens (RFC 9449): a token bound to the client's key, usable only with
// a fresh proof signed by that key, so a token that leaks is worth nothing alone. serveHttp checks each
// proof; its metadata offers DPoP, so OAuthProvider asks for bound tokens by itself.
// Run: npx tsx examples/dpop-server.ts
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { OAuthProvider } from "mcp-elicit/client";
import { startOpenIdProvider } from "mcp-elicit/oidc";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

// The local OpenID provider issues DPoP-bound tokens to clients that send a proof.
const openId = await startOpenIdProvider({ clients: [{ clientId: "nightly-report", clientSecret: "example-only-secret" }] });

const kit = createElicitation();
const server = await serveHttp(
  () => {
    const mcp = new McpServer({ name: "reports", version: "1.0.0" });
    kit.registerTool(mcp, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
      content: [{ type: "text", text: `${ctx.principal?.clientId}, key-bound: ${"cnf" in (ctx.http?.authInfo?.extra ?? {})}` }],
    }));
    return mcp;
  },
  { auth: { issuer: openId.issuer, scopes: ["mcp:tools"], dpop: true } },
);
const metadata = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", server.url))).json();
console.log(metadata.dpop_signing_alg_values_supported.includes("ES256")); // -> true

// The provider sees DPoP offered on both sides: it makes a key pair, gets a bound token, signs a proof per request.
const oauth = await OAuthProvider.create({
  serverUrl: server.url,
  expectedIssuer: openId.issuer,
  clientId: "nightly-report",
  clientSecret: "example-only-secret",
  grant: { type: "client_credentials" },
});
const client = new Client({ name: "nightly-report", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(server.url, { authProvider: oauth }));
const [said] = (await client.callTool({ name: "whoami", arguments: {} })).content;
console.log(said?.type === "text" && said.text); // -> nightly-report, key-bound: true

// The same token without a proof, as a bearer token: refused.
const token = (await oauth.tokens())?.access_token;
const stolen = await fetch(server.url, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{}" });
console.log(stolen.status, stolen.headers.get("www-authenticate")?.split(",")[0]); // -> 401 DPoP error="invalid_token"

await client.close();
await oauth.close();
await server.close();
await openId.close();
