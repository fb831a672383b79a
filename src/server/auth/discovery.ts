// The authorization server's metadata (RFC 8414, else OpenID Connect Discovery), fetched once per
// issuer and checked: its `issuer` must be the one configured (mix-up protection) and it must
// publish its keys (`jwks_uri`, https unless on loopback).
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/server";
import { ElicitError } from "../../schema/errors.js";

const TIMEOUT_MS = 10_000;

export class IssuerDiscoveryError extends ElicitError {
  constructor(message: string) {
    super("issuer-discovery-failed", message);
  }
}

/** The places metadata may be, in order: RFC 8414 (path inserted), then OpenID Connect (path appended, then inserted). */
export function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
  ].filter((url, i, all) => all.findIndex((u) => u.href === url.href) === i);
}

/** localhost, 127.0.0.0/8 or ::1, as `URL.hostname` spells them: the only hosts plain http is allowed for. */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * The issuer's `jwks_uri`, checked: an absolute https URL (http only on loopback). The keys decide
 * which tokens are genuine, so fetching them over plain http would let anyone on the path swap them.
 */
export function jwksUrl(metadata: IssuerMetadata, issuer: string): URL {
  const value = metadata.jwks_uri;
  if (typeof value !== "string") throw new IssuerDiscoveryError(`the authorization server ${issuer} publishes no jwks_uri`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new IssuerDiscoveryError(`the jwks_uri of the authorization server ${issuer} is not an absolute URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new IssuerDiscoveryError(
      `the jwks_uri of the authorization server ${issuer} must use https (http only on localhost, 127.0.0.0/8 or ::1), got ${url.protocol}//${url.host}`,
    );
  return url;
}

/** Checks a configured issuer: an absolute https URL (http only on loopback), without query or fragment. */
export function issuerUrl(issuer: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new IssuerDiscoveryError(`auth.issuer must be an absolute URL, got "${issuer}"`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new IssuerDiscoveryError(`auth.issuer must use https (http only on localhost, 127.0.0.0/8 or ::1), got "${issuer}"`);
  if (url.search || url.hash) throw new IssuerDiscoveryError(`auth.issuer must have no query or fragment, got "${issuer}"`);
  return url;
}

export type IssuerMetadata = AuthorizationServerMetadata & { jwks_uri?: string };

/** Fetches and checks the metadata of `issuer`. */
export async function discoverIssuer(issuer: string, fetchFn: typeof fetch = fetch): Promise<IssuerMetadata> {
  const url = issuerUrl(issuer);
  const tried: string[] = [];
  for (const candidate of metadataUrls(url)) {
    let response: Response;
    try {
      response = await fetchFn(candidate, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new IssuerDiscoveryError(`cannot reach the authorization server at ${candidate.href}: ${(error as Error).message}`);
    }
    if (response.status === 404 || response.status === 405) {
      tried.push(`${candidate.href} (HTTP ${response.status})`);
      await response.body?.cancel();
      continue;
    }
    if (!response.ok)
      throw new IssuerDiscoveryError(`the authorization server's metadata at ${candidate.href} answered HTTP ${response.status}`);
    let metadata: IssuerMetadata;
    try {
      metadata = (await response.json()) as IssuerMetadata;
    } catch {
      throw new IssuerDiscoveryError(`the authorization server's metadata at ${candidate.href} is not JSON`);
    }
    if (!metadata || typeof metadata !== "object") throw new IssuerDiscoveryError(`the metadata at ${candidate.href} is not a JSON object`);
    if (metadata.issuer !== issuer)
      throw new IssuerDiscoveryError(
        `the metadata at ${candidate.href} names issuer ${JSON.stringify(String(metadata.issuer).slice(0, 200))}, not the configured ${issuer}`,
      );
    return metadata;
  }
  throw new IssuerDiscoveryError(`no authorization server metadata for ${issuer}; tried ${tried.join(", ")}`);
}
