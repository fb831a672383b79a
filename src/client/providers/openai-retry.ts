// Retries for OpenAI-compatible calls. The SDK retries by itself, but sleeps between attempts on a
// timer that an abort cannot end: a cancelled request would still hold the process for up to the
// server's retry-after. So the SDK runs with maxRetries 0 and this loop waits abortably.
import { APIConnectionError, APIError, APIUserAbortError } from "openai";

/** The longest retry-after honoured; a longer one falls back to the exponential backoff. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Runs `attempt`, retrying like the SDK does: on connection errors and timeouts, on 408, 409, 429
 * and 5xx (or as an `x-should-retry` header says), waiting the server's `retry-after-ms` or
 * `retry-after`, else 0.5 s, 1 s, 2 s… (at most 8 s, minus up to 25 % jitter).
 */
export async function withRetries<T>(attempt: () => Promise<T>, maxRetries: number, signal?: AbortSignal): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError();
      if (retry >= maxRetries || !retryable(error)) throw error;
      await sleep(delayBefore(error, retry), signal);
    }
  }
}

function retryable(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || typeof error.status !== "number") return false;
  const told = error.headers?.get("x-should-retry");
  if (told === "true" || told === "false") return told === "true";
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

function delayBefore(error: unknown, retry: number): number {
  const headers = error instanceof APIError ? error.headers : undefined;
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (ms >= 0 && ms <= MAX_RETRY_AFTER_MS) return ms;
  const after = headers?.get("retry-after");
  if (after) {
    const seconds = Number.parseFloat(after);
    const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (wait >= 0 && wait <= MAX_RETRY_AFTER_MS) return wait;
  }
  return Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
