// requestState on 2026-07-28: sealed, bound, and refused with -32602 saying why when misused.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { open, RecentStates, seal, StateError, toStateKey, toStateKeys, type StateBinding } from "../../../src/server/base/sealed-state.js";
import { createElicitation, STATE_KEY_ENV } from "../../../src/server/kit/elicitation.js";
import { memoryStore } from "../../../src/store/memory.js";
import type { KeyValueStore } from "../../../src/store/types.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { connect, type TransportKind } from "../../helpers/mcp.js";
import { resultJson } from "../../helpers/results.js";
import { makeFactory } from "../../helpers/server-fixtures.js";

describe("seal and open", () => {
  const key = toStateKey(undefined);
  const binding: StateBinding = { principal: "sub:ana", tool: "book", args: { city: "Rome", n: 1 } };
  const options = { key, ttlMs: 60_000 };

  test("round-trips the journal and ignores argument key order", () => {
    const token = seal({ answers: { a: 1 } }, binding, options);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(open(token, { ...binding, args: { n: 1, city: "Rome" } }, options), { answers: { a: 1 } });
  });

  test("each misuse is refused with its own problem", () => {
    const token = seal({ x: 1 }, binding, options);
    const flipped = token.slice(0, 20) + (token[20] === "A" ? "B" : "A") + token.slice(21);
    const cases: [unknown, Partial<StateBinding>, object, string][] = [
      [flipped, {}, options, "tampered"],
      [seal({ x: 1 }, binding, { key: toStateKey(undefined), ttlMs: 60_000 }), {}, options, "tampered"],
      [token, { principal: "sub:bob" }, options, "principal"],
      [token, { tool: "pay" }, options, "tool"],
      [token, { args: { city: "Paris", n: 1 } }, options, "arguments"],
      [token, {}, { ...options, now: Date.now() + 61_000 }, "expired"],
      ["not base64!", {}, options, "malformed"],
      [42, {}, options, "malformed"],
      ["AAAA", {}, options, "malformed"],
      [token, {}, { ...options, maxBytes: 10 }, "too-large"],
    ];
    for (const [state, change, opts, problem] of cases) {
      assert.throws(
        () => open(state, { ...binding, ...change }, opts as typeof options),
        (e: unknown) => e instanceof StateError && e.problem === problem,
        problem,
      );
    }
  });

  test("a journal over the size limit is refused when sealing, with the numbers", () => {
    assert.throws(
      () => seal({ big: "x".repeat(5000) + Math.random() }, binding, { ...options, maxBytes: 100 }),
      /requestState, over the limit of 100; raise maxStateBytes/,
    );
  });

  test("a key can be given as hex or base64url text, and must be 32 bytes", () => {
    const hex = "ab".repeat(32);
    assert.deepEqual(toStateKey(hex), Buffer.from(hex, "hex"));
    assert.deepEqual(toStateKey(Buffer.from(hex, "hex").toString("base64url")), Buffer.from(hex, "hex"));
    assert.throws(() => toStateKey("short"), /must be 32 bytes/);
  });
});

const okAnswer = { "elicit-1": { action: "accept", content: { confirmBooking: true } } };

