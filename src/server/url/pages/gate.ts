// Every page that acts on a flow passes here first: the id must name a live, pending flow; the person
// in the browser must be the one the flow was made for; and the flow is bound to the first browser that
// passes (a link forwarded on after that is refused, even to the same person in another browser).
// A refusal changes nothing: the flow stays pending for the right person.
import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { isFlowId, type UrlFlow } from "../flows.js";
import { isLoopbackAddress, isLoopbackHostHeader, samePerson, vaultOwner, type Person } from "../identity.js";
import type { VaultPrincipal } from "../vault.js";
import { browserId, signedInPerson } from "./browser-session.js";
import type { PagesConfig } from "./config.js";
import type { Problem } from "./problems.js";
import { problemJson, problemPage } from "./render.js";
import { csrfToken } from "./security.js";
import { hostOf, line, postButton } from "./views.js";

export interface Admitted {
  flow: UrlFlow;
  /** Who is here: a signed-in or identified person, or "loopback" (whoever uses this machine). */
  person: Person | "loopback";
  /** Whose vault entries this flow writes. */
  owner: VaultPrincipal;
  browser: string;
}

/** The answer when the person must sign in first: a redirect to the sign-in. */
export interface SignInFirst {
  signIn: string;
}

export const asker = (flow: UrlFlow) => ({ server: flow.server, client: flow.client });

const ENDED = { completed: "was completed", declined: "was declined", cancelled: "was withdrawn" } as const;

const INVALID: Problem = {
  status: 404,
  title: "This link is not valid",
  text: ["Nothing is waiting at this address. Check that the whole link was copied, or ask for a new one."],
};

/** The flow behind `id` while it can still be acted on, or why not. */
export async function pendingFlow(config: PagesConfig, id: string): Promise<UrlFlow | Problem> {
  if (!isFlowId(id)) return INVALID;
  const flow = await config.flows.get(id);
  const outcome = await config.flows.outcome(id);
  if (outcome === "expired")
    return {
      status: 410,
      title: "This link has expired",
      text: ["The request it was made for is over. Ask for a new link if you still need one."],
    };
  if (outcome !== undefined)
    return {
      status: 410,
      title: "This link was already used",
      text: [`The request it was made for ${ENDED[outcome]}. A link works once.`],
      ...(flow ? { asker: asker(flow) } : {}),
    };
  if (!flow) return INVALID;
  return flow;
}

async function refusedFor(config: PagesConfig, flow: UrlFlow, person: Person, browser: string, from: string): Promise<Problem> {
  const signOut =
    config.identity.kind === "oidc"
      ? postButton(
          `${config.base.pathname}logout`,
          { csrf: csrfToken(config.keys.pages, browser, "logout", flow.id), return: from },
          "Sign out and use another account",
          "secondary",
        )
      : "";
  const who = person.name ? `${line(person.name)} (${line(person.sub)})` : line(person.sub);
  return {
    status: 403,
    title: "This link was made for someone else",
    text: [
      `You are signed in as ${who} at ${line(hostOf(person.issuer))}, but ${line(flow.server)} made this link for another person, so it cannot be used here.`,
      "The request stays open for the person it was made for. If that is you, sign out and sign in with the account you use with " +
        `${line(flow.client)}.`,
    ],
    extra: signOut,
    ...(config.identity.kind === "oidc" && config.identity.signIn
      ? { formTargets: [await config.identity.signIn.authorizationOrigin()] }
      : {}),
    asker: asker(flow),
  };
}

/**
 * Who is here for `flow`, by the pages' identity (the same checks for a page and for a new link), or why
 * nobody can be admitted, or that a sign-in comes first. `from` is where a sign-in comes back to.
 */
