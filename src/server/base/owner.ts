// Whose is what a caller starts (a URL flow's retry, a task): its principal when it has one; an
// anonymous caller is told apart only by its 2025-era HTTP session (the session id is itself a secret
// only that client holds, and serveHttp binds a session to whoever opened it). Written once, for every
// feature that keys something on the caller.
import type { ServerContext } from "@modelcontextprotocol/server";

/** The principal every caller without a verified identity shares (the kit's default `principal`). */
export const ANONYMOUS = "anonymous";

/**
 * The owner of what this caller starts: `principal` itself, or for an anonymous caller its session
 * (`session:<id>`); undefined for an anonymous caller without a session (stdio, 2026-07-28).
 */
export function callerOwner(principal: string, ctx: Pick<ServerContext, "sessionId">): string | undefined {
  if (principal !== ANONYMOUS) return principal;
  return ctx.sessionId ? `session:${ctx.sessionId}` : undefined;
}
