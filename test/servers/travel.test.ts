// The travel demo server end to end: real SDK v2 clients (elicitation through attachElicitation +
// scriptedUI; sampling and roots through raw handlers), in-memory and over Streamable HTTP, on every
// revision. Closing each connection validates every elicitation message on the wire against the
// revision's schema.json.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../src/client/attach.js";
import { scriptedUI, type ScriptedAnswer } from "../../src/ui/scripted.js";
import { PROTOCOL_REVISIONS, type FormContent, type ProtocolRevision } from "../../src/schema/types.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { createTravelServer } from "../../src/servers/travel/server.js";
import { REFERENCE_PATTERN, type Booking } from "../../src/servers/travel/bookings.js";
import { MODEL_PREFERENCES, SYSTEM_PROMPT } from "../../src/servers/travel/best-flight.js";
import { clientFor, connect, elicitationsOn, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { bookingSchema } from "../helpers/seeds.js";
import { removeOnExit } from "../helpers/cleanup.js";

const TRANSPORTS: TransportKind[] = ["memory", "http"];
const TRIP = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
const CONFIRM = "^Please confirm your Barcelona vacation booking details:";
const CONTACT = "^Who is traveling\\?";
const ANA = { fullName: "Ana García", email: "ana@example.com", phone: "+34 600 123 456" };

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };
type SamplingHandler = (params: Record<string, any>) => unknown;

interface Setup {
  answers?: ScriptedAnswer[];
  /** Capabilities besides elicitation (which attachElicitation declares). */
  capabilities?: Record<string, unknown>;
  sampling?: SamplingHandler;
  roots?: { uri: string; name?: string }[];
}

interface Session {
  client: Client;
  wire: WireMessage[];
  store: Map<string, Booking>;
  notices: string[];
  sampled: Record<string, any>[];
  call(name: string, args: Record<string, unknown>): Promise<Result>;
}

const kit = createElicitation();

async function withTravel(revision: ProtocolRevision, kind: TransportKind, setup: Setup, body: (s: Session) => Promise<void>) {
  const store = new Map<string, Booking>();
  const notices: string[] = [];
  const sampled: Record<string, any>[] = [];
  const client = clientFor(revision, setup.capabilities ?? {});
  attachElicitation(client, { ui: scriptedUI(setup.answers ?? [], { log: (line) => notices.push(line) }), modes: ["form"] });
  if (setup.sampling) {
    const answer = setup.sampling;
    client.setRequestHandler("sampling/createMessage", async (request) => {
      sampled.push(request.params as Record<string, any>);
      return answer(request.params as Record<string, any>) as never;
    });
  }
  if (setup.roots) {
    const roots = setup.roots;
    client.setRequestHandler("roots/list", async () => ({ roots }));
  }
  const connection = await connect(client, createTravelServer(kit, { store }), revision, kind);
  try {
    await body({
      client,
      wire: connection.wire,
      store,
      notices,
      sampled,
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
    });
  } finally {
    await connection.close();
  }
}

const textOf = (r: Result) => r.content.map((c) => c.text).join("\n");

/** Books the demo trip with scripted answers; returns the booking reference. */
async function bookDemo(s: Session) {
  const result = await s.call("book_trip", TRIP);
  assert.notEqual(result.isError, true, textOf(result));
  return { result, reference: result.structuredContent!.reference as string };
}

const acceptBoth = (confirm: FormContent, contact: FormContent = ANA): ScriptedAnswer[] => [
  { match: CONFIRM, action: "accept", content: confirm },
  { match: CONTACT, action: "accept", content: contact },
];

const modelSays =
  (text: string): SamplingHandler =>
  () => ({ role: "assistant", content: { type: "text", text }, model: "test-model-1" });

