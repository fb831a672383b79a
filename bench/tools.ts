// What the server benches ask and answer, in one place: bench/server.ts (round trips per era),
// bench/server-rounds.ts (equal function, n rounds) and bench/instructions.ts (callgrind) time the
// same booking form, the same sampling and roots answers, the same tool shapes.
import type { CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { RequestedSchema } from "../dist/schema/index.js";
import { bookingSchema } from "../test/helpers/seeds.js";

export const BOOKING: RequestedSchema = bookingSchema();
export const BOOKING_ANSWER = { confirmBooking: true, seatPreference: "window", roomType: "sea view", travelInsurance: false };
/** The small form of the flows (n questions in sequence). */
export const STEP_FORM: RequestedSchema = {
  type: "object",
  properties: { answer: { type: "string", title: "Answer", maxLength: 40 }, ok: { type: "boolean", default: true } },
  required: ["answer"],
};
export const SAMPLE = {
  messages: [{ role: "user" as const, content: { type: "text" as const, text: "Best flight to Barcelona?" } }],
  maxTokens: 60,
};
export const SAMPLE_ANSWER = {
  role: "assistant",
  content: { type: "text", text: "IB 3021, direct." },
  model: "bench-model",
  stopReason: "endTurn",
};
export const ROOTS_ANSWER = { roots: [{ uri: "file:///home/ada/trips", name: "trips" }] };

export const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
export const hotelInput = z.object({ hotel: z.string() });

/** The client's answer to an elicitation: the booking's for the booking form, else the step form's (a0..a9). */
export function elicitAnswerer() {
  let n = 0;
  return async (request: { params?: unknown }) => {
    const props = (request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {};
    return { action: "accept" as const, content: "confirmBooking" in props ? BOOKING_ANSWER : { answer: `a${n++ % 10}`, ok: true } };
  };
}
