// mcp-elicit/oidc: a local OpenID provider for development and tests (oidc-provider on
// 127.0.0.1, demo accounts, keys and data in memory only), so a server protected with
// `serveHttp(factory, { auth })` can be tried and tested without a real authorization server.
// Not for production: it has no persistence, and its accounts are whoever you list.
export {
  startOpenIdProvider,
  DEFAULT_USERS,
  DEFAULT_RESOURCE_SCOPES,
  type DemoUser,
  type OpenIdProvider,
  type OpenIdProviderOptions,
} from "../examples/auth/openid-provider.js";
