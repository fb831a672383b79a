// Fuzzing 2026-07-28's requestState, which the spec calls attacker-controlled: bit flips, truncation,
// extension, splices of two states, base64url alphabet abuse, replay to another tool, other arguments,
// another principal, another instance's key, expiry. Every one is refused with its problem, and nothing
// but the genuine journal ever comes out of open(). Most cases run on open() itself; a sample goes
// through a real 2026-07-28 SDK client against the kit, where a refused state must not run the handler.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  digest,
  open,
  ROUTE_TAG_PATTERN,
  seal,
  StateError,
  toStateKey,
  type StateBinding,
  type StateProblem,
} from "../../src/server/base/sealed-state.js";
import { callWith, manualClient } from "../helpers/manual-client.js";
import { connect } from "../helpers/mcp.js";
import { makeFactory } from "../helpers/server-fixtures.js";
import { fcParams, measured, runs } from "../helpers/fuzz/settings.js";

const key = toStateKey("11".repeat(32));
const otherKey = toStateKey("22".repeat(32));
const options = { key, ttlMs: 60_000 };
const binding: StateBinding = { principal: "sub:ana", tool: "book", args: { city: "Rome", n: 1 } };

/** Journals like the kit's: answers by key, step results, and sometimes big enough to be deflated. */
const journal = fc
  .record({
    answers: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    steps: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    pad: fc.oneof(fc.constant(""), fc.string({ minLength: 1000, maxLength: 3000 })),
  })
  // What a journal is once it went through JSON (plain prototypes, no -0), so it can be compared after open().
  .map((j) => JSON.parse(JSON.stringify(j)) as unknown);

/** What open() does with `token`: the journal, or the problem it was refused with (any other throw fails the property). */
function outcome(token: unknown, b: StateBinding = binding, o: Parameters<typeof open>[2] = options): { data: unknown } | StateProblem {
  try {
    return { data: open(token, b, o) };
  } catch (error) {
    if (error instanceof StateError) return error.problem;
    throw error;
  }
}

const bytesOf = (token: string) => Buffer.from(token, "base64url");
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A forgery is refused; a text that decodes to the very same bytes (base64url's unused low bits) opens to the same journal. */
function assertRefusedOrSame(mutated: string, original: string, data: unknown, allowed: StateProblem[]) {
  const result = outcome(mutated);
  if (typeof result === "string") {
    assert.ok(allowed.includes(result), `refused as ${result}, expected one of ${allowed.join(", ")}`);
    return;
  }
  assert.ok(bytesOf(mutated).equals(bytesOf(original)), "open() accepted a state whose bytes differ from the one sealed");
  assert.deepEqual(result.data, data);
}

test("open() refuses every mutation of a sealed state and never returns a forged journal", async () => {
  const n = runs(2000, 0.6);
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("bit" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("extend" as const), tail: fc.string({ unit: fc.constantFrom(...B64URL), minLength: 1, maxLength: 40 }) }),
    fc.record({ kind: fc.constant("splice" as const), other: journal, at: fc.nat() }),
    fc.record({ kind: fc.constant("char" as const), at: fc.nat(), with: fc.constantFrom(...B64URL) }),
    fc.record({ kind: fc.constant("other-key" as const) }),
  );
  await measured("requestState open() mutations", n, () =>
    fc.assert(
      fc.property(journal, mutation, (data, m) => {
        const token = seal(data, binding, options);
        const raw = bytesOf(token);
        switch (m.kind) {
          case "bit": {
            const i = m.at % raw.length;
            const flipped = Buffer.from(raw);
            flipped[i]! ^= 1 << m.bit;
            // The version byte says "unknown format"; anywhere else GCM's tag fails.
            assert.equal(outcome(flipped.toString("base64url")), i === 0 ? "malformed" : "tampered");
            return;
          }
          case "truncate":
            return assertRefusedOrSame(token.slice(0, m.at % token.length), token, data, ["malformed", "tampered"]);
          case "extend":
            return assertRefusedOrSame(token + m.tail, token, data, ["malformed", "tampered"]);
          case "char": {
            const i = m.at % token.length;
            return assertRefusedOrSame(token.slice(0, i) + m.with + token.slice(i + 1), token, data, ["malformed", "tampered"]);
          }
          case "splice": {
            const other = seal(m.other, binding, options);
            const i = m.at % Math.min(token.length, other.length);
            const spliced = token.slice(0, i) + other.slice(i);
            // Two genuine states, each with its own IV: any mix of them is a forgery (or one of them whole).
            const result = outcome(spliced);
            if (typeof result === "string") assert.ok(["malformed", "tampered"].includes(result), result);
            else assert.ok(bytesOf(spliced).equals(bytesOf(other)), "a splice of two states opened");
            return;
          }
          case "other-key":
            assert.equal(outcome(seal(data, binding, { key: otherKey, ttlMs: 60_000 })), "tampered");
            // A ring that no longer holds the sealing key refuses it too; one that does opens it.
            assert.equal(outcome(token, binding, { key: otherKey, ring: [otherKey], ttlMs: 60_000 }), "tampered");
            assert.deepEqual(outcome(token, binding, { key: otherKey, ring: [otherKey, key], ttlMs: 60_000 }), { data });
            return;
        }
      }),
      fcParams(n),
    ),
  );
});

