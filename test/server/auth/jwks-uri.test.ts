// jwtAccessTokenVerifier fetches the issuer's keys only from an https jwks_uri (plain http only on
// loopback: localhost, 127.0.0.0/8, ::1). Anything else is refused before any fetch, the request gets
// 500 server_error and onerror hears the rule. The issuer is a real HTTP server on 127.0.0.1.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { SignJWT } from "jose";
import { jwtAccessTokenVerifier } from "../../../src/server/index.js";
import { discoverIssuer, issuerUrl } from "../../../src/server/auth/discovery.js";
import { KEY_ID, startJwksIssuer, type JwksIssuer } from "../../helpers/jwks-issuer.js";

const RESOURCE = "https://mcp.example.test/mcp";

let keys: JwksIssuer;
before(async () => (keys = await startJwksIssuer()));
after(() => keys.close());

const token = () =>
  new SignJWT({ client_id: "client-1" })
    .setProtectedHeader({ alg: "ES256", kid: KEY_ID, typ: "at+jwt" })
    .setIssuer(keys.issuer)
    .setAudience(RESOURCE)
    .setSubject("alice")
    .setExpirationTime("5m")
    .sign(keys.privateKey);

test("an http jwks_uri off loopback is refused with server_error before anything is fetched; onerror names the rule", async () => {
  // Every fetch is recorded (jose looks up the global fetch when it fetches keys): there must be none.
  const realFetch = globalThis.fetch;
  const fetched: string[] = [];
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  }) as typeof fetch;
  try {
    for (const jwksUri of ["http://example.test/jwks", "ftp://127.0.0.1/jwks", "not a url"]) {
      const errors: Error[] = [];
      const verifier = jwtAccessTokenVerifier({
        issuer: keys.issuer,
        audience: RESOURCE,
        metadata: keys.metadata(jwksUri),
        onerror: (e) => errors.push(e),
      });
      const error = await verifier.verifyAccessToken(await token()).then(
        () => assert.fail(`the token was accepted with keys from ${jwksUri}`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OAuthError, String(error));
      assert.equal(error.code, OAuthErrorCode.ServerError, jwksUri);
      assert.equal(errors.length, 1, jwksUri);
      assert.match(
        errors[0]!.message,
        /jwks_uri .*(must use https \(http only on localhost, 127\.0\.0\.0\/8 or ::1\)|is not an absolute URL)/,
      );
    }
    assert.deepEqual(fetched, []);
    assert.equal(keys.keyFetches(), 0);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("an http jwks_uri on 127.0.0.1 is fetched and the token accepted", async () => {
  const errors: Error[] = [];
  const verifier = jwtAccessTokenVerifier({
    issuer: keys.issuer,
    audience: RESOURCE,
    metadata: keys.metadata(`${keys.issuer}/jwks`),
    onerror: (e) => errors.push(e),
  });
  assert.equal((await verifier.verifyAccessToken(await token())).clientId, "client-1");
  assert.deepEqual(errors, []);
  assert.equal(keys.keyFetches(), 1);
});

test("the issuer, and so its metadata URL, follows the same rule: http only on loopback, refused before any fetch", async () => {
  for (const issuer of ["http://127.0.0.2:8080", "http://localhost:8080", "http://[::1]:8080", "https://auth.example.test"])
    assert.equal(issuerUrl(issuer).href.replace(/\/$/, ""), issuer);
  let fetches = 0;
  const counting = (() => {
    fetches++;
    return Promise.reject(new Error("no fetch was expected"));
  }) as typeof fetch;
  await assert.rejects(
    discoverIssuer("http://auth.example.test", counting),
    /auth\.issuer must use https \(http only on localhost, 127\.0\.0\.0\/8 or ::1\)/,
  );
  assert.equal(fetches, 0);
});