export async function personHere(
  c: Context,
  config: PagesConfig,
  flow: UrlFlow,
  from: string,
  browser: string,
): Promise<Person | "loopback" | Problem | SignInFirst> {
  const identity = config.identity;
  if (identity.kind === "loopback") {
    // Pages published at a non-loopback address are reached through something else (a reverse proxy on
    // this machine), and then the peer address and Host below say "this machine" for every visitor.
    if (!isLoopbackHostHeader(config.base.host))
      return {
        status: 403,
        title: "This link cannot be checked",
        text: [
          `${line(flow.server)} runs in local mode, but its pages are published at ${line(config.base.host)}: local mode only works on an address of this computer (localhost, 127.0.0.1 or [::1]), so nobody can be admitted.`,
        ],
        asker: asker(flow),
      };
    const remote = (c.env as { remoteAddress?: string } | undefined)?.remoteAddress;
    if (!isLoopbackAddress(remote) || !isLoopbackHostHeader(c.req.header("host")))
      return {
        status: 403,
        title: "Open this link on the computer that runs the server",
        text: [`${line(flow.server)} runs in local mode: its pages answer only requests from the same computer.`],
        asker: asker(flow),
      };
    return "loopback";
  }
  const here = identity.kind === "identify" ? await identity.identify(c.req.raw) : await signedInPerson(c, config.cookies, config.store);
  if (!here) {
    if (identity.kind === "oidc") return { signIn: `${config.base.pathname}login?return=${encodeURIComponent(from)}` };
    return {
      status: 401,
      title: "Sign in first",
      text: [`Sign in to ${line(flow.server)}'s site in this browser, then open the link again.`],
      asker: asker(flow),
    };
  }
  if (!flow.principal)
    return {
      status: 403,
      title: "This link cannot be checked",
      text: [`${line(flow.server)} made this link without knowing who asked, so nobody can be admitted to it.`],
      asker: asker(flow),
    };
  if (!samePerson(here, flow.principal)) return refusedFor(config, flow, here, browser, from);
  return here;
}

const REPLACED = (flow: UrlFlow): Problem => ({
  status: 410,
  title: "This link was replaced by a newer one",
  text: [`A new link to this page was asked for from ${line(flow.client)}. Open the newest link ${line(flow.client)} shows you.`],
  asker: asker(flow),
});

/** Whether `given` is the flow's newest link token (compared in constant time). */
function sameToken(given: string | undefined, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Admits the browser to the flow `id`, or says why not (a Problem) or that it must sign in first.
 * `from` is the page's path under the prefix (connect/ID or form/ID), where a sign-in comes back to.
 */
export async function admit(c: Context, config: PagesConfig, id: string, from: string): Promise<Admitted | Problem | SignInFirst> {
  const flow = await pendingFlow(config, id);
  if (!("kind" in flow)) return flow;
  const browser = browserId(c, config.cookies);
  const person = await personHere(c, config, flow, from, browser);
  if (typeof person === "object" && ("signIn" in person || "status" in person)) return person;
  // After a new link was asked for, only it (its token) admits a browser that does not hold the flow yet.
  const token = await config.flows.linkToken(flow.id);
  if (token !== undefined && (await config.flows.holder(flow.id)) !== browser && !sameToken(c.req.query("link"), token))
    return REPLACED(flow);
  if (!(await config.flows.claim(flow.id, browser)))
    return {
      status: 409,
      title: "This link is open in another browser",
      text: [`A link works in the first browser it is opened in. Go on there, or ask ${line(flow.client)} for a new link.`],
      asker: asker(flow),
    };
  return { flow, person, owner: vaultOwner(flow), browser };
}

/** admit() for a page: its refusals as pages, the sign-in as a redirect. */
export async function admitPage(c: Context, config: PagesConfig, id: string, from: string): Promise<Admitted | Response> {
  const verdict = await admit(c, config, id, from);
  if ("signIn" in verdict) return c.redirect(verdict.signIn, 303);
  if ("status" in verdict) return problemPage(c, config, verdict);
  return verdict;
}

/** admit() for a page script's fetch: its refusals as JSON, the sign-in as a 401 (the person opens the link again). */
export async function admitFetch(c: Context, config: PagesConfig, id: string, from: string): Promise<Admitted | Response> {
  const verdict = await admit(c, config, id, from);
  if ("signIn" in verdict) return c.json({ error: "Sign in again: open the link you were given." }, 401);
  if ("status" in verdict) return problemJson(c, verdict);
  return verdict;
}
