// Enterprise-managed authorization (SEP-990) for the tests, offline: an identity provider that signs
// identity tokens and exchanges them (RFC 8693) for ID-JAGs, and the MCP server's authorization server,
// which takes an ID-JAG with the JWT bearer grant (client_secret_basic) and issues JWT access tokens
// (RFC 9068) that serveHttp's own verifier accepts. Each checks what SEP-990 says it must: the token
// types, the audience (the authorization server's issuer), the resource, the ID-JAG's typ and client_id.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, decodeProtectedHeader, type CryptoKey } from "jose";

export const IDP_CLIENT = "mcp-host-at-idp";
export const AS_CLIENT = "mcp-host";
export const AS_SECRET = "as-secret-never-printed";

export interface EnterpriseIdp {
  idpIssuer: string;
  asIssuer: string;
  /** An identity token for `sub`, for IDP_CLIENT (expired when `expired`). */
  idToken(sub: string, options?: { expired?: boolean }): Promise<string>;
  /** What the servers saw: the exchanges and the grants, with their outcome. */
  seen: string[];
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, body: URLSearchParams) => Promise<{ status: number; json: unknown }>) {
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      handler(req, new URLSearchParams(text))
        .then(({ status, json }) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json)))
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const refuse = (error: string, status = 400) => ({ status, json: { error, error_description: "a description that must not be printed" } });

export async function startEnterpriseIdp(): Promise<EnterpriseIdp> {
  const idpKeys = await generateKeyPair("ES256");
  const asKeys = await generateKeyPair("ES256", { extractable: true });
  const asJwk = { ...(await exportJWK(asKeys.publicKey)), kid: "as-1", alg: "ES256", use: "sig" };
  const seen: string[] = [];
  let idpIssuer = "";
  let asIssuer = "";

  const idp = await listen(async (req, body) => {
    if (req.method === "GET" && req.url === "/.well-known/oauth-authorization-server")
      return {
        status: 200,
        json: {
          issuer: idpIssuer,
          authorization_endpoint: `${idpIssuer}/authorize`,
          token_endpoint: `${idpIssuer}/token`,
          response_types_supported: ["code"],
        },
      };
    if (req.url !== "/token") return { status: 404, json: {} };
    if (body.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange") return refuse("unsupported_grant_type");
    if (
      body.get("subject_token_type") !== "urn:ietf:params:oauth:token-type:id_token" ||
      body.get("requested_token_type") !== "urn:ietf:params:oauth:token-type:id-jag" ||
      body.get("client_id") !== IDP_CLIENT
    )
      return refuse("invalid_request");
    let sub: string;
    try {
      const { payload } = await jwtVerify(body.get("subject_token") ?? "", idpKeys.publicKey, { issuer: idpIssuer, audience: IDP_CLIENT });
      sub = String(payload.sub);
    } catch {
      seen.push("exchange refused");
      return refuse("invalid_grant");
    }
    seen.push(`exchange for ${body.get("audience")} ${body.get("resource")}`);
    const jag = await new SignJWT({
      client_id: AS_CLIENT,
      resource: body.get("resource"),
      ...(body.get("scope") ? { scope: body.get("scope") } : {}),
    })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
      .setIssuer(idpIssuer)
      .setSubject(sub)
      .setAudience(body.get("audience") ?? "")
      .setIssuedAt()
      .setExpirationTime("5m")
      .setJti(randomUUID())
      .sign(idpKeys.privateKey);
    return {
      status: 200,
      json: { access_token: jag, issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A", expires_in: 300 },
    };
  });
  idpIssuer = idp.url;

  const as = await listen(async (req, body) => {
    if (req.method === "GET" && req.url === "/.well-known/oauth-authorization-server")
      return {
        status: 200,
        json: {
          issuer: asIssuer,
          authorization_endpoint: `${asIssuer}/authorize`,
          token_endpoint: `${asIssuer}/token`,
          jwks_uri: `${asIssuer}/jwks`,
          response_types_supported: ["code"],
          grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        },
      };
    if (req.method === "GET" && req.url === "/jwks") return { status: 200, json: { keys: [asJwk] } };
    if (req.url !== "/token") return { status: 404, json: {} };
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
    const [id, secret] = basic ? Buffer.from(basic[1]!, "base64").toString().split(":").map(decodeURIComponent) : [];
    if (id !== AS_CLIENT || secret !== AS_SECRET) return refuse("invalid_client", 401);
    if (body.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return refuse("unsupported_grant_type");
    const assertion = body.get("assertion") ?? "";
    let claims: Record<string, unknown>;
    try {
      if (decodeProtectedHeader(assertion).typ !== "oauth-id-jag+jwt") throw new Error("typ");
      ({ payload: claims } = await jwtVerify(assertion, idpKeys.publicKey as CryptoKey, { issuer: idpIssuer, audience: asIssuer }));
      if (claims.client_id !== AS_CLIENT || claims.resource !== body.get("resource")) throw new Error("client or resource");
    } catch {
      seen.push("grant refused");
      return refuse("invalid_grant");
    }
    seen.push(`grant for ${String(claims.sub)}`);
    const scope = body.get("scope") ?? "mcp:tools";
    const token = await new SignJWT({ client_id: AS_CLIENT, scope })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "as-1" })
      .setIssuer(asIssuer)
      .setSubject(String(claims.sub))
      .setAudience(String(claims.resource))
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(asKeys.privateKey);
    return { status: 200, json: { access_token: token, token_type: "Bearer", expires_in: 600, scope } };
  });
  asIssuer = as.url;

  return {
    idpIssuer,
    asIssuer,
    seen,
    idToken: (sub, options = {}) =>
      new SignJWT({ email: `${sub}@example.com` })
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(idpIssuer)
        .setSubject(sub)
        .setAudience(IDP_CLIENT)
        .setIssuedAt(options.expired ? Math.floor(Date.now() / 1000) - 7200 : undefined)
        .setExpirationTime(options.expired ? Math.floor(Date.now() / 1000) - 3600 : "1h")
        .sign(idpKeys.privateKey),
    async close() {
      for (const { server } of [idp, as]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
