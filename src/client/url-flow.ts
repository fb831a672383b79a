// URL-mode flows the client has consented to: pending elicitationIds, the completion notifications
// that end them, and the -32042 URLElicitationRequired retry of a tool call.
import { UrlElicitationRequiredError, type CallToolResult, type Client, type ElicitRequestURLParams } from "@modelcontextprotocol/client";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import { ElicitError } from "../schema/errors.js";

type CallToolParams = Parameters<Client["callTool"]>[0];
type CallToolOptions = Parameters<Client["callTool"]>[1];

/** Why a tool call that needed a URL flow did not go on. */
export type UrlFlowEnd = "declined" | "cancelled" | "refused" | "repeated";

export class UrlElicitationEndedError extends ElicitError {
  constructor(
    readonly reason: UrlFlowEnd,
    message: string,
  ) {
    super("url-elicitation-ended", message);
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

/** One URL elicitation from a -32042: ask consent, then wait (bounded by `waitMs`, the call's timeout); returns how the wait ended. */
export type UrlStep = (elicitation: ElicitRequestURLParams, signal: AbortSignal, waitMs?: number) => Promise<"completed" | "retry">;

/**
 * Calls a tool; when the server answers -32042, each listed URL elicitation goes through `step`
 * (consent, then the wait), and the call is retried once for that set. A second -32042 that asks for
 * URLs already completed ends the call instead of looping.
 */
export async function callToolWithUrlFlows(
  callTool: Client["callTool"],
  params: CallToolParams,
  options: CallToolOptions,
  step: UrlStep,
): Promise<CallToolResult> {
  // How each URL's wait ended: a URL asked for again is never retried again, and the message says why.
  const done = new Map<string, "completed" | "retry">();
  const signal = options?.signal ?? new AbortController().signal;
  for (;;) {
    let required: ElicitRequestURLParams[];
    try {
      return (await callTool(params, options)) as CallToolResult;
    } catch (error) {
      if (!(error instanceof UrlElicitationRequiredError)) throw error;
      required = error.elicitations;
    }
    const fresh = required.filter((e) => !done.has(e.url));
    if (fresh.length === 0) {
      // The URLs are server text, and this message is printed (the CLI writes it to stderr).
      const urls = required.map((e) => sanitizeText(e.url, { maxLength: MAX_LABEL_LENGTH, multiline: false })).join(", ");
      const completed = required.every((e) => done.get(e.url) === "completed");
      throw new UrlElicitationEndedError(
        "repeated",
        completed
          ? `The server asked again for a URL flow it had reported complete (${urls}); not retrying, to avoid a loop.`
          : `The server still needs the URL flow at ${urls}: the retry came before the flow was finished (no completion was reported). Finish it in the browser and call the tool again.`,
      );
    }
    for (const elicitation of fresh) done.set(elicitation.url, await step(elicitation, signal, options?.timeout));
  }
}
