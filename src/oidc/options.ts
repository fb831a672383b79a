// The local OpenID provider's options and handle (openid-provider.ts starts it; provider-app.ts is
// oidc-provider itself, loaded when the provider is first needed).
import type { JWK } from "jose";
import type { DemoUser } from "./users.js";

/** The scopes any resource gets when `resources` is not given (see `defaultResourceScopes`). */
export const DEFAULT_RESOURCE_SCOPES: readonly string[] = ["mcp:tools"];

export interface OpenIdProviderOptions {
  /** Default 0: a free port. The provider always binds 127.0.0.1. */
  port?: number;
  /** Default: demo/demo, alice/alice, bob/bob. */
  users?: DemoUser[];
  /**
   * The resources (MCP server URLs) tokens may be issued for, each with the scopes it knows. Default:
   * any http(s) URL, with `defaultResourceScopes`.
   */
  resources?: Record<string, { scopes: string[] }>;
  /** The scopes of any resource when `resources` is not given; default {@link DEFAULT_RESOURCE_SCOPES} (mcp:tools). */
  defaultResourceScopes?: string[];
  /**
   * Machine clients (no user): each gets tokens with the client-credentials grant, authenticating
   * with its secret (HTTP Basic), or, given `jwks` (its public keys) instead, with a JWT signed by its
   * private key (private_key_jwt, RFC 7523); the token's subject is the client id.
   */
  clients?: Array<{ clientId: string; clientSecret: string } | { clientId: string; jwks: { keys: JWK[] } }>;
  /** Access token lifetime in seconds; default 3600. */
  accessTokenTtlS?: number;
  /** Refresh token lifetime in seconds; default 86400. */
  refreshTokenTtlS?: number;
  /** Shown under the sign-in form; default names the demo accounts when `users` is not given. */
  signInHint?: string;
  /** Told about the provider's own failures (never about tokens or passwords). Default: ignored. */
  onerror?: (error: Error) => void;
  /**
   * Listen at once but load oidc-provider and make the keys on the first request (default false), for
   * a provider that may never be used: the demo's SkyMiles. Then a failure to build it answers 500 and
   * goes to `onerror`, instead of failing the start.
   */
  lazy?: boolean;
}

export interface OpenIdProvider {
  /** `http://127.0.0.1:PORT`, also the base of every endpoint. */
  issuer: string;
  users: readonly DemoUser[];
  close(): Promise<void>;
}
