// 2026-07-28 rounds across a fleet: three member processes on one Redis behind HAProxy (round robin, no
// stickiness), a real SDK client over Streamable HTTP. Each round of a call lands on another member and
// the call still completes; a side effect runs once whichever members replay it; a member killed between
// rounds is routed around; a member without the shared state key refuses to start; the state key rotates
// with members restarted one by one.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { createClient } from "redis";
import { fleetClient as fleetClientOf, fleetForFile, spawnMember } from "../helpers/fleet.js";
import { callWith } from "../helpers/manual-client.js";

// Without redis-server or HAProxy the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const shared = fleetForFile();
const { skip } = shared;

const yes = { "elicit-1": { action: "accept", content: { confirm: true } } };
const textOf = (result: Record<string, any>) => (result.content as { text: string }[])[0]!.text;
const memberIn = (text: string) => /by (member-\d)$/.exec(text)?.[1];

/** A 2026-07-28 client through HAProxy (test/helpers/fleet.ts), of this file's fleet unless `url` says. */
const fleetClient = (url = shared.fleet.url) => fleetClientOf(url);

/** Plays a call to the end: every round answered yes; returns the final text and the messages asked on the way. */
async function playCall(
  call: ReturnType<typeof callWith>,
  name: string,
  args: Record<string, unknown> = {},
  between?: (round: number) => Promise<void>,
) {
  const asked: string[] = [];
  let result = await call({ name, arguments: args });
  for (let round = 1; result.resultType === "input_required"; round++) {
    assert.ok(round < 10, "the call ends");
    asked.push(...Object.values(result.inputRequests as Record<string, { params: { message: string } }>).map((r) => r.params.message));
    await between?.(round);
    const inputResponses = Object.fromEntries(Object.keys(result.inputRequests as object).map((key) => [key, yes["elicit-1"]]));
    result = await call({ name, arguments: args, inputResponses, requestState: result.requestState });
  }
  return { text: textOf(result), asked };
}

describe("rounds on different members", { skip }, () => {
  test("book and book_twice complete with every round served by another member", async () => {
    const { call, servedBy, close } = await fleetClient();
    try {
      const once = await playCall(call, "book");
      assert.match(once.text, /^booked=true by member-\d$/);
      const onceRounds = servedBy.splice(0);
      assert.equal(onceRounds.length, 2);
      assert.notEqual(onceRounds[0], onceRounds[1], `rounds on ${onceRounds}`);
      assert.equal(memberIn(once.text), onceRounds[1]);

      const twice = await playCall(call, "book_twice");
      assert.match(twice.text, /^answers=true,true by member-\d$/);
      assert.equal(servedBy.length, 3);
      assert.equal(new Set(servedBy).size, 3, `three rounds on three members: ${servedBy}`);
      assert.deepEqual(twice.asked, ["First question", "Second question"]);
    } finally {
      await close();
    }
  });

  test("charge: the step's side effect runs once, though the answer round is replayed on every member (each answers the recorded result)", async () => {
    const raw = createClient({ url: shared.redis.url });
    await raw.connect();
    const { call, close } = await fleetClient();
    try {
      const callId = randomUUID();
      const args = { callId };
      const first = await call({ name: "charge", arguments: args });
      assert.equal(first.resultType, "input_required");
      assert.equal(await raw.get(`test:charged:${callId}`), "1");
      // The same answer round, sent straight to each member (as a client retrying after timeouts would).
      const texts = [];
      for (const member of shared.fleet.members) {
        const direct = await fleetClient(member.url);
        try {
          texts.push(textOf(await direct.call({ name: "charge", arguments: args, inputResponses: yes, requestState: first.requestState })));
        } finally {
          await direct.close();
        }
      }
      // The first member finished the call; the others answer with its recorded result, running nothing again.
      assert.match(texts[0]!, /^charged=1 rated=accept by member-\d$/);
      assert.deepEqual(texts, [texts[0], texts[0], texts[0]]);
      assert.equal(await raw.get(`test:charged:${callId}`), "1", "charged exactly once");
    } finally {
      await close();
      await raw.close();
    }
  });

  test("a member killed between rounds: the next round is served by another member and the call completes", async () => {
    const { call, servedBy, close } = await fleetClient();
    let killed: string | undefined;
    try {
      const done = await playCall(call, "book_twice", {}, async (round) => {
        if (round !== 1) return;
        // Round robin would send the next round to the member after this one: kill that one.
        const index = shared.fleet.members.findIndex((m) => m.name === servedBy.at(-1));
        const next = shared.fleet.members[(index + 1) % shared.fleet.members.length]!;
        killed = next.name;
        await next.kill();
      });
      assert.match(done.text, /^answers=true,true by member-\d$/);
      assert.ok(killed);
      assert.ok(!servedBy.slice(1).includes(killed), `no round after the kill on ${killed}: ${servedBy}`);
    } finally {
      await close();
      await shared.fleet.members.find((m) => m.name === killed)?.restart();
    }
  });

  test("a member started without the shared state key refuses to start, naming stateKey", async () => {
    await assert.rejects(
      spawnMember({
        REDIS_URL: shared.redis.url,
        FLEET_PREFIX: shared.fleet.prefix,
        MEMBER_NAME: "keyless",
        PORT: "0",
        MCP_ELICIT_STATE_KEY: "",
        MCP_ELICIT_VAULT_KEY: shared.fleet.vaultKey,
      }),
      (error: Error) => {
        assert.match(error.message, /keyless exited \(1\) before listening/);
        assert.match(error.message, /the store is shared by several processes \(a fleet\), but no stateKey was given/);
        return true;
      },
    );
  });
});

describe("state key rotation", { skip }, () => {
  test("members restarted one by one with [new, old] accept states sealed with old; a key dropped from the ring is refused with -32602", async () => {
    const old = shared.fleet.stateKey;
    const fresh = randomBytes(32).toString("base64url");
    const newest = randomBytes(32).toString("base64url");
    const restartAll = async (ring: string[]) => {
      for (const member of shared.fleet.members) await member.restart({ MCP_ELICIT_STATE_KEY: ring.join(",") });
    };
    const { call, close } = await fleetClient();
    try {
      // Sealed by a member on the old key; answered after every member moved to [new, old].
      const sealedWithOld = await playCall(call, "book_twice", {}, async (round) => {
        if (round === 1) await restartAll([fresh, old]);
      });
      assert.match(sealedWithOld.text, /^answers=true,true by member-\d$/);

      // Sealed with new; every member then drops old and new.
      const first = await call({ name: "book", arguments: {} });
      assert.equal(first.resultType, "input_required");
      await restartAll([newest]);
      await assert.rejects(
        call({ name: "book", arguments: {}, inputResponses: yes, requestState: first.requestState }),
        (error: Error & { code?: number }) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, /requestState/);
          return true;
        },
      );
    } finally {
      await close();
      await restartAll([old]);
    }
  });
});
