// One 2025-era session of the fetch handler: its transport, its server, and what is open or pending on it.
import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type McpServer,
  type RequestId,
  type Server as McpLowLevelServer,
} from "@modelcontextprotocol/server";

export type Message = Record<string, unknown>;
export const isRequest = (m: Message) => typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number");
export const isResponse = (m: Message) =>
  m.method === undefined && (typeof m.id === "string" || typeof m.id === "number") && ("result" in m || "error" in m);
export const cancelledId = (m: Message) =>
  m.method === "notifications/cancelled" ? (m.params as { requestId?: RequestId } | undefined)?.requestId : undefined;

/** Told when a client request starts and when it ends (answered or cancelled): a fleet records the calls in flight. */
export interface CallObserver {
  started(id: RequestId, request: Message): void;
  ended(id: RequestId): void;
}

/**
 * What is open or pending on one session. The transport reports every message both ways (the SDK
 * chains an `onmessage` set before `connect`, and `send` is the transport's public method), so a
 * client request counts until its response is sent or the client cancels it, and a server→client
 * request until its response arrives or the server withdraws it (timeout or cancelled call).
 */
export class Activity {
  /** HTTP requests (POST streams, the GET stream) of this session not yet closed. */
  open = 0;
  readonly fromClient = new Set<RequestId>();
  readonly toClient = new Set<RequestId>();
  lastActive = Date.now();
  calls?: CallObserver;

  get busy(): boolean {
    return this.open > 0 || this.fromClient.size > 0 || this.toClient.size > 0;
  }
  touch(): void {
    this.lastActive = Date.now();
  }
  inbound(message: Message): void {
    if (this.calls) {
      const cancelled = cancelledId(message);
      if (isRequest(message)) this.calls.started(message.id as RequestId, message);
      else if (cancelled !== undefined && this.fromClient.has(cancelled)) this.calls.ended(cancelled);
    }
    this.track(message, this.fromClient, this.toClient);
  }
  /** Returns the client request this message answers, if it does (its call ends once the answer is stored: see send). */
  outbound(message: Message): RequestId | undefined {
    const answers = isResponse(message) && this.fromClient.has(message.id as RequestId) ? (message.id as RequestId) : undefined;
    this.track(message, this.toClient, this.fromClient);
    return answers;
  }
  /** A message from one side: its requests open on `sent`, its responses close the other side's, its cancellations its own. */
  private track(message: Message, sent: Set<RequestId>, answered: Set<RequestId>): void {
    this.touch();
    if (isRequest(message)) sent.add(message.id as RequestId);
    else if (isResponse(message)) answered.delete(message.id as RequestId);
    else {
      const id = cancelledId(message);
      if (id !== undefined) sent.delete(id);
    }
  }
}

/** Ids of the server's requests as its client sees them (a fleet's adopted session: see fleet/request-ids.ts). */
export interface RequestIdMap {
  outbound(message: Message): Message;
  /** Undefined: an answer the server must not get. */
  inbound(message: Message): Message | undefined;
  unsent(message: Message): void;
}

export class TrackedTransport extends WebStandardStreamableHTTPServerTransport {
  readonly activity = new Activity();
  /** Set on a session a fleet member adopted. */
  requestIds?: RequestIdMap;

  override async send(message: JSONRPCMessage, options?: Parameters<WebStandardStreamableHTTPServerTransport["send"]>[1]): Promise<void> {
    const m = this.requestIds ? this.requestIds.outbound(message as Message) : (message as Message);
    const answers = this.activity.outbound(m);
    try {
      await super.send(m as JSONRPCMessage, options);
    } catch (error) {
      // A request that never left cannot be answered.
      if (isRequest(m)) this.activity.toClient.delete(m.id as RequestId);
      this.requestIds?.unsent(m);
      throw error;
    } finally {
      // Only once the answer is in the event store: a fleet member dying in between leaves the call's
      // record, and the member that adopts the session replays the answer (and does not run the call again).
      if (answers !== undefined) this.activity.calls?.ended(answers);
    }
  }
}

export interface Session {
  transport: TrackedTransport;
  server: McpServer | McpLowLevelServer;
  closed: boolean;
  /** With auth: who opened it (issuer and subject); only they may use it. */
  owner?: string;
  /** In a fleet: the client's initialize request (recorded, so another member can adopt the session). */
  initialize?: unknown;
  /** In a fleet: when its record was last written to the store. */
  savedAt?: number;
}
