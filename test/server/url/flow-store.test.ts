// ctx.elicit end to end: real SDK v2 clients and servers, in-memory and Streamable HTTP on
// 127.0.0.1, on connections negotiated at each revision; every elicitation message on the wire
// is validated by the wire checks of test/helpers/wire.ts (and the official schema.json when MCP_SPEC_DIR is set).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PROTOCOL_REVISIONS, type ProtocolRevision } from "../../../src/schema/types.js";
import { assertWireValid, clientFor, connect, elicitationsOn, type TransportKind } from "../../helpers/mcp.js";
import { resultJson } from "../../helpers/results.js";
import { accept, answerWith, makeFactory } from "../../helpers/server-fixtures.js";

const TRANSPORTS: TransportKind[] = ["memory", "http"];

async function withConnection(
  revision: ProtocolRevision,
  kind: TransportKind,
  body: (ctx: Awaited<ReturnType<typeof connect>> & ReturnType<typeof makeFactory>) => Promise<void>,
  options: Parameters<typeof makeFactory>[0] = {},
  capabilities?: Record<string, unknown>,
) {
  const made = makeFactory(options);
  const connection = await connect(clientFor(revision, capabilities), made.factory, revision, kind);
  try {
    await body({ ...connection, ...made });
    assert.ok(assertWireValid(connection.wire, revision) >= 0);
  } finally {
    await connection.close();
  }
}

for (const revision of PROTOCOL_REVISIONS) {
  for (const kind of TRANSPORTS) {
    describe(`ctx.elicit on ${revision} over ${kind}`, () => {
      test("an accepted answer arrives typed, validated and with defaults applied", async () => {
        await withConnection(revision, kind, async ({ client, wire }) => {
          answerWith(client, [accept({ confirmBooking: true, seatPreference: "aisle", email: "ana@example.com", stray: "dropped" })]);
          const result = resultJson(await client.callTool({ name: "book", arguments: { city: "Barcelona" } }));
          assert.deepEqual(result, {
            action: "accept",
            content: { confirmBooking: true, seatPreference: "aisle", email: "ana@example.com", travelInsurance: false },
            seat: "aisle",
            protocol: revision,
          });
          const [sent] = elicitationsOn(wire);
          assert.equal(sent!.message, "Confirm your Barcelona trip");
          const seat = sent!.requestedSchema.properties.seatPreference;
          if (revision === "2025-06-18") {
            // That revision has no titled oneOf: the titles travel as enumNames, and no non-boolean defaults.
            assert.deepEqual(seat, {
              type: "string",
              enum: ["window", "aisle", "no preference"],
              enumNames: ["Window", "Aisle", "No preference"],
            });
            assert.equal(sent!.mode, undefined);
          } else {
            assert.deepEqual(seat.oneOf[0], { const: "window", title: "Window" });
            assert.equal(sent!.mode, "form");
          }
          assert.ok(assertWireValid(wire, revision) >= 2, "the request and its answer were checked against schema.json");
        });
      });

      test("decline and cancel reach the handler as themselves", async () => {
        await withConnection(revision, kind, async ({ client }) => {
          answerWith(client, [() => ({ action: "decline" }), () => ({ action: "cancel" })]);
          assert.deepEqual(resultJson(await client.callTool({ name: "book", arguments: { city: "Oslo" } })), {
            action: "decline",
            protocol: revision,
          });
          assert.deepEqual(resultJson(await client.callTool({ name: "book", arguments: { city: "Oslo" } })), {
            action: "cancel",
            protocol: revision,
          });
        });
      });

      test("an invalid answer is asked again with each field's error and the valid answers as defaults", async () => {
        await withConnection(revision, kind, async ({ client, wire }) => {
          const seen = answerWith(client, [
            accept({ confirmBooking: "yes", seatPreference: "aisle", email: "not-an-email" }),
            accept({ confirmBooking: true, seatPreference: "aisle", email: "ana@example.com" }),
          ]);
          const result = resultJson(await client.callTool({ name: "book", arguments: { city: "Rome" } }));
          assert.equal(result.action, "accept");
          assert.equal(seen.length, 2);
          assert.match(
            seen[1]!.message,
            /^Confirm your Rome trip\n\nPlease correct the following and answer again:\n- Confirm booking must be yes or no \(true or false\)\n- Email must be an email address, like name@example\.com$/,
          );
          const retried = elicitationsOn(wire)[1]!.requestedSchema.properties;
          if (revision !== "2025-06-18") assert.equal(retried.seatPreference.default, "aisle");
          assert.equal(retried.email.default, undefined, "an invalid answer is not offered back as a default");
        });
      });

      test("answers still invalid after the allowed attempts end the tool with a clear error", async () => {
        await withConnection(revision, kind, async ({ client }) => {
          const seen = answerWith(client, [accept({ email: "nope" })]);
          const result = (await client.callTool({ name: "book", arguments: { city: "Rome" } })) as {
            isError?: boolean;
            content: { text: string }[];
          };
          assert.equal(result.isError, true);
          assert.equal(
            result.content[0]!.text,
            "The answer was still invalid after 2 attempts: Confirm booking is required; Email must be an email address, like name@example.com.",
          );
          assert.equal(seen.length, 2);
        });
      });

      test("questions asked together are all answered, and a step's side effect runs once", async () => {
        await withConnection(revision, kind, async ({ client, wire, counters }) => {
          answerWith(client, [
            (p) => ({
              action: "accept",
              content:
                "name" in p.requestedSchema.properties
                  ? { name: "Ana" }
                  : p.requestedSchema.properties.phone
                    ? { phone: "555" }
                    : p.requestedSchema.properties.ok
                      ? { ok: true }
                      : { stars: "5" },
            }),
          ]);
          assert.deepEqual(resultJson(await client.callTool({ name: "two_at_once", arguments: {} })), {
            a: { action: "accept", content: { name: "Ana" } },
            b: { action: "accept", content: { phone: "555" } },
          });
          if (revision === "2026-07-28") {
            const rounds = wire.filter((w) => w.dir === "in" && w.message.result?.resultType === "input_required");
            assert.equal(rounds.length, 1, "both questions went out in one round");
            assert.deepEqual(Object.keys(rounds[0]!.message.result.inputRequests), ["elicit-1", "elicit-2"]);
          }
          const paid = resultJson(await client.callTool({ name: "pay_then_ask", arguments: {} }));
          assert.equal(paid.receipt, "receipt-1");
          assert.equal(counters.sideEffects, 1);
          // On 2026-07-28 each retry came back to this process, which resumed the handler (warm rounds)
          // rather than replaying it: it ran once, as on a live connection; the charge ran once.
          assert.equal(counters.handlerRuns, 1);
        });
      });
    });
  }
}