for (const revision of PROTOCOL_REVISIONS) {
  for (const kind of TRANSPORTS) {
    describe(`travel server on ${revision} over ${kind}`, () => {
      test("search_flights lists the fares, and refuses unknown destinations and bad dates clearly", async () => {
        await withTravel(revision, kind, {}, async (s) => {
          const found = await s.call("search_flights", TRIP);
          assert.notEqual(found.isError, true);
          assert.equal(found.structuredContent!.flights.length, 44);
          assert.equal(found.structuredContent!.destination.code, "BCN");
          assert.match(
            textOf(found),
            /^44 round-trip fares from New York to Barcelona \(BCN\), June 15-22, per traveler:\nBCN-01: Delta, economy, \$1,240 round trip \| out 17:45 JFK → 08:05\+1 BCN/,
          );
          assert.match(textOf(found), /Hotel for the stay: Hotel Mar Bella Beachfront \(beachfront hotel\), 7 nights at \$260\/night\./);

          const lisbon = await s.call("search_flights", { ...TRIP, destination: "lis" });
          assert.equal(lisbon.structuredContent!.flights.length, 5);

          const unknown = await s.call("search_flights", { ...TRIP, destination: "Atlantis" });
          assert.equal(unknown.isError, true);
          assert.match(
            textOf(unknown),
            /^Unknown destination "Atlantis"\. This demo flies from New York to: Barcelona \(BCN\), Lisbon \(LIS\)/,
          );
          const backwards = await s.call("search_flights", { ...TRIP, departDate: "2026-06-22", returnDate: "2026-06-15" });
          assert.equal(backwards.isError, true);
          assert.equal(textOf(backwards), "returnDate 2026-06-15 is before departDate 2026-06-22.");
          const garbled = await s.call("search_flights", { ...TRIP, departDate: "15/06/2026" });
          assert.equal(garbled.isError, true);
          assert.match(textOf(garbled), /departDate "15\/06\/2026" is not a date; use YYYY-MM-DD/);
        });
      });

      test("book_trip asks the seed's form, then contact details, and books once", async () => {
        await withTravel(
          revision,
          kind,
          { answers: acceptBoth({ confirmBooking: true, seatPreference: "window", roomType: "sea view", travelInsurance: true }) },
          async (s) => {
            const { result, reference } = await bookDemo(s);
            assert.match(reference, REFERENCE_PATTERN);
            assert.match(
              textOf(result),
              new RegExp(
                `^Booked! Reference ${reference}: Barcelona flights June 15-22, beachfront hotel, for Ana García \\(seat: window, room: sea view, travel insurance \\$150\\)\\. Total to pay \\$3,150 \\(nothing is charged until pay_for_booking\\)\\.`,
              ),
            );
            assert.equal(result.structuredContent!.totalUsd, 3150);

            const [confirm, contact] = elicitationsOn(s.wire);
            // The form on the wire is the seed's, exactly (the demo's total is the seed's $3,000).
            assert.deepEqual(confirm!.requestedSchema, bookingSchema());
            assert.match(
              confirm!.message,
              /^Please confirm your Barcelona vacation booking details:\nBarcelona flights June 15-22, beachfront hotel, total \$3,000\.\nFlights: British Airways economy \(BCN-11\)/,
            );
            assert.deepEqual(Object.keys(contact!.requestedSchema.properties), ["fullName", "email", "phone"]);
            assert.equal(contact!.requestedSchema.properties.email.format, "email");
            assert.deepEqual(contact!.requestedSchema.required, ["fullName", "email", "phone"]);

            // Exactly one booking, even though a 2026-07-28 call replays the handler once per round.
            assert.equal(s.store.size, 1);
            const booking = s.store.get(reference)!;
            assert.deepEqual(booking.traveler, ANA);
            assert.deepEqual(booking.price, { flightsUsd: 1180, hotelUsd: 1820, insuranceUsd: 150, totalUsd: 3150 });
            assert.equal(booking.flight.id, "BCN-11");
            if (revision === "2026-07-28") {
              const rounds = s.wire.filter((w) => w.dir === "in" && w.message.result?.resultType === "input_required");
              assert.deepEqual(
                rounds.map((r) => Object.keys(r.message.result.inputRequests)),
                [["confirm_booking"], ["traveler"]],
              );
            }
          },
        );
      });

      test("a chosen flightId is booked at its own price", async () => {
        await withTravel(revision, kind, { answers: acceptBoth({ confirmBooking: true }) }, async (s) => {
          const result = await s.call("book_trip", { ...TRIP, flightId: "BCN-07" });
          assert.match(textOf(result), /Total to pay \$2,710 \(nothing is charged until pay_for_booking\)\./); // $890 + 7 × $260
          assert.match(
            elicitationsOn(s.wire)[0]!.requestedSchema.properties.confirmBooking.description,
            /^Confirm the booking \(Flights \+ Hotel = \$2,710\)$/,
          );
          const missing = await s.call("book_trip", { ...TRIP, flightId: "BCN-99" });
          assert.equal(missing.isError, true);
          assert.match(textOf(missing), /No flight "BCN-99" to Barcelona on these dates; ids run BCN-01 to BCN-44/);
        });
      });

      for (const [name, answers, expected] of [
        ["decline", [{ match: CONFIRM, action: "decline" }], /^Nothing was booked: you declined the booking confirmation\.$/],
        ["cancel", [{ match: CONFIRM, action: "cancel" }], /^Nothing was booked: the booking confirmation was cancelled\.$/],
        [
          "an unticked confirmation",
          [{ match: CONFIRM, action: "accept", content: { confirmBooking: false, seatPreference: "aisle" } }],
          /^Nothing was booked: "Confirm the booking" was left unticked/,
        ],
        [
          "declined contact details",
          [
            { match: CONFIRM, action: "accept", content: { confirmBooking: true } },
            { match: CONTACT, action: "decline" },
          ],
          /^Nothing was booked: you declined to give the traveler's contact details/,
        ],
      ] as [string, ScriptedAnswer[], RegExp][]) {
        test(`book_trip ends without booking on ${name}, as a normal result`, async () => {
          await withTravel(revision, kind, { answers }, async (s) => {
            const result = await s.call("book_trip", TRIP);
            assert.notEqual(result.isError, true);
            assert.match(textOf(result), expected);
            assert.equal(result.structuredContent!.booked, false);
            assert.equal(s.store.size, 0, "no booking was made");
            assert.equal(elicitationsOn(s.wire).length, answers.length, "nothing more was asked");
          });
        });
      }

      test("contact details: a bad phone is asked again with the reason; a bad email never leaves the client", async () => {
        await withTravel(
          revision,
          kind,
          {
            answers: [
              { match: CONFIRM, action: "accept", content: { confirmBooking: true } },
              { match: CONTACT, action: "accept", content: { ...ANA, phone: "call me maybe" } },
              { match: CONTACT, action: "accept", content: ANA },
            ],
          },
          async (s) => {
            const result = await s.call("book_trip", TRIP);
            assert.match(textOf(result), /^Booked! /);
            const [, first, retry] = elicitationsOn(s.wire);
            assert.match(
              retry!.message,
              /\n\nPlease correct the following and answer again:\n- Phone may only contain digits, spaces, dashes, dots, brackets and a leading \+$/,
            );
            assert.equal(first!.requestedSchema.properties.fullName.default, undefined);
            if (revision !== "2025-06-18")
              assert.equal(retry!.requestedSchema.properties.fullName.default, "Ana García", "valid answers come back as defaults");
            assert.equal(s.store.size, 1);
          },
        );
        await withTravel(
          revision,
          kind,
          {
            answers: [
              { match: CONFIRM, action: "accept", content: { confirmBooking: true } },
              { match: CONTACT, action: "accept", content: { ...ANA, email: "not-an-email" } },
            ],
          },
          async (s) => {
            const result = await s.call("book_trip", TRIP);
            // The client checks the answer against the form and answers cancel rather than send it.
            assert.match(textOf(result), /^Nothing was booked: entering the traveler's contact details was cancelled\.$/);
            assert.ok(
              s.notices.some((n) => /the answer is invalid \(Email must be an email address/.test(n)),
              s.notices.join("\n"),
            );
            assert.equal(s.store.size, 0);
          },
        );
      });

      test("find_best_flight asks the client's model, as in the seed, and returns its top three", async () => {
        await withTravel(
          revision,
          kind,
          {
            capabilities: { sampling: {} },
            sampling: modelSays("BCN-14, bcn-11 and BCN 12\nAer Lingus leaves earliest and has a short connection in Dublin."),
          },
          async (s) => {
            const result = await s.call("find_best_flight", { ...TRIP, preferences: "morning departure, max 1 layover" });
            assert.equal(result.structuredContent!.method, "model");
            assert.deepEqual(
              result.structuredContent!.top.map((f: { id: string }) => f.id),
              ["BCN-14", "BCN-11", "BCN-12"],
            );
            assert.equal(result.structuredContent!.reasoning, "Aer Lingus leaves earliest and has a short connection in Dublin.");
            assert.match(textOf(result), /chosen by the client's model \(test-model-1\) from 44 options:\n1\. BCN-14: Aer Lingus/);
            const [request] = s.sampled;
            assert.equal(request!.systemPrompt, SYSTEM_PROMPT);
            assert.equal(request!.maxTokens, 1500);
            assert.deepEqual(request!.modelPreferences, MODEL_PREFERENCES);
            const prompt = request!.messages[0].content.text as string;
            assert.match(prompt, /^Analyze these flight options and recommend the best choice:\nBCN-01: /);
            assert.match(prompt, /\nUser preferences: morning departure, max 1 layover\n/);
            assert.equal(prompt.match(/^BCN-\d\d: /gm)!.length, 44, "every flight is in the message");
          },
        );
      });

      test("find_best_flight falls back to the rule when the model names no listed flight", async () => {
        await withTravel(
          revision,
          kind,
          { capabilities: { sampling: {} }, sampling: modelSays("I would take the morning Iberia flight, FL-123.") },
          async (s) => {
            const result = await s.call("find_best_flight", { ...TRIP, preferences: "morning departure, max 1 layover" });
            assert.equal(result.structuredContent!.method, "rule");
            assert.match(
              textOf(result),
              /ranked by the built-in rule because the model's answer named none of the listed flight ids:\n1\. BCN-11/,
            );
          },
        );
      });

      test("find_best_flight without the sampling capability ranks by the rule and says so", async () => {
        await withTravel(revision, kind, {}, async (s) => {
          const result = await s.call("find_best_flight", { ...TRIP, preferences: "morning departure, max 1 layover" });
          assert.notEqual(result.isError, true);
          assert.equal(result.structuredContent!.method, "rule");
          assert.deepEqual(
            result.structuredContent!.top.map((f: { id: string }) => f.id),
            ["BCN-11", "BCN-14", "BCN-12"],
          );
          assert.match(
            textOf(result),
            /ranked by the built-in rule because the client did not declare the sampling capability, so no model could be asked:/,
          );
          assert.match(
            textOf(result),
            /\n- BCN-11 \(British Airways, \$1,180\): 1 layover per leg \(LHR\); \$1,180; departs 08:25: morning, as asked/,
          );
          assert.equal(s.sampled.length, 0);
        });
      });

      test("find_best_flight with a denied sampling request", async () => {
        const deny: SamplingHandler = () => {
          throw new ProtocolError(-1, "User rejected sampling request");
        };
        await withTravel(revision, kind, { capabilities: { sampling: {} }, sampling: deny }, async (s) => {
          if (revision === "2026-07-28") {
            // 2026-07-28 has no way to send a refusal back: the client does not retry, so the call ends client-side.
            await assert.rejects(s.call("find_best_flight", { ...TRIP, preferences: "cheapest" }), /User rejected sampling request/);
            // What elicit demo does then: ask for the rule, and no model request is made.
            const ruled = await s.call("find_best_flight", { ...TRIP, preferences: "cheapest", rankBy: "rule" });
            assert.equal(ruled.structuredContent!.method, "rule");
            assert.deepEqual(
              ruled.structuredContent!.top.map((f: { id: string }) => f.id),
              ["BCN-37", "BCN-33", "BCN-07"],
            );
            assert.match(textOf(ruled), /ranked by the built-in rule \(no model was asked\):/);
            assert.equal(s.sampled.length, 1, "only the refused request; none for the ruled call");
            return;
          }
          const result = await s.call("find_best_flight", { ...TRIP, preferences: "cheapest" });
          assert.equal(result.structuredContent!.method, "rule");
          assert.deepEqual(
            result.structuredContent!.top.map((f: { id: string }) => f.id),
            ["BCN-37", "BCN-33", "BCN-07"],
          );
          assert.match(
            textOf(result),
            /ranked by the built-in rule because the sampling request was refused or failed \(.*User rejected sampling request\)/,
          );
          assert.equal(s.sampled.length, 1);
        });
      });

      describe("save_itinerary", () => {
        let dir: string;
        before(async () => {
          dir = await mkdtemp(join(tmpdir(), "elicit-travel-roots-"));
          removeOnExit(dir); // also when the file is cut before its after hooks
        });
        after(() => rm(dir, { recursive: true, force: true }));

        test("writes the booking's itinerary into the first root", async () => {
          const root = await mkdtemp(join(dir, "root-"));
          await withTravel(
            revision,
            kind,
            {
              answers: acceptBoth({ confirmBooking: true, roomType: "garden view" }),
              capabilities: { roots: {} },
              roots: [{ uri: pathToFileURL(root).href, name: "Travel Planning Workspace" }, { uri: pathToFileURL(dir).href }],
            },
            async (s) => {
              const { reference } = await bookDemo(s);
              const saved = await s.call("save_itinerary", { bookingReference: reference.toLowerCase() });
              assert.notEqual(saved.isError, true, textOf(saved));
              const path = join(root, `itinerary-${reference}.md`);
              assert.equal(saved.structuredContent!.path, path);
              assert.match(
                textOf(saved),
                new RegExp(
                  `^Saved the itinerary for ${reference} to .*itinerary-${reference}\\.md \\(\\d+ bytes\\) in the root "Travel Planning Workspace" file://`,
                ),
              );
              const markdown = await readFile(path, "utf8");
              assert.match(markdown, new RegExp(`^# Barcelona trip, June 15-22 — booking ${reference}\n`));
              assert.match(markdown, /Traveler: Ana García \(ana@example\.com, \+34 600 123 456\)/);
              assert.match(markdown, /Room: garden view/);
              assert.deepEqual(await readdir(root), [`itinerary-${reference}.md`]);
            },
          );
        });

        test("without the roots capability it says what it needs and gives the itinerary inline", async () => {
          await withTravel(revision, kind, { answers: acceptBoth({ confirmBooking: true }) }, async (s) => {
            const { reference } = await bookDemo(s);
            const result = await s.call("save_itinerary", { bookingReference: reference });
            assert.notEqual(result.isError, true);
            assert.deepEqual(result.structuredContent, { saved: false, needs: "roots", reference });
            assert.match(textOf(result), /^The itinerary was not saved: the client did not declare the "roots" capability/);
            assert.match(textOf(result), new RegExp(`# Barcelona trip, June 15-22 — booking ${reference}`));
          });
        });

        test("with an empty roots list it asks for a root", async () => {
          await withTravel(
            revision,
            kind,
            { answers: acceptBoth({ confirmBooking: true }), capabilities: { roots: {} }, roots: [] },
            async (s) => {
              const { reference } = await bookDemo(s);
              const result = await s.call("save_itinerary", { bookingReference: reference });
              assert.notEqual(result.isError, true);
              assert.deepEqual(result.structuredContent, { saved: false, needs: "root", reference });
              assert.match(textOf(result), /the client declared roots but listed none; add a file:\/\/ root/);
            },
          );
        });

        test("unknown references and non-file roots are clear errors", async () => {
          await withTravel(
            revision,
            kind,
            { answers: acceptBoth({ confirmBooking: true }), capabilities: { roots: {} }, roots: [{ uri: "https://example.com/trips" }] },
            async (s) => {
              const unknown = await s.call("save_itinerary", { bookingReference: "ELC-ZZZZZZ" });
              assert.equal(unknown.isError, true);
              assert.match(textOf(unknown), /^No booking ELC-ZZZZZZ was found/);
              const garbage = await s.call("save_itinerary", { bookingReference: "../../etc/passwd" });
              assert.equal(garbage.isError, true);
              assert.match(textOf(garbage), /is not a booking reference/);
              const { reference } = await bookDemo(s);
              const https = await s.call("save_itinerary", { bookingReference: reference });
              assert.equal(https.isError, true);
              if (revision === "2026-07-28") {
                assert.match(
                  textOf(https),
                  /^The itinerary was not saved: The root "https:\/\/example\.com\/trips" is a https: URI; only file:\/\/ roots/,
                );
              } else {
                // On 2025 eras the SDK itself refuses a roots/list answer with a non-file:// URI.
                assert.match(
                  textOf(https),
                  /^The client's answer to roots\/list is not valid: roots\.0\.uri: Invalid string: must start with "file:\/\/"/,
                );
              }
            },
          );
        });
      });
    });
  }
}

describe("one store across server instances", () => {
  test("a booking made over HTTP on 2026-07-28 (a server per request) is found by a 2025-11-25 session", async () => {
    const store = new Map<string, Booking>();
    const factory = createTravelServer(kit, { store });
    const modern = clientFor("2026-07-28", {});
    attachElicitation(modern, { ui: scriptedUI(acceptBoth({ confirmBooking: true }), { log: () => {} }) });
    const a = await connect(modern, factory, "2026-07-28", "http");
    let reference: string;
    try {
      const booked = (await modern.callTool({ name: "book_trip", arguments: TRIP })) as Result;
      reference = booked.structuredContent!.reference;
    } finally {
      await a.close();
    }
    const legacy = clientFor("2025-11-25", {});
    const b = await connect(legacy, factory, "2025-11-25", "http");
    try {
      const result = (await legacy.callTool({ name: "save_itinerary", arguments: { bookingReference: reference } })) as Result;
      assert.equal(result.structuredContent!.needs, "roots", "the booking was found; only the root is missing");
      assert.equal(store.size, 1);
    } finally {
      await b.close();
    }
  });
});
