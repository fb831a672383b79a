// Finishing calls a dead member left: their recorded requests are handed to the adopted session's
// transport through its public handleRequest, as one POST from the client would be (with the token of
// the client's request that resumed the stream). The transport opens a stream for them; the resumed
// connection then carries that stream, so what the run sends (a question asked again under a new id,
// the result) reaches the client, which is still waiting on the calls' ids.
import type { AuthInfo, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { rerunScope } from "./events.js";

/**
 * Dispatches `requests` on the session; resolves with the stream the transport opened for them, whose
 * messages wait for `gate`. Rejects when the transport refuses them (nothing runs then).
 */
export function dispatchAgain(
  transport: WebStandardStreamableHTTPServerTransport,
  sessionId: string,
  requests: unknown[],
  from: { auth?: unknown; protocolVersion?: string },
  gate: Promise<void>,
): Promise<string> {
  const { auth } = from;
  return new Promise<string>((resolve, reject) => {
    const body = requests.length === 1 ? requests[0] : requests;
    const request = new Request("http://127.0.0.1/", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        // The revision the client resumed on (at least 2025-11-25: older clients cannot resume), so the stream opens with an event id.
        "mcp-protocol-version": from.protocolVersion ?? "2025-11-25",
      },
      body: JSON.stringify(body),
    });
    // The response's stream is not read: what is written stays in memory until the resumed connection takes the stream over.
    const options = { parsedBody: body, ...(auth !== undefined && { authInfo: auth as AuthInfo }) };
    rerunScope(auth, gate, resolve, () => transport.handleRequest(request, options)).then(
      // Once a stream opened, `resolve` was called first and this does nothing; else the transport refused at once (an error status).
      (response) => {
        reject(new Error(`finishing a lost call: the session refused its request (HTTP ${response.status})`));
      },
      reject,
    );
  });
}
