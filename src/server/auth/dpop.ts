// DPoP (RFC 9449) at the resource server: the checks of §4.3 and §7.1 on a request that presents
// `Authorization: DPoP <token>` with a `DPoP` proof. The proof is a JWT the client signs with the key
// its token is bound to (the token's `cnf.jkt`), for this one request: typ dpop+jwt, the public JWK in
// its header, htm and htu naming the request, a fresh iat, a jti never seen before, ath the hash of the
// token, and (when the server asks for them) a nonce it handed out. Every refusal is an OAuthError
// (invalid_dpop_proof or use_dpop_nonce) whose message names the rule, never the proof or the token.
import { createHash } from "node:crypto";
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { JWK } from "jose";
import type { KeyValueStore } from "../../store/types.js";
import { DEFAULT_MAX_JTIS, MemoryJtis, type Spent } from "./dpop-jtis.js";
import { DpopNonces, dpopNonceRing } from "./dpop-nonces.js";
import { STATE_KEY_ENV } from "../base/sealed-state.js";
import type { DpopOptions } from "./options.js";

/** Asymmetric algorithms only (RFC 9449 §4.2: never "none", never a MAC). */
export const DPOP_ALGORITHMS = ["ES256", "ES384", "ES512", "EdDSA", "Ed25519", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"];
export const DEFAULT_DPOP_ALGORITHMS = ["ES256", "ES384", "ES512", "EdDSA", "Ed25519", "PS256", "RS256"];
const DEFAULT_MAX_AGE_S = 60;
/** A proof is a few hundred bytes; anything much larger is refused before it is parsed. */
const MAX_PROOF_LENGTH = 8192;
/** The private members of a JWK (RFC 7518): a proof's key must have none of them. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

const invalidProof = (message: string) => new OAuthError(OAuthErrorCode.InvalidDpopProof, message);

type Jose = typeof import("jose");
let jose: Promise<Jose> | undefined;
const loadJose = () => (jose ??= import("jose"));

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/** Normalizes a URL for comparing `htu` (RFC 9449 §4.3 step 9): no query, no fragment, URL's own normalization. */
function targetOf(url: string | URL): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.search = "";
    parsed.hash = "";
    return parsed.href;
  } catch {
    return undefined;
  }
}

export interface DpopVerifier {
  readonly algorithms: string[];
  readonly required: boolean;
  /** A nonce to send in `DPoP-Nonce`, when nonces are asked for. */
  nonce(): string | undefined;
  /**
   * Checks `proof` for a request with `method` to one of `targets` presenting `token`; resolves to the
   * thumbprint (RFC 7638) of the proof's key, to compare with the token's `cnf.jkt`. Does not spend its jti.
   */
  check(proof: string | undefined, method: string, targets: readonly URL[], token: string): Promise<{ jkt: string; jti: string }>;
  /** Spends the jti of an accepted proof: "replayed" when it was spent already, `full` when memory holds its limit. */
  spend(jti: string): Promise<Spent>;
}

const NEEDS_KEY = (what: string) =>
  `serveHttp: DPoP nonces (auth.dpop.nonce) with ${what} need auth.dpop.key or $${STATE_KEY_ENV}, the key ring every member shares: with a random key of its own, each member would refuse the nonces the others hand out.`;

/**
 * A fleet's DPoP checks, before it starts: used `jti`s must be kept where every member sees them (else a
 * proof could be replayed once at each member), and nonces must come from a ring they share.
 */
export function checkFleetDpop(dpop: boolean | DpopOptions | undefined, fleetStore: KeyValueStore): void {
  if (dpop === false) return;
  const options = typeof dpop === "object" && dpop !== null ? dpop : {};
  const store = options.store ?? fleetStore;
  if (store.shared !== true)
    throw new TypeError(
      `serveHttp: a fleet member remembers used DPoP proofs in ${options.store ? "auth.dpop.store" : "fleet.store"}, which is not a store the members share (its \`shared\` is not true), so a proof could be replayed once at each member. Give auth.dpop.store a shared store (e.g. redisStore()), or leave it out to use fleet.store.`,
    );
  if (options.nonce && !dpopNonceRing(options.key).shared) throw new TypeError(NEEDS_KEY("a fleet"));
}

