// The kit's pages as one Hono app under the kit's base path: sign-in (login.ts), the connect page
// (connect.ts), the third-party callback (callback.ts), how a flow ended (done.ts), the hosted form
// (form.ts), the upload page (file.ts) and their assets. Every response carries the security headers; a page that leads elsewhere widens only its own
// form-action.
import { Hono } from "hono";
import type { PagesContext, PagesHandler } from "../kit-types.js";
import { OAuthClient, checkIssuer, type RegistrationCache } from "../oauth-client.js";
import { connectProvider, registrationCache, type ConnectProvider } from "../provider-clients.js";
import { isLoopbackHostHeader } from "../identity.js";
import { asset } from "./assets.js";
import type { PagesConfig, PagesEnv, PagesIdentity } from "./config.js";
import { callbackRoutes } from "./callback.js";
import { connectRoutes } from "./connect.js";
import { doneRoutes } from "./done.js";
import { fileRoutes } from "./file.js";
import { formRoutes } from "./form.js";
import { loginRoutes } from "./login.js";
import { problemPage } from "./render.js";
import { renewRoutes } from "./renew.js";
import { contentSecurityPolicy, SECURITY_HEADERS } from "./security.js";

export type { PagesHandler, PeerInfo } from "../kit-types.js";

function identityOf(context: PagesContext, registrations: RegistrationCache, clientName: string): PagesIdentity {
  const option = context.kit.options.identity ?? "oidc";
  if (option === "loopback") return { kind: "loopback" };
  if (typeof option === "object") return { kind: "identify", identify: (request) => option.identify(request) };
  const oidc = context.kit.options.oidc;
  const issuer = oidc?.issuer ?? context.oidcIssuer;
  if (!issuer)
    return {
      kind: "oidc",
      problem: "This server's pages are not set up with the authorization server people sign in at (oidc.issuer, or serveHttp's auth).",
    };
  checkIssuer(issuer, "createUrlKit oidc");
  const signIn = new OAuthClient({
    issuer,
    ...(oidc?.clientId ? { clientId: oidc.clientId } : {}),
    ...(oidc?.clientSecret ? { clientSecret: oidc.clientSecret } : {}),
    redirectUri: new URL("login/callback", context.baseUrl).href,
    clientName,
    registrations,
  });
  return { kind: "oidc", signIn };
}

function providersOf(context: PagesContext): Map<string, ConnectProvider> {
  const providers = new Map<string, ConnectProvider>();
  for (const name of Object.keys(context.kit.options.providers ?? {})) providers.set(name, connectProvider(context.kit, name)!);
  return providers;
}

/** The pages for a kit whose base URL is known. */
export function createPages(context: PagesContext, hooks: { onerror?: (error: Error) => void } = {}): PagesHandler {
  const base = context.baseUrl;
  const serverName = context.kit.options.serverName ?? base.host;
  const registrations = registrationCache(context.kit.vault);
  const config: PagesConfig = {
    base,
    store: context.store,
    flows: context.kit.flows,
    vault: context.kit.vault,
    uploads: context.kit.uploads,
    keys: context.keys,
    identity: identityOf(context, registrations, serverName),
    providers: providersOf(context),
    serverName,
    // Secure everywhere but an http loopback origin (local development), where some browsers drop Secure cookies.
    cookies: { path: base.pathname, secure: !(base.protocol === "http:" && isLoopbackHostHeader(base.host)) },
    ...(hooks.onerror ? { onerror: hooks.onerror } : {}),
  };

  const app = new Hono<PagesEnv>().basePath(base.pathname.replace(/\/$/, ""));
  app.use("*", async (c, next) => {
    c.set("formTargets", []);
    await next();
    c.res.headers.set("Content-Security-Policy", contentSecurityPolicy(c.get("formTargets")));
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });
  app.get("/assets/:name", async (c) => {
    const found = await asset(c.req.param("name"));
    return found ? c.body(found.body, 200, { "Content-Type": found.type }) : c.body(null, 404);
  });
  loginRoutes(app, config);
  connectRoutes(app, config);
  callbackRoutes(app, config);
  doneRoutes(app, config);
  formRoutes(app, config);
  fileRoutes(app, config);
  renewRoutes(app, config);
  app.notFound((c) =>
    problemPage(c, config, { status: 404, title: "Not found", text: [`${config.serverName} has no page at this address.`] }),
  );
  app.onError((error, c) => {
    config.onerror?.(error);
    return problemPage(c, config, {
      status: 500,
      title: "This page could not be shown",
      text: ["Something went wrong on the server. Nothing was changed; try again."],
    });
  });

  return (request, peer) => {
    const remoteAddress =
      peer && "incoming" in peer ? peer.incoming?.socket?.remoteAddress : (peer as { remoteAddress?: string } | undefined)?.remoteAddress;
    return Promise.resolve(app.fetch(request, { remoteAddress }));
  };
}
