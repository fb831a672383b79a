// The URL kit's shapes: its options, the kit itself, and the pages' view of it. Apart from url-kit.ts (which builds
// the kit) so that the pages and the provider clients, which url-kit.ts loads, can read them without importing it back.
import type { KeyValueStore } from "../../store/types.js";
import type { FileSink } from "./files/sink.js";
import type { FlowStore } from "./flows.js";
import type { KitKeys, VaultKey } from "./keys.js";
import type { ThirdPartyProvider } from "./oauth-client.js";
import type { Uploads } from "./uploads.js";
import type { Vault } from "./vault.js";

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
  /**
   * Where ctx.elicitFile's uploads go (default: the kit's store, for small files). Give
   * `directorySink(dir)` or your own FileSink (an object store) for large ones.
   */
  files?: { sink?: FileSink };
}

export interface UrlKit {
  readonly flows: FlowStore;
  readonly vault: Vault;
  /** ctx.elicitFile's uploads: their records and the sink that holds their bytes. */
  readonly uploads: Uploads;
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

/** Where the peer's address comes from: given directly, or as @hono/node-server's env ({ incoming }). */
export type PeerInfo = { remoteAddress?: string } | { incoming?: { socket?: { remoteAddress?: string } } };

export type PagesHandler = (request: Request, peer?: PeerInfo) => Promise<Response>;
