// The 2025-era tool calls running on this member of a fleet, by session and request id. The fleet
// gives each call an id of its own (kept in the call's record in the store, so a member that adopts the
// session after this one died knows it); a tool of createElicitation keeps its ctx.step values under
// that id in its store (the call's journal) and says so, and then another member may run the call again
// to its end: each step's recorded value comes back instead of the step running twice.
import type { RequestId } from "@modelcontextprotocol/server";

export interface LiveCall {
  /** The call's id across members: its ctx.step values are kept under it. */
  readonly call: string;
  /** This run finishes a call another member started and did not finish (it died). */
  readonly rerun: boolean;
  /** The tool keeps a journal of this call where every member reads it: another member may finish the call. */
  journaled(): void;
}

const running = new Map<string, LiveCall>();
const keyOf = (sessionId: string, id: RequestId) => `${sessionId}\u0000${typeof id}\u0000${String(id)}`;

export function openLiveCall(sessionId: string, id: RequestId, call: LiveCall): void {
  running.set(keyOf(sessionId, id), call);
}

export function closeLiveCall(sessionId: string, id: RequestId): void {
  running.delete(keyOf(sessionId, id));
}

/** The fleet's view of the request a handler serves, when it is a 2025-era request of a fleet session on this member. */
export function liveCallOf(ctx: { sessionId?: string; mcpReq: { id: RequestId } }): LiveCall | undefined {
  return ctx.sessionId === undefined ? undefined : running.get(keyOf(ctx.sessionId, ctx.mcpReq.id));
}
