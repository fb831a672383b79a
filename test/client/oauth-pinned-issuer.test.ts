// Machine sign-in pinned to one authorization server. A hostile MCP server (serveHttp behind auth whose
// protected-resource metadata names an authorization server of its own, which records every request)
// answers 401: for each machine grant the sign-in ends with a LoginError naming both issuers, and that
// server receives no token request, no registration and no credential. With the pinned issuer named by
// the server, the same grants sign in. A workload JWT made for another audience is never sent.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { LoginError, OAuthProvider, type OAuthProviderOptions } from "../../src/client/index.js";
import { startRecordingAuthorizationServer, type RecordingAuthorizationServer } from "../helpers/recording-authorization-server.js";
import { AS_CLIENT, AS_SECRET, IDP_CLIENT, startEnterpriseIdp, type EnterpriseIdp } from "../helpers/enterprise-idp.js";

const SECRET = "pinned-machine-secret";
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
const PRIVATE_PEM = keys.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const PUBLIC_JWK = { ...keys.publicKey.export({ format: "jwk" }), kid: "pinned-key", alg: "ES256", use: "sig" };

function whoamiServer(issuer: string): Promise<HttpServerHandle> {
  const kit = createElicitation();
  return serveHttp(
    () => {
      const server = new McpServer({ name: "reports", version: "1.0.0" });
      kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
        content: [{ type: "text", text: `${ctx.principal?.sub ?? ctx.principal?.clientId}` }],
      }));
      return server;
    },
    { auth: { issuer, scopes: ["mcp:tools"] } },
  );
}

let op: OpenIdProvider;
let enterprise: EnterpriseIdp;
let attacker: RecordingAuthorizationServer;
let hostile: HttpServerHandle;
let honest: HttpServerHandle;
let enterpriseServer: HttpServerHandle;

before(async () => {
  op = await startOpenIdProvider({
    clients: [
      { clientId: "nightly", clientSecret: SECRET },
      { clientId: "signer", jwks: { keys: [PUBLIC_JWK] } },
    ],
  });
  enterprise = await startEnterpriseIdp();
  attacker = await startRecordingAuthorizationServer();
  hostile = await whoamiServer(attacker.issuer);
  honest = await whoamiServer(op.issuer);
  enterpriseServer = await whoamiServer(enterprise.asIssuer);
});
after(async () => {
  for (const server of [hostile, honest, enterpriseServer]) await server.close();
  await attacker.close();
  await enterprise.close();
  await op.close();
});

/** Every POST the client sent (the SDK's auth requests go through the transport's fetch too), as "origin path". */
const posted: string[] = [];
const recording: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if ((init?.method ?? (input instanceof Request ? input.method : "GET")) === "POST") posted.push(`${url.origin} ${url.pathname}`);
  return fetch(input, init);
};

/** Connects and calls whoami with the provider; what the tool said, or the error. */
async function whoami(server: HttpServerHandle, options: Omit<OAuthProviderOptions, "serverUrl">): Promise<string> {
  const provider = await OAuthProvider.create({ serverUrl: server.url, ...options });
  const client = new Client({ name: "machine", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(server.url, { authProvider: provider, fetch: recording }));
    const { content } = await client.callTool({ name: "whoami", arguments: {} });
    return content[0]?.type === "text" ? content[0].text : "";
  } finally {
    await client.close();
    await provider.close();
  }
}

const workloadJwt = (audience: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: "pinned-key" })
    .setIssuer("https://workload.example")
    .setSubject("ci-job")
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(keys.privateKey);

