// The provider's answer to a "connect" flow's sign-in:
//   GET  /callback   the round trip taken (once, in the browser that started it), the code exchanged,
//                    the tokens into the vault, the flow ended
import type { Context, Hono } from "hono";
import type { UrlFlow } from "../flows.js";
import { OAuthFlowError } from "../oauth-client.js";
import type { ConnectProvider } from "../provider-clients.js";
import { oauthCredential, type VaultPrincipal } from "../vault.js";
import { existingBrowserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { NO_PROVIDER } from "./connect.js";
import { admitPage, asker, pendingFlow } from "./gate.js";
import type { Problem } from "./problems.js";
import { problemPage } from "./render.js";
import { takeRoundTrip, type RoundTrip } from "./round-trip.js";
import { line } from "./views.js";

type C = Context<PagesEnv>;

export function callbackRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/callback", (c) => providerCallback(c, config));
}

const notConnected = (flow: UrlFlow, provider: ConnectProvider, why: string): Problem => ({
  status: 502,
  title: `${provider.title} did not connect`,
  text: [`${why}. Nothing was stored; open the link again to try once more.`],
  asker: asker(flow),
});

/** The provider's redirect back: a refusal, the person's "no", or a code to exchange. */
async function providerCallback(c: C, config: PagesConfig): Promise<Response> {
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
  const here = await admitPage(c, config, id, `connect/${id}`);
  if (here instanceof Response) return here;
  const { flow, owner } = here;
  const provider = flow.kind === "connect" ? config.providers.get(flow.provider ?? "") : undefined;
  if (!provider) return problemPage(c, config, NO_PROVIDER(flow));
  const error = c.req.query("error");
  if (error === "access_denied") {
    await config.flows.finish(id, "declined");
    return c.redirect(`${config.base.pathname}done/${id}`, 303);
  }
  if (error !== undefined) return problemPage(c, config, notConnected(flow, provider, `It answered ${line(error)}`));
  return exchange(c, config, { flow, owner, provider, trip: { ...taken.trip, state: state! } });
}

/** The code exchanged for tokens, stored in the vault, and the flow ended: once per flow at a time. */
async function exchange(
  c: C,
  config: PagesConfig,
  { flow, owner, provider, trip }: { flow: UrlFlow; owner: VaultPrincipal; provider: ConnectProvider; trip: RoundTrip & { state: string } },
): Promise<Response> {
  const id = flow.id;
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
    const { tokens } = await provider.client.exchange(new URL(c.req.url).searchParams, trip);
    if ((await config.flows.outcome(id)) !== undefined) return problemPage(c, config, (await pendingFlow(config, id)) as Problem);
    await config.vault.put(owner, provider.name, oauthCredential(provider.name, tokens), "oauth");
    // The tool wakes on finish and may read the vault at once, so the credential is stored first; a flow
    // that ended in between (cancelled, expired) takes it back.
    if (!(await config.flows.finish(id, "completed"))) {
      await config.vault.revoke(owner, provider.name);
      return problemPage(c, config, (await pendingFlow(config, id)) as Problem);
    }
    return c.redirect(`${config.base.pathname}done/${id}`, 303);
  } catch (error) {
    if (!(error instanceof OAuthFlowError)) throw error;
    return problemPage(c, config, notConnected(flow, provider, error.message));
  } finally {
    await config.store.delete(lock);
  }
}
