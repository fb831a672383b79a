// Hand-driven peers on the SDK's linked in-memory transport, for tests of what the other side sends
// malformed: the SDK's stdio and HTTP transports refuse such messages at parse, so only a transport
// that delivers messages as they are (the in-memory pair, a host's own) lets them reach the Protocol.
import { Client, InMemoryTransport as ClientMemory } from "@modelcontextprotocol/client";
import { InMemoryTransport, type McpServer } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../src/client/attach.js";
import { scriptedUI } from "../../src/ui/scripted.js";

export type Raw = Record<string, any>;
type OnRequest = (m: Raw, send: (m: Raw) => Promise<void>) => void;

/** A hand-driven client on the other end of `server` (2025-11-25, form elicitation); `replies` counts answers by id. */
export async function rawClient(server: McpServer, onRequest: OnRequest) {
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(theirs);
  const waiting = new Map<unknown, (m: Raw) => void>();
  const replies = new Map<unknown, number>();
  const send = (m: Raw) => mine.send(m as never);
  mine.onmessage = (m: Raw) => {
    if (typeof m.method === "string" && m.id !== undefined) onRequest(m, send);
    else if (m.id !== undefined) {
      replies.set(m.id, (replies.get(m.id) ?? 0) + 1);
      waiting.get(m.id)?.(m);
    }
  };
  await mine.start();
  const request = (id: number, method: string, params: unknown) =>
    new Promise<Raw>((resolve) => {
      waiting.set(id, resolve);
      void send({ jsonrpc: "2.0", id, method, params });
    });
  await request(1, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: "raw", version: "1" },
  });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { request, send, replies, close: () => mine.close() };
}

/** A hand-driven server on the other end of a Client with attachElicitation; `replies` counts answers by id. */
export async function rawServer(onRequest: OnRequest, beforeConnect: (client: Client) => void = () => {}) {
  const client = new Client({ name: "c", version: "1" }, { capabilities: {} });
  const handle = attachElicitation(client, { ui: scriptedUI([], { log: () => {} }) });
  beforeConnect(client);
  const [mine, theirs] = ClientMemory.createLinkedPair();
  const waiting = new Map<unknown, (m: Raw) => void>();
  const replies = new Map<unknown, number>();
  const send = (m: Raw) => mine.send(m as never);
  mine.onmessage = (m: Raw) => {
    if (m.method === "initialize")
      void send({
        jsonrpc: "2.0",
        id: m.id,
        result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } },
      });
    else if (typeof m.method === "string" && m.id !== undefined) onRequest(m, send);
    else if (m.id !== undefined) {
      replies.set(m.id, (replies.get(m.id) ?? 0) + 1);
      waiting.get(m.id)?.(m);
    }
  };
  await mine.start();
  await client.connect(theirs);
  const ask = (id: number, method: string, params: unknown) =>
    new Promise<Raw>((resolve) => {
      waiting.set(id, resolve);
      void send({ jsonrpc: "2.0", id, method, params });
    });
  return { client, handle, ask, replies, close: () => client.close() };
}
