// The model-free ranking rule on the bundled Barcelona timetable, and the dataset it ranks.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkDates, DEMO_TRIP, flightsFor, HOTELS, type Flight } from "../../src/servers/travel/flights.js";
import { DEFAULT_PREFERENCES, explain, parsePreferences, rankFlights } from "../../src/servers/travel/ranking.js";

const flights = flightsFor(DEMO_TRIP.destination, DEMO_TRIP.departDate, DEMO_TRIP.returnDate);
const ids = (list: { flight: Flight }[], n = 3) => list.slice(0, n).map((r) => r.flight.id);
const hourOf = (iso: string) => Number(iso.slice(11, 13));

describe("the bundled dataset", () => {
  test("has at least 40 Barcelona fares for the demo dates, each complete and consistent", () => {
    assert.ok(flights.length >= 40, `${flights.length} flights`);
    assert.equal(new Set(flights.map((f) => f.id)).size, flights.length, "ids are unique");
    for (const f of flights) {
      for (const leg of [f.outbound, f.inbound]) {
        assert.ok(leg.layovers.length <= 2);
        assert.equal(leg.flightNumbers.length, leg.layovers.length + 1);
        // Local times carry their offsets, so the duration can be checked against them.
        assert.equal((Date.parse(leg.arrive) - Date.parse(leg.depart)) / 60_000, leg.durationMinutes, `${f.id} duration`);
        leg.segments.slice(1).forEach((s, i) => assert.equal(s.from, leg.segments[i]!.to, `${f.id} connects`));
      }
      assert.ok(f.outbound.depart.startsWith("2026-06-15T") && f.inbound.depart.startsWith("2026-06-22T"));
      assert.equal(f.outbound.to, "BCN");
      assert.equal(f.inbound.from, "BCN");
      assert.ok(f.priceUsd > 0);
    }
    for (const stops of [0, 1, 2])
      assert.ok(
        flights.some((f) => f.outbound.layovers.length === stops),
        `some fares have ${stops} layovers`,
      );
    assert.deepEqual(flightsFor("BCN", "2026-06-15", "2026-06-22"), flights, "deterministic");
  });

  test("the default flight and the beachfront hotel make the seed's $3,000", () => {
    const best = rankFlights(flights, DEFAULT_PREFERENCES)[0]!.flight;
    assert.equal(best.id, "BCN-11");
    assert.equal(best.priceUsd + HOTELS.BCN!.nightlyUsd * 7, 3000);
    assert.equal(HOTELS.BCN!.kind, "beachfront hotel");
  });

  test("dates are checked with clear reasons", () => {
    assert.equal(checkDates("2026-06-15", "2026-06-22"), undefined);
    assert.match(checkDates("2026-06-22", "2026-06-15")!, /returnDate 2026-06-15 is before departDate 2026-06-22/);
    assert.match(checkDates("2026-02-30", "2026-06-22")!, /departDate "2026-02-30" is not a date; use YYYY-MM-DD/);
    assert.match(checkDates("2026-06-15", "2026-06-15")!, /at least one night/);
    assert.match(checkDates("2027-01-05", "2027-01-12")!, /outside the timetable, which covers 2026-06-01 to 2026-08-31/);
  });
});

describe("rankFlights", () => {
  test("morning departure + max 1 layover: morning flights with at most one layover per leg, balanced", () => {
    const ranked = rankFlights(flights, "morning departure, max 1 layover");
    assert.deepEqual(ids(ranked), ["BCN-11", "BCN-14", "BCN-12"]);
    const eligible = flights.filter(
      (f) =>
        hourOf(f.outbound.depart) >= 5 &&
        hourOf(f.outbound.depart) < 12 &&
        f.outbound.layovers.length <= 1 &&
        f.inbound.layovers.length <= 1,
    );
    // Every eligible flight comes before every other one.
    assert.deepEqual(new Set(ids(ranked, eligible.length)), new Set(eligible.map((f) => f.id)));
    assert.ok(ranked.slice(0, eligible.length).every((r) => r.meets && r.inWindow));
    // A cheaper morning flight with two layovers (BCN-36, $940) breaks the limit and is ranked after them all.
    const cheapTwoStop = ranked.findIndex((r) => r.flight.id === "BCN-36");
    assert.ok(cheapTwoStop >= eligible.length);
    assert.equal(ranked[cheapTwoStop]!.meets, false);
    assert.match(
      explain(ranked[0]!),
      /^BCN-11 \(British Airways, \$1,180\): 1 layover per leg \(LHR\); \$1,180; departs 08:25: morning, as asked; 23h25 total travel time; score 156\.9$/,
    );
    assert.match(explain(ranked[cheapTwoStop]!), /2 layovers per leg \(BOS, DUB\): more than the max 1 asked.*\[breaks a stated limit\]/);
  });

  test("cheapest: the lowest fare of all comes first, then by price", () => {
    const ranked = rankFlights(flights, "cheapest");
    const prices = ranked.map((r) => r.flight.priceUsd);
    assert.deepEqual(
      prices,
      [...prices].sort((a, b) => a - b),
    );
    assert.equal(ranked[0]!.flight.priceUsd, Math.min(...flights.map((f) => f.priceUsd)));
    assert.deepEqual(ids(ranked), ["BCN-37", "BCN-33", "BCN-07"]);
  });

  test("nonstop: only nonstop flights lead, the best balance of price and time first", () => {
    const ranked = rankFlights(flights, "nonstop please");
    const nonstop = flights.filter((f) => f.outbound.layovers.length === 0 && f.inbound.layovers.length === 0);
    assert.ok(ranked.slice(0, nonstop.length).every((r) => r.flight.outbound.layovers.length === 0 && r.meets));
    assert.deepEqual(ids(ranked), ["BCN-07", "BCN-06", "BCN-02"]);
    const scores = ranked.slice(0, nonstop.length).map((r) => r.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
  });

  test("combined limits: cheapest nonstop, and business under a price ceiling", () => {
    assert.deepEqual(ids(rankFlights(flights, "cheapest direct flight"), 2), ["BCN-07", "BCN-06"]);
    const business = rankFlights(flights, "business class, under $4,500");
    assert.deepEqual(ids(business, 2), ["BCN-18", "BCN-25"]);
    assert.ok(business.slice(0, 2).every((r) => r.flight.cabin === "business" && r.flight.priceUsd <= 4500));
  });

  test("parsePreferences says what it understood", () => {
    assert.deepEqual(parsePreferences("morning departure, max 1 layover").understood, [
      "at most 1 layover per leg",
      "morning departure",
      "balance of price, time and connections",
    ]);
    assert.deepEqual(parsePreferences("no more than two stops, red-eye is fine, cheapest").understood, [
      "at most 2 layovers per leg",
      "night departure",
      "cheapest first",
    ]);
    assert.deepEqual(parsePreferences("fastest, premium economy, prefer Delta", ["Delta", "KLM"]).understood, [
      "premium economy cabin",
      "fastest first",
      "prefers Delta",
    ]);
    const p = parsePreferences("max 1 layover under $1,000");
    assert.equal(p.maxLayovers, 1);
    assert.equal(p.maxPriceUsd, 1000);
  });
});
