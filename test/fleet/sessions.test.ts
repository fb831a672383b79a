// 2025-era sessions in a fleet of serveHttp members sharing one real Redis: through a real HAProxy,
// sticky routing keeps a session on its member, and without it requests landing elsewhere are passed
// to the holder; in-process members show adoption once a member has stopped, owner binding on every
// member, and the refusal of a store that cannot be shared.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { memoryStore, redisStore } from "../../src/store/index.js";
import type { FleetStore } from "../../src/store/types.js";
import { startFleet } from "../helpers/fleet.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { resultJson } from "../helpers/results.js";
import { accept, answerWith, makeFactory } from "../helpers/server-fixtures.js";

const REVISION = "2025-11-25";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: REVISION, capabilities: { elicitation: { form: {} } }, clientInfo: { name: "raw", version: "1.0.0" } },
};

let redis: RedisServer;
let run = 0;
// Members in this process need redis-server; member processes behind HAProxy need both. Without them their
// groups are skipped, and the hooks set nothing up (test/helpers/needs.ts).
const noRedis = needs("redis-server");
const noFleet = needs("redis-server", "haproxy");
before(async () => {
  if (!noRedis) redis = await startRedis();
});
after(() => redis?.stop());

interface Member {
  http: HttpServerHandle;
  store: FleetStore;
  stop(): Promise<void>;
}

/** A fleet of serveHttp members on one Redis prefix (each test its own prefix). */
async function fleet(names: string[], maxSessions?: number): Promise<{ members: Member[]; store: FleetStore; stop(): Promise<void> }> {
  const prefix = `fleet-sessions-${++run}:`;
  const { factory } = makeFactory();
  const members: Member[] = [];
  for (const name of names) {
    const store = await redisStore({ url: redis.url, prefix });
    const http = await serveHttp(factory, { fleet: { store, instance: name }, maxSessions, onerror: () => {} });
    let stopped = false;
    members.push({
      http,
      store,
      async stop() {
        if (stopped) return;
        stopped = true;
        await http.close();
        await store.close();
      },
    });
  }
  const store = await redisStore({ url: redis.url, prefix });
  return {
    members,
    store,
    async stop() {
      await Promise.all(members.map((m) => m.stop()));
      await store.close();
    },
  };
}

/** An SDK client whose every request goes to the member `target()` names: a balancer the test steers. */
async function steeredClient(target: () => HttpServerHandle) {
  const steer: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, target().url), init);
  };
  const client = new Client({ name: "test-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    supportedProtocolVersions: [REVISION],
  } as never);
  const transport = new StreamableHTTPClientTransport(target().url, { fetch: steer });
  await client.connect(transport);
  answerWith(client, [accept({ confirmBooking: true, seatPreference: "window" })]);
  return { client, transport };
}

/** A bare tools/list for session `sid`, sent to one member. */
const toolsList = (url: URL, sid: string) =>
  fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": REVISION },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  });

async function bookRound(client: Client, city: string) {
  const result = resultJson(await client.callTool({ name: "book", arguments: { city } }));
  assert.equal(result.action, "accept");
  assert.equal(result.seat, "window");
}

/** A 2025-11-25 SDK client on `url` that answers every form with yes, and the member (HAProxy's x-served-by) of each response. */
async function clientThroughProxy(url: URL) {
  const servedBy: string[] = [];
  const tracking: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    servedBy.push(res.headers.get("x-served-by") ?? "?");
    return res;
  };
  const client = new Client({ name: "test-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    supportedProtocolVersions: [REVISION],
  } as never);
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: tracking }));
  const book = async () => ((await client.callTool({ name: "book", arguments: {} })).content as { text: string }[])[0]!.text;
  return { client, servedBy, book };
}

describe("2025-era sessions through HAProxy (member processes)", { skip: noFleet }, () => {
  test("sticky routing: every request of a session lands on the member that started it, form rounds included", async () => {
    const fleet = await startFleet({ redisUrl: redis.url, sticky: true, size: 3 });
    try {
      const { client, servedBy, book } = await clientThroughProxy(fleet.url);
      const holder = servedBy[0]!;
      assert.ok(
        fleet.members.some((m) => m.name === holder),
        `served by ${holder}`,
      );
      for (let round = 0; round < 5; round++) assert.equal(await book(), `booked=true by ${holder}`);
      assert.ok(servedBy.length >= 12, `${servedBy.length} requests`); // initialize, initialized, GET, and per round the call and the answer
      assert.deepEqual(new Set(servedBy), new Set([holder]), `requests went to ${servedBy.join(", ")}`);
      await client.close();
    } finally {
      await fleet.stop();
    }
  });

  test("round robin without stickiness: requests land on every member, which pass them to the holder, and rounds still work", async () => {
    const fleet = await startFleet({ redisUrl: redis.url, sticky: false, size: 3 });
    try {
      const { client, servedBy, book } = await clientThroughProxy(fleet.url);
      const holder = servedBy[0]!;
      for (let round = 0; round < 5; round++) assert.equal(await book(), `booked=true by ${holder}`);
      assert.ok(new Set(servedBy).size >= 2, `requests went to ${[...new Set(servedBy)].join(", ")} only`);
      await client.close();
    } finally {
      await fleet.stop();
    }
  });
});

