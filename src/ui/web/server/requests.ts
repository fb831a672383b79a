// The queue behind webUI: every pending request as the page shows it (a card), the promise each
// caller waits on, the notices, and the pages that watch. Every change is pushed to every page as
// the whole state, so a page that reloads or reconnects simply gets it again.
//
// Grace rule: once a page has connected, if no page is connected for `graceMs` while requests are
// pending, those requests are cancelled (the person closed the tab and went away). Before any page
// ever connected nothing is cancelled: the person may still be opening the browser.
import { randomUUID } from "node:crypto";
import type { Card, PageNotice, PageState, PageStatus } from "../page/protocol.js";
import { AnswerError } from "./answers.js";

/** A card before it has an id. */
export type NewCard = Card extends infer C ? (C extends Card ? Omit<C, "id"> : never) : never;

/** What a host sees of a pending request (for its own progress display). */
export interface PendingSummary {
  kind: Card["kind"];
  /** Which server asks (already inert). */
  server: string;
  /** The request's message, or what it is, e.g. "A model request". */
  message: string;
}

export type AnswerOutcome = { status: 204 } | { status: 400 | 404 | 409 | 422; error: string };

interface Entry {
  card: Card;
  /** Checks the page's raw answer and settles the caller; throws AnswerError when it does not fit. */
  settle(raw: unknown): void;
  /** Settles the caller with the request's cancel answer. */
  cancel(): void;
}

export interface QueueOptions {
  graceMs: number;
  log: (line: string) => void;
  onChange?: (pending: readonly PendingSummary[]) => void;
}

const MAX_NOTICES = 20;
/** Ids of answered or withdrawn requests remembered, so a late answer gets 409 rather than 404. */
const MAX_FINISHED = 1000;

export class RequestQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly finished = new Set<string>();
  private readonly pages = new Set<(state: PageState) => void>();
  private notices: PageNotice[] = [];
  private noticeId = 0;
  private status: PageStatus | undefined;
  private everConnected = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: QueueOptions) {}

  /**
   * Shows `card` and resolves with the page's answer as `read` makes it, or with `cancelled` when the
   * signal aborts (the card disappears from the page) or the queue closes.
   */
  ask<T>(card: NewCard, read: (raw: unknown) => T, cancelled: T, signal?: AbortSignal): Promise<T> {
    if (this.closed || signal?.aborted) return Promise.resolve(cancelled);
    const id = randomUUID();
    return new Promise<T>((resolve) => {
      const finish = (value: T) => {
        signal?.removeEventListener("abort", onAbort);
        this.entries.delete(id);
        this.remember(id);
        resolve(value);
        this.changed();
      };
      const onAbort = () => finish(cancelled);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.entries.set(id, { card: { ...card, id } as Card, settle: (raw) => finish(read(raw)), cancel: () => finish(cancelled) });
      this.changed();
    });
  }

  /** The page's answer to request `id`. */
  answer(id: unknown, raw: unknown): AnswerOutcome {
    if (typeof id !== "string") return { status: 400, error: "id must be a string." };
    const entry = this.entries.get(id);
    if (!entry)
      return this.finished.has(id)
        ? { status: 409, error: "This request was already answered or withdrawn." }
        : { status: 404, error: "No such request." };
    try {
      entry.settle(raw);
      return { status: 204 };
    } catch (error) {
      if (error instanceof AnswerError) return { status: error.status, error: error.message };
      throw error;
    }
  }

  notice(server: string, message: string): void {
    this.notices = [...this.notices, { id: ++this.noticeId, server, message }].slice(-MAX_NOTICES);
    this.push();
  }

  /** What the host is doing while nothing is asked; undefined clears it. */
  setStatus(status: PageStatus | undefined): void {
    this.status = status;
    this.push();
  }

  state(): PageState {
    const requests = [...this.entries.values()].map((e) => e.card);
    return { requests, notices: this.notices, ...(this.status ? { status: this.status } : {}) };
  }

  get pending(): number {
    return this.entries.size;
  }

  /** A page connected: it gets the state now and on every change, until the returned function is called. */
  watch(page: (state: PageState) => void): () => void {
    this.pages.add(page);
    this.everConnected = true;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    page(this.state());
    return () => {
      this.pages.delete(page);
      this.armGrace();
    };
  }

  /** Cancels every pending request; later requests are cancelled at once. */
  close(): void {
    this.closed = true;
    clearTimeout(this.graceTimer);
    this.cancelAll();
  }

  private cancelAll(): number {
    const all = [...this.entries.values()];
    for (const entry of all) entry.cancel();
    return all.length;
  }

  private armGrace(): void {
    if (this.closed || !this.everConnected || this.pages.size > 0 || this.entries.size === 0 || this.graceTimer) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.pages.size > 0) return;
      const n = this.cancelAll();
      if (n === 0) return;
      const text = `No page was open for ${formatSeconds(this.options.graceMs)}: cancelled ${n} pending request${n === 1 ? "" : "s"}.`;
      this.options.log(text);
      this.notice("this host", text);
    }, this.options.graceMs);
    this.graceTimer.unref();
  }

  private remember(id: string): void {
    this.finished.add(id);
    if (this.finished.size > MAX_FINISHED) this.finished.delete(this.finished.values().next().value!);
  }

  private changed(): void {
    this.push();
    this.armGrace();
    this.options.onChange?.([...this.entries.values()].map((e) => summary(e.card)));
  }

  private push(): void {
    const state = this.state();
    for (const page of this.pages) page(state);
  }
}

function summary(card: Card): PendingSummary {
  const message =
    card.kind === "sampling-request" ? "A model request" : card.kind === "sampling-answer" ? "The model's answer" : card.message;
  return { kind: card.kind, server: card.server.name, message };
}

const formatSeconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
