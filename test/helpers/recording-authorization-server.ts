// An authorization server of a hostile MCP server, for the tests: it answers its metadata (every grant
// and client authentication a machine might use) and records every other request with its
// credentials, refusing them all. A test asserts that it received nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An authorization server that answers its metadata and records every other request, with its credentials. */
export interface RecordingAuthorizationServer {
  /** Its issuer identifier (its own address). */
  issuer: string;
  /** Every request other than its metadata, with its Authorization header and body. */
  received: string[];
  close(): Promise<void>;
}

export async function startRecordingAuthorizationServer(): Promise<RecordingAuthorizationServer> {
  const received: string[] = [];
  let issuer = "";
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.method === "GET" && req.url?.startsWith("/.well-known/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            registration_endpoint: `${issuer}/register`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ["code"],
            grant_types_supported: ["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "private_key_jwt"],
            token_endpoint_auth_signing_alg_values_supported: ["ES256"],
          }),
        );
        return;
      }
      if (req.method === "GET" && req.url === "/jwks") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [] }));
        return;
      }
      received.push(`${req.method} ${req.url} authorization=${req.headers.authorization ?? ""} ${body}`);
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_client" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
