// The fuzz runs' settings: a fixed seed (so `npm test` is reproducible) that FUZZ_SEED overrides, and
// how many cases each boundary runs (FUZZ_RUNS; `npm run fuzz` raises it). Each boundary reports the
// cases it ran and the time it took, so the figures of a long run can be read off its output.
import { performance } from "node:perf_hooks";
import type { Parameters as FcParameters } from "fast-check";

/** The seed of every property in test/fuzz, unless FUZZ_SEED gives another. */
export const SEED = envInteger("FUZZ_SEED") ?? 20_260_728;

/** Cases for a boundary: FUZZ_RUNS when set (times `share`), else `fallback` (what `npm test` runs). */
export function runs(fallback: number, share = 1): number {
  const total = envInteger("FUZZ_RUNS");
  return total === undefined ? fallback : Math.max(1, Math.round(total * share));
}

/** fast-check parameters for a property run `numRuns` times with the session's seed. */
export function fcParams<T>(numRuns: number, extra: Partial<FcParameters<T>> = {}): FcParameters<T> {
  return { seed: SEED, numRuns, ...extra };
}

/** Runs `body` and prints "fuzz <boundary>: N cases in T s (R/s)" to stderr. */
export async function measured<T>(boundary: string, cases: number, body: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  const result = await body();
  const seconds = (performance.now() - start) / 1000;
  process.stderr.write(`fuzz ${boundary}: ${cases} cases in ${seconds.toFixed(1)} s (${Math.round(cases / seconds)}/s), seed ${SEED}\n`);
  return result;
}

/** Rejects with a message naming `what` when `promise` has not settled in `ms`: a hang detector, not a speed check. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Characters no text shown to a person may still hold: C0/C1 controls but "\n", DEL, bidi controls, zero-width and other Cf. */
export const RAW_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\p{Cf}]/u;

/** Whether `text` holds a raw control, escape or bidi character (the emoji ZWJ and tag sequences sanitizeText keeps are allowed). */
export function hasRawControl(text: string): boolean {
  // sanitizeText keeps a ZWJ between two emoji and a subdivision flag's tags: these are what make the emoji.
  const withoutEmoji = text
    .replace(/(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})/gu, "")
    .replace(/(?<=\u{1F3F4})[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,8}\u{E007F}/gu, "");
  return RAW_CONTROL.test(withoutEmoji);
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
}
