// Who is in the browser, compared with who the tool asked (the spec's phishing rule: the server must
// verify that the person who opens a URL is the one it was made for). Three ways to know:
//   "oidc"       the person signs in at the authorization server that protects the MCP endpoint (the
//                pages' /login), and a session cookie on the kit's origin remembers it;
//   identify()   a deployment with web sessions of its own says who a request comes from;
//   "loopback"   a local server: only requests from this machine (a loopback peer address and a
//                loopback Host) are served, and whoever sends them counts as the person asked. Anyone
//                with an account on the machine can therefore open the link: right for a stdio or
//                localhost server on a personal computer, wrong for a shared one.
import type { UrlFlow } from "./flows.js";
import type { VaultPrincipal } from "./vault.js";

export interface Person extends VaultPrincipal {
  /** A display name, when the sign-in said one. */
  name?: string;
}

export type Identify = (request: Request) => Promise<VaultPrincipal | undefined>;

/** Whose vault entries a flow without a recorded principal writes and reads (loopback mode only). */
export const LOCAL_PRINCIPAL: VaultPrincipal = Object.freeze({ issuer: "urn:mcp-elicit:loopback", sub: "local" });

/** The principal whose vault holds what a flow's page stored: the flow's, or LOCAL_PRINCIPAL when it has none. */
export const vaultOwner = (flow: Pick<UrlFlow, "principal">): VaultPrincipal =>
  flow.principal ? { issuer: flow.principal.issuer, sub: flow.principal.sub } : LOCAL_PRINCIPAL;

export const samePerson = (a: VaultPrincipal, b: VaultPrincipal) => a.issuer === b.issuer && a.sub === b.sub;

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4 === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A Host header naming this machine: localhost, 127.x.y.z or [::1], with any port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  return name === "localhost" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
