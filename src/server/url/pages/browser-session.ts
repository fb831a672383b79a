// The two cookies of the pages, both HttpOnly and SameSite=Lax:
//   browser   a random id for this browser: CSRF tokens, OAuth states and flow claims are bound to it;
//   session   who signed in here (oidc identity): a random id whose hash keys the record in the store.
//
// On https they carry the __Host- prefix, which browsers accept only with Secure, Path=/ and no Domain,
// so no sibling subdomain (nor http) can set or shadow them: with __Secure- alone a sibling could plant a
// Domain cookie for the parent and fix the browser id. Path=/ sends them to the whole origin, so the name
// carries a short hash of the pages' path: two kits on one origin under different paths keep apart.
//
// On an http loopback origin (local development) they are unprefixed, without Secure (some browsers,
// Safari among them, refuse Secure cookies over http even on localhost) and scoped to the pages' path.
// Cookies are not isolated by port: a server on another localhost port can set these (fixing the browser
// id) and is sent them (reading the session) when the browser visits it under the same path. What still
// holds against a *page* there: POSTs need this exact origin (port included; another port is same-site
// but not same-origin) and a CSRF token, an HMAC under the kit's key that the page cannot read or make.
// Against a *process* there (which can send any Origin) the cookies are no boundary; the identity check
// (loopback peer, or the signed-in person against the flow's) decides, and a known browser id helps
// only someone who already passes it. That is why http is allowed on loopback alone.
import { createHash, randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { KeyValueStore } from "../../../store/types.js";
import type { Person } from "../identity.js";

const ID = /^[A-Za-z0-9_-]{43}$/;
export const SESSION_TTL_MS = 8 * 3600_000;
const BROWSER_TTL_S = 30 * 24 * 3600;

export interface CookieScope {
  /** The pages' path, e.g. /elicit/: the cookies' Path over http, part of their name over https. */
  path: string;
  /** https: Secure, with the __Host- prefix. */
  secure: boolean;
}

const name = (scope: CookieScope, base: string) =>
  scope.secure ? `__Host-${base}-${createHash("sha256").update(scope.path).digest("base64url").slice(0, 8)}` : base;
const where = (scope: CookieScope) => ({ path: scope.secure ? "/" : scope.path, secure: scope.secure });
const options = (scope: CookieScope, maxAge: number) => ({ ...where(scope), httpOnly: true, sameSite: "Lax" as const, maxAge });
const sessionKey = (id: string) => `url-session:${createHash("sha256").update(id).digest("base64url")}`;

/** This browser's id, set on first sight. */
export function browserId(c: Context, scope: CookieScope): string {
  const cookie = getCookie(c, name(scope, "mcp_elicit_browser"));
  if (cookie && ID.test(cookie)) return cookie;
  const id = randomBytes(32).toString("base64url");
  setCookie(c, name(scope, "mcp_elicit_browser"), id, options(scope, BROWSER_TTL_S));
  return id;
}

/** The browser id only if the browser already has one (for checks that must not mint one). */
export function existingBrowserId(c: Context, scope: CookieScope): string | undefined {
  const cookie = getCookie(c, name(scope, "mcp_elicit_browser"));
  return cookie && ID.test(cookie) ? cookie : undefined;
}

export async function signedInPerson(c: Context, scope: CookieScope, store: KeyValueStore): Promise<Person | undefined> {
  const id = getCookie(c, name(scope, "mcp_elicit_session"));
  if (!id || !ID.test(id)) return undefined;
  const record = await store.get(sessionKey(id));
  return record === undefined ? undefined : (JSON.parse(record) as Person);
}

export async function startSession(c: Context, scope: CookieScope, store: KeyValueStore, person: Person): Promise<void> {
  const id = randomBytes(32).toString("base64url");
  await store.set(sessionKey(id), JSON.stringify(person), SESSION_TTL_MS);
  setCookie(c, name(scope, "mcp_elicit_session"), id, options(scope, SESSION_TTL_MS / 1000));
}

export async function endSession(c: Context, scope: CookieScope, store: KeyValueStore): Promise<void> {
  const id = getCookie(c, name(scope, "mcp_elicit_session"));
  if (id && ID.test(id)) await store.delete(sessionKey(id));
  deleteCookie(c, name(scope, "mcp_elicit_session"), where(scope));
}
