// The kit's OAuth client side, on openid-client (panva; certified OpenID relying party, built on
// oauth4webapi): discovery, dynamic client registration, the authorization URL with PKCE S256, the
// code exchange (state, `iss` mix-up defence and ID token checks done by the library), and refresh.
// One OAuthClient per authorization server: the one protecting the MCP endpoint (who the person is)
// and each third-party provider (whose account the person connects).
import * as oidc from "openid-client";
import type { RefreshedTokens } from "./vault.js";
import { ElicitError } from "../../schema/errors.js";

/** A third-party authorization server whose account a tool asks the person to connect (`ctx.connect`). */
export interface ThirdPartyProvider {
  /** Issuer identifier; its metadata is discovered (OpenID Connect discovery, else RFC 8414). */
  issuer: string;
  /** A client registered there with the kit's `/callback` as redirect URI. Absent: registered dynamically (RFC 7591) on first use. */
  clientId?: string;
  /** For a confidential client (sent with client_secret_basic); never shown, logged or stored outside the vault. */
  clientSecret?: string;
  /** Scopes to ask for. */
  scopes: string[];
  /** Shown on the pages, e.g. "SkyMiles" (default: the key in `providers`). */
  title?: string;
  /** Extra authorization request parameters (e.g. `resource`, `audience`). */
  authorizationParams?: Record<string, string>;
}

/** A client registered dynamically, remembered so that a restarted server keeps using it. */
export interface Registration {
  clientId: string;
  clientSecret?: string;
}

export interface RegistrationCache {
  load(issuer: string, redirectUri: string): Promise<Registration | undefined>;
  save(issuer: string, redirectUri: string, registration: Registration): Promise<void>;
}

export interface OAuthClientOptions {
  issuer: string;
  clientId?: string;
  clientSecret?: string;
  redirectUri: string;
  /** `client_name` of a dynamic registration. */
  clientName: string;
  registrations?: RegistrationCache;
}

export interface SignedInClaims {
  issuer: string;
  sub: string;
  name?: string;
}

export interface CodeExchange {
  tokens: RefreshedTokens;
  /** The verified ID token's claims, when the provider sent one. */
  claims?: SignedInClaims;
}

/** What went wrong with a provider, in words fit for a page and a log: never a token, secret or code. */
export class OAuthFlowError extends ElicitError {
  constructor(
    message: string,
    /** The OAuth error code (e.g. access_denied, invalid_grant), when the provider sent one. */
    readonly oauthError?: string,
  ) {
    super("oauth-flow-failed", message);
  }
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** http is accepted only for loopback issuers (local development and tests); anything else needs https. */
export function checkIssuer(issuer: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`${what}: issuer ${JSON.stringify(issuer)} is not a URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
    throw new Error(`${what}: issuer ${url.origin} must use https (http only on 127.0.0.1, localhost or [::1])`);
  return url;
}

function describe(error: unknown): OAuthFlowError {
  if (error instanceof OAuthFlowError) return error;
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return new OAuthFlowError(`the provider answered ${error.error}`, error.error);
  const message = error instanceof Error ? error.message : String(error);
  return new OAuthFlowError(`the provider's answer did not check out: ${message.slice(0, 200)}`);
}

export class OAuthClient {
  private config?: Promise<oidc.Configuration>;
  readonly issuer: URL;

  constructor(private readonly options: OAuthClientOptions) {
    this.issuer = checkIssuer(options.issuer, "OAuth client");
  }

  private get insecure(): boolean {
    return this.issuer.protocol === "http:";
  }

  private configuration(): Promise<oidc.Configuration> {
    this.config ??= this.discover().catch((error: unknown) => {
      this.config = undefined; // a provider that was down is tried again next time
      throw new OAuthFlowError(`could not reach the authorization server ${this.issuer.origin}: ${(error as Error).message.slice(0, 200)}`);
    });
    return this.config;
  }

  private async discover(): Promise<oidc.Configuration> {
    const { options } = this;
    const execute = this.insecure ? [oidc.allowInsecureRequests] : [];
    const auth = (secret?: string) => (secret ? oidc.ClientSecretBasic(secret) : oidc.None());
    const metadata = { redirect_uris: [options.redirectUri], response_types: ["code"] };
    const known = options.clientId
      ? { clientId: options.clientId, clientSecret: options.clientSecret }
      : await options.registrations?.load(this.issuer.href, options.redirectUri);
    if (known)
      return oidc.discovery(this.issuer, known.clientId, { ...metadata, client_secret: known.clientSecret }, auth(known.clientSecret), {
        execute,
      });
    const config = await oidc.dynamicClientRegistration(
      this.issuer,
      {
        ...metadata,
        client_name: options.clientName,
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
      },
      oidc.None(),
      { execute },
    );
    const registered = config.clientMetadata();
    await options.registrations?.save(this.issuer.href, options.redirectUri, {
      clientId: registered.client_id,
      ...(typeof registered.client_secret === "string" ? { clientSecret: registered.client_secret } : {}),
    });
    return config;
  }

  /** The origin of the authorization endpoint (a page's form-action must allow it); the issuer's while it is not discovered. */
  async authorizationOrigin(): Promise<string> {
    try {
      const endpoint = (await this.configuration()).serverMetadata().authorization_endpoint;
      return endpoint ? new URL(endpoint).origin : this.issuer.origin;
    } catch {
      return this.issuer.origin;
    }
  }

  /** The authorization request: code flow, PKCE S256 from `codeVerifier`, the given state and nonce. */
  async authorizationUrl(request: {
    state: string;
    codeVerifier: string;
    nonce: string;
    scopes: string[];
    params?: Record<string, string>;
  }): Promise<URL> {
    const config = await this.configuration();
    return oidc.buildAuthorizationUrl(config, {
      ...request.params,
      redirect_uri: this.options.redirectUri,
      scope: request.scopes.join(" "),
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: "S256",
    });
  }

  /** Exchanges the code the provider sent back to the redirect URI (`query`: the callback's parameters). */
  async exchange(
    query: URLSearchParams,
    checks: { state: string; codeVerifier: string; nonce: string; requireIdToken?: boolean },
  ): Promise<CodeExchange> {
    const config = await this.configuration();
    const current = new URL(this.options.redirectUri);
    for (const [k, v] of query) current.searchParams.append(k, v);
    try {
      const response = await oidc.authorizationCodeGrant(config, current, {
        expectedState: checks.state,
        pkceCodeVerifier: checks.codeVerifier,
        expectedNonce: checks.nonce,
        idTokenExpected: checks.requireIdToken ?? false,
      });
      const claims = response.claims();
      return {
        tokens: tokensOf(response),
        ...(claims
          ? { claims: { issuer: claims.iss, sub: claims.sub, ...(typeof claims.name === "string" ? { name: claims.name } : {}) } }
          : {}),
      };
    } catch (error) {
      throw describe(error);
    }
  }

  /** New tokens for a refresh token; undefined when the provider refused it (invalid_grant: revoked or expired). */
  async refresh(refreshToken: string): Promise<RefreshedTokens | undefined> {
    const config = await this.configuration();
    try {
      return tokensOf(await oidc.refreshTokenGrant(config, refreshToken));
    } catch (error) {
      const described = describe(error);
      if (described.oauthError === "invalid_grant") return undefined;
      throw described;
    }
  }
}

function tokensOf(response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): RefreshedTokens {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    tokenType: response.token_type,
    ...(response.refresh_token ? { refreshToken: response.refresh_token } : {}),
    ...(expiresIn !== undefined ? { expiresInS: expiresIn } : {}),
    ...(response.scope ? { scope: response.scope } : {}),
  };
}
