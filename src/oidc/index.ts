// mcp-elicit/oidc: a local OpenID provider for development and tests (oidc-provider on
// 127.0.0.1, demo accounts, keys and data in memory only), so a server protected with
// `serveHttp(factory, { auth })` can be tried and tested without a real authorization server.
// Not for production: it has no persistence, and its accounts are whoever you list.
// oidc-provider is an optional peer of mcp-elicit: without it, importing this entry fails with an error
// that names it.
import "../server/base/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
import { loadWithPeers } from "../common/optional-peers.js";

// oidc-provider is loaded here, not at the first start, so that a missing peer is said on import.
const provider = await loadWithPeers("mcp-elicit/oidc", async () => {
  await import("./provider-app.js");
  return import("./openid-provider.js");
});

/** Starts the provider on 127.0.0.1; resolves once it listens. */
export const startOpenIdProvider: typeof provider.startOpenIdProvider = provider.startOpenIdProvider;
/** The demo accounts, when `users` is not given. */
export const DEFAULT_USERS: typeof provider.DEFAULT_USERS = provider.DEFAULT_USERS;
/** The scopes any resource gets when `resources` is not given. */
export const DEFAULT_RESOURCE_SCOPES: typeof provider.DEFAULT_RESOURCE_SCOPES = provider.DEFAULT_RESOURCE_SCOPES;
export type { DemoUser, OpenIdProvider, OpenIdProviderOptions } from "./openid-provider.js";
