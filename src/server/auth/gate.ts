// The HTTP side of `createFetchHandler(factory, { auth })` (and so of serveHttp): serves the
// protected-resource metadata (RFC 9728) and lets a request reach the MCP endpoint only with a valid
// bearer token, or a DPoP-bound token with its proof (RFC 9449, dpop.ts), answering 401/403 with the
// SDK's WWW-Authenticate challenge (or a DPoP one, §7.1) otherwise. The verified token goes to the
// transports as `authInfo`, which handlers see as `ctx.http.authInfo`. Web-standard Request/Response.
import {
  OAuthError,
  OAuthErrorCode,
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
import { createDpopVerifier, type DpopVerifier } from "./dpop.js";
import type { DpopOptions, HttpAuthOptions } from "./options.js";
import type { KeyValueStore } from "../../store/types.js";

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

/** The in-memory `jti`s are at their cap (dpop-jtis.ts): the proof is refused for now, never a live jti forgotten. */
class ProofsFull extends OAuthError {
  constructor(readonly retryAfterS: number) {
    super(OAuthErrorCode.TemporarilyUnavailable, "This server holds as many recent DPoP proofs as it can remember; try again shortly");
  }
}

const busy = (error: ProofsFull) =>
  Response.json(error.toResponseObject(), {
    status: 503,
    headers: { "Retry-After": String(error.retryAfterS), "Cache-Control": "no-store" },
  });

/** The key a verified token is bound to (`extra.cnf.jkt`), if any. */
function boundKeyOf(auth: AuthInfo): string | undefined {
  const cnf = (auth.extra as { cnf?: { jkt?: unknown } } | undefined)?.cnf;
  return typeof cnf?.jkt === "string" ? cnf.jkt : undefined;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** Only the method, the path (on the endpoint's origin) and the headers: enough for the metadata routes, and the body stays unread. */
function headersOnly(request: Request, base: URL): Request {
  const url = new URL(request.url);
  return new Request(new URL(url.pathname + url.search, base), { method: request.method, headers: request.headers });
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
  const endpointPath = endpoint.pathname;
  const rootDocument = "/.well-known/oauth-protected-resource";
  const dpopOptions: DpopOptions | undefined = options.dpop === false ? undefined : options.dpop === true ? {} : (options.dpop ?? {});
  const dpop: DpopVerifier | undefined = dpopOptions ? createDpopVerifier({ ...(store ? { store } : {}), ...dpopOptions }) : undefined;
  /** DPoP is advertised (metadata, challenges) only when asked for; without the option it is accepted quietly. */
  const advertised = dpop && options.dpop !== undefined ? dpop : undefined;
  // A proof's htu may name the endpoint as clients know it (the resource) or as it is served.
  const targets = [resource, endpoint];

  /** RFC 9449 §7.1: `DPoP error=…, algs=…`, with the scope and the metadata URL as the bearer challenge has them. */
  function dpopRefusal(error: OAuthError): Response {
    const status = error.code === OAuthErrorCode.InsufficientScope ? 403 : 401;
    const parts = [`error=${quoted(error.code)}`, `error_description=${quoted(error.message)}`];
    if (required.requiredScopes.length > 0) parts.push(`scope=${quoted(required.requiredScopes.join(" "))}`);
    parts.push(`resource_metadata=${quoted(resourceMetadataUrl)}`, `algs=${quoted((dpop?.algorithms ?? []).join(" "))}`);
    const headers: Record<string, string> = { "WWW-Authenticate": `DPoP ${parts.join(", ")}`, "Cache-Control": "no-store" };
    const nonce = error.code === OAuthErrorCode.UseDpopNonce ? dpop?.nonce() : undefined;
    if (nonce) headers["DPoP-Nonce"] = nonce;
    return Response.json(error.toResponseObject(), { status, headers });
  }

  /** The bearer answer, naming DPoP too (a second challenge) where it is advertised. */
  function bearerRefusal(error: unknown): Response {
    const response = bearerAuthChallengeResponse(error, required);
    const challenge = response.headers.get("www-authenticate");
    if (advertised && challenge)
      response.headers.set("www-authenticate", `${challenge}, DPoP algs=${quoted(advertised.algorithms.join(" "))}`);
    return response;
  }

  async function checkDpop(request: Request, token: string | undefined): Promise<AuthInfo> {
    if (!dpop || !token) throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid Authorization header format, expected 'DPoP TOKEN'");
    const proofHeader = request.headers.get("dpop") ?? undefined;
    // One proof, one header (§4.3 step 1); repeated headers are joined with a comma, which a JWT never holds.
    if (proofHeader?.includes(",")) throw new OAuthError(OAuthErrorCode.InvalidDpopProof, "The request has more than one DPoP proof");
    const { jkt, jti } = await dpop.check(proofHeader, request.method, targets, token);
    const auth = await verifyBearerToken(`Bearer ${token}`, required);
    const bound = boundKeyOf(auth);
    if (bound === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is not bound to a DPoP key (cnf.jkt)");
    if (bound !== jkt)
      throw new OAuthError(
        OAuthErrorCode.InvalidDpopProof,
        "The DPoP proof is signed with another key than the token is bound to (cnf.jkt)",
      );
    const spent = await dpop.spend(jti);
    if (spent === "replayed") throw new OAuthError(OAuthErrorCode.InvalidDpopProof, "The DPoP proof was used before (jti)");
    if (spent !== "spent") throw new ProofsFull(spent.full.retryAfterS);
    return auth;
  }

  /** The protected-resource metadata with DPoP's two members (RFC 9449 §5.2), where it is advertised. */
  async function withDpop(response: Response, request: Request): Promise<Response> {
    if (!advertised || request.method !== "GET" || !response.ok) return response;
    const document = (await response.json()) as Record<string, unknown>;
    document.dpop_signing_alg_values_supported = advertised.algorithms;
    if (advertised.required) document.dpop_bound_access_tokens_required = true;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return Response.json(document, { status: response.status, headers });
  }

  return {
    resourceMetadataUrl,
    resource,
    async handle(request, pathname) {
      if (pathname.startsWith("/.well-known/")) {
        const plain = headersOnly(request, endpoint);
        // The root form too: clients that do not insert the path look there (RFC 9728 §3.1 allows both).
        const asked = pathname === rootDocument ? new Request(new URL(new URL(resourceMetadataUrl).pathname, endpoint), plain) : plain;
        const response = oauthMetadataResponse(asked, documents);
        if (!response) return {};
        const isResourceDocument = new URL(asked.url).pathname !== "/.well-known/oauth-authorization-server";
        return { response: isResourceDocument ? await withDpop(response, asked) : response };
      }
      if (pathname !== endpointPath) return {};
      const [authorization = ""] = (request.headers.get("authorization") ?? "").split(",");
      const [scheme = "", token] = authorization.trim().split(" ");
      if (scheme.toLowerCase() === "dpop" || dpop?.required) {
        try {
          if (scheme.toLowerCase() !== "dpop")
            throw new OAuthError(OAuthErrorCode.InvalidToken, "This server accepts DPoP-bound access tokens only (the DPoP scheme)");
          return { auth: await checkDpop(request, token) };
        } catch (error) {
          if (error instanceof ProofsFull) return { response: busy(error) };
          if (!(error instanceof OAuthError) || error.code === OAuthErrorCode.ServerError)
            return { response: bearerAuthChallengeResponse(error, required) };
          return { response: dpopRefusal(error) };
        }
      }
      let auth: AuthInfo;
      try {
        auth = await verifyBearerToken(authorization || undefined, required);
      } catch (error) {
        return { response: bearerRefusal(error) };
      }
      // RFC 9449 §7.1: a bound token is no bearer token; whoever holds it must also prove the key.
      if (boundKeyOf(auth) !== undefined) {
        const refused = new OAuthError(
          OAuthErrorCode.InvalidToken,
          "The access token is bound to a DPoP key: send it with the DPoP scheme and a proof",
        );
        return { response: dpop ? dpopRefusal(refused) : bearerRefusal(refused) };
      }
      return { auth };
    },
  };
}
