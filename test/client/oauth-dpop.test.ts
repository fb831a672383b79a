// OAuthProvider with DPoP (RFC 9449) against a real authorization server: the local OpenID provider
// (oidc-provider, which issues DPoP-bound tokens to a client that sends a proof) and a server behind
// serveHttp, fronted by a gate that checks every proof (test/helpers/dpop-gate.ts) and whose
// protected-resource metadata says it accepts DPoP. A machine client gets a DPoP-bound token and calls
// the tool with `Authorization: DPoP` and a fresh proof per request; the key pair is kept in the token
// store (a private JWK in the 0600 file) and used again by the next provider; `dpop: false` gets bearer tokens.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { createElicitation } from "../../src/server/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { fileTokenStore, OAuthProvider, type OAuthProviderOptions } from "../../src/client/index.js";
import { startDpopGate, type DpopGate } from "../helpers/dpop-gate.js";
import { scratchFiles } from "../helpers/files.js";

const SECRET = "dpop-machine-secret";
const { dir } = scratchFiles("elicit-dpop-");
let op: OpenIdProvider;
let http: HttpServerHandle;
let gate: DpopGate;

before(async () => {
  op = await startOpenIdProvider({ clients: [{ clientId: "nightly", clientSecret: SECRET }] });
  gate = await startDpopGate(() => http.url);
  const kit = createElicitation();
  http = await serveHttp(
    () => {
      const server = new McpServer({ name: "reports", version: "1.0.0" });
      kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
        content: [{ type: "text", text: `${ctx.principal?.clientId}` }],
      }));
      return server;
    },
    { auth: { issuer: op.issuer, scopes: ["mcp:tools"], resource: gate.url.href } },
  );
});
after(async () => {
  await gate.close();
  await http.close();
  await op.close();
});

async function whoami(options: Partial<OAuthProviderOptions>, calls = 2) {
  const provider = await OAuthProvider.create({
    serverUrl: gate.url,
    clientId: "nightly",
    clientSecret: SECRET,
    grant: { type: "client_credentials" },
    ...options,
  });
  const client = new Client({ name: "machine", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(gate.url, { authProvider: provider }));
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
    const before = gate.schemes.length;
    assert.deepEqual(await whoami({ store }), ["nightly", "nightly"]);
    const schemes = gate.schemes.slice(before);
    assert.ok(schemes.length >= 3, "initialize and two calls at least");
    assert.deepEqual(new Set(schemes), new Set(["DPoP"]));
    assert.deepEqual(gate.problems, []);
    assert.equal(gate.thumbprints.size, 1);

    const [name] = readdirSync(store.dir);
    const path = join(store.dir, name!);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(path, "utf8")) as { dpop?: { alg: string; jwk: { d?: string } } };
    assert.equal(saved.dpop?.alg, "ES256");
    assert.ok(saved.dpop?.jwk.d, "the private key is kept");
    assert.ok(!JSON.stringify(saved).includes(SECRET));

    // The next provider on the same store signs with the same key.
    assert.deepEqual(await whoami({ store }, 1), ["nightly"]);
    assert.equal(gate.thumbprints.size, 1);
    assert.deepEqual(gate.problems, []);
  });

  test("dpop: false asks for bearer tokens", async () => {
    const before = gate.schemes.length;
    assert.deepEqual(await whoami({ dpop: false }, 1), ["nightly"]);
    assert.deepEqual(new Set(gate.schemes.slice(before)), new Set(["Bearer"]));
  });
});
