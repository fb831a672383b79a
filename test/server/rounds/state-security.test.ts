// What the sealed requestState must never do, on every store: tell the client a ctx.step value through
// its length (a compression oracle), let one round run with two different answers, or be accepted by
// another server that shares the key.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { McpServer } from "@modelcontextprotocol/server";
import { form, text, yesNo } from "../../../src/schema/index.js";
import { createElicitation, type ElicitationOptions } from "../../../src/server/index.js";
import { digest, issuerKey, open, toStateKey } from "../../../src/server/base/sealed-state.js";
import { memoryStore, redisStore, sqliteStore, type KeyValueStore } from "../../../src/store/index.js";
import { scratchFiles } from "../../helpers/files.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { connect } from "../../helpers/mcp.js";
import { needs } from "../../helpers/needs.js";
import { startRedis, type RedisServer } from "../../helpers/redis.js";
import { jsonResult } from "../../helpers/results.js";

const files = scratchFiles("mcp-elicit-state-security-");
// Only the redisStore group needs redis-server: without it that group is skipped and the others run.
const needsRedis = needs("redis-server");
let redis: RedisServer | undefined;
before(async () => {
  if (!needsRedis) redis = await startRedis();
});
after(() => redis?.stop());

// Every kit below shares one key (a shared store requires one).
const stateKey = toStateKey(undefined);
const stores: { name: string; skip?: string | false; open(): Promise<KeyValueStore> }[] = [
  { name: "memoryStore", open: async () => memoryStore() },
  { name: "sqliteStore", open: async () => sqliteStore(join(files.dir, `${randomBytes(6).toString("hex")}.db`)) },
  { name: "redisStore", skip: needsRedis, open: () => redisStore({ url: redis!.url, prefix: `t-${randomBytes(6).toString("hex")}:` }) },
];

const PREFIX = "sk_live_";

/** A server whose tool reads an API key in a step (never shown to the client), then asks twice. */
function secretServer(options: ElicitationOptions, secret: string, seen: unknown[] = [], name = "billing") {
  const kit = createElicitation(options);
  return () => {
    const server = new McpServer({ name, version: "1.0.0" });
    kit.registerTool(server, "lookup", { description: "Looks something up with a stored key" }, async (_args, ctx) => {
      const apiKey = await ctx.step("api-key", () => `${PREFIX}${secret}`);
      const note = await ctx.elicit("A note for the record?", form({ note: text({ maxLength: 2000 }) }));
      seen.push(note);
      const ok = await ctx.elicit("Send it?", form({ ok: yesNo() }));
      return jsonResult({ sent: ok.action === "accept" && apiKey.length > 0 });
    });
    return server;
  };
}

const accept = (content: Record<string, unknown>) => ({ "elicit-1": { action: "accept", content } });