export function createDpopVerifier(options: DpopOptions): DpopVerifier {
  const algorithms = options.algorithms ?? DEFAULT_DPOP_ALGORITHMS;
  for (const alg of algorithms)
    if (!DPOP_ALGORITHMS.includes(alg))
      throw new TypeError(`auth.dpop.algorithms: "${alg}" is not an asymmetric JWS algorithm (one of ${DPOP_ALGORITHMS.join(", ")})`);
  if (algorithms.length === 0) throw new TypeError("auth.dpop.algorithms: at least one algorithm");
  const maxAgeS = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_S;
  if (!Number.isFinite(maxAgeS) || maxAgeS <= 0 || maxAgeS > 3600)
    throw new TypeError("auth.dpop.maxAgeSeconds: a number of seconds above 0 and at most 3600");
  const ttlMs = Math.ceil(2 * maxAgeS * 1000) + 5000;
  const maxJtis = options.maxJtis ?? DEFAULT_MAX_JTIS;
  if (!Number.isInteger(maxJtis) || maxJtis <= 0) throw new TypeError("auth.dpop.maxJtis: a whole number above 0");
  const memory = options.store ? undefined : new MemoryJtis(maxJtis);
  // $MCP_ELICIT_STATE_KEY is read only when nonces are asked for: a server without them never fails on it.
  const nonceRing = options.nonce || options.key !== undefined ? dpopNonceRing(options.key) : undefined;
  if (options.nonce && options.store?.shared === true && !nonceRing?.shared)
    throw new TypeError(NEEDS_KEY("a store several processes share"));
  const nonces = options.nonce && nonceRing ? new DpopNonces(nonceRing.ring, Math.ceil(maxAgeS * 1000)) : undefined;

  return {
    algorithms,
    required: options.required === true,
    nonce: () => nonces?.current(),
    async check(proof, method, targets, token) {
      if (!proof) throw invalidProof("The request has no DPoP proof (DPoP header)");
      if (proof.length > MAX_PROOF_LENGTH) throw invalidProof("The DPoP proof is too large");
      const lib = await loadJose();
      let header: ReturnType<Jose["decodeProtectedHeader"]>;
      try {
        header = lib.decodeProtectedHeader(proof);
      } catch {
        throw invalidProof("The DPoP proof is not a well-formed JWT");
      }
      if (header.typ !== "dpop+jwt") throw invalidProof("The DPoP proof's typ is not dpop+jwt");
      if (typeof header.alg !== "string" || !algorithms.includes(header.alg))
        throw invalidProof("The DPoP proof is signed with an algorithm this server does not accept");
      const jwk = header.jwk as (JWK & Record<string, unknown>) | undefined;
      if (!jwk || typeof jwk !== "object") throw invalidProof("The DPoP proof carries no public key (jwk)");
      if (PRIVATE_MEMBERS.some((member) => member in jwk)) throw invalidProof("The DPoP proof's jwk is not a public key");
      let payload: Record<string, unknown>;
      try {
        const key = await lib.importJWK(jwk, header.alg);
        ({ payload } = await lib.jwtVerify(proof, key, { typ: "dpop+jwt", algorithms }));
      } catch {
        throw invalidProof("The DPoP proof's signature does not verify with its jwk");
      }
      if (payload.htm !== method) throw invalidProof("The DPoP proof was made for another HTTP method (htm)");
      const htu = typeof payload.htu === "string" ? targetOf(payload.htu) : undefined;
      if (!htu || !targets.some((target) => targetOf(target) === htu)) throw invalidProof("The DPoP proof was made for another URL (htu)");
      const now = Date.now() / 1000;
      if (typeof payload.iat !== "number" || Math.abs(now - payload.iat) > maxAgeS)
        throw invalidProof("The DPoP proof's iat is too old or in the future");
      if (typeof payload.jti !== "string" || payload.jti.length === 0 || payload.jti.length > 256)
        throw invalidProof("The DPoP proof has no usable jti");
      if (nonces && !nonces.valid(payload.nonce))
        throw new OAuthError(OAuthErrorCode.UseDpopNonce, "The DPoP proof must carry the nonce this server gave (DPoP-Nonce)");
      if (payload.ath !== sha256(token)) throw invalidProof("The DPoP proof was made for another access token (ath)");
      const jkt = await lib.calculateJwkThumbprint(jwk, "sha256");
      // The jti is namespaced by the key: another client's proof can never spend this one's.
      return { jkt, jti: `${jkt}.${payload.jti}` };
    },
    async spend(jti) {
      const key = `dpop-jti:${sha256(jti)}`;
      if (memory) return memory.add(key, ttlMs);
      return (await options.store!.add(key, "1", ttlMs)) ? "spent" : "replayed";
    },
  };
}
