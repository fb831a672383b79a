// serveHttp's DPoP check (RFC 9449) at the wire: a DPoP-bound token from the local OpenID provider
// (oidc-provider binds the token to the key of the proof sent with the token request), then proofs made
// by hand for an MCP initialize request. A good proof passes; a replayed one, one for another URL or
// method, a wrong ath, one signed by another key than the token's cnf.jkt, a stale iat, a private jwk
// and the bound token sent as Bearer each get 401 with `WWW-Authenticate: DPoP error=…, algs=…`, and
// neither the answer's headers nor its body hold the token or the proof. Unbound bearer tokens keep working.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { exportJWK } from "jose";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { memoryStore } from "../../../src/store/memory.js";
import type { KeyValueStore } from "../../../src/store/types.js";
import {
  athOf,
  clientToken,
  dpopProof as proof,
  initializeWith,
  newDpopKey as newKey,
  tokenEndpointOf,
  type DpopKey as Key,
  type ProofClaims,
} from "../../helpers/dpop.js";

const SECRET = "dpop-wire-secret";
let op: OpenIdProvider;
let http: HttpServerHandle;
let tokenEndpoint: string;
let store: KeyValueStore;

/** A client-credentials token for `resource`; bound to `key` when one is given (a proof on the token request). */
const tokenFor = (resource: URL, key?: Key) => clientToken(tokenEndpoint, { id: "nightly", secret: SECRET }, resource, key);

/** An MCP initialize to `server` with the given Authorization and DPoP headers. */
const call = (server: HttpServerHandle, authorization: string, dpop?: string, method = "POST") =>
  initializeWith(server.url, authorization, dpop, method);

