// Who is calling, as tool handlers see it: read from the AuthInfo the HTTP gate verified.
import type { AuthInfo, ServerContext } from "@modelcontextprotocol/server";
import type { Principal } from "./options.js";

/** The principal of a verified token, or undefined when the request carried none (or the verifier named no subject). */
export function principalFromAuth(auth: AuthInfo | undefined): Principal | undefined {
  if (!auth) return undefined;
  const extra = (auth.extra ?? {}) as { sub?: unknown; issuer?: unknown };
  if (typeof extra.sub !== "string") return undefined;
  return {
    sub: extra.sub,
    clientId: auth.clientId,
    scopes: [...auth.scopes],
    issuer: typeof extra.issuer === "string" ? extra.issuer : "",
  };
}

/** The principal of the request a handler serves (`ctx.principal` in kit tools). */
export function principalOf(ctx: Pick<ServerContext, "http">): Principal | undefined {
  return principalFromAuth(ctx.http?.authInfo);
}
