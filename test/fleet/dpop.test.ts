// DPoP in a fleet: two serveHttp members in this process on one real Redis, behind one public resource
// URL, both asking for DPoP nonces. A nonce member A hands out is accepted by member B (the nonce key is
// derived from the ring they share, auth.dpop.key or $MCP_ELICIT_STATE_KEY), a proof accepted by one
// member is refused as a replay by the other (its jti is spent in the shared store), and a member whose
// used jtis would stay in its own memory, or whose nonces would come from a key of its own, refuses to start.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import type { DpopOptions } from "../../src/server/auth/options.js";
import { memoryStore, redisStore } from "../../src/store/index.js";
import type { FleetStore } from "../../src/store/types.js";
import { athOf, clientToken, dpopProof, initializeWith, newDpopKey, tokenEndpointOf, type WireAnswer } from "../helpers/dpop.js";
import { needs } from "../helpers/needs.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

const CLIENT = { id: "nightly", secret: "dpop-fleet-secret" };
/** The balancer's address: what clients connect to, the tokens' audience and the proofs' htu. */
const RESOURCE = "http://mcp.fleet.test/mcp";
const noRedis = needs("redis-server");
let redis: RedisServer;
let op: OpenIdProvider;
let tokenEndpoint: string;
let run = 0;

before(async () => {
  if (noRedis) return;
  redis = await startRedis();
  op = await startOpenIdProvider({ clients: [{ clientId: CLIENT.id, clientSecret: CLIENT.secret }] });
  tokenEndpoint = await tokenEndpointOf(op.issuer);
});
after(async () => {
  await op?.close();
  await redis?.stop();
});

interface Member {
  http: HttpServerHandle;
  store: FleetStore;
}

