// A person's round trip through an authorization server (the sign-in of the person, or a third-party
// connect): the PKCE verifier, nonce and return point, stored server-side under a hash of the random
// `state`, bound to the browser that started it, and usable once.
import { createHash, randomBytes } from "node:crypto";
import type { KeyValueStore } from "../../../store/types.js";
import { ROUND_TRIP_TTL_MS } from "./config.js";

export interface RoundTrip {
  kind: "login" | "connect";
  browser: string;
  codeVerifier: string;
  nonce: string;
  /** login: the page to come back to (connect/ID or form/ID); connect: the flow id. */
  target: string;
}

const hash = (state: string) => createHash("sha256").update(state).digest("base64url");
const random = () => randomBytes(32).toString("base64url");

/** Starts a round trip; returns its state (for the authorization URL) and the record. */
export async function startRoundTrip(store: KeyValueStore, trip: Omit<RoundTrip, "codeVerifier" | "nonce">) {
  const state = random();
  const record: RoundTrip = { ...trip, codeVerifier: random(), nonce: random() };
  await store.set(`url-trip:${hash(state)}`, JSON.stringify(record), ROUND_TRIP_TTL_MS);
  return { state, record };
}

export type TripCheck = { trip: RoundTrip } | { refused: "unknown" | "used" | "other-browser" };

/**
 * The round trip `state` names, taken once: an unknown or forged state, a second use (a replayed
 * callback) and another browser are refused. The record is spent even when refused for the browser.
 */
export async function takeRoundTrip(
  store: KeyValueStore,
  state: string | undefined,
  kind: RoundTrip["kind"],
  browser: string | undefined,
): Promise<TripCheck> {
  if (!state || state.length > 200) return { refused: "unknown" };
  const key = hash(state);
  const text = await store.get(`url-trip:${key}`);
  if (text === undefined) return { refused: "unknown" };
  const trip = JSON.parse(text) as RoundTrip;
  if (trip.kind !== kind) return { refused: "unknown" };
  if (!(await store.add(`url-trip-used:${key}`, "1", ROUND_TRIP_TTL_MS))) return { refused: "used" };
  await store.delete(`url-trip:${key}`);
  if (trip.browser !== browser) return { refused: "other-browser" };
  return { trip };
}
