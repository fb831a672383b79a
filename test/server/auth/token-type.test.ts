// jwtAccessTokenVerifier accepts only JWT access tokens: the header `typ` must be at+jwt (RFC 9068,
// also application/at+jwt, in any case), so an ID token the issuer signed for the same audience is
// refused. The issuer is a real HTTP server on 127.0.0.1 publishing a real key; tokens are signed with it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { decodeProtectedHeader, SignJWT, type JWTHeaderParameters } from "jose";
import { jwtAccessTokenVerifier } from "../../../src/server/index.js";
import { startOpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { KEY_ID, startJwksIssuer, type JwksIssuer } from "../../helpers/jwks-issuer.js";
import { signIn } from "../../helpers/oidc.js";

const RESOURCE = "https://mcp.example.test/mcp";

let keys: JwksIssuer;
before(async () => (keys = await startJwksIssuer()));
after(() => keys.close());

/** The same claims every time (right iss, aud, sub, exp, client_id); only the header differs. */
const sign = (header: Partial<JWTHeaderParameters>) =>
  new SignJWT({ client_id: "client-1", scope: "mcp:tools" })
    .setProtectedHeader({ alg: "ES256", kid: KEY_ID, ...header })
    .setIssuer(keys.issuer)
    .setAudience(RESOURCE)
    .setSubject("alice")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(keys.privateKey);
const verifier = () => jwtAccessTokenVerifier({ issuer: keys.issuer, audience: RESOURCE, metadata: keys.metadata(`${keys.issuer}/jwks`) });

test("an ID-token-shaped JWT (typ JWT, or no typ) signed by the issuer's key is refused, naming the rule", async () => {
  for (const header of [{ typ: "JWT" }, {}, { typ: "at+jwt+evil" }]) {
    const error = await verifier()
      .verifyAccessToken(await sign(header))
      .then(
        () => assert.fail(`typ ${JSON.stringify(header)} was accepted`),
        (e: unknown) => e,
      );
    assert.ok(error instanceof OAuthError, String(error));
    assert.equal(error.code, OAuthErrorCode.InvalidToken, JSON.stringify(header));
    assert.equal(error.message, "The token is not a JWT access token (typ must be at+jwt, RFC 9068)");
  }
});

test("typ at+jwt, and application/at+jwt in any case, is accepted", async () => {
  for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT", "Application/At+Jwt"]) {
    const info = await verifier().verifyAccessToken(await sign({ typ }));
    assert.equal(info.clientId, "client-1", typ);
    assert.deepEqual(info.extra, { sub: "alice", issuer: keys.issuer });
  }
});

test("the local OpenID provider's access tokens carry typ at+jwt and pass", async () => {
  const op = await startOpenIdProvider();
  try {
    const { accessToken } = await signIn({ issuer: op.issuer, user: "alice", resource: RESOURCE, scopes: ["mcp:tools"] });
    assert.equal(decodeProtectedHeader(accessToken).typ, "at+jwt");
    const info = await jwtAccessTokenVerifier({ issuer: op.issuer, audience: RESOURCE }).verifyAccessToken(accessToken);
    assert.equal(info.extra?.sub, "alice");
  } finally {
    await op.close();
  }
});
