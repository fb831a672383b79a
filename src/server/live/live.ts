// The 2025-era channel: a real server→client request sent as part of the tool call (so over
// Streamable HTTP it rides that call's stream), with a human-scale wait, cancellation with the
// call, and progress notifications to the caller while the person thinks.
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/server";
import { sanitizeText } from "../../common/sanitize.js";
import { isMalformedReplyError } from "../../common/screen.js";
import { watchDroppedMessages } from "../base/dropped.js";
import { InvalidClientResultError } from "../base/input-errors.js";
import { ElicitError } from "../../schema/errors.js";
import { unref } from "../../common/unref.js";

export interface LiveOptions {
  timeoutMs: number;
  progressIntervalMs: number;
}

/** Nobody answered within the wait. */
export class InputTimeoutError extends ElicitError {
  constructor(what: string, timeoutMs: number) {
    super("input-timeout", `No answer to "${what}" within ${formatDuration(timeoutMs)}; the request was withdrawn.`);
  }
}

export function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}

/** Keeps the caller's progress token alive across every wait of one tool call. */
export class ProgressKeepAlive {
  private progress = 0;
  private waiting = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private ctx: ServerContext,
    private intervalMs: number,
  ) {}

  private get token() {
    return this.ctx.mcpReq._meta?.progressToken;
  }

  async during<T>(what: string, wait: () => Promise<T>): Promise<T> {
    if (this.token === undefined) return wait();
    if (this.waiting++ === 0) {
      this.timer = setInterval(() => void this.tick(what), this.intervalMs);
      unref(this.timer);
    }
    try {
      return await wait();
    } finally {
      if (--this.waiting === 0) clearInterval(this.timer);
    }
  }

  private async tick(what: string) {
    const message = `Waiting for the user: ${what.slice(0, 120)}`;
    await this.ctx.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken: this.token!, progress: ++this.progress, message } })
      .catch(() => {}); // a closed stream ends the call anyway
  }
}

/** Sends one server→client request related to the current call and waits for the person. */
export async function sendLive(
  server: McpServer,
  ctx: ServerContext,
  keepAlive: ProgressKeepAlive,
  method: string,
  params: Record<string, unknown>,
  what: string,
  timeoutMs: number,
): Promise<unknown> {
  try {
    // ctx.mcpReq.send relates the request to this tools/call; elicitInput would not, and would
    // also reject invalid answers itself instead of letting us ask again.
    const send = ctx.mcpReq.send as (req: { method: string; params: unknown }, options: object) => Promise<unknown>;
    return await keepAlive.during(what, () =>
      watchDroppedMessages(server).race((dropped) =>
        send(
          { method, params },
          { timeout: timeoutMs, resetTimeoutOnProgress: false, signal: AbortSignal.any([ctx.mcpReq.signal, dropped]) },
        ),
      ),
    );
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) throw new InputTimeoutError(what, timeoutMs);
    // A malformed reply, screened at the transport (src/common/screen.ts): the same error as one dropped in memory.
    if (isMalformedReplyError(error))
      throw new InvalidClientResultError(method, sanitizeText(error.message, { multiline: false, maxLength: 300 }));
    // The SDK checks the client's result against the method's schema; say whose answer was wrong.
    if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
      throw new InvalidClientResultError(method, describeInvalid(error.message));
    throw error;
  }
}

/**
 * The SDK's "Invalid result for M: [zod issues as JSON]" as "role: Invalid option: ...; content: ...".
 * The issues name the client's own keys, so the text is made inert (it reaches the person's screen).
 */
function describeInvalid(message: string): string {
  let detail = message.replace(/^Invalid result for \S+: /, "");
  try {
    const issues = JSON.parse(detail) as { path?: unknown[]; message?: string }[];
    if (Array.isArray(issues) && issues.length)
      detail = `${issues.map((i) => `${(i.path ?? []).join(".") || "result"}: ${i.message}`).join("; ")}.`;
  } catch {
    // not JSON: the SDK's own sentence
  }
  return sanitizeText(detail, { multiline: false, maxLength: 500 });
}
