// Finishing calls a dead member left: their recorded requests are handed to the adopted session's
// transport through its public handleRequest, as one POST from the client would be (with the token of
// the client's request that resumed the stream). The transport opens a stream for them; the resumed
// connection then carries that stream, so what the run sends (a question asked again under a new id,
// the result) reaches the client, which is still waiting on the calls' ids.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { rerunScope } from "./events.js";

/**
 * Dispatches `requests` on the session; resolves with the stream the transport opened for them, whose
 * messages wait for `gate`. Rejects when the transport refuses them (nothing runs then).
 */
export function dispatchAgain(
  transport: NodeStreamableHTTPServerTransport,
  sessionId: string,
  requests: unknown[],
  from: { auth?: unknown; protocolVersion?: string },
  gate: Promise<void>,
): Promise<string> {
  const { auth } = from;
  return new Promise<string>((resolve, reject) => {
    const req = new IncomingMessage(new Socket());
    req.method = "POST";
    req.url = "/";
    req.headers = {
      host: "127.0.0.1",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      // The revision the client resumed on (at least 2025-11-25: older clients cannot resume), so the stream opens with an event id.
      "mcp-protocol-version": from.protocolVersion ?? "2025-11-25",
    };
    req.rawHeaders = Object.entries(req.headers).flat() as string[];
    if (auth !== undefined) (req as IncomingMessage & { auth?: unknown }).auth = auth;
    // A response with no socket keeps what is written in memory, until the resumed connection takes the stream over.
    const res = new ServerResponse(req);
    const body = requests.length === 1 ? requests[0] : requests;
    rerunScope(auth, gate, resolve, () => transport.handleRequest(req, res, body)).then(
      // Settled before any stream opened: the transport answered at once (an error status).
      () => reject(new Error(`finishing a lost call: the session refused its request (HTTP ${res.statusCode})`)),
      reject,
    );
  });
}
