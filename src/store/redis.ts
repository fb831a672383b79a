// The fleet's store: Redis, through node-redis (an optional peer, loaded when redisStore is called).
// Every instance of a server on the same Redis and prefix sees the same call ledger, URL flows, vault,
// session records and stream events; pub/sub tells the others at once what one of them wrote.
//
// Layout under the prefix: `kv:<key>` for the KeyValueStore (a string, with a TTL), `ev:<scope>:<stream>`
// for the event store's Redis Streams, and channels `ch:<channel>`.
import { connectRedis, describe, duplicateRedis, redisAddress, scrubSecrets, type RedisClient } from "./redis-connection.js";
import { redisEventStore } from "./redis-events.js";
import { escapeGlob, SWAP, ttlPx } from "./redis-commands.js";
import type { FleetStore } from "./types.js";

export type { RedisEventStoreOptions } from "./redis-options.js";
export { escapeGlob } from "./redis-commands.js";

export interface RedisStoreOptions {
  /** The server, as a redis:// or rediss:// URL (default: $REDIS_URL, else redis://127.0.0.1:6379). */
  url?: string;
  /** Put before every key and channel, so several applications can share one Redis (default "mcp-elicit:"). */
  prefix?: string;
  /** How long the first connection may take before redisStore rejects (default 5 s). */
  connectTimeoutMs?: number;
}

const ttl = (ttlMs: number) => ttlPx("redisStore", ttlMs);

/**
 * A store on Redis, connected (rejects with a message naming the server, never its password, when it cannot connect).
 *
 * @example
 * ```ts region=examples/fleet-server.ts#redisStore
 * const store = await redisStore(); // $REDIS_URL: the call ledger, URL flows, sessions and stream events
 * const kit = createElicitation({ store }); // the requestState key ring comes from $MCP_ELICIT_STATE_KEY
 * ```
 */
export async function redisStore(options: RedisStoreOptions = {}): Promise<FleetStore> {
  const url = options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = options.prefix ?? "mcp-elicit:";
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const client = await connectRedis({ url, connectTimeoutMs });
  const kv = (key: string) => `${prefix}kv:${key}`;
  const channelName = (channel: string) => `${prefix}ch:${channel}`;
  let subscriber: Promise<RedisClient> | undefined;
  let closed = false;

  // Redis errors (an outage, a full server) say which operation failed and on which server.
  const run = async <T>(operation: string, command: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error(`redisStore: ${operation} after close().`);
    try {
      return await command();
    } catch (error) {
      throw new Error(scrubSecrets(`redisStore: ${operation} failed on ${redisAddress(url)}: ${describe(error)}`, url), { cause: error });
    }
  };
  // Opened on the first subscribe; a failed attempt is forgotten so the next subscribe tries again.
  const subscriberConnection = () =>
    (subscriber ??= duplicateRedis(client, url, connectTimeoutMs).catch((error: unknown) => {
      subscriber = undefined;
      throw error;
    }));

  return {
    shared: true,
    async get(key) {
      return (await run("get", () => client.get(kv(key)))) ?? undefined;
    },
    async add(key, value, ttlMs) {
      const px = ttl(ttlMs);
      // SET NX PX is one command: of any number of processes adding the same key, exactly one sees OK.
      const reply = await run("add", () => client.set(kv(key), value, { condition: "NX", expiration: { type: "PX", value: px } }));
      return reply !== null;
    },
    async swap(key, expected, value, ttlMs) {
      const args = value === undefined ? [expected, "del", "", "0"] : [expected, "set", value, String(ttl(ttlMs))];
      return (await run("swap", () => client.eval(SWAP, { keys: [kv(key)], arguments: args }))) === 1;
    },
    async set(key, value, ttlMs) {
      const px = ttl(ttlMs);
      await run("set", () => client.set(kv(key), value, { expiration: { type: "PX", value: px } }));
    },
    async delete(key) {
      await run("delete", () => client.del(kv(key)));
    },
    async keys(keyPrefix) {
      const pattern = `${escapeGlob(kv(keyPrefix))}*`;
      const found = new Set<string>(); // SCAN may return a key more than once
      let cursor = "0";
      do {
        const page = await run("keys", () => client.scan(cursor, { MATCH: pattern, COUNT: 1000 }));
        cursor = String(page.cursor);
        for (const key of page.keys) found.add(String(key).slice(kv("").length));
      } while (cursor !== "0");
      return [...found];
    },
    async publish(channel, message) {
      await run("publish", () => client.publish(channelName(channel), message));
    },
    async subscribe(channel, listener) {
      const connection = await run("subscribe", subscriberConnection);
      // One wrapper per call, so unsubscribing removes this listener only.
      const deliver = (message: string) => {
        try {
          listener(message);
        } catch {
          // A listener's own failure must not break the connection every other listener shares.
        }
      };
      await run("subscribe", () => connection.subscribe(channelName(channel), deliver));
      return async () => {
        if (!closed && connection.isOpen) await run("unsubscribe", () => connection.unsubscribe(channelName(channel), deliver));
      };
    },
    eventStore(eventOptions) {
      return redisEventStore(client, `${prefix}ev:`, eventOptions, run);
    },
    async close() {
      if (closed) return;
      closed = true;
      const connections = [client, ...(subscriber ? [await subscriber.catch(() => undefined)] : [])];
      await Promise.all(connections.map((connection) => connection?.isOpen && connection.close().catch(() => connection.destroy())));
    },
  };
}
