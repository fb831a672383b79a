// How one tool call's questions reach the client and its answers come back: the only part of an input
// that differs between ways of asking. The inputs (client-inputs.ts) are written once against it; each
// way of asking is one adapter: a live request on a 2025-era connection (live-delivery.ts), a journal
// entry answered in an input_required round on 2026-07-28 (rounds/round-delivery.ts).
import type { ClientCapabilities, Root } from "@modelcontextprotocol/server";
import type { UrlDelivery } from "./url-delivery.js";

/** The requests a tool's inputs send to the client. */
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** Turns a client's raw answer into what the tool gets (and a round journals); throws to refuse it. */
export type Settle<T> = (raw: unknown) => T;

/** What a request needs besides its params: a name for it in rounds, a wait for live ones, words for progress. */
export interface RequestOptions {
  /** The request's key in 2026-07-28 `inputRequests` (default: method-N, in the order asked). */
  key?: string;
  /** How long a live request waits for the client and the person. */
  timeoutMs?: number;
  /** What is awaited, for progress notices and the timeout's message (the form's message, or the method). */
  what: string;
}

export interface Delivery extends UrlDelivery {
  /** The capabilities the client declared for this call (empty when it declared none). */
  readonly capabilities: ClientCapabilities;
  /**
   * Whether an input the client cannot take is refused here, before anything is sent. A live connection
   * does (a tool error naming what is missing); a 2026-07-28 round leaves it to the SDK, which answers
   * -32021 naming the capability when the round goes out.
   */
  readonly refusesUnsupported: boolean;
  /**
   * A 2025-era call that came without a session (no initialize reached this server): nothing can be
   * asked, and every input is refused with SessionRequiredError rather than a missing capability.
   */
  readonly sessionless?: false | "no_session" | "worker";
  /** Sends one request and resolves with `settle`'s value of the client's raw (untrusted) answer; `settle` throws to refuse it. */
  request<T>(method: InputMethod, params: Record<string, unknown>, settle: Settle<T>, options: RequestOptions): Promise<T>;
  /** Runs `fn` once per tool call, however often the handler runs; its result must be JSON. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** Goes on as a task (rounds of a call that can become one); absent where there is nothing to do. */
  detach?(): Promise<void>;
  /** The client's roots, from what this way of asking may keep (a live connection's list until it changes), else `ask()`. */
  roots(ask: () => Promise<Root[]>): Promise<Root[]>;
}
