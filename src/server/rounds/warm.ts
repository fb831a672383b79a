// Warm rounds of 2026-07-28: the handlers this process suspended when a round went out, by the
// requestState it issued. A retry that comes back here (always on stdio, usually behind a sticky
// balancer) resumes its handler where it waits instead of replaying it: the state is still checked
// (its terms here, the call ledger as for any state), but its journal is not opened and the handler's
// prefix does not run again. Held handlers are bounded by count, by an estimate of their memory and
// by idle time; one let go is simply dropped (never resumed, never rejected, so nothing in it runs),
// and its retry replays from the state, as one landing on another process does.
import type { ReplayRun } from "./replay.js";
import type { StateTerms } from "../base/sealed-state.js";
import { unref } from "../../common/unref.js";
import { promisesCrossRequests } from "../base/cross-requests.js";

export interface WarmRoundOptions {
  /** Most suspended handlers held at once (default 1,000); the oldest is let go first. 0 turns warm rounds off. */
  maxHandlers?: number;
  /** Most memory they may hold, by estimate (default 64 MiB): 8 KiB per handler (32 KiB over HTTP) plus twice its requestState. */
  maxBytes?: number;
  /** How long a handler is held waiting for its retry (default 5 minutes, never longer than the state lives). */
  idleMs?: number;
  /** Told when a held handler is let go, and why (for metrics; its retry replays). */
  onEvict?: (reason: EvictReason) => void;
  /**
   * Hold handlers even where a promise cannot cross requests (Cloudflare Workers: warm rounds are off
   * there by default, see `promisesCrossRequests`). Only for a runtime known to allow it.
   */
  force?: boolean;
}

export type EvictReason = "count" | "bytes" | "idle";

export const WARM_DEFAULTS = { maxHandlers: 1_000, maxBytes: 64 * 1024 * 1024, idleMs: 5 * 60_000 };

/**
 * A suspended handler's memory beyond its journal: its async frames, closures, context and promises.
 * bench/server-rounds.ts measures about 8.5 KiB per handler held on one booking form, its state included.
 */
export const HANDLER_BASE_BYTES = 8 * 1024;
/** The same over HTTP, where a handler also keeps its request's server and HTTP objects: measured about 32 KiB. */
export const HTTP_HANDLER_BASE_BYTES = 32 * 1024;

/** One held handler: its run, the terms its state was sealed with, and the call and round it answers. */
export interface Suspended {
  run: ReplayRun;
  terms: StateTerms;
  bytes: number;
  /** When it was suspended (ms since the epoch). */
  at: number;
}

/**
 * The warm rounds a kit holds: none when turned off, or by default where promises cannot cross requests
 * (cross-requests.ts): a warm round's retry settles the questions the first request's handler waits on.
 */
export function warmRoundsFor(
  options: WarmRoundOptions | false | undefined,
  stateTtlMs: number,
): ReturnType<typeof warmBounds> | undefined {
  if (options === false) return undefined;
  const bounds = warmBounds(options ?? {}, stateTtlMs);
  return bounds.force === true || promisesCrossRequests() ? bounds : undefined;
}

/** The bounds of warm rounds, checked (a RangeError names a bad one); `idleMs` never past the state's lifetime. */
export function warmBounds(
  options: WarmRoundOptions,
  stateTtlMs: number,
): Required<Omit<WarmRoundOptions, "onEvict" | "force">> & WarmRoundOptions {
  return {
    ...options,
    maxHandlers: check("maxHandlers", options.maxHandlers ?? WARM_DEFAULTS.maxHandlers),
    maxBytes: check("maxBytes", options.maxBytes ?? WARM_DEFAULTS.maxBytes),
    idleMs: Math.min(check("idleMs", options.idleMs ?? WARM_DEFAULTS.idleMs), stateTtlMs),
  };
}

export class SuspendedRuns {
  // Insertion order is suspension order: the first entry is the oldest, which is let go first.
  private readonly held = new Map<string, Suspended>();
  private bytes = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly bounds: ReturnType<typeof warmBounds>) {}

  /** How many handlers are held, and their estimated bytes. */
  get size(): { handlers: number; bytes: number } {
    return { handlers: this.held.size, bytes: this.bytes };
  }

  /** Whether a handler asked this way (`http`) would be held now, its state aside: bounds that hold none say no. */
  holds(http = false): boolean {
    return (
      this.bounds.maxHandlers > 0 && this.bounds.idleMs > 0 && (http ? HTTP_HANDLER_BASE_BYTES : HANDLER_BASE_BYTES) <= this.bounds.maxBytes
    );
  }

  /**
   * Holds `run`, suspended on the round whose state is `token`, letting the oldest go past the bounds;
   * `http`: it was asked over HTTP (a larger estimate).
   */
  hold(token: string, run: ReplayRun, terms: StateTerms, http = false): void {
    if (!this.holds(http)) return;
    const bytes = (http ? HTTP_HANDLER_BASE_BYTES : HANDLER_BASE_BYTES) + 2 * token.length;
    if (bytes > this.bounds.maxBytes) return;
    this.held.set(token, { run, terms, bytes, at: Date.now() });
    this.bytes += bytes;
    while (this.held.size > this.bounds.maxHandlers) this.evictOldest("count");
    while (this.bytes > this.bounds.maxBytes) this.evictOldest("bytes");
    this.timer ??= this.schedule();
  }

  /** The held handler of `token`, left in place (the caller checks the state's terms first). */
  peek(token: string): Suspended | undefined {
    return this.held.get(token);
  }

  /**
   * Takes the handler of `token` out, so no other retry resumes it: the first retry with a state wins
   * the handler, any later one replays (and the call ledger decides, as for any state).
   */
  take(token: string): Suspended | undefined {
    const entry = this.held.get(token);
    if (!entry) return undefined;
    this.held.delete(token);
    this.bytes -= entry.bytes;
    return entry.run.resumable ? entry : undefined;
  }

  private evictOldest(reason: EvictReason): void {
    const [token, entry] = this.held.entries().next().value!;
    this.held.delete(token);
    this.bytes -= entry.bytes;
    this.bounds.onEvict?.(reason);
  }

  /** One timer for the oldest handler's idle deadline; unref'd, so held handlers never keep a process alive. */
  private schedule(): NodeJS.Timeout | undefined {
    const oldest = this.held.values().next().value;
    if (!oldest) return undefined;
    const timer = setTimeout(() => this.sweep(), Math.min(Math.max(0, oldest.at + this.bounds.idleMs - Date.now()) + 1, 2 ** 31 - 1));
    unref(timer);
    return timer;
  }

  private sweep(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const entry of this.held.values()) {
      if (entry.at + this.bounds.idleMs > now) break;
      this.evictOldest("idle");
    }
    this.timer = this.schedule();
  }
}

function check(name: string, value: number): number {
  if (!(value >= 0) || (name !== "maxBytes" && !Number.isInteger(value) && value !== Infinity))
    throw new RangeError(`warmRounds.${name} must be a whole number, 0 or more; got ${value}`);
  return value;
}