describe("2025-era sessions across fleet members", { skip: noRedis }, () => {
  test("a session started on A continues on B once A has stopped: B adopts it and a form elicitation round works", async () => {
    const { members, stop } = await fleet(["a", "b"]);
    const [a, b] = members as [Member, Member];
    let target = a.http;
    try {
      const { client, transport } = await steeredClient(() => target);
      const sessionId = transport.sessionId;
      await bookRound(client, "Oslo");
      assert.equal(a.http.sessionCount, 1);
      await a.stop();
      target = b.http;
      await bookRound(client, "Lima");
      assert.equal(transport.sessionId, sessionId, "the client kept its session");
      assert.equal(b.http.sessionCount, 1, "B holds the adopted session");
      await client.close();
    } finally {
      await stop();
    }
  });

  test("a request for a session whose member lives is passed to that member, elicitation answers included", async () => {
    const { members, stop } = await fleet(["a", "b"]);
    const [a, b] = members as [Member, Member];
    let target = a.http;
    try {
      const { client } = await steeredClient(() => target);
      target = b.http; // the balancer now sends everything to B, which does not hold the session
      await bookRound(client, "Quito");
      await bookRound(client, "Cusco");
      assert.equal(a.http.sessionCount, 1, "A still holds the session");
      assert.equal(b.http.sessionCount, 0, "B adopted nothing");
      await client.close();
    } finally {
      await stop();
    }
  });

  test("a member at its session limit still passes requests on to the holder, and refuses only to adopt", async () => {
    const { members, store, stop } = await fleet(["a", "b"], 1);
    const [a, b] = members as [Member, Member];
    try {
      const onB = await steeredClient(() => b.http); // B now holds as many sessions as it may
      await assert.rejects(
        steeredClient(() => b.http),
        /Server busy/,
      );
      let target = a.http;
      const { client } = await steeredClient(() => target);
      target = b.http; // the balancer sends A's session to the full B: it is passed on, not refused
      await bookRound(client, "Lima");
      assert.deepEqual([a.http.sessionCount, b.http.sessionCount], [1, 1]);
      // A session whose member is gone is another matter: B would have to adopt it.
      const sid = randomUUID();
      await store.set(`fleet:session:${sid}`, JSON.stringify({ instance: "gone", initialize }), 60_000);
      const res = await toolsList(b.http.url, sid);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /Server busy: it holds its limit of 1 sessions/);
      await Promise.all([client.close(), onB.client.close()]);
    } finally {
      await stop();
    }
  });

  test("a recorded session whose member is gone is adopted by the member a raw request reaches", async () => {
    const { members, store, stop } = await fleet(["b"]);
    const [b] = members as [Member];
    try {
      const sid = randomUUID();
      await store.set(`fleet:session:${sid}`, JSON.stringify({ instance: "gone", initialize }), 60_000);
      const res = await toolsList(b.http.url, sid);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(text, /"name":"book"/);
      assert.equal(b.http.sessionCount, 1);
      const record = JSON.parse((await store.get(`fleet:session:${sid}`))!);
      assert.equal(record.instance, "b", "the record names the adopting member");
    } finally {
      await stop();
    }
  });

  test("another user's session is answered like an unknown one on every member, and not adopted", async () => {
    const { members, store, stop } = await fleet(["a", "b"]);
    try {
      const sid = randomUUID();
      const record = { owner: "https://issuer.example#alice", instance: "gone", initialize };
      await store.set(`fleet:session:${sid}`, JSON.stringify(record), 60_000);
      for (const member of members) {
        const res = await fetch(member.http.url, {
          method: "POST",
          headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": REVISION },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        });
        assert.equal(res.status, 404);
        const body = (await res.json()) as { error: { code: number; message: string } };
        assert.equal(body.error.code, -32001);
        assert.match(body.error.message, /Session not found/);
        assert.equal(member.http.sessionCount, 0);
      }
      assert.equal(JSON.parse((await store.get(`fleet:session:${sid}`))!).instance, "gone", "nobody adopted it");
    } finally {
      await stop();
    }
  });

  test("a session id of another shape is unknown without a look in the store", async () => {
    const { members, stop } = await fleet(["a"]);
    try {
      const res = await fetch(members[0]!.http.url, {
        method: "POST",
        headers: { ...HEADERS, "mcp-session-id": "../../etc/passwd*", "mcp-protocol-version": REVISION },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      assert.equal(res.status, 404);
    } finally {
      await stop();
    }
  });

  test("fleet.store must be shared: a store without publish, subscribe and eventStore is refused", async () => {
    const { factory } = makeFactory();
    const store = memoryStore();
    await assert.rejects(
      serveHttp(factory, { fleet: { store: store as unknown as FleetStore } }),
      (error: Error) =>
        error instanceof TypeError && /fleet\.store/.test(error.message) && /publish, subscribe, eventStore/.test(error.message),
    );
    await assert.rejects(serveHttp(factory, { fleet: { store: store as unknown as FleetStore, instance: "a b" } }), TypeError);
    await store.close();
  });

  test("a fleet member with auth must be told the public URL it sits behind", async () => {
    const { factory } = makeFactory();
    const store = { publish() {}, subscribe() {}, eventStore() {} } as unknown as FleetStore;
    await assert.rejects(
      serveHttp(factory, { fleet: { store }, auth: { issuer: "https://auth.example.com" } }),
      (error: Error) => error instanceof TypeError && /auth\.resource, the public URL clients connect to/.test(error.message),
    );
  });
});
