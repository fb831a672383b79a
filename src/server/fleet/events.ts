// Each fleet session's view of the shared event store. The SDK names every session's GET stream
// "_GET_stream", and an event id alone finds its stream on any member, so streams are namespaced by
// session here and an event id of another session is refused: a Last-Event-ID never replays someone
// else's messages. Calls lost with a dead member are answered at the end of their stream's replay.
import { AsyncLocalStorage } from "node:async_hooks";
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

/** The HTTP request being handled, so the stream its priming event opened can be tied to the requests it carries. */
const requestScope = new AsyncLocalStorage<{ streamId?: string }>();

export const inRequestScope = <T>(handle: () => Promise<T>): Promise<T> => requestScope.run({}, handle);

/** The SSE stream the current POST opened (known once its priming event is stored, before its messages are handled). */
export const currentStreamId = (): string | undefined => requestScope.getStore()?.streamId;

/** Error responses for the calls that were in flight on `streamId` when their member died (each given once). */
export type LostCalls = (streamId: string) => Promise<JSONRPCMessage[]>;

export function sessionEventStore(shared: EventStore, sessionId: string, lostCalls: LostCalls): EventStore {
  const prefix = `${sessionId}~`;
  const own = async (eventId: string): Promise<string | undefined> => {
    const full = await shared.getStreamIdForEventId!(eventId);
    return full?.startsWith(prefix) ? full.slice(prefix.length) : undefined;
  };
  return {
    async storeEvent(streamId, message) {
      const scope = requestScope.getStore();
      // The priming event ({}) is the first thing a POST stores, before its messages reach the server.
      if (scope && scope.streamId === undefined && Object.keys(message).length === 0) scope.streamId = streamId;
      return shared.storeEvent(prefix + streamId, message);
    },
    getStreamIdForEventId: own,
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = await own(lastEventId);
      if (streamId === undefined) throw new Error("Last-Event-ID is not an event of this session");
      let last = lastEventId;
      await shared.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => {
          last = eventId;
          await send(eventId, message);
        },
      });
      for (const answer of await lostCalls(streamId)) await send(last, answer);
      return streamId;
    },
  };
}
