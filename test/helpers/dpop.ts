// DPoP by hand for tests of serveHttp's checks: an ES256 key, proofs with chosen claims (RFC 9449 §4.2),
// a client-credentials token from the local OpenID provider (bound to a key when one is given: a proof
// on the token request), and an MCP initialize sent with an Authorization and a DPoP header.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

export interface DpopKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

export const newDpopKey = async (): Promise<DpopKey> => {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey) };
};

export interface ProofClaims {
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  ath?: string;
  nonce?: string;
}

export function dpopProof(key: DpopKey, claims: ProofClaims, jwk: JWK = key.jwk): Promise<string> {
  return new SignJWT({ jti: randomUUID(), ...claims })
    .setProtectedHeader({ typ: "dpop+jwt", alg: "ES256", jwk })
    .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}

export const athOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The token endpoint of the provider at `issuer`. */
export async function tokenEndpointOf(issuer: string): Promise<string> {
  const configuration = await fetch(`${issuer}/.well-known/openid-configuration`);
  return ((await configuration.json()) as { token_endpoint: string }).token_endpoint;
}

/** A client-credentials token of `client` for `resource`; bound to `key` when one is given. */
export async function clientToken(
  tokenEndpoint: string,
  client: { id: string; secret: string },
  resource: URL | string,
  key?: DpopKey,
): Promise<string> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
    "content-type": "application/x-www-form-urlencoded",
  };
  if (key) headers.dpop = await dpopProof(key, { htm: "POST", htu: tokenEndpoint });
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers,
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "mcp:tools", resource: String(resource) }),
  });
  const body = (await response.json()) as { access_token?: string; token_type?: string };
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.token_type, key ? "DPoP" : "Bearer");
  return body.access_token!;
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "wire", version: "1.0.0" } },
});

export interface WireAnswer {
  status: number;
  challenge: string;
  nonce: string | null;
  retryAfter: string | null;
  /** Every header, one a line. */
  all: string;
  text: string;
}

/** An MCP initialize to `url` with the given Authorization and DPoP headers. */
export async function initializeWith(url: URL, authorization: string, dpop?: string, method = "POST"): Promise<WireAnswer> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization,
  };
  if (dpop) headers.dpop = dpop;
  const response = await fetch(url, { method, headers, ...(method === "POST" ? { body: initialize } : {}) });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate") ?? "",
    nonce: response.headers.get("dpop-nonce"),
    retryAfter: response.headers.get("retry-after"),
    all: [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n"),
    text,
  };
}
