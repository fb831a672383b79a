// The two cookies of the pages, both HttpOnly, SameSite=Lax, scoped to the pages' path, and Secure
// except on an http loopback origin (some browsers, Safari among them, refuse Secure cookies over http
// even on localhost). On https they carry the __Secure- prefix, which browsers refuse to set without Secure.
//   browser   a random id for this browser: CSRF tokens, OAuth states and flow claims are bound to it;
//   session   who signed in here (oidc identity): a random id whose hash keys the record in the store.
import { createHash, randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { KeyValueStore } from "../../../store/types.js";
import type { Person } from "../identity.js";

const ID = /^[A-Za-z0-9_-]{43}$/;
export const SESSION_TTL_MS = 8 * 3600_000;
const BROWSER_TTL_S = 30 * 24 * 3600;

export interface CookieScope {
  /** The pages' path, e.g. /elicit/. */
  path: string;
  secure: boolean;
}

const name = (scope: CookieScope, base: string) => (scope.secure ? `__Secure-${base}` : base);
const options = (scope: CookieScope, maxAge: number) => ({
  path: scope.path,
  httpOnly: true,
  secure: scope.secure,
  sameSite: "Lax" as const,
  maxAge,
});
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
  deleteCookie(c, name(scope, "mcp_elicit_session"), { path: scope.path, secure: scope.secure });
}