const grants: Array<[string, () => Promise<Omit<OAuthProviderOptions, "serverUrl" | "expectedIssuer">>]> = [
  ["client_credentials with a secret", async () => ({ clientId: "nightly", clientSecret: SECRET, grant: { type: "client_credentials" } })],
  [
    "client_credentials with a private key",
    async () => ({ clientId: "signer", grant: { type: "client_credentials", privateKey: PRIVATE_PEM } }),
  ],
  ["the JWT bearer grant", async () => ({ grant: { type: "jwt-bearer", assertion: () => workloadJwt(op.issuer) } })],
  [
    "the ID-JAG grant",
    async () => {
      const idToken = await enterprise.idToken("ana");
      return {
        clientId: AS_CLIENT,
        clientSecret: AS_SECRET,
        grant: { type: "id-jag", idToken: () => idToken, idp: { issuer: enterprise.idpIssuer, clientId: IDP_CLIENT } },
      };
    },
  ],
];

describe("a hostile MCP server names its own authorization server", () => {
  for (const [name, options] of grants) {
    test(`${name}: nothing reaches it, and the error names both issuers`, async () => {
      const pinned = name === "the ID-JAG grant" ? enterprise.asIssuer : op.issuer;
      const exchanges = enterprise.seen.length;
      const error = await whoami(hostile, { ...(await options()), expectedIssuer: pinned }).then(
        () => assert.fail("signed in at the hostile server's authorization server"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof LoginError, String(error));
      assert.equal(error.reason, "issuer-mismatch");
      assert.ok(error.message.includes(JSON.stringify(attacker.issuer)), error.message);
      assert.ok(error.message.includes(JSON.stringify(pinned)), error.message);
      assert.deepEqual(attacker.received, [], `the hostile authorization server received: ${attacker.received.join("; ")}`);
      assert.equal(enterprise.seen.length, exchanges, "no ID-JAG was asked for with the hostile audience");
      assert.ok(!error.message.includes(SECRET) && !error.message.includes("eyJ"), "no secret or JWT in the message");
    });
  }
});

describe("the pinned authorization server, named by the MCP server", () => {
  test("client_credentials with a secret and with a private key sign in", async () => {
    assert.equal(await whoami(honest, { ...(await grants[0]![1]()), expectedIssuer: op.issuer }), "nightly");
    assert.equal(await whoami(honest, { ...(await grants[1]![1]()), expectedIssuer: `${op.issuer}/` }), "signer");
  });

  test("the ID-JAG grant signs in: the ID-JAG is asked for with the pinned issuer as its audience", async () => {
    assert.equal(await whoami(enterpriseServer, { ...(await grants[3]![1]()), expectedIssuer: enterprise.asIssuer }), "ana");
    assert.ok(enterprise.seen.includes(`exchange for ${enterprise.asIssuer} ${enterpriseServer.url.href}`), enterprise.seen.join("; "));
  });

  test("a workload JWT made for another authorization server is not sent", async () => {
    posted.length = 0;
    const error = await whoami(honest, {
      grant: { type: "jwt-bearer", assertion: () => workloadJwt("https://other-as.example") },
      expectedIssuer: op.issuer,
    }).then(
      () => assert.fail("signed in with a JWT for another audience"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LoginError, String(error));
    assert.match(error.message, /the workload's JWT is meant for another audience than the pinned authorization server/);
    assert.deepEqual(
      posted.filter((p) => p.startsWith(`${new URL(op.issuer).origin} `)),
      [],
      "nothing was posted to the authorization server",
    );
    assert.ok(posted.length > 0, "the MCP server was called (and answered 401)");
  });
});

describe("a client id given by hand, without expectedIssuer", () => {
  test("is bound to the first authorization server it is used at, and refused at another", async () => {
    const provider = await OAuthProvider.create({ serverUrl: honest.url, clientId: "public-app", authorize: async () => {} });
    try {
      assert.deepEqual(await provider.clientInformation({ issuer: op.issuer }), { client_id: "public-app", issuer: op.issuer });
      await assert.rejects(provider.clientInformation({ issuer: attacker.issuer }), (e: unknown) => {
        assert.ok(e instanceof LoginError && e.reason === "issuer-mismatch");
        assert.match(e.message, /the first sign-in with this client id/);
        return true;
      });
    } finally {
      await provider.close();
    }
  });
});