describe("revision limits and capabilities", () => {
  test("a multi-select form is refused before anything is sent to a 2025-06-18 peer", async () => {
    await withConnection("2025-06-18", "memory", async ({ client, wire }) => {
      answerWith(client, [accept({ toppings: ["ham"] })]);
      const result = (await client.callTool({ name: "pick_many", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(result.isError, true);
      assert.match(
        result.content[0]!.text,
        /cannot be sent on protocol 2025-06-18:\n {2}\/properties\/toppings: Field "toppings" is a multi-select, which does not exist before 2025-11-25\. \[revision-multi-select\]/,
      );
      assert.equal(elicitationsOn(wire).length, 0);
    });
    await withConnection("2025-11-25", "memory", async ({ client }) => {
      answerWith(client, [accept({ toppings: ["ham"] })]);
      assert.deepEqual(resultJson(await client.callTool({ name: "pick_many", arguments: {} })), {
        action: "accept",
        content: { toppings: ["ham"] },
      });
    });
  });

  for (const revision of ["2025-06-18", "2025-11-25"] as const) {
    test(`without the elicitation capability a ${revision} call gets a tool error naming the input and its fields`, async () => {
      await withConnection(
        revision,
        "memory",
        async ({ client, wire }) => {
          const result = (await client.callTool({ name: "book", arguments: { city: "Lima" } })) as Record<string, any>;
          assert.equal(result.isError, true);
          assert.match(
            result.content[0].text,
            /needs input from the user, but the client does not support elicitation\. Needed: "Confirm your Lima trip" with fields: Confirm booking \(required\), Seat preference, Email, Travel insurance\./,
          );
          assert.equal(result.structuredContent.error, "input_unavailable");
          assert.deepEqual(
            result.structuredContent.fields.map((f: { name: string }) => f.name),
            ["confirmBooking", "seatPreference", "email", "travelInsurance"],
          );
          assert.equal(elicitationsOn(wire).length, 0);
        },
        {},
        {},
      );
    });
  }

  test("a client that declared only URL mode is never sent a form", async () => {
    await withConnection(
      "2025-11-25",
      "memory",
      async ({ client, wire }) => {
        const result = (await client.callTool({ name: "book", arguments: { city: "Lima" } })) as Record<string, any>;
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /does not support form-mode elicitation/);
        assert.equal(elicitationsOn(wire).length, 0);
      },
      {},
      { elicitation: { url: {} } },
    );
  });

  test("without the elicitation capability a 2026-07-28 call fails with -32021 naming the capability", async () => {
    await withConnection(
      "2026-07-28",
      "memory",
      async ({ client }) => {
        await assert.rejects(client.callTool({ name: "book", arguments: { city: "Lima" } }), (e: any) => {
          assert.equal(e.code, -32021);
          assert.deepEqual(e.data.requiredCapabilities, { elicitation: { form: {} } });
          return true;
        });
      },
      {},
      {},
    );
  });
});
