// serveHttp(factory, { auth }) against real tokens from a real OpenID provider: the metadata it
// serves, the 401/403 challenges for each way a token can be wrong, the principal handlers see on
// every revision, sessions and requestStates bound to the user, and no token in any answer or log.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { form, yesNo } from "../../../src/schema/index.js";
import { createElicitation } from "../../../src/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../../src/node/index.js";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { clientFor } from "../../helpers/mcp.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { jsonResult, resultJson } from "../../helpers/results.js";
import { signIn } from "../../helpers/oidc.js";

const SCOPES = ["mcp:tools", "mcp:admin"];
const TOOLS_LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function factory() {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name: "protected", version: "1.0.0" });
    kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => jsonResult({ principal: ctx.principal ?? null }));
    kit.registerTool(server, "confirm", { description: "Asks, then says who answered" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Go ahead?", form({ ok: yesNo() }));
      return jsonResult({ action: answer.action, by: ctx.principal?.sub });
    });
    return server;
  };
}

/** Everything written to the console or stderr while the tests run, to look for tokens in. */
const logged: string[] = [];
const restore: Array<() => void> = [];
function captureOutput() {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    logged.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  restore.push(() => (process.stderr.write = write));
  for (const level of ["log", "info", "warn", "error"] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
      original(...args);
    };
    restore.push(() => (console[level] = original));
  }
}

function connectWith(client: Client, url: URL, token: string) {
  return client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
}

