// Opening node-redis connections for redisStore: the package is an optional peer, loaded only here, and
// every error names the server's address without the password a redis:// URL may carry.

// node-redis 6 speaks RESP3 by default; the type follows what createClient returns for our options.
type Connectable = { connect(): Promise<unknown>; destroy(): void };

/** `redis://user:secret@host:6379/0` → `redis://host:6379/0`: what may appear in a message or a log. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(an unparseable Redis URL)";
  }
}

/** Removes the URL's password (and user) from any text, in case a library quotes the URL back. */
export function scrubSecrets(text: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text;
  }
  let out = text.split(url).join(redisAddress(url));
  for (const secret of [parsed.password, decodeURIComponent(parsed.password)]) if (secret) out = out.split(secret).join("***");
  return out;
}

async function loadRedis(): Promise<typeof import("redis")> {
  try {
    return await import("redis");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND")
      throw new Error("redisStore needs the redis package (node-redis): npm install redis");
    throw error;
  }
}

export interface ConnectOptions {
  url: string;
  connectTimeoutMs: number;
}

/** A connected client. It reconnects by itself after an outage; commands sent while it is down fail at once instead of queueing. */
export async function connectRedis({ url, connectTimeoutMs }: ConnectOptions) {
  const address = redisAddress(url);
  try {
    new URL(url);
  } catch {
    throw new TypeError(`redisStore: url is not a valid redis:// or rediss:// URL (got ${address}).`);
  }
  const { createClient } = await loadRedis();
  let lastError: unknown;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // After a successful start the client retries for good (an outage ends); the first connect is bounded below.
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  });
  // node-redis emits 'error' on every failed (re)connect; without a listener Node would crash the process.
  client.on("error", (error: unknown) => (lastError = error));
  return startWithin(client, connectTimeoutMs, () => lastError, url);
}

/** A second connection to the same server (pub/sub needs one of its own). */
export async function duplicateRedis(client: RedisClient, url: string, connectTimeoutMs: number) {
  let lastError: unknown;
  const copy = client.duplicate();
  copy.on("error", (error: unknown) => (lastError = error));
  return startWithin(copy, connectTimeoutMs, () => lastError, url);
}

async function startWithin<C extends Connectable>(client: C, ms: number, lastError: () => unknown, url: string): Promise<C> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  try {
    await Promise.race([client.connect(), timeout]);
    return client;
  } catch (error) {
    client.destroy();
    const reason = describe(lastError() ?? error);
    throw new Error(scrubSecrets(`redisStore: cannot connect to Redis at ${redisAddress(url)} within ${ms} ms (${reason}).`, url));
  } finally {
    clearTimeout(timer);
  }
}

export function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) return (error as { code?: string }).code ?? error.message;
  return String(error);
}

export type RedisClient = Awaited<ReturnType<typeof connectRedis>>;