for (const kind of ["memory", "http"] as TransportKind[]) {
  describe(`requestState over ${kind}`, () => {
    async function firstRound(options: Parameters<typeof makeFactory>[0] = {}, meta?: Record<string, unknown>) {
      const made = makeFactory(options);
      const conn = await connect(manualClient(), made.factory, "2026-07-28", kind);
      const first = await callWith(conn.client)({ name: "book", arguments: { city: "Rome" }, ...(meta ? { _meta: meta } : {}) });
      assert.equal(first.resultType, "input_required");
      return { ...conn, state: first.requestState as string };
    }
    const rejects = async (promise: Promise<unknown>, reason: string, text: RegExp) =>
      assert.rejects(promise, (e: any) => {
        assert.equal(e.code, -32602);
        assert.equal(e.data?.reason, reason);
        assert.match(e.message, text);
        return true;
      });

    test("the echoed state completes the call", async () => {
      const { client, state, close } = await firstRound();
      try {
        const done = await callWith(client)({ name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: state });
        assert.equal(resultJson(done).action, "accept");
      } finally {
        await close();
      }
    });

    test("a flipped byte, another tool, other arguments and garbage are each refused", async () => {
      const { client, state, close } = await firstRound();
      try {
        const i = Math.floor(state.length / 2);
        const flipped = state.slice(0, i) + (state[i] === "A" ? "B" : "A") + state.slice(i + 1);
        await rejects(
          callWith(client)({ name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: flipped }),
          "tampered",
          /integrity check/,
        );
        await rejects(
          callWith(client)({ name: "pay_then_ask", arguments: {}, inputResponses: okAnswer, requestState: state }),
          "tool",
          /issued for tool "book", not "pay_then_ask"/,
        );
        await rejects(
          callWith(client)({ name: "book", arguments: { city: "Paris" }, inputResponses: okAnswer, requestState: state }),
          "arguments",
          /other arguments/,
        );
        await rejects(
          callWith(client)({ name: "book", arguments: { city: "Rome" }, requestState: "bm90LW91cnM" }),
          "malformed",
          /not a state this server issued/,
        );
        await rejects(callWith(client)({ name: "book", arguments: { city: "Rome" }, requestState: 7 }), "malformed", /must be the string/);
      } finally {
        await close();
      }
    });

    test("an expired state is refused", async () => {
      const { client, state, close } = await firstRound({ stateTtlMs: 30 });
      try {
        await sleep(60);
        await rejects(
          callWith(client)({ name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: state }),
          "expired",
          /expired at .*call the tool again/,
        );
      } finally {
        await close();
      }
    });

    test("a state presented by another principal is refused", async () => {
      const principal = (ctx: any) => String(ctx.mcpReq._meta?.["example.com/user"] ?? "anonymous");
      const { client, state, close } = await firstRound({ principal }, { "example.com/user": "ana" });
      try {
        const retry = { name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: state };
        await rejects(callWith(client)({ ...retry, _meta: { "example.com/user": "bob" } }), "principal", /another principal/);
        const done = await callWith(client)({ ...retry, _meta: { "example.com/user": "ana" } });
        assert.equal(resultJson(done).action, "accept");
      } finally {
        await close();
      }
    });

    test("missing answers are asked again; unknown response keys are ignored", async () => {
      const { client, state, close } = await firstRound();
      try {
        const again = await callWith(client)({
          name: "book",
          arguments: { city: "Rome" },
          inputResponses: { "other-key": { action: "accept", content: {} } },
          requestState: state,
        });
        assert.equal(again.resultType, "input_required");
        assert.deepEqual(Object.keys(again.inputRequests), ["elicit-1"]);
      } finally {
        await close();
      }
    });
  });
}

