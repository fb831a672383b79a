// A first tools/call whose answer never came because the server went away under it: a fleet member
// killed while the call ran, behind a balancer that then answers 502 (or 504), or a connection reset.
// The call may have run: it cannot be sent again (resend.ts sends again only rounds, which the ledger
// makes safe), and the SDK would end it with "fetch failed" or an HTTP error that does not say so. It
// ends instead with the error a fleet member gives a call it cannot finish (docs/server/
// survive-a-member-dying.md): -32000 "Request lost", data.reason "instance-lost", here why "no-answer".

/** The JSON-RPC code of a lost call, as a fleet member answers it. */
export const LOST_CALL_CODE = -32000;

/** Failures in which the request never reached a server: those keep their own error (nothing can have run). */
const NEVER_SENT = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/** Balancer answers that mean the server it had sent the request to failed before answering. */
export const LOST_STATUSES = new Set([502, 504]);

/** The id of a POST that carries one tools/call request and no requestState (a first request), else undefined. */
export function firstCallId(init: RequestInit | undefined): string | number | undefined {
  if (init?.method?.toUpperCase() !== "POST" || typeof init.body !== "string" || !init.body.includes('"tools/call"')) return undefined;
  try {
    const message = JSON.parse(init.body) as { method?: unknown; id?: unknown; params?: { requestState?: unknown } } | null;
    if (typeof message !== "object" || message === null || Array.isArray(message) || message.method !== "tools/call") return undefined;
    if (message.params?.requestState !== undefined) return undefined;
    return typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a network failure happened before the request could reach a server (its system error code). */
export const neverSent = (code: string | undefined) => code !== undefined && NEVER_SENT.has(code);

/** The answer the SDK's transport reads for the lost call: the JSON-RPC error, on the call's id. */
export function lostCallResponse(id: string | number, server: string, reason: string): Response {
  const body = {
    jsonrpc: "2.0",
    id,
    error: {
      code: LOST_CALL_CODE,
      message:
        `Request lost: the server at ${server} went away before it answered (${reason}), and the call cannot be sent again. ` +
        "Whether its effects happened is unknown: retry only if it is safe to repeat.",
      data: { reason: "instance-lost", why: "no-answer", server },
    },
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}