/** 401, a DPoP challenge with `error`, the algorithms, and nothing of the token or the proof. */
function assertRefused(answer: Awaited<ReturnType<typeof call>>, error: string, secrets: string[], rule?: RegExp) {
  assert.equal(answer.status, 401, answer.text);
  assert.match(answer.challenge, new RegExp(`^DPoP error="${error}"`));
  assert.match(answer.challenge, /algs="[A-Za-z0-9 ]*ES256[A-Za-z0-9 ]*"/);
  assert.match(answer.challenge, /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
  if (rule) assert.match(answer.challenge, rule);
  for (const secret of secrets) {
    // Neither whole, nor any of the three parts of the JWT (a signature or a payload alone is secret enough).
    for (const part of [secret, ...secret.split(".")]) {
      assert.ok(!answer.all.includes(part), "the headers hold no token or proof");
      assert.ok(!answer.text.includes(part), "the body holds no token or proof");
    }
  }
}

before(async () => {
  op = await startOpenIdProvider({ clients: [{ clientId: "nightly", clientSecret: SECRET }] });
  tokenEndpoint = await tokenEndpointOf(op.issuer);
  store = memoryStore();
  http = await serveHttp(() => new McpServer({ name: "wire", version: "1.0.0" }), {
    auth: { issuer: op.issuer, scopes: ["mcp:tools"], dpop: { store } },
  });
});
after(async () => {
  await http.close();
  await op.close();
  await store.close();
});

describe("serveHttp checks DPoP proofs", () => {
  let key: Key;
  let token: string;
  before(async () => {
    key = await newKey();
    token = await tokenFor(http.url, key);
  });
  const good = (claims: ProofClaims = {}) => proof(key, { htm: "POST", htu: http.url.href, ath: athOf(token), ...claims });

  test("the metadata says which proof algorithms it takes", async () => {
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", http.url))).json()) as Record<
      string,
      unknown
    >;
    assert.ok((metadata.dpop_signing_alg_values_supported as string[]).includes("ES256"));
    assert.ok(!(metadata.dpop_signing_alg_values_supported as string[]).some((alg) => alg === "none" || alg.startsWith("HS")));
    assert.equal(metadata.dpop_bound_access_tokens_required, undefined);
  });

  test("a good proof passes; the same proof again is a replay, its jti kept in the server's store", async () => {
    const once = await good({ htu: `${http.url.href}?ignored=1#too` }); // htu is compared without query and fragment
    assert.equal((await call(http, `DPoP ${token}`, once)).status, 200);
    assert.ok((await store.keys("dpop-jti:")).length >= 1);
    assertRefused(await call(http, `DPoP ${token}`, once), "invalid_dpop_proof", [token, once], /used before \(jti\)/);
  });

  test("a proof for another URL, or another method", async () => {
    const elsewhere = await good({ htu: new URL("/other", http.url).href });
    assertRefused(await call(http, `DPoP ${token}`, elsewhere), "invalid_dpop_proof", [token, elsewhere], /another URL \(htu\)/);
    const otherPort = await good({ htu: `http://127.0.0.1:1${http.url.port}/mcp` });
    assertRefused(await call(http, `DPoP ${token}`, otherPort), "invalid_dpop_proof", [token, otherPort], /htu/);
    const asGet = await good({ htm: "GET" });
    assertRefused(await call(http, `DPoP ${token}`, asGet), "invalid_dpop_proof", [token, asGet], /another HTTP method \(htm\)/);
  });

  test("a wrong ath, a stale or future iat, no proof at all, a private jwk", async () => {
    const otherToken = await good({ ath: athOf(`${token}x`) });
    assertRefused(await call(http, `DPoP ${token}`, otherToken), "invalid_dpop_proof", [token, otherToken], /\(ath\)/);
    const stale = await good({ iat: Math.floor(Date.now() / 1000) - 300 });
    assertRefused(await call(http, `DPoP ${token}`, stale), "invalid_dpop_proof", [token, stale], /iat/);
    const future = await good({ iat: Math.floor(Date.now() / 1000) + 300 });
    assertRefused(await call(http, `DPoP ${token}`, future), "invalid_dpop_proof", [token, future], /iat/);
    assertRefused(await call(http, `DPoP ${token}`), "invalid_dpop_proof", [token], /no DPoP proof/);
    const privateJwk = await proof(key, { htm: "POST", htu: http.url.href, ath: athOf(token) }, await exportJWK(key.privateKey));
    assertRefused(await call(http, `DPoP ${token}`, privateJwk), "invalid_dpop_proof", [token, privateJwk], /not a public key/);
  });

  test("a proof signed by another key than the token's cnf.jkt", async () => {
    const thief = await newKey();
    const stolen = await proof(thief, { htm: "POST", htu: http.url.href, ath: athOf(token) });
    assertRefused(await call(http, `DPoP ${token}`, stolen), "invalid_dpop_proof", [token, stolen], /another key .*cnf\.jkt/);
  });

  test("the bound token sent as a bearer token (RFC 9449 §7.1), with or without a proof", async () => {
    assertRefused(await call(http, `Bearer ${token}`), "invalid_token", [token], /bound to a DPoP key/);
    const withProof = await good();
    assertRefused(await call(http, `Bearer ${token}`, withProof), "invalid_token", [token, withProof], /bound to a DPoP key/);
  });

  test("an unbound token: works as a bearer token, refused with the DPoP scheme; the bearer challenge names DPoP too", async () => {
    const bearer = await tokenFor(http.url);
    assert.equal((await call(http, `Bearer ${bearer}`)).status, 200);
    const asDpop = await proof(key, { htm: "POST", htu: http.url.href, ath: athOf(bearer) });
    assertRefused(await call(http, `DPoP ${bearer}`, asDpop), "invalid_token", [bearer, asDpop], /not bound to a DPoP key/);
    const none = await call(http, "");
    assert.equal(none.status, 401);
    assert.match(none.challenge, /^Bearer error="invalid_token".*, DPoP algs="[^"]*ES256/);
  });
});

