// What the tests of a dying member share: a sticky two-member fleet on its own redis-server for one
// describe block, a fetch that notes which member holds the session, and the charge counter the
// fleet-member fixture keeps in Redis (how often a ctx.step really ran).
import { after, before } from "node:test";
import { createClient } from "redis";
import { startFleet, type Fleet, type FleetMember } from "./fleet.js";
import { startRedis, type RedisServer } from "./redis.js";

/** A sticky fleet of `size` members on a fresh redis-server, started before the block's tests and stopped after them. */
export function stickyFleet(size = 2): { readonly fleet: Fleet; readonly redis: RedisServer } {
  const started = {} as { fleet: Fleet; redis: RedisServer };
  before(async () => {
    started.redis = await startRedis();
    started.fleet = await startFleet({ size, redisUrl: started.redis.url, sticky: true });
  });
  after(async () => {
    await started.fleet?.stop();
    await started.redis?.stop();
  });
  return started;
}

/**
 * A fetch for the client's transport that notes the member which answered the session's initialize
 * (HAProxy's x-served-by) and hands every response to `seen`; `holder()` is that member.
 */
export function holderTracking(fleet: Fleet, seen?: (body: string, res: Response) => void) {
  let name: string | undefined;
  const tracked: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const body = typeof init?.body === "string" ? init.body : "";
    if (!name && body.includes('"initialize"')) name = res.headers.get("x-served-by") ?? undefined;
    seen?.(body, res);
    return res;
  };
  const holder = (): FleetMember => {
    const member = fleet.members.find((m) => m.name === name);
    if (!member) throw new Error(`the session's member is not known (x-served-by: ${name})`);
    return member;
  };
  return { fetch: tracked, holder };
}

/** How many times the fixture's charge step ran for `callId`. */
export async function chargesFor(redisUrl: string, callId: string): Promise<string | null> {
  const counters = createClient({ url: redisUrl });
  await counters.connect();
  try {
    return await counters.get(`test:charged:${callId}`);
  } finally {
    await counters.close();
  }
}

/** A tool result's first text, or the result as JSON. */
export const textOf = (result: unknown): string =>
  (result as { content?: { text?: string }[] }).content?.[0]?.text ?? JSON.stringify(result);
