// Taking over a session another member held: a new transport that answers to the recorded session id
// is initialized by replaying the client's recorded initialize request (and its initialized
// notification) through the transport's public handleRequest; the answers go nowhere, since the
// client had them long ago from the first member.
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

async function replay(
  transport: WebStandardStreamableHTTPServerTransport,
  message: unknown,
  headers: Record<string, string>,
): Promise<number> {
  const request = new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
  const response = await transport.handleRequest(request, { parsedBody: message });
  // Read to its end: the SSE stream ends once the request is answered.
  await response.arrayBuffer();
  return response.status;
}

/** Initializes `transport` (whose sessionIdGenerator returns `sessionId`) as the client once did. */
export async function replayInitialize(
  transport: WebStandardStreamableHTTPServerTransport,
  sessionId: string,
  initialize: unknown,
): Promise<void> {
  const status = await replay(transport, initialize, {});
  if (status !== 200 || transport.sessionId !== sessionId)
    throw new Error(`adopting session: the recorded initialize was refused (HTTP ${status})`);
  await replay(transport, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId });
}
