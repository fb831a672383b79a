// Model choice from a request's modelPreferences: the spec's hints first, then its priorities.
import type { ModelPreferences } from "@modelcontextprotocol/client";
import { ProviderError } from "./provider.js";

/**
 * A configured model. Scores are 0..1 and only matter for requests that state priorities:
 * - `cost`: relative price, 0 = free (e.g. local), 1 = the most expensive you use;
 * - `speed`: 1 = the fastest you use;
 * - `intelligence`: 1 = the most capable you use.
 * `aliases` are extra names hints may match, to map another provider's model names onto this one
 * (the spec lets clients map e.g. a "claude-3-haiku" hint to a similar model).
 */
export interface ModelSpec {
  name: string;
  aliases?: readonly string[];
  cost?: number;
  speed?: number;
  intelligence?: number;
}

export type ModelsOption = string | readonly (string | ModelSpec)[];

/** Normalizes the models option (a comma list, names, or specs) and checks it; throws ProviderError "config". */
export function normalizeModels(models: ModelsOption): ModelSpec[] {
  const list = typeof models === "string" ? models.split(",") : models;
  const specs = list
    .map((m): ModelSpec => (typeof m === "string" ? { name: m } : m))
    .map((m) => ({ ...m, name: typeof m.name === "string" ? m.name.trim() : m.name }))
    .filter((m) => m.name !== "");
  if (specs.length === 0) throw config("no model configured: give at least one model name");
  const seen = new Set<string>();
  for (const spec of specs) {
    if (typeof spec.name !== "string") throw config(`a model has no name: ${JSON.stringify(spec)}`);
    if (seen.has(spec.name)) throw config(`model "${spec.name}" is configured twice`);
    seen.add(spec.name);
    for (const key of ["cost", "speed", "intelligence"] as const) {
      const v = spec[key];
      if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) {
        throw config(`model "${spec.name}": ${key} must be a number from 0 to 1, got ${JSON.stringify(v)}`);
      }
    }
    if (spec.aliases !== undefined && !(Array.isArray(spec.aliases) && spec.aliases.every((a) => typeof a === "string"))) {
      throw config(`model "${spec.name}": aliases must be a list of names`);
    }
  }
  return specs;
}

/**
 * The model for a request:
 * 1. Hints, in the server's order: the first hint whose name is a substring (case-insensitive) of a
 *    configured name or alias wins. Of several models matching one hint, an exact name wins, else
 *    the priorities decide (rule 2), else the first configured.
 * 2. No hint matched: when the request gives priorities and some models declare scores, the scored
 *    model with the highest
 *      costPriority × (1 − cost) + speedPriority × speed + intelligencePriority × intelligence
 *    wins (an undeclared score counts as 0.5; ties go to the first configured).
 * 3. Otherwise the first configured model.
 */
export function chooseModel(specs: readonly ModelSpec[], preferences?: ModelPreferences): string {
  const first = specs[0];
  if (!first) throw config("no model configured");
  for (const hint of preferences?.hints ?? []) {
    const needle = typeof hint?.name === "string" ? hint.name.trim().toLowerCase() : "";
    if (!needle) continue;
    const matches = specs.filter((s) => [s.name, ...(s.aliases ?? [])].some((n) => n.toLowerCase().includes(needle)));
    if (matches.length === 0) continue;
    // "gpt-4o" names gpt-4o exactly, even though it is also a substring of gpt-4o-mini.
    const exact = matches.find((s) => [s.name, ...(s.aliases ?? [])].some((n) => n.toLowerCase() === needle));
    return (exact ?? byPriorities(matches, preferences) ?? matches[0]!).name;
  }
  return (byPriorities(specs, preferences) ?? first).name;
}

function byPriorities(specs: readonly ModelSpec[], preferences?: ModelPreferences): ModelSpec | undefined {
  const cost = weight(preferences?.costPriority);
  const speed = weight(preferences?.speedPriority);
  const intelligence = weight(preferences?.intelligencePriority);
  if (cost + speed + intelligence === 0) return undefined;
  let best: ModelSpec | undefined;
  let bestScore = -Infinity;
  for (const s of specs) {
    if (s.cost === undefined && s.speed === undefined && s.intelligence === undefined) continue;
    const score = cost * (1 - (s.cost ?? 0.5)) + speed * (s.speed ?? 0.5) + intelligence * (s.intelligence ?? 0.5);
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

// Out-of-range priorities from a server are clamped rather than trusted.
const weight = (p: number | undefined) => (typeof p === "number" && Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0);

const config = (detail: string) => new ProviderError({ kind: "config", detail });
