// The token of a request to the MCP endpoint: a bearer token, or a DPoP-bound token with its proof
// (RFC 9449, dpop.ts). A refusal carries the SDK's WWW-Authenticate challenge, or a DPoP one (§7.1).
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  verifyBearerToken,
  type AuthInfo,
  type VerifyBearerTokenOptions,
} from "@modelcontextprotocol/server";
import type { DpopVerifier } from "./dpop.js";

/** The in-memory `jti`s are at their cap (dpop-jtis.ts): the proof is refused for now, never a live jti forgotten. */
class ProofsFull extends OAuthError {
  constructor(readonly retryAfterS: number) {
    super(OAuthErrorCode.TemporarilyUnavailable, "This server holds as many recent DPoP proofs as it can remember; try again shortly");
  }
}

const busy = (error: ProofsFull) =>
  Response.json(error.toResponseObject(), {
    status: 503,
    headers: { "Retry-After": String(error.retryAfterS), "Cache-Control": "no-store" },
  });

/** The key a verified token is bound to (`extra.cnf.jkt`), if any. */
function boundKeyOf(auth: AuthInfo): string | undefined {
  const cnf = (auth.extra as { cnf?: { jkt?: unknown } } | undefined)?.cnf;
  return typeof cnf?.jkt === "string" ? cnf.jkt : undefined;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

export class TokenCheck {
  /**
   * `dpop` checks proofs (none: DPoP refused); `advertised` is it too when the options ask for DPoP, and
   * then the bearer challenge names it. A proof's htu may name any of `targets`.
   */
  constructor(
    private readonly required: VerifyBearerTokenOptions & { resourceMetadataUrl: string },
    private readonly dpop: DpopVerifier | undefined,
    private readonly advertised: DpopVerifier | undefined,
    private readonly targets: readonly URL[],
  ) {}

  /** The verified token, or the answer refusing the request. */
  async check(request: Request): Promise<{ response: Response } | { auth: AuthInfo }> {
    const [authorization = ""] = (request.headers.get("authorization") ?? "").split(",");
    const [scheme = "", token] = authorization.trim().split(" ");
    if (scheme.toLowerCase() === "dpop" || this.dpop?.required) return this.checkDpopRequest(request, scheme, token);
    let auth: AuthInfo;
    try {
      auth = await verifyBearerToken(authorization || undefined, this.required);
    } catch (error) {
      return { response: this.bearerRefusal(error) };
    }
    // RFC 9449 §7.1: a bound token is no bearer token; whoever holds it must also prove the key.
    if (boundKeyOf(auth) !== undefined) {
      const refused = new OAuthError(
        OAuthErrorCode.InvalidToken,
        "The access token is bound to a DPoP key: send it with the DPoP scheme and a proof",
      );
      return { response: this.dpop ? this.dpopRefusal(refused) : this.bearerRefusal(refused) };
    }
    return { auth };
  }

  /** A request with the DPoP scheme, or any request where DPoP is required. */
  private async checkDpopRequest(
    request: Request,
    scheme: string,
    token: string | undefined,
  ): Promise<{ response: Response } | { auth: AuthInfo }> {
    try {
      if (scheme.toLowerCase() !== "dpop")
        throw new OAuthError(OAuthErrorCode.InvalidToken, "This server accepts DPoP-bound access tokens only (the DPoP scheme)");
      return { auth: await this.checkDpop(request, token) };
    } catch (error) {
      if (error instanceof ProofsFull) return { response: busy(error) };
      if (!(error instanceof OAuthError) || error.code === OAuthErrorCode.ServerError)
        return { response: bearerAuthChallengeResponse(error, this.required) };
      return { response: this.dpopRefusal(error) };
    }
  }

  private async checkDpop(request: Request, token: string | undefined): Promise<AuthInfo> {
    const { dpop } = this;
    if (!dpop || !token) throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid Authorization header format, expected 'DPoP TOKEN'");
    const proofHeader = request.headers.get("dpop") ?? undefined;
    // One proof, one header (§4.3 step 1); repeated headers are joined with a comma, which a JWT never holds.
    if (proofHeader?.includes(",")) throw new OAuthError(OAuthErrorCode.InvalidDpopProof, "The request has more than one DPoP proof");
    const { jkt, jti } = await dpop.check(proofHeader, request.method, this.targets, token);
    const auth = await verifyBearerToken(`Bearer ${token}`, this.required);
    const bound = boundKeyOf(auth);
    if (bound === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is not bound to a DPoP key (cnf.jkt)");
    if (bound !== jkt)
      throw new OAuthError(
        OAuthErrorCode.InvalidDpopProof,
        "The DPoP proof is signed with another key than the token is bound to (cnf.jkt)",
      );
    const spent = await dpop.spend(jti);
    if (spent === "replayed") throw new OAuthError(OAuthErrorCode.InvalidDpopProof, "The DPoP proof was used before (jti)");
    if (spent !== "spent") throw new ProofsFull(spent.full.retryAfterS);
    return auth;
  }

  /** RFC 9449 §7.1: `DPoP error=…, algs=…`, with the scope and the metadata URL as the bearer challenge has them. */
  private dpopRefusal(error: OAuthError): Response {
    const { requiredScopes = [], resourceMetadataUrl } = this.required;
    const status = error.code === OAuthErrorCode.InsufficientScope ? 403 : 401;
    const parts = [`error=${quoted(error.code)}`, `error_description=${quoted(error.message)}`];
    if (requiredScopes.length > 0) parts.push(`scope=${quoted(requiredScopes.join(" "))}`);
    parts.push(`resource_metadata=${quoted(resourceMetadataUrl)}`, `algs=${quoted((this.dpop?.algorithms ?? []).join(" "))}`);
    const headers: Record<string, string> = { "WWW-Authenticate": `DPoP ${parts.join(", ")}`, "Cache-Control": "no-store" };
    const nonce = error.code === OAuthErrorCode.UseDpopNonce ? this.dpop?.nonce() : undefined;
    if (nonce) headers["DPoP-Nonce"] = nonce;
    return Response.json(error.toResponseObject(), { status, headers });
  }

  /** The bearer answer, naming DPoP too (a second challenge) where it is advertised. */
  private bearerRefusal(error: unknown): Response {
    const response = bearerAuthChallengeResponse(error, this.required);
    const challenge = response.headers.get("www-authenticate");
    if (this.advertised && challenge)
      response.headers.set("www-authenticate", `${challenge}, DPoP algs=${quoted(this.advertised.algorithms.join(" "))}`);
    return response;
  }
}
