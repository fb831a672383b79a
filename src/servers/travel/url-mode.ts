// The travel server's URL-mode half: the URL kit (pages, flows, vault) for pay_for_booking and
// connect_frequent_flyer, and SkyMiles, a second local OpenID provider standing in for an airline's
// frequent-flyer program (its accounts: demo/demo, alice/alice, bob/bob; nothing kept after exit).
import type { OpenIdProvider } from "../../oidc/openid-provider.js";
import type { KeyValueStore } from "../../store/types.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUrlKit, type UrlKit } from "../../server/url/url-kit.js";
import { directorySink } from "../../server/url/files/index.js";
import { FREQUENT_FLYER_PROVIDER } from "./frequent-flyer.js";

export interface TravelUrlModeOptions {
  /**
   * Who the person at the kit's pages is: "loopback" (a local server with no sign-in: whoever uses
   * this computer), or the issuer of the authorization server that protects the MCP endpoint.
   */
  identity: "loopback" | { issuer: string };
  /** Flows and the vault (default: memory). A durable store needs `vaultKey` or $MCP_ELICIT_VAULT_KEY. */
  store?: KeyValueStore;
  vaultKey?: string | Uint8Array;
  /** The pages' public origin and prefix, when not served by serveHttp (which fills it). */
  baseUrl?: string | URL;
  onerror?: (error: Error) => void;
  /** File uploads (the passport's photo page): kept in a temporary directory of their own, removed on close. */
  uploads?: boolean;
}

export interface TravelUrlMode {
  kit: UrlKit;
  /** SkyMiles' issuer: connect_frequent_flyer asks its userinfo endpoint who the member is. */
  skymilesIssuer: string;
  close(): Promise<void>;
}

/** The local OpenID provider's module (light: oidc-provider itself loads on the provider's first request when `lazy`). */
export function loadOpenIdProvider(): Promise<typeof import("../../oidc/openid-provider.js")> {
  return import("../../oidc/openid-provider.js");
}

/** Starts SkyMiles and makes the kit that connects to it. */
export async function startTravelUrlMode(options: TravelUrlModeOptions): Promise<TravelUrlMode> {
  const { startOpenIdProvider } = await loadOpenIdProvider();
  const skymiles: OpenIdProvider = await startOpenIdProvider({
    users: [
      { id: "demo", password: "demo", name: "Demo Traveler" },
      { id: "alice", password: "alice", name: "Alice" },
      { id: "bob", password: "bob", name: "Bob" },
    ],
    signInHint: "SkyMiles demo accounts: demo / demo, alice / alice, bob / bob.",
    // Most runs of the demo never connect a frequent-flyer account: oidc-provider loads when one does.
    lazy: true,
    ...(options.onerror ? { onerror: options.onerror } : {}),
  });
  // Files up to 10 MB are more than the kit's store keeps (1 MiB): they stream to a directory instead.
  const uploads = options.uploads ? mkdtempSync(join(tmpdir(), "elicit-travel-uploads-")) : undefined;
  const removeUploads = () => uploads && rmSync(uploads, { recursive: true, force: true });
  try {
    const kit = createUrlKit({
      serverName: "mcp-elicit-travel",
      identity: options.identity === "loopback" ? "loopback" : "oidc",
      ...(options.identity === "loopback" ? {} : { oidc: { issuer: options.identity.issuer } }),
      ...(options.store ? { store: options.store } : {}),
      ...(options.vaultKey !== undefined ? { vaultKey: options.vaultKey } : {}),
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(uploads ? { files: { sink: directorySink(uploads) } } : {}),
      // Registered dynamically at SkyMiles on first use (the kit remembers the registration in its vault).
      providers: {
        [FREQUENT_FLYER_PROVIDER]: { issuer: skymiles.issuer, scopes: ["openid", "profile", "offline_access"], title: "SkyMiles" },
      },
    });
    return {
      kit,
      skymilesIssuer: skymiles.issuer,
      close: async () => {
        await kit.close();
        await skymiles.close();
        removeUploads();
      },
    };
  } catch (error) {
    await skymiles.close();
    removeUploads();
    throw error;
  }
}
