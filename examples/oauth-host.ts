// A host that signs in to a server that requires authorization: the quickstart server behind
// serveHttp's OAuth check, the local OpenID provider (mcp-elicit/oidc) as its authorization server,
// and an SDK Client whose OAuthProvider shows the sign-in address before anyone goes there.
// Run: npx tsx examples/oauth-host.ts, then sign in as demo / demo in the browser.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { analyzeUrl, LoginError, memoryTokenStore, OAuthProvider, type SignInRequest } from "mcp-elicit/client";
import { startOpenIdProvider } from "mcp-elicit/oidc";
import { serveHttp } from "mcp-elicit/node";
import { terminalUI } from "mcp-elicit/terminal";
import { createServer } from "./quickstart-server.js";

const openId = await startOpenIdProvider();
const server = await serveHttp(createServer, { port: 0, auth: { issuer: openId.issuer, scopes: ["mcp:tools"] } });

// Consent first, with the address analysed (the authorization server's host highlighted): at a
// terminal the URL consent opens the browser on yes; elsewhere the address is printed to open by hand.
async function authorize({ url, signal }: SignInRequest): Promise<void> {
  const request = { message: "Sign in to the quickstart server", analysis: analyzeUrl(url.href) };
  if (!process.stdin.isTTY) return console.log(`Sign in at ${request.analysis.host}: ${request.analysis.url}`);
  const context = { server: { name: "quickstart", version: "1.0.0" }, protocol: "2026-07-28" as const, signal };
  if ((await terminalUI().url(request, context)) !== "accept") throw new LoginError("declined", "you did not consent to sign in.");
}

// memoryTokenStore() forgets the sign-in on exit; fileTokenStore() keeps it in the user's config folder.
//#region OAuthProvider
const oauth = await OAuthProvider.create({ serverUrl: server.url, store: memoryTokenStore(), authorize });
const client = new Client({ name: "host", version: "1.0.0" });
let transport!: StreamableHTTPClientTransport;
// withSignIn runs the attempt; when the server wants a sign-in, it signs in and runs it again.
await oauth.withSignIn(
  () => client.connect((transport = new StreamableHTTPClientTransport(server.url, { authProvider: oauth }))),
  (callback) => transport.finishAuth(callback),
);
//#endregion OAuthProvider
const { tools } = await client.listTools();
console.log(`Signed in; the server offers: ${tools.map((t) => t.name).join(", ")}`);
await client.close();
await oauth.close();
await server.close();
await openId.close();
