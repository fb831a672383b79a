// URL consents kept for the flow under way on 2026-07-28. There the URL request rides in input_required,
// and a server whose page is not finished yet waits a bounded time per round and then asks again with
// the same URL. The person already said yes and has the page open: asking again would offer "No" in the
// middle of, say, a payment. So a consent is kept, narrowly, for that re-ask only.

/** At most this many URLs are kept per connection; the oldest goes first. */
export const MAX_KEPT_CONSENTS = 16;

/** A kept consent ends after this long even if its call still runs (the default tool-call wait). */
export const KEPT_CONSENT_MAX_AGE_MS = 30 * 60_000;

interface Kept {
  /** The connection (transport) the person accepted on: another one never finds it. */
  connection: object | undefined;
  /** The tool calls running when the person accepted: the consent ends when they all have. */
  calls: Set<object>;
  at: number;
}

/**
 * Normalized URLs (analyzeUrl's `url`) the person accepted during tool calls still running. Only an
 * accepted URL is kept; a declined or cancelled one, another connection's or one accepted outside a
 * tool call is never found, and the remembered set is bounded in size and age.
 */
export class KeptUrlConsents {
  private running = new Set<object>();
  private kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs one tool call; consents given while it runs last until it (and the calls running alongside) settle. */
  async during<T>(call: () => Promise<T>): Promise<T> {
    const token = {};
    this.running.add(token);
    try {
      return await call();
    } finally {
      this.running.delete(token);
      for (const [url, entry] of this.kept) if (!this.live(entry)) this.kept.delete(url);
    }
  }

  /** Keeps the person's "accept" for `url` on `connection`; outside a tool call there is nothing to tie it to. */
  keep(url: string, connection: object | undefined): void {
    if (this.running.size === 0) return;
    this.kept.delete(url);
    this.kept.set(url, { connection, calls: new Set(this.running), at: this.now() });
    while (this.kept.size > MAX_KEPT_CONSENTS) this.kept.delete(this.kept.keys().next().value!);
  }

  /** Whether the person accepted `url` on this `connection` during a tool call that still runs. */
  has(url: string, connection: object | undefined): boolean {
    const entry = this.kept.get(url);
    if (!entry) return false;
    if (entry.connection === connection && this.live(entry)) return true;
    this.kept.delete(url);
    return false;
  }

  /** Ends a kept consent (the UI said the page can no longer be finished). */
  forget(url: string): void {
    this.kept.delete(url);
  }

  get size(): number {
    return this.kept.size;
  }

  private live(entry: Kept): boolean {
    return this.now() - entry.at <= KEPT_CONSENT_MAX_AGE_MS && [...entry.calls].some((call) => this.running.has(call));
  }
}
