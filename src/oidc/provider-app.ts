// The provider proper: oidc-provider (a certified OpenID Connect and OAuth 2.0 server, with koa) behind our
// sign-in and consent pages. A large import, loaded by openid-provider.ts once the provider is needed.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { createMemoryAdapter } from "oidc-provider/lib/adapters/memory_adapter.js";
import { interactionHandler } from "./interactions.js";
import { DEFAULT_RESOURCE_SCOPES, type OpenIdProviderOptions } from "./options.js";
import { errorPage, PAGE_CSP } from "./pages.js";
import type { DemoUser } from "./users.js";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

function resourceUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Fresh signing keys: ES256 for access tokens, RS256 too, the ID token default clients expect. */
async function signingKeys(): Promise<JWK[]> {
  const keys: JWK[] = [];
  for (const alg of ["ES256", "RS256"]) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    keys.push({ ...(await exportJWK(privateKey)), alg, use: "sig", kid: randomBytes(8).toString("base64url") });
  }
  return keys;
}

function configuration(options: OpenIdProviderOptions, users: readonly DemoUser[], keys: JWK[]): Configuration {
  const accessTokenTTL = options.accessTokenTtlS ?? 3600;
  const refreshTokenTTL = options.refreshTokenTtlS ?? 86_400;
  const resources = options.resources;
  const anyResourceScopes = options.defaultResourceScopes ?? DEFAULT_RESOURCE_SCOPES;
  const allScopes = new Set(resources ? Object.values(resources).flatMap((r) => r.scopes) : anyResourceScopes);
  return {
    adapter: createMemoryAdapter(),
    jwks: { keys },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    // Scopes an MCP client may ask for: OpenID's own plus every resource's (they are also what a
    // resource's tokens carry, see getResourceServerInfo).
    scopes: ["openid", "offline_access", ...allScopes],
    claims: { openid: ["sub"], profile: ["name"] },
    findAccount: (_ctx, sub) => {
      const user = users.find((u) => u.id === sub);
      if (!user) return undefined;
      return { accountId: user.id, claims: () => ({ sub: user.id, ...(user.name ? { name: user.name } : {}) }) };
    },
    clients: (options.clients ?? []).map((c) => ({
      client_id: c.clientId,
      ...("jwks" in c
        ? { jwks: c.jwks, token_endpoint_auth_method: "private_key_jwt" }
        : { client_secret: c.clientSecret, token_endpoint_auth_method: "client_secret_basic" }),
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
    })),
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" },
    // OAuth 2.1's code flow only: no implicit grant, no tokens from the authorization endpoint
    // (oidc-provider would advertise `id_token` and `code id_token`, and so the implicit grant).
    responseTypes: ["code"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: resourceIndicators(options, accessTokenTTL),
    },
    // Refresh tokens for every client allowed the grant (MCP clients seldom ask for offline_access).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: accessTokenTTL,
      ClientCredentials: accessTokenTTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: refreshTokenTTL,
      Interaction: 600,
      Session: 86_400,
      Grant: refreshTokenTTL,
    },
    clientBasedCORS: () => false,
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      ctx.set("content-security-policy", PAGE_CSP);
      ctx.body = errorPage(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, String(v)])));
    },
  };
}

type ResourceIndicators = NonNullable<NonNullable<Configuration["features"]>["resourceIndicators"]>;

/** Tokens for resources (RFC 8707): each named resource with its scopes, or any http(s) URL with the default scopes. */
function resourceIndicators(options: OpenIdProviderOptions, accessTokenTTL: number): ResourceIndicators {
  const resources = options.resources;
  const anyResourceScopes = options.defaultResourceScopes ?? DEFAULT_RESOURCE_SCOPES;
  return {
    enabled: true,
    // A client that names no resource gets the only one there is, if there is only one.
    defaultResource: (_ctx, _client, oneOf) =>
      oneOf ?? (resources && Object.keys(resources).length === 1 ? Object.keys(resources)[0] : undefined),
    // Token and refresh requests without `resource` get the one the person consented to.
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx, indicator) => {
      const known = resources ? (Object.hasOwn(resources, indicator) ? resources[indicator] : undefined) : undefined;
      const scopes = resources ? known?.scopes : resourceUrl(indicator) ? anyResourceScopes : undefined;
      if (!scopes) throw new errors.InvalidTarget(`this provider issues no tokens for ${indicator}`);
      return {
        scope: scopes.join(" "),
        audience: indicator,
        accessTokenTTL,
        accessTokenFormat: "jwt",
        jwt: { sign: { alg: "ES256" } },
      };
    },
  };
}

/** The provider for `issuer`, as a request handler: our interaction pages first, oidc-provider for the rest. */
export async function providerHandler(
  issuer: string,
  options: OpenIdProviderOptions,
  users: readonly DemoUser[],
  hint: string | undefined,
  onerror: (error: Error) => void,
): Promise<RequestHandler> {
  const provider = new Provider(issuer, configuration(options, users, await signingKeys()));
  // Koa would log every 5xx to the console; oidc-provider reports them as server_error, which the
  // owner decides what to do with instead.
  provider.silent = true;
  provider.on("server_error", (_ctx, error) => onerror(error));
  const interactions = interactionHandler(provider, users, hint);
  const oidc = provider.callback();
  return (req, res) => {
    interactions(req, res)
      .then((handled) => {
        if (!handled) void oidc(req, res);
      })
      .catch((error: Error) => {
        onerror(error);
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
}
