// DPoP (RFC 9449, SEP-1932) on the client: tokens bound to a key pair of ours, so a stolen token is
// useless without the private key. The SDK does the protocol once the provider's dpop() gives it a
// DpopSession: a proof on every token request (and one retry with the authorization server's nonce on
// use_dpop_nonce), `Authorization: DPoP <token>` with a fresh proof (htm, htu, iat, jti, ath) on every
// request to the MCP server (and one retry with its nonce on a 401 use_dpop_nonce). What it leaves to
// hosts is here: when to use DPoP, and the key pair, which must outlive the process as long as the
// tokens bound to it do (a refresh token bound to a lost key is lost too). It is kept with the sign-in
// it belongs to, in the token store: for fileTokenStore, as a JWK in the server's 0600 file. It is never
// put in a message or a log.
import { DPOP_SUPPORTED_ALGS, DpopSession, generateDpopKeyPair, type DpopAlg, type DpopKeyPair } from "@modelcontextprotocol/client";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { JWK } from "jose";

// jose is loaded with the first DPoP key, as the SDK loads it for its proofs: hosts without DPoP never load it.
const loadJose = () => import("jose");

/** The DPoP key pair of one server's sign-in, as the token store keeps it. */
export interface SavedDpopKey {
  alg: DpopAlg;
  /** The private key as a JWK (its public half is derived from it). */
  jwk: JWK;
}

/**
 * When the provider asks for DPoP-bound tokens: `true` wherever the authorization server offers them
 * (`dpop_signing_alg_values_supported`), `false` never; by default where the authorization server offers
 * them and the MCP server's protected-resource metadata says it accepts them (RFC 9728's
 * `dpop_signing_alg_values_supported` or `dpop_bound_access_tokens_required`).
 */
export type DpopPolicy = boolean | undefined;

/** Ours in the order we prefer them: small fast keys first. */
const PREFERRED: readonly DpopAlg[] = ["ES256", "EdDSA", "ES384", "ES512", "PS256", "RS256", "PS384", "RS384", "PS512", "RS512"];

const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/**
 * The algorithm to sign proofs with for this discovery, or undefined when DPoP is not to be used: the
 * authorization server does not offer it (or only algorithms we do not have), or the policy says no.
 */
export function dpopAlgorithmFor(discovery: OAuthDiscoveryState | undefined, policy: DpopPolicy): DpopAlg | undefined {
  if (policy === false || !discovery) return undefined;
  const offered = listOf((discovery.authorizationServerMetadata as Record<string, unknown> | undefined)?.dpop_signing_alg_values_supported);
  if (offered.length === 0) return undefined;
  if (policy !== true) {
    const resource = (discovery.resourceMetadata ?? {}) as Record<string, unknown>;
    const accepts = resource.dpop_bound_access_tokens_required === true || listOf(resource.dpop_signing_alg_values_supported).length > 0;
    if (!accepts) return undefined;
    const resourceAlgs = listOf(resource.dpop_signing_alg_values_supported);
    const both = PREFERRED.find((alg) => offered.includes(alg) && (resourceAlgs.length === 0 || resourceAlgs.includes(alg)));
    if (both) return both;
  }
  return PREFERRED.find((alg) => offered.includes(alg));
}

const isDpopAlg = (alg: unknown): alg is DpopAlg => typeof alg === "string" && (DPOP_SUPPORTED_ALGS as readonly string[]).includes(alg);

/** The public half of a private JWK: the members that are not private (RFC 7517/7518). */
function publicHalf(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, ...rest } = jwk as JWK & { oth?: unknown };
  return rest;
}

/** The key pair a saved key stands for; undefined when it is not one we can use (then a new one is made). */
async function keyPairOf(saved: SavedDpopKey): Promise<DpopKeyPair | undefined> {
  if (!isDpopAlg(saved.alg) || typeof saved.jwk !== "object" || saved.jwk === null) return undefined;
  try {
    const { calculateJwkThumbprint, importJWK } = await loadJose();
    const publicJwk = publicHalf(saved.jwk);
    const privateKey = (await importJWK(saved.jwk, saved.alg)) as CryptoKey;
    const publicKey = (await importJWK(publicJwk, saved.alg)) as CryptoKey;
    return { privateKey, publicKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, "sha256"), alg: saved.alg };
  } catch {
    return undefined;
  }
}

/**
 * The DPoP session for a sign-in: the saved key when it signs with `alg`, else a new key pair, which
 * `save` is given (as a private JWK) before it is used, so tokens are never bound to a key that is not kept.
 */
export async function dpopSessionFor(
  alg: DpopAlg,
  saved: SavedDpopKey | undefined,
  save: (key: SavedDpopKey) => Promise<void>,
): Promise<DpopSession> {
  const kept = saved?.alg === alg ? await keyPairOf(saved) : undefined;
  if (kept) return DpopSession.create({ keyPair: kept });
  // Extractable: the private key has to be written down to outlive the process (see the top of this file).
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
  await save({ alg, jwk: await (await loadJose()).exportJWK(keyPair.privateKey) });
  return DpopSession.create({ keyPair });
}