test("a journal that outgrows maxStateBytes ends the tool with a clear error", async () => {
  const made = makeFactory({ maxStateBytes: 200 });
  const conn = await connect(manualClient(), made.factory, "2026-07-28", "memory");
  try {
    const result = await callWith(conn.client)({ name: "book", arguments: { city: "Rome" } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /need \d+ bytes of requestState, over the limit of 200; raise maxStateBytes/);
  } finally {
    await conn.close();
  }
});

test("a kit made per server factory (a new server per HTTP request) still completes 2026-07-28 retries", async () => {
  // Each request gets a new McpServer and, here, a new kit: the default key and ledger are per process.
  const conn = await connect(manualClient(), () => makeFactory().factory(), "2026-07-28", "http");
  try {
    const first = await callWith(conn.client)({ name: "book", arguments: { city: "Rome" } });
    assert.equal(first.resultType, "input_required");
    const done = await callWith(conn.client)({
      name: "book",
      arguments: { city: "Rome" },
      inputResponses: okAnswer,
      requestState: first.requestState,
    });
    assert.equal(resultJson(done).action, "accept");
  } finally {
    await conn.close();
  }
});

describe("the stateKey ring", () => {
  const [newKey, oldKey, droppedKey] = [toStateKey(undefined), toStateKey(undefined), toStateKey(undefined)];
  const binding: StateBinding = { principal: "anonymous", tool: "book", args: {} };

  test("the first key seals, every key opens; a key dropped from the ring is tampered", () => {
    const fromOld = seal({ n: 1 }, binding, { key: oldKey, ttlMs: 60_000 });
    const ring = { key: newKey, ring: [newKey, oldKey], ttlMs: 60_000 };
    assert.deepEqual(open(fromOld, binding, ring), { n: 1 });
    const fromNew = seal({ n: 2 }, binding, ring);
    assert.deepEqual(open(fromNew, binding, { key: newKey, ttlMs: 60_000 }), { n: 2 });
    assert.throws(
      () => open(fromNew, binding, { key: oldKey, ttlMs: 60_000 }),
      (e: unknown) => e instanceof StateError && e.problem === "tampered",
    );
    const fromDropped = seal({ n: 3 }, binding, { key: droppedKey, ttlMs: 60_000 });
    assert.throws(
      () => open(fromDropped, binding, ring),
      (e: unknown) => e instanceof StateError && e.problem === "tampered",
    );
  });

  test("a ring is given as a list; an empty list and a short key are refused, naming stateKey", () => {
    assert.deepEqual(toStateKeys([newKey, oldKey.toString("hex")]), [newKey, oldKey]);
    assert.throws(() => toStateKeys([]), /stateKey is an empty list/);
    assert.throws(() => toStateKeys([newKey, "short"]), /stateKey\[1\]: requestState key must be 32 bytes/);
  });

  for (const kind of ["memory", "http"] as TransportKind[]) {
    test(`over ${kind}: a state sealed before a rotation completes under [new, old], and is refused with -32602 once old is dropped`, async () => {
      const before = await connect(manualClient(), makeFactory({ stateKey: oldKey }).factory, "2026-07-28", kind);
      const rotated = await connect(manualClient(), makeFactory({ stateKey: [newKey, oldKey] }).factory, "2026-07-28", kind);
      const dropped = await connect(manualClient(), makeFactory({ stateKey: [newKey] }).factory, "2026-07-28", kind);
      try {
        const first = async () => {
          const result = await callWith(before.client)({ name: "book", arguments: { city: "Rome" } });
          assert.equal(result.resultType, "input_required");
          return { name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: result.requestState };
        };
        const done = await callWith(rotated.client)(await first());
        assert.equal(resultJson(done).action, "accept");
        await assert.rejects(callWith(dropped.client)(await first()), (e: any) => {
          assert.equal(e.code, -32602);
          assert.equal(e.data?.reason, "tampered");
          assert.match(e.message, /integrity check/);
          return true;
        });
      } finally {
        await Promise.all([before.close(), rotated.close(), dropped.close()]);
      }
    });
  }
});

describe("a fleet's key", () => {
  const sharedStore = (): KeyValueStore => Object.assign(memoryStore(), { shared: true });

  test("a shared store without stateKey is refused at once, naming stateKey and the variable", () => {
    const saved = process.env[STATE_KEY_ENV];
    delete process.env[STATE_KEY_ENV];
    try {
      assert.throws(
        () => createElicitation({ store: sharedStore() }),
        /store is shared by several processes.*no stateKey was given.*MCP_ELICIT_STATE_KEY/s,
      );
      assert.doesNotThrow(() => createElicitation({ store: sharedStore(), stateKey: toStateKey(undefined) }));
    } finally {
      if (saved !== undefined) process.env[STATE_KEY_ENV] = saved;
    }
  });

  test("$MCP_ELICIT_STATE_KEY is the key when none is given (comma-separated for a ring): two kits open each other's states", async () => {
    const [key, old] = [toStateKey(undefined), toStateKey(undefined)];
    const saved = process.env[STATE_KEY_ENV];
    process.env[STATE_KEY_ENV] = `${key.toString("base64url")}, ${old.toString("hex")}`;
    let fromEnv: ReturnType<typeof makeFactory>;
    try {
      fromEnv = makeFactory({ store: sharedStore() });
    } finally {
      if (saved === undefined) delete process.env[STATE_KEY_ENV];
      else process.env[STATE_KEY_ENV] = saved;
    }
    const sealer = await connect(manualClient(), makeFactory({ stateKey: old }).factory, "2026-07-28", "memory");
    const opener = await connect(manualClient(), fromEnv.factory, "2026-07-28", "memory");
    try {
      const first = await callWith(sealer.client)({ name: "book", arguments: { city: "Rome" } });
      const retry = { name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: first.requestState };
      assert.equal(resultJson(await callWith(opener.client)(retry)).action, "accept");
    } finally {
      await Promise.all([sealer.close(), opener.close()]);
    }
  });
});

test("a state reopened by the process that sealed it skips no check: expiry, principal, tool and arguments still refuse it", () => {
  const recent = new RecentStates();
  const options = { key: toStateKey(undefined), ttlMs: 60_000, recent };
  const binding: StateBinding = { principal: "sub:ana", tool: "book", args: { city: "Rome" } };
  const token = seal({ n: 1 }, binding, options);
  assert.deepEqual(open(token, binding, options), { n: 1 });
  const refused: [Partial<StateBinding>, object, string][] = [
    [{ principal: "sub:bob" }, {}, "principal"],
    [{ tool: "pay" }, {}, "tool"],
    [{ args: { city: "Paris" } }, {}, "arguments"],
    [{}, { now: Date.now() + 61_000 }, "expired"],
    [{}, { key: toStateKey(undefined), recent: new RecentStates() }, "tampered"],
  ];
  for (const [change, extra, problem] of refused) {
    assert.throws(
      () => open(token, { ...binding, ...change }, { ...options, ...extra }),
      (e: unknown) => e instanceof StateError && e.problem === problem,
      problem,
    );
  }
});