describe("serveHttp with auth", () => {
  let op: OpenIdProvider;
  let http: HttpServerHandle;
  const errors: Error[] = [];
  /** Every token the tests hold, and every answer the server gave to a raw request. */
  const tokens: string[] = [];
  const answers: string[] = [];
  const token = async (user: string, scopes = SCOPES, resource = http.url.href, issuer = op.issuer) => {
    const t = (await signIn({ issuer, user, resource, scopes })).accessToken;
    tokens.push(t);
    return t;
  };
  const raw = async (headers: Record<string, string> = {}, url: URL | string = http.url, message: object = TOOLS_LIST) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(message),
    });
    const body = await response.text();
    answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
    return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "", body };
  };

  before(async () => {
    captureOutput();
    op = await startOpenIdProvider({ defaultResourceScopes: SCOPES, onerror: (e) => errors.push(e) });
    http = await serveHttp(factory(), { auth: { issuer: op.issuer, scopes: ["mcp:tools"] }, onerror: (e) => errors.push(e) });
  });
  after(async () => {
    await http.close();
    await op.close();
    for (const undo of restore) undo();
    const everything = [...logged, ...answers, ...errors.map((e) => `${e.message} ${e.stack}`)].join("\n");
    for (const t of tokens) assert.ok(!everything.includes(t), "a token appeared in a log, an error or an answer");
    // The signature alone would be a leak too.
    for (const t of tokens) assert.ok(!everything.includes(t.split(".")[2]!));
  });

  test("serves the protected-resource metadata at the path-suffixed and the root well-known URLs", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await fetch(new URL(path, http.url));
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: http.url.href,
        authorization_servers: [op.issuer],
        scopes_supported: ["mcp:tools"],
      });
    }
  });

  test("no token: 401 with the challenge naming the metadata and the scope", async () => {
    const { status, challenge } = await raw();
    assert.equal(status, 401);
    assert.match(challenge, /^Bearer error="invalid_token"/);
    assert.ok(challenge.includes(`resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", http.url).href}"`), challenge);
    assert.match(challenge, /scope="mcp:tools"/);
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    test(`a valid token reaches the tool, which sees the principal (${revision})`, async () => {
      const t = await token("alice");
      const client = revision === "2026-07-28" ? manualClient() : clientFor(revision);
      await connectWith(client, http.url, t);
      try {
        const { principal } = resultJson(await client.callTool({ name: "whoami", arguments: {} }));
        assert.equal(principal.sub, "alice");
        assert.equal(principal.issuer, op.issuer);
        assert.deepEqual(principal.scopes, SCOPES);
        assert.match(principal.clientId, /^\S+$/);
      } finally {
        await client.close();
      }
    });
  }

  test("a token for another resource: 401 invalid_token, saying so", async () => {
    const { status, challenge } = await raw({ authorization: `Bearer ${await token("alice", SCOPES, "http://127.0.0.1:1/other")}` });
    assert.equal(status, 401);
    assert.match(challenge, /error="invalid_token", error_description="The access token was issued for another resource \(aud\)"/);
  });

  test("a token from another authorization server: 401 invalid_token", async () => {
    const other = await startOpenIdProvider({ defaultResourceScopes: SCOPES });
    try {
      const { status, challenge } = await raw({ authorization: `Bearer ${await token("alice", SCOPES, http.url.href, other.issuer)}` });
      assert.equal(status, 401);
      assert.match(challenge, /issued by another authorization server \(iss\)/);
    } finally {
      await other.close();
    }
  });

  test("a token without the required scope: 403 insufficient_scope naming it", async () => {
    const { status, challenge } = await raw({ authorization: `Bearer ${await token("alice", ["mcp:admin"])}` });
    assert.equal(status, 403);
    assert.match(challenge, /error="insufficient_scope"/);
    assert.match(challenge, /scope="mcp:tools"/);
    assert.match(challenge, /resource_metadata="/);
  });

  test("a forged signature and a token that is not a JWT: 401 invalid_token", async () => {
    const [header, payload] = (await token("alice")).split(".");
    const forged = `${header}.${payload}.${Buffer.alloc(64, 7).toString("base64url")}`;
    tokens.push(forged);
    assert.match((await raw({ authorization: `Bearer ${forged}` })).challenge, /signature does not verify/);
    tokens.push("opaque-secret-value-1234");
    assert.match((await raw({ authorization: "Bearer opaque-secret-value-1234" })).challenge, /not a well-formed JWT/);
    assert.match((await raw({ authorization: "Basic dXNlcjpwYXNz" })).challenge, /expected 'Bearer TOKEN'/);
  });

  test("algorithm confusion: alg none, and HS256 keyed with the issuer's public key, are refused", async () => {
    const good = await token("alice");
    const [, payload] = good.split(".");
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString("base64url");
    const unsigned = `${header({ alg: "none", typ: "at+jwt" })}.${payload}.`;
    // (Not added to `tokens`: it has no signature for the leak check to look for.)
    const none = await raw({ authorization: `Bearer ${unsigned}` });
    assert.equal(none.status, 401);
    assert.match(none.challenge, /invalid_token/);
    // The classic confusion: the RSA public key (as published, and as PEM) used as an HMAC secret.
    const { jwks_uri } = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
    const { keys } = (await (await fetch(jwks_uri)).json()) as { keys: Array<Record<string, string>> };
    const jose = await import("jose");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
    const publicKey = (await jose.importJWK(keys[0]!, keys[0]!.alg ?? "RS256")) as CryptoKey;
    const secrets = [Buffer.from(JSON.stringify(keys[0])), Buffer.from(await jose.exportSPKI(publicKey))];
    for (const secret of secrets) {
      const hs = await new jose.SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: keys[0]!.kid }).sign(secret);
      tokens.push(hs);
      const refused = await raw({ authorization: `Bearer ${hs}` });
      assert.equal(refused.status, 401);
      assert.match(refused.challenge, /algorithm this server does not accept/);
    }
    // The genuine token still works: nothing above was cached in its place.
    assert.equal((await raw({ authorization: `Bearer ${good}` }, http.url, INITIALIZE)).status, 200);
  });

  test("an expired token: 401 invalid_token", async () => {
    // exp is in whole seconds from a whole-second iat, so a 3-second token lives 2 to 3 seconds: long
    // enough to be used once on a busy machine (a 1-second one could expire before its first use).
    const shortLived = await startOpenIdProvider({ accessTokenTtlS: 3 });
    const strict = await serveHttp(factory(), { auth: { issuer: shortLived.issuer, clockToleranceS: 0 } });
    try {
      const t = await token("alice", ["mcp:tools"], strict.url.href, shortLived.issuer);
      assert.equal((await raw({ authorization: `Bearer ${t}` }, strict.url, INITIALIZE)).status, 200);
      const { exp } = (await import("jose")).decodeJwt(t);
      await sleep(exp! * 1000 - Date.now() + 100); // just past its expiry
      const { status, challenge } = await raw({ authorization: `Bearer ${t}` }, strict.url, INITIALIZE);
      assert.equal(status, 401);
      assert.match(challenge, /The access token has expired/);
    } finally {
      await strict.close();
      await shortLived.close();
    }
  });

  test("without auth nothing changes: no challenge, no principal", async () => {
    const open = await serveHttp(factory());
    const client = clientFor("2025-11-25");
    try {
      await client.connect(new StreamableHTTPClientTransport(open.url));
      assert.deepEqual(resultJson(await client.callTool({ name: "whoami", arguments: {} })), { principal: null });
      assert.equal((await fetch(new URL("/.well-known/oauth-protected-resource/mcp", open.url))).status, 404);
    } finally {
      await client.close();
      await open.close();
    }
  });

  test("a 2025 session opened by alice is not found for bob", async () => {
    const alice = clientFor("2025-11-25");
    const transport = new StreamableHTTPClientTransport(http.url, {
      requestInit: { headers: { authorization: `Bearer ${await token("alice")}` } },
    });
    await alice.connect(transport);
    try {
      const bob = await token("bob");
      const response = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${bob}`,
          "mcp-session-id": transport.sessionId!,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "whoami", arguments: {} } }),
      });
      answers.push(await response.text());
      assert.equal(response.status, 404);
      // alice still can.
      assert.equal(resultJson(await alice.callTool({ name: "whoami", arguments: {} })).principal.sub, "alice");
    } finally {
      await alice.close();
    }
  });

  test("2026-07-28: alice's requestState replayed by bob is refused; alice completes the call", async () => {
    const alice = manualClient();
    const bob = manualClient();
    await connectWith(alice, http.url, await token("alice"));
    await connectWith(bob, http.url, await token("bob"));
    try {
      const first = await callWith(alice)({ name: "confirm", arguments: {} });
      assert.equal(first.resultType, "input_required");
      const [key] = Object.keys(first.inputRequests);
      const answer = {
        name: "confirm",
        arguments: {},
        inputResponses: { [key!]: { action: "accept", content: { ok: true } } },
        requestState: first.requestState,
      };
      await assert.rejects(callWith(bob)(answer), (e: any) => {
        assert.equal(e.code, -32602);
        assert.equal(e.data?.reason, "principal");
        assert.match(e.message, /issued to another principal/);
        return true;
      });
      assert.deepEqual(resultJson(await callWith(alice)(answer)), { action: "accept", by: "alice" });
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

describe("serveHttp auth configuration", () => {
  test("a misconfigured issuer stops the server from starting, saying why", async () => {
    const op = await startOpenIdProvider();
    try {
      await assert.rejects(serveHttp(factory(), { auth: { issuer: "http://auth.example.com" } }), /auth\.issuer must use https/);
      await assert.rejects(serveHttp(factory(), { auth: { issuer: "not a url" } }), /auth\.issuer must be an absolute URL/);
      await assert.rejects(
        serveHttp(factory(), { auth: { issuer: `${op.issuer}/` } }),
        new RegExp(`names issuer "${op.issuer}", not the configured ${op.issuer}/`),
      );
      await assert.rejects(serveHttp(factory(), { auth: { issuer: op.issuer, scopes: ['bad"scope'] } }), /is not an OAuth scope token/);
    } finally {
      await op.close();
    }
    await assert.rejects(serveHttp(factory(), { auth: { issuer: op.issuer } }), /cannot reach the authorization server/);
  });

  test("keys that cannot be fetched: 500 server_error, and onerror hears why", async () => {
    const op = await startOpenIdProvider();
    const errors: Error[] = [];
    const http = await serveHttp(factory(), { auth: { issuer: op.issuer }, onerror: (e) => errors.push(e) });
    try {
      const { accessToken } = await signIn({ issuer: op.issuer, user: "alice", resource: http.url.href, scopes: ["mcp:tools"] });
      await op.close(); // the provider, and its keys, are gone before the server ever fetched them
      const response = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${accessToken}`,
        },
        body: JSON.stringify(INITIALIZE),
      });
      assert.equal(response.status, 500);
      assert.equal(((await response.json()) as { error: string }).error, "server_error");
      assert.equal(errors.length, 1);
      assert.ok(!`${errors[0]!.message}`.includes(accessToken));
    } finally {
      await http.close();
      await op.close();
    }
  });
});
