// book_trip: the booking confirmation, then the traveler's contact details, then (with the
// `passport` option, URL mode) the passport's photo page on the kit's upload page, then the
// booking. Straight-line code on every revision; on 2026-07-28 the handler replays once per round,
// so the booking itself runs in ctx.step and is made exactly once.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { choice, form, text, yesNo } from "../../schema/builders.js";
import type { ElicitContext } from "../../server/kit/elicitation.js";
import {
  INSURANCE_USD,
  newReference,
  ownerOf,
  ROOM_TYPES,
  SEAT_PREFERENCES,
  type Booking,
  type BookingStore,
  type PassportRecord,
  type Traveler,
} from "./bookings.js";
import { dateRange, describeLeg, usd, type Flight } from "./flights.js";
import { DEFAULT_PREFERENCES, rankFlights } from "./ranking.js";
import { fail, resolveTrip, say, type Trip } from "./trip.js";

/** The confirmation form; only the total in the first description varies. */
export function confirmationForm(totalUsd: number) {
  return form({
    confirmBooking: yesNo({ description: `Confirm the booking (Flights + Hotel = ${usd(totalUsd)})` }),
    seatPreference: choice(SEAT_PREFERENCES, { description: "Preferred seat type for flights" }).optional(),
    roomType: choice(ROOM_TYPES, { description: "Preferred room type at hotel" }).optional(),
    travelInsurance: yesNo({ default: false, description: `Add travel insurance (${usd(INSURANCE_USD)})` }).optional(),
  });
}

/** Who travels: what the airline and hotel need to hold the booking. */
export function contactForm() {
  return form({
    fullName: text({ title: "Full name", description: "As it appears on your passport", minLength: 2, maxLength: 100 }),
    email: text({ title: "Email", format: "email", description: "Where the confirmation and itinerary go", maxLength: 254 }),
    phone: text({ title: "Phone", description: "With country code, e.g. +1 212 555 0100", minLength: 7, maxLength: 25 }),
  });
}

/** A phone number we can call: digits with optional +, spaces, dashes, dots and brackets; 7-15 digits (E.164). */
export function phoneProblem(phone: string): string | undefined {
  if (!/^\+?[0-9 ().-]+$/.test(phone.trim())) return "Phone may only contain digits, spaces, dashes, dots, brackets and a leading +";
  const digits = phone.replace(/\D/g, "").length;
  if (digits < 7 || digits > 15) return `Phone must have 7 to 15 digits (it has ${digits})`;
  return undefined;
}

export interface BookTripArgs {
  destination: string;
  departDate: string;
  returnDate: string;
  flightId?: string;
}

/** The flight to book: the one asked for, or the rule's best for the default preferences. */
function chooseFlight(trip: Trip, flightId: string | undefined): Flight | string {
  if (flightId === undefined) return rankFlights(trip.flights, DEFAULT_PREFERENCES)[0]!.flight;
  const flight = trip.flights.find((f) => f.id.toLowerCase() === flightId.trim().toLowerCase());
  if (flight) return flight;
  const ids = trip.flights.map((f) => f.id);
  return `No flight "${flightId}" to ${trip.destination.city} on these dates; ids run ${ids[0]} to ${ids.at(-1)} (search_flights lists them).`;
}

/** What the passport upload page takes: a scan or a photo, up to 10 MB. */
export const PASSPORT_UPLOAD = { accept: ["image/jpeg", "image/png", "application/pdf"], maxBytes: 10 * 1024 * 1024 };

/** Every trip leaves from New York, so any destination outside the United States is international. */
const international = (trip: Trip) => trip.destination.country !== "US";

/**
 * The passport's photo page, uploaded on the URL kit's page (never through the client or the model).
 * The airline needs it before check-in, not to hold the booking: a person who declines still books,
 * and is told it is missing. Only its type, size and SHA-256 stay with the booking; the bytes are deleted.
 */
async function askPassport(trip: Trip, ctx: ElicitContext): Promise<PassportRecord | string> {
  const asked = await ctx.elicitFile(
    `Upload the photo page of the traveler's passport: ${trip.destination.city} is an international trip, and the airline needs it before check-in (a JPEG, PNG or PDF up to 10 MB).`,
    PASSPORT_UPLOAD,
  );
  if (asked.outcome !== "completed") return asked.outcome;
  return ctx.step("passport", async (): Promise<PassportRecord> => {
    const [file] = asked.files;
    const record = { type: file!.type, size: file!.size, sha256: file!.sha256 };
    for (const f of asked.files) await f.discard();
    return record;
  });
}

export interface BookTripOptions {
  /** Ask for the passport's photo page before booking an international trip (needs a URL kit: ctx.elicitFile). */
  passport?: boolean;
}

const notBooked = (why: string, reason: string): CallToolResult => say(`Nothing was booked: ${why}`, { booked: false, reason });

