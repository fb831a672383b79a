// What redisStore (over TCP) and upstashStore (over HTTP) send alike, so both keep the same keys in one Redis.

/**
 * swap as one script, which Redis runs atomically: the value is compared and replaced (or deleted)
 * with nothing in between. ARGV: expected, "set" or "del", the new value, its TTL in ms.
 */
export const SWAP = `if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == "del" then redis.call("DEL", KEYS[1]) else redis.call("SET", KEYS[1], ARGV[3], "PX", ARGV[4]) end
return 1`;

/** `*`, `?`, `[`, `]` and `\` are SCAN MATCH's pattern characters; a backslash makes each literal. */
export const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");

/** A TTL in whole milliseconds for PX; `store` names the store in the error. */
export const ttlPx = (store: string, ttlMs: number) => {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RangeError(`${store}: ttlMs must be a positive number of milliseconds, got ${ttlMs}.`);
  return Math.max(1, Math.ceil(ttlMs));
};