/** Members named `names` on one Redis prefix, each with `dpop`; stop() closes them and their stores. */
async function fleet(names: string[], dpop: DpopOptions) {
  const prefix = `fleet-dpop-${++run}:`;
  const members: Member[] = [];
  const stop = () => Promise.all(members.map(async (m) => (await m.http.close(), await m.store.close())));
  try {
    for (const name of names) {
      const store = await redisStore({ url: redis.url, prefix });
      try {
        const http = await serveHttp(() => new McpServer({ name: "fleet-dpop", version: "1.0.0" }), {
          fleet: { store, instance: name },
          auth: { issuer: op.issuer, resource: RESOURCE, scopes: ["mcp:tools"], dpop },
          onerror: () => {},
        });
        members.push({ http, store });
      } catch (error) {
        await store.close();
        throw error;
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { members: members.map((m) => m.http), stop };
}

function assertDpopRefusal(answer: WireAnswer, error: string, rule?: RegExp) {
  assert.equal(answer.status, 401, answer.text);
  assert.match(answer.challenge, new RegExp(`^DPoP error="${error}"`));
  if (rule) assert.match(answer.challenge, rule);
}

/** The TypeError `starting` rejects with; a fleet or server that started anyway is stopped before the test fails. */
async function refusedToStart(starting: Promise<{ stop(): Promise<unknown> }>): Promise<TypeError> {
  const started = await starting.catch((error: unknown) => error);
  if (!(started instanceof Error)) {
    await (started as { stop(): Promise<unknown> }).stop();
    assert.fail("started, though it should have been refused");
  }
  assert.ok(started instanceof TypeError, String(started));
  return started;
}

/** Runs `fn` with $MCP_ELICIT_STATE_KEY set to `value` (or unset), restoring it afterwards. */
async function withStateKeyEnv<T>(value: string | undefined, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.MCP_ELICIT_STATE_KEY;
  if (value === undefined) delete process.env.MCP_ELICIT_STATE_KEY;
  else process.env.MCP_ELICIT_STATE_KEY = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.MCP_ELICIT_STATE_KEY;
    else process.env.MCP_ELICIT_STATE_KEY = saved;
  }
}

describe("DPoP across fleet members", { skip: noRedis }, () => {
  test("a nonce from member A is accepted at member B; a proof accepted at one member is a replay at the other", async () => {
    const key = randomBytes(32).toString("base64url");
    const { members, stop } = await fleet(["member-a", "member-b"], { required: true, nonce: true, key });
    try {
      const [a, b] = members as [HttpServerHandle, HttpServerHandle];
      const proofKey = await newDpopKey();
      const token = await clientToken(tokenEndpoint, CLIENT, RESOURCE, proofKey);
      const claims = { htm: "POST", htu: RESOURCE, ath: athOf(token) };
      const asked = await initializeWith(a.url, `DPoP ${token}`, await dpopProof(proofKey, claims));
      assertDpopRefusal(asked, "use_dpop_nonce");
      assert.ok(asked.nonce, "member A hands out a DPoP-Nonce");

      const atB = await dpopProof(proofKey, { ...claims, nonce: asked.nonce! });
      assert.equal((await initializeWith(b.url, `DPoP ${token}`, atB)).status, 200, "member B takes member A's nonce");
      assertDpopRefusal(await initializeWith(a.url, `DPoP ${token}`, atB), "invalid_dpop_proof", /used before \(jti\)/);

      const atA = await dpopProof(proofKey, { ...claims, nonce: asked.nonce! });
      assert.equal((await initializeWith(a.url, `DPoP ${token}`, atA)).status, 200);
      assertDpopRefusal(await initializeWith(b.url, `DPoP ${token}`, atA), "invalid_dpop_proof", /used before \(jti\)/);

      // A nonce still has to be one the ring made.
      const forged = await dpopProof(proofKey, { ...claims, nonce: `${asked.nonce!.split(".")[0]}.forged` });
      assertDpopRefusal(await initializeWith(b.url, `DPoP ${token}`, forged), "use_dpop_nonce");
    } finally {
      await stop();
    }
  });

  test("without auth.dpop.key, members take the ring from $MCP_ELICIT_STATE_KEY", async () => {
    const ring = `${randomBytes(32).toString("base64url")},${randomBytes(32).toString("hex")}`;
    const { members, stop } = await withStateKeyEnv(ring, () => fleet(["member-a", "member-b"], { nonce: true }));
    try {
      const [a, b] = members as [HttpServerHandle, HttpServerHandle];
      const proofKey = await newDpopKey();
      const token = await clientToken(tokenEndpoint, CLIENT, RESOURCE, proofKey);
      const claims = { htm: "POST", htu: RESOURCE, ath: athOf(token) };
      const { nonce } = await initializeWith(b.url, `DPoP ${token}`, await dpopProof(proofKey, claims));
      assert.ok(nonce);
      assert.equal((await initializeWith(a.url, `DPoP ${token}`, await dpopProof(proofKey, { ...claims, nonce }))).status, 200);
    } finally {
      await stop();
    }
  });

  test("a member refuses to start when its used jtis would stay in its own memory, or its nonces come from a key of its own", async () => {
    const own = memoryStore();
    const unshared = await refusedToStart(fleet(["member-a"], { store: own }));
    assert.match(unshared.message, /auth\.dpop\.store/);
    assert.match(unshared.message, /replayed once at each member/);
    await own.close();
    const noKey = await refusedToStart(withStateKeyEnv(undefined, () => fleet(["member-a"], { nonce: true })));
    assert.match(noKey.message, /auth\.dpop\.key or \$MCP_ELICIT_STATE_KEY/);
    assert.match(noKey.message, /auth\.dpop\.nonce/);
  });

  test("members sharing a Redis store for DPoP without the fleet option need a shared nonce key too", async () => {
    const store = await redisStore({ url: redis.url, prefix: `fleet-dpop-${++run}:` });
    try {
      const refused = await refusedToStart(
        withStateKeyEnv(undefined, () =>
          serveHttp(() => new McpServer({ name: "fleet-dpop", version: "1.0.0" }), {
            auth: { issuer: op.issuer, dpop: { store, nonce: true } },
          }).then((http) => ({ stop: () => http.close() })),
        ),
      );
      assert.match(refused.message, /auth\.dpop\.key/);
    } finally {
      await store.close();
    }
  });
});
