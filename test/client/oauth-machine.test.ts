// OAuthProvider with a machine grant (no person) against a real authorization server: the local
// OpenID provider with two machine clients, one with a secret (client_secret_basic) and one with a
// public key (private_key_jwt), and a server behind serveHttp's bearer check whose tool says who
// called. No authorize(), no loopback listener, no browser; a refused secret is one LoginError that
// never holds it; an expired token is asked for again.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { loginErrorOf, memoryTokenStore, OAuthProvider, type OAuthProviderOptions } from "../../src/client/index.js";

const SECRET = "machine-secret-that-must-not-leak";
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
const PRIVATE_PEM = keys.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const PUBLIC_JWK = { ...keys.publicKey.export({ format: "jwk" }), kid: "machine-key-1", alg: "ES256", use: "sig" };

let op: OpenIdProvider;
let http: HttpServerHandle;

before(async () => {
  op = await startOpenIdProvider({
    accessTokenTtlS: 2,
    clients: [
      { clientId: "nightly", clientSecret: SECRET },
      { clientId: "signer", jwks: { keys: [PUBLIC_JWK] } },
    ],
  });
  const kit = createElicitation();
  http = await serveHttp(
    () => {
      const server = new McpServer({ name: "reports", version: "1.0.0" });
      kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
        content: [{ type: "text", text: `${ctx.principal?.clientId} ${ctx.principal?.scopes.join(" ")}` }],
      }));
      return server;
    },
    { auth: { issuer: op.issuer, scopes: ["mcp:tools"] } },
  );
});
after(async () => {
  await http.close();
  await op.close();
});

/** Resolves once the token the store holds has expired by its own expires_at (within 10 s, else fails). */
async function pastExpiry(store: OAuthProviderOptions["store"]): Promise<void> {
  const saved = await store?.get(http.url.href);
  const expiresAt = Math.max(
    0,
    ...Object.values(saved?.issuers ?? {}).map((i) => (i as { tokens?: { expires_at?: number } }).tokens?.expires_at ?? 0),
  );
  assert.ok(expiresAt > 0 && expiresAt - Date.now() < 10_000, "the provider saved a short-lived token");
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
}

async function whoami(options: Omit<OAuthProviderOptions, "serverUrl">, calls = 1) {
  const provider = await OAuthProvider.create({ serverUrl: http.url, expectedIssuer: op.issuer, ...options });
  const client = new Client({ name: "machine", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(http.url, { authProvider: provider }));
    const said: string[] = [];
    for (let i = 0; i < calls; i++) {
      if (i > 0) await pastExpiry(options.store);
      const { content } = await client.callTool({ name: "whoami", arguments: {} });
      said.push(content[0]?.type === "text" ? content[0].text : "");
    }
    return { provider, said };
  } finally {
    await client.close();
    await provider.close();
  }
}

describe("client_credentials", () => {
  test("with a secret: a token for the server, no redirect, nothing registered, the client's secret not stored", async () => {
    const store = memoryTokenStore();
    const { provider, said } = await whoami({ store, clientId: "nightly", clientSecret: SECRET, grant: { type: "client_credentials" } });
    assert.deepEqual(said, ["nightly mcp:tools"]);
    assert.equal(provider.redirectUrl, undefined);
    assert.equal(provider.grantType, "client_credentials");
    const saved = await store.get(http.url.href);
    const issuer = Object.values(saved!.issuers)[0]!;
    assert.ok(issuer.tokens?.access_token);
    assert.equal(issuer.client, undefined);
    assert.ok(!JSON.stringify(saved).includes(SECRET));
  });

  test("with a private key (private_key_jwt, PEM): the assertion is signed with it", async () => {
    const { said } = await whoami({ clientId: "signer", grant: { type: "client_credentials", privateKey: PRIVATE_PEM } });
    assert.deepEqual(said, ["signer mcp:tools"]);
  });

  test("with a private key as a JWK with its kid", async () => {
    const jwk = { ...keys.privateKey.export({ format: "jwk" }), kid: "machine-key-1" };
    const { said } = await whoami({ clientId: "signer", grant: { type: "client_credentials", privateKey: jwk } });
    assert.deepEqual(said, ["signer mcp:tools"]);
  });

  test("an expired token is not sent: a new one is asked for", async () => {
    const store = memoryTokenStore();
    const tokens: string[] = [];
    const watched = {
      ...store,
      async set(server: string, credentials: Parameters<typeof store.set>[1]) {
        for (const i of Object.values(credentials.issuers)) if (i.tokens) tokens.push(i.tokens.access_token);
        await store.set(server, credentials);
      },
    };
    const { said } = await whoami({ store: watched, clientId: "nightly", clientSecret: SECRET, grant: { type: "client_credentials" } }, 2);
    assert.deepEqual(said, ["nightly mcp:tools", "nightly mcp:tools"]);
    assert.equal(new Set(tokens).size, 2);
  });

  test("a wrong secret: one LoginError naming the refusal, without the secret", async () => {
    const wrong = `${SECRET}-wrong`;
    const error = await whoami({ clientId: "nightly", clientSecret: wrong, grant: { type: "client_credentials" } }).then(
      () => assert.fail("connected with a wrong secret"),
      (e: unknown) => e,
    );
    const login = loginErrorOf(error, "client_credentials");
    assert.equal(login?.reason, "credentials-refused");
    assert.match(login!.message, /refused this client \(invalid_client or unauthorized_client\)/);
    assert.ok(!String((error as Error).message).includes(wrong));
    assert.ok(!login!.message.includes(wrong));
  });

  test("options that cannot work are refused when the provider is made; a bad key is never quoted", async () => {
    const pinned = { serverUrl: http.url, expectedIssuer: op.issuer };
    await assert.rejects(OAuthProvider.create({ ...pinned, grant: { type: "client_credentials" } }), /needs clientId/);
    await assert.rejects(
      OAuthProvider.create({ serverUrl: http.url, clientId: "x", clientSecret: "s", grant: { type: "client_credentials" } }),
      /a machine grant needs expectedIssuer/,
    );
    await assert.rejects(
      OAuthProvider.create({ serverUrl: http.url, clientId: "x", clientSecret: "s", authorize: async () => {} }),
      /a clientSecret needs expectedIssuer/,
    );
    await assert.rejects(
      OAuthProvider.create({
        ...pinned,
        expectedIssuer: "http://auth.example.com",
        clientId: "x",
        clientSecret: "s",
        grant: { type: "client_credentials" },
      }),
      /expectedIssuer must be an https URL \(http only on a loopback address\)/,
    );
    await assert.rejects(
      OAuthProvider.create({
        ...pinned,
        clientId: "x",
        clientSecret: "s",
        grant: { type: "client_credentials", privateKey: PRIVATE_PEM },
      }),
      /either clientSecret or grant\.privateKey/,
    );
    const notAKey = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----\n";
    await assert.rejects(
      OAuthProvider.create({ ...pinned, clientId: "x", grant: { type: "client_credentials", privateKey: notAKey } }),
      (e: Error) => /not a private key in PEM/.test(e.message) && !e.message.includes("c2VjcmV0"),
    );
    await assert.rejects(OAuthProvider.create({ serverUrl: http.url }), /needs authorize\(\) to sign a person in, or a grant/);
  });
});
