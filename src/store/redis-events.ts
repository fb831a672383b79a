// The SDK's EventStore on Redis Streams, so a client that reconnects with Last-Event-ID to another
// instance of the server gets what it missed. One Redis stream per SSE stream (XADD, trimmed to
// maxEventsPerStream, PEXPIRE'd on every write). An event id is `<scope>.<stream>.<entry>`: the
// random scope of the eventStore() that wrote it (the SDK names a session's GET stream "_GET_stream" in
// every session, so streams need a namespace), the SSE stream id (base64url) and Redis's entry id.
// Any instance can therefore find the stream from the id alone, with no lookup.
import { randomBytes } from "node:crypto";
import type { EventStore } from "@modelcontextprotocol/server";
import type { RedisClient } from "./redis-connection.js";
import type { RedisEventStoreOptions } from "./redis-options.js";

type Run = <T>(operation: string, command: () => Promise<T>) => Promise<T>;
type Message = Parameters<EventStore["storeEvent"]>[1];

const SCOPE = /^[A-Za-z0-9_-]{16}$/;
const STREAM = /^[A-Za-z0-9_-]{1,400}$/;
const ENTRY = /^\d{1,20}-\d{1,20}$/;
const REPLAY_BATCH = 200;

/** The parts of an event id, or undefined when it is not one this store wrote (any shape, any length). */
export function parseEventId(eventId: unknown): { scope: string; streamId: string; entry: string } | undefined {
  if (typeof eventId !== "string" || eventId.length > 500) return undefined;
  const [scope, stream, entry, ...rest] = eventId.split(".");
  if (rest.length > 0 || !SCOPE.test(scope ?? "") || !STREAM.test(stream ?? "") || !ENTRY.test(entry ?? "")) return undefined;
  return { scope: scope!, streamId: Buffer.from(stream!, "base64url").toString("utf8"), entry: entry! };
}

export function redisEventStore(client: RedisClient, keyPrefix: string, options: RedisEventStoreOptions = {}, run: Run): EventStore {
  const ttlMs = options.ttlMs ?? 60 * 60_000;
  const maxEvents = options.maxEventsPerStream ?? 1000;
  if (!(Number.isFinite(ttlMs) && ttlMs > 0))
    throw new RangeError(`eventStore: ttlMs must be a positive number of milliseconds, got ${ttlMs}.`);
  if (!(Number.isInteger(maxEvents) && maxEvents > 0))
    throw new RangeError(`eventStore: maxEventsPerStream must be a positive integer, got ${maxEvents}.`);
  const scope = randomBytes(12).toString("base64url");
  const key = (eventScope: string, streamId: string) => `${keyPrefix}${eventScope}:${streamId}`;

  return {
    async storeEvent(streamId, message) {
      const streamKey = key(scope, streamId);
      const replies = await run("storeEvent", () =>
        client
          .multi()
          .xAdd(
            streamKey,
            "*",
            { m: JSON.stringify(message) },
            { TRIM: { strategy: "MAXLEN", strategyModifier: "=", threshold: maxEvents } },
          )
          .pExpire(streamKey, Math.ceil(ttlMs))
          .exec(),
      );
      return `${scope}.${Buffer.from(streamId, "utf8").toString("base64url")}.${String(replies[0])}`;
    },

    async getStreamIdForEventId(eventId) {
      return parseEventId(eventId)?.streamId;
    },

    async replayEventsAfter(lastEventId, { send }) {
      const parsed = parseEventId(lastEventId);
      if (!parsed) throw new Error("eventStore: Last-Event-ID is not an event id of this server.");
      const streamKey = key(parsed.scope, parsed.streamId);
      const known = await run("replayEventsAfter", () => client.xRange(streamKey, parsed.entry, parsed.entry));
      // A trimmed or expired event: replaying from it would silently skip what was lost.
      if (!known || known.length === 0)
        throw new Error("eventStore: Last-Event-ID names an event that is no longer kept (expired or trimmed).");
      const prefix = lastEventId.slice(0, lastEventId.lastIndexOf(".") + 1);
      let after = parsed.entry;
      for (;;) {
        const page = await run("replayEventsAfter", () => client.xRange(streamKey, `(${after}`, "+", { COUNT: REPLAY_BATCH }));
        if (!page || page.length === 0) break;
        for (const entry of page) {
          after = entry.id;
          const message = JSON.parse(String(entry.message.m)) as Message;
          // The SDK's priming event ({}) only carries an id; sent again it would reach the client as a message it cannot parse.
          if (Object.keys(message).length > 0) await send(`${prefix}${entry.id}`, message);
        }
        if (page.length < REPLAY_BATCH) break;
      }
      return parsed.streamId;
    },
  };
}
