// Ranking flights for stated preferences without a model: what find_best_flight does when the
// client has no sampling, or the person denies the request, or the model's answer is unusable.
//
// The rule, in order:
//   1. Hard limits the person stated (max layovers per leg, a cabin, a price ceiling, e.g. "nonstop",
//      "max 1 layover", "business", "under $1,200"): flights that break one go after all that don't.
//   2. A time of day for the outbound departure ("morning" 05:00-11:59, "afternoon" 12:00-16:59,
//      "evening" 17:00-20:59, "night"/"red-eye" 21:00-04:59): flights in the window go first.
//   3. The goal: "cheapest" sorts by price, "fastest" by total time in the air and in airports;
//      otherwise a balanced score in points (lower is better), roughly in dollars / 25:
//         price / 25  +  total minutes (both legs) / 15  +  8 per layover (both legs)
//         - 4 for an airline the person named
//      i.e. an hour of travel is worth $100 and each connection $200.
//   Ties go to the lower price, then the id. Every flight carries the reasons that placed it.
import { clockOf, hoursMinutes, usd, type Cabin, type Flight } from "./flights.js";

export type TimeOfDay = "morning" | "afternoon" | "evening" | "night";
export type Goal = "balanced" | "cheapest" | "fastest";

export interface Preferences {
  /** Most layovers allowed on each leg. */
  maxLayovers?: number;
  timeOfDay?: TimeOfDay;
  goal: Goal;
  cabin?: Cabin;
  maxPriceUsd?: number;
  /** Airlines named in the text (a bonus, not a limit). */
  airlines: string[];
  /** What was understood, in words, e.g. ["morning departure", "at most 1 layover"]. */
  understood: string[];
}

export interface RankedFlight {
  flight: Flight;
  /** Breaks none of the hard limits. */
  meets: boolean;
  inWindow: boolean;
  /** The balanced score (lower is better), also computed when the goal is another. */
  score: number;
  reasons: string[];
}

/** The default preferences; book_trip books the flight this ranks first when no flightId is given. */
export const DEFAULT_PREFERENCES = "morning departure, max 1 layover";

const WINDOWS: Record<TimeOfDay, [from: number, to: number]> = {
  morning: [5 * 60, 12 * 60],
  afternoon: [12 * 60, 17 * 60],
  evening: [17 * 60, 21 * 60],
  night: [21 * 60, 29 * 60], // wraps past midnight to 05:00
};

const NUMBER_WORDS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3 };
const countOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word]);

const STOP = "(?:layovers?|stops?|connections?|changes?)";

/** Reads preferences from free text. Unrecognized words are ignored; `understood` says what counted. */
export function parsePreferences(text: string, airlines: readonly string[] = []): Preferences {
  const t = text.toLowerCase().replace(/\s+/g, " ");
  const prefs: Preferences = { goal: "balanced", airlines: [], understood: [] };

  if (new RegExp(`\\b(non-?stop|direct|no ${STOP})\\b`).test(t)) prefs.maxLayovers = 0;
  const limit =
    new RegExp(`\\b(?:max(?:imum)?|at most|up to|no more than|fewer than|less than)\\s+(\\d|zero|one|two|three)\\s+${STOP}`).exec(t) ??
    new RegExp(`\\b(\\d|zero|one|two|three)\\s+${STOP}\\s+(?:max(?:imum)?|at most|or (?:less|fewer))\\b`).exec(t);
  if (limit) {
    let n = countOf(limit[1]!)!;
    if (/fewer than|less than/.test(limit[0])) n = Math.max(0, n - 1);
    prefs.maxLayovers = Math.min(prefs.maxLayovers ?? n, n);
  }
  if (prefs.maxLayovers !== undefined) {
    prefs.understood.push(
      prefs.maxLayovers === 0 ? "nonstop only" : `at most ${prefs.maxLayovers} layover${prefs.maxLayovers > 1 ? "s" : ""} per leg`,
    );
  }

  if (/\b(red-?eye|overnight|night)\b/.test(t)) prefs.timeOfDay = "night";
  else if (/\bevening\b/.test(t)) prefs.timeOfDay = "evening";
  else if (/\bafternoon\b/.test(t)) prefs.timeOfDay = "afternoon";
  else if (/\b(morning|early)\b/.test(t)) prefs.timeOfDay = "morning";
  if (prefs.timeOfDay) prefs.understood.push(`${prefs.timeOfDay} departure`);

  const price =
    /\b(?:under|below|less than|cheaper than|at most|max(?:imum)?|up to|budget(?: of)?)\s*(?:usd\s*)?\$\s*(\d{1,3}(?:,\d{3})+|\d+)|\b(?:under|below|less than|cheaper than|budget(?: of)?)\s*(\d{1,3}(?:,\d{3})+|\d{3,})\b/.exec(
      t,
    );
  if (price) {
    prefs.maxPriceUsd = Number((price[1] ?? price[2])!.replace(/,/g, ""));
    prefs.understood.push(`at most ${usd(prefs.maxPriceUsd)}`);
  }

  if (/\bpremium economy\b/.test(t)) prefs.cabin = "premium economy";
  else if (/\b(business|first class)\b/.test(t)) prefs.cabin = "business";
  else if (/\beconomy\b|\bcoach\b/.test(t)) prefs.cabin = "economy";
  if (prefs.cabin) prefs.understood.push(`${prefs.cabin} cabin`);

  if (/\b(cheapest|cheap|lowest (?:price|fare|cost)|least expensive|budget)\b/.test(t)) prefs.goal = "cheapest";
  else if (/\b(fastest|shortest|quickest|least time)\b/.test(t)) prefs.goal = "fastest";
  prefs.understood.push(prefs.goal === "balanced" ? "balance of price, time and connections" : `${prefs.goal} first`);

  for (const airline of airlines) if (t.includes(airline.toLowerCase()) && !prefs.airlines.includes(airline)) prefs.airlines.push(airline);
  if (prefs.airlines.length) prefs.understood.push(`prefers ${prefs.airlines.join(", ")}`);
  return prefs;
}

