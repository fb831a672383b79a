// The wait for a URL flow's completion when the UI has no waitForUrl of its own.

/**
 * The completion, the call's cancel, or "retry" once `ms` passed, since nothing else would end it:
 * servers need not send the completion, and one sent before the client's stream for notifications
 * opened is lost.
 */
export async function untilCompleted(completed: Promise<void>, signal: AbortSignal, ms: number): Promise<"completed" | "retry" | "cancel"> {
  let timer: NodeJS.Timeout | undefined;
  const retry = new Promise<"retry">((resolve) => (timer = setTimeout(resolve, Math.min(ms, 2 ** 31 - 1), "retry")));
  try {
    return await Promise.race([completed.then(() => "completed" as const), aborted(signal), retry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves "cancel" when the signal aborts (never otherwise). */
const aborted = (signal: AbortSignal) =>
  new Promise<"cancel">((resolve) =>
    signal.aborted ? resolve("cancel") : signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
  );