for (const kind of stores) {
  describe(`on ${kind.name}`, { skip: kind.skip }, () => {
    test("the token's length says nothing about a ctx.step value: a compression oracle sees the same length for every guess", async () => {
      const secret = randomBytes(8).toString("hex");
      const store = await kind.open();
      const conn = await connect(manualClient(), secretServer({ stateKey, store }, secret), "2026-07-28", "memory");
      const call = callWith(conn.client);
      try {
        // The attack: put a guess of the secret beside it in the journal and read the compressed size off
        // the token; random filler keeps the rest incompressible, so only a match with the secret could
        // shorten it. Valid answers are journaled as content; too long ones make the question be asked again.
        let guesses = 0;
        for (let sample = 0; sample < 20; sample++) {
          const filler = randomBytes(800).toString("base64url");
          for (const tooLong of [false, true]) {
            const lengths = new Set<number>();
            for (const candidate of "0123456789abcdef") {
              const note = (tooLong ? filler + filler : filler) + PREFIX + candidate;
              const first = await call({ name: "lookup", arguments: {} });
              const next = await call({
                name: "lookup",
                arguments: {},
                inputResponses: accept({ note }),
                requestState: first.requestState,
              });
              assert.equal(next.resultType, "input_required");
              assert.equal(JSON.stringify(next.inputRequests).includes("correct the following"), tooLong);
              lengths.add((next.requestState as string).length);
              guesses++;
            }
            assert.equal(lengths.size, 1, `the 16 guesses of one length gave tokens of ${[...lengths].join(", ")} characters`);
          }
        }
        assert.equal(guesses, 640);
        // The same guesses against a deflating sealer would have found the next character: the check has power.
        const deflated = (guess: string) => deflateRawSync(JSON.stringify({ note: guess.repeat(4), step: PREFIX + secret })).length;
        const right = deflated(PREFIX + secret.slice(0, 2));
        const wrong = [..."0123456789abcdef"].filter((c) => c !== secret[1]).map((c) => deflated(PREFIX + secret[0] + c));
        assert.ok(
          wrong.every((length) => length > right),
          "compressed, the right guess is shorter than every wrong one",
        );
      } finally {
        await conn.close();
        await store.close();
      }
    });

    test("one state submitted 10 times at once with 10 different answers: exactly one is accepted, the rest refused as replayed", async () => {
      const store = await kind.open();
      const seen: unknown[] = [];
      const conn = await connect(manualClient(), secretServer({ stateKey, store }, "00", seen), "2026-07-28", "memory");
      const call = callWith(conn.client);
      try {
        const first = await call({ name: "lookup", arguments: {} });
        const submit = (note: string) =>
          call({ name: "lookup", arguments: {}, inputResponses: accept({ note }), requestState: first.requestState });
        const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => submit(`answer ${i}`)));
        const accepted = outcomes.filter((o) => o.status === "fulfilled");
        assert.equal(accepted.length, 1, "one acceptance");
        for (const o of outcomes) {
          if (o.status === "rejected") {
            assert.equal(o.reason.code, -32602);
            assert.equal(o.reason.data?.reason, "replayed");
            assert.match(o.reason.message, /already answered with other answers/);
          }
        }
        assert.equal(seen.length, 1, "the handler went past the question with one answer only");
        // Once the round has moved on, only the winner's answers again (a reply lost) get what they led to;
        // any other answer is refused, and the handler never sees it.
        const winner = (seen[0] as { content: { note: string } }).content.note;
        assert.deepEqual(await submit(winner), accepted[0]!.value);
        const loser = winner === "answer 0" ? "answer 1" : "answer 0";
        await assert.rejects(submit(loser), (e: any) => e.code === -32602 && /moved on to round 2/.test(e.message));
        assert.equal(seen.length, 1);
      } finally {
        await conn.close();
        await store.close();
      }
    });
  });
}

describe("states are bound to the server that sealed them", () => {
  const firstRound = async (factory: () => McpServer) => {
    const conn = await connect(manualClient(), factory, "2026-07-28", "memory");
    try {
      return (await callWith(conn.client)({ name: "lookup", arguments: {} })).requestState as string;
    } finally {
      await conn.close();
    }
  };
  const answer = async (factory: () => McpServer, requestState: string) => {
    const conn = await connect(manualClient(), factory, "2026-07-28", "memory");
    try {
      return await callWith(conn.client)({ name: "lookup", arguments: {}, inputResponses: accept({ note: "hi" }), requestState });
    } finally {
      await conn.close();
    }
  };
  const refusedAsTampered = (e: any) => e.code === -32602 && e.data?.reason === "tampered";

  test("another server with the same key and tool name refuses the state as tampered", async () => {
    const store = memoryStore();
    const state = await firstRound(secretServer({ stateKey, store }, "00", [], "billing"));
    await assert.rejects(answer(secretServer({ stateKey, store }, "00", [], "reports"), state), refusedAsTampered);
    // Same name, another deployment's issuer: refused too.
    await assert.rejects(
      answer(secretServer({ stateKey, store, issuer: "https://staging.example" }, "00", [], "billing"), state),
      refusedAsTampered,
    );
    // The same server (another process of a fleet: same key, same name) opens it.
    assert.equal((await answer(secretServer({ stateKey, store }, "00", [], "billing"), state)).resultType, "input_required");
  });

  test("an issuer set explicitly is shared by whoever sets it, whatever the servers' names", async () => {
    const store = memoryStore();
    const issuer = "https://mcp.example/billing";
    const state = await firstRound(secretServer({ stateKey, store, issuer }, "00", [], "billing-a"));
    assert.equal((await answer(secretServer({ stateKey, store, issuer }, "00", [], "billing-b"), state)).resultType, "input_required");
  });
});

