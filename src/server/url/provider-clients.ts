// One OAuthClient per third-party provider of a kit, shared by the pages (authorization and code
// exchange) and the vault (refresh), so discovery and a dynamic registration happen once. Dynamic
// registrations are kept in the vault (a client secret is a secret) under the kit's own principal, so a
// restarted server goes on with the same client.
import { createHash } from "node:crypto";
import type { UrlKit } from "./kit-types.js";
import { OAuthClient, type RegistrationCache, type ThirdPartyProvider } from "./oauth-client.js";
import type { RefreshedTokens, Vault } from "./vault.js";

export interface ConnectProvider {
  name: string;
  /** As the pages show it. */
  title: string;
  settings: ThirdPartyProvider;
  client: OAuthClient;
}

/** Where the vault keeps the kit's own records (registrations): no person can be this principal. */
export const KIT_PRINCIPAL = Object.freeze({ issuer: "urn:mcp-elicit:kit", sub: "registrations" });

export function registrationCache(vault: Vault): RegistrationCache {
  const name = (issuer: string, redirect: string) => createHash("sha256").update(`${issuer} ${redirect}`).digest("base64url");
  return {
    load: (issuer, redirect) => vault.get(KIT_PRINCIPAL, name(issuer, redirect)),
    save: (issuer, redirect, registration) => vault.put(KIT_PRINCIPAL, name(issuer, redirect), registration, "registration"),
  };
}

// Stays a module-level map: the pages (built apart from the kit, by createPages) and the vault's refresh
// share one client per provider, and the kit is the public UrlKit object, with no field for them.
const clients = new WeakMap<UrlKit, Map<string, ConnectProvider>>();

/** The kit's provider `name` with its client, or undefined when the kit has no such provider. Needs the kit's base URL (the redirect URI). */
export function connectProvider(kit: UrlKit, name: string): ConnectProvider | undefined {
  const settings = Object.hasOwn(kit.options.providers ?? {}, name) ? (kit.options.providers![name] as ThirdPartyProvider) : undefined;
  if (!settings) return undefined;
  let known = clients.get(kit);
  if (!known) clients.set(kit, (known = new Map()));
  let provider = known.get(name);
  if (!provider) {
    if (!kit.baseUrl) throw new Error(`createUrlKit: provider "${name}" needs the pages' address (baseUrl) for its redirect URI.`);
    const client = new OAuthClient({
      issuer: settings.issuer,
      ...(settings.clientId ? { clientId: settings.clientId } : {}),
      ...(settings.clientSecret ? { clientSecret: settings.clientSecret } : {}),
      redirectUri: new URL("callback", kit.baseUrl).href,
      clientName: kit.options.serverName ?? kit.baseUrl.host,
      registrations: registrationCache(kit.vault),
    });
    known.set(name, (provider = { name, title: settings.title ?? name, settings, client }));
  }
  return provider;
}

/** The vault's refresh hook for a kit: the provider's token endpoint, through the provider's client. */
export async function refreshConnected(kit: UrlKit, name: string, refreshToken: string): Promise<RefreshedTokens | undefined> {
  const provider = connectProvider(kit, name);
  if (!provider) throw new Error(`vault: no provider "${name}" is configured to refresh its token`);
  return provider.client.refresh(refreshToken);
}
