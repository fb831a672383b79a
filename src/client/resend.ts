// Rounds that survive the network and the server (2026-07-28). A retry round (a request echoing the
// server's requestState with the person's inputResponses) is often open for a long time: the server may
// hold it while the person finishes a page. When the server dies or restarts under it, or a proxy
// answers 502/503/504, the answers the person gave must not be lost: the same round is sent again,
// byte for byte, until a server answers or the deadline passes. An exact resend is safe: the server's
// ledger takes one set of answers per round, and the same answers again get what the round led to.
// A streamed answer cut before the round's answer is continued by a resend's (resend-stream.ts).
// Only rounds are resent: a first request carries no requestState, and sending it again could run a
// tool's side effects twice.
import { continuedStream } from "./resend-stream.js";
import { ServerGoneError } from "./resend-error.js";
import { firstCallId, lostCallResponse, LOST_STATUSES, neverSent } from "./lost-call.js";

export { ServerGoneError };

/** What the SDK's Streamable HTTP transport takes as `fetch`. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface ResendOptions {
  /** The fetch to send with (default: the global fetch, looked up at each request). */
  fetch?: FetchLike;
  /** How long one round is sent again after its first failure before giving up (default RESEND_DEADLINE_MS, 2 minutes). */
  deadlineMs?: number;
  /** The first pause before sending again (default 250 ms); each next one doubles, up to `maxDelayMs`, jittered. */
  initialDelayMs?: number;
  /** The longest pause between two sends (default 5 s). */
  maxDelayMs?: number;
  /** Told before each resend: why the last send failed and when the next one goes. */
  onResend?: (event: ResendEvent) => void;
  /** Told when a round that failed got an answer after all. */
  onRecovered?: (event: RecoveredEvent) => void;
  /** For tests: the random number in [0, 1) that jitters each pause. */
  random?: () => number;
}

export interface ResendEvent {
  /** The server's host and port, e.g. "127.0.0.1:3000". */
  server: string;
  /** 1 for the first resend. */
  attempt: number;
  /** Why the last send failed, e.g. "connection refused (ECONNREFUSED)" or "HTTP 503". */
  reason: string;
  /** The pause before this resend. */
  delayMs: number;
  /** Time since the first failure of this round. */
  elapsedMs: number;
  deadlineMs: number;
}

export interface RecoveredEvent {
  server: string;
  /** How many resends it took. */
  attempts: number;
  elapsedMs: number;
}

/** How long a round is sent again, by default: a server restart or a deployment takes less. */
export const RESEND_DEADLINE_MS = 2 * 60_000;

/** Gateway answers that mean "no server behind me right now": nothing reached the MCP server. */
const RESEND_STATUSES = new Set([502, 503, 504]);

const isEventStream = (response: Response) =>
  response.body !== null && (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "text/event-stream";

const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "the connection closed before the answer",
  UND_ERR_CLOSED: "the connection closed before the answer",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EAI_AGAIN: "host not found (DNS lookup failed)",
};