test("a state sealed in the format before issuers (version 1, compressed, the master key itself) is refused, and its step never adopted", async () => {
  const seen: unknown[] = [];
  const conn = await connect(manualClient(), secretServer({ stateKey, store: memoryStore() }, "00", seen), "2026-07-28", "memory");
  const call = callWith(conn.client);
  try {
    const live = await call({ name: "lookup", arguments: {} });
    const binding = { principal: "anonymous", tool: "lookup", args: {} };
    const { asked } = open<{ asked: Record<string, string> }>(live.requestState, binding, {
      key: issuerKey(stateKey, "billing"),
      ttlMs: 60_000,
    });
    // The old format: version byte 1, the master key itself, a flag byte 0 (not deflated), the envelope's JSON.
    const journal = { call: randomUUID(), round: 1, answers: accept({ note: "old" }), steps: { "api-key": { value: "sk_old" } }, asked };
    const envelope = { p: "anonymous", t: "lookup", a: digest({}), e: Date.now() + 60_000, d: journal };
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", stateKey, iv);
    const body = Buffer.concat([cipher.update(`\u0000${JSON.stringify(envelope)}`, "utf8"), cipher.final()]);
    const legacy = Buffer.concat([Buffer.from([1]), iv, body, cipher.getAuthTag()]).toString("base64url");
    await assert.rejects(call({ name: "lookup", arguments: {}, inputResponses: {}, requestState: legacy }), (error: Error) => {
      assert.match(error.message, /requestState is not a state this server issued \(unknown format\)/);
      return true;
    });
    assert.equal(seen.length, 0, "the handler never ran with the old state's answers");
  } finally {
    await conn.close();
  }
});

test("a refused answer is journaled as the errors it got: nothing of its raw text is sealed, or offered back as a default", async () => {
  const conn = await connect(manualClient(), secretServer({ stateKey, store: memoryStore() }, "00"), "2026-07-28", "memory");
  const call = callWith(conn.client);
  const binding = { principal: "anonymous", tool: "lookup", args: {} };
  const journalOf = (token: string) => JSON.stringify(open(token, binding, { key: issuerKey(stateKey, "billing"), ttlMs: 60_000 }));
  try {
    for (const refused of [
      { action: "accept", content: { note: `MARKER-${"x".repeat(2000)}` } },
      { action: "bogus", content: { note: { nested: "MARKER" } } },
      { action: "accept", content: "MARKER" },
    ]) {
      const first = await call({ name: "lookup", arguments: {} });
      const next = await call({ name: "lookup", arguments: {}, inputResponses: { "elicit-1": refused }, requestState: first.requestState });
      assert.match(JSON.stringify(next.inputRequests), /correct the following/);
      assert.doesNotMatch(JSON.stringify(next.inputRequests), /MARKER/, "not offered back as a default");
      assert.doesNotMatch(journalOf(next.requestState), /MARKER/, "not in the sealed journal");
    }
    // The refused answers break the spec on purpose: out of the wire check that closing runs.
    for (let i = conn.wire.length - 1; i >= 0; i--) if (JSON.stringify(conn.wire[i]!.message).includes("MARKER")) conn.wire.splice(i, 1);
  } finally {
    await conn.close();
  }
});
