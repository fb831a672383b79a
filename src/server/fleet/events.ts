// Each fleet session's view of the shared event store. The SDK names every session's GET stream
// "_GET_stream", and an event id alone finds its stream on any member, so streams are namespaced by
// session here and an event id of another session is refused: a Last-Event-ID never replays someone
// else's messages. Calls that were in flight on a stream when their member died are dealt with at the
// end of its replay: finished here (run again on a stream of this member, which the resumed connection
// then carries) or answered with an error.
import { AsyncLocalStorage } from "node:async_hooks";
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

interface RequestScope {
  streamId?: string;
  /** The verified bearer token of the HTTP request (serveHttp's auth), for calls it runs again. */
  auth?: unknown;
  /** Its MCP-Protocol-Version header: the revision calls run again are served on. */
  protocolVersion?: string;
  /** A call being run again: its stream's messages wait for `gate` (see rerunScope). */
  rerun?: { gate: Promise<void>; primed: (streamId: string) => void };
}

/** The HTTP request being handled, so the stream its priming event opened can be tied to the requests it carries. */
const requestScope = new AsyncLocalStorage<RequestScope>();

export const inRequestScope = <T>(request: Request, auth: unknown, handle: () => Promise<T>): Promise<T> =>
  requestScope.run({ auth, protocolVersion: request.headers.get("mcp-protocol-version") ?? undefined }, handle);

/** The SSE stream the current POST opened (known once its priming event is stored, before its messages are handled). */
export const currentStreamId = (): string | undefined => requestScope.getStore()?.streamId;

/** The verified token and the protocol version header of the HTTP request being handled. */
export const currentRequest = (): { auth?: unknown; protocolVersion?: string } => requestScope.getStore() ?? {};

/**
 * Runs `dispatch` (requests handed to the transport) in a scope of its own: `primed` hears the stream the
 * transport opened for them once they reached the server (rerunStarted), and that stream's messages are
 * held until `gate` settles, so none is written before the resumed connection carries the stream.
 */
export const rerunScope = <T>(auth: unknown, gate: Promise<void>, primed: (streamId: string) => void, dispatch: () => T): T =>
  requestScope.run({ auth, rerun: { gate, primed } }, dispatch);

/** A request dispatched by rerunScope reached the server: the transport is done setting up its stream. */
export function rerunStarted(): void {
  const scope = requestScope.getStore();
  if (scope?.rerun && scope.streamId !== undefined) scope.rerun.primed(scope.streamId);
}

/**
 * What to do about the calls that were in flight on `streamId` when their member died: `answers` to
 * send at the end of the replay, and `stream`, a stream of this member that now carries the calls run
 * again (the resumed connection carries it instead); `started` is called once the connection does.
 */
export type LostCalls = (
  streamId: string,
  answered: ReadonlySet<string>,
) => Promise<{ answers: JSONRPCMessage[]; stream?: string; started?: () => void }>;

/** A request id as a string that keeps its type (7 and "7" differ). */
export const requestKey = (id: string | number): string => `${typeof id}:${String(id)}`;

export function sessionEventStore(shared: EventStore, sessionId: string, lostCalls: LostCalls): EventStore {
  const prefix = `${sessionId}~`;
  /** Streams of calls run again, whose messages wait until the resumed connection carries them. */
  const held = new Map<string, Promise<void>>();
  const own = async (eventId: string): Promise<string | undefined> => {
    const full = await shared.getStreamIdForEventId!(eventId);
    return full?.startsWith(prefix) ? full.slice(prefix.length) : undefined;
  };
  return {
    async storeEvent(streamId, message) {
      const scope = requestScope.getStore();
      // The priming event ({}) is the first thing a POST stores, before its messages reach the server.
      if (scope && scope.streamId === undefined && Object.keys(message).length === 0) {
        scope.streamId = streamId;
        if (scope.rerun) {
          const gate = scope.rerun.gate;
          held.set(streamId, gate);
          void gate.finally(() => held.delete(streamId));
        }
      } else await held.get(streamId);
      return shared.storeEvent(prefix + streamId, message);
    },
    getStreamIdForEventId: own,
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = await own(lastEventId);
      if (streamId === undefined) throw new Error("Last-Event-ID is not an event of this session");
      let last = lastEventId;
      /** Calls whose answer is among the replayed events: finished, whatever their records say. */
      const answered = new Set<string>();
      await shared.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => {
          last = eventId;
          const m = message as { id?: unknown; method?: unknown };
          if (m.method === undefined && (typeof m.id === "string" || typeof m.id === "number") && ("result" in m || "error" in m))
            answered.add(requestKey(m.id));
          await send(eventId, message);
        },
      });
      const lost = await lostCalls(streamId, answered);
      try {
        for (const answer of lost.answers) await send(last, answer);
      } finally {
        // The transport takes the stream over in the same turn that this returns: its messages go after that.
        if (lost.started) setImmediate(lost.started);
      }
      return lost.stream ?? streamId;
    },
  };
}
