// find_best_flight: the travel example's flight analysis. With sampling, the client's model weighs the
// trade-offs (cheap red-eyes against convenient mornings); without it, or when the request is
// refused or the answer names no flight, the rule in ranking.ts decides, and the result says which.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ElicitContext } from "../../server/kit/elicitation.js";
import { dateRange, describeFlight, type Flight } from "./flights.js";
import { explain, rankFlights } from "./ranking.js";
import { fail, resolveTrip, say } from "./trip.js";

export const SYSTEM_PROMPT = "You are a travel expert helping users find the best flights based on their preferences";

/** The example's model preferences: thorough analysis over speed and cost. */
export const MODEL_PREFERENCES = {
  hints: [{ name: "claude-3-5-sonnet" }],
  costPriority: 0.3,
  speedPriority: 0.2,
  intelligencePriority: 0.9,
};

/** Longest model reasoning passed on: it is model text, shown to a person and another model. */
const MAX_REASONING = 2000;

export interface FindBestFlightArgs {
  destination: string;
  departDate: string;
  returnDate: string;
  preferences: string;
  /** "rule" skips the model, e.g. after the person refused the model request on 2026-07-28 (where that ends the call). */
  rankBy?: "model" | "rule";
}

export function samplingPrompt(flights: readonly Flight[], preferences: string): string {
  return [
    "Analyze these flight options and recommend the best choice:",
    ...flights.map(describeFlight),
    `User preferences: ${preferences}`,
    "",
    "Reply with the ids of your top three flights on the first line, best first, separated by commas (e.g. BCN-11, BCN-14, BCN-12), then explain your reasoning.",
  ].join("\n");
}

/** The text of a sampling answer (one block or several). */
function answerText(result: { content: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .filter(
      (b): b is { type: "text"; text: string } =>
        (b as { type?: unknown })?.type === "text" && typeof (b as { text?: unknown }).text === "string",
    )
    .map((b) => b.text)
    .join("\n")
    .trim();
}

/**
 * Flight ids the model named, in order: those on the first line when it has any (as asked),
 * else anywhere in the text. Only ids of the listed flights count; case and punctuation are forgiven.
 */
export function parseModelPick(text: string, flights: readonly Flight[]): { ids: string[]; reasoning: string } {
  const known = new Map(flights.map((f) => [f.id.toUpperCase(), f.id]));
  const idsIn = (s: string) => {
    const out: string[] = [];
    for (const m of s.matchAll(/\b([A-Za-z]{3})\s*-\s*(\d{1,2})\b/g)) {
      const id = known.get(`${m[1]!.toUpperCase()}-${m[2]!.padStart(2, "0")}`);
      if (id && !out.includes(id)) out.push(id);
    }
    return out;
  };
  const [first = "", ...rest] = text.split("\n");
  const onFirst = idsIn(first);
  const ids = onFirst.length ? onFirst : idsIn(text);
  const reasoning = (onFirst.length ? rest.join("\n") : text).trim();
  return { ids, reasoning: reasoning.length > MAX_REASONING ? `${reasoning.slice(0, MAX_REASONING)}…` : reasoning };
}

type Method = { by: "model"; model: string; reasoning: string; filled: number } | { by: "rule"; why: string };

export async function findBestFlight(args: FindBestFlightArgs, ctx: ElicitContext): Promise<CallToolResult> {
  const trip = resolveTrip(args);
  if (typeof trip === "string") return fail(trip);
  const preferences = args.preferences.trim() || "no particular preferences";
  const ranked = rankFlights(trip.flights, preferences);
  const byId = new Map(trip.flights.map((f) => [f.id, f]));

  let top: Flight[] = ranked.slice(0, 3).map((r) => r.flight);
  let method: Method;
  if (args.rankBy === "rule") {
    method = { by: "rule", why: "no model was asked (the call asked for the rule)" };
  } else if (!ctx.supports("sampling")) {
    method = { by: "rule", why: "the client did not declare the sampling capability, so no model could be asked" };
  } else {
    try {
      const result = await ctx.sample(
        {
          messages: [{ role: "user", content: { type: "text", text: samplingPrompt(trip.flights, preferences) } }],
          systemPrompt: SYSTEM_PROMPT,
          maxTokens: 1500,
          modelPreferences: MODEL_PREFERENCES,
        },
        { key: "flight_analysis" },
      );
      const pick = parseModelPick(answerText(result), trip.flights);
      if (pick.ids.length === 0) {
        method = { by: "rule", why: "the model's answer named none of the listed flight ids" };
      } else {
        // Fewer than three named: the rule fills the rest, and the result says so.
        const chosen = pick.ids.slice(0, 3).map((id) => byId.get(id)!);
        const fill = ranked
          .map((r) => r.flight)
          .filter((f) => !chosen.includes(f))
          .slice(0, 3 - chosen.length);
        top = [...chosen, ...fill];
        method = {
          by: "model",
          model: typeof result.model === "string" ? result.model : "unknown model",
          reasoning: pick.reasoning,
          filled: fill.length,
        };
      }
    } catch (error) {
      method = { by: "rule", why: `the sampling request was refused or failed (${(error as Error).message})` };
    }
  }

  const where = `${trip.destination.city}, ${dateRange(trip.departDate, trip.returnDate)}`;
  const rankedById = new Map(ranked.map((r) => [r.flight.id, r]));
  const lines = top.map((f, i) => `${i + 1}. ${describeFlight(f)}`);
  const text =
    method.by === "model"
      ? [
          `Best flights to ${where} for "${preferences}", chosen by the client's model (${method.model}) from ${trip.flights.length} options:`,
          ...lines,
          ...(method.filled ? [`(The model named ${3 - method.filled}; the rest come from the built-in ranking rule.)`] : []),
          "",
          `The model's reasoning: ${method.reasoning || "(none given)"}`,
        ]
      : [
          // Asked for by name, the rule needs no excuse; otherwise the person learns why no model chose.
          args.rankBy === "rule"
            ? `Best flights to ${where} for "${preferences}", ranked by the built-in rule (no model was asked):`
            : `Best flights to ${where} for "${preferences}", ranked by the built-in rule because ${method.why}:`,
          ...lines,
          "",
          "Why:",
          ...top.map((f) => `- ${explain(rankedById.get(f.id)!)}`),
        ];
  return say(text.join("\n"), {
    method: method.by,
    ...(method.by === "model" ? { model: method.model, reasoning: method.reasoning } : { reason: method.why }),
    preferences,
    considered: trip.flights.length,
    top: top.map((f) => ({ id: f.id, airline: f.airline, priceUsd: f.priceUsd, cabin: f.cabin, summary: describeFlight(f) })),
  });
}
