// OAuthProvider against a real authorization server: the travel server behind the local OpenID
// provider (startServer("travel", { auth: true }), in process), an SDK Client over Streamable HTTP,
// and a user agent that signs in through the provider's own pages. Covers the first sign-in, the
// saved sign-in reused, an expired or refused access token refreshed, a revoked refresh token, and
// every way a redirect can go wrong; secrets never appear in an error.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SERVERS, startServer, type RunningServer } from "../../src/cli/serve.js";
import { startOpenIdProvider } from "../../src/oidc/openid-provider.js";
import { serveHttp } from "../../src/server/http/serve.js";
import { LoginError, memoryTokenStore, OAuthProvider, type SignInRequest, type TokenStore } from "../../src/client/index.js";
import { discover, signIn } from "../helpers/oidc.js";
import { signInAs } from "../helpers/sign-in-agent.js";

let served: RunningServer;
let url: URL;
let issuer: string;

before(async () => {
  served = await startServer("travel", { http: "0", auth: true });
  url = served.url!;
  issuer = served.signIn!.issuer;
});
after(() => served.close());

/** A provider whose sign-ins are done by the user agent as `user`, each request recorded. */
async function providerFor(store: TokenStore, options: { user?: string; authorize?: (r: SignInRequest) => Promise<void> } = {}) {
  const requests: SignInRequest[] = [];
  const provider = await OAuthProvider.create({
    serverUrl: url,
    store,
    signInTimeoutMs: 20_000,
    authorize:
      options.authorize ??
      (async (request) => {
        requests.push(request);
        // Not awaited: like a browser, the sign-in goes on while the client waits for the redirect.
        void signInAs(request.url, options.user ?? "demo");
      }),
  });
  return { provider, requests };
}

