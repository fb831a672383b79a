// redisStore on a real redis-server: the store contract (store-contract.ts), then what only a shared store
// has: separate connections racing on one key, prefixes side by side on one server, pub/sub between
// connections, the SDK's event store, and the credential vault kept in Redis. Without redis-server the
// whole file is one skipped group (test/helpers/needs.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createClient } from "redis";
import { Vault } from "../../src/server/url/vault.js";
import { redisStore, type FleetStore } from "../../src/store/index.js";
import { deferred } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { storeContract } from "../helpers/store-contract.js";

const freshPrefix = () => `test-${randomBytes(6).toString("hex")}:`;

describe("redisStore on a real redis-server", { skip: needs("redis-server") }, () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());

  storeContract({
    name: "redisStore",
    async open() {
      const prefix = freshPrefix();
      return { store: await redisStore({ url: redis.url, prefix }), other: () => redisStore({ url: redis.url, prefix }) };
    },
  });

  describe("redisStore on one server", () => {
    test("two prefixes on one server do not see each other's keys", async () => {
      const one = await redisStore({ url: redis.url, prefix: "app-one:" });
      const two = await redisStore({ url: redis.url, prefix: "app-one:*" }); // a prefix that is a glob of the first
      try {
        await one.set("k", "from one", 60_000);
        await two.set("k", "from two", 60_000);
        assert.equal(await one.get("k"), "from one");
        assert.equal(await two.get("k"), "from two");
        assert.deepEqual(await one.keys(""), ["k"]);
        assert.deepEqual(await two.keys(""), ["k"]);
        assert.equal(await one.add("k", "again", 60_000), false);
        await one.delete("k");
        assert.equal(await two.get("k"), "from two");
      } finally {
        await one.close();
        await two.close();
      }
    });

    test("every key it writes has a time to live", async () => {
      const prefix = freshPrefix();
      const store = await redisStore({ url: redis.url, prefix });
      const raw = createClient({ url: redis.url });
      await raw.connect();
      try {
        await store.add("a", "1", 60_000);
        await store.set("b", "1", 60_000);
        await store.eventStore().storeEvent("stream", { jsonrpc: "2.0", method: "notifications/message" });
        const keys = await raw.keys(`${prefix}*`);
        assert.equal(keys.length, 3);
        for (const key of keys) assert.ok((await raw.pTTL(key)) > 0, `${key} has a TTL`);
        await assert.rejects(store.set("c", "1", 0), /ttlMs must be a positive number/);
      } finally {
        await store.close();
        await raw.close();
      }
    });

    test("a message published by one connection reaches every subscriber on others, until it unsubscribes", async () => {
      const prefix = freshPrefix();
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => redisStore({ url: redis.url, prefix })));
      try {
        const atB: string[] = [];
        const atC: string[] = [];
        let arrived = deferred();
        const unsubscribeB = await b!.subscribe("flow-end", (message) => atB.push(message));
        await c!.subscribe("flow-end", (message) => {
          atC.push(message);
          arrived.resolve();
        });
        await b!.subscribe("other-channel", () => assert.fail("a message on another channel"));
        await a!.publish("flow-end", "one");
        await arrived.promise;
        assert.deepEqual(atC, ["one"]);
        await unsubscribeB();
        arrived = deferred();
        await a!.publish("flow-end", "two");
        await arrived.promise;
        assert.deepEqual(atC, ["one", "two"]);
        // Redis delivers in order per connection: b had "one" before "two" was published, and never "two".
        assert.deepEqual(atB, ["one"]);
        const other = await redisStore({ url: redis.url, prefix: freshPrefix() });
        await other.publish("flow-end", "another prefix");
        arrived = deferred();
        await a!.publish("flow-end", "three");
        await arrived.promise;
        assert.deepEqual(atC, ["one", "two", "three"], "a message under another prefix is not delivered");
        await other.close();
      } finally {
        await Promise.all([a, b, c].map((store) => store!.close()));
      }
    });

    test("connection errors name the server and never its password", async () => {
      const secret = "s3cr3t-pa55word";
      await assert.rejects(redisStore({ url: `redis://admin:${secret}@127.0.0.1:1/2`, connectTimeoutMs: 2000 }), (error: Error) => {
        assert.match(error.message, /redis:\/\/127\.0\.0\.1:1\/2/);
        assert.ok(!error.message.includes(secret));
        assert.ok(!JSON.stringify(error, Object.getOwnPropertyNames(error)).includes(secret));
        return true;
      });
      await assert.rejects(
        redisStore({ url: `redis://nobody:${secret}@127.0.0.1:${redis.port}`, connectTimeoutMs: 2000 }),
        (error: Error) => {
          assert.match(error.message, new RegExp(`cannot connect to Redis at redis://127\\.0\\.0\\.1:${redis.port}`));
          assert.ok(!error.message.includes(secret));
          return true;
        },
      );
      await assert.rejects(redisStore({ url: "not a url" }), /url is not a valid redis/);
    });
  });

  describe("redisStore's event store (the SDK's EventStore)", () => {
    let store: FleetStore;
    before(async () => {
      store = await redisStore({ url: redis.url, prefix: freshPrefix() });
    });
    after(() => store.close());

    const numberOf = (sent: unknown) => (sent as { params: { n: number } }).params.n;
    const message = (n: number) => ({ jsonrpc: "2.0" as const, method: "notifications/progress", params: { n } });

    test("replays only the events after the given id, in order, from another instance", async () => {
      const writer = store.eventStore();
      const ids = [];
      for (let n = 0; n < 450; n++) ids.push(await writer.storeEvent("stream-1", message(n)));
      await writer.storeEvent("stream-2", message(-1));
      assert.equal(new Set(ids).size, ids.length);
      const reader = store.eventStore(); // another instance's event store, as after a restart on another member
      assert.equal(await reader.getStreamIdForEventId!(ids[9]!), "stream-1");
      const sent: { id: string; n: number }[] = [];
      const streamId = await reader.replayEventsAfter(ids[9]!, {
        send: async (id, sentMessage) => void sent.push({ id, n: numberOf(sentMessage) }),
      });
      assert.equal(streamId, "stream-1");
      assert.deepEqual(
        sent.map((e) => e.n),
        Array.from({ length: 440 }, (_, i) => i + 10),
      );
      assert.deepEqual(
        sent.map((e) => e.id),
        ids.slice(10),
      );
    });

    test("the SDK's own stream names stay apart between two event stores (two sessions)", async () => {
      const one = store.eventStore();
      const two = store.eventStore();
      const first = await one.storeEvent("_GET_stream", message(1));
      await one.storeEvent("_GET_stream", message(2));
      await two.storeEvent("_GET_stream", message(99));
      const sent: number[] = [];
      await two.replayEventsAfter(first, { send: async (_, m) => void sent.push(numberOf(m)) });
      assert.deepEqual(sent, [2]);
    });

    test("a stream keeps its latest maxEventsPerStream events; an id trimmed away is refused, not replayed from", async () => {
      const events = store.eventStore({ maxEventsPerStream: 3 });
      const ids = [];
      for (let n = 0; n < 6; n++) ids.push(await events.storeEvent("s", message(n)));
      const sent: number[] = [];
      await events.replayEventsAfter(ids[3]!, { send: async (_, m) => void sent.push(numberOf(m)) });
      assert.deepEqual(sent, [4, 5]);
      await assert.rejects(events.replayEventsAfter(ids[0]!, { send: async () => assert.fail("nothing is sent") }), /no longer kept/);
    });

    test("malformed ids: no stream (the SDK answers 400), and replay refuses them without a command", async () => {
      const events = store.eventStore();
      const malformed = [
        "",
        "x",
        "a.b.c",
        "AAAAAAAAAAAAAAAA.!!.1-0",
        "AAAAAAAAAAAAAAAA.cw.1-0.extra",
        "AAAAAAAAAAAAAAAA.cw.1-0\nid: 2",
        "x".repeat(10_000),
      ];
      for (const id of malformed) {
        assert.equal(await events.getStreamIdForEventId!(id), undefined, JSON.stringify(id.slice(0, 40)));
        await assert.rejects(events.replayEventsAfter(id, { send: async () => assert.fail("nothing is sent") }), /not an event id/);
      }
      // Well formed, never written: a clear refusal too.
      await assert.rejects(
        events.replayEventsAfter("AAAAAAAAAAAAAAAA.cw.1-0", { send: async () => assert.fail("nothing is sent") }),
        /no longer kept/,
      );
    });

    test("the SDK's priming event ({}) is not replayed as a message", async () => {
      const events = store.eventStore();
      const priming = await events.storeEvent("s", {} as never);
      await events.storeEvent("s", message(1));
      const sent: unknown[] = [];
      await events.replayEventsAfter(priming, { send: async (_, m) => void sent.push(m) });
      assert.deepEqual(sent, [message(1)]);
    });
  });

  test("the credential vault on Redis: another connection opens what one sealed; Redis holds neither secret nor principal", async () => {
    const prefix = freshPrefix();
    const key = randomBytes(32);
    const alice = { issuer: "http://127.0.0.1:1", sub: "alice-principal" };
    const secret = "sk_live_never-readable-in-redis";
    const first = await redisStore({ url: redis.url, prefix });
    const second = await redisStore({ url: redis.url, prefix });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      await new Vault(first, key).put(alice, "payment", { card: secret });
      const vault = new Vault(second, key);
      assert.deepEqual(await vault.get(alice, "payment"), { card: secret });
      assert.deepEqual(
        (await vault.list(alice)).map((entry) => entry.name),
        ["payment"],
      );
      const everything = (await Promise.all((await raw.keys(`${prefix}*`)).map(async (k) => `${k}=${await raw.get(k)}`))).join("\n");
      assert.ok(everything.length > 0);
      assert.ok(!everything.includes(secret));
      assert.ok(!everything.includes("alice-principal"));
      assert.equal(await vault.revoke(alice, "payment"), true);
      assert.equal(await new Vault(first, key).get(alice, "payment"), undefined);
    } finally {
      await first.close();
      await second.close();
      await raw.close();
    }
  });
});
