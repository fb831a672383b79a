// OAuthProvider with DPoP (RFC 9449) against a real authorization server: the local OpenID provider
// (oidc-provider, which issues DPoP-bound tokens to a client that sends a proof) and a server behind
// serveHttp({ auth: { dpop: true } }), which checks every proof itself and whose protected-resource
// metadata says it accepts DPoP. A machine client gets a DPoP-bound token and calls the tool with
// `Authorization: DPoP` and a fresh proof per request (seen through the transport's fetch); the key pair
// is kept in the token store (a private JWK in the 0600 file) and used again by the next provider;
// `dpop: false` gets bearer tokens; a server that asks for nonces gets them from the SDK's one retry.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { fileTokenStore, OAuthProvider, type OAuthProviderOptions } from "../../src/client/index.js";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, type JWK } from "jose";
import { scratchFiles } from "../helpers/files.js";

const SECRET = "dpop-machine-secret";
const { dir } = scratchFiles("elicit-dpop-");
let op: OpenIdProvider;
let http: HttpServerHandle;
let withNonces: HttpServerHandle;

const kit = createElicitation();
const reports = () => {
  const server = new McpServer({ name: "reports", version: "1.0.0" });
  kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
    content: [{ type: "text", text: `${ctx.principal?.clientId}` }],
  }));
  return server;
};

before(async () => {
  op = await startOpenIdProvider({ clients: [{ clientId: "nightly", clientSecret: SECRET }] });
  http = await serveHttp(reports, { auth: { issuer: op.issuer, scopes: ["mcp:tools"], dpop: true } });
  withNonces = await serveHttp(reports, { auth: { issuer: op.issuer, scopes: ["mcp:tools"], dpop: { nonce: true, required: true } } });
});
after(async () => {
  await withNonces.close();
  await http.close();
  await op.close();
});

/** What the client sent to the MCP server: each request's scheme, the proof keys' thumbprints, the tokens' cnf.jkt, the statuses. */
const seen = {
  schemes: [] as string[],
  thumbprints: new Set<string>(),
  bound: new Set<string>(),
  statuses: [] as number[],
  challenges: [] as string[],
};
const watching: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (![http.url, withNonces.url].some((server) => url === server.href)) return fetch(input, init); // the authorization server's
  const headers = new Headers(init?.headers);
  const [scheme, token] = (headers.get("authorization") ?? "").split(" ");
  if (scheme) seen.schemes.push(scheme);
  const proof = headers.get("dpop");
  if (proof) seen.thumbprints.add(await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK, "sha256"));
  if (scheme === "DPoP" && token) seen.bound.add(String((decodeJwt(token).cnf as { jkt?: string } | undefined)?.jkt));
  const response = await fetch(input, init);
  seen.statuses.push(response.status);
  if (response.status === 401) seen.challenges.push(response.headers.get("www-authenticate") ?? "");
  return response;
};

async function whoami(options: Partial<OAuthProviderOptions>, calls = 2, server = http) {
  const provider = await OAuthProvider.create({
    serverUrl: server.url,
    clientId: "nightly",
    clientSecret: SECRET,
    grant: { type: "client_credentials" },
    expectedIssuer: op.issuer,
    ...options,
  });
  const client = new Client({ name: "machine", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(server.url, { authProvider: provider, fetch: watching }));
    const said: string[] = [];
    for (let i = 0; i < calls; i++) {
      const { content } = await client.callTool({ name: "whoami", arguments: {} });
      said.push(content[0]?.type === "text" ? content[0].text : "");
    }
    return said;
  } finally {
    await client.close();
    await provider.close();
  }
}

describe("DPoP", () => {
  test("where the server accepts DPoP: a DPoP-bound token, a checked proof on every request, the key kept in the 0600 file", async () => {
    const store = fileTokenStore({ dir: join(dir, "oauth") });
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", http.url))).json()) as Record<
      string,
      unknown
    >;
    assert.ok((metadata.dpop_signing_alg_values_supported as string[]).includes("ES256"));
    assert.equal(metadata.dpop_bound_access_tokens_required, undefined);

    const before = seen.statuses.length;
    assert.deepEqual(await whoami({ store }), ["nightly", "nightly"]);
    const schemes = seen.schemes.slice(before);
    assert.ok(schemes.length >= 3, "initialize and two calls at least");
    assert.deepEqual(new Set(schemes), new Set(["DPoP"]));
    assert.ok(
      seen.statuses.slice(before).every((status) => status < 300 || status === 401),
      "only the first request is refused (no token yet)",
    );
    assert.equal(seen.thumbprints.size, 1);
    assert.deepEqual(seen.bound, seen.thumbprints, "the token is bound to the key that signs the proofs");

    const [name] = readdirSync(store.dir);
    const path = join(store.dir, name!);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(path, "utf8")) as { dpop?: { alg: string; jwk: { d?: string } } };
    assert.equal(saved.dpop?.alg, "ES256");
    assert.ok(saved.dpop?.jwk.d, "the private key is kept");
    assert.ok(!JSON.stringify(saved).includes(SECRET));

    // The next provider on the same store signs with the same key.
    assert.deepEqual(await whoami({ store }, 1), ["nightly"]);
    assert.equal(seen.thumbprints.size, 1);
  });

  test("dpop: false asks for bearer tokens, which serveHttp still takes", async () => {
    const before = seen.schemes.length;
    assert.deepEqual(await whoami({ dpop: false }, 1), ["nightly"]);
    assert.deepEqual(new Set(seen.schemes.slice(before)), new Set(["Bearer"]));
  });

  test("a server that asks for nonces and takes bound tokens only: the SDK retries once with the DPoP-Nonce", async () => {
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", withNonces.url))).json()) as Record<
      string,
      unknown
    >;
    assert.equal(metadata.dpop_bound_access_tokens_required, true);
    const before = seen.schemes.length;
    const challenges = seen.challenges.length;
    assert.deepEqual(await whoami({}, 2, withNonces), ["nightly", "nightly"]);
    assert.deepEqual(new Set(seen.schemes.slice(before)), new Set(["DPoP"]));
    const asked = seen.challenges.slice(challenges);
    assert.ok(
      asked.some((challenge) => /^DPoP error="use_dpop_nonce"/.test(challenge)),
      asked.join(" | "),
    );
  });
});