describe("serveHttp with dpop: { required, nonce }", () => {
  let strict: HttpServerHandle;
  before(async () => {
    strict = await serveHttp(() => new McpServer({ name: "wire", version: "1.0.0" }), {
      auth: { issuer: op.issuer, scopes: ["mcp:tools"], dpop: { required: true, nonce: true, maxAgeSeconds: 30, algorithms: ["ES256"] } },
    });
  });
  after(() => strict.close());

  test("the metadata says bound tokens are required; a bearer token is refused", async () => {
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", strict.url))).json()) as Record<
      string,
      unknown
    >;
    assert.deepEqual(metadata.dpop_signing_alg_values_supported, ["ES256"]);
    assert.equal(metadata.dpop_bound_access_tokens_required, true);
    const bearer = await tokenFor(strict.url);
    assertRefused(await call(strict, `Bearer ${bearer}`), "invalid_token", [bearer], /DPoP-bound access tokens only/);
    assertRefused(await call(strict, ""), "invalid_token", []);
  });

  test("a proof without the server's nonce: 401 use_dpop_nonce and a DPoP-Nonce; with it, accepted; a made-up nonce is refused", async () => {
    const key = await newKey();
    const token = await tokenFor(strict.url, key);
    const claims = { htm: "POST", htu: strict.url.href, ath: athOf(token) };
    const first = await proof(key, claims);
    const asked = await call(strict, `DPoP ${token}`, first);
    assertRefused(asked, "use_dpop_nonce", [token, first]);
    assert.ok(asked.nonce, "a DPoP-Nonce to use");
    assert.equal((await call(strict, `DPoP ${token}`, await proof(key, { ...claims, nonce: asked.nonce! }))).status, 200);
    const madeUp = await proof(key, { ...claims, nonce: `${asked.nonce!.split(".")[0]}.forged` });
    assertRefused(await call(strict, `DPoP ${token}`, madeUp), "use_dpop_nonce", [token, madeUp]);
  });

  test("options that cannot work are refused before the server listens", async () => {
    for (const dpop of [{ algorithms: ["HS256"] }, { algorithms: ["none"] }, { algorithms: [] }, { maxAgeSeconds: 0 }])
      await assert.rejects(
        serveHttp(() => new McpServer({ name: "wire", version: "1.0.0" }), { auth: { issuer: op.issuer, dpop } }),
        TypeError,
      );
  });
});

describe("serveHttp without a store: the used jtis in memory are capped (dpop.maxJtis)", () => {
  let capped: HttpServerHandle;
  before(async () => {
    capped = await serveHttp(() => new McpServer({ name: "wire", version: "1.0.0" }), {
      auth: { issuer: op.issuer, scopes: ["mcp:tools"], dpop: { maxJtis: 3, maxAgeSeconds: 30 } },
    });
  });
  after(() => capped.close());

  test("past the cap a new proof gets 503 with Retry-After, and a proof already used is still refused as a replay", async () => {
    const key = await newKey();
    const token = await tokenFor(capped.url, key);
    const good = () => proof(key, { htm: "POST", htu: capped.url.href, ath: athOf(token) });
    const first = await good();
    assert.equal((await call(capped, `DPoP ${token}`, first)).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await call(capped, `DPoP ${token}`, await good())).status, 200);
    const fourth = await good();
    const full = await call(capped, `DPoP ${token}`, fourth);
    assert.equal(full.status, 503, full.text);
    assert.equal((JSON.parse(full.text) as { error: string }).error, "temporarily_unavailable");
    // The oldest jti leaves the window (2 × 30 s + 5 s) within this many seconds.
    const retryAfter = Number(full.retryAfter);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 65, `Retry-After: ${full.retryAfter}`);
    for (const part of [token, fourth, ...token.split("."), ...fourth.split(".")]) {
      assert.ok(!full.all.includes(part) && !full.text.includes(part), "the answer holds no token or proof");
    }
    // The cap never makes room by forgetting a live jti: the first proof is still a replay.
    assertRefused(await call(capped, `DPoP ${token}`, first), "invalid_dpop_proof", [token, first], /used before \(jti\)/);
  });

  test("a cap that is not a whole number above 0 is refused before the server listens", async () => {
    for (const maxJtis of [0, -1, 1.5, Number.NaN]) {
      const started = await serveHttp(() => new McpServer({ name: "wire", version: "1.0.0" }), {
        auth: { issuer: op.issuer, dpop: { maxJtis } },
      }).catch((error: unknown) => error);
      if (!(started instanceof Error)) await (started as HttpServerHandle).close();
      assert.ok(started instanceof TypeError && /auth\.dpop\.maxJtis/.test(started.message), `maxJtis ${maxJtis}: ${String(started)}`);
    }
  });
});