/** Connects (signing in if needed) and lists the tools; returns the tool names and closes. */
async function listWith(provider: OAuthProvider): Promise<string[]> {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  let transport!: StreamableHTTPClientTransport;
  try {
    await provider.withSignIn(
      () => client.connect((transport = new StreamableHTTPClientTransport(url, { authProvider: provider }))),
      (callback) => transport.finishAuth(callback),
    );
    const { tools } = await provider.withSignIn(
      () => client.listTools(),
      (callback) => transport.finishAuth(callback),
    );
    return tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

const savedTokens = async (store: TokenStore) => {
  const saved = await store.get(url.href);
  return saved?.lastIssuer ? saved.issuers[saved.lastIssuer] : undefined;
};

describe("signing in to a protected server", () => {
  const store = memoryTokenStore();

  test("the first connection signs in: consent asked for the provider's address, the redirect taken on 127.0.0.1", async () => {
    const { provider, requests } = await providerFor(store);
    try {
      assert.ok((await listWith(provider)).includes("book_trip"));
    } finally {
      await provider.close();
    }
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.reason, "new");
    assert.equal(request!.url.origin, issuer);
    assert.match(request!.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(request!.url.searchParams.get("redirect_uri"), request!.redirectUrl);
    assert.equal(request!.url.searchParams.get("code_challenge_method"), "S256");
    assert.equal(request!.url.searchParams.get("resource"), url.href);
    assert.ok((request!.url.searchParams.get("state") ?? "").length >= 32);
    const saved = await store.get(url.href);
    assert.equal(saved!.lastIssuer, issuer);
    assert.ok(saved!.issuers[issuer]!.client!.client_id);
    assert.ok(saved!.issuers[issuer]!.tokens!.access_token);
    assert.ok(saved!.issuers[issuer]!.tokens!.refresh_token);
  });

  test("the loopback listener takes one redirect: after the sign-in its address is closed", async () => {
    const { provider, requests } = await providerFor(memoryTokenStore());
    try {
      await listWith(provider);
      await assert.rejects(fetch(`${requests[0]!.redirectUrl}?state=x&code=y`), TypeError);
    } finally {
      await provider.close();
    }
  });

  test("a saved sign-in is used as it is: no consent, no browser", async () => {
    const { provider, requests } = await providerFor(store);
    try {
      assert.ok((await listWith(provider)).includes("book_trip"));
    } finally {
      await provider.close();
    }
    assert.equal(requests.length, 0);
  });

  test("an access token past its expiry is not sent; the refresh token gets a new one, without a sign-in", async () => {
    const before = await savedTokens(store);
    const saved = (await store.get(url.href))!;
    saved.issuers[issuer]!.tokens!.expires_at = Date.now() - 1000;
    await store.set(url.href, saved);
    const { provider, requests } = await providerFor(store);
    try {
      await listWith(provider);
    } finally {
      await provider.close();
    }
    assert.equal(requests.length, 0);
    const now = await savedTokens(store);
    assert.notEqual(now!.tokens!.access_token, before!.tokens!.access_token);
    assert.notEqual(now!.tokens!.refresh_token, before!.tokens!.refresh_token, "the provider rotates refresh tokens");
    assert.ok(now!.tokens!.expires_at! > Date.now());
  });

  test("an access token the server refuses (401) is refreshed too", async () => {
    const saved = (await store.get(url.href))!;
    saved.issuers[issuer]!.tokens!.access_token = "not-a-token";
    await store.set(url.href, saved);
    const { provider, requests } = await providerFor(store);
    try {
      await listWith(provider);
    } finally {
      await provider.close();
    }
    assert.equal(requests.length, 0);
    assert.notEqual((await savedTokens(store))!.tokens!.access_token, "not-a-token");
  });

  test("a revoked refresh token: the next sign-in says the saved one expired; declining it ends with a clear error", async () => {
    const saved = (await savedTokens(store))!;
    const meta = await discover(issuer);
    const revoked = await fetch(meta.revocation_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: saved.tokens!.refresh_token!, client_id: saved.client!.client_id }),
    });
    assert.equal(revoked.status, 200);
    const all = (await store.get(url.href))!;
    all.issuers[issuer]!.tokens!.expires_at = Date.now() - 1000;
    await store.set(url.href, all);
    const reasons: string[] = [];
    const { provider } = await providerFor(store, {
      authorize: async (request) => {
        reasons.push(request.reason);
        throw new LoginError("declined", "you did not consent to sign in.");
      },
    });
    try {
      await assert.rejects(listWith(provider), (error: Error) => {
        assert.ok(error instanceof LoginError && error.reason === "declined");
        for (const secret of [saved.tokens!.refresh_token!, saved.tokens!.access_token]) assert.ok(!error.message.includes(secret));
        return true;
      });
    } finally {
      await provider.close();
    }
    assert.deepEqual(reasons, ["expired"]);
    assert.equal((await savedTokens(store))?.tokens, undefined, "the refused tokens are forgotten");
  });
});

test("a redirect whose state does not match (any web page can send one) is answered 400 and the sign-in goes on", async () => {
  const { provider } = await providerFor(memoryTokenStore(), {
    authorize: async (request) => {
      const forged = await fetch(`${request.redirectUrl}?state=wrong-state-value&code=stolen-code-value`);
      assert.equal(forged.status, 400);
      assert.doesNotMatch(await forged.text(), /stolen-code-value|wrong-state-value/);
      void signInAs(request.url, "demo");
    },
  });
  try {
    assert.ok((await listWith(provider)).includes("book_trip"));
  } finally {
    await provider.close();
  }
});

