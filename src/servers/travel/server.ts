// The travel example server: search flights, let the client's model pick the best
// (sampling), book with the person's confirmation and contact details (elicitation), and save the
// itinerary into the client's workspace (roots). Run it with `elicit serve travel [--http [HOST:]PORT]`.
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { Elicitation, ElicitContext } from "../../server/kit/elicitation.js";
import { findBestFlight } from "./best-flight.js";
import { bookTrip } from "./book-trip.js";
import { defaultBookingStore, mayView, REFERENCE_PATTERN, type BookingStore } from "./bookings.js";
import { dateRange, describeFlight, usd } from "./flights.js";
import { itineraryFileName, itineraryMarkdown, UnsafeWriteError, writeInRoot } from "./itinerary.js";
import { fail, resolveTrip, say, tripArgs } from "./trip.js";
import { registerUrlTools, type TravelUrlTools } from "./url-tools.js";
import { registerFareWatch } from "./fare-watch.js";

export interface TravelServerOptions {
  /** Where bookings live; default: one Map per process, shared by every instance (the HTTP path makes one per request). */
  store?: BookingStore;
  /** URL mode (startTravelUrlMode): adds pay_for_booking and connect_frequent_flyer; `kit` must be the one createElicitation got. */
  url?: TravelUrlTools;
  /**
   * book_trip asks for the passport's photo page before booking an international trip (ctx.elicitFile:
   * needs `url`, whose kit should have a file sink for files over 1 MiB). `elicit serve travel --passport`; the demo sets it.
   */
  passport?: boolean;
}

function searchFlights(args: { destination: string; departDate: string; returnDate: string }): CallToolResult {
  const trip = resolveTrip(args);
  if (typeof trip === "string") return fail(trip);
  const { destination, flights, hotel, nights } = trip;
  return say(
    [
      `${flights.length} round-trip fares from New York to ${destination.city} (${destination.code}), ${dateRange(trip.departDate, trip.returnDate)}, per traveler:`,
      ...flights.map(describeFlight),
      "",
      `Hotel for the stay: ${hotel.name} (${hotel.kind}), ${nights} night${nights === 1 ? "" : "s"} at ${usd(hotel.nightlyUsd)}/night.`,
    ].join("\n"),
    {
      destination: { code: destination.code, city: destination.city },
      departDate: trip.departDate,
      returnDate: trip.returnDate,
      flights,
      hotel: { ...hotel, nights },
    },
  );
}

async function saveItinerary(bookingReference: string, ctx: ElicitContext, store: BookingStore): Promise<CallToolResult> {
  const reference = bookingReference.trim().toUpperCase();
  if (!REFERENCE_PATTERN.test(reference))
    return fail(`"${bookingReference}" is not a booking reference; they look like ELC-7QK2MX (book_trip returns one).`);
  const found = await store.get(reference);
  // Another signed-in user's booking is answered like a missing one: a reference alone shows nothing.
  const booking = found && mayView(found, ctx.principal) ? found : undefined;
  if (!booking) return fail(`No booking ${reference} was found; book_trip returns the reference of each booking it makes.`);
  const markdown = itineraryMarkdown(booking);

  // Without a root there is nowhere we may write: say what is needed, and hand the itinerary over inline.
  const unsaved = (why: string, needs: string) =>
    say(`The itinerary was not saved: ${why}. Here it is instead:\n\n${markdown}`, { saved: false, needs, reference });
  if (!ctx.supports("roots")) {
    return unsaved(
      `the client did not declare the "roots" capability, so it gave this server no directory to write into (it needs roots with at least one file:// root)`,
      "roots",
    );
  }
  const roots = await ctx.roots({ key: "workspace_roots" });
  if (roots.length === 0)
    return unsaved("the client declared roots but listed none; add a file:// root (a workspace folder) and try again", "root");

  const root = roots[0]!;
  try {
    const written = await writeInRoot(root.uri, itineraryFileName(booking), markdown);
    return say(
      `Saved the itinerary for ${reference} to ${written.path} (${written.bytes} bytes) in the root ${root.name ? `"${root.name}" ` : ""}${root.uri}.`,
      {
        saved: true,
        reference,
        path: written.path,
        root: root.uri,
      },
    );
  } catch (error) {
    if (error instanceof UnsafeWriteError) return fail(`The itinerary was not saved: ${error.message}`);
    return fail(`The itinerary was not saved: writing into ${root.uri} failed (${(error as Error).message}).`);
  }
}

/** A factory for fresh travel servers (one per 2025-era session or 2026-07-28 request), all sharing one store. */
export function createTravelServer(kit: Elicitation, options: TravelServerOptions = {}): () => McpServer {
  const store = options.store ?? defaultBookingStore;
  return () => {
    const server = new McpServer({ name: "mcp-elicit-travel", version: "1.0.0" }, { capabilities: { tools: {} } });

    kit.registerTool(
      server,
      "search_flights",
      {
        title: "Search flights",
        description: "Round-trip fares from New York for a destination and dates, with the hotel for the stay.",
        inputSchema: z.object(tripArgs),
        annotations: { readOnlyHint: true },
      },
      (args) => searchFlights(args),
    );

    kit.registerTool(
      server,
      "find_best_flight",
      {
        title: "Find the best flight",
        description:
          'Recommends the three best flights for stated preferences (e.g. "morning departure, max 1 layover"), asking the client\'s model when it offers sampling, else by a documented rule.',
        inputSchema: z.object({
          ...tripArgs,
          preferences: z.string().describe("What matters, in words: time of day, max layovers, cheapest, cabin..."),
          rankBy: z
            .enum(["model", "rule"])
            .optional()
            .describe("model (default): ask the client's model when it can sample; rule: the documented ranking rule, no model"),
        }),
        annotations: { readOnlyHint: true },
      },
      (args, ctx) => findBestFlight(args, ctx),
    );

    kit.registerTool(
      server,
      "book_trip",
      {
        title: "Book a trip",
        description:
          "Books flights and hotel after the traveler confirms (seat, room, insurance) and gives contact details. Without flightId, books the best morning flight with at most one layover.",
        inputSchema: z.object({ ...tripArgs, flightId: z.string().optional().describe("A flight id from search_flights, e.g. BCN-11") }),
      },
      (args, ctx) => bookTrip(args, ctx, store, { passport: options.passport === true && options.url !== undefined }),
    );

    kit.registerTool(
      server,
      "save_itinerary",
      {
        title: "Save the itinerary",
        description: "Writes a booking's itinerary as Markdown into the first root (workspace folder) the client shares.",
        inputSchema: z.object({ bookingReference: z.string().describe("The reference book_trip returned, e.g. ELC-7QK2MX") }),
      },
      ({ bookingReference }, ctx) => saveItinerary(bookingReference, ctx, store),
    );

    registerFareWatch(kit, server);
    if (options.url) registerUrlTools(kit, server, store, options.url);
    return server;
  };
}
