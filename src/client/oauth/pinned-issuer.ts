// The authorization server a client's credentials may go to, fixed by the person who configured them.
// An MCP server is untrusted: its protected-resource metadata may name any authorization server, and
// a secret, a client assertion, a workload's JWT or an ID-JAG sent there can be replayed at the real
// one. So a client given by hand is pinned to one issuer (`expectedIssuer`, `elicit --issuer`), and a
// sign-in that resolved another one ends before anything is sent to it.
import { sanitizeText } from "../../common/sanitize.js";
import { LoginError } from "./errors.js";

/**
 * Checks an issuer given by the person: an https URL (http only on a loopback address, for local
 * providers) without query or fragment (RFC 8414 §2). Returns it as given; throws a TypeError saying why.
 */
export function checkIssuerUrl(issuer: string, name = "expectedIssuer"): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new TypeError(`${name} must be the authorization server's issuer URL (https://…); got something that is not a URL.`);
  }
  // Literal loopback names only (not url-safety's isLoopback, which also trusts DNS names that resolve
  // to 127.0.0.1 today): plain http carries the credentials, so it must not leave this machine.
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback))
    throw new TypeError(`${name} must be an https URL (http only on a loopback address).`);
  if (url.search || url.hash) throw new TypeError(`${name} must have no query or fragment (RFC 8414 §2).`);
  return issuer;
}

/** Two issuer identifiers name the same server: equal, or equal but for one trailing slash (as the SDK compares them). */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a === `${b}/` || b === `${a}/`;
}

/** An issuer the MCP server named, fit to print: its own words, made inert and bounded. */
const shown = (issuer: string) => JSON.stringify(sanitizeText(issuer, { maxLength: 200, multiline: false }));

/** The error of a sign-in that resolved another authorization server than the pinned one. */
export function issuerNotPinned(named: string, pinned: string, pinnedBy: string): LoginError {
  return new LoginError(
    "issuer-mismatch",
    `the MCP server named the authorization server ${shown(named)}, but this client's credentials belong to ${shown(pinned)} (${pinnedBy}); nothing was sent to ${shown(named)}.`,
  );
}

/** The claims of a JWT's payload, or undefined when it is not a JWT with a JSON object payload. */
function jwtClaims(jwt: string): Record<string, unknown> | undefined {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks that an assertion (a workload's JWT, an ID-JAG) is meant for the pinned authorization server:
 * its `aud` names the issuer or its token endpoint (RFC 7523 §3). `what` names the assertion in the
 * error, which never quotes it.
 */
export function checkAssertionAudience(assertion: string, pinned: { issuer: string; tokenEndpoint?: string }, what: string): void {
  const claims = jwtClaims(assertion);
  if (!claims) throw new LoginError("failed", `${what} has no readable claims (not a JWT with a JSON payload); nothing was sent.`);
  const aud = claims.aud;
  const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === "string") : [];
  const fits = (a: string) => sameIssuer(a, pinned.issuer) || (pinned.tokenEndpoint !== undefined && a === pinned.tokenEndpoint);
  if (audiences.length === 0)
    throw new LoginError(
      "failed",
      `${what} has no audience (aud, RFC 7523 §3): it cannot be checked to be for ${shown(pinned.issuer)}; nothing was sent.`,
    );
  if (!audiences.some(fits))
    throw new LoginError(
      "failed",
      `${what} is meant for another audience than the pinned authorization server ${shown(pinned.issuer)} (its aud names neither the issuer nor its token endpoint); nothing was sent.`,
    );
}
