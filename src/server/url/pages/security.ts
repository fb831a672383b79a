// What every page response carries, and the checks every POST passes: the request must come from a page
// of this origin (Origin, or Fetch Metadata where the browser withholds Origin) and carry a CSRF token
// bound to the browser, the flow and the action.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { KitKeys } from "../keys.js";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * The Content-Security-Policy of a page. `formTargets`: origins a form on it may end up at, since
 * browsers apply form-action to the redirects after a POST too (Continue goes on to the author's page or
 * the provider).
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  const forms = ["'self'", ...new Set(formTargets)].join(" ");
  return `default-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action ${forms}`;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

/**
 * Whether a state-changing request comes from a page of `origin`. The pages send no referrer, and a
 * browser then sends `Origin: null` on a form POST, so a null or absent Origin is accepted only with
 * `Sec-Fetch-Site: same-origin` (which browsers set and pages cannot forge).
 */
export function fromOwnPage(c: Context, origin: string): boolean {
  const sent = c.req.header("origin");
  if (sent !== undefined && sent !== "null") return sent === origin;
  return c.req.header("sec-fetch-site") === "same-origin";
}

/** A CSRF token: HMAC of the browser, the action and the flow, under the kit's pages key (so it survives a restart). */
export function csrfToken(key: Buffer, browser: string, action: string, flowId: string): string {
  return createHmac("sha256", key).update(`csrf\u0000${browser}\u0000${action}\u0000${flowId}`).digest("base64url");
}

/** Whether `token` was signed by the ring's newest pages key or, for a page opened before a rotation, an older one. */
export function validCsrf(keys: KitKeys, browser: string, action: string, flowId: string, token: unknown): boolean {
  if (typeof token !== "string" || token.length > 100) return false;
  const given = Buffer.from(token);
  return [keys.pages, ...(keys.older ?? []).map((k) => k.pages)].some((key) => {
    const expected = Buffer.from(csrfToken(key, browser, action, flowId));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Largest body a page's form POST may have (a CSRF token and an action); the rest is never read. */
export const smallForm = bodyLimit({
  maxSize: 16 * 1024,
  onError: (c) => c.text("The form is too large.", 413, { Connection: "close" }),
});
