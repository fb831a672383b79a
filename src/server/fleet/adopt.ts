// Taking over a session another member held: a new transport that answers to the recorded session id
// is initialized by replaying the client's recorded initialize request (and its initialized
// notification) through the transport's public handleRequest; the answers go nowhere, since the
// client had them long ago from the first member.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";

async function replay(transport: NodeStreamableHTTPServerTransport, message: unknown, headers: Record<string, string>): Promise<number> {
  const req = new IncomingMessage(new Socket());
  req.method = "POST";
  req.url = "/";
  req.headers = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream", ...headers };
  req.rawHeaders = Object.entries(req.headers).flat() as string[];
  // A response with no socket keeps what is written in memory; the SSE stream ends once the request is answered.
  const res = new ServerResponse(req);
  await transport.handleRequest(req, res, message);
  return res.statusCode;
}

/** Initializes `transport` (whose sessionIdGenerator returns `sessionId`) as the client once did. */
export async function replayInitialize(
  transport: NodeStreamableHTTPServerTransport,
  sessionId: string,
  initialize: unknown,
): Promise<void> {
  const status = await replay(transport, initialize, {});
  if (status !== 200 || transport.sessionId !== sessionId)
    throw new Error(`adopting session: the recorded initialize was refused (HTTP ${status})`);
  await replay(transport, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId });
}
