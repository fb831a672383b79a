// URL-mode flows the client has consented to: pending elicitationIds, the completion notifications
// that end them, and the -32042 URLElicitationRequired retry of a tool call.
import { UrlElicitationRequiredError, type CallToolResult, type Client, type ElicitRequestURLParams } from "@modelcontextprotocol/client";
import { MAX_LABEL_LENGTH, sanitizeText } from "./sanitize.js";

type CallToolParams = Parameters<Client["callTool"]>[0];
type CallToolOptions = Parameters<Client["callTool"]>[1];

/** Why a tool call that needed a URL flow did not go on. */
export type UrlFlowEnd = "declined" | "cancelled" | "refused" | "repeated";

export class UrlElicitationEndedError extends Error {
  constructor(
    readonly reason: UrlFlowEnd,
    message: string,
  ) {
    super(message);
    this.name = "UrlElicitationEndedError";
  }
}

/** The elicitationIds the person consented to and that have not completed yet. */
export class PendingUrlElicitations {
  private pending = new Map<string, { resolve: () => void; completed: Promise<void> }>();

  /** Starts tracking `id` (idempotent); the promise settles when the server says the flow completed. */
  track(id: string): Promise<void> {
    const known = this.pending.get(id);
    if (known) return known.completed;
    let resolve!: () => void;
    const completed = new Promise<void>((r) => (resolve = r));
    this.pending.set(id, { resolve, completed });
    return completed;
  }

  /** Handles notifications/elicitation/complete: true if it ended a pending flow; unknown or finished ids are ignored. */
  complete(id: unknown): boolean {
    if (typeof id !== "string") return false;
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.resolve();
    return true;
  }

  /** Stops tracking a flow the person gave up on; a later completion for it is ignored. */
  forget(id: string): void {
    this.pending.delete(id);
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  get size(): number {
    return this.pending.size;
  }
}

/** One URL elicitation from a -32042: ask consent, then wait; returns how the wait ended. */
export type UrlStep = (elicitation: ElicitRequestURLParams, signal: AbortSignal) => Promise<"completed" | "retry">;

/**
 * Calls a tool; when the server answers -32042, each listed URL elicitation goes through `step`
 * (consent, then the wait), and the call is retried once for that set. A second -32042 that asks for
 * URLs already completed ends the call instead of looping.
 */
export async function callToolWithUrlFlows(
  client: Client,
  params: CallToolParams,
  options: CallToolOptions,
  step: UrlStep,
): Promise<CallToolResult> {
  const done = new Set<string>();
  const signal = options?.signal ?? new AbortController().signal;
  for (;;) {
    let required: ElicitRequestURLParams[];
    try {
      return (await client.callTool(params, options)) as CallToolResult;
    } catch (error) {
      if (!(error instanceof UrlElicitationRequiredError)) throw error;
      required = error.elicitations;
    }
    const fresh = required.filter((e) => !done.has(e.url));
    if (fresh.length === 0) {
      // The URLs are server text, and this message is printed (the CLI writes it to stderr).
      const urls = required.map((e) => sanitizeText(e.url, { maxLength: MAX_LABEL_LENGTH, multiline: false })).join(", ");
      throw new UrlElicitationEndedError("repeated", `The server asked again for a URL flow this call already went through (${urls}); not retrying, to avoid a loop.`);
    }
    for (const elicitation of fresh) {
      await step(elicitation, signal);
      done.add(elicitation.url);
    }
  }
}