test("open() refuses text outside base64url and values that are not text as malformed", async () => {
  const n = runs(1000, 0.2);
  const outside = fc.constantFrom("+", "/", "=", " ", "%", ".", "\n", "\u0000", "é", "\u202E", "\u200B", "＋", "🔐");
  const notText = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.object(),
    fc.array(fc.string()),
  );
  await measured("requestState open() alphabet", n, () =>
    fc.assert(
      fc.property(journal, fc.nat(), outside, notText, (data, at, bad, value) => {
        const token = seal(data, binding, options);
        const i = at % (token.length + 1);
        const prefix = token.slice(0, i);
        const got = outcome(prefix + bad + token.slice(i));
        // A dot after 1 to 32 base64url characters makes them a route tag, read as public and skipped:
        // what follows is then a cut token, refused malformed, or tampered when its first byte happens to
        // read as the format's version (1 in 256, by the random IV). Either way it is refused.
        if (bad === "." && ROUTE_TAG_PATTERN.test(prefix)) assert.ok(got === "malformed" || got === "tampered", String(got));
        else assert.equal(got, "malformed");
        assert.equal(outcome(value), "malformed");
        assert.equal(outcome(""), "malformed");
      }),
      fcParams(n),
    ),
  );
});

test("open() refuses a genuine state replayed to another tool, other arguments, another principal, or late", async () => {
  const n = runs(1000, 0.2);
  const args = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  await measured("requestState open() replays", n, () =>
    fc.assert(
      fc.property(
        journal,
        args,
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        args,
        (data, a, tool, principal, otherArgs) => {
          const bound: StateBinding = { principal: "sub:ana", tool: "book", args: a };
          const token = seal(data, bound, options);
          assert.deepEqual(outcome(token, bound), { data });
          if (tool !== bound.tool) assert.equal(outcome(token, { ...bound, tool }), "tool");
          if (principal !== bound.principal) assert.equal(outcome(token, { ...bound, principal }), "principal");
          // Arguments that hash equally are the same call (key order aside).
          if (digest(otherArgs) !== digest(a)) assert.equal(outcome(token, { ...bound, args: otherArgs }), "arguments");
          assert.equal(outcome(token, bound, { ...options, now: Date.now() + 60_001 }), "expired");
        },
      ),
      fcParams(n),
    ),
  );
});

test("through a real 2026-07-28 client, a fuzzed requestState is refused with -32602 and its problem, and the tool does not run", async () => {
  const n = runs(200, 0.01);
  const made = makeFactory({ stateKey: key });
  const elsewhere = makeFactory({ stateKey: otherKey });
  const conn = await connect(manualClient(), made.factory, "2026-07-28", "memory");
  const other = await connect(manualClient(), elsewhere.factory, "2026-07-28", "memory");
  const okAnswer = { "elicit-1": { action: "accept", content: { confirmBooking: true } } };
  const call = callWith(conn.client);
  try {
    const first = await call({ name: "book", arguments: { city: "Rome" } });
    const state = first.requestState as string;
    const foreign = (await callWith(other.client)({ name: "book", arguments: { city: "Rome" } })).requestState as string;
    const attack = fc.oneof(
      fc.record({ requestState: fc.nat().map((i) => flipChar(state, i)), expect: fc.constant(["tampered", "malformed"]) }),
      fc.record({ requestState: fc.nat().map((i) => state.slice(0, i % state.length)), expect: fc.constant(["tampered", "malformed"]) }),
      fc.record({ requestState: fc.string({ minLength: 1, maxLength: 200 }), expect: fc.constant(["tampered", "malformed"]) }),
      fc.record({ requestState: fc.constant(foreign), expect: fc.constant(["tampered"]) }),
    );
    await measured("requestState over a 2026-07-28 client", n, () =>
      fc.assert(
        fc.asyncProperty(attack, fc.boolean(), async ({ requestState, expect }, otherArgs) => {
          const runsBefore = made.counters.handlerRuns;
          const args = otherArgs ? { city: "Paris" } : { city: "Rome" };
          const error = await call({ name: "book", arguments: args, inputResponses: okAnswer, requestState }).then(
            (result) => assert.fail(`a fuzzed state was accepted: ${JSON.stringify(result).slice(0, 200)}`),
            (e: { code?: number; data?: { reason?: string } }) => e,
          );
          assert.equal(error.code, -32602);
          const allowed: readonly string[] = otherArgs && requestState === state ? ["arguments"] : expect;
          assert.ok(allowed.includes(String(error.data?.reason)), `reason ${error.data?.reason}, expected ${allowed.join("/")}`);
          assert.equal(made.counters.handlerRuns, runsBefore, "the tool ran on a refused state");
        }),
        fcParams(n),
      ),
    );
    // The genuine state still completes the call after all of that.
    const done = await call({ name: "book", arguments: { city: "Rome" }, inputResponses: okAnswer, requestState: state });
    assert.equal(done.isError, undefined);
  } finally {
    await conn.close();
    await other.close();
  }
});

/** `state` with the character at `i` replaced by another base64url character whose value differs in its high bits. */
function flipChar(state: string, i: number): string {
  const at = i % (state.length - 1);
  const c = state[at]!;
  return state.slice(0, at) + (c === "A" ? "g" : "A") + state.slice(at + 1);
}
