// watch_fare: a task that outlives the conversation. It checks the fare until it drops under the
// traveler's limit (a simulated market: it falls a little at each check), then asks whether to book
// it, and books on yes. Each check is a ctx.step, so a task picked up again after a restart does not
// wait through the checks already made.
import { setTimeout as delay } from "node:timers/promises";
import type { CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import { yesNo } from "../../schema/builders.js";
import type { Elicitation, ElicitContext } from "../../server/kit/elicitation.js";
import type { McpServer } from "@modelcontextprotocol/server";
import { usd } from "./flights.js";
import { fail, resolveTrip, say, tripArgs } from "./trip.js";

/** How many checks a watch makes before it gives up, and how far apart. */
export const FARE_WATCH = { checks: 8, everyMs: Number(process.env.ELICIT_FARE_WATCH_MS ?? 1000) };

/** The fare at check `n` (0 first): the cheapest fare plus a markup that shrinks with each check. */
export const fareAt = (cheapest: number, n: number) => cheapest + Math.max(0, 120 - 35 * n);

async function watchFare(
  args: { destination: string; departDate: string; returnDate: string; below: number },
  ctx: ElicitContext,
): Promise<CallToolResult> {
  const trip = resolveTrip(args);
  if (typeof trip === "string") return fail(trip);
  const cheapest = Math.min(...trip.flights.map((f) => f.priceUsd));
  const city = trip.destination.city;
  for (let n = 0; n < FARE_WATCH.checks; n++) {
    const fare = await ctx.step(`check-${n}`, async () => {
      if (n > 0) await delay(FARE_WATCH.everyMs, undefined, { signal: ctx.mcpReq.signal });
      return fareAt(cheapest, n);
    });
    if (fare >= args.below) continue;
    const book = await ctx.ask(
      `${city} dropped to ${usd(fare)} (under your ${usd(args.below)}). Book this fare?`,
      // The field's own label says what a yes does (the form's one field would otherwise read "Answer").
      yesNo({ title: `Book the ${city} fare at ${usd(fare)}`, default: false }),
    );
    if (book.action !== "accept" || !book.content)
      return say(`Not booked: the ${city} fare was ${usd(fare)} when you said no.`, { booked: false, fareUsd: fare });
    const reference = await ctx.step("book", () => `FW-${trip.destination.code}-${fare}`);
    return say(`Booked the ${city} fare at ${usd(fare)}: reference ${reference}.`, { booked: true, fareUsd: fare, reference });
  }
  return say(`The ${city} fare never dropped under ${usd(args.below)} in ${FARE_WATCH.checks} checks; nothing was booked.`, {
    booked: false,
  });
}

export function registerFareWatch(kit: Elicitation, server: McpServer): void {
  kit.registerTool(
    server,
    "watch_fare",
    {
      title: "Watch a fare",
      description:
        "Watches the round-trip fare until it drops under `below` (US dollars), then asks the traveler whether to book it. Runs as a task for clients that take tasks.",
      inputSchema: z.object({
        ...tripArgs,
        below: z.number().int().positive().describe("Book when the fare drops under this, in US dollars"),
      }),
      task: "optional",
    },
    (args, ctx) => watchFare(args, ctx),
  );
}
