// Real SDK clients and servers over real transports, on a chosen protocol revision, with every
// JSON-RPC message that crosses the client's transport recorded for wire checks.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InMemoryTransport, type McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { serveHttp } from "../../src/server/http/serve.js";
import { deferred } from "./deferred.js";
import { assertWire } from "./wire.js";

export type TransportKind = "memory" | "http";
export type WireMessage = { dir: "in" | "out"; message: Record<string, any> };

type AnyTransport = { onmessage?: (m: unknown, extra?: unknown) => void; send(m: unknown, o?: unknown): Promise<void> };

/** A copy for the log; a message too deep to clone (a hostile one, on purpose) is logged as it is. */
function copy(message: unknown): Record<string, any> {
  try {
    return structuredClone(message) as Record<string, any>;
  } catch {
    return message as Record<string, any>;
  }
}

/** Wraps a client transport so every message in and out is appended to `log`. */
export function tap<T extends object>(transport: T, log: WireMessage[]): T {
  return new Proxy(transport, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "send") {
        return (message: Record<string, any>, options?: unknown) => {
          log.push({ dir: "out", message: copy(message) });
          return (target as unknown as AnyTransport).send(message, options);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, prop, value) {
      if (prop === "onmessage" && typeof value === "function") {
        (target as AnyTransport).onmessage = (message, extra) => {
          log.push({ dir: "in", message: copy(message) });
          value(message, extra);
        };
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
}

export function clientFor(revision: ProtocolRevision, capabilities: Record<string, unknown> = { elicitation: { form: {} } }) {
  const options: Record<string, unknown> = { capabilities };
  if (revision === "2026-07-28") options.versionNegotiation = { mode: { pin: "2026-07-28" } };
  else options.supportedProtocolVersions = revision === "2025-06-18" ? ["2025-06-18"] : ["2025-11-25", "2025-06-18"];
  return new Client({ name: "test-client", version: "1.0.0" }, options as never);
}

export interface Connection {
  client: Client;
  wire: WireMessage[];
  /**
   * Resolves once the client can hear notifications not tied to a request: at once in memory; over HTTP
   * when the server answered the client's GET stream (the SDK opens it unawaited after initialize, and a
   * server drops what it sends before then). Never on 2026-07-28, which has no such stream.
   */
  notificationsOpen: Promise<void>;
  close(): Promise<void>;
}

/** Connects `client` to servers made by `factory` over the given transport, at the client's revision. */
export async function connect(
  client: Client,
  factory: () => McpServer,
  revision: ProtocolRevision,
  kind: TransportKind,
): Promise<Connection> {
  const wire: WireMessage[] = [];
  // Closing also checks every elicitation message that crossed the wire against schema.json.
  const closeWith = (stop: () => Promise<void>) => async () => {
    await stop();
    assertWireValid(wire, revision);
  };
  if (kind === "http") {
    const http = await serveHttp(() => factory());
    const opened = deferred();
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && res.ok) opened.resolve();
      return res;
    };
    await client.connect(tap(new StreamableHTTPClientTransport(http.url, { fetch: watching }), wire));
    return {
      client,
      wire,
      notificationsOpen: opened.promise,
      close: closeWith(async () => {
        await client.close();
        await http.close();
      }),
    };
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (revision === "2026-07-28") serveStdio(() => factory(), { transport: serverSide } as never);
  else await factory().connect(serverSide);
  await client.connect(tap(clientSide, wire));
  return { client, wire, notificationsOpen: Promise.resolve(), close: closeWith(() => client.close()) };
}

/**
 * Connects `client` in memory to a server made by `factory`, rewriting every result the client sends
 * with `rewrite`: below the SDK client's own checks, so a test can put an invalid answer on the wire.
 */
export async function connectRewritingResults(
  client: Client,
  factory: () => McpServer,
  rewrite: (result: Record<string, any>) => unknown,
): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message: any, options?: any) =>
    send("result" in message ? { ...message, result: rewrite(message.result) } : message, options);
  await client.connect(clientSide);
}

/** Elicitation requests the client received, across both eras (live requests and embedded ones). */
export function elicitationsOn(wire: WireMessage[]): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const { dir, message } of wire) {
    if (dir !== "in") continue;
    if (message.method === "elicitation/create") out.push(message.params);
    const requests = message.result?.resultType === "input_required" ? (message.result.inputRequests ?? {}) : {};
    for (const r of Object.values(requests) as Record<string, any>[]) if (r.method === "elicitation/create") out.push(r.params);
  }
  return out;
}

/** The schema.json definitions of each server→client request method and its result. */
const WIRE_DEFS: Record<string, { request: string; result: string }> = {
  "elicitation/create": { request: "ElicitRequest", result: "ElicitResult" },
  "sampling/createMessage": { request: "CreateMessageRequest", result: "CreateMessageResult" },
  "roots/list": { request: "ListRootsRequest", result: "ListRootsResult" },
};

/**
 * Validates every elicitation, sampling and roots message on the wire against the revision's
 * schema.json: requests (live or embedded), the client's results (live, or as inputResponses,
 * checked by the method of the request they answer), and input_required results.
 * Returns how many messages were checked.
 */
export function assertWireValid(wire: WireMessage[], revision: ProtocolRevision): number {
  let checked = 0;
  const liveMethods = new Map<unknown, string>();
  // Input keys seen in input_required results, with their method, for checking inputResponses.
  const inputMethods = new Map<string, string>();
  for (const { dir, message } of wire) {
    const defs = typeof message.method === "string" ? WIRE_DEFS[message.method] : undefined;
    if (dir === "in" && defs) {
      assertWire(revision, defs.request, message);
      liveMethods.set(message.id, message.method);
      checked++;
    }
    if (dir === "out" && "result" in message && liveMethods.has(message.id)) {
      assertWire(revision, WIRE_DEFS[liveMethods.get(message.id)!]!.result, message.result);
      checked++;
    }
    if (dir === "in" && message.result?.resultType === "input_required") {
      assertWire(revision, "InputRequiredResult", message.result);
      for (const [key, r] of Object.entries(message.result.inputRequests ?? {}) as [string, Record<string, any>][]) {
        const embedded = WIRE_DEFS[r.method];
        if (embedded) assertWire(revision, embedded.request, r);
        inputMethods.set(key, r.method);
      }
      checked++;
    }
    if (dir === "out" && message.method === "tools/call" && message.params?.inputResponses) {
      for (const [key, r] of Object.entries(message.params.inputResponses)) {
        // A key no round asked for is checked as an elicitation answer, as before sampling and roots.
        assertWire(revision, WIRE_DEFS[inputMethods.get(key) ?? "elicitation/create"]!.result, r);
      }
      checked++;
    }
  }
  return checked;
}
