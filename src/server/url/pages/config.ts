// What the pages are built from: the kit's parts, with the identity and providers resolved once.
import type { KeyValueStore } from "../../../store/types.js";
import type { FlowStore } from "../flows.js";
import type { Identify } from "../identity.js";
import type { KitKeys } from "../keys.js";
import type { OAuthClient } from "../oauth-client.js";
import type { ConnectProvider } from "../provider-clients.js";
import type { Uploads } from "../uploads.js";
import type { Vault } from "../vault.js";
import type { CookieScope } from "./browser-session.js";

export type PagesIdentity =
  { kind: "oidc"; signIn?: OAuthClient; problem?: string } | { kind: "loopback" } | { kind: "identify"; identify: Identify };

export interface PagesConfig {
  /** The pages' public origin and prefix, ending in "/". */
  base: URL;
  store: KeyValueStore;
  flows: FlowStore;
  vault: Vault;
  /** ctx.elicitFile's uploads and their sink. */
  uploads: Uploads;
  keys: KitKeys;
  identity: PagesIdentity;
  providers: ReadonlyMap<string, ConnectProvider>;
  /** Named on pages that concern no flow (an invalid link). */
  serverName: string;
  cookies: CookieScope;
  /** Told about failures the pages turned into a 500 page (never with a token, a code or form values). */
  onerror?: (error: Error) => void;
}

/** The pages' Hono environment: the peer address (for loopback mode) and the origins a page's forms may lead to. */
export interface PagesEnv {
  Bindings: { remoteAddress?: string };
  Variables: { formTargets: string[] };
}

/** How long an OAuth state (the person's round trip through a provider's sign-in) stays usable. */
export const ROUND_TRIP_TTL_MS = 10 * 60_000;
