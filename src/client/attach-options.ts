// What attachElicitation takes and gives back (the class that does the work: attached-client.ts).
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import type { RateLimitOptions } from "./rate-limit.js";
import type { ElicitationUI } from "./ui.js";
import type { Attached, Forward } from "./attached.js";
import type { PendingUrlElicitations } from "./url-flow.js";

export type ElicitationMode = "form" | "url";

export interface ElicitationPolicy {
  /** Decline forms with fields that look like passwords, keys, tokens or cards, without showing them (default false: show with a warning). */
  declineSensitiveForms?: boolean;
  /** Per-server limit on requests shown to the person (default 10 per 60 s). */
  rateLimit?: RateLimitOptions;
}

export interface AttachOptions {
  ui: ElicitationUI;
  policy?: ElicitationPolicy;
  /** Modes to declare (default both). A request for an undeclared mode is answered -32602. */
  modes?: ElicitationMode[];
  /**
   * The tool-call clock's defaults (a call's own `timeout` and `maxTotalTimeout` win): `timeoutMs`, the
   * silence allowed, stopped while the person is asked and started over by progress (CALL_TIMEOUT_MS);
   * `ceilingMs`, the whole call, the person's time included (CALL_CEILING_MS).
   */
  requestClock?: { timeoutMs?: number; ceilingMs?: number };
  /**
   * Whether `client.callTool` is routed through the handle's `callTool` (default true): hosts call the
   * client they made, and a call that bypassed the handle would lose the -32042 URL flow and the clock
   * that waits for the person. It is put back as it was on `detach()`. With false the client is left
   * exactly as it was, and the host calls the handle's `callTool` itself.
   */
  routeClientCallTool?: boolean;
  /** Hands each checked request to another client first (a gateway's host); see `Forward`. */
  forward?: Forward;
}

/** What attachElicitation gives back: tool calls that go through -32042 URL flows, and the pending flows. */
export interface ElicitationHandle extends Attached {
  /**
   * `client.callTool`, plus the -32042 URLElicitationRequired flow: each URL is analysed and consented to,
   * the call waits for its completion notification (or the person's retry), then is retried once for that
   * set. Rejects with UrlElicitationEndedError when the person declines or cancels, a URL is refused, or the
   * server asks again for a URL that already completed.
   *
   * Its clock is aware of the person: `options.timeout` (default CALL_TIMEOUT_MS, 30 minutes, not the
   * SDK's 60 s) is the silence allowed, stopped while a form, a URL step or a sampling review is in front
   * of the person and started over by each progress notification (unless `resetTimeoutOnProgress` is
   * false); `options.maxTotalTimeout` (default CALL_CEILING_MS, 24 hours) bounds the whole call.
   */
  callTool(params: Parameters<Client["callTool"]>[0], options?: Parameters<Client["callTool"]>[1]): Promise<CallToolResult>;
  /** URL flows the person consented to that have not completed; completions for other ids are ignored. */
  readonly pending: PendingUrlElicitations;
}
