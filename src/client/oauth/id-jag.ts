// Enterprise-managed authorization (SEP-990, the ext-auth extension): a person signed in once at the
// enterprise's identity provider, and the host holds their identity token (an OpenID Connect ID token).
// For each MCP server the host exchanges it at the identity provider (RFC 8693 token exchange) for an
// Identity Assertion JWT Authorization Grant (ID-JAG) meant for that server's authorization server and
// resource, then exchanges the ID-JAG there for an access token with the JWT bearer grant (RFC 7523).
// No browser, no consent page: the enterprise decides, at its identity provider, who may reach what.
//
// The first exchange is the SDK's requestJwtAuthorizationGrant (discoverAndRequestJwtAuthGrant when
// only the identity provider's issuer is known); the second is the SDK's own token request, as for the
// other machine grants (machine.ts). Neither the identity token, the ID-JAG, the identity provider's
// client secret nor what the identity provider writes in an error is ever put in a message.
import {
  discoverAndRequestJwtAuthGrant,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  requestJwtAuthorizationGrant,
  type FetchLike,
} from "@modelcontextprotocol/client";
import { LoginError, oauthCode } from "./errors.js";

/** The enterprise identity provider the identity token comes from, and this host's client there. */
export interface IdentityProvider {
  /** Its issuer: its token endpoint is discovered from it (OAuth or OpenID metadata), unless `tokenEndpoint` is given. */
  issuer?: string;
  /** Its token endpoint, where the token exchange goes (https, or http on a loopback address). */
  tokenEndpoint?: string;
  /** This host's client id at the identity provider. */
  clientId: string;
  /** Its secret, for a confidential client (sent in the exchange request's body, as the SDK does). */
  clientSecret?: string;
}

/**
 * Enterprise-managed authorization: the identity token is exchanged at the identity provider for an
 * ID-JAG, which the MCP server's authorization server exchanges for an access token (JWT bearer grant).
 * The client at the authorization server is `clientId` (and `clientSecret`) of the provider's options.
 */
export interface IdJagGrant {
  type: "id-jag";
  /** The person's identity token from the identity provider, read afresh for every token request. */
  idToken(): string | Promise<string>;
  idp: IdentityProvider;
  /** The scopes to ask for (space-separated); default: those the server names. */
  scope?: string;
}

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";

/** Where the ID-JAG is for: the authorization server's issuer (its audience) and the MCP server (its resource). */
export interface GrantTarget {
  issuer: string;
  resource: string;
}

const JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Checks the grant's options; a TypeError names what is missing, never a value. */
export function checkIdJagGrant(grant: IdJagGrant, clientId: string | undefined): void {
  if (!clientId) throw new TypeError("the id-jag grant needs clientId: the client the MCP server's authorization server knows.");
  const idp = grant.idp as Partial<IdentityProvider> | undefined;
  if (!idp || typeof idp.clientId !== "string" || !idp.clientId)
    throw new TypeError("the id-jag grant needs idp.clientId: this client's id at the identity provider.");
  if (!idp.issuer && !idp.tokenEndpoint)
    throw new TypeError("the id-jag grant needs idp.issuer or idp.tokenEndpoint: where to exchange the identity token.");
  for (const [name, value] of [
    ["idp.issuer", idp.issuer],
    ["idp.tokenEndpoint", idp.tokenEndpoint],
  ] as const) {
    if (value === undefined) continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
      throw new TypeError(`the id-jag grant's ${name} is not an http(s) URL.`);
  }
}

/** Why the identity provider refused the exchange, by OAuth error code (RFC 8693 §2.2.2, RFC 6749 §5.2). */
function exchangeRefusal(code: string): LoginError {
  const why: Record<string, string> = {
    invalid_grant:
      "the identity provider refused the identity token (invalid_grant): it may have expired or be meant for another client; sign in at the identity provider again.",
    invalid_client: "the identity provider refused this client (invalid_client): check the identity provider's client id and secret.",
    unauthorized_client: "the identity provider does not allow this client the token exchange (unauthorized_client).",
    unsupported_grant_type: "the identity provider does not offer the token exchange (unsupported_grant_type).",
    invalid_target: "the identity provider does not let this person reach this MCP server (invalid_target).",
    access_denied: "the identity provider does not let this person reach this MCP server (access_denied).",
    invalid_scope: "the identity provider refused the scopes asked for (invalid_scope).",
  };
  const message = Object.hasOwn(why, code) ? why[code] : `the identity provider refused the token exchange (${code}).`;
  return new LoginError(code === "invalid_scope" ? "failed" : "credentials-refused", message!, code);
}

/**
 * The SDK's exchange errors as LoginErrors: they quote the identity provider's error description or
 * its whole answer, which are its words, not ours to print; only the OAuth error code is kept.
 */
function exchangeError(error: unknown): LoginError {
  if (error instanceof LoginError) return error;
  if (error instanceof InsecureTokenEndpointError)
    return new LoginError(
      "failed",
      "the identity provider's token endpoint is not https (only loopback addresses may use http); the identity token was not sent.",
    );
  if (error instanceof IssuerMismatchError)
    return new LoginError(
      "failed",
      "the identity provider's metadata names another issuer than the one given (RFC 8414 §3.3); the identity token was not sent.",
    );
  const text = error instanceof Error ? error.message : "";
  const refused = /^Token exchange failed: ([A-Za-z0-9_.-]{1,64})/.exec(text);
  if (refused) return exchangeRefusal(oauthCode(refused[1]));
  const status = /^Token exchange failed with status (\d{3})/.exec(text);
  if (status) return new LoginError("failed", `the identity provider answered the token exchange with HTTP ${status[1]}.`);
  if (/^Failed to discover token endpoint|metadata/i.test(text))
    return new LoginError(
      "failed",
      "the identity provider's metadata names no token endpoint (or cannot be fetched); give its token endpoint.",
    );
  if (/^Invalid token exchange response/.test(text))
    return new LoginError("failed", "the identity provider's answer to the token exchange is not an ID-JAG response.");
  return new LoginError(
    "failed",
    "the token exchange at the identity provider failed (it could not be reached, or answered something else).",
  );
}

/**
 * Asks the identity provider for an ID-JAG for `target` (RFC 8693: subject_token_type id_token,
 * requested_token_type id-jag, audience the authorization server's issuer, resource the MCP server).
 */
export async function requestIdJag(
  grant: IdJagGrant,
  target: GrantTarget,
  scope: string | undefined,
  fetchFn?: FetchLike,
): Promise<string> {
  const idToken = (await grant.idToken()).trim();
  if (!JWT.test(idToken))
    throw new LoginError("failed", "the identity token is not a JWT (three base64url parts separated by dots); nothing was sent.");
  const { idp } = grant;
  const request = {
    audience: target.issuer,
    resource: target.resource,
    idToken,
    clientId: idp.clientId,
    ...(idp.clientSecret ? { clientSecret: idp.clientSecret } : {}),
    ...(scope ? { scope } : {}),
    ...(fetchFn ? { fetchFn } : {}),
  };
  let jag: string;
  try {
    const result = idp.tokenEndpoint
      ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
      : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer! });
    jag = result.jwtAuthGrant;
  } catch (error) {
    throw exchangeError(error);
  }
  if (!JWT.test(jag)) throw new LoginError("failed", "the identity provider's ID-JAG is not a JWT; it was not sent on.");
  return jag;
}