export async function bookTrip(
  args: BookTripArgs,
  ctx: ElicitContext,
  store: BookingStore,
  options: BookTripOptions = {},
): Promise<CallToolResult> {
  const trip = resolveTrip(args);
  if (typeof trip === "string") return fail(trip);
  const flight = chooseFlight(trip, args.flightId);
  if (typeof flight === "string") return fail(flight);
  const { destination, hotel, nights } = trip;
  const flightsUsd = flight.priceUsd;
  const hotelUsd = hotel.nightlyUsd * nights;
  const total = flightsUsd + hotelUsd;

  // The trip summary: "Barcelona flights June 15-22, beachfront hotel, total $3,000".
  const headline = `${destination.city} flights ${dateRange(trip.departDate, trip.returnDate)}, ${hotel.kind}`;
  const summary =
    `${headline}, total ${usd(total)}.\n` +
    `Flights: ${flight.airline} ${flight.cabin} (${flight.id}), out ${describeLeg(flight.outbound)}; back ${describeLeg(flight.inbound)} — ${usd(flightsUsd)}.\n` +
    `Hotel: ${hotel.name}, ${nights} night${nights === 1 ? "" : "s"} — ${usd(hotelUsd)}.`;
  const confirm = await ctx.elicit(
    `Please confirm your ${destination.city} vacation booking details:\n${summary}`,
    confirmationForm(total),
    { key: "confirm_booking" },
  );
  if (confirm.action === "decline") return notBooked("you declined the booking confirmation.", "declined");
  if (confirm.action === "cancel") return notBooked("the booking confirmation was cancelled.", "cancelled");
  if (!confirm.content.confirmBooking)
    return notBooked(`"Confirm the booking" was left unticked, so nothing was reserved or charged.`, "not-confirmed");

  const traveler = await askTraveler(trip, ctx);
  if ("content" in traveler) return traveler;

  const passport = options.passport && international(trip) ? await askPassport(trip, ctx) : undefined;

  const insuranceUsd = confirm.content.travelInsurance ? INSURANCE_USD : 0;
  const booking = await ctx.step("book", async (): Promise<Booking> => {
    const made: Booking = {
      reference: newReference(),
      createdAt: new Date().toISOString(),
      city: destination.city,
      departDate: trip.departDate,
      returnDate: trip.returnDate,
      nights,
      flight,
      hotel,
      ...(confirm.content.seatPreference ? { seatPreference: confirm.content.seatPreference } : {}),
      ...(confirm.content.roomType ? { roomType: confirm.content.roomType } : {}),
      travelInsurance: insuranceUsd > 0,
      traveler,
      ...(typeof passport === "object" ? { passport } : {}),
      price: { flightsUsd, hotelUsd, insuranceUsd, totalUsd: total + insuranceUsd },
      ...(ctx.principal ? { owner: ownerOf(ctx.principal) } : {}),
    };
    await store.set(made.reference, made);
    return made;
  });

  return booked(booking, trip, flight, headline, passport);
}

/**
 * The traveler's contact details, or why nothing was booked. The phone gets one more check than the schema can
 * express: a bad one is asked again with the reason (the other answers kept), and after two tries the tool ends with it.
 */
async function askTraveler(trip: Trip, ctx: ElicitContext): Promise<Traveler | CallToolResult> {
  const contact = await ctx.elicit(
    `Who is traveling? ${trip.destination.city}, ${dateRange(trip.departDate, trip.returnDate)}: the airline and hotel need the traveler's contact details.`,
    contactForm(),
    {
      key: "traveler",
      validate: ({ phone }) => {
        const problem = phoneProblem(phone);
        return problem ? { phone: problem } : undefined;
      },
    },
  );
  if (contact.action === "decline")
    return notBooked("you declined to give the traveler's contact details, which the booking needs.", "declined");
  if (contact.action === "cancel") return notBooked("entering the traveler's contact details was cancelled.", "cancelled");
  return {
    fullName: contact.content.fullName.trim(),
    email: contact.content.email.trim(),
    phone: contact.content.phone.trim(),
  };
}

/** What the person and the model read once the trip is booked. */
function booked(
  booking: Booking,
  trip: Trip,
  flight: Flight,
  headline: string,
  passport: PassportRecord | string | undefined,
): CallToolResult {
  const extras = [
    booking.seatPreference && `seat: ${booking.seatPreference}`,
    booking.roomType && `room: ${booking.roomType}`,
    booking.travelInsurance && `travel insurance ${usd(INSURANCE_USD)}`,
  ].filter(Boolean);
  return say(
    `Booked! Reference ${booking.reference}: ${headline}, for ${booking.traveler.fullName}` +
      `${extras.length ? ` (${extras.join(", ")})` : ""}. Total to pay ${usd(booking.price.totalUsd)} (nothing is charged until pay_for_booking). ` +
      `The confirmation goes to ${booking.traveler.email}; save_itinerary writes the itinerary into your workspace.` +
      passportNote(passport),
    {
      booked: true,
      reference: booking.reference,
      totalUsd: booking.price.totalUsd,
      flightId: flight.id,
      hotel: trip.hotel.name,
      nights: trip.nights,
      ...(passport ? { passport: typeof passport === "object" ? "received" : passport } : {}),
    },
  );
}

/** What the result says of the passport: received (its type and size), or missing and needed before check-in. */
function passportNote(passport: PassportRecord | string | undefined): string {
  if (passport === undefined) return "";
  if (typeof passport === "object") return ` Passport photo page received (${passport.type}, ${passport.size} bytes).`;
  return ` The passport's photo page was not given (${passport}): the airline needs it before check-in.`;
}
