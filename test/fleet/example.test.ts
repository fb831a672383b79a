// examples/fleet-server.ts (shown in docs/server/run-a-fleet.md), run as two member processes on one real Redis:
// a 2025-11-25 session moves from a member that stops to the other one, and a 2026-07-28 call whose
// rounds land on alternate members books once (the shared state key and the shared call ledger).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { clientFor } from "../helpers/mcp.js";
import { exited, stopChild } from "../helpers/processes.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { killOnExit } from "../helpers/cleanup.js";
import { root } from "../helpers/doc-pages.js";

let redis: RedisServer;
const stateKey = randomBytes(32).toString("base64url");
const members: ChildProcess[] = [];

async function startMember(instance: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", "examples/fleet-server.ts"], {
      cwd: root,
      env: { ...process.env, REDIS_URL: redis.url, MCP_ELICIT_STATE_KEY: stateKey, INSTANCE: instance, PORT: "0" },
      stdio: ["ignore", "inherit", "pipe"],
    }),
  );
  members.push(child);
  let seen = "";
  child.stderr!.setEncoding("utf8");
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on("data", (chunk: string) => {
      seen += chunk;
      const match = seen.match(/^listening (\S+)$/m);
      if (match) resolve(new URL(match[1]!));
    });
    child.once("exit", (code) => reject(new Error(`member ${instance} exited with ${code}: ${seen}`)));
  });
  return { child, url };
}

/** A fetch that sends each request to the member `pick()` names: the balancer, steered by the test. */
const steered =
  (pick: () => URL): typeof fetch =>
  (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, pick()), init);
  };

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

// Without redis-server the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("redis-server");
before(async () => {
  if (!skip) redis = await startRedis();
});
after(async () => {
  await Promise.all(members.map((child) => stopChild(child)));
  await redis?.stop();
});

describe("examples/fleet-server.ts", { skip }, () => {
  test("a 2025-11-25 session continues on B after A stops (SIGTERM), with a form round on each", async () => {
    const a = await startMember("a");
    const b = await startMember("b");
    let target = a.url;
    const client = clientFor("2025-11-25");
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirmBooking: true } }));
    const transport = new StreamableHTTPClientTransport(a.url, { fetch: steered(() => target) });
    await client.connect(transport);
    assert.match(text(await client.callTool({ name: "book_trip", arguments: { destination: "Barcelona" } })), /^Booked BAR-\d+$/);
    a.child.kill("SIGTERM");
    await exited(a.child);
    target = b.url;
    assert.match(text(await client.callTool({ name: "book_trip", arguments: { destination: "Lisbon" } })), /^Booked LIS-\d+$/);
    await client.close();
    b.child.kill("SIGTERM");
    await once(b.child, "exit");
  });

  test("a 2026-07-28 call whose rounds land on alternate members completes once", async () => {
    const a = await startMember("c");
    const b = await startMember("d");
    let turn = 0;
    const client: Client = clientFor("2026-07-28");
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => (asked++, { action: "accept", content: { confirmBooking: true } }));
    // Every request goes to the other member than the one before.
    await client.connect(new StreamableHTTPClientTransport(a.url, { fetch: steered(() => (turn++ % 2 === 0 ? a.url : b.url)) }));
    assert.match(text(await client.callTool({ name: "book_trip", arguments: { destination: "Rome" } })), /^Booked ROM-\d+$/);
    assert.equal(asked, 1);
    await client.close();
  });
});
