// A bare issuer for verifier tests: a real HTTP server on 127.0.0.1 that publishes one ES256 key at
// /jwks (and counts the fetches), the private key to sign tokens with, and issuer metadata naming
// whichever jwks_uri a test wants, to hand to jwtAccessTokenVerifier as `metadata`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type CryptoKey } from "jose";
import type { IssuerMetadata } from "../../src/server/auth/discovery.js";

export const KEY_ID = "k1";

export interface JwksIssuer {
  /** http://127.0.0.1:PORT */
  issuer: string;
  /** Signs for the published key (kid KEY_ID, ES256). */
  privateKey: CryptoKey;
  /** Metadata for `issuer` with the given jwks_uri (the real one is `${issuer}/jwks`). */
  metadata(jwksUri: string): IssuerMetadata;
  /** How many times /jwks was fetched. */
  keyFetches(): number;
  close(): Promise<void>;
}

export async function startJwksIssuer(): Promise<JwksIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), alg: "ES256", use: "sig", kid: KEY_ID };
  let keyFetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== "/jwks") return void res.writeHead(404).end();
    keyFetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    privateKey,
    metadata: (jwksUri) =>
      ({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ["code"],
        jwks_uri: jwksUri,
      }) as IssuerMetadata,
    keyFetches: () => keyFetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