/** Wraps `fetch` (for StreamableHTTPClientTransport's `fetch` option) so 2026-07-28 rounds are sent again when the server goes away. */
export function resendingFetch(options: ResendOptions = {}): FetchLike {
  const deadlineMs = options.deadlineMs ?? RESEND_DEADLINE_MS;
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const random = options.random ?? Math.random;
  return async (url, init) => {
    const send = options.fetch ?? globalThis.fetch;
    const id = roundId(init);
    if (id === undefined) {
      const call = firstCallId(init);
      return call === undefined ? send(url, init) : sendOnce(send, url, init, call);
    }
    const server = serverOf(url);
    let started: number | undefined;
    let attempt = 0;
    /** Sends the round until something other than a gateway's 5xx answers; `failed`: why the last send failed. */
    const deliver = async (failed?: { reason: string; retryAfterMs: number }): Promise<Response> => {
      for (;;) {
        if (failed) {
          started ??= Date.now();
          const elapsedMs = Date.now() - started;
          const remaining = deadlineMs - elapsedMs;
          if (remaining <= 0) throw new ServerGoneError(server, failed.reason, attempt, elapsedMs);
          const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt);
          // Half fixed, half random: clients cut off together do not all come back in the same instant.
          const jittered = ceiling / 2 + (random() * ceiling) / 2;
          const delayMs = Math.round(Math.min(remaining, Math.max(jittered, failed.retryAfterMs)));
          options.onResend?.({ server, attempt: ++attempt, reason: failed.reason, delayMs, elapsedMs, deadlineMs });
          await pause(delayMs, init?.signal ?? undefined);
        }
        try {
          const response = await send(url, init);
          if (!RESEND_STATUSES.has(response.status)) {
            if (started !== undefined) options.onRecovered?.({ server, attempts: attempt, elapsedMs: Date.now() - started });
            return response;
          }
          failed = { reason: `HTTP ${response.status}`, retryAfterMs: retryAfterOf(response) };
          await response.body?.cancel().catch(() => {});
        } catch (error) {
          // The call was cancelled, or the failure is not the network's (a bad URL, a refused body): as it is.
          if (init?.signal?.aborted || !isNetworkError(error)) throw error;
          failed = { reason: networkReason(error), retryAfterMs: 0 };
        }
      }
    };
    const response = await deliver();
    // A streamed answer may be cut before the round's answer comes: the stream goes on with a resend's.
    return isEventStream(response) ? continuedStream(response, id, (reason) => deliver({ reason, retryAfterMs: 0 })) : response;
  };
}

/**
 * A first tools/call, sent once: when the server goes away under it (a balancer's 502 or 504, the
 * connection broken after it was sent), it ends with the "Request lost" error (lost-call.ts) instead
 * of fetch's or the SDK's error; a failure before it could reach a server keeps its own error.
 */
async function sendOnce(send: FetchLike, url: string | URL, init: RequestInit | undefined, id: string | number): Promise<Response> {
  let response: Response;
  try {
    response = await send(url, init);
  } catch (error) {
    if (init?.signal?.aborted || !isNetworkError(error) || neverSent(codeOf(error))) throw error;
    return lostCallResponse(id, serverOf(url), networkReason(error));
  }
  if (!LOST_STATUSES.has(response.status)) return response;
  await response.body?.cancel().catch(() => {});
  return lostCallResponse(id, serverOf(url), `HTTP ${response.status}`);
}

/** A 2026-07-28 retry round (one JSON-RPC request, POSTed as text, whose params echo a requestState): its id. */
function roundId(init: RequestInit | undefined): string | number | undefined {
  if (init?.method?.toUpperCase() !== "POST" || typeof init.body !== "string" || !init.body.includes('"requestState"')) return undefined;
  try {
    const message = JSON.parse(init.body) as { method?: unknown; id?: unknown; params?: { requestState?: unknown } } | null;
    const round =
      typeof message === "object" &&
      message !== null &&
      !Array.isArray(message) &&
      typeof message.method === "string" &&
      typeof message.params?.requestState === "string";
    return round && (typeof message.id === "string" || typeof message.id === "number") ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** fetch's network failures are TypeErrors ("fetch failed") with the system error a few causes down. */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && (error.message === "fetch failed" || codeOf(error) !== undefined);
}

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
  }
  return undefined;
}

function networkReason(error: unknown): string {
  const code = codeOf(error);
  if (code === undefined) return "the connection failed";
  return `${REASONS[code] ?? "network error"} (${code})`;
}

/** A 503's Retry-After in seconds, as milliseconds (0 when absent or a date). */
function retryAfterOf(response: Response): number {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

function serverOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return "the server";
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What a host tells the person about a resend: at the first one, then every tenth, so a long outage is not a flood. */
export function resendNotice(event: ResendEvent): string | undefined {
  const limit = `${Math.round(event.deadlineMs / 1000)} s`;
  if (event.attempt === 1) return `The server went away (${event.reason}); trying again with the same answers, for up to ${limit}…`;
  if (event.attempt % 10 === 0)
    return `Still trying to reach the server (${Math.round(event.elapsedMs / 1000)} s so far, ${event.attempt} attempts; gives up after ${limit}).`;
  return undefined;
}

/** What a host tells the person when the round got through after all. */
export const recoveredNotice = (event: RecoveredEvent) =>
  `The server answered again: the same answers were sent ${event.attempts === 1 ? "once more" : `${event.attempts} more times`}, and the call goes on.`;
