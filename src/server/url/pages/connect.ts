// The page a client sends the person to, `/connect/:id`:
//   GET  /connect/:id   the person checked (gate.ts); then, by kind: "url" and "connect" show who asks
//                       and where Continue leads; "form" goes on to /form/:id, "file" to /file/:id
//   POST /connect/:id   Continue (to the author's page, or the provider's sign-in with PKCE and a state
//                       bound to this flow and browser) or Decline
// The provider's answer comes back to /callback (callback.ts); how the flow ended is shown at /done/:id (done.ts).
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { UrlFlow } from "../flows.js";
import { OAuthFlowError } from "../oauth-client.js";
import type { ConnectProvider } from "../provider-clients.js";
import { existingBrowserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { admitPage, asker, type Admitted } from "./gate.js";
import { FOREIGN, STALE_FORM } from "./login.js";
import type { Problem } from "./problems.js";
import { problemPage } from "./render.js";
import { startRoundTrip } from "./round-trip.js";
import { csrfToken, fromOwnPage, smallForm, validCsrf } from "./security.js";
import { line, page, postButton, quoted, signedInAs, type Html } from "./views.js";

type C = Context<PagesEnv, "/connect/:id">;

export function connectRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/connect/:id", (c) => showConnect(c, config));
  app.post("/connect/:id", smallForm, (c) => answerConnect(c, config));
}

/** The author's URL of a "url" flow, when it is one a browser may be sent to. */
function destination(flow: UrlFlow): URL | undefined {
  try {
    const url = new URL(flow.target ?? "");
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    return url.protocol === "https:" || (url.protocol === "http:" && loopback) ? url : undefined;
  } catch {
    return undefined;
  }
}

const NO_DESTINATION = (flow: UrlFlow): Problem => ({
  status: 500,
  title: "This link leads nowhere",
  text: [`${line(flow.server)} gave an address that cannot be opened safely (it must be https). Nothing was opened.`],
  asker: asker(flow),
});

export const NO_PROVIDER = (flow: UrlFlow): Problem => ({
  status: 500,
  title: "This account cannot be connected",
  text: [`${line(flow.server)} is not set up to connect ${line(flow.provider ?? "this account")}. Nothing was changed.`],
  asker: asker(flow),
});

/** GET: who asks and where Continue leads; a form or a file flow goes on to its own page. */
async function showConnect(c: C, config: PagesConfig): Promise<Response> {
  const prefix = config.base.pathname;
  const id = c.req.param("id");
  const here = await admitPage(c, config, id, `connect/${id}`);
  if (here instanceof Response) return here;
  const { flow, browser } = here;
  if (flow.kind === "form") return c.redirect(`${prefix}form/${id}`, 303);
  if (flow.kind === "file") return c.redirect(`${prefix}file/${id}`, 303);
  const csrf = csrfToken(config.keys.pages, browser, "connect", id);
  const action = `${prefix}connect/${id}`;
  const decline = postButton(action, { csrf, action: "decline" }, "Decline", "secondary");
  const buttons = (label: string) => html`<div class="actions">${postButton(action, { csrf, action: "continue" }, label)}${decline}</div>`;
  if (flow.kind === "url") return urlPage(c, config, here, buttons);
  return providerPage(c, config, here, buttons);
}

/** The "url" flow's page: where Continue leads, with a word of caution. */
function urlPage(c: C, config: PagesConfig, { flow, person }: Admitted, buttons: (label: string) => Html) {
  const to = destination(flow);
  if (!to) return problemPage(c, config, NO_DESTINATION(flow));
  c.set("formTargets", [to.origin]);
  return c.html(
    page({
      title: `Continue to ${to.host}`,
      prefix: config.base.pathname,
      asker: asker(flow),
      body: html`${signedInAs(person)}${quoted(flow.message)}
        <p>Continue takes you to:</p>
        <p class="destination">${line(to.href)}</p>
        <p class="small">Only continue if you expected ${line(flow.server)} to send you there.</p>
        ${buttons(`Continue to ${to.host}`)}`,
    }),
  );
}

/** The "connect" flow's page: the provider the person signs in at, and who keeps the access. */
async function providerPage(c: C, config: PagesConfig, { flow, person }: Admitted, buttons: (label: string) => Html) {
  const provider = config.providers.get(flow.provider ?? "");
  if (!provider) return problemPage(c, config, NO_PROVIDER(flow));
  c.set("formTargets", [await provider.client.authorizationOrigin()]);
  return c.html(
    page({
      title: `Connect your ${provider.title} account`,
      prefix: config.base.pathname,
      asker: asker(flow),
      body: html`${signedInAs(person)}${quoted(flow.message)}
        <p>
          Continue takes you to ${line(provider.client.issuer.host)} to sign in there and allow access. ${line(flow.server)} keeps that
          access on its server; ${line(flow.client)} never sees it.
        </p>
        ${buttons(`Connect ${provider.title}`)}`,
    }),
  );
}

/** POST: Decline ends the flow; Continue leads to the author's page or the provider's sign-in. */
async function answerConnect(c: C, config: PagesConfig): Promise<Response> {
  if (!fromOwnPage(c, config.base.origin)) return problemPage(c, config, FOREIGN);
  const id = c.req.param("id");
  const browser = existingBrowserId(c, config.cookies);
  const body = await c.req.parseBody();
  if (!browser || !validCsrf(config.keys, browser, "connect", id, body.csrf)) return problemPage(c, config, STALE_FORM);
  const here = await admitPage(c, config, id, `connect/${id}`);
  if (here instanceof Response) return here;
  const { flow } = here;
  if (body.action === "decline") {
    await config.flows.finish(id, "declined");
    return c.redirect(`${config.base.pathname}done/${id}`, 303);
  }
  if (body.action !== "continue" || flow.kind === "form" || flow.kind === "file") return problemPage(c, config, STALE_FORM);
  if (flow.kind === "url") {
    const to = destination(flow);
    if (!to) return problemPage(c, config, NO_DESTINATION(flow));
    c.set("formTargets", [to.origin]);
    return c.redirect(to.href, 303);
  }
  const provider = config.providers.get(flow.provider ?? "");
  if (!provider) return problemPage(c, config, NO_PROVIDER(flow));
  return toProvider(c, config, flow, provider, browser);
}

/** Continue on a "connect" flow: a round trip bound to this flow and browser, then the provider's authorization URL. */
async function toProvider(c: C, config: PagesConfig, flow: UrlFlow, provider: ConnectProvider, browser: string): Promise<Response> {
  const { state, record } = await startRoundTrip(config.store, { kind: "connect", browser, target: flow.id });
  try {
    const url = await provider.client.authorizationUrl({
      state,
      codeVerifier: record.codeVerifier,
      nonce: record.nonce,
      scopes: provider.settings.scopes,
      ...(provider.settings.authorizationParams ? { params: provider.settings.authorizationParams } : {}),
    });
    c.set("formTargets", [url.origin]);
    return c.redirect(url.href, 303);
  } catch (error) {
    return problemPage(c, config, {
      status: 502,
      title: `${provider.title} cannot be reached`,
      text: [error instanceof OAuthFlowError ? `${error.message}.` : "The provider did not answer.", "Try again in a moment."],
      asker: asker(flow),
    });
  }
}
