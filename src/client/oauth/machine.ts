// Signing in with no person: the grants a machine (a CI job, an agent, a workload) uses to get a token
// for a protected MCP server. No browser, no consent, no loopback redirect: the SDK's auth() sees a
// provider without a redirect URL and asks the token endpoint straight away, with the grant this file
// prepares (prepareTokenRequest), authenticating the client as the SDK does for a secret
// (client_secret_basic or client_secret_post, as the authorization server's metadata allows) or with
// a JWT signed by the SDK's createPrivateKeyJwtAuth (private_key_jwt, RFC 7523 §2.2).
//
//   client_credentials  the client's own credentials: a secret, or a private key (OAuth 2.1 §4.2, SEP-1046)
//   jwt-bearer          a JWT the workload was given (RFC 7523 §2.1, workload identity federation, SEP-1933)
//   id-jag              a person's identity token, exchanged at the enterprise identity provider for an
//                       ID-JAG, sent with the JWT bearer grant (SEP-990; id-jag.ts)
//
// Keys, secrets and assertions are never quoted in an error.
import { createPrivateKey, type JsonWebKey as NodeJsonWebKey } from "node:crypto";
import { createPrivateKeyJwtAuth, type AddClientAuthentication, type OAuthClientMetadata } from "@modelcontextprotocol/client";
import { LoginError, machineRefusal } from "./errors.js";
import { checkIdJagGrant, requestIdJag, type GrantTarget, type IdJagGrant } from "./id-jag.js";
import { checkAssertionAudience } from "./pinned-issuer.js";

export type { IdentityProvider, IdJagGrant } from "./id-jag.js";

export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** A JSON Web Key, as in a .jwk file (RFC 7517). */
export type PrivateJwk = Record<string, unknown>;

/** The client_credentials grant: the client authenticates with `clientSecret`, or with a JWT signed by `privateKey`. */
export interface ClientCredentialsGrant {
  type: "client_credentials";
  /** A private key (PEM, PKCS#8, PKCS#1 or SEC1, or a JWK) to sign client assertions with (private_key_jwt) instead of a secret. */
  privateKey?: string | PrivateJwk;
  /** The assertion's signing algorithm; default: the JWK's `alg`, else ES256/ES384/ES512 by curve, RS256 for RSA, EdDSA for Ed25519. */
  algorithm?: string;
  /** The scopes to ask for (space-separated); default: those the server names. */
  scope?: string;
}

/** The JWT bearer grant (RFC 7523 §2.1): `assertion()` gives the JWT, read afresh for every token request. */
export interface JwtBearerGrant {
  type: "jwt-bearer";
  assertion(): string | Promise<string>;
  /** The scopes to ask for (space-separated); default: those the server names. */
  scope?: string;
}

/** How a provider gets tokens with no person; see OAuthProviderOptions.grant. */
export type MachineGrant = ClientCredentialsGrant | JwtBearerGrant | IdJagGrant;

/** A private key checked and in JWK form, with the algorithm its assertions are signed with. */
export interface ClientKey {
  jwk: PrivateJwk;
  algorithm: string;
}

const CURVE_ALGORITHMS: Record<string, string> = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512", Ed25519: "EdDSA" };

/**
 * Reads a private key given as PEM text, JWK text or a JWK object. Throws a TypeError that describes
 * the problem and never quotes the key.
 */
export function clientKeyOf(key: string | PrivateJwk, algorithm?: string): ClientKey {
  let jwk: NodeJsonWebKey;
  let given: PrivateJwk | undefined;
  try {
    if (typeof key === "string" && !key.trimStart().startsWith("{")) {
      jwk = createPrivateKey({ key, format: "pem" }).export({ format: "jwk" });
    } else {
      given = typeof key === "string" ? (JSON.parse(key) as PrivateJwk) : key;
      jwk = createPrivateKey({ key: given as NodeJsonWebKey, format: "jwk" }).export({ format: "jwk" });
    }
  } catch {
    throw new TypeError("it is not a private key in PEM (PKCS#8, PKCS#1 or SEC1) or JWK form");
  }
  const named = algorithm ?? (typeof given?.alg === "string" ? given.alg : undefined);
  const inferred = jwk.kty === "RSA" ? "RS256" : jwk.crv ? CURVE_ALGORITHMS[jwk.crv] : undefined;
  const chosen = named ?? inferred;
  if (!chosen)
    throw new TypeError(`no signing algorithm is known for its key type (${jwk.kty ?? "unknown"}${jwk.crv ? ` ${jwk.crv}` : ""})`);
  // The key id travels in the assertion's header, so the authorization server can pick the key.
  return { jwk: { ...jwk, ...(typeof given?.kid === "string" ? { kid: given.kid } : {}) }, algorithm: chosen };
}

/**
 * Where a machine's token request goes: the pinned authorization server (its issuer, and its token
 * endpoint once discovered), and the resource the SDK discovered (the id-jag grant needs it).
 */
export interface TokenTarget {
  issuer: string;
  tokenEndpoint?: string;
  resource?: string;
}

/** What the provider takes from a machine grant: the token request, the client authentication, the metadata. */
export interface MachineFlow {
  /** The OAuth grant_type of its token requests. */
  readonly grantType: string;
  /** What loginErrorOf is told: the grant type, or "id-jag" for the JWT bearer grant with an ID-JAG. */
  readonly name: string;
  /** The client authentication to put on token requests, when it is not the SDK's (a secret, or client_id alone). */
  readonly addClientAuthentication?: AddClientAuthentication;
  readonly tokenEndpointAuthMethod: string;
  /** `target`: the pinned authorization server, and the resource the SDK discovered. */
  prepareTokenRequest(scope: string | undefined, target: TokenTarget): Promise<URLSearchParams>;
  /**
   * Told when the SDK gives up credentials after a refused token request: it then asks again at once,
   * which for a machine grant would send the same refused credentials (a second refusal, whose code
   * may hide the first). That next request is not sent; the refusal is reported instead.
   */
  invalidated(scope: string): void;
}

