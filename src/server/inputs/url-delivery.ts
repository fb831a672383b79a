// The port of URL mode: what a way of asking (inputs/delivery.ts) gives a tool call's URL flows, and what
// it is given. ctx.elicitUrl, connect, collect and elicitFile (elicit-url.ts) are written once against it;
// how a flow's URL reaches the client is per revision: live/live-url.ts (2025-11-25) and
// rounds/replay-url.ts (2026-07-28).
import type { ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import type { FlowInit, FlowKind, FlowOutcome } from "../url/flows.js";
import type { UrlKit } from "../url/url-kit.js";

export interface UrlElicitOptions {
  /**
   * 2025-11-25: "request" (default) sends elicitation/create and keeps the call open until the page
   * ends the flow; "error" ends the call with -32042 listing the URL, and the client's retry of the
   * same call (same caller, tool and arguments) finds the ended flow.
   */
  via?: "request" | "error";
  /** How long the person has to finish in the browser (default: the kit's flowTtlMs, 10 minutes). */
  timeoutMs?: number;
  /** 2026-07-28: how long a retry waits for a flow that has not ended before asking again with the same URL (default 25 s). */
  retryWaitMs?: number;
  /** For a client without URL mode: overrides the kit's `fallback`. */
  fallback?: "error" | "link";
}

/** What one tool call needs to correlate its URL flows (elicitation.ts fills it per call). */
export interface UrlCall {
  kit: UrlKit;
  tool: string;
  args: unknown;
  /** Who calls, as the kit's principal function says ("anonymous" when nobody is verified). */
  who: string;
  /** Retry keys this call used; forgotten once the call returns, so the next call starts new flows. */
  used: Set<string>;
}

/** How one URL flow ended, and which flow it was. */
export interface FlowEnd {
  outcome: FlowOutcome;
  flowId: string;
}

/** One URL flow a tool asks for, before it is created. */
export interface UrlAsk {
  kind: FlowKind;
  message: string;
  options: UrlElicitOptions;
  /** The flow without its id; `target` may still need the id. */
  init: FlowInit;
  target?: (flowId: string) => string;
  /** The n-th URL flow of this call (1-based): its key across retries and rounds. */
  ordinal: number;
}

/** What URL mode needs of the way a call asks (inputs/delivery.ts): its context, revision, and how a flow's URL reaches the client. */
export interface UrlDelivery {
  /** The SDK's context of the tool call. */
  readonly ctx: ServerContext;
  /** The revision the call is served on. */
  readonly protocol: ProtocolRevision;
  /** The MCP client's name for the pages (inert text). */
  clientName(): string;
  /** Sends the person to the flow's URL and resolves with how the flow ended: per revision, live-url.ts and replay-url.ts. */
  urlFlow(call: UrlCall, ask: UrlAsk): Promise<FlowEnd>;
}
