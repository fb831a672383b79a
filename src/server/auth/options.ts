// What `serveHttp(factory, { auth })` takes, and who a verified token says is calling.
import type { OAuthTokenVerifier } from "@modelcontextprotocol/server";

export interface HttpAuthOptions {
  /** The authorization server's issuer identifier (its metadata is discovered from it, once). */
  issuer: string;
  /**
   * This server's resource identifier (RFC 8707/9728): the URL clients connect to. Default: the
   * endpoint's URL as served (set it when a proxy or another host name is in front).
   */
  resource?: string;
  /** Scopes every request needs; a token without them gets 403 insufficient_scope. Default none. */
  scopes?: string[];
  /** The `aud` a token must carry. Default: `resource`. */
  audience?: string;
  /** Scopes advertised in the protected-resource metadata. Default: `scopes`. */
  scopesSupported?: string[];
  /** Shown to people by clients that display the metadata's `resource_name`. */
  resourceName?: string;
  /** JWS algorithms accepted. Default: RS256, PS256, ES256, EdDSA and their larger variants (never "none" or HMAC). */
  algorithms?: string[];
  /** Seconds of clock difference tolerated on `exp`/`nbf`/`iat`. Default 5. */
  clockToleranceS?: number;
  /**
   * Verifies tokens instead of the built-in JWT check (e.g. introspection). It must fill
   * `AuthInfo.resource` (compared with `resource`), `expiresAt`, and `extra.sub`/`extra.issuer`
   * for {@link Principal}; it throws the SDK's `OAuthError` with `invalid_token` to refuse.
   */
  verifier?: OAuthTokenVerifier;
}

/** Who is calling, from a verified access token. */
export interface Principal {
  /** The token's subject: the signed-in user (or the client itself, for client-credentials tokens). */
  sub: string;
  /** The OAuth client the user signed in with. */
  clientId: string;
  /** Scopes the token grants. */
  scopes: string[];
  /** The authorization server that issued the token. */
  issuer: string;
}
