/** A promise and the function that resolves it, for a test that waits on an event. */
export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * `promise`, or a rejection naming `what` once `timeoutMs` passed: a wait for an event that never comes
 * fails its test by name instead of hanging the file until the runner cuts it.
 */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once `predicate()` holds, checking it every `intervalMs`; rejects naming `what` after
 * `timeoutMs`. For effects that fire no event a test can listen to; prefer a promise when there is one.
 */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, what, intervalMs = 10 }: { timeoutMs?: number; what: string; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Resolves once the process `pid` is gone; rejects naming `what` after `timeoutMs`. The process is not
 * ours (a grandchild: the server the CLI started), so no exit event reaches the test; signal 0 asks.
 */
export function processGone(pid: number, timeoutMs: number, what: string): Promise<void> {
  const running = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return waitFor(() => !running(), { timeoutMs, what: `${what} (pid ${pid}) to end`, intervalMs: 50 });
}
