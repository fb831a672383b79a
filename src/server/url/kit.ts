// createUrlKit: everything URL-mode elicitation needs on the server, in one object that tool handlers
// (through createElicitation({ urlKit })) and the HTTP server (serveHttp(factory, { urlKit }), under
// /elicit/) share: the flows, the credential vault, and the pages a person opens.
//
// The URL a client sees is always the kit's own connect page, `<baseUrl>connect/<flow id>`: the page
// checks who opened it before sending the person on, so no author URL, user data or credential ever
// travels in an elicitation.
import { memoryStore } from "../../store/memory.js";
import type { KeyValueStore } from "../../store/types.js";
import { FlowStore } from "./flows.js";
import { resolveKitKey, type KitKeys, type VaultKey } from "./keys.js";
import type { ThirdPartyProvider } from "./oauth-client.js";
import type { PagesHandler, PeerInfo } from "./pages/index.js";
import { Vault } from "./vault.js";

// A third-party OAuth authorization server the kit can connect a person's account at (ctx.connect):
// { issuer, clientId? (absent: dynamic registration), clientSecret?, scopes, title?, authorizationParams? }.
export type { ThirdPartyProvider } from "./oauth-client.js";

/** How the pages learn who is in the browser, to compare with who the tool asked. */
export type IdentityOption = "oidc" | "loopback" | { identify(request: Request): Promise<{ issuer: string; sub: string } | undefined> };

export interface UrlKitOptions {
  /** Public origin and path prefix of the pages, e.g. "https://mcp.example.com/elicit/". serveHttp fills it when absent. */
  baseUrl?: string | URL;
  /** Where flows, sign-in sessions and the vault live (default: memory, for one process; `sqliteStore(file)` survives restarts). */
  store?: KeyValueStore;
  /**
   * 32 bytes (or 64 hex digits / base64url) encrypting the vault; required with a durable store
   * ($MCP_ELICIT_VAULT_KEY also works). A ring to rotate: an array (or comma-separated string), newest
   * first; the newest seals and signs, the older ones only open records they sealed (see vault.reseal()).
   */
  vaultKey?: VaultKey;
  /** How the person in the browser is identified (default "oidc": sign-in at `oidc.issuer`). */
  identity?: IdentityOption;
  /** The authorization server the person signs in at: the one protecting the MCP endpoint. */
  oidc?: { issuer: string; clientId?: string; clientSecret?: string };
  /** Third-party OAuth providers for ctx.connect, by name. */
  providers?: Record<string, ThirdPartyProvider>;
  /** How long a flow can be finished (default 10 minutes). */
  flowTtlMs?: number;
  /**
   * What a tool whose client cannot do URL mode (2025-06-18, or no elicitation.url capability) gets:
   * "error" (default) a tool error naming what is needed; "link" a tool result with the connect link as
   * text, for the person to open (the same identity rules apply); a retry of the call finds the flow.
   */
  fallback?: "error" | "link";
  /** The MCP server's name as the pages show it (default: the baseUrl's host). */
  serverName?: string;
}

export interface UrlKit {
  readonly flows: FlowStore;
  readonly vault: Vault;
  readonly options: Readonly<UrlKitOptions>;
  /** The pages' origin and prefix, once known (given, or filled by serveHttp). */
  readonly baseUrl: URL | undefined;
  /**
   * The pages, as a fetch handler: mount it in any HTTP server at baseUrl's path. `peer` carries the
   * client's address (or @hono/node-server's env, `{ incoming }`), which the "loopback" identity checks.
   */
  fetch(request: Request, peer?: PeerInfo): Promise<Response>;
  /** The URL a client is sent for a flow: the kit's connect page. */
  connectUrl(flowId: string): string;
  /** Sets baseUrl when none was given (serveHttp calls it with `<its origin>/elicit/`); a given baseUrl is kept. */
  mount(baseUrl: string | URL, defaults?: { oidcIssuer?: string }): void;
  /** Aborted by close(): background work (completion notices) stops. */
  readonly signal: AbortSignal;
  close(): Promise<void>;
}

/** The pages' view of the kit, for `./pages/` (it is built once baseUrl is known). */
export interface PagesContext {
  kit: UrlKit;
  keys: KitKeys;
  store: KeyValueStore;
  baseUrl: URL;
  /** Where people sign in: `oidc.issuer`, else the issuer serveHttp's `auth` trusts (given to mount). */
  oidcIssuer?: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
export const isLoopbackHost = (hostname: string) => LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

/** The pages' base URL, checked: http(s), no credentials, query or fragment, HTTPS off loopback, a trailing slash. */
export function checkBaseUrl(value: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`createUrlKit: baseUrl ${JSON.stringify(String(value))} is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`createUrlKit: baseUrl must be an https URL, got ${url.protocol}`);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    throw new TypeError(
      `createUrlKit: baseUrl ${url.origin} uses http off loopback; the pages take sign-ins and credentials, so they need https outside localhost.`,
    );
  if (url.username || url.password || url.search || url.hash)
    throw new TypeError("createUrlKit: baseUrl must not hold credentials, a query or a fragment.");
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

export function createUrlKit(options: UrlKitOptions = {}): UrlKit {
  const store = options.store ?? memoryStore();
  const keys = resolveKitKey(options.vaultKey, options.store !== undefined);
  const flows = new FlowStore(store, { ...(options.flowTtlMs !== undefined ? { ttlMs: options.flowTtlMs } : {}) });
  // An expired access token is refreshed at its provider (loaded when first needed, with openid-client).
  const vault = new Vault(store, keys, {
    refresh: async (provider, token) => (await import("./provider-clients.js")).refreshConnected(kit, provider, token),
  });
  const closing = new AbortController();
  let baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl);
  let pages: Promise<PagesHandler> | undefined;
  let mountedIssuer: string | undefined;

  const kit: UrlKit = {
    flows,
    vault,
    options,
    get baseUrl() {
      return baseUrl;
    },
    get signal() {
      return closing.signal;
    },
    async fetch(request, peer) {
      if (!baseUrl) return new Response("Not found", { status: 404 });
      pages ??= loadPages({
        kit,
        keys,
        store,
        baseUrl,
        ...(options.oidc?.issuer || mountedIssuer ? { oidcIssuer: options.oidc?.issuer ?? mountedIssuer } : {}),
      });
      return (await pages)(request, peer);
    },
    connectUrl(flowId) {
      if (!baseUrl)
        throw new Error(
          "createUrlKit: the pages' address is not known yet; pass baseUrl, or serve the kit with serveHttp(factory, { urlKit }).",
        );
      return new URL(`connect/${encodeURIComponent(flowId)}`, baseUrl).href;
    },
    mount(url, defaults) {
      baseUrl ??= checkBaseUrl(url);
      mountedIssuer ??= defaults?.oidcIssuer;
    },
    async close() {
      closing.abort(new Error("The URL kit was closed."));
      // A store the caller gave is theirs to close.
      if (!options.store) await store.close();
    },
  };
  return kit;
}

/** The pages (./pages/): loaded on the first request, so a kit used only for its flows and vault never loads them (nor Hono). */
async function loadPages(context: PagesContext): Promise<PagesHandler> {
  const { createPages } = await import("./pages/index.js");
  return createPages(context);
}
