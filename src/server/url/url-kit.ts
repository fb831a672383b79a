// createUrlKit: everything URL-mode elicitation needs on the server, in one object that tool handlers
// (through createElicitation({ urlKit })) and the HTTP server (serveHttp(factory, { urlKit }), under
// /elicit/) share: the flows, the credential vault, and the pages a person opens.
//
// The URL a client sees is always the kit's own connect page, `<baseUrl>connect/<flow id>`: the page
// checks who opened it before sending the person on, so no author URL, user data or credential ever
// travels in an elicitation.
import { memoryStore } from "../../store/memory.js";
import { storeSink } from "./files/store-sink.js";
import { FlowStore } from "./flows.js";
import type { PagesContext, PagesHandler, UrlKit, UrlKitOptions } from "./kit-types.js";
import { resolveKitKey } from "./keys.js";
import { Uploads } from "./uploads.js";
import { Vault } from "./vault.js";

// The kit's shapes live in kit-types.ts, which the pages and the provider clients read without importing the kit.
export type { IdentityOption, PagesContext, ThirdPartyProvider, UrlKit, UrlKitOptions } from "./kit-types.js";

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

/**
 * The URL-mode kit: flows, the credential vault and the pages a person opens. Give it to
 * `createElicitation({ urlKit })` and `serveHttp(factory, { urlKit })`.
 *
 * @example
 * ```ts region=examples/url-mode.ts#createUrlKit
 * // "loopback": the pages trust the person at this machine, for a local server (see the identity rules).
 * const urlKit = createUrlKit({ identity: "loopback", serverName: "weather" });
 * const kit = createElicitation({ urlKit });
 * ```
 */
export function createUrlKit(options: UrlKitOptions = {}): UrlKit {
  const store = options.store ?? memoryStore();
  const keys = resolveKitKey(options.vaultKey, options.store !== undefined);
  const flows = new FlowStore(store, {
    ...(options.flowTtlMs !== undefined ? { ttlMs: options.flowTtlMs } : {}),
    // Ends published signed, so another member's waiter wakes on the message without reading the store.
    endKeys: () => [keys.pages, ...(keys.older ?? []).map((k) => k.pages)],
  });
  // An expired access token is refreshed at its provider (loaded when first needed, with openid-client).
  const vault = new Vault(store, keys, {
    refresh: async (provider, token) => (await import("./provider-clients.js")).refreshConnected(kit, provider, token),
  });
  const uploads = new Uploads(store, options.files?.sink ?? storeSink(store));
  const closing = new AbortController();
  let baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl);
  let pages: Promise<PagesHandler> | undefined;
  let mountedIssuer: string | undefined;

  const kit: UrlKit = {
    flows,
    vault,
    uploads,
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