const minutesOfDay = (iso: string) => Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));

function inWindow(iso: string, when: TimeOfDay): boolean {
  const [from, to] = WINDOWS[when];
  const m = minutesOfDay(iso);
  return (m >= from && m < to) || (m + 24 * 60 >= from && m + 24 * 60 < to);
}

const totalMinutes = (f: Flight) => f.outbound.durationMinutes + f.inbound.durationMinutes;
const mostLayovers = (f: Flight) => Math.max(f.outbound.layovers.length, f.inbound.layovers.length);
const layoverCount = (f: Flight) => f.outbound.layovers.length + f.inbound.layovers.length;

/** The balanced score of the rule (lower is better). */
export function balancedScore(f: Flight, prefs: Pick<Preferences, "airlines"> = { airlines: [] }): number {
  const bonus = prefs.airlines.includes(f.airline) ? 4 : 0;
  return Math.round((f.priceUsd / 25 + totalMinutes(f) / 15 + 8 * layoverCount(f) - bonus) * 10) / 10;
}

function assess(f: Flight, prefs: Preferences): RankedFlight {
  const reasons: string[] = [];
  let meets = true;
  const stops = mostLayovers(f);
  const via = [...new Set([...f.outbound.layovers, ...f.inbound.layovers].map((l) => l.airport))];
  const stopsText = stops === 0 ? "nonstop both ways" : `${stops} layover${stops > 1 ? "s" : ""} per leg (${via.join(", ")})`;
  if (prefs.maxLayovers !== undefined && stops > prefs.maxLayovers) {
    meets = false;
    reasons.push(`${stopsText}: more than the ${prefs.maxLayovers === 0 ? "nonstop" : `max ${prefs.maxLayovers}`} asked`);
  } else reasons.push(stopsText);
  if (prefs.cabin && f.cabin !== prefs.cabin) {
    meets = false;
    reasons.push(`${f.cabin}, not ${prefs.cabin}`);
  }
  if (prefs.maxPriceUsd !== undefined && f.priceUsd > prefs.maxPriceUsd) {
    meets = false;
    reasons.push(`${usd(f.priceUsd)}: over the ${usd(prefs.maxPriceUsd)} limit`);
  } else reasons.push(usd(f.priceUsd));
  const departs = clockOf(f.outbound.depart);
  const fits = prefs.timeOfDay === undefined || inWindow(f.outbound.depart, prefs.timeOfDay);
  if (prefs.timeOfDay)
    reasons.push(fits ? `departs ${departs}: ${prefs.timeOfDay}, as asked` : `departs ${departs}: not ${prefs.timeOfDay}`);
  else reasons.push(`departs ${departs}`);
  reasons.push(`${hoursMinutes(totalMinutes(f))} total travel time`);
  if (prefs.airlines.includes(f.airline)) reasons.push(`${f.airline}, as asked`);
  return { flight: f, meets, inWindow: fits, score: balancedScore(f, prefs), reasons };
}

/** Ranks flights by the rule above; the first is the recommendation. */
export function rankFlights(flights: readonly Flight[], preferences: string | Preferences): RankedFlight[] {
  const airlines = [...new Set(flights.map((f) => f.airline))];
  const prefs = typeof preferences === "string" ? parsePreferences(preferences, airlines) : preferences;
  const goalKey = (r: RankedFlight) =>
    prefs.goal === "cheapest" ? r.flight.priceUsd : prefs.goal === "fastest" ? totalMinutes(r.flight) : r.score;
  return flights
    .map((f) => assess(f, prefs))
    .sort(
      (a, b) =>
        Number(b.meets) - Number(a.meets) ||
        Number(b.inWindow) - Number(a.inWindow) ||
        goalKey(a) - goalKey(b) ||
        a.flight.priceUsd - b.flight.priceUsd ||
        a.flight.id.localeCompare(b.flight.id),
    );
}

/** One line explaining a ranked flight: "BCN-11 (British Airways, $1,180): 1 layover per leg (LHR); ...". */
export function explain(r: RankedFlight): string {
  return `${r.flight.id} (${r.flight.airline}, ${usd(r.flight.priceUsd)}): ${r.reasons.join("; ")}; score ${r.score}${r.meets ? "" : " [breaks a stated limit]"}`;
}
