// The local OpenID provider mcp-elicit/oidc ships, which the demo and the tests start too: oidc-provider (a
// certified OpenID Connect and OAuth 2.0 server) on 127.0.0.1, with demo accounts, our own sign-in and
// consent pages, dynamic client registration (public clients included), PKCE S256 always, loopback
// redirects on any port for native clients (RFC 8252), JWT access tokens for MCP resources (resource
// indicators, RFC 8707), rotating refresh tokens and revocation. Keys live in memory and are new on every start.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { createMemoryAdapter } from "oidc-provider/lib/adapters/memory_adapter.js";
import { interactionHandler } from "./interactions.js";
import { errorPage, PAGE_CSP } from "./pages.js";
import { DEFAULT_USERS, type DemoUser } from "./users.js";

export { DEFAULT_USERS, type DemoUser } from "./users.js";

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
  clients?: Array<{ clientId: string; clientSecret: string } | { clientId: string; jwks: { keys: Array<Record<string, unknown>> } }>;
  /** Access token lifetime in seconds; default 3600. */
  accessTokenTtlS?: number;
  /** Refresh token lifetime in seconds; default 86400. */
  refreshTokenTtlS?: number;
  /** Shown under the sign-in form; default names the demo accounts when `users` is not given. */
  signInHint?: string;
  /** Told about the provider's own failures (never about tokens or passwords). Default: ignored. */
  onerror?: (error: Error) => void;
}

export interface OpenIdProvider {
  /** `http://127.0.0.1:PORT`, also the base of every endpoint. */
  issuer: string;
  users: readonly DemoUser[];
  close(): Promise<void>;
}

function resourceUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Fresh signing keys: ES256 for access tokens, RS256 too, the ID token default clients expect. */
async function signingKeys(): Promise<Array<Record<string, unknown>>> {
  const keys = [];
  for (const alg of ["ES256", "RS256"]) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    keys.push({ ...(await exportJWK(privateKey)), alg, use: "sig", kid: randomBytes(8).toString("base64url") });
  }
  return keys;
}

function configuration(options: OpenIdProviderOptions, users: readonly DemoUser[], keys: Array<Record<string, unknown>>): Configuration {
  const accessTokenTTL = options.accessTokenTtlS ?? 3600;
  const refreshTokenTTL = options.refreshTokenTtlS ?? 86_400;
  const resources = options.resources;
  const anyResourceScopes = options.defaultResourceScopes ?? DEFAULT_RESOURCE_SCOPES;
  const allScopes = new Set(resources ? Object.values(resources).flatMap((r) => r.scopes) : anyResourceScopes);
  return {
    adapter: createMemoryAdapter(),
    jwks: { keys: keys as never[] },
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
        ? { jwks: c.jwks as never, token_endpoint_auth_method: "private_key_jwt" }
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
      resourceIndicators: {
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
      },
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

/**
 * Starts the provider on 127.0.0.1; resolves once it listens.
 *
 * @example
 * ```ts region=examples/protected-server.ts#startOpenIdProvider
 * // A local OpenID provider stands in for yours; it knows one machine client (no person signs in).
 * const provider = await startOpenIdProvider({ clients: [{ clientId: "nightly-report", clientSecret: "example-only-secret" }] });
 * ```
 */
export async function startOpenIdProvider(options: OpenIdProviderOptions = {}): Promise<OpenIdProvider> {
  const users = options.users ?? DEFAULT_USERS;
  const hint =
    options.signInHint ?? (options.users ? undefined : `Demo accounts: ${users.map((u) => `${u.id} / ${u.password}`).join(", ")}.`);
  const onerror = options.onerror ?? (() => {});

  // The issuer holds the port, so listen first and attach the provider once the port is known.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  try {
    const provider = new Provider(issuer, configuration(options, users, await signingKeys()));
    // Koa would log every 5xx to the console; oidc-provider reports them as server_error, which the
    // owner decides what to do with instead.
    provider.silent = true;
    provider.on("server_error", (_ctx, error) => onerror(error));
    const interactions = interactionHandler(provider, users, hint);
    const oidc = provider.callback();
    handle = (req, res) => {
      interactions(req, res)
        .then((handled) => {
          if (!handled) void oidc(req, res);
        })
        .catch((error: Error) => {
          onerror(error);
          if (!res.headersSent) res.writeHead(500).end();
        });
    };
    return {
      issuer,
      users,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  } catch (error) {
    server.close();
    throw error;
  }
}
