// upstashStore on a real redis-server, reached over HTTP as Upstash's REST API is: a stand-in on 127.0.0.1
// that checks the bearer token and sends each JSON command array to Redis as it is (Upstash's framing:
// `{"result": …}`, or `{"error": …}` with 400). The store contract, then what REST adds: a wrong token,
// an http:// URL off loopback, and one Redis shared with redisStore.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createClient } from "redis";
import { redisStore, upstashStore } from "../../src/store/index.js";
import { listenLocal } from "../helpers/local-server.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { storeContract } from "../helpers/store-contract.js";

const TOKEN = `token-${randomBytes(12).toString("hex")}`;
const freshPrefix = () => `upstash-${randomBytes(6).toString("hex")}:`;

describe("upstashStore over a REST stand-in for a real redis-server", { skip: needs("redis-server") }, () => {
  let redis: RedisServer;
  let rest: Awaited<ReturnType<typeof listenLocal>>;
  let client: ReturnType<typeof createClient>;
  before(async () => {
    redis = await startRedis();
    client = createClient({ url: redis.url });
    await client.connect();
    rest = await listenLocal(async (req, res) => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { error: "Unauthorized" });
      let text = "";
      for await (const chunk of req) text += chunk;
      try {
        const args = (JSON.parse(text) as unknown[]).map(String);
        reply(200, { result: await client.sendCommand(args) });
      } catch (error) {
        reply(400, { error: (error as Error).message });
      }
    }, "/");
  });
  after(async () => {
    rest?.close();
    await client?.close();
    await redis?.stop();
  });

  storeContract({
    name: "upstashStore",
    async open() {
      const prefix = freshPrefix();
      const open = () => upstashStore({ url: rest.url.href, token: TOKEN, prefix });
      return { store: open(), other: async () => open() };
    },
  });

  test("a refused token: the error names the operation, host and status, never the token", async () => {
    const store = upstashStore({ url: rest.url.href, token: `${TOKEN}-wrong`, prefix: freshPrefix() });
    await assert.rejects(store.get("k"), (error: Error) => {
      assert.match(error.message, new RegExp(`^upstashStore: get failed at 127\\.0\\.0\\.1:\\d+: 401 Unauthorized$`));
      assert.ok(!error.message.includes(TOKEN));
      return true;
    });
  });

  test("a token is never sent in the clear off loopback, and a missing one is named", () => {
    assert.throws(
      () => upstashStore({ url: "http://redis.example.com", token: TOKEN }),
      /must be https:\/\/ \(http:\/\/ only on a loopback address\), got http:\/\/redis\.example\.com/,
    );
    assert.throws(() => upstashStore({ url: "https://redis.example.com", token: "" }), /token is required/);
  });

  test("redisStore over TCP and upstashStore over HTTP share one Redis: same keys, one winner of add", async () => {
    const prefix = freshPrefix();
    const tcp = await redisStore({ url: redis.url, prefix });
    const http = upstashStore({ url: rest.url.href, token: TOKEN, prefix });
    try {
      assert.equal(await tcp.add("call:1", "from a Node process", 60_000), true);
      assert.equal(await http.add("call:1", "from a Worker", 60_000), false);
      assert.equal(await http.get("call:1"), "from a Node process");
      assert.equal(await http.swap("call:1", "from a Node process", "done", 60_000), true);
      assert.equal(await tcp.get("call:1"), "done");
      assert.deepEqual(await http.keys("call:"), ["call:1"]);
    } finally {
      await tcp.close();
      await http.close();
    }
  });
});
