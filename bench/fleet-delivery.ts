// Completion delivery across fleet members, for bench/fleet.ts: a 2025-11-25 session held by member A
// (an SDK Client through HAProxy), URL flows finished one at a time on member B's page, and the time from
// the page's request until the client on A hears of it (notifications/elicitation/complete, else the
// tool's result). A Redis subscriber of the bench's own on the flow-end channel splits that time into B's
// part (the page's request until the end is published) and A's (the publish until the client hears),
// and Redis's MONITOR timestamps each command about the flow, which splits it hop by hop (`hops`).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "redis";
import { killOnExit } from "../test/helpers/cleanup.js";
import type { Fleet } from "../test/helpers/fleet.js";
import { watchGetStream } from "../test/helpers/get-stream.js";
import type { Era, Throughput } from "./fleet-load.js";

const LOAD_SCRIPT = fileURLToPath(new URL("./fleet-load.ts", import.meta.url));

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export interface Delivery {
  /** ms from the page's request to the client hearing of the end, sorted. */
  samples: number[];
  /** ms the page took to answer (it answers after storing and publishing the end), sorted. */
  page: number[];
  /** ms from the page's request until the bench's subscriber heard the end published (B's part), sorted. */
  published: number[];
  /** ms from that until the client heard (A's part: its subscriber, the store read, the notification through its event store and HAProxy), sorted. */
  afterPublish: number[];
  /**
   * ms per hop, sorted, from Redis MONITOR's timestamps of the commands naming the flow: the page's request
   * until B's read of the flow reaches Redis (HTTP to B and B's event loop), that read until B's end is
   * stored (B handles the reply), until it is published, until A writes the notice to its event store (A
   * hears the message, wakes the waiter, the tool's code sends the notice), and until the client hears it
   * (A handles that write's reply, the SSE event through HAProxy).
   */
  hops: Record<HopName, number[]>;
  timedOut: number;
  notified: number;
  holder: string;
  pageOn: string;
}

export const HOPS = [
  "page → B reads",
  "B reads → stored",
  "stored → published",
  "published → A writes notice",
  "A writes → client hears",
] as const;
export type HopName = (typeof HOPS)[number];

/** Unix ms now, on the clock Redis MONITOR stamps commands with. */
const unixNow = () => performance.timeOrigin + performance.now();