/** How long after a refusal the SDK's immediate second request is taken for its retry. */
const RETRY_WINDOW_MS = 10_000;

/**
 * The flow of a machine grant: see grantFlow. A token request the SDK makes right after the
 * authorization server refused one (invalid_client, unauthorized_client, invalid_grant) throws the
 * refusal instead of asking again.
 */
export function machineFlowOf(grant: MachineGrant, clientId: string | undefined, clientSecret: string | undefined): MachineFlow {
  const flow = grantFlow(grant, clientId, clientSecret);
  let refused: { what: "client" | "tokens"; at: number } | undefined;
  return {
    ...flow,
    invalidated(scope) {
      // invalid_client and unauthorized_client invalidate "client" then "tokens"; invalid_grant "tokens" only.
      if ((scope === "client" || scope === "tokens") && !refused) refused = { what: scope, at: Date.now() };
    },
    async prepareTokenRequest(scope, target) {
      const last = refused;
      refused = undefined;
      if (last && Date.now() - last.at < RETRY_WINDOW_MS)
        throw machineRefusal(flow.name, last.what === "client" ? "refused-client" : "invalid_grant")!;
      return flow.prepareTokenRequest(scope, target);
    },
  };
}

/**
 * The token request of a machine grant. `clientId` is required for client_credentials and optional for
 * jwt-bearer (RFC 7523 §3.1: client authentication is optional; without an id nothing authenticates
 * the client but the assertion). Throws a TypeError for a combination that cannot work.
 */
function grantFlow(grant: MachineGrant, clientId: string | undefined, clientSecret: string | undefined): Omit<MachineFlow, "invalidated"> {
  const flow = grantFlowOf(grant, clientId, clientSecret);
  return { ...flow, name: grant.type === "id-jag" ? "id-jag" : flow.grantType };
}

function grantFlowOf(
  grant: MachineGrant,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Omit<MachineFlow, "invalidated" | "name"> {
  const scoped = (params: URLSearchParams, scope: string | undefined) => {
    // A scope given with the grant is asked for as it is; else what the server names (the SDK's choice).
    const asked = grant.scope ?? scope;
    if (asked) params.set("scope", asked);
    return params;
  };
  if (grant.type === "client_credentials") {
    if (!clientId) throw new TypeError("the client_credentials grant needs clientId.");
    if ((clientSecret === undefined) === (grant.privateKey === undefined))
      throw new TypeError("the client_credentials grant needs either clientSecret or grant.privateKey, not both.");
    const key = grant.privateKey === undefined ? undefined : clientKeyOf(grant.privateKey, grant.algorithm);
    return {
      grantType: "client_credentials",
      tokenEndpointAuthMethod: key ? "private_key_jwt" : "client_secret_basic",
      // RFC 7523 §3: iss and sub are the client id; the SDK sets aud to the authorization server's issuer.
      ...(key
        ? {
            addClientAuthentication: createPrivateKeyJwtAuth({
              issuer: clientId,
              subject: clientId,
              privateKey: key.jwk,
              alg: key.algorithm,
            }),
          }
        : {}),
      prepareTokenRequest: async (scope) => scoped(new URLSearchParams({ grant_type: "client_credentials" }), scope),
    };
  }
  if (grant.type === "jwt-bearer") {
    if (clientSecret !== undefined && !clientId) throw new TypeError("a clientSecret needs its clientId.");
    return {
      grantType: JWT_BEARER_GRANT,
      tokenEndpointAuthMethod: clientSecret !== undefined ? "client_secret_basic" : "none",
      // Without a client id the request carries no client authentication at all.
      ...(clientId ? {} : { addClientAuthentication: async () => {} }),
      prepareTokenRequest: async (scope, target) => {
        const assertion = (await grant.assertion()).trim();
        if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(assertion))
          throw new LoginError("failed", "the workload's JWT is not a JWT (three base64url parts separated by dots); nothing was sent.");
        // A JWT made for another authorization server is not sent here: whoever receives it can replay it there.
        checkAssertionAudience(assertion, target, "the workload's JWT");
        return scoped(new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }), scope);
      },
    };
  }
  if (grant.type === "id-jag") {
    checkIdJagGrant(grant, clientId);
    return {
      grantType: JWT_BEARER_GRANT,
      // The SDK authenticates the client as its secret allows (client_secret_basic where offered).
      tokenEndpointAuthMethod: clientSecret !== undefined ? "client_secret_basic" : "none",
      prepareTokenRequest: async (scope, target) => {
        if (!target.resource)
          throw new LoginError(
            "failed",
            "the MCP server's protected-resource metadata (RFC 9728) was not found: an ID-JAG needs its resource and authorization server.",
          );
        const asked = grant.scope ?? scope;
        const grantTarget: GrantTarget = { issuer: target.issuer, resource: target.resource };
        const assertion = await requestIdJag(grant, grantTarget, asked);
        checkAssertionAudience(assertion, target, "the identity provider's ID-JAG");
        return scoped(new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }), scope);
      },
    };
  }
  throw new TypeError(`unknown grant type ${JSON.stringify((grant as { type?: unknown }).type)}.`);
}

/** The client metadata the SDK reads for a machine grant (no redirect, one grant type). */
export function machineClientMetadata(flow: MachineFlow, clientName: string): OAuthClientMetadata {
  return {
    client_name: clientName,
    redirect_uris: [],
    grant_types: [flow.grantType],
    token_endpoint_auth_method: flow.tokenEndpointAuthMethod,
  };
}
