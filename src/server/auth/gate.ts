// The HTTP side of `createFetchHandler(factory, { auth })` (and so of serveHttp): serves the
// protected-resource metadata (RFC 9728) and lets a request reach the MCP endpoint only with a valid
// bearer token, or a DPoP-bound token with its proof (RFC 9449, dpop.ts; token-check.ts), answering 401/403 with the
// SDK's WWW-Authenticate challenge (or a DPoP one, §7.1) otherwise. The verified token goes to the
// transports as `authInfo`, which handlers see as `ctx.http.authInfo`. Web-standard Request/Response.
import {
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  type AuthInfo,
  type AuthMetadataOptions,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { discoverIssuer, issuerUrl, type IssuerMetadata } from "./discovery.js";
import { jwtAccessTokenVerifier } from "./jwt-verifier.js";
import { createDpopVerifier, type DpopVerifier } from "./dpop.js";
import type { DpopOptions, HttpAuthOptions } from "./options.js";
import type { KeyValueStore } from "../../store/types.js";
import { TokenCheck } from "./token-check.js";

export interface AuthGate {
  /** The protected-resource metadata URL advertised in challenges. */
  readonly resourceMetadataUrl: string;
  readonly resource: URL;
  /**
   * Serves the well-known documents, or checks the bearer token of a request to the endpoint:
   * `response` when it answered the request itself (a document, or a refusal), else the verified token
   * (none for a request that is neither).
   */
  handle(request: Request, pathname: string): Promise<{ response: Response } | { auth?: AuthInfo }>;
}

/** Who a session belongs to: the token's issuer and subject (else its client); undefined without auth. */
export function ownerOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const { sub, issuer } = (auth.extra ?? {}) as { sub?: unknown; issuer?: unknown };
  return typeof sub === "string" ? `${String(issuer)} ${sub}` : `client ${auth.clientId}`;
}

/** What can be checked and fetched before the server listens: the options, and the issuer's metadata. */
export async function prepareAuth(options: HttpAuthOptions): Promise<IssuerMetadata> {
  issuerUrl(options.issuer);
  for (const scope of options.scopes ?? [])
    if (!/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope)) throw new TypeError(`auth.scopes: "${scope}" is not an OAuth scope token`);
  if (options.dpop !== undefined && typeof options.dpop !== "boolean" && (typeof options.dpop !== "object" || options.dpop === null))
    throw new TypeError("auth.dpop: true, false or { required, algorithms, maxAgeSeconds, nonce, store, key, maxJtis }");
  if (typeof options.dpop === "object") createDpopVerifier(options.dpop); // checks the options before the server listens
  return discoverIssuer(options.issuer);
}

const ROOT_DOCUMENT = "/.well-known/oauth-protected-resource";

/** Only the method, the path (on the endpoint's origin) and the headers: enough for the metadata routes, and the body stays unread. */
function headersOnly(request: Request, base: URL): Request {
  const url = new URL(request.url);
  return new Request(new URL(url.pathname + url.search, base), { method: request.method, headers: request.headers });
}

/** DPoP as the options ask: off (`false`), asked for (an object or `true`), or accepted quietly (left out); its jtis in `store` unless it names its own. */
function dpopOf(options: HttpAuthOptions, store: KeyValueStore | undefined): { dpop?: DpopVerifier; advertised?: DpopVerifier } {
  const dpopOptions: DpopOptions | undefined = options.dpop === false ? undefined : options.dpop === true ? {} : (options.dpop ?? {});
  const dpop = dpopOptions ? createDpopVerifier({ ...(store ? { store } : {}), ...dpopOptions }) : undefined;
  /** DPoP is advertised (metadata, challenges) only when asked for; without the option it is accepted quietly. */
  return { ...(dpop && { dpop }), ...(dpop && options.dpop !== undefined && { advertised: dpop }) };
}

/** The protected-resource metadata with DPoP's two members (RFC 9449 §5.2), where it is advertised. */
async function withDpop(response: Response, request: Request, advertised: DpopVerifier | undefined): Promise<Response> {
  if (!advertised || request.method !== "GET" || !response.ok) return response;
  const document = (await response.json()) as Record<string, unknown>;
  document.dpop_signing_alg_values_supported = advertised.algorithms;
  if (advertised.required) document.dpop_bound_access_tokens_required = true;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json(document, { status: response.status, headers });
}

export function createAuthGate(
  options: HttpAuthOptions,
  metadata: IssuerMetadata,
  endpoint: URL,
  onerror: ((error: Error) => void) | undefined,
  store?: KeyValueStore,
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
  const { dpop, advertised } = dpopOf(options, store);
  // A proof's htu may name the endpoint as clients know it (the resource) or as it is served.
  const tokens = new TokenCheck(required, dpop, advertised, [resource, endpoint]);

  /** A well-known document, or {} for a path that names none. */
  async function wellKnown(request: Request, pathname: string): ReturnType<AuthGate["handle"]> {
    const plain = headersOnly(request, endpoint);
    // The root form too: clients that do not insert the path look there (RFC 9728 §3.1 allows both).
    const asked = pathname === ROOT_DOCUMENT ? new Request(new URL(new URL(resourceMetadataUrl).pathname, endpoint), plain) : plain;
    const response = oauthMetadataResponse(asked, documents);
    if (!response) return {};
    const isResourceDocument = new URL(asked.url).pathname !== "/.well-known/oauth-authorization-server";
    return { response: isResourceDocument ? await withDpop(response, asked, advertised) : response };
  }

  return {
    resourceMetadataUrl,
    resource,
    async handle(request, pathname) {
      if (pathname.startsWith("/.well-known/")) return wellKnown(request, pathname);
      return pathname === endpoint.pathname ? tokens.check(request) : {};
    },
  };
}
