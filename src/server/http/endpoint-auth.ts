// The auth gate in front of the MCP endpoint (auth/gate.ts), made once: at once when the entry knows the
// issuer's metadata and its own address (serveHttp), else at the first request (a fetch handler, which
// must load in a Worker's global scope, fetches nothing before).
import type { AuthInfo } from "@modelcontextprotocol/server";
import { createAuthGate, prepareAuth, type AuthGate } from "../auth/gate.js";
import type { HttpAuthOptions } from "../auth/options.js";
import { jsonError } from "./responses.js";
import type { ServingHooks } from "./serving-hooks.js";

export class EndpointAuth {
  private gate: Promise<AuthGate> | undefined;

  constructor(
    private readonly auth: HttpAuthOptions,
    private readonly path: string,
    private readonly hooks: ServingHooks,
    private readonly onerror: ((error: Error) => void) | undefined,
  ) {
    // serveHttp has the issuer's metadata and its address before it serves: its gate is made now, when
    // the options are read (the DPoP nonce key from the environment, say), not at the first request.
    const { issuerMetadata, endpoint, fleet } = hooks;
    if (issuerMetadata && endpoint) this.gate = Promise.resolve(createAuthGate(auth, issuerMetadata, endpoint, onerror, fleet?.store));
  }

  /** The gate's answer (a well-known document, a refusal) or the request's verified token; 503 while the issuer cannot be reached. */
  async check(request: Request, pathname: string): Promise<{ response: Response } | { auth?: AuthInfo }> {
    try {
      return await (await this.gateFor(request)).handle(request, pathname);
    } catch (error) {
      this.onerror?.(error as Error);
      const message = "The authorization server's metadata could not be fetched; try again shortly";
      return { response: jsonError(503, -32000, message, null, { "retry-after": "5" }) };
    }
  }

  /** The auth gate, made once (a failed issuer lookup is tried again at the next request). */
  private gateFor(request: Request): Promise<AuthGate> {
    const { hooks, auth } = this;
    this.gate ??= (async () => {
      const metadata = hooks.issuerMetadata ?? (await prepareAuth(auth));
      const endpoint = hooks.endpoint ?? new URL(this.path, request.url);
      return createAuthGate(auth, metadata, endpoint, this.onerror, hooks.fleet?.store);
    })();
    this.gate.catch(() => (this.gate = undefined));
    return this.gate;
  }
}