/** A session on one member, URL flows finished on another member's page, one at a time; the first `warm` are not counted. */
export async function completionDelivery(fleet: Fleet, redisUrl: string, count: number, warm = 10): Promise<Delivery> {
  let holder = "";
  // When each flow's end was published: the members' channel, as the holder's subscriber hears it.
  const publishedAt = new Map<string, number>();
  const spy = createClient({ url: redisUrl });
  spy.on("error", () => {});
  await spy.connect();
  await spy.subscribe(`${fleet.prefix}ch:flow-end`, (message) => {
    publishedAt.set((JSON.parse(message) as { id: string }).id, performance.now());
  });
  let flowId = "";
  // Every command Redis runs, stamped by Redis: those naming the current flow are kept (unix ms, the line).
  const monitor = createClient({ url: redisUrl });
  monitor.on("error", () => {});
  await monitor.connect();
  let commands: { at: number; line: string }[] = [];
  await monitor.monitor((line) => {
    const text = String(line);
    if (flowId && text.includes(flowId)) commands.push({ at: Number(text.slice(0, text.indexOf(" "))) * 1000, line: text });
  });
  // The page is finished only once the client's GET stream is open, so a notice sent at once is heard.
  const getStream = watchGetStream();
  // The client's answer to elicitation/create, POSTed to A: the page is opened once A has taken it, as a
  // person's browser finishes long after, so A's handling of the answer is not timed as delivery.
  let answered: (() => void) | undefined;
  const recording: typeof fetch = async (input, init) => {
    const response = await getStream.fetch(input, init);
    holder ||= response.headers.get("x-served-by") ?? "";
    if (typeof init?.body === "string" && /"result":\{"action":"accept"/.test(init.body)) answered?.();
    return response;
  };
  const client = new Client({ name: "fleet-bench", version: "1.0.0" }, {
    capabilities: { elicitation: { url: {} } },
    supportedProtocolVersions: ["2025-11-25"],
  } as never);
  let clicked = 0;
  let clickedUnix = 0;
  const page: number[] = [];
  let heard: ((at: number) => void) | undefined;
  let notified = 0;
  client.setNotificationHandler("notifications/elicitation/complete", () => {
    notified++;
    heard?.(performance.now());
  });
  client.setRequestHandler("elicitation/create", async (request) => {
    flowId = new URL((request.params as { url: string }).url).pathname.split("/").pop()!;
    const on = fleet.members.find((m) => m.name !== holder)!;
    // The person's browser, after the client has answered: the page on another member ends the flow.
    const pageUrl = new URL(`done/${flowId}`, on.pageUrl.href.endsWith("/") ? on.pageUrl.href : `${on.pageUrl.href}/`);
    const taken = new Promise<void>((resolve) => (answered = resolve));
    setImmediate(() => {
      void Promise.all([getStream.opened, taken])
        .then(() => {
          clicked = performance.now();
          clickedUnix = unixNow();
          return fetch(pageUrl);
        })
        .then(async (r) => {
          page.push(performance.now() - clicked);
          const body = await r.text();
          if (!r.ok) console.error(`page ${pageUrl.href}: ${r.status} ${body}`);
        })
        .catch((error: unknown) => console.error(`page ${pageUrl.href}: ${(error as Error).message}`));
    });
    return { action: "accept" };
  });
  await client.connect(new StreamableHTTPClientTransport(fleet.url, { fetch: recording }));
  const samples: number[] = [];
  const published: number[] = [];
  const afterPublish: number[] = [];
  const hops = Object.fromEntries(HOPS.map((h) => [h, [] as number[]])) as Record<HopName, number[]>;
  let timedOut = 0;
  try {
    // A flow that does not complete within 10 s is counted, not waited for; three in a row end the part.
    for (let i = 0; i < warm + count && timedOut < 3; i++) {
      if (i === warm) {
        notified = 0;
        page.length = 0;
      }
      commands = [];
      const notice = new Promise<number>((resolve) => (heard = resolve));
      const result = client.callTool({ name: "connect", arguments: { via: "request" } }, { timeout: 10_000 }).then(() => performance.now());
      try {
        const at = await Promise.race([notice, result]);
        await result;
        if (i < warm) continue;
        samples.push(at - clicked);
        const end = publishedAt.get(flowId);
        if (end !== undefined) {
          published.push(end - clicked);
          afterPublish.push(at - end);
        }
        const heardUnix = clickedUnix + (at - clicked);
        const first = (test: (line: string) => boolean, after: number) => commands.find((c) => c.at >= after && test(c.line))?.at;
        const read = first((l) => /"GET" "[^"]*url-flow:/.test(l), clickedUnix - 1);
        const stored = read && first((l) => /"SET" "[^"]*url-flow-end:/.test(l), read);
        const pub = stored && first((l) => l.includes('"PUBLISH"'), stored);
        const wrote = pub && first((l) => l.includes('"XADD"') && l.includes("elicitation/complete"), pub);
        if (read && stored && pub && wrote) {
          const times = [clickedUnix, read, stored, pub, wrote, heardUnix];
          HOPS.forEach((hop, k) => hops[hop].push(times[k + 1]! - times[k]!));
        }
      } catch {
        timedOut++;
      }
    }
  } finally {
    await client.close();
    await Promise.all([spy.close(), monitor.close()]);
  }
  for (const list of [samples, page, published, afterPublish, ...Object.values(hops)]) list.sort((a, b) => a - b);
  return {
    samples,
    page,
    published,
    afterPublish,
    hops,
    timedOut,
    notified,
    holder,
    pageOn: fleet.members.find((m) => m.name !== holder)!.name,
  };
}

/**
 * `during` timed while a forked process (its own event loop, not the timing client's) runs `workers`
 * clients of `era` round trips on `url`: back to back, or starting `rate` per second.
 */
export async function underLoad<T>(
  url: URL,
  era: Era,
  workers: number,
  rate: number | undefined,
  during: () => Promise<T>,
): Promise<{ value: T; load: Throughput }> {
  const args = [url.href, era, String(workers), ...(rate ? [String(rate)] : [])];
  const child = killOnExit(fork(LOAD_SCRIPT, args, { execArgv: ["--import", "tsx"], stdio: "inherit" }));
  const messages: unknown[] = [];
  let wake: (() => void) | undefined;
  child.on("message", (m) => (messages.push(m), wake?.()));
  const next = (what: string) =>
    new Promise<unknown>((resolve, reject) => {
      const check = () => (messages.length ? resolve(messages.shift()) : undefined);
      child.once("exit", (code) => reject(new Error(`fleet-load exited (${code}) before ${what}`)));
      wake = check;
      check();
    });
  await next("starting");
  // A second of load first, so delivery is timed at the load's steady state.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  try {
    const value = await during();
    child.send("stop");
    return { value, load: (await next("reporting")) as Throughput };
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
