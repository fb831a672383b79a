// The local OpenID provider: real sign-ins through its own forms, real tokens checked with jose
// against its published keys, and the rules it promises (PKCE, loopback redirects, resources,
// rotating refresh tokens, revocation, inert pages).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { discover, refresh, registerPublicClient, signIn } from "../../helpers/oidc.js";

const RESOURCE = "http://127.0.0.1:1/mcp";
const OTHER = "http://127.0.0.1:2/mcp";

describe("the local OpenID provider", () => {
  let op: OpenIdProvider;
  const errors: Error[] = [];
  before(async () => {
    op = await startOpenIdProvider({
      resources: { [RESOURCE]: { scopes: ["mcp:tools", "mcp:admin"] }, [OTHER]: { scopes: ["mcp:tools"] } },
      onerror: (e) => errors.push(e),
    });
  });
  after(async () => {
    await op.close();
    assert.deepEqual(errors, []);
  });

  /** Starts a sign-in for `clientId` (PKCE S256): the interaction page it is sent to, and the cookie that goes with it. */
  async function startInteraction(clientId: string): Promise<{ page: URL; cookie: string }> {
    const url = new URL((await discover(op.issuer)).authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: "code",
      redirect_uri: "http://127.0.0.1:9/callback",
      code_challenge: createHash("sha256").update("v".repeat(43)).digest("base64url"),
      code_challenge_method: "S256",
      resource: RESOURCE,
    }).toString();
    const started = await fetch(url, { redirect: "manual" });
    const cookie = started.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { page: new URL(started.headers.get("location")!, op.issuer), cookie };
  }

  test("publishes discovery metadata: registration, S256 only, revocation", async () => {
    const meta = (await discover(op.issuer)) as unknown as Record<string, unknown>;
    assert.equal(meta.issuer, op.issuer);
    assert.match(String(meta.registration_endpoint), /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.deepEqual(meta.code_challenge_methods_supported, ["S256"]);
    assert.ok(meta.revocation_endpoint);
    assert.ok((meta.scopes_supported as string[]).includes("mcp:tools"));
  });

  test("advertises OAuth 2.1's code flow only: no implicit grant, no id_token response types", async () => {
    for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
      const meta = (await (await fetch(new URL(path, op.issuer))).json()) as Record<string, string[]>;
      assert.deepEqual(meta.response_types_supported, ["code"], path);
      assert.ok(!meta.grant_types_supported!.includes("implicit"), `${path}: ${meta.grant_types_supported!.join(", ")}`);
      assert.ok(meta.grant_types_supported!.includes("authorization_code"), path);
    }
    // And does what it advertises: a client cannot register for tokens from the authorization endpoint...
    const meta = await discover(op.issuer);
    for (const response_types of [["id_token"], ["code id_token"]]) {
      const registered = await fetch(meta.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/callback"], application_type: "native", response_types }),
      });
      assert.equal(registered.status, 400, response_types[0]);
      assert.equal(((await registered.json()) as { error: string }).error, "invalid_client_metadata");
    }
    // ...nor ask for them there.
    const clientId = await registerPublicClient(op.issuer);
    const url = new URL(meta.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: "id_token",
      redirect_uri: "http://127.0.0.1:9/callback",
      scope: "openid",
      nonce: "n",
    }).toString();
    const answer = await fetch(url, { redirect: "manual" });
    const where = answer.headers.get("location") ?? "";
    assert.match(where + (await answer.text()), /unsupported_response_type/);
    assert.doesNotMatch(where, /id_token=/);
  });

  test("a sign-in gives a JWT access token for the resource, verifiable with the published keys", async () => {
    const tokens = await signIn({ issuer: op.issuer, user: "alice", resource: RESOURCE, scopes: ["mcp:tools"] });
    const meta = await discover(op.issuer);
    const { payload, protectedHeader } = await jwtVerify(tokens.accessToken, createRemoteJWKSet(new URL(meta.jwks_uri!)), {
      issuer: op.issuer,
      audience: RESOURCE,
    });
    assert.equal(protectedHeader.alg, "ES256");
    assert.equal(payload.sub, "alice");
    assert.equal(payload.scope, "mcp:tools");
    assert.equal(payload.client_id, tokens.clientId);
    assert.ok(tokens.refreshToken, "public clients get a refresh token");
  });

  test("grants only the scopes the resource knows", async () => {
    const tokens = await signIn({ issuer: op.issuer, user: "bob", resource: OTHER, scopes: ["mcp:tools", "mcp:admin"] });
    assert.equal(tokens.scope, "mcp:tools");
  });

  test("a wrong password re-shows the form with a message, never the password", async () => {
    await assert.rejects(
      signIn({ issuer: op.issuer, user: "alice", password: "not-her-password", resource: RESOURCE, scopes: ["mcp:tools"] }),
      (e: Error) => /HTTP 401/.test(e.message) && /Wrong username or password/.test(e.message) && !e.message.includes("not-her-password"),
    );
  });

  test("denying on the consent page ends the sign-in with access_denied, and no code", async () => {
    await assert.rejects(
      signIn({ issuer: op.issuer, user: "alice", resource: RESOURCE, scopes: ["mcp:tools"], consent: "deny" }),
      /sign-in ended with access_denied: the person denied access/,
    );
  });

  test("a resource it does not serve is refused with invalid_target", async () => {
    await assert.rejects(signIn({ issuer: op.issuer, user: "alice", resource: "http://127.0.0.1:3/elsewhere" }), /invalid_target/);
  });

  test("native clients may use any loopback port; refresh tokens rotate; revoked ones stop working", async () => {
    const clientId = await registerPublicClient(op.issuer, "http://127.0.0.1:9/callback");
    const asked = { issuer: op.issuer, user: "alice", resource: RESOURCE, scopes: ["mcp:tools"], clientId };
    const first = await signIn({ ...asked, redirectUri: "http://127.0.0.1:45678/callback" });
    const second = await refresh({ issuer: op.issuer, clientId, refreshToken: first.refreshToken!, resource: RESOURCE });
    assert.ok(second.access_token && second.refresh_token && second.refresh_token !== first.refreshToken);
    await assert.rejects(refresh({ issuer: op.issuer, clientId, refreshToken: first.refreshToken! }), /invalid_grant/);

    const third = await signIn(asked);
    const meta = await discover(op.issuer);
    const revoked = await fetch(meta.revocation_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: third.refreshToken!, token_type_hint: "refresh_token", client_id: clientId }),
    });
    assert.equal(revoked.status, 200);
    await assert.rejects(refresh({ issuer: op.issuer, clientId, refreshToken: third.refreshToken! }), /invalid_grant/);
  });

  test("PKCE is required, and only S256", async () => {
    const clientId = await registerPublicClient(op.issuer);
    const meta = await discover(op.issuer);
    const ask = async (extra: Record<string, string>) => {
      const url = new URL(meta.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: clientId,
        response_type: "code",
        redirect_uri: "http://127.0.0.1:9/callback",
        state: "s",
        ...extra,
      }).toString();
      const response = await fetch(url, { redirect: "manual" });
      return new URL(response.headers.get("location")!, op.issuer);
    };
    assert.equal((await ask({})).searchParams.get("error"), "invalid_request");
    const verifier = randomBytes(32).toString("base64url");
    assert.equal((await ask({ code_challenge: verifier, code_challenge_method: "plain" })).searchParams.get("error"), "invalid_request");
    const s256 = createHash("sha256").update(verifier).digest("base64url");
    assert.match((await ask({ code_challenge: s256, code_challenge_method: "S256" })).pathname, /^\/interaction\//);
  });

  test("a hostile client name is shown as text on a page that runs no script", async () => {
    const meta = await discover(op.issuer);
    const registered = await fetch(meta.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: '<script>alert(1)</script><img src=x onerror="alert(2)">',
        application_type: "native",
        redirect_uris: ["http://127.0.0.1:9/callback"],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const { page: interaction, cookie } = await startInteraction(client_id);
    const page = await fetch(interaction, { headers: { cookie } });
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.ok(!html.includes("<script") && !html.includes("<img"), "no markup from the client name");
    assert.ok(html.includes("&#60;script&#62;alert(1)&#60;/script&#62;"));
    assert.match(html, /<label for="username">Username<\/label>/);
    assert.match(html, /<label for="password">Password<\/label>/);
    assert.match(html, /<button type="submit">Sign in<\/button>/);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
  });

  test("a sign-in form larger than 16 KiB is refused with 413, and the next one still signs in", async () => {
    const { page, cookie } = await startInteraction(await registerPublicClient(op.issuer));
    const login = new URL(`${page.pathname}/login`, op.issuer);
    const post = (body: string) =>
      fetch(login, { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body });
    const refused = await post(new URLSearchParams({ username: "alice", password: "x".repeat(17 * 1024) }).toString());
    assert.equal(refused.status, 413);
    assert.match(await refused.text(), /the form is larger than 16384 bytes/);
    const wrong = await post(new URLSearchParams({ username: "alice", password: "not-her-password" }).toString());
    assert.equal(wrong.status, 401, "the same interaction still takes a form of a real size");
  });
});
