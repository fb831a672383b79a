// The person's sign-in (identity "oidc"): an OpenID Connect authorization-code flow with PKCE at the
// authorization server that protects the MCP endpoint, ending in a session cookie on the pages' origin.
//   GET  /login?return=connect/ID[&prompt=login]   to the authorization server
//   GET  /login/callback                           back: the code exchanged, the ID token checked, a session
//   POST /logout                                   the session ended, then a fresh sign-in (prompt=login)
import type { Context, Hono } from "hono";
import type { PagesEnv } from "./config.js";
import { isFlowId } from "../flows.js";
import { OAuthFlowError, type OAuthClient } from "../oauth-client.js";
import { browserId, endSession, existingBrowserId, startSession } from "./browser-session.js";
import type { PagesConfig } from "./config.js";
import { pendingFlow, asker } from "./gate.js";
import type { Problem } from "./problems.js";
import { problemPage } from "./render.js";
import { startRoundTrip, takeRoundTrip } from "./round-trip.js";
import { fromOwnPage, smallForm, validCsrf } from "./security.js";
import { line } from "./views.js";

/** Where a sign-in may come back to: a flow's page under the prefix (never another site). */
function returnPoint(value: string | undefined): { path: string; flowId: string } | undefined {
  const match = /^(connect|form)\/([A-Za-z0-9_-]{43})$/.exec(value ?? "");
  return match && isFlowId(match[2]) ? { path: match[0], flowId: match[2]! } : undefined;
}

const BAD_RETURN: Problem = { status: 400, title: "This sign-in link is not valid", text: ["Open the link you were given again."] };

export function loginRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/login", (c) => startSignIn(c, config));
  app.get("/login/callback", (c) => signInCallback(c, config));
  app.post("/logout", smallForm, (c) => logout(c, config));
}

/** The sign-in client, when the pages sign people in. */
const signInOf = (config: PagesConfig): OAuthClient | undefined => (config.identity.kind === "oidc" ? config.identity.signIn : undefined);

const unavailable = (c: Context, config: PagesConfig) =>
  problemPage(c, config, {
    status: 500,
    title: "Sign-in is not available",
    text: [
      config.identity.kind === "oidc" && config.identity.problem ? config.identity.problem : "This server's pages do not sign people in.",
    ],
  });

/** GET /login: a round trip bound to this browser, then the authorization server's sign-in. */
async function startSignIn(c: Context, config: PagesConfig): Promise<Response> {
  const signIn = signInOf(config);
  if (!signIn) return unavailable(c, config);
  const back = returnPoint(c.req.query("return"));
  if (!back) return problemPage(c, config, BAD_RETURN);
  const flow = await pendingFlow(config, back.flowId);
  if (!("kind" in flow)) return problemPage(c, config, flow);
  const { state, record } = await startRoundTrip(config.store, {
    kind: "login",
    browser: browserId(c, config.cookies),
    target: back.path,
  });
  try {
    const url = await signIn.authorizationUrl({
      state,
      codeVerifier: record.codeVerifier,
      nonce: record.nonce,
      scopes: ["openid"],
      params: c.req.query("prompt") === "login" ? { prompt: "login" } : {},
    });
    return c.redirect(url.href, 303);
  } catch (error) {
    return problemPage(c, config, {
      status: 502,
      title: "Sign-in is not available right now",
      text: [
        error instanceof OAuthFlowError ? `${error.message}.` : "The authorization server could not be reached.",
        "Try again in a moment.",
      ],
      asker: asker(flow),
    });
  }
}

/** GET /login/callback: the round trip taken, the code exchanged, the ID token checked, a session, back to the page. */
async function signInCallback(c: Context, config: PagesConfig): Promise<Response> {
  const signIn = signInOf(config);
  if (!signIn) return unavailable(c, config);
  const taken = await takeRoundTrip(config.store, c.req.query("state"), "login", existingBrowserId(c, config.cookies));
  if ("refused" in taken)
    return problemPage(c, config, {
      status: taken.refused === "other-browser" ? 403 : 400,
      title: "This sign-in cannot be used",
      text: [
        taken.refused === "other-browser"
          ? "It was started in another browser. Open the link you were given again in this one."
          : "It was not started here, has expired, or was already used. Open the link you were given again.",
      ],
    });
  const back = `${config.base.pathname}${taken.trip.target}`;
  const error = c.req.query("error");
  if (error !== undefined)
    return problemPage(c, config, {
      status: 403,
      title: "Sign-in was not completed",
      text: [`The authorization server answered ${line(error)}. Open the link again to try once more.`],
    });
  try {
    const { claims } = await signIn.exchange(new URL(c.req.url).searchParams, {
      ...taken.trip,
      state: c.req.query("state")!,
      requireIdToken: true,
    });
    if (!claims) throw new OAuthFlowError("the authorization server sent no ID token");
    await startSession(c, config.cookies, config.store, claims);
    return c.redirect(back, 303);
  } catch (error) {
    config.onerror?.(error as Error);
    return problemPage(c, config, {
      status: 502,
      title: "Sign-in did not work",
      text: [
        error instanceof OAuthFlowError ? `${error.message}.` : "The sign-in could not be checked.",
        "Open the link again to try once more.",
      ],
    });
  }
}

/** POST /logout: the session ended, then a fresh sign-in (prompt=login) that comes back to the same page. */
async function logout(c: Context, config: PagesConfig): Promise<Response> {
  if (!fromOwnPage(c, config.base.origin)) return problemPage(c, config, FOREIGN);
  const body = await c.req.parseBody();
  const back = returnPoint(typeof body.return === "string" ? body.return : undefined);
  const browser = existingBrowserId(c, config.cookies);
  if (!back || !browser || !validCsrf(config.keys, browser, "logout", back.flowId, body.csrf)) return problemPage(c, config, STALE_FORM);
  await endSession(c, config.cookies, config.store);
  return c.redirect(`${config.base.pathname}login?return=${encodeURIComponent(back.path)}&prompt=login`, 303);
}

export const FOREIGN: Problem = {
  status: 403,
  title: "Refused: this came from another site",
  text: ["Only this server's own pages can do that. Nothing was changed."],
};

export const STALE_FORM: Problem = {
  status: 403,
  title: "This form has expired",
  text: ["It was not sent from the page this server showed you in this browser. Nothing was changed; open the link again."],
};
