// Verifies JWT access tokens (RFC 9068) with jose against the issuer's published keys: signature,
// algorithm, type (at+jwt), issuer, audience, expiry. Every failure becomes the SDK's OAuthError, so
// its bearer helpers answer 401 invalid_token (or 500 when the keys cannot be fetched). No message
// quotes the token or any of its claims' values.
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { createRemoteJWKSet, JWTPayload } from "jose";
import { discoverIssuer, jwksUrl, type IssuerMetadata } from "./discovery.js";
import { VerifiedTokens } from "./verified-tokens.js";

export const DEFAULT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

export interface JwtVerifierOptions {
  issuer: string;
  /** The `aud` a token must carry (one of, when it is an array). */
  audience: string;
  /** Reported as `AuthInfo.resource` (what the SDK compares with the server's resource). Default: `audience`. */
  resource?: string;
  algorithms?: string[];
  clockToleranceS?: number;
  /** The issuer's metadata when already known (else discovered on first use). */
  metadata?: IssuerMetadata;
  /** Told when the issuer's keys cannot be fetched (the request gets 500). */
  onerror?: (error: Error) => void;
}

const invalid = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);

// jose is loaded with the first token, so `mcp-elicit/server` costs nothing more for servers without auth.
type Jose = typeof import("jose");
let jose: Promise<Jose> | undefined;
const loadJose = () => (jose ??= import("jose"));

/** What each jose failure tells the client; the wording names the rule, never a value. */
function explain({ errors }: Jose, error: unknown): OAuthError {
  if (error instanceof errors.JWTExpired) return invalid("The access token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return invalid("The access token was issued for another resource (aud)");
    if (error.claim === "iss") return invalid("The access token was issued by another authorization server (iss)");
    if (error.claim === "nbf") return invalid("The access token is not valid yet (nbf)");
    return invalid(`The access token's "${error.claim}" claim is ${error.reason === "missing" ? "missing" : "not acceptable"}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid("The access token is signed with an algorithm this server does not accept");
  if (error instanceof errors.JWKSNoMatchingKey)
    return invalid("The access token is signed with a key the authorization server does not publish");
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid("The access token's signature does not verify");
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return new OAuthError(OAuthErrorCode.ServerError, "The authorization server's keys cannot be fetched");
  if (error instanceof errors.JOSEError) return invalid("The access token is not a well-formed signed JWT");
  // Anything else (a network failure fetching the keys) is this server's problem, not the token's.
  return new OAuthError(OAuthErrorCode.ServerError, "The authorization server's keys cannot be fetched");
}

const NOT_AN_ACCESS_TOKEN = "The token is not a JWT access token (typ must be at+jwt, RFC 9068)";

/** `at+jwt` or `application/at+jwt`, in any case (media types are case-insensitive, RFC 9068 §2.1). */
const isAccessTokenType = (typ: unknown) => typeof typ === "string" && /^(application\/)?at\+jwt$/i.test(typ);

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  // Some servers send `scp` as an array (or a space-separated string).
  const scp = payload.scp;
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === "string");
  return typeof scp === "string" ? scp.split(" ").filter(Boolean) : [];
}

/** What a verified token says, as the SDK's transports pass it on (`authInfo`). */
function authInfoOf(token: string, payload: JWTPayload, options: JwtVerifierOptions): AuthInfo {
  const clientId = typeof payload.client_id === "string" ? payload.client_id : typeof payload.azp === "string" ? payload.azp : undefined;
  if (!clientId) throw invalid("The access token names no client (client_id)");
  // A DPoP-bound token (RFC 9449 §6.1): the thumbprint of the key its holder must prove.
  const cnf = payload.cnf as { jkt?: unknown } | undefined;
  const jkt = cnf && typeof cnf === "object" ? cnf.jkt : undefined;
  if (jkt !== undefined && typeof jkt !== "string") throw invalid("The access token's cnf.jkt is not a key thumbprint");
  return {
    token,
    clientId,
    scopes: scopesOf(payload),
    expiresAt: payload.exp,
    resource: new URL(options.resource ?? options.audience),
    extra: { sub: payload.sub, issuer: payload.iss, ...(jkt !== undefined ? { cnf: { jkt } } : {}) },
  };
}

/** An `OAuthTokenVerifier` for JWT access tokens from `issuer`, for `audience`. */
export function jwtAccessTokenVerifier(options: JwtVerifierOptions): OAuthTokenVerifier {
  const algorithms = options.algorithms ?? DEFAULT_ALGORITHMS;
  if (algorithms.some((a) => a === "none" || a.startsWith("HS")))
    throw new TypeError(`auth.algorithms: "none" and HMAC algorithms cannot verify tokens from an authorization server's published keys`);
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () =>
    (keys ??= (async () => {
      const metadata = options.metadata ?? (await discoverIssuer(options.issuer));
      const url = jwksUrl(metadata, options.issuer); // https, or http on loopback: checked before any fetch
      // jose caches the key set, refetches it for an unknown key id at most once per cooldown, and times out.
      return (await loadJose()).createRemoteJWKSet(url, {
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: 5_000,
      });
    })().catch((error: Error) => {
      keys = undefined; // try again on the next request
      throw error;
    }));

  const verified = new VerifiedTokens();

  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const known = verified.get(token);
      if (known) return known;
      const lib = await loadJose();
      let claims: JWTPayload;
      let typ: unknown;
      try {
        claims = lib.decodeJwt(token);
        typ = lib.decodeProtectedHeader(token).typ;
      } catch {
        throw invalid("The access token is not a well-formed JWT");
      }
      // Refused before any key is fetched: a token from elsewhere cannot make us fetch keys.
      if (claims.iss !== options.issuer) throw invalid("The access token was issued by another authorization server (iss)");
      // RFC 9068 §4: without this, an ID token (or any other JWT) the issuer signed for this audience
      // would pass as an access token. Refusing on the header early is safe: accepting still needs
      // the signature, which covers the header.
      if (!isAccessTokenType(typ)) throw invalid(NOT_AN_ACCESS_TOKEN);
      let jwks: ReturnType<typeof createRemoteJWKSet>;
      try {
        jwks = await keySet();
      } catch (error) {
        options.onerror?.(error as Error);
        throw new OAuthError(OAuthErrorCode.ServerError, "The authorization server's metadata cannot be fetched or is not acceptable");
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await lib.jwtVerify(token, jwks, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          clockTolerance: options.clockToleranceS ?? 5,
          requiredClaims: ["exp", "sub"],
        }));
      } catch (error) {
        const refused = explain(lib, error);
        if (refused.code === OAuthErrorCode.ServerError) options.onerror?.(error as Error);
        throw refused;
      }
      const info = authInfoOf(token, payload, options);
      verified.set(info);
      return info;
    },
  };
}
