// The lifetime sweep of a sink: started by the first use, not at construction (Workers forbid timers in
// global scope, and a sink made at module scope must still load there), unref'd so it never keeps a
// process alive, and stopped again when a pass finds nothing left to watch (the next use restarts it).
import { unref } from "../../../common/unref.js";

export interface Sweeper {
  /** Starts the periodic sweep unless it runs. */
  start(): void;
  /** Runs one pass now (what the timer runs). */
  run(): Promise<void>;
}

/**
 * Calls `pass` every half lifetime (between 50 ms and 60 s), so an upload is gone at most 1.5 lifetimes
 * after it was stored. `pass` resolves to how many items it still watches; 0 stops the timer.
 */
export function sweepEvery(lifetimeMs: number, pass: () => Promise<number>): Sweeper {
  const periodMs = Math.min(60_000, Math.max(50, lifetimeMs / 2));
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  let starts = 0; // a start during a pass may concern an item the pass did not see: the timer stays then
  const run = () => {
    const startsBefore = starts;
    return (running ??= pass()
      .then(
        (left) => {
          if (left === 0 && timer !== undefined && starts === startsBefore) {
            clearInterval(timer);
            timer = undefined;
          }
        },
        () => {}, // a failed pass (a directory gone, a store down) is retried by the next one
      )
      .finally(() => (running = undefined)));
  };
  return {
    start() {
      starts++;
      if (timer !== undefined) return;
      timer = setInterval(() => void run(), periodMs);
      unref(timer);
    },
    run,
  };
}