describe("redirects that go wrong end the sign-in at once", () => {
  /** Signs in with an authorize() that hits the loopback address itself with `query(state)`. */
  async function failWith(query: (state: string) => string) {
    const { provider } = await providerFor(memoryTokenStore(), {
      authorize: async (request) => {
        const state = request.url.searchParams.get("state")!;
        const response = await fetch(`${request.redirectUrl}?${query(state)}`);
        assert.equal(response.status, 400);
        assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'none'/);
        assert.doesNotMatch(await response.text(), /<script|evil/);
      },
    });
    try {
      return await listWith(provider).then(
        () => assert.fail("the sign-in should have failed"),
        (error: unknown) => error as LoginError,
      );
    } finally {
      await provider.close();
    }
  }

  test("an error redirect: the OAuth error code is named, the server's description is not repeated", async () => {
    const error = await failWith(
      (state) => `state=${state}&error=access_denied&error_description=${encodeURIComponent("<script>evil</script>")}`,
    );
    assert.ok(error instanceof LoginError);
    assert.equal(error.reason, "error-redirect");
    assert.equal(error.oauthError, "access_denied");
    assert.match(error.message, /refused the sign-in \(access_denied\)/);
    assert.doesNotMatch(error.message, /evil/);
  });

  test("an error code that is not one is not printed as it came", async () => {
    const error = await failWith((state) => `state=${state}&error=${encodeURIComponent("\u001b]8;;http://x\u0007click")}`);
    assert.equal(error.reason, "error-redirect");
    assert.match(error.message, /unknown_error/);
    assert.doesNotMatch(error.message, /\u001b|click/);
  });

  test("no redirect at all: the wait ends after the timeout and says what it waited for", async () => {
    const provider = await OAuthProvider.create({
      serverUrl: url,
      store: memoryTokenStore(),
      signInTimeoutMs: 300,
      authorize: async () => {},
    });
    try {
      await assert.rejects(listWith(provider), (error: Error) => {
        assert.ok(error instanceof LoginError && error.reason === "timeout");
        assert.match(
          error.message,
          /the sign-in at 127\.0\.0\.1:\d+ did not finish within 300 ms \(the browser never reached http:\/\/127\.0\.0\.1:\d+\/callback\)/,
        );
        return true;
      });
    } finally {
      await provider.close();
    }
  });
});

describe("step-up: a server that needs more scopes than the token has", () => {
  test("the 403 insufficient_scope gets a sign-in for the named scopes (reason step-up), then the request again", async () => {
    const openId = await startOpenIdProvider({ defaultResourceScopes: ["mcp:tools", "mcp:extra"] });
    const extra = await serveHttp(SERVERS.travel!.factory(), {
      host: "127.0.0.1",
      port: 0,
      auth: { issuer: openId.issuer, scopes: ["mcp:tools", "mcp:extra"] },
    });
    try {
      // A saved sign-in with the narrower scope, as an earlier version of the server granted it.
      const narrow = await signIn({ issuer: openId.issuer, user: "demo", resource: extra.url.href, scopes: ["mcp:tools"] });
      const store = memoryTokenStore();
      await store.set(extra.url.href, {
        lastIssuer: openId.issuer,
        issuers: {
          [openId.issuer]: {
            client: { client_id: narrow.clientId, issuer: openId.issuer },
            tokens: { access_token: narrow.accessToken, token_type: "Bearer", scope: narrow.scope, issuer: openId.issuer },
          },
        },
      });
      const requests: SignInRequest[] = [];
      const provider = await OAuthProvider.create({
        serverUrl: extra.url,
        store,
        authorize: async (request) => {
          requests.push(request);
          void signInAs(request.url, "demo");
        },
      });
      const client = new Client({ name: "oauth-test", version: "1.0.0" });
      let transport!: StreamableHTTPClientTransport;
      try {
        await provider.withSignIn(
          () => client.connect((transport = new StreamableHTTPClientTransport(extra.url, { authProvider: provider }))),
          (callback) => transport.finishAuth(callback),
        );
        assert.ok((await client.listTools()).tools.length > 0);
      } finally {
        await client.close();
        await provider.close();
      }
      assert.deepEqual(
        requests.map((r) => r.reason),
        ["step-up"],
      );
      assert.deepEqual(requests[0]!.url.searchParams.get("scope")!.split(" ").sort(), ["mcp:extra", "mcp:tools", "offline_access"]);
      const saved = await store.get(extra.url.href);
      assert.match(saved!.issuers[openId.issuer]!.tokens!.scope!, /mcp:extra/);
    } finally {
      await extra.close();
      await openId.close();
    }
  });
});
