// The arguments every travel tool shares (destination and dates), checked into a trip or a clear
// refusal, and the small result helpers the tools use.
import type { CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import {
  checkDates,
  DESTINATIONS,
  findDestination,
  flightsFor,
  HOTELS,
  nightsBetween,
  type Destination,
  type Flight,
  type Hotel,
} from "./flights.js";

export const tripArgs = {
  destination: z.string().describe(`City or airport code: ${DESTINATIONS.map((d) => `${d.city} (${d.code})`).join(", ")}`),
  departDate: z.string().describe("Outbound date, YYYY-MM-DD (the demo trip: 2026-06-15)"),
  returnDate: z.string().describe("Return date, YYYY-MM-DD (the demo trip: 2026-06-22)"),
};

export interface Trip {
  destination: Destination;
  departDate: string;
  returnDate: string;
  nights: number;
  flights: Flight[];
  hotel: Hotel;
}

/** The trip the arguments describe, or the sentence saying what is wrong with them. */
export function resolveTrip(args: { destination: string; departDate: string; returnDate: string }): Trip | string {
  const destination = findDestination(args.destination);
  if (!destination) {
    return `Unknown destination "${args.destination}". This demo flies from New York to: ${DESTINATIONS.map((d) => `${d.city} (${d.code})`).join(", ")}.`;
  }
  const problem = checkDates(args.departDate, args.returnDate);
  if (problem) return problem;
  return {
    destination,
    departDate: args.departDate,
    returnDate: args.returnDate,
    nights: nightsBetween(args.departDate, args.returnDate),
    flights: flightsFor(destination.code, args.departDate, args.returnDate),
    hotel: HOTELS[destination.code]!,
  };
}

export const say = (text: string, structuredContent?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text }],
  ...(structuredContent ? { structuredContent } : {}),
});

export const fail = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });
