// Bookings and where they live. The store is passed in (default: one Map per process) because the
// HTTP 2026-07-28 path builds a server per request: a booking made by one instance must be found
// by the next (save_itinerary). A Redis-backed store only needs get/set, possibly async.
import { randomInt } from "node:crypto";
import type { Flight, Hotel } from "./flights.js";

export const SEAT_PREFERENCES = ["window", "aisle", "no preference"] as const;
export const ROOM_TYPES = ["sea view", "city view", "garden view"] as const;
export const INSURANCE_USD = 150;

export interface Traveler {
  fullName: string;
  email: string;
  phone: string;
}

/** An uploaded passport photo page, as the booking keeps it: the checked type, the size and the SHA-256. */
export interface PassportRecord {
  type: string;
  size: number;
  sha256: string;
}

export interface Booking {
  /** e.g. "ELC-7QK2MX" */
  reference: string;
  /** ISO time the booking was made. */
  createdAt: string;
  city: string;
  departDate: string;
  returnDate: string;
  nights: number;
  flight: Flight;
  hotel: Hotel;
  seatPreference?: (typeof SEAT_PREFERENCES)[number];
  roomType?: (typeof ROOM_TYPES)[number];
  travelInsurance: boolean;
  traveler: Traveler;
  /** The passport's photo page, when it was asked for and uploaded: what it was, never the bytes. */
  passport?: PassportRecord;
  price: { flightsUsd: number; hotelUsd: number; insuranceUsd: number; totalUsd: number };
  /** Who booked, when the server requires sign-in (`elicit serve travel --http --auth`): only they see it. */
  owner?: string;
}

/** The owner a signed-in caller's bookings get: the issuer and the subject (two servers may both have an "alice"). */
export const ownerOf = (principal: { issuer: string; sub: string } | undefined) =>
  principal ? `${principal.issuer} ${principal.sub}` : undefined;

/** Whether `caller` may see `booking`: anyone when it was made without sign-in, else only its owner. */
export const mayView = (booking: Booking, caller: { issuer: string; sub: string } | undefined) =>
  booking.owner === undefined || booking.owner === ownerOf(caller);

export interface BookingStore {
  get(reference: string): Booking | undefined | Promise<Booking | undefined>;
  set(reference: string, booking: Booking): unknown;
}

/** The process-wide default, shared by every server instance that was not given a store. */
export const defaultBookingStore: BookingStore = new Map<string, Booking>();

// Crockford base32 without look-alikes (no I, L, O, U), so a reference can be read over the phone.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const REFERENCE_PATTERN = /^ELC-[0-9A-HJKMNP-TV-Z]{6}$/;

/** A fresh random booking reference (call it inside ctx.step, so a replay does not make another). */
export function newReference(): string {
  let code = "";
  for (let i = 0; i < 6; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `ELC-${code}`;
}
