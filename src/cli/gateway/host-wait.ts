// What the gateway tells the person about how long the host waits for its calls: that it stopped
// waiting (its request timeout, or a cancel), and, while a question waits on the page, whether the
// gateway keeps the host waiting (progress) or the host may give up after its own time limit.
import { MAX_LABEL_LENGTH, sanitizeText } from "../../common/sanitize.js";
import { KEEP_ALIVE_MS } from "./host-progress.js";

/** What the gateway tells the person about the host's calls (command.ts: stderr and the page). */
export interface HostFacingHooks {
  /** A host's tools/call started: what was said about an earlier one is old news. */
  callStarted?(tool: string): void;
  /**
   * The host stopped waiting for a tool call (its request timeout, or a cancel) after `afterMs`: the call
   * is cancelled upstream, and any question of it is withdrawn from the person. `tool` is host text.
   */
  stoppedWaiting?(tool: string, afterMs: number): void;
  /** A question of a host request waits for the person; `keptWaiting`: the host asked for progress, and hears it. */
  personAnswering?(keptWaiting: boolean): void;
}

const seconds = (ms: number) => (ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000));

/** The sentence for a host that gave up on a call: that it stopped waiting, after how long, and what that means here. */
export function hostStoppedWaiting(tool: string, afterMs: number): string {
  const name = sanitizeText(tool, { maxLength: MAX_LABEL_LENGTH, multiline: false }) || "a tool";
  return `The host stopped waiting for ${name} after ${seconds(afterMs)} s and cancelled the call: the question it asked is withdrawn, and an answer would no longer reach it.`;
}

/**
 * The sentence for a question that waits for the person: how long the host waits, as far as the
 * gateway knows (`waitedMs`: how long it waited before it stopped waiting for an earlier call).
 */
export function hostWaits(keptWaiting: boolean, waitedMs: number | undefined): string {
  if (keptWaiting)
    return `The host asked for progress: the gateway tells it every ${seconds(KEEP_ALIVE_MS)} s that you are answering, so a host that resets its time limit on progress waits for as long as you take.`;
  const limit =
    waitedMs === undefined ? "its own time limit" : `its own time limit (it stopped waiting after ${seconds(waitedMs)} s before)`;
  return `The host asked for no progress, so the gateway cannot keep it waiting: it may stop waiting after ${limit}.`;
}

/** Tells `hooks` when the host gives up on the call `signal` belongs to; returns the function that stops watching. */
export function watchHostWait(tool: string, signal: AbortSignal, hooks: HostFacingHooks): () => void {
  const started = Date.now();
  hooks.callStarted?.(tool);
  const onAbort = () => hooks.stoppedWaiting?.(tool, Date.now() - started);
  if (signal.aborted) return () => {};
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}
