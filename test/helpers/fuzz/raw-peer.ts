// The server end of an in-memory MCP connection, written by hand: it completes the initialize
// handshake and then sends whatever requests a test gives it, unchecked, and returns the client's
// JSON-RPC response. A fuzzer drives the client's real request path (the SDK's dispatch, its checks
// and the installed handler) thousands of times a second this way, with no server framework between.
import type { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";

export type RawResponse = { id: number; result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } };

export interface RawPeer {
  /** Sends `method` with `params` as they are and resolves with the client's response. */
  request(method: string, params: unknown): Promise<RawResponse>;
  close(): Promise<void>;
}

/** Connects `client` to a hand-written server on `protocolVersion` that calls itself `serverInfo`. */
export async function rawPeer(
  client: Client,
  protocolVersion: string,
  serverInfo: { name: string; version: string } = { name: "raw-peer", version: "1.0.0" },
): Promise<RawPeer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (response: RawResponse) => void>();
  let next = 1;
  serverSide.onmessage = (message: any) => {
    if (message.method === "initialize") {
      void serverSide.send({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion, capabilities: {}, serverInfo },
      } as never);
    } else if (message.method === undefined && typeof message.id === "number") {
      waiting.get(message.id)?.(message as RawResponse);
      waiting.delete(message.id);
    }
  };
  await serverSide.start();
  await client.connect(clientSide);
  return {
    request(method, params) {
      const id = next++;
      return new Promise<RawResponse>((resolve, reject) => {
        waiting.set(id, resolve);
        serverSide.send({ jsonrpc: "2.0", id, method, params } as never).catch(reject);
      });
    },
    async close() {
      await client.close();
    },
  };
}
