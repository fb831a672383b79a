// Who may use `elicit gateway --http`: its endpoint acts with the person's sign-in to the server, so
// on this computer only this computer's programs may (no web page the person visits: its Origin is
// refused, and a rebound DNS name fails the Host check), and beyond it (--public) only whoever holds
// the bearer secret printed at start.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { hostHeaderValidation } from "@modelcontextprotocol/node";
import { localhostAllowedHostnames } from "@modelcontextprotocol/server";
import { isLoopbackHost } from "../../server/url/url-kit.js";
import { HostError } from "../exit.js";

/** Answers a request here and says it goes no further (serveHttp's `admit`). */
export type Admit = (req: IncomingMessage, res: ServerResponse) => boolean;

/** `--http`'s host as a URL spells it (IPv6 in brackets). */
const asHostname = (host: string) => (host.includes(":") ? `[${host}]` : host);

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): false {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  return false;
}

/**
 * Checks `--http HOST` against `--public` before anything starts: an address beyond this computer only
 * when the person asked for it. Returns whether the gateway serves beyond this computer.
 */
export function checkListen(host: string, isPublic: boolean | undefined, http: boolean): boolean {
  if (isPublic && !http) throw new HostError("--public goes with --http [HOST:]PORT: on stdio the host launches the gateway itself.");
  if (isPublic || isLoopbackHost(asHostname(host))) return isPublic === true;
  throw new HostError(
    `--http ${host}: not an address of this computer only. The gateway acts with your sign-in to the server, so anyone who reaches it could too. ` +
      `Use 127.0.0.1 (the default), or add --public to serve it there behind a secret. Usage: elicit gateway --http [HOST:]PORT [--public] ...`,
  );
}

/**
 * On loopback: the Host must name this computer (the SDK's DNS-rebinding check), and a request that
 * carries an Origin (a browser's) must come from the gateway's own origin, http://HOST:PORT with HOST
 * one of the loopback names and PORT the one it listens on: the SDK's Origin check ignores the port, and
 * another program's page on localhost is no more the person's host than a website is.
 */
export function loopbackGuard(host: string): Admit {
  const names = [...new Set([...localhostAllowedHostnames(), asHostname(host)])];
  const validateHost = hostHeaderValidation(names);
  return (req, res) => {
    if (!validateHost(req, res)) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const port = req.socket.localPort;
    const own = names.map((name) => new URL(`http://${name}:${port}`).origin);
    let asked: string | undefined;
    try {
      asked = new URL(origin).origin;
    } catch {
      asked = undefined;
    }
    if (asked !== undefined && own.includes(asked)) return true;
    return refuse(
      res,
      403,
      `Forbidden: Origin ${JSON.stringify(origin.slice(0, 200))} is not this gateway's own; web pages may not use it`,
    );
  };
}

export interface PublicGuard {
  admit: Admit;
  /** The secret hosts send as `Authorization: Bearer SECRET`: printed once, kept nowhere. */
  secret: string;
}

/** Beyond this computer (--public): every request carries the bearer secret made here, compared in constant time. */
export function publicGuard(): PublicGuard {
  const secret = randomBytes(32).toString("base64url");
  // Digests of one length: timingSafeEqual needs equal lengths, and the length says nothing this way.
  const expected = createHash("sha256").update(`Bearer ${secret}`).digest();
  const admit: Admit = (req, res) => {
    // The scheme is case-insensitive (RFC 9110); the secret is compared whole.
    const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const given = createHash("sha256").update(`Bearer ${token}`).digest();
    if (timingSafeEqual(given, expected)) return true;
    return refuse(res, 401, "Unauthorized: this gateway needs Authorization: Bearer with the secret it printed when it started", {
      "www-authenticate": 'Bearer realm="elicit gateway"',
    });
  };
  return { admit, secret };
}
