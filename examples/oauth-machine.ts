// A host with no person: a nightly job gets its own token with the client_credentials grant, signing
// a JWT with its private key (private_key_jwt), and calls a protected server. No browser, no consent.
// The local OpenID provider (mcp-elicit/oidc) stands in for the authorization server, and knows the
// job's public key. Run: npx tsx examples/oauth-machine.ts
import { generateKeyPairSync } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { OAuthProvider } from "mcp-elicit/client";
import { startOpenIdProvider } from "mcp-elicit/oidc";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

// The job's key pair; in real life the private key is a file or a secret of the CI system.
const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const jwks = { keys: [{ ...publicKey.export({ format: "jwk" }), kid: "nightly-1", alg: "ES256", use: "sig" }] };
const openId = await startOpenIdProvider({ clients: [{ clientId: "nightly-report", jwks }] });

const kit = createElicitation();
const server = await serveHttp(
  () => {
    const mcp = new McpServer({ name: "reports", version: "1.0.0" });
    kit.registerTool(mcp, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
      content: [{ type: "text", text: `${ctx.principal?.clientId}, scopes: ${ctx.principal?.scopes.join(" ")}` }],
    }));
    return mcp;
  },
  { port: 0, auth: { issuer: openId.issuer, scopes: ["mcp:tools"] } },
);

// A grant instead of authorize(): the SDK asks the token endpoint when the server answers 401, and
// again once the token has expired. A secret works too: clientSecret, and no privateKey.
// expectedIssuer pins where the client's credentials may go: an MCP server naming another
// authorization server gets nothing (a LoginError names both).
const oauth = await OAuthProvider.create({
  serverUrl: server.url,
  expectedIssuer: openId.issuer,
  clientId: "nightly-report",
  grant: { type: "client_credentials", privateKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
});
const client = new Client({ name: "nightly-report", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(server.url, { authProvider: oauth }));
const [said] = (await client.callTool({ name: "whoami", arguments: {} })).content;
console.log(said?.type === "text" && said.text); // -> nightly-report, scopes: mcp:tools

await client.close();
await oauth.close();
await server.close();
await openId.close();
