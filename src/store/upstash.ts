// Redis over HTTP, where a runtime has no TCP sockets (Workers, edge functions): Upstash's REST API, one
// POST per command with a bearer token. The same commands and key layout as redisStore (`<prefix>kv:<key>`),
// so processes on redisStore and Workers on upstashStore share one call ledger. No pub/sub over REST.
import type { KeyValueStore } from "./types.js";
import { escapeGlob, SWAP, ttlPx } from "./redis-commands.js";

export interface UpstashStoreOptions {
  /** The REST URL (default: $UPSTASH_REDIS_REST_URL); https://, or http:// on a loopback address only. */
  url?: string;
  /** The REST token (default: $UPSTASH_REDIS_REST_TOKEN). It is sent as a bearer token and never appears in an error. */
  token?: string;
  /** Put before every key, as redisStore's prefix (default "mcp-elicit:"). */
  prefix?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];

/** The REST URL, checked: the token must not cross a network in the clear. */
function restUrl(raw: string | undefined): URL {
  if (!raw) throw new TypeError("upstashStore: url is required (or set $UPSTASH_REDIS_REST_URL).");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError("upstashStore: url must be an absolute https:// URL.");
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) return url;
  throw new TypeError(`upstashStore: url must be https:// (http:// only on a loopback address), got ${url.protocol}//${url.host}.`);
}

/** A store on a Redis reached over Upstash's REST API; `shared`, so kits given it need an explicit stateKey. */
export function upstashStore(options: UpstashStoreOptions = {}): KeyValueStore {
  const url = restUrl(options.url ?? env("UPSTASH_REDIS_REST_URL"));
  const token = options.token ?? env("UPSTASH_REDIS_REST_TOKEN");
  if (!token) throw new TypeError("upstashStore: token is required (or set $UPSTASH_REDIS_REST_TOKEN).");
  const prefix = options.prefix ?? "mcp-elicit:";
  const send = options.fetch ?? fetch;
  const kv = (key: string) => `${prefix}kv:${key}`;
  const ttl = (ttlMs: number) => ttlPx("upstashStore", ttlMs);
  let closed = false;

  // Errors name the operation, the host and what the server said, never the token.
  const command = async <T>(operation: string, args: Array<string | number>): Promise<T> => {
    if (closed) throw new Error(`upstashStore: ${operation} after close().`);
    const fail = (reason: string) => new Error(`upstashStore: ${operation} failed at ${url.host}: ${reason.replaceAll(token, "***")}`);
    let response: Response;
    try {
      response = await send(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(args),
      });
    } catch (error) {
      throw fail((error as Error).message);
    }
    const text = await response.text();
    let body: { result?: T; error?: string } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON: a proxy's page or an outage; the status says enough.
    }
    if (!response.ok || !body || body.error !== undefined) throw fail(`${response.status} ${body?.error ?? text.slice(0, 200)}`);
    return body.result as T;
  };

  return {
    shared: true,
    async get(key) {
      return (await command<string | null>("get", ["GET", kv(key)])) ?? undefined;
    },
    async add(key, value, ttlMs) {
      // SET NX PX is one command: of any number of callers adding the same key, exactly one sees OK.
      return (await command<string | null>("add", ["SET", kv(key), value, "NX", "PX", ttl(ttlMs)])) !== null;
    },
    async swap(key, expected, value, ttlMs) {
      const args = value === undefined ? [expected, "del", "", "0"] : [expected, "set", value, String(ttl(ttlMs))];
      return (await command<number>("swap", ["EVAL", SWAP, 1, kv(key), ...args])) === 1;
    },
    async set(key, value, ttlMs) {
      await command("set", ["SET", kv(key), value, "PX", ttl(ttlMs)]);
    },
    async delete(key) {
      await command("delete", ["DEL", kv(key)]);
    },
    async keys(keyPrefix) {
      const pattern = `${escapeGlob(kv(keyPrefix))}*`;
      const found = new Set<string>(); // SCAN may return a key more than once
      let cursor = "0";
      do {
        const [next, keys] = await command<[string | number, string[]]>("keys", ["SCAN", cursor, "MATCH", pattern, "COUNT", 1000]);
        cursor = String(next);
        for (const key of keys) found.add(key.slice(kv("").length));
      } while (cursor !== "0");
      return [...found];
    },
    async close() {
      closed = true;
    },
  };
}
