// What `serveHttp(factory, { auth })` takes, and who a verified token says is calling.
import type { OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "../../store/types.js";
import type { StateKeyInput } from "../base/sealed-state.js";

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
  /**
   * DPoP-bound tokens (RFC 9449). `Authorization: DPoP` with a proof is always checked, and a token
   * bound to a key (`cnf.jkt`) is refused as a bearer token. `true` or an object also advertises DPoP in
   * the protected-resource metadata (`dpop_signing_alg_values_supported`), so clients ask for bound
   * tokens; `false` refuses the DPoP scheme. A custom `verifier` reports a bound token's key as
   * `AuthInfo.extra.cnf: { jkt }`.
   */
  dpop?: boolean | DpopOptions;
}

export interface DpopOptions {
  /** Only DPoP-bound tokens: a bearer token (bound or not) is refused. Default false. */
  required?: boolean;
  /** The proof algorithms accepted, advertised as `dpop_signing_alg_values_supported`. Default: ES256/384/512, EdDSA, PS256, RS256. */
  algorithms?: string[];
  /** How far a proof's `iat` may be from now, in seconds, either way (and how long its `jti` is remembered). Default 60. */
  maxAgeSeconds?: number;
  /** Ask for a server nonce in every proof (RFC 9449 §9): a proof without a current one gets 401 `use_dpop_nonce` and a `DPoP-Nonce`. Default false. */
  nonce?: boolean;
  /**
   * Where used `jti`s are remembered (`dpop-jti:` keys, added atomically); the fleet's store when serving a
   * fleet, else memory. In a fleet it must be a store every member shares (`shared`), or serveHttp refuses to start.
   */
  store?: KeyValueStore;
  /**
   * The key ring nonces are made from (a key of its own is derived from it with HKDF): 32 bytes, or a ring
   * newest first, as `stateKey`. Members that share it accept each other's nonces. Default:
   * $MCP_ELICIT_STATE_KEY, else a random key of this process; a fleet (or a shared `store`) asking for
   * nonces needs one.
   */
  key?: StateKeyInput;
  /**
   * Without a store: most used `jti`s remembered in memory (default 100,000, about 15 MB). When it is full, a
   * new proof gets 503 with Retry-After until the oldest leave the window; a live `jti` is never forgotten.
   */
  maxJtis?: number;
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
