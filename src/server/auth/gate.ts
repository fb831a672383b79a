// The HTTP side of `serveHttp(factory, { auth })`: serves the protected-resource metadata (RFC 9728)
// and lets a request reach the MCP endpoint only with a valid bearer token, answering 401/403 with
// the SDK's WWW-Authenticate challenge otherwise. A verified token rides on `req.auth`, which the
// SDK's Node adapters hand to handlers as `ctx.http.authInfo`.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  verifyBearerToken,
  type AuthInfo,
  type AuthMetadataOptions,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { discoverIssuer, issuerUrl, type IssuerMetadata } from "./discovery.js";
import { jwtAccessTokenVerifier } from "./jwt-verifier.js";
import type { HttpAuthOptions } from "./options.js";

export interface AuthGate {
  /** The protected-resource metadata URL advertised in challenges. */
  readonly resourceMetadataUrl: string;
  readonly resource: URL;
  /**
   * Serves the well-known documents, or checks the bearer token of a request to the endpoint.
   * Returns true when it answered the request itself (a document, or a refusal).
   */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

export type RequestWithAuth = IncomingMessage & { auth?: AuthInfo };

/** Who a session belongs to: the token's issuer and subject (else its client); undefined without auth. */
export function ownerOf(req: RequestWithAuth): string | undefined {
  const auth = req.auth;
  if (!auth) return undefined;
  const { sub, issuer } = (auth.extra ?? {}) as { sub?: unknown; issuer?: unknown };
  return typeof sub === "string" ? `${String(issuer)} ${sub}` : `client ${auth.clientId}`;
}

/** What can be checked and fetched before the server listens: the options, and the issuer's metadata. */
export async function prepareAuth(options: HttpAuthOptions): Promise<IssuerMetadata> {
  issuerUrl(options.issuer);
  for (const scope of options.scopes ?? [])
    if (!/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope)) throw new TypeError(`auth.scopes: "${scope}" is not an OAuth scope token`);
  return discoverIssuer(options.issuer);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Only the method, URL and headers: enough for the metadata routes and the bearer check, and the body stays unread. */
function headersOnly(req: IncomingMessage, base: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(new URL(req.url ?? "/", base), { method: req.method ?? "GET", headers });
}

export function createAuthGate(
  options: HttpAuthOptions,
  metadata: IssuerMetadata,
  endpoint: URL,
  onerror: ((error: Error) => void) | undefined,
): AuthGate {
  const resource = new URL(options.resource ?? endpoint.href);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const verifier =
    options.verifier ??
    jwtAccessTokenVerifier({
      issuer: options.issuer,
      audience: options.audience ?? resource.href,
      resource: resource.href,
      metadata,
      ...(options.algorithms ? { algorithms: options.algorithms } : {}),
      ...(options.clockToleranceS !== undefined ? { clockToleranceS: options.clockToleranceS } : {}),
      ...(onerror ? { onerror } : {}),
    });
  const required = { verifier, requiredScopes: options.scopes ?? [], resourceMetadataUrl, expectedResource: resource };
  const documents: AuthMetadataOptions = {
    oauthMetadata: metadata as OAuthMetadata,
    resourceServerUrl: resource,
    scopesSupported: options.scopesSupported ?? options.scopes,
    ...(options.resourceName ? { resourceName: options.resourceName } : {}),
  };
  const endpointPath = endpoint.pathname;
  const rootDocument = "/.well-known/oauth-protected-resource";

  return {
    resourceMetadataUrl,
    resource,
    async handle(req, res, pathname) {
      if (pathname.startsWith("/.well-known/")) {
        const request = headersOnly(req, endpoint);
        // The root form too: clients that do not insert the path look there (RFC 9728 §3.1 allows both).
        const asked = pathname === rootDocument ? new Request(new URL(new URL(resourceMetadataUrl).pathname, endpoint), request) : request;
        const response = oauthMetadataResponse(asked, documents);
        if (!response) return false;
        await send(res, response);
        return true;
      }
      if (pathname !== endpointPath) return false;
      const [authorization] = (req.headers.authorization ?? "").split(",");
      try {
        (req as RequestWithAuth).auth = await verifyBearerToken(authorization || undefined, required);
        return false;
      } catch (error) {
        await send(res, bearerAuthChallengeResponse(error, required));
        return true;
      }
    },
  };
}
