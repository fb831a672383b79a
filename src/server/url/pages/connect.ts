// The page a client sends the person to, `/connect/:id`, and what follows from it:
//   GET  /connect/:id   the person checked (gate.ts); then, by kind: "url" and "connect" show who asks
//                       and where Continue leads; "form" goes on to /form/:id, "file" to /file/:id
//   POST /connect/:id   Continue (to the author's page, or the provider's sign-in with PKCE and a state
//                       bound to this flow and browser) or Decline
//   GET  /callback      the provider's answer: the code exchanged, the tokens into the vault, the flow ended
//   GET  /done/:id      how the flow ended, for the person
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { isFlowId, type UrlFlow } from "../flows.js";
import { OAuthFlowError } from "../oauth-client.js";
import { oauthCredential } from "../vault.js";
import { existingBrowserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { admit, asker, pendingFlow, type Admitted } from "./gate.js";
import { FOREIGN, STALE_FORM } from "./login.js";
import type { Problem } from "./problems.js";
import { problemPage } from "./render.js";
import { startRoundTrip, takeRoundTrip } from "./round-trip.js";
import { csrfToken, fromOwnPage, smallForm, validCsrf } from "./security.js";
import { line, page, postButton, quoted, signedInAs } from "./views.js";

type C = Context<PagesEnv>;

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

const NO_PROVIDER = (flow: UrlFlow): Problem => ({
  status: 500,
  title: "This account cannot be connected",
  text: [`${line(flow.server)} is not set up to connect ${line(flow.provider ?? "this account")}. Nothing was changed.`],
  asker: asker(flow),
});

export function connectRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  const prefix = config.base.pathname;

  /** admit(), with its refusals as pages and the sign-in as a redirect. */
  async function admitted(c: C, id: string, from: string): Promise<Admitted | Response> {
    const verdict = await admit(c, config, id, from);
    if ("signIn" in verdict) return c.redirect(verdict.signIn, 303);
    if ("status" in verdict) return problemPage(c, config, verdict);
    return verdict;
  }

  app.get("/connect/:id", async (c) => {
    const id = c.req.param("id");
    const here = await admitted(c, id, `connect/${id}`);
    if (here instanceof Response) return here;
    const { flow, person, browser } = here;
    if (flow.kind === "form") return c.redirect(`${prefix}form/${id}`, 303);
    if (flow.kind === "file") return c.redirect(`${prefix}file/${id}`, 303);
    const csrf = csrfToken(config.keys.pages, browser, "connect", id);
    const action = `${prefix}connect/${id}`;
    const decline = postButton(action, { csrf, action: "decline" }, "Decline", "secondary");
    if (flow.kind === "url") {
      const to = destination(flow);
      if (!to) return problemPage(c, config, NO_DESTINATION(flow));
      c.set("formTargets", [to.origin]);
      return c.html(
        page({
          title: `Continue to ${to.host}`,
          prefix,
          asker: asker(flow),
          body: html`${signedInAs(person)}${quoted(flow.message)}
            <p>Continue takes you to:</p>
            <p class="destination">${line(to.href)}</p>
            <p class="small">Only continue if you expected ${line(flow.server)} to send you there.</p>
            <div class="actions">${postButton(action, { csrf, action: "continue" }, `Continue to ${to.host}`)}${decline}</div>`,
        }),
      );
    }
    const provider = config.providers.get(flow.provider ?? "");
    if (!provider) return problemPage(c, config, NO_PROVIDER(flow));
    c.set("formTargets", [await provider.client.authorizationOrigin()]);
    return c.html(
      page({
        title: `Connect your ${provider.title} account`,
        prefix,
        asker: asker(flow),
        body: html`${signedInAs(person)}${quoted(flow.message)}
          <p>
            Continue takes you to ${line(provider.client.issuer.host)} to sign in there and allow access. ${line(flow.server)} keeps that
            access on its server; ${line(flow.client)} never sees it.
          </p>
          <div class="actions">${postButton(action, { csrf, action: "continue" }, `Connect ${provider.title}`)}${decline}</div>`,
      }),
    );
  });

  app.post("/connect/:id", smallForm, async (c) => {
    if (!fromOwnPage(c, config.base.origin)) return problemPage(c, config, FOREIGN);
    const id = c.req.param("id");
    const browser = existingBrowserId(c, config.cookies);
    const body = await c.req.parseBody();
    if (!browser || !validCsrf(config.keys, browser, "connect", id, body.csrf)) return problemPage(c, config, STALE_FORM);
    const here = await admitted(c, id, `connect/${id}`);
    if (here instanceof Response) return here;
    const { flow } = here;
    if (body.action === "decline") {
      await config.flows.finish(id, "declined");
      return c.redirect(`${prefix}done/${id}`, 303);
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
    const { state, record } = await startRoundTrip(config.store, { kind: "connect", browser, target: id });
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
  });

  app.get("/callback", async (c) => {
    const state = c.req.query("state");
    const taken = await takeRoundTrip(config.store, state, "connect", existingBrowserId(c, config.cookies));
    if ("refused" in taken)
      return problemPage(c, config, {
        status: taken.refused === "other-browser" ? 403 : 400,
        title: "This answer from the provider cannot be used",
        text: [
          taken.refused === "other-browser"
            ? "The connection was started in another browser. Nothing was stored."
            : "It was not started here, has expired, or was already used. Nothing was stored.",
        ],
      });
    const id = taken.trip.target;
    const here = await admitted(c, id, `connect/${id}`);
    if (here instanceof Response) return here;
    const { flow, owner } = here;
    const provider = flow.kind === "connect" ? config.providers.get(flow.provider ?? "") : undefined;
    if (!provider) return problemPage(c, config, NO_PROVIDER(flow));
    const error = c.req.query("error");
    if (error === "access_denied") {
      await config.flows.finish(id, "declined");
      return c.redirect(`${prefix}done/${id}`, 303);
    }
    if (error !== undefined)
      return problemPage(c, config, {
        status: 502,
        title: `${provider.title} did not connect`,
        text: [`It answered ${line(error)}. Nothing was stored; open the link again to try once more.`],
        asker: asker(flow),
      });
    // One exchange per flow at a time: two tabs that both went through the provider store one credential.
    const lock = `url-exchange:${id}`;
    if (!(await config.store.add(lock, "1", 60_000)))
      return problemPage(c, config, {
        status: 409,
        title: "Already connecting",
        text: ["Another tab is finishing this connection."],
        asker: asker(flow),
      });
    try {
      const { tokens } = await provider.client.exchange(new URL(c.req.url).searchParams, { ...taken.trip, state: state! });
      if ((await config.flows.outcome(id)) !== undefined) return problemPage(c, config, (await pendingFlow(config, id)) as Problem);
      await config.vault.put(owner, provider.name, oauthCredential(provider.name, tokens), "oauth");
      // The tool wakes on finish and may read the vault at once, so the credential is stored first; a flow
      // that ended in between (cancelled, expired) takes it back.
      if (!(await config.flows.finish(id, "completed"))) {
        await config.vault.revoke(owner, provider.name);
        return problemPage(c, config, (await pendingFlow(config, id)) as Problem);
      }
      return c.redirect(`${prefix}done/${id}`, 303);
    } catch (error) {
      if (!(error instanceof OAuthFlowError)) throw error;
      return problemPage(c, config, {
        status: 502,
        title: `${provider.title} did not connect`,
        text: [`${error.message}. Nothing was stored; open the link again to try once more.`],
        asker: asker(flow),
      });
    } finally {
      await config.store.delete(lock);
    }
  });

  app.get("/done/:id", async (c) => {
    const id = c.req.param("id");
    if (!isFlowId(id))
      return problemPage(c, config, { status: 404, title: "This link is not valid", text: ["Nothing is waiting at this address."] });
    const outcome = await config.flows.outcome(id);
    const flow = await config.flows.get(id);
    if (outcome === undefined) return c.redirect(`${prefix}connect/${id}`, 303);
    const client = flow ? line(flow.client) : "the app you came from";
    const what = flow?.kind === "connect" ? (config.providers.get(flow.provider ?? "")?.title ?? line(flow.provider)) : undefined;
    const [title, text] =
      outcome === "completed"
        ? [
            what ? `${what} is connected` : "Done",
            `${flow ? line(flow.server) : "The server"} has what it asked for. You can close this tab and go back to ${client}.`,
          ]
        : outcome === "declined"
          ? ["You declined", `Nothing was shared. You can close this tab and go back to ${client}.`]
          : outcome === "cancelled"
            ? ["Cancelled", `The request was withdrawn. You can close this tab.`]
            : ["This link has expired", "Nothing was shared. Ask for a new link if you still need one."];
    return c.html(page({ title, prefix, ...(flow ? { asker: asker(flow) } : {}), body: html`<p role="status">${text}</p>` }));
  });
}
